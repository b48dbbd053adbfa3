/// What to play: one recording, from a position.
public struct AudioRequest: Hashable, Sendable {
    /// Increases with every request; snapshots carry it so a late report about an old track
    /// is never mistaken for the current one.
    public var token: Int
    /// Resolved URL: a path, `file://` or `http(s)://`.
    public var url: String
    /// Shown by the sound server (PulseAudio stream media name).
    public var title: String
    /// Start position in seconds.
    public var startAt: Double

    public init(token: Int, url: String, title: String, startAt: Double = 0) {
        self.token = token
        self.url = url
        self.title = title
        self.startAt = startAt
    }
}

/// Where playback stands.
public enum PlaybackStatus: String, Hashable, Sendable, CaseIterable {
    case idle, loading, buffering, playing, paused, ended, failed
}

/// Why playback failed, in words a visitor can act on.
public enum AudioFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// No PulseAudio server could be reached. The guide keeps working; the transcript shows.
    case noSoundServer(String)
    /// The sound server went away during playback.
    case soundServerLost(String)
    /// The server answered with an HTTP error.
    case http(status: Int)
    /// The file is missing (a path or file:// URL).
    case fileNotFound(String)
    /// DNS, refused, reset, dropped mid-track, timed out.
    case network(String)
    /// The bytes are not MP3 audio.
    case notAudio
    /// The server announced fewer bytes (its Content-Length) than it had: the recording stops
    /// there. Not the visitor's or the file's fault; the museum's server needs fixing.
    case contentLengthTooShort(announced: Int)
    /// The server sent the request round in circles (more redirects than are followed).
    case tooManyRedirects
    /// The server's answer had more header lines than a client reads (libcurl's limit).
    case headersTooLarge
    case other(String)

    /// The sound server was missing or went away: playback can go on where it was once one
    /// answers again.
    public var isSoundServer: Bool {
        switch self {
        case .noSoundServer, .soundServerLost: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .noSoundServer(let why): return "no sound server (\(why))"
        case .soundServerLost(let why): return "the sound server went away (\(why))"
        case .http(let s): return "the audio file is not available (HTTP \(s))"
        case .fileNotFound(let p): return "the audio file is missing (\(p))"
        case .network(let why): return "the audio stream failed (\(why))"
        case .notAudio: return "the file is not MP3 audio"
        case .contentLengthTooShort(let n): return "the server announced \(n) bytes but had more (its Content-Length is too short): the recording is cut off"
        case .tooManyRedirects: return "the server redirected the request more than 5 times (a redirect loop)"
        case .headersTooLarge: return "the server's answer had headers too large to read"
        case .other(let why): return why
        }
    }
}

/// A consistent picture of the player, taken under a lock by the audio threads and polled by
/// the UI loop (cmus's player_info snapshot).
public struct PlayerSnapshot: Equatable, Sendable {
    public var token: Int
    public var status: PlaybackStatus
    /// Seconds from the start of the recording.
    public var position: Double
    /// Seconds, when known (exact for files; from Content-Length for streams).
    public var duration: Double?
    /// 0…1.
    public var volume: Double
    public var failure: AudioFailure?
    /// Whether a sound server is reachable now (probed while playback failed for lack of one).
    public var outputAvailable: Bool
    /// The recording's server could not be reached: the copy kept on this machine plays.
    public var keptCopy = false

    public init(token: Int = 0, status: PlaybackStatus = .idle, position: Double = 0, duration: Double? = nil, volume: Double = 1, failure: AudioFailure? = nil, outputAvailable: Bool = true) {
        self.token = token
        self.status = status
        self.position = position
        self.duration = duration
        self.volume = volume
        self.failure = failure
        self.outputAvailable = outputAvailable
    }

    /// Whether `other` is this snapshot with only the position changed (or none at all).
    public func differsOnlyInPosition(from other: PlayerSnapshot) -> Bool {
        var moved = other
        moved.position = position
        return moved == self
    }

    /// The snapshot rounded to what the screen shows (tenths of a second), so the loop only
    /// redraws when something visible changed.
    public var visible: PlayerSnapshot {
        var s = self
        s.position = (position * 10).rounded() / 10
        s.duration = duration.map { ($0 * 10).rounded() / 10 }
        return s
    }
}

/// The audio player as the core sees it. The live engine (curl → mpg123 → PulseAudio) runs
/// its blocking work on its own threads; every call here returns at once.
public protocol AudioEngine: AnyObject {
    func play(_ request: AudioRequest)
    func pause()
    func resume()
    func stop()
    /// Seek to an absolute position in seconds (clamped to the recording).
    func seek(to seconds: Double)
    /// 0…1.
    func setVolume(_ volume: Double)
    /// Playback speed with the pitch kept (1: as recorded), for this track and the next;
    /// positions stay in the recording's own seconds.
    func setSpeed(_ speed: Double)
    func snapshot() -> PlayerSnapshot
    /// Asks the engine to call `wake` (from any thread) whenever its snapshot changes in
    /// anything but the position: a status, a failure, the duration. True when it will; the
    /// loop then waits for a playing recording's next whole second instead of looking ten
    /// times a second.
    func notifiesChanges(_ wake: @escaping @Sendable () -> Void) -> Bool
    /// The guide is on screen: open what the first recording will need (libcurl), so that
    /// Play does not wait for it, without slowing the start (the loop calls it once, after the
    /// first frame with the museum).
    func warmUp()
}

extension AudioEngine {
    public func notifiesChanges(_ wake: @escaping @Sendable () -> Void) -> Bool { false }
    public func warmUp() {}

    /// Carries out the player's `Effect.audio` command (the shell's effects, and the benches
    /// that stand in for them, all hand commands over this way).
    public func run(_ command: AudioCommand) {
        switch command {
        case .play(let r): play(r)
        case .pause: pause()
        case .resume: resume()
        case .stop: stop()
        case .seek(let t): seek(to: t)
        case .volume(let v): setVolume(v)
        case .speed(let x): setSpeed(x)
        }
    }
}

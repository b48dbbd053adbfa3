import DocentCore
import Foundation
import Synchronization

/// The live `AudioEngine`, shaped like cmus's player: per track, a producer thread (libcurl →
/// libmpg123 in feed mode → a PCM ring buffer) and an output thread (ring → PulseAudio, via
/// the asynchronous API so pause is a real cork and volume is the stream's own).
///
/// - Every method returns at once; blocking work runs on the track's own threads (Foundation
///   `Thread`), never in Swift concurrency tasks. The UI polls `snapshot()`.
/// - URLs: plain paths, `file://`, `http://`, `https://`. Seeks restart the transfer at the
///   byte mpg123 needs, with an HTTP Range when the server honours it; a server that ignores
///   Range still works (bytes before the target are read and dropped).
/// - Failures are states (`.failed` with an `AudioFailure`), never crashes or hangs. While the
///   failure is about the sound server, the engine probes every `probeInterval` seconds and
///   sets `outputAvailable` when one answers again.
/// - The PulseAudio client is named by `applicationName` ("docent"); each stream's media name
///   is the request's title.
/// - With `playLogPath` (default: `$DOCENT_PLAY_LOG`) every start, end, failure and stop is
///   appended to that file (see `PlayLog`).
public final class LiveAudioEngine: AudioEngine, Sendable {
    /// Tuning; the defaults suit a museum guide on a LAN or a laptop.
    public struct Configuration: Sendable {
        /// PulseAudio `application.name`.
        public var applicationName: String
        /// Seconds to connect to the web server, and to the sound server.
        public var connectTimeout: Double
        /// Seconds without a single byte after which a stream counts as dropped.
        public var stallTimeout: Double
        /// Seconds the sound server buffers ahead (PulseAudio tlength). Pause, seek, stop and
        /// volume do not wait for it (cork, flush, the stream's own volume); a speed change is
        /// heard after it. A second wakes the output a quarter as often as 0.25 s did: the
        /// guide's CPU while playing is held against mpg123's (`make bench`).
        public var outputLatency: Double
        /// Seconds of audio the server waits for before it starts playing, and again after
        /// running dry (PulseAudio prebuf): a slow stream starts this soon.
        public var startBuffer: Double
        /// Seconds between sound-server probes while playback failed for lack of one.
        public var probeInterval: Double
        /// Decoded audio kept ahead of the output, in bytes (512 KiB ≈ 3 s of CD audio, 16 s of
        /// 16 kHz mono speech).
        public var bufferBytes: Int
        /// Sent as `User-Agent` to web servers.
        public var userAgent: String
        /// Where to append the play log; nil for none.
        public var playLogPath: String?
        /// Where recordings heard whole are kept to play offline; nil: none kept.
        public var keptAudioDirectory: String?

        public init(
            applicationName: String = "docent", connectTimeout: Double = 5, stallTimeout: Double = 15,
            outputLatency: Double = 1, startBuffer: Double = 0.25, probeInterval: Double = 2, bufferBytes: Int = 512 * 1024,
            userAgent: String = "Docent/0.1 libcurl",
            playLogPath: String? = ProcessInfo.processInfo.environment["DOCENT_PLAY_LOG"].flatMap { $0.isEmpty ? nil : $0 },
            keptAudioDirectory: String? = nil
        ) {
            self.keptAudioDirectory = keptAudioDirectory
            self.applicationName = applicationName
            self.connectTimeout = connectTimeout
            self.stallTimeout = stallTimeout
            self.outputLatency = outputLatency
            self.startBuffer = startBuffer
            self.probeInterval = probeInterval
            self.bufferBytes = bufferBytes
            self.userAgent = userAgent
            self.playLogPath = playLogPath
        }
    }

    private let hub: EngineHub

    public init(configuration: Configuration = Configuration()) {
        hub = EngineHub(configuration: configuration)
    }

    /// Opens libcurl on a thread of its own (`CurlSession.warmUp`). Not when the engine is
    /// made: opening libcurl and the thirty libraries under it holds the dynamic loader's
    /// lock, and the guide's main thread, starting its own threads meanwhile, waited for it
    /// (6–15 ms of every start, issue 48).
    public func warmUp() { CurlSession.warmUp() }

    /// Where recordings are kept by default for this environment (`$XDG_CACHE_HOME/docent/audio`).
    public static func keptAudioDirectory(environment: [String: String]) -> String {
        AudioKeeper.defaultDirectory(environment: environment)
    }

    deinit { hub.stop() }

    public func play(_ request: AudioRequest) { hub.play(request) }
    public func pause() { hub.setPaused(true) }
    public func resume() { hub.setPaused(false) }
    public func stop() { hub.stop() }
    public func seek(to seconds: Double) { hub.seek(to: seconds) }
    public func setVolume(_ volume: Double) { hub.setVolume(volume) }
    public func setSpeed(_ speed: Double) { hub.setSpeed(speed) }
    public func snapshot() -> PlayerSnapshot { hub.snapshot() }
    public func notifiesChanges(_ wake: @escaping @Sendable () -> Void) -> Bool {
        hub.onChange.withLock { $0 = wake }
        return true
    }

    /// Seconds from `play` to the first PCM handed to PulseAudio, for the current track.
    var startupLatency: Double? { hub.startupLatency }
}

/// The engine's state and the current track; what the track threads report to.
final class EngineHub: TrackReporting, @unchecked Sendable {
    private struct State {
        var snapshot = PlayerSnapshot()
        /// The underlying status; `snapshot.status` shows `.paused` over it while paused.
        var phase: PlaybackStatus = .idle
        var paused = false
        /// Playback speed for this and the following tracks.
        var speed = 1.0
        var track: Track?
        var nextTrackID: UInt64 = 1
        var probeGeneration = 0
        var seekGeneration = 0
        /// When the output last said where playback is (monotonic ns), and the most a
        /// snapshot said since: between reports a playing position moves on with the clock.
        var positionAt: UInt64?
        var positionGiven = 0.0

        /// Playback starts again at `seconds` (a play, a stop, a seek): nothing reported yet.
        mutating func place(at seconds: Double) {
            snapshot.position = seconds
            positionAt = nil
            positionGiven = 0
        }
    }

    /// How far past its last report a playing position is moved on (a stalled output stops
    /// there rather than running on): the output reports at least once a second while it
    /// plays (`Playback.idleWait`).
    static let extrapolationLimit = 1.0
    /// How far the output's position may pass the length known before the length is taken
    /// for wrong (an estimate from the size is a frame or two off).
    static let lengthSlack = 0.5

    let configuration: LiveAudioEngine.Configuration
    private let state = Mutex(State())
    /// Called after the snapshot changed in anything but the position (the guide's loop).
    let onChange = Mutex<(@Sendable () -> Void)?>(nil)
    private let log: PlayLog?

    init(configuration: LiveAudioEngine.Configuration) {
        self.configuration = configuration
        log = configuration.playLogPath.map(PlayLog.init(path:))
    }

    /// The snapshot; while playing, the position is moved on from the output's last report
    /// by the time since (the output reports a few times a second, the guide's clock ticks
    /// on the second), and never goes back between reports.
    func snapshot() -> PlayerSnapshot {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { s in
            var snap = s.snapshot
            guard snap.status == .playing || snap.status == .paused else { return snap }
            if snap.status == .playing, let at = s.positionAt {
                let elapsed = Double(now &- at) / 1_000_000_000
                snap.position += min(max(0, elapsed), Self.extrapolationLimit) * s.speed
                if let d = snap.duration { snap.position = min(snap.position, d) }
            }
            snap.position = max(snap.position, s.positionGiven)
            s.positionGiven = snap.position
            return snap
        }
    }

    var startupLatency: Double? {
        state.withLock { s in
            guard let track = s.track, let first = track.state.firstPCMWrite else { return nil }
            return first.timeIntervalSince(track.created)
        }
    }

    // MARK: - Control

    func play(_ request: AudioRequest) {
        let (old, track) = state.withLock { s -> (Track?, Track) in
            let old = s.track
            let wasActive = Self.isActive(old, in: s)
            let id = s.nextTrackID
            s.nextTrackID += 1
            let track = Track(id: id, request: request, configuration: configuration, paused: false, volume: s.snapshot.volume, speed: s.speed, reporter: self)
            s.track = track
            s.paused = false
            s.phase = .loading
            s.probeGeneration += 1
            s.snapshot.token = request.token
            s.place(at: max(0, request.startAt))
            s.snapshot.duration = nil
            s.snapshot.failure = nil
            s.snapshot.keptCopy = false
            Self.refreshStatus(&s)
            old?.cancel()
            return (wasActive ? old : nil, track)
        }
        if let old { log?.append("stopped", old.request) }
        log?.append("start", request)
        track.start()
    }

    func stop() {
        let old = state.withLock { s -> Track? in
            let old = s.track
            let wasActive = Self.isActive(old, in: s)
            old?.cancel()
            s.track = nil
            s.paused = false
            s.phase = .idle
            s.probeGeneration += 1
            s.place(at: 0)
            s.snapshot.duration = nil
            s.snapshot.failure = nil
            s.snapshot.keptCopy = false
            Self.refreshStatus(&s)
            return wasActive ? old : nil
        }
        if let old { log?.append("stopped", old.request) }
    }

    func setPaused(_ paused: Bool) {
        state.withLock { s in
            guard let track = s.track, Self.isActive(track, in: s) else { return }
            s.paused = paused
            s.positionAt = nil
            track.setPaused(paused)
            Self.refreshStatus(&s)
        }
    }

    func setVolume(_ volume: Double) {
        let volume = volume.isFinite ? min(1, max(0, volume)) : 1
        state.withLock { s in
            s.snapshot.volume = volume
            s.track?.setVolume(volume)
        }
    }

    /// Speeds SoundTouch can stretch to well (the guide offers 0.75× to 2×).
    static let speedRange = 0.5...3.0

    func setSpeed(_ speed: Double) {
        let speed = speed.isFinite ? min(Self.speedRange.upperBound, max(Self.speedRange.lowerBound, speed)) : 1
        state.withLock { s in
            s.speed = speed
            s.track?.setSpeed(speed)
        }
    }

    func seek(to seconds: Double) {
        let restart = state.withLock { s -> AudioRequest? in
            guard let track = s.track, seconds.isFinite else { return nil }
            var target = max(0, seconds)
            if let duration = s.snapshot.duration { target = min(target, duration) }
            switch s.phase {
            case .loading, .buffering, .playing:
                s.place(at: target)
                track.seek(to: target)
                return nil
            case .ended:
                // The track is over: play it again from there.
                var request = track.request
                request.startAt = target
                return request
            case .idle, .paused, .failed:
                return nil
            }
        }
        if let restart { play(restart) }
    }

    // MARK: - Reports from the track threads

    func track(_ id: UInt64, reported event: TrackEvent) {
        var logLine: (String, AudioRequest, String?)?
        var startProbe = false
        var probeGeneration = 0
        var lengthDropped = false
        state.withLock { s in
            guard let track = s.track, track.id == id, Self.isActive(track, in: s) else { return }
            switch event {
            case .outputConnected:
                s.snapshot.outputAvailable = true
            case .duration(let seconds):
                s.snapshot.duration = seconds
            case .playing:
                s.phase = .playing
            case .buffering:
                s.phase = .buffering
            case .fromKeptCopy:
                s.snapshot.keptCopy = true
            case .position(let seconds, let run):
                guard run == track.state.seekGeneration else { return }
                // Issue 45 #9: played time past the length known is a length that was wrong
                // (a stream that changed its format, an endless one whose first frame gave a
                // file's length, a lying Xing header): it is no longer said, and the clock
                // goes on with what is heard instead of stopping at it.
                if let d = s.snapshot.duration, seconds > d + Self.lengthSlack {
                    s.snapshot.duration = nil
                    lengthDropped = true
                }
                s.snapshot.position = s.snapshot.duration.map { min($0, seconds) } ?? seconds
                s.positionAt = DispatchTime.now().uptimeNanoseconds
            case .ended(let position):
                s.phase = .ended
                s.paused = false
                // What was played to the end is the length (a header's claim is not: a lying
                // Xing header at 10× said "Finished" at ten times the recording).
                if position > 0 { s.snapshot.duration = position }
                s.snapshot.position = s.snapshot.duration ?? position
                logLine = ("ended", track.request, nil)
            case .failed(let failure):
                s.phase = .failed
                s.paused = false
                s.snapshot.failure = failure
                logLine = ("failed", track.request, failure.description)
                switch failure {
                case .noSoundServer, .soundServerLost:
                    s.snapshot.outputAvailable = false
                    s.probeGeneration += 1
                    probeGeneration = s.probeGeneration
                    startProbe = true
                default:
                    break
                }
            }
            Self.refreshStatus(&s)
        }
        if let (event, request, detail) = logLine { log?.append(event, request, detail: detail) }
        if startProbe { startProber(generation: probeGeneration) }
        if case .position = event, !lengthDropped {} else { changed() }
    }

    private func changed() { onChange.withLock { $0 }?() }

    private static func isActive(_ track: Track?, in s: State) -> Bool {
        guard track != nil else { return false }
        return s.phase == .loading || s.phase == .buffering || s.phase == .playing
    }

    private static func refreshStatus(_ s: inout State) {
        let active = s.phase == .loading || s.phase == .buffering || s.phase == .playing
        s.snapshot.status = active && s.paused ? .paused : s.phase
    }

    // MARK: - Sound-server probe

    /// While playback failed for lack of a sound server, checks every `probeInterval` seconds
    /// whether one answers, until one does or anything else happens (play, stop).
    private func startProber(generation: Int) {
        let thread = Thread { [self] in
            let wakeup = Wakeup()
            while true {
                wakeup.wait(timeout: configuration.probeInterval)
                guard state.withLock({ $0.probeGeneration == generation }) else { return }
                let available: Bool
                switch SoundServerProbe.check(applicationName: configuration.applicationName, timeout: 1) {
                case .success: available = true
                case .failure: available = false
                }
                let done = state.withLock { s -> Bool in
                    guard s.probeGeneration == generation else { return true }
                    s.snapshot.outputAvailable = available
                    return available
                }
                if available { changed() }
                if done { return }
            }
        }
        thread.name = "docent-audio-probe"
        thread.start()
    }
}

/// What the player has loaded: which recording, in which language, for what.
public struct Track: Equatable, Sendable {
    public var audioID: Int
    /// The artwork it comments on (nil for tour intros and bumpers).
    public var artworkID: Int?
    /// The tour it belongs to, when played as part of one.
    public var tourID: Int?
    /// The language actually playing.
    public var language: Language
    /// The language the visitor asked for; differs from `language` when it fell back.
    public var requested: Language
    public var title: String
    public var url: String
    public var transcript: String

    public var fellBack: Bool { language != requested }

    public init(audioID: Int, artworkID: Int?, tourID: Int?, language: Language, requested: Language, title: String, url: String, transcript: String) {
        self.audioID = audioID
        self.artworkID = artworkID
        self.tourID = tourID
        self.language = language
        self.requested = requested
        self.title = title
        self.url = url
        self.transcript = transcript
    }
}

/// The shared player: every tab reads it, only player actions change it.
public struct PlayerState: Equatable, Sendable {
    public var track: Track?
    /// The engine's last report about the current track.
    public var snapshot = PlayerSnapshot()
    /// The next request token (tokens only grow).
    public var nextToken = 1
    /// 0…1, kept across tracks.
    public var volume = 0.8
    /// Playback speed, one of `PlayerFeature.speeds`, kept across tracks (and runs).
    public var speed = 1.0
    public var transcriptScroll = 0

    public init() {}

    public var isActive: Bool {
        guard track != nil else { return false }
        switch snapshot.status {
        case .idle: return false
        default: return true
        }
    }
}

/// Commands for the audio engine (run by the shell).
public enum AudioCommand: Equatable, Sendable {
    case play(AudioRequest)
    case pause
    case resume
    case stop
    case seek(Double)
    case volume(Double)
    /// Playback speed with the pitch kept (1: as recorded).
    case speed(Double)
}

/// What the player keeps between runs: volume and speed.
public struct PlayerSettings: Equatable, Sendable {
    public var volume: Double
    public var speed: Double

    public init(volume: Double = PlayerState().volume, speed: Double = 1) {
        self.volume = volume
        self.speed = speed
    }
}

/// The full player's fixed layout: rows of controls above the scrolling page.
public enum PlayerLayout {
    public static let controlRows = 3
}

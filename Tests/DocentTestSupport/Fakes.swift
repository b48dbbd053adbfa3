import DocentApp
import DocentCore
import DocentUI
import Foundation

// In-memory fakes of every protocol the pure targets consume, for unit tests of the core, the
// UI and the run loop. The adapters are tested against the real thing (AdapterTests,
// EndToEndTests); these never stand in for those.

/// A terminal: each `readEvents` call takes the next scripted batch (an empty batch when the
/// script is over) and records the timeout it was asked to wait; draws are recorded.
public final class FakeBackend: TerminalBackend, @unchecked Sendable {
    public var size: Size
    public var script: [[InputEvent]]
    public private(set) var waits: [Int] = []
    public private(set) var drawn: [Screen] = []
    public private(set) var restoreCount = 0
    /// How many times the loop asked for everything to be written again (Ctrl-L).
    public private(set) var redrawAllCount = 0
    private let lock = NSLock()
    private var _wakes = 0
    public private(set) lazy var waker: Waker = Waker { [weak self] in
        guard let self else { return }
        self.lock.lock()
        self._wakes += 1
        self.lock.unlock()
    }
    /// Called inside `readEvents`, before the batch is returned (to post results "while the
    /// loop waits", or to resize the terminal).
    public var duringWait: ((FakeBackend) -> Void)?

    public init(size: Size = Size(width: 80, height: 24), script: [[InputEvent]] = []) {
        self.size = size
        self.script = script
    }

    /// How many times the mailbox woke the wait.
    public var wakes: Int {
        lock.lock()
        defer { lock.unlock() }
        return _wakes
    }

    public func readEvents(timeoutMilliseconds: Int) -> [InputEvent] {
        waits.append(timeoutMilliseconds)
        duringWait?(self)
        return script.isEmpty ? [] : script.removeFirst()
    }

    public func draw(_ screen: Screen) { drawn.append(screen) }
    public func restore() { restoreCount += 1 }
    public func redrawAll() { redrawAllCount += 1 }
}

/// Effects recorded, not run; a test posts what the shell would answer through `mailbox`.
public final class RecordingEffects: EffectHandling {
    public private(set) var ran: [Effect] = []
    public private(set) var mailbox: Mailbox?
    public private(set) var shutdowns = 0
    public init() {}
    public func run(_ effect: Effect, mailbox: Mailbox) {
        ran.append(effect)
        self.mailbox = mailbox
    }
    public func shutdown() { shutdowns += 1 }
    public private(set) var warmUps = 0
    public func warmUp() { warmUps += 1 }
}

/// The audio engine: calls recorded, the snapshot set by the test.
public final class FakeAudioEngine: AudioEngine, @unchecked Sendable {
    public enum Call: Equatable { case play(AudioRequest), pause, resume, stop, seek(Double), volume(Double), speed(Double) }
    public private(set) var calls: [Call] = []
    public var current = PlayerSnapshot()
    public private(set) var snapshotsTaken = 0
    public init() {}
    public func play(_ request: AudioRequest) { calls.append(.play(request)) }
    public func pause() { calls.append(.pause) }
    public func resume() { calls.append(.resume) }
    public func stop() { calls.append(.stop) }
    public func seek(to seconds: Double) { calls.append(.seek(seconds)) }
    public func setVolume(_ volume: Double) { calls.append(.volume(volume)) }
    public func setSpeed(_ speed: Double) { calls.append(.speed(speed)) }
    /// How many times the loop asked it to get ready to play.
    public private(set) var warmUps = 0
    public func warmUp() { warmUps += 1 }
    public func snapshot() -> PlayerSnapshot {
        snapshotsTaken += 1
        return current
    }
    /// Whether it says it will wake the loop on changes (the live engine does); `wake` is
    /// what it was given.
    public var notifies = false
    public private(set) var wake: (@Sendable () -> Void)?
    public func notifiesChanges(_ wake: @escaping @Sendable () -> Void) -> Bool {
        self.wake = wake
        return notifies
    }
}

/// Settings in memory; `failure` makes every save fail with that sentence.
public final class MemorySettingsStore: SettingsStoring, @unchecked Sendable {
    public var saved: PersistedSettings?
    public private(set) var saves = 0
    public var failure: LoadFailure?
    public init(_ saved: PersistedSettings? = nil) { self.saved = saved }
    public func load() -> Result<PersistedSettings?, LoadFailure> { .success(saved) }
    public func save(_ settings: PersistedSettings) -> Result<Void, LoadFailure> {
        saves += 1
        if let failure { return .failure(failure) }
        saved = settings
        return .success(())
    }
}

/// HTTP and files: answers taken in order (then "no more"), requests recorded.
public final class FakeFetcher: Fetching, @unchecked Sendable {
    public var responses: [Result<FetchResponse, FetchError>]
    public private(set) var requests: [FetchRequest] = []
    public init(_ responses: [Result<FetchResponse, FetchError>]) { self.responses = responses }
    public func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError> {
        requests.append(request)
        return responses.isEmpty ? .failure(.other(url: request.url, reason: "no more")) : responses.removeFirst()
    }
}

/// The offline copies of documents, in memory.
public final class MemoryCache: DocumentCaching, @unchecked Sendable {
    public var docs: [String: CachedDocument] = [:]
    public init() {}
    public func cached(for url: String) -> CachedDocument? { docs[url] }
    public func store(_ doc: CachedDocument, for url: String) { docs[url] = doc }
}

/// Clocks the test moves: a monotonic one in nanoseconds and a wall clock beside it.
public final class TestClock: @unchecked Sendable {
    public private(set) var nanoseconds: UInt64 = 1_000_000_000
    public private(set) var wall: Date
    public init(wall: Date = Date(timeIntervalSince1970: 1_795_000_000)) { self.wall = wall }
    public func advance(milliseconds: Int) {
        nanoseconds += UInt64(milliseconds) * 1_000_000
        wall = wall.addingTimeInterval(Double(milliseconds) / 1000)
    }
    public var monotonic: () -> UInt64 { { self.nanoseconds } }
    public var clock: () -> Date { { self.wall } }
}

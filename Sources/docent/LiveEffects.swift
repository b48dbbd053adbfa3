import DocentApp
import DocentCore
import Foundation
import NetCurl
import StateStore

/// Runs effects for real: documents, features' work and curl on background threads that are
/// counted so quitting can wait for them; settings through a coalescing writer thread, so the
/// loop thread never waits on SQLite.
final class LiveEffects: EffectHandling, @unchecked Sendable {
    let fetcher: CurlFetcher
    let cache: DocumentCaching?
    let prepared: (any PreparedCopying)?
    let store: SettingsStoring?
    let options: ReadOptions
    let audio: AudioEngine?
    /// Diagnostics of the loaded document, for --print-data-errors at exit.
    private(set) var diagnostics: [Diagnostic] = []
    private let lock = NSLock()
    /// Background threads still running (for `shutdown`).
    private let running = NSCondition()
    private var runningCount = 0
    private var writer: PersistenceWriter?
    /// A state database reported as damaged is never written (`--state` pointed at a file
    /// the guide could not read as its own).
    private let writesAllowed: Bool

    /// Each feature's runner, by feature (see `Runners`).
    private var runners: [FeatureID: AnyRunner] = [:]

    /// How long quitting waits for pending saves and running threads. A thread stuck in a
    /// 20 s curl timeout is not waited for that long: the process exits and ends it.
    static let shutdownTimeout: TimeInterval = 2

    let log: GuideLog

    init(
        fetcher: CurlFetcher, cache: DocumentCaching?, prepared: (any PreparedCopying)? = nil, store: SettingsStoring?, options: ReadOptions, audio: AudioEngine?, environment: [String: String],
        writesAllowed: Bool = true, log: GuideLog? = nil
    ) {
        self.log = log ?? GuideLog(path: GuideLog.defaultPath(environment: environment))
        self.audio = audio
        self.fetcher = fetcher
        self.cache = cache
        self.prepared = prepared
        self.store = store
        self.options = options
        self.writesAllowed = writesAllowed
        let statePath = writesAllowed ? (store as? SQLiteSettingsStore)?.path : nil
        let context = RunnerContext(
            fetcher: fetcher, environment: environment, statePath: statePath, log: self.log, background: { [unowned self] work in self.background(work) })
        for r in Runners.all(context) { runners[r.feature] = r }
    }

    func run(_ effect: Effect, mailbox: Mailbox) {
        switch effect {
        case .loadDocument(let source):
            background { [self] in
                // The parsed tree is let go after the museum is posted, not before; the copy
                // prepared for the next start is written after that.
                var tree: JSON?
                var later: [@Sendable () -> Void] = []
                let (result, note) = DocumentLoader.load(
                    source: source, fetcher: fetcher, cache: cache, prepared: prepared, options: options, now: Date(), log: { self.log.write($0) },
                    handOff: { tree = $0 }, later: { later.append($0) })
                if case .failure(let f) = result { log.write("museum data \(source): \(f.message)") }
                if case .success(let m) = result {
                    lock.lock()
                    diagnostics = m.data.diagnostics
                    lock.unlock()
                }
                mailbox.post(.documentLoaded(result, note: note))
                tree = nil
                for work in later { work() }
            }
        case .persist(let settings):
            guard let store, writesAllowed else { return }
            if writer == nil {
                writer = PersistenceWriter(store: store) { message in mailbox.post(.persistenceFailed(message)) }
            }
            writer?.save(settings)
        case .audio(let command):
            guard let audio else { return }
            switch command {
            case .play(let r): audio.play(r)
            case .pause: audio.pause()
            case .resume: audio.resume()
            case .stop: audio.stop()
            case .seek(let t): audio.seek(to: t)
            case .volume(let v): audio.setVolume(v)
            case .speed(let x): audio.setSpeed(x)
            }
        case .feature(let value):
            // A feature's effect with no runner to take it is a wiring mistake, never silent.
            guard let runner = runners[value.feature], runner.run(value, mailbox) else {
                assertionFailure("no runner takes \(value)")
                return
            }
        case .quit, .timer:
            break  // the loop handles these itself
        }
    }

    /// Writes the settings still pending and waits for running threads, both bounded.
    func shutdown() {
        let deadline = Date().addingTimeInterval(Self.shutdownTimeout)
        writer?.stop(timeout: Self.shutdownTimeout)
        running.lock()
        while runningCount > 0, running.wait(until: deadline) {}
        running.unlock()
    }

    /// Threads still running (tests and `shutdown`).
    var runningThreads: Int {
        running.lock()
        defer { running.unlock() }
        return runningCount
    }

    var loadedDiagnostics: [Diagnostic] {
        lock.lock()
        defer { lock.unlock() }
        return diagnostics
    }

    /// Runs blocking work on a thread of its own (two cores: never in the cooperative pool),
    /// counted until it ends.
    func background(_ work: @escaping @Sendable () -> Void) {
        running.lock()
        runningCount += 1
        running.unlock()
        let t = Thread { [running] in
            work()
            running.lock()
            self.runningCount -= 1
            running.broadcast()
            running.unlock()
        }
        t.stackSize = 4 << 20
        t.start()
    }
}

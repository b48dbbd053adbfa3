import CShims
import DocentApp
import DocentCore
import Foundation
import NetCurl
import StateStore
import TwoCores

/// Taken by the work that holds much memory for a while: a museum's load with the prepared
/// copy it writes, and building the search index. One after the other, the guide's peak memory
/// is the larger of the two rather than their sum (issue 14: a 79 MB appData's first start
/// peaked 15-20 MB higher with both at once). One value, made by the composition root and
/// handed to the load and the runners (it was a static lock).
final class HeavyWork: Sendable {
    let lock = NSLock()
}

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
        writesAllowed: Bool = true, log: GuideLog? = nil, heavyWork: HeavyWork = HeavyWork()
    ) {
        self.heavyWork = heavyWork
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
            fetcher: fetcher, environment: environment, statePath: statePath, log: self.log, heavyWork: heavyWork,
            background: { [unowned self] work in self.background(work) },
            discardable: { [unowned self] work in self.background(work, waitedForAtQuit: false) },
            afterFirstFrame: { [unowned self] work in self.afterFirstFrame(work) })
        for r in Runners.all(context) { runners[r.feature] = r }
    }

    func run(_ effect: Effect, mailbox: Mailbox) {
        switch effect {
        case .loadDocument(let source):
            // The first load was started before the terminal and the rest were set up
            // (`EarlyLoad`); any later one (the kiosk's daily reload) reads afresh.
            if let early, early.source == source, early.claim() {
                early.deliver { result, note in self.loaded(result, note: note, mailbox: mailbox) }
                return
            }
            background { [self] in
                Self.load(source, fetcher: fetcher, cache: cache, prepared: prepared, options: options, log: log, heavyWork: heavyWork) { result, note in
                    self.loaded(result, note: note, mailbox: mailbox)
                }
            }
        case .persist(let settings):
            guard let store, writesAllowed else { return }
            if writer == nil {
                writer = PersistenceWriter(store: store) { message in mailbox.post(.persistenceFailed(message)) }
            }
            writer?.save(settings)
        case .audio(let command):
            audio?.run(command)
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

    /// The load started early, if any (see `EarlyLoad`).
    var early: EarlyLoad?

    private func loaded(_ result: Result<Museum, LoadFailure>, note: Phrase?, mailbox: Mailbox) {
        if case .success(let m) = result {
            lock.lock()
            diagnostics = m.data.diagnostics
            lock.unlock()
        }
        mailbox.post(.documentLoaded(result, note: note))
    }

    /// Taken by the work that holds much memory for a while (`HeavyWork`).
    let heavyWork: HeavyWork

    /// Loads `source` and hands the result to `deliver`; then lets the parsed tree go and
    /// writes the prepared copy for the next start (after the museum is on its way, not before).
    static func load(
        _ source: String, fetcher: CurlFetcher, cache: DocumentCaching?, prepared: (any PreparedCopying)?, options: ReadOptions, log: GuideLog,
        heavyWork: HeavyWork, deliver: (Result<Museum, LoadFailure>, Phrase?) -> Void
    ) {
        // Held until the copy is written: the search index waits (`RunnerContext.heavy`).
        heavyWork.lock.lock()
        defer { heavyWork.lock.unlock() }
        var tree: JSON?
        var later: [@Sendable () -> Void] = []
        let (result, note) = DocumentLoader.load(
            source: source, fetcher: fetcher, cache: cache, prepared: prepared, options: options, now: Date(), log: { log.write($0) },
            handOff: { tree = $0 }, later: { later.append($0) })
        if case .failure(let f) = result { log.write("museum data \(source): \(f.message)") }
        deliver(result, note)
        tree = nil
        for work in later { work() }
        // What the load and the copy let go goes back to the system before the index is built.
        cs_release_free_memory()
    }

    /// Writes the settings still pending and waits for running threads, both bounded.
    func shutdown() {
        let deadline = Date().addingTimeInterval(Self.shutdownTimeout)
        writer?.stop(timeout: Self.shutdownTimeout)
        if let early, !early.isDone {
            // The museum's prepared copy is not written yet (a visitor who quits at once): quit
            // does not wait for it (it waited up to 2 s, and a large museum's copy could take
            // longer, leaving none). This one stops and a `docent prepare` of its own writes it
            // (issue 30); the short wait lets the stopped write remove its temporary file.
            (prepared as? FilePreparedCopies)?.stopWriting()
            CopyHandOff.start(source: early.source, rewrite: options.rewrite)
            early.wait(until: min(deadline, Date().addingTimeInterval(0.2)))
        }
        running.lock()
        while runningCount > 0, running.wait(until: deadline) {}
        running.unlock()
    }

    var loadedDiagnostics: [Diagnostic] {
        lock.lock()
        defer { lock.unlock() }
        return diagnostics
    }

    /// Work kept for the first frame with the museum (`RunnerContext.afterFirstFrame`), and
    /// whether it is on screen.
    private var warmUpWork: [@Sendable () -> Void] = []
    private var warmedUp = false

    /// The loop's first frame with the museum is on screen: what was kept for it runs.
    func warmUp() {
        let work: [@Sendable () -> Void] = lock.withLock {
            warmedUp = true
            defer { warmUpWork = [] }
            return warmUpWork
        }
        if !work.isEmpty { TwoCores.lowPriority { for w in work { w() } } }
    }

    func afterFirstFrame(_ work: @escaping @Sendable () -> Void) {
        let now: Bool = lock.withLock {
            if !warmedUp { warmUpWork.append(work) }
            return warmedUp
        }
        if now { TwoCores.lowPriority(work) }
    }

    /// Runs blocking work on a thread of its own (two cores: never in the cooperative pool),
    /// counted until it ends; the thread is one a finished work left waiting when there is one
    /// (`Workers`). Work whose result only a running guide can use (building the search
    /// index) is not counted: quitting does not wait for it (`waitedForAtQuit: false`). It was:
    /// a visitor who quit during the build waited for it, up to the 2 s bound, and the
    /// startup bench's exec → exit measured the first frame plus the index of SampleData
    /// (136 ms, of which the frame was under 70).
    func background(_ work: @escaping @Sendable () -> Void, waitedForAtQuit: Bool = true) {
        guard waitedForAtQuit else {
            workers.run(work)
            return
        }
        running.lock()
        runningCount += 1
        running.unlock()
        workers.run { [running] in
            work()
            running.lock()
            self.runningCount -= 1
            running.broadcast()
            running.unlock()
        }
    }

    /// The threads `background` runs its work on.
    let workers = Workers()
}

/// The museum's first load, started as soon as the guide knows where the appData is: before
/// the state database, the sound and the terminal are set up (about 30 ms that the load no
/// longer waits for). The loop's `.loadDocument` claims it once and gets its result when it
/// is there; quitting waits for it (and the prepared copy it writes) like any other thread.
final class EarlyLoad: @unchecked Sendable {
    let source: String
    private let condition = NSCondition()
    private var outcome: (Result<Museum, LoadFailure>, Phrase?)?
    private var receiver: ((Result<Museum, LoadFailure>, Phrase?) -> Void)?
    private var claimed = false
    private var done = false

    init(source: String, fetcher: CurlFetcher, cache: DocumentCaching?, prepared: (any PreparedCopying)?, options: ReadOptions, log: GuideLog, heavyWork: HeavyWork) {
        self.source = source
        let t = Thread { [self] in
            LiveEffects.load(source, fetcher: fetcher, cache: cache, prepared: prepared, options: options, log: log, heavyWork: heavyWork) { result, note in
                condition.lock()
                if let receiver {
                    condition.unlock()
                    receiver(result, note)
                } else {
                    outcome = (result, note)
                    condition.unlock()
                }
            }
            condition.lock()
            done = true
            condition.broadcast()
            condition.unlock()
        }
        t.stackSize = 4 << 20
        t.start()
    }

    /// True the first time only.
    func claim() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }

    /// Hands the result to `receiver`: now if it is there, else from the loading thread.
    func deliver(_ receiver: @escaping (Result<Museum, LoadFailure>, Phrase?) -> Void) {
        condition.lock()
        if let outcome {
            self.outcome = nil
            condition.unlock()
            receiver(outcome.0, outcome.1)
        } else {
            self.receiver = receiver
            condition.unlock()
        }
    }

    /// The load and the prepared copy it writes are over.
    var isDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return done
    }

    func wait(until deadline: Date) {
        condition.lock()
        while !done, condition.wait(until: deadline) {}
        condition.unlock()
    }
}

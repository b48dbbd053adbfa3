import PulseKit
import Foundation
import Logging
import ServiceLifecycle
import PulseKitSQLite

/// Plays written in batches (issue 32, issue 44 #8). A play is answered 204 only once the
/// batch holding it is committed: the plays that arrive while one batch is written go into
/// the next (group commit), so a play waits for one or two writes, not for a timer, and a
/// play answered 204 survives `kill -9`. The store's version (every guide's ETag) still moves
/// at most once per `--play-flush` interval: the batches are written without a version step,
/// and the upkeep steps it once an interval when plays were written.
/// At most `maxSubjects` distinct subjects wait; past that, a play of a new subject is refused
/// (503: a flood of random subjects is the attack, and popularity is a hint, not a ledger).
public final class PlayCoalescer: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [PulseSubject: Int] = [:]
    private var waiters: [CheckedContinuation<Void, any Error>] = []
    public let maxSubjects: Int
    /// Says "plays are waiting" to the writer (at most one word buffered: one write takes all).
    let kicks: AsyncStream<Void>
    private let kick: AsyncStream<Void>.Continuation

    public init(maxSubjects: Int = 5_000) {
        self.maxSubjects = maxSubjects
        (kicks, kick) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Returns once the play is written; throws the store's error when its batch was not.
    public func add(_ subject: PulseSubject) async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            lock.lock()
            if let n = pending[subject] {
                pending[subject] = min(n + 1, PulseBounds.maxCount)
            } else if pending.count < maxSubjects {
                pending[subject] = 1
            } else {
                lock.unlock()
                c.resume(throwing: PulseStoreError.unavailable("too many plays waiting"))
                return
            }
            waiters.append(c)
            lock.unlock()
            kick.yield()
        }
    }

    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return pending.count
    }

    /// The plays waiting (a subject played three times counts three).
    public var playCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return pending.values.reduce(0) { $0 &+ $1 }
    }

    /// The plays waiting and whoever waits for them.
    func take() -> (plays: [PulseSubject: Int], waiters: [CheckedContinuation<Void, any Error>]) {
        lock.lock()
        defer { lock.unlock() }
        let out = (pending, waiters)
        pending = [:]
        waiters = []
        return out
    }
}

/// The service's own work on a schedule, one task group: flushing plays, purging what
/// retention lets go, and the gauges (queue length, hidden notes, database up, the pool). A database
/// outage and its end are logged once each (warning, then notice).
struct PulseUpkeep<Store: PulseServiceStore>: Service {
    let store: Store
    let plays: PlayCoalescer
    let metrics: PulseMetrics
    let logger: Logger
    let playFlush: Duration
    let purgeEvery: Duration
    let purgeAges: PulsePurgeAges
    /// Ends when the store is ready (its schema made before the server listens): nothing of
    /// the upkeep touches a database that is not.
    var ready: AsyncStream<Void>? = nil
    /// Run before each purge, which is skipped this round if it fails: the console counts the
    /// past days whose activity the purge is about to let go (`ConsoleStore.countPastDays`).
    var beforePurge: (@Sendable () async throws -> Void)? = nil

    func run() async throws {
        if let ready {
            try await cancelWhenGracefulShutdown { for await _ in ready {} }
            guard !Task.isCancelled, !Task.isShuttingDownGracefully else { return }
        }
        let outage = OutageLog(logger: logger)
        let stepDue = VersionStepDue()
        // Stopped on the service group's graceful shutdown (SIGTERM), after the server (the
        // group stops its services in reverse order): the requests under way got their plays
        // written; the loops are then cancelled, and what is left is written and stepped.
        try await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Each word: one batch, everything waiting.
                    for await _ in plays.kicks {
                        if await write(outage, step: false) { stepDue.set() }
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: playFlush)
                        if stepDue.take() { await step(outage) }
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        do {
                            let began = ContinuousClock.now
                            try await beforePurge?()
                            let gone = try await store.purgeExpired(purgeAges)
                            if gone > 0 { logger.notice("purged expired notes", metadata: ["notes": .stringConvertible(gone)]) }
                            if !Task.isCancelled { metrics.purgeRound(took: ContinuousClock.now - began) }
                        } catch {
                            // A stop cancels the purge under way: that is no outage.
                            if !Task.isCancelled { outage.failed("purge", error) }
                        }
                        try? await Task.sleep(for: purgeEvery)
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        await gauges(outage)
                        try? await Task.sleep(for: .seconds(10))
                    }
                }
                await group.waitForAll()
            }
        }
        // Not in this (cancelled) task: a cancelled task's write is refused by the database's client.
        let wrote = await Task { await write(outage, step: true) }.value
        if !wrote, stepDue.take() { await Task { await step(outage) }.value }
    }

    /// Writes the plays waiting as one batch and answers whoever waits for them; true when
    /// something was written. (`/metrics` reads the plays waiting when it is asked.)
    private func write(_ outage: OutageLog, step: Bool) async -> Bool {
        let (batch, waiters) = plays.take()
        guard !batch.isEmpty else {
            for w in waiters { w.resume() }
            return false
        }
        do {
            try await store.recordPlays(batch, versionStep: step)
            outage.ok()
            for w in waiters { w.resume() }
            return true
        } catch {
            outage.failed("plays", error)
            for w in waiters { w.resume(throwing: error) }
            return false
        }
    }

    /// One version step for the plays written since the last.
    private func step(_ outage: OutageLog) async {
        do {
            try await store.recordPlays([:], versionStep: true)
        } catch {
            outage.failed("plays", error)
        }
    }

    private func gauges(_ outage: OutageLog) async {
        do {
            try await store.ready()
            metrics.storeUp.set(to: 1)
            metrics.pool(try await store.poolUse())
            outage.ok()
            var queued = 0
            var hidden = 0
            var cursor: PulseCursor?
            let rules = store.rules
            repeat {
                let page = try await store.moderationQueue(after: cursor, limit: 1000)
                queued += page.notes.count
                hidden += page.notes.filter { rules.hidden($0, viewerReported: false) != nil }.count
                cursor = page.next
            } while cursor != nil && queued < 100_000
            metrics.queueLength.set(to: Double(queued))
            metrics.hiddenNotes.set(to: Double(hidden))
        } catch {
            if Task.isCancelled { return }
            metrics.storeUp.set(to: 0)
            outage.failed("readiness", error)
        }
    }
}

/// Whether plays were written since the version last stepped.
final class VersionStepDue: @unchecked Sendable {
    private let lock = NSLock()
    private var due = false
    func set() { lock.withLock { due = true } }
    func take() -> Bool { lock.withLock { defer { due = false }; return due } }
}

/// "The database is unreachable" once when it starts failing, "back" once when it answers.
final class OutageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var down = false
    let logger: Logger
    init(logger: Logger) { self.logger = logger }

    func failed(_ what: String, _ error: any Error) {
        lock.lock()
        let first = !down
        down = true
        lock.unlock()
        if first { logger.warning("the database is not answering", metadata: ["during": .string(what), "error": .string(String(describing: error))]) }
    }

    func ok() {
        lock.lock()
        let was = down
        down = false
        lock.unlock()
        if was { logger.notice("the database answers again") }
    }
}

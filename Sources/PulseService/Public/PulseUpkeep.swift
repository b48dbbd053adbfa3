import DocentCore
import Foundation
import Logging
import ServiceLifecycle
import StateStore

/// Plays gathered in memory and written every `interval` as one write (issue 32): a flood
/// of plays moves the store's version (and every guide's ETag) at most once per interval.
/// At most `maxSubjects` distinct subjects wait; past that, plays of new subjects are dropped
/// (a flood of random subjects is the attack, and popularity is a hint, not a ledger).
public final class PlayCoalescer: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [PulseSubject: Int] = [:]
    public let maxSubjects: Int

    public init(maxSubjects: Int = 5_000) { self.maxSubjects = maxSubjects }

    public func add(_ subject: PulseSubject) {
        lock.lock()
        defer { lock.unlock() }
        if let n = pending[subject] {
            pending[subject] = min(n + 1, PulseBounds.maxCount)
        } else if pending.count < maxSubjects {
            pending[subject] = 1
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

    func take() -> [PulseSubject: Int] {
        lock.lock()
        defer { lock.unlock() }
        let out = pending
        pending = [:]
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

    func run() async throws {
        if let ready {
            try await cancelWhenGracefulShutdown { for await _ in ready {} }
            guard !Task.isCancelled, !Task.isShuttingDownGracefully else { return }
        }
        let outage = OutageLog(logger: logger)
        // Stopped on the service group's graceful shutdown (SIGTERM): the loops are cancelled,
        // then the plays still waiting are written.
        try await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: playFlush)
                        await flush(outage)
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        do {
                            let gone = try await store.purgeExpired(purgeAges)
                            if gone > 0 { logger.notice("purged expired notes", metadata: ["notes": .stringConvertible(gone)]) }
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
        await flush(outage)
    }

    private func flush(_ outage: OutageLog) async {
        let batch = plays.take()
        guard !batch.isEmpty else { return }
        do {
            try await store.recordPlays(batch)
            outage.ok()
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

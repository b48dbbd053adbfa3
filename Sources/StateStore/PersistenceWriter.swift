import DocentCore
import Foundation

/// Saves settings on a thread of its own, so the loop thread never waits on SQLite (with the
/// database locked by another program a save may wait seconds for the lock). It keeps only
/// the latest settings not yet written: a burst of tab switches is one write. `flush` at quit
/// writes what is pending, so nothing acknowledged is lost.
public final class PersistenceWriter: @unchecked Sendable {
    private let store: SettingsStoring
    private let onFailure: @Sendable (String) -> Void
    private let condition = NSCondition()
    private var pending: PersistedSettings?
    private var writing = false
    private var stopping = false
    private var reportedFailure = false
    private var thread: Thread?
    /// Writes done so far (for tests: how many saves a burst became).
    public private(set) var writes = 0

    /// `onFailure` is called once, with the store's sentence, the first time a save fails.
    public init(store: SettingsStoring, onFailure: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.onFailure = onFailure
        let t = Thread { [weak self] in self?.loop() }
        t.name = "docent.persist"
        thread = t
        t.start()
    }

    /// Queues `settings` (replacing any not yet written) and returns at once.
    public func save(_ settings: PersistedSettings) {
        condition.lock()
        pending = settings
        condition.signal()
        condition.unlock()
    }

    /// Waits until everything queued is written, at most `timeout` seconds (a database locked
    /// for longer than that keeps its old settings; the guide still quits). True when done.
    @discardableResult
    public func flush(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while pending != nil || writing {
            if !condition.wait(until: deadline) { return pending == nil && !writing }
        }
        return true
    }

    /// Flushes (bounded) and ends the thread.
    public func stop(timeout: TimeInterval) {
        flush(timeout: timeout)
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while pending == nil && !stopping { condition.wait() }
            guard let settings = pending else {
                condition.unlock()
                return
            }
            pending = nil
            writing = true
            condition.unlock()

            let result = store.save(settings)

            condition.lock()
            writing = false
            writes += 1
            var report: String?
            if case .failure(let f) = result, !reportedFailure {
                reportedFailure = true
                report = f.message
            }
            condition.broadcast()
            condition.unlock()
            if let report { onFailure(report) }
        }
    }
}

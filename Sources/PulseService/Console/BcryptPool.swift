import Foundation
import HummingbirdBcrypt

#if canImport(Glibc)
    import Glibc
#endif

/// Bcrypt checks on a small pool of threads of their own (issue 44 #1): a sign-in flood used
/// to start a bcrypt (cost 12, a quarter of a second of CPU here) per request on Dispatch's
/// global threads, as many at once as requests came, and the public API's threads waited for
/// the cores. Here at most `threads` checks run at once, on threads niced below the service's
/// (`nice`: the API's threads win the cores), and at most `maxWaiting` wait; past that a check
/// is refused at once (the console answers 503 with Retry-After) instead of queueing work the
/// attacker can make faster than the pool can do it.
public final class BcryptPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var running = 0
    public let threads: Int
    public let maxWaiting: Int

    public init(threads: Int = 1, maxWaiting: Int = 8, nice: Int32 = 10) {
        self.threads = max(1, threads)
        self.maxWaiting = max(0, maxWaiting)
        for i in 0..<self.threads {
            let t = Thread { [weak self] in
                // Linux: PRIO_PROCESS with 0 is the calling thread (nice is per thread there).
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
                while let job = self?.next() { job() }
            }
            t.name = "docent-bcrypt-\(i)"
            t.start()
        }
    }

    private func next() -> (() -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty { condition.wait() }
        running += 1
        return jobs.removeFirst()
    }

    private func done() {
        condition.lock()
        running -= 1
        condition.unlock()
    }

    /// Runs `work` on the pool; nil when the pool is full (nothing was run).
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (c: CheckedContinuation<T?, Never>) in
            condition.lock()
            // Up to `maxWaiting` wait, besides those an idle thread takes at once.
            guard jobs.count < maxWaiting + max(0, threads - running) else {
                condition.unlock()
                c.resume(returning: nil)
                return
            }
            jobs.append { [weak self] in
                let value = work()
                self?.done()
                c.resume(returning: value)
            }
            condition.signal()
            condition.unlock()
        }
    }

    /// Whether `password` matches `hash` (nil: an unknown account, checked against a hash no
    /// password matches, made on the pool the first time, so it costs the same); nil when the
    /// pool is full.
    public func verify(_ password: String, _ hash: String?) async -> Bool? {
        await run { hash.map { Bcrypt.verify(password, hash: $0) } ?? (Bcrypt.verify(password, hash: StaffPassword.dummyHash) && false) }
    }

    /// A new password's hash (the accounts page), on the pool; nil when the pool is full.
    public func hash(_ password: String, cost: UInt8 = 12) async -> String? {
        await run { StaffPassword.hash(password, cost: cost) }
    }

    /// The one pool of the process (the console's sign-ins and nothing else).
    public static let shared = BcryptPool()
}

import Foundation

/// Threads for the effects' blocking work, kept a while after their work to take the next.
/// A Visitor Pulse check every few seconds made a thread of its own each time (with a 4 MB
/// stack, a malloc arena and the thread's teardown): 10 threads made and ended in 20 s of a
/// recording playing, a tenth of the guide's CPU while it plays. A thread left idle for
/// `idleTimeout` ends; there are never fewer threads than work waiting (no work waits behind
/// another: a Pulse call stuck on the network holds no other effect back).
public final class Workers: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    /// Threads waiting for work (each takes one when woken).
    private var idle = 0
    /// Threads made so far, and those not yet ended.
    public var threadsMade: Int { condition.withLock { made } }
    public var threadsLive: Int { condition.withLock { live } }
    /// Threads waiting for work now.
    public var threadsIdle: Int { condition.withLock { idle } }
    private var made = 0
    private var live = 0
    public let idleTimeout: TimeInterval
    public let stackSize: Int

    public init(idleTimeout: TimeInterval = 30, stackSize: Int = 4 << 20) {
        self.idleTimeout = idleTimeout
        self.stackSize = stackSize
    }

    /// Runs `work` on a waiting thread, else on a new one.
    public func run(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        queue.append(work)
        let spawn = queue.count > idle
        if spawn {
            made += 1
            live += 1
        } else {
            condition.signal()
        }
        condition.unlock()
        guard spawn else { return }
        let t = Thread { [self] in loop() }
        t.stackSize = stackSize
        t.start()
    }

    private func loop() {
        condition.lock()
        while true {
            while queue.isEmpty {
                idle += 1
                let woken = condition.wait(until: Date(timeIntervalSinceNow: idleTimeout))
                idle -= 1
                if !woken, queue.isEmpty {
                    live -= 1
                    condition.unlock()
                    return
                }
            }
            let work = queue.removeFirst()
            condition.unlock()
            work()
            condition.lock()
        }
    }
}

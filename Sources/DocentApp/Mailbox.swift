import Foundation
import DocentCore
import DocentUI

/// Where effect results wait for the state-owning thread. Any thread may post; only the
/// loop drains.
public final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [AppAction] = []
    private var waker: Waker = .none

    public init() {}

    /// Who to wake when something arrives (the terminal wait of the loop).
    public func wakes(_ waker: Waker) {
        lock.lock()
        self.waker = waker
        lock.unlock()
    }

    public func post(_ action: AppAction) {
        lock.lock()
        pending.append(action)
        lock.unlock()
        nudge()
    }

    /// Wakes the loop with nothing to hand over (it looks at the audio engine again).
    public func nudge() {
        lock.lock()
        let w = waker
        lock.unlock()
        w.wake()
    }

    public func drain() -> [AppAction] {
        lock.lock()
        defer { lock.unlock() }
        let out = pending
        pending.removeAll()
        return out
    }

    public var isEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return pending.isEmpty
    }
}

/// Runs effects for the loop. The live one uses curl, SQLite and threads; tests use fakes.
public protocol EffectHandling: AnyObject {
    /// Starts `effect`; whatever it produces comes back through `mailbox`. Must not block
    /// for long (network work belongs on its own thread).
    func run(_ effect: Effect, mailbox: Mailbox)
    /// At quit, after the last effect: finish what was acknowledged (pending saves) and wait,
    /// a bounded time, for the threads still running.
    func shutdown()
    /// The guide's first frame with the museum is on screen: work kept for then may start
    /// (opening the libraries of what comes later). Called once, by the loop.
    func warmUp()
}

extension EffectHandling {
    public func warmUp() {}
}

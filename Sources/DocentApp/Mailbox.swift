import Foundation
import DocentCore
import DocentUI

/// Where effect results wait for the state-owning thread. Any thread may post; only the
/// loop drains.
public final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [AppAction] = []

    public init() {}

    public func post(_ action: AppAction) {
        lock.lock()
        pending.append(action)
        lock.unlock()
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
}

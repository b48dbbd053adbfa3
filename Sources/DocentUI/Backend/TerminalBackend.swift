/// What the app needs from a terminal. The ncurses adapter implements it; tests use a fake.
/// Lives beside its consumer (ratatui keeps `Backend` in core the same way).
public protocol TerminalBackend: AnyObject {
    /// The current size in cells.
    var size: Size { get }
    /// Waits up to `timeoutMilliseconds` for input and returns what arrived (possibly nothing).
    /// A resize arrives as `.resize`.
    func readEvents(timeoutMilliseconds: Int) -> [InputEvent]
    /// Draws `screen`, writing only the cells that differ from the previous frame.
    func draw(_ screen: Screen)
    /// The same, told that `screen` differs from the frame drawn last in `rows` at most (the
    /// player's lines drawn again over it): the other rows need not be compared.
    func draw(_ screen: Screen, onlyRows rows: [Int])
    /// Forgets what the terminal shows: the next `draw` clears it and writes every cell,
    /// pictures included (Ctrl-L, issue 47 #6: a terminal garbled by anything else).
    func redrawAll()
    /// Puts the terminal back the way it was found. Safe to call more than once.
    func restore()
    /// Ends a `readEvents` wait early from any thread (a result arrived in the mailbox).
    var waker: Waker { get }
}

extension TerminalBackend {
    public func draw(_ screen: Screen, onlyRows rows: [Int]) { draw(screen) }
    /// A backend that draws every frame whole has nothing to forget.
    public func redrawAll() {}
}

/// Wakes a terminal wait from any thread: the mailbox calls it when a result arrives, so the
/// loop handles it at once instead of at the end of its wait.
public final class Waker: Sendable {
    private let action: @Sendable () -> Void
    public init(_ action: @escaping @Sendable () -> Void) { self.action = action }
    public func wake() { action() }
    /// A waker that does nothing (a backend whose waits are never long).
    public static let none = Waker {}
}

/// A width × height in cells.
public struct Size: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

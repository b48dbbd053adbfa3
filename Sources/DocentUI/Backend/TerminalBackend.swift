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
    /// Puts the terminal back the way it was found. Safe to call more than once.
    func restore()
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

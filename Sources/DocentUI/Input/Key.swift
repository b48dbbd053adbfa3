/// A key as the app sees it, independent of the terminal library.
public enum Key: Hashable, Sendable {
    case char(Character)
    case enter, escape, backspace, delete, tab, backTab
    case up, down, left, right, home, end, pageUp, pageDown
    /// F1…F12.
    case function(Int)
    /// Alt (Meta) + a character, e.g. Alt+1.
    case alt(Character)
    /// Ctrl + a letter, lowercase (Ctrl-C is `.ctrl("c")`).
    case ctrl(Character)
}

/// Everything the backend can report.
public enum InputEvent: Hashable, Sendable {
    case key(Key)
    /// A left click at a cell (x, y from the top-left).
    case click(x: Int, y: Int)
    case scrollUp, scrollDown
    case resize(Size)
    /// SIGINT/SIGTERM/SIGHUP/SIGQUIT arrived: quit cleanly, saving state.
    case quitSignal
}

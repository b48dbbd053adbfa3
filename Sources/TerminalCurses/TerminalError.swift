/// Why the terminal could not be opened. `description` is a sentence fit to show the user.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal (a pipe, a file, a CI job).
    case notATerminal
    /// `TERM` is unset, empty, or names a terminal type the terminfo database does not know.
    case unknownTerminal(String?)
    /// The terminal type cannot move the cursor (`TERM=dumb`): nothing but its last line
    /// would show.
    case cannotMoveCursor(String)
    /// ncurses refused for another reason.
    case initFailed(String)

    public var description: String {
        switch self {
        case .notATerminal:
            return "docent needs an interactive terminal: standard input and output must both be a terminal, "
                + "not a pipe or a file."
        case .unknownTerminal(let term?):
            return "docent does not know the terminal type \"\(term)\" (TERM). "
                + "Try TERM=xterm-256color, or install the terminfo entry (apt-get install ncurses-term)."
        case .unknownTerminal(nil):
            return "docent needs to know the terminal type, but TERM is not set. Try TERM=xterm-256color."
        case .cannotMoveCursor(let term):
            return "docent needs a terminal that can move its cursor, and \"\(term)\" (TERM) cannot. "
                + "Try TERM=xterm-256color, or TERM=linux on a console."
        case .initFailed(let why):
            return "docent could not set up the terminal: \(why)"
        }
    }
}

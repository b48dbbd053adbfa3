/// Cells ncurses cannot draw, which the terminal adapter writes itself after ncurses (ncurses
/// holding a stand-in there, `standIn(row:)`), the same way it writes hyperlinks
/// (`Hyperlinks.escapes`, inside a cursor save and restore):
/// - cells in a picture's own colours (`Style.foreground`/`background`), which ncurses cannot
///   draw in 24-bit colour and would need a colour pair each for;
/// - a flag (two regional indicators, 🇺🇸): a curses cell holds one spacing character and
///   combining ones, so ncurses would draw the first letter alone. (Emoji joined by ZWJ are
///   left to ncurses, which draws the first: terminals disagree on their width, and a wrong
///   guess would shift the rest of the row.)
public enum PaintedCells {
    /// A cell ncurses does not draw.
    public static func isPainted(_ cell: Cell) -> Bool {
        cell.style.foreground != nil || cell.style.background != nil || isFlag(cell.text)
    }

    /// What the terminal adapter tells ncurses is in a painted cell of row `row` (issue 47 #6),
    /// drawn concealed and written over at once by the cell itself. One character per row,
    /// different for each of 94 rows running (ASCII `!` to `~`): ncurses matches rows by their
    /// characters to move text by scrolling the terminal, and rows it took for blank or for one
    /// another carried the picture's cells away with them; a row with a stand-in matches no
    /// other row, and costs too much to move onto one.
    public static func standIn(row: Int) -> Unicode.Scalar {
        Unicode.Scalar(UInt8(0x21 + (row % 94 + 94) % 94))
    }

    /// True for a grapheme of two regional indicators (a flag, two cells wide like any emoji).
    /// One scalar (at most four bytes) never is, so ordinary cells cost one length check.
    public static func isFlag(_ text: String) -> Bool {
        guard text.utf8.count == 8 else { return false }
        return text.unicodeScalars.allSatisfy { (0x1F1E6...0x1F1FF).contains($0.value) }
    }

    /// The runs of painted cells to write again after a frame: all of them after a full
    /// redraw, otherwise those on rows where any cell changed (ncurses may repaint unchanged
    /// cells near a change, in its own colours). An unchanged frame gives none, so an idle
    /// guide still writes nothing.
    public static func spans(in screen: Screen, changedRows: Set<Int>, full: Bool) -> [Hyperlinks.Span] {
        var out: [Hyperlinks.Span] = []
        let rows = full ? Array(0..<screen.height) : changedRows.sorted().filter { $0 >= 0 && $0 < screen.height }
        for y in rows {
            var start: Int?
            for x in 0...screen.width {
                // A wide painted cell (a flag) takes its right half along.
                let painted = x < screen.width && (isPainted(screen[x, y]) || (x > 0 && screen[x, y].continuation && isPainted(screen[x - 1, y])))
                if painted, start == nil { start = x }
                if !painted, let s = start {
                    out.append(Hyperlinks.Span(y: y, x: s, width: x - s, url: nil))
                    start = nil
                }
            }
        }
        return out
    }
}

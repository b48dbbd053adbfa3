/// Cells in a picture's own colours (`Style.foreground`/`background`), which ncurses cannot
/// draw in 24-bit colour and would need a colour pair each for: the terminal adapter lets
/// ncurses draw the symbols, then writes these cells again itself with their SGR colours, the
/// same way it writes hyperlinks (`Hyperlinks.escapes`, inside a cursor save and restore).
public enum PaintedCells {
    /// A cell in a picture's own colours (ncurses does not draw it).
    public static func isPainted(_ cell: Cell) -> Bool { cell.style.foreground != nil || cell.style.background != nil }

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
                let painted = x < screen.width && isPainted(screen[x, y])
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

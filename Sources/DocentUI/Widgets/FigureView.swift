/// Draws a feature's figure (`Figure`) into the cell grid: a picture's cells in their own
/// colours, centred in `area`; a note as one muted line; room kept for a pending one stays
/// blank. Part of the frame like text, so the frame diff writes a picture once.
public enum FigureView {
    public static func render(_ screen: inout Screen, _ figure: Figure, in area: Rect, strings: Strings) {
        switch figure {
        case .pending:
            return
        case .note(let phrase):
            screen.put(TextWidth.truncate(phrase.text(strings), to: area.width), x: area.x, y: area.y, style: Style(role: .muted), clip: area)
        case .picture(let p):
            let x0 = area.x + max(0, (area.width - p.columns) / 2)
            for y in 0..<min(p.rows, area.height) {
                for x in 0..<min(p.columns, area.maxX - x0) {
                    let cell = p[x, y]
                    var style = Style.plain
                    style.foreground = cell.foreground
                    style.background = cell.background
                    screen.put(cell.symbol, x: x0 + x, y: area.y + y, style: style, clip: area)
                }
            }
        }
    }
}

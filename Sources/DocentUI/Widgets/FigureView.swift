/// Draws a feature's figure (`Figure`) into the cell grid: a picture's cells in their own
/// colours, centred in `area`; a note as one muted line; room kept for a pending one stays
/// blank. Part of the frame like text, so the frame diff writes a picture once.
public enum FigureView {
    /// Where a figure and the text go in `area` (`FigureLayout.split`): the figure at the right
    /// (beside) or the top (above), one blank column or row between them.
    public static func place(_ figure: Figure?, in area: Rect, slot: FigureSlot = .page) -> (figure: Rect?, text: Rect) {
        let room = FigureLayout.split(width: area.width, rows: area.height, figure: figure, slot: slot)
        guard let box = room.figure else { return (nil, area) }
        if box.beside {
            return (Rect(x: area.maxX - box.columns, y: area.y, width: box.columns, height: area.height),
                    Rect(x: area.x, y: area.y, width: room.textWidth, height: area.height))
        }
        return (Rect(x: area.x, y: area.y, width: area.width, height: box.rows),
                Rect(x: area.x, y: area.maxY - room.textRows, width: area.width, height: room.textRows))
    }

    /// Draws `figure` (if any) in its place in `area` and returns the rectangle left for text.
    public static func renderBeside(_ screen: inout Screen, _ figure: Figure?, in area: Rect, slot: FigureSlot = .page, strings: Strings) -> Rect {
        let (place, text) = place(figure, in: area, slot: slot)
        if let figure, let place { render(&screen, figure, in: place, strings: strings) }
        return text
    }

    public static func render(_ screen: inout Screen, _ figure: Figure, in area: Rect, strings: Strings) {
        switch figure {
        case .pending:
            return
        case .note(let phrase):
            screen.put(TextWidth.truncate(phrase.text(strings), to: area.width), x: area.x, y: area.y, style: Style(role: .muted), clip: area)
        case .picture(let p):
            let x0 = area.x + max(0, (area.width - p.columns) / 2)
            if let image = p.graphic {
                // Blank cells the terminal draws the image over, when the whole of it fits.
                let rect = Rect(x: x0, y: area.y, width: p.columns, height: p.rows)
                screen.fill(rect, style: .plain)
                if rect.maxX <= area.maxX, rect.maxY <= area.maxY { screen.graphics.append(Screen.Graphic(rect: rect, image: image)) }
                return
            }
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

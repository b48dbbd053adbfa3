/// A scrolling list of rows with a selection. The first visible row is derived from the
/// selection so the selected row is always on screen.
public enum ListView {
    /// Where a list's or a text's ↑ (more above) and ↓ (more below) go: a column and the rows
    /// just above and below the lines that scroll. A terminal scrolls whole lines, so a mark on
    /// a scrolled line was erased and written again by every keypress that scrolled (264 of
    /// the 3,478 bytes 20 presses of ↓ wrote on Home). nil: on the first and last lines, the
    /// column right of the area.
    public struct Marks: Equatable, Sendable {
        public var x: Int, up: Int, down: Int
        public init(x: Int, up: Int, down: Int) { (self.x, self.up, self.down) = (x, up, down) }

        /// Draws the marks for lines `top..<top + visible` of `count`.
        func render(_ screen: inout Screen, top: Int, visible: Int, count: Int) {
            guard count > visible else { return }
            if top + visible < count { screen.put("↓", x: x, y: down, style: .dim) }
            if top > 0 { screen.put("↑", x: x, y: up, style: .dim) }
        }

        /// The marks of `area` when none were given: on its first and last lines.
        static func inside(_ area: Rect) -> Marks { Marks(x: area.maxX, up: area.y, down: area.maxY - 1) }
    }

    /// The widest a list is drawn: on a 200-column terminal a date 150 columns right of its
    /// title is not read as its title's (issue 33 #17). Notes wrap at this measure too.
    public static let measure = 100

    public static func render(_ screen: inout Screen, _ full: Rect, rows: [Row], selection: Int, strings: Strings, marks: Marks? = nil, click: (Int) -> AppAction = AppAction.clickRow) {
        guard !full.isEmpty else { return }
        // For a screen reader, decorative marks are not drawn (issue 47 #5).
        let rows = screen.plain ? rows.map { r -> Row in
            var r = r
            if r.mark?.decorative == true { r.mark = nil }
            return r
        } : rows
        let area = Rect(x: full.x, y: full.y, width: min(full.width, measure), height: full.height)
        // Lay rows out as display lines (notes wrap; items and headers are one line).
        var lines: [(row: Int, text: String, first: Bool)] = []
        for (i, r) in rows.enumerated() {
            switch r.kind {
            case .note:
                let text = r.fellBack ? r.text + " " + strings(.contentInEnglishShort) : r.text
                // A marked note (a card) is indented past its mark.
                let indent = r.mark.map { TextWidth.width($0.symbol) + 1 } ?? 0
                for (k, l) in Wrap.lines(text, width: max(1, area.width - 2 - indent)).enumerated() { lines.append((i, l, k == 0)) }
            case .header:
                if !lines.isEmpty { lines.append((-1, "", true)) }
                lines.append((i, r.text, true))
            default:
                lines.append((i, r.text, true))
            }
        }
        // Keypad numbers in a column as wide as the widest of its section (the rows between two
        // headers; issue 47 #4): a section without numbers keeps its rows where they were.
        var sectionOf: [Int] = []
        var widths: [Int] = [0]
        for r in rows {
            if r.kind == .header { widths.append(0) }
            sectionOf.append(widths.count - 1)
            if let n = r.number { widths[widths.count - 1] = max(widths[widths.count - 1], TextWidth.width(n)) }
        }
        func numberColumn(_ i: Int) -> String {
            let w = widths[sectionOf[i]]
            guard w > 0 else { return "" }
            let n = rows[i].number ?? ""
            return String(repeating: " ", count: max(0, w - TextWidth.width(n))) + n + " "
        }
        let effective = Row.effectiveSelection(rows, selection) ?? -2
        let selectedLine = lines.firstIndex { $0.row == effective } ?? 0
        var top = max(0, min(selectedLine - area.height / 2, lines.count - area.height))
        // A list whose first choice is selected opens at its top when that shows it (issue 47
        // #18: Home at 40×12 opened scrolled into its welcome).
        if effective == rows.firstIndex(where: \.isSelectable), selectedLine < area.height { top = 0 }
        // Never from the middle of a wrapped note: back to its first line if the selection
        // still shows, else past the note.
        if top > 0, top < lines.count, !lines[top].first {
            var start = top
            while start > 0, !lines[start].first { start -= 1 }
            if selectedLine - start < area.height {
                top = start
            } else {
                while top < selectedLine, !lines[top].first { top += 1 }
            }
        }
        for (k, line) in lines.dropFirst(top).prefix(area.height).enumerated() {
            let y = area.y + k
            guard line.row >= 0 else { continue }
            let r = rows[line.row]
            let selected = line.row == effective
            switch r.kind {
            case .header:
                screen.put(TextWidth.truncate(r.text, to: area.width), x: area.x, y: y, style: Style(role: .title, bold: true), clip: area)
            case .note:
                if let m = r.mark {
                    let w = TextWidth.width(m.symbol)
                    if line.first { screen.put(m.symbol, x: area.x + 2, y: y, style: Self.markStyle(m.tone), clip: area) }
                    screen.put(line.text, x: area.x + 3 + w, y: y, style: .plain, clip: area)
                } else {
                    screen.put(line.text, x: area.x + 2, y: y, style: Style(role: .muted), clip: area)
                }
            case .item, .link:
                let column = numberColumn(line.row)
                let numberWidth = widths[sectionOf[line.row]]
                var text = "  " + column + (r.mark.map { $0.symbol + " " } ?? "") + r.text
                // The "(in English)" marker stays when the title is cut (issue 47 #9).
                let marker = r.fellBack ? " " + strings(.contentInEnglishShort) : ""
                // Only the label is reversed, so moving the selection rewrites two short runs of
                // cells rather than two whole rows (fewer bytes per keypress over SSH).
                let detailRect = Widgets.line(&screen, area, y: y, text: (selected ? "▸ " : "  ") + String(text.dropFirst(2)), keeping: marker, detail: r.detail.map { $0 + " " }, style: .plain, detailStyle: Style(role: .muted))
                text += marker
                if selected, line.first { screen.focus = Rect(x: area.x, y: y, width: 1, height: 1) }
                if selected {
                    // The label's room is what `line` left it (the detail may have given up parts).
                    let room = r.detail == nil ? area.width : detailRect.x - area.x - 2
                    let w = max(0, min(room, TextWidth.width(text)))
                    screen.restyle(Rect(x: area.x, y: y, width: w, height: 1)) { $0 = Style(role: .highlight, reverse: true) }
                } else {
                    let columnWidth = TextWidth.width(column)
                    if r.number != nil {
                        let w = min(numberWidth, max(0, area.width - 2))
                        screen.restyle(Rect(x: area.x + 2, y: y, width: w, height: 1)) { $0 = Style(role: .accent, bold: true) }
                    }
                    if let m = r.mark {
                        let w = min(TextWidth.width(m.symbol), max(0, area.width - 2 - columnWidth))
                        screen.restyle(Rect(x: area.x + 2 + columnWidth, y: y, width: w, height: 1)) { $0 = Self.markStyle(m.tone) }
                    }
                }
                screen.addHitRegion(Rect(x: area.x, y: y, width: area.width, height: 1), action: click(line.row))
                if case .link(let url) = r.kind, !detailRect.isEmpty {
                    screen.addLink(detailRect, url: url)
                }
            }
        }
        (marks ?? .inside(full)).render(&screen, top: top, visible: area.height, count: lines.count)
    }

    /// The colour of a row's mark.
    /// A row's mark: bold in its colour, except a muted one (bold grey is no grey on many
    /// terminals, and each bold span costs an attribute reset).
    static func markStyle(_ tone: Row.Mark.Tone) -> Style {
        Style(role: role(tone), bold: tone != .muted)
    }

    static func role(_ tone: Row.Mark.Tone) -> Style.Role {
        switch tone {
        case .accent: return .accent
        case .warning: return .warning
        case .success: return .success
        case .muted: return .muted
        }
    }
}

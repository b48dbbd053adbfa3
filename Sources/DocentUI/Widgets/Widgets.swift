/// Small drawing helpers shared by screens: each draws into a `Screen` within a `Rect`.
public enum Widgets {
    /// A horizontal rule with an optional title: `── Title ─────`.
    public static func rule(_ screen: inout Screen, _ area: Rect, title: String? = nil, style: Style = .dim) {
        guard !area.isEmpty else { return }
        if screen.plain {
            // A heading a screen reader reads as words, not a line of box drawing.
            if let title, !title.isEmpty { screen.put(" " + TextWidth.truncate(title, to: max(0, area.width - 2)), x: area.x, y: area.y, style: Style(role: .title, bold: true), clip: area) }
            return
        }
        screen.put(String(repeating: "─", count: area.width), x: area.x, y: area.y, style: style, clip: area)
        if let title, !title.isEmpty {
            let t = " " + TextWidth.truncate(title, to: max(0, area.width - 6)) + " "
            screen.put(t, x: area.x + 2, y: area.y, style: Style(role: .title, bold: true), clip: area)
        }
    }

    /// A box border around `area` (which includes the border).
    public static func box(_ screen: inout Screen, _ area: Rect, style: Style = .plain) {
        // Screen-reader mode: the box is its cleared area, its title and its footer.
        guard area.width >= 2, area.height >= 2, !screen.plain else { return }
        let inner = area.width - 2
        screen.put("┌" + String(repeating: "─", count: inner) + "┐", x: area.x, y: area.y, style: style)
        for y in (area.y + 1)..<(area.maxY - 1) {
            screen.put("│", x: area.x, y: y, style: style)
            screen.put("│", x: area.maxX - 1, y: y, style: style)
        }
        screen.put("└" + String(repeating: "─", count: inner) + "┘", x: area.x, y: area.maxY - 1, style: style)
    }

    /// Text left-aligned and `detail` right-aligned on one line, truncated to fit.
    /// Returns where the detail was drawn (without trailing spaces), empty when there is none.
    @discardableResult
    /// `suffix` (a marker such as "(in English)") follows the text and is kept when the text is
    /// cut: the title gives up its end first (issue 47 #9: the marker went first).
    public static func line(_ screen: inout Screen, _ area: Rect, y: Int, text label: String, keeping suffix: String = "", detail: String?, style: Style, detailStyle: Style) -> Rect {
        screen.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: style)
        let text = label + suffix
        var detailText = detail ?? ""
        // A detail made of parts ("30 min · 7 stops") gives up its last parts before the
        // text is cut: the title is what a visitor reads (issue 33 #17).
        // (Split only when it does not fit: Foundation's split was a third of drawing the
        // player's position every second.)
        if TextWidth.width(text) + 2 + TextWidth.width(detailText) > area.width {
            var parts = detailText.components(separatedBy: " · ")
            while parts.count > 1, TextWidth.width(text) + 2 + TextWidth.width(detailText) > area.width {
                parts.removeLast()
                detailText = parts.joined(separator: " · ")
            }
        }
        var dw = TextWidth.width(detailText)
        if dw > area.width / 2 {
            detailText = TextWidth.truncate(detailText, to: area.width / 2)
            dw = TextWidth.width(detailText)
        }
        let textRoom = area.width - (dw > 0 ? dw + 2 : 0)
        let suffixWidth = TextWidth.width(suffix)
        let shown = !suffix.isEmpty && TextWidth.width(text) > textRoom && textRoom > suffixWidth + 2
            ? TextWidth.truncate(label, to: textRoom - suffixWidth) + suffix
            : TextWidth.truncate(text, to: textRoom)
        screen.put(shown, x: area.x, y: y, style: style, clip: area)
        guard dw > 0 else { return Rect(x: area.maxX, y: y, width: 0, height: 1) }
        screen.put(detailText, x: area.maxX - dw, y: y, style: detailStyle, clip: area)
        var trailing = 0
        for ch in detailText.reversed() {
            guard ch == " " else { break }
            trailing += 1
        }
        return Rect(x: area.maxX - dw, y: y, width: dw - trailing, height: 1)
    }
}

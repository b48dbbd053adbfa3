/// A scrolled text page: the lines `TextPage.lines` produces, from `scroll` on.
public enum TextView {
    public static func render(_ screen: inout Screen, _ area: Rect, page: TextPage, scroll: Int, strings: Strings) {
        guard !area.isEmpty else { return }
        let lines = page.lines(width: area.width, strings: strings)
        let top = max(0, min(scroll, lines.count - area.height))
        for (k, line) in lines.dropFirst(top).prefix(area.height).enumerated() {
            let y = area.y + k
            switch line.role {
            case .title: screen.put(line.text, x: area.x, y: y, style: Style(role: .title, bold: true), clip: area)
            case .muted: screen.put(line.text, x: area.x, y: y, style: Style(role: .muted), clip: area)
            case .body: screen.put(line.text, x: area.x, y: y, style: .plain, clip: area)
            case .link(let url):
                let w = screen.put(line.text, x: area.x, y: y, style: Style(role: .accent, underline: true), clip: area)
                screen.addLink(Rect(x: area.x, y: y, width: w, height: 1), url: url)
            }
        }
        if lines.count > area.height {
            if top + area.height < lines.count { screen.put("↓", x: area.maxX, y: area.maxY - 1, style: .dim) }
            if top > 0 { screen.put("↑", x: area.maxX, y: area.y, style: .dim) }
        }
    }
}

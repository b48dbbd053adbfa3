/// A scrolled text page: the lines `TextPage.lines` produces, from `scroll` on.
public enum TextView {
    public static func render(_ screen: inout Screen, _ area: Rect, page: TextPage, scroll: Int, strings: Strings, marks: ListView.Marks? = nil) {
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
        (marks ?? .inside(area)).render(&screen, top: top, visible: area.height, count: lines.count)
    }
}

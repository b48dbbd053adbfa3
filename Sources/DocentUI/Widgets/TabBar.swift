/// The tab bar: every available tab by name, the current one reversed; each is a click target.
public enum TabBar {
    public static func render(_ screen: inout Screen, _ area: Rect, tabs: [Tab], current: Tab, strings: Strings, right: String) {
        screen.fill(area, style: Style(role: .title))
        var x = area.x
        for (i, t) in tabs.enumerated() {
            let label = " \(strings(t.titleKey)) "
            let w = TextWidth.width(label)
            if x + w > area.maxX { break }
            let style = t == current ? Style(role: .highlight, bold: true, reverse: true) : Style(role: .title)
            screen.put(label, x: x, y: area.y, style: style, clip: area)
            screen.addHitRegion(Rect(x: x, y: area.y, width: w, height: 1), tag: "tab:\(t.rawValue)")
            x += w
            if i < tabs.count - 1, x < area.maxX {
                screen.put("│", x: x, y: area.y, style: .dim, clip: area)
                x += 1
            }
        }
        let rw = TextWidth.width(right)
        if rw > 0, area.maxX - rw - 1 > x {
            screen.put(right, x: area.maxX - rw - 1, y: area.y, style: Style(role: .muted), clip: area)
        }
    }
}

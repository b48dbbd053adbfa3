/// The tab bar: every available tab by name, the current one reversed; each is a click target.
/// When the names do not fit, their padding goes first; then only a run of tabs around the
/// current one is shown, with ‹ › where tabs are hidden. The current tab is always visible.
public enum TabBar {
    public static func render(_ screen: inout Screen, _ area: Rect, tabs: [Tab], current: Tab, strings: Strings, right: String) {
        screen.fill(area, style: Style(role: .title))
        guard !tabs.isEmpty, !area.isEmpty else { return }
        let names = tabs.map { strings($0.titleKey) }
        let layout = Self.layout(widths: names.map(TextWidth.width), current: tabs.firstIndex(of: current) ?? 0, room: area.width)
        var x = area.x
        if layout.range.lowerBound > 0 {
            screen.put("‹", x: x, y: area.y, style: .dim, clip: area)
            x += 1
        }
        for i in layout.range {
            let label = layout.padded ? " \(names[i]) " : names[i]
            let w = TextWidth.width(label)
            let style = tabs[i] == current ? Style(role: .highlight, bold: true, reverse: true) : Style(role: .title)
            screen.put(label, x: x, y: area.y, style: style, clip: area)
            screen.addHitRegion(Rect(x: x, y: area.y, width: min(w, area.maxX - x), height: 1), action: .selectTab(tabs[i]))
            x += w
            if i < layout.range.upperBound - 1 {
                screen.put(screen.plain ? " " : "│", x: x, y: area.y, style: .dim, clip: area)
                x += 1
            }
        }
        if layout.range.upperBound < tabs.count {
            screen.put("›", x: x, y: area.y, style: .dim, clip: area)
            x += 1
        }
        let rw = TextWidth.width(right)
        if rw > 0, area.maxX - rw - 1 > x {
            screen.put(right, x: area.maxX - rw - 1, y: area.y, style: Style(role: .muted), clip: area)
        }
    }

    /// Which tabs to show and whether with a space either side of each name: all padded if
    /// that fits in `room` cells, else all unpadded, else the widest run of unpadded names
    /// around `current` (growing to the right first) that fits with its ‹ › markers.
    static func layout(widths: [Int], current: Int, room: Int) -> (range: Range<Int>, padded: Bool) {
        let n = widths.count
        func width(_ r: Range<Int>, padded: Bool) -> Int {
            let names = r.reduce(0) { $0 + widths[$1] + (padded ? 2 : 0) }
            let markers = (r.lowerBound > 0 ? 1 : 0) + (r.upperBound < n ? 1 : 0)
            return names + max(0, r.count - 1) + markers
        }
        if width(0..<n, padded: true) <= room { return (0..<n, true) }
        if width(0..<n, padded: false) <= room { return (0..<n, false) }
        var r = current..<(current + 1)
        var grew = true
        while grew {
            grew = false
            if r.upperBound < n, width(r.lowerBound..<(r.upperBound + 1), padded: false) <= room {
                r = r.lowerBound..<(r.upperBound + 1)
                grew = true
            }
            if r.lowerBound > 0, width((r.lowerBound - 1)..<r.upperBound, padded: false) <= room {
                r = (r.lowerBound - 1)..<r.upperBound
                grew = true
            }
        }
        return (r, false)
    }
}

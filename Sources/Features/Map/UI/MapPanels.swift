import DocentCore
import Foundation

/// The card of the selected item: title, what and where it is, its text (a restaurant's hours,
/// an artwork's tombstone, a tour's description) and what Enter does.
enum MapCard {
    static func render(_ screen: inout Screen, _ canvas: Rect, map: MapState, context: FeatureContext, scene: MapScene, item: MapItem) {
        let s = context.strings
        guard canvas.width >= 12, canvas.height >= 4 else { return }
        var facts: [String] = []
        var kind = s(MapScreen.kindKey(item.kind))
        if case .gallery(true) = item.kind { kind += " · " + s(.mapClosed) }
        facts.append(kind)
        var whereText = s(.floorLabel, ["floor": (item.floor ?? scene.floor).label])
        if item.floor == nil { whereText = s(.mapAllFloors) }
        if let a = item.area, item.kind != .gallery(closed: false), item.kind != .gallery(closed: true) {
            whereText += " · " + MapScreen.areaName(a, s)
        }
        facts.append(whereText)
        if let n = item.number { facts.append(s(.tourKeypad, ["number": n])) }
        if item.id == scene.here { facts.append(s(.mapHere)) }
        if let a = MapScreen.artworkID(item), let n = scene.tourStops[a] { facts.append(s(.mapTourStop, ["number": String(n)])) }
        var body = item.detail
        if case .gallery(true) = item.kind { body = s(.mapClosedText) }
        let action = MapScene.cardAction(context, item.id)
        var footer = [String]()
        if case .feature(let v)? = action {
            if case .play? = v.as(PlayerAction.self) { footer.append(s(.mapCardPlay)) }
            if v.as(TourAction.self) != nil { footer.append(s(.mapCardTour)) }
        }
        footer.append(s(.mapCardClose))

        let width = min(canvas.width, 64)
        let inner = max(1, width - 4)
        var lines: [(String, Style)] = Wrap.lines(MapScreen.name(item, s), width: inner).map { ($0, Style(role: .title, bold: true)) }
        lines += Wrap.lines(facts.joined(separator: " · "), width: inner).map { ($0, Style(role: .muted)) }
        lines += Wrap.lines(body, width: inner).filter { !$0.isEmpty }.map { ($0, .plain) }
        // At most half the map, so the item stays in sight: at the bottom, or at the top when
        // the item is in the lower half.
        let maxLines = max(2, (canvas.height - 1) / 2 - 3)
        if lines.count > maxLines { lines = Array(lines.prefix(maxLines - 1)) + [("…", .plain)] }
        let height = min(canvas.height, lines.count + 3)
        let low = scene.viewport.cell(item.point).map { $0.row >= canvas.height / 2 } ?? false
        let box = Rect(x: canvas.x + (canvas.width - width) / 2, y: low ? canvas.y : canvas.maxY - height, width: width, height: height)
        screen.fill(box, style: .plain)
        Widgets.box(&screen, box, style: Style(role: .accent))
        for (k, l) in lines.enumerated() {
            screen.put(l.0, x: box.x + 2, y: box.y + 1 + k, style: l.1, clip: box.inset(1))
        }
        let f = TextWidth.truncate(footer.joined(separator: " · "), to: inner)
        let fy = box.maxY - 2
        guard fy > box.y else { return }
        screen.put(f, x: box.x + 2, y: fy, style: Style(role: action == nil ? .muted : .accent, bold: action != nil), clip: box.inset(1))
        screen.addHitRegion(box, action: .map(.activate))
        screen.put("×", x: box.maxX - 2, y: box.y, style: Style(role: .accent))
        screen.addHitRegion(Rect(x: box.maxX - 2, y: box.y, width: 1, height: 1), action: .map(.dismiss))
    }
}

/// The text mode: the floor's annotations as a list sorted by area (gallery, then the grounds),
/// with the same selection, card and actions as the drawing. For screen readers and narrow
/// terminals.
enum MapTextList {
    /// One line of the list: an area heading or an item.
    enum Line: Equatable {
        case heading(String)
        case item(MapItem)
    }

    static func lines(_ context: FeatureContext, _ scene: MapScene) -> [Line] {
        let s = context.strings
        var out: [Line] = []
        var started = false
        var area: String?
        for item in MapContent.listOrder(scene.items) {
            if !started || area != item.area {
                started = true
                area = item.area
                out.append(.heading(MapScreen.areaName(item.area, s)))
            }
            out.append(.item(item))
        }
        return out
    }

    static func render(_ screen: inout Screen, _ canvas: Rect, map: MapState, context: FeatureContext, scene: MapScene) {
        let s = context.strings
        let all = lines(context, scene)
        guard !all.isEmpty else {
            screen.put(TextWidth.truncate(s(.mapEmpty), to: canvas.width), x: canvas.x, y: canvas.y, style: Style(role: .muted), clip: canvas)
            return
        }
        let selected = all.firstIndex { if case .item(let i) = $0 { return i.id == map.selection } else { return false } } ?? 0
        let top = min(max(0, selected - canvas.height / 2), max(0, all.count - canvas.height))
        for (k, line) in all.dropFirst(top).prefix(canvas.height).enumerated() {
            let y = canvas.y + k
            switch line {
            case .heading(let t):
                screen.put(TextWidth.truncate(t, to: canvas.width), x: canvas.x, y: y, style: Style(role: .title, bold: true), clip: canvas)
            case .item(let item):
                let row = Rect(x: canvas.x, y: y, width: canvas.width, height: 1)
                let isSel = item.id == map.selection
                var marks: [String] = []
                if item.id == scene.here { marks.append(s(.mapHere)) }
                if let a = MapScreen.artworkID(item), let n = scene.tourStops[a] { marks.append(s(.mapTourStop, ["number": String(n)])) }
                if case .gallery(true) = item.kind { marks.append(s(.mapClosed)) }
                let glyph = MapScreen.pin(item, scene: scene) ?? "·"
                var text = "  \(glyph)  " + (item.number.map { "\($0) " } ?? "") + MapScreen.name(item, s)
                let detail = ([s(MapScreen.kindKey(item.kind))] + marks).joined(separator: " · ")
                if case .amenity = item.kind, item.singleLineLabel.isEmpty, marks.isEmpty {
                    // The name already says what it is.
                } else {
                    text += " — " + detail
                }
                let style = isSel ? Style(role: .highlight, reverse: true) : item.id == map.highlight ? Style(role: .highlight, bold: true) : .plain
                if isSel {
                    screen.fill(row, style: style)
                    // The cursor at the start of the highlighted row (a screen reader reads there).
                    screen.focus = Rect(x: canvas.x, y: y, width: 1, height: 1)
                }
                screen.put(TextWidth.truncate(text, to: canvas.width), x: canvas.x, y: y, style: style, clip: canvas)
                screen.addHitRegion(row, action: .map(.clickItem(item.id)))
            }
        }
    }
}

/// `?` on the map: every glyph and the map's keys.
enum MapLegend {
    static func entries(_ s: Strings) -> [(String, String)] {
        var out: [(String, String)] = AmenityType.allCases.map { (String(MapScreen.glyph($0)), s(MapScreen.amenityKey($0))) }
        out += [
            ("@", s(.mapLegendHere)),
            ("*", s(.mapLegendArtwork)),
            ("o", s(.mapLegendSilent)),
            ("1", s(.mapLegendStop)),
            ("T", s(.mapLegendTour)),
            ("×", s(.mapLegendClosed)),
        ]
        return out
    }

    /// The legend's lines: the glyphs in one or two columns, a blank line, the keys wrapped.
    /// A terminal too small for all of them shows part, scrolled by ↑↓ (`legendScroll`).
    static func render(_ screen: inout Screen, _ canvas: Rect, map: MapState, context: FeatureContext) {
        let s = context.strings
        let items = entries(s)
        let colWidth = (items.map { TextWidth.width("\($0.0)  \($0.1)") }.max() ?? 10) + 2
        let width = min(canvas.width, max(40, min(canvas.width, colWidth * 2 + 4)))
        let columns = width - 4 >= colWidth * 2 ? 2 : 1
        let perColumn = (items.count + columns - 1) / columns
        let keys = Wrap.lines(s(.mapLegendKeys), width: max(1, width - 4))
        // Each line: up to `columns` glyph entries, or one line of keys.
        enum Line { case glyphs([(String, String)]), text(String) }
        var lines: [Line] = (0..<perColumn).map { row in
            .glyphs((0..<columns).compactMap { col in items.indices.contains(col * perColumn + row) ? items[col * perColumn + row] : nil })
        }
        lines.append(.text(""))
        lines += keys.map { .text($0) }
        let height = min(canvas.height, lines.count + 2)
        let box = Rect(x: canvas.x + (canvas.width - width) / 2, y: canvas.y + max(0, (canvas.height - height) / 2), width: width, height: height)
        screen.fill(box, style: .plain)
        Widgets.box(&screen, box, style: Style(role: .accent))
        screen.put(" " + TextWidth.fit(s(.mapLegendTitle), to: width - 6) + " ", x: box.x + 2, y: box.y, style: Style(role: .title, bold: true))
        let inner = box.inset(1)
        let visible = max(0, box.height - 2)
        let top = max(0, min(map.legendScroll, lines.count - visible))
        for (k, line) in lines.dropFirst(top).prefix(visible).enumerated() {
            let y = box.y + 1 + k
            switch line {
            case .glyphs(let entries):
                for (col, e) in entries.enumerated() {
                    let x = box.x + 2 + col * colWidth
                    screen.put(e.0, x: x, y: y, style: Style(role: .accent, bold: true), clip: inner)
                    screen.put("  " + e.1, x: x + 1, y: y, style: .plain, clip: inner)
                }
            case .text(let t):
                screen.put(t, x: box.x + 2, y: y, style: Style(role: .muted), clip: inner)
            }
        }
        if top + visible < lines.count { screen.put("↓", x: box.maxX - 2, y: box.maxY - 2, style: .dim) }
        if top > 0 { screen.put("↑", x: box.maxX - 2, y: box.y + 1, style: .dim) }
        screen.addHitRegion(box, action: .map(.dismiss))
    }
}

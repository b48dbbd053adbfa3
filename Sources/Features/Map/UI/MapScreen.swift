import DocentCore
import Foundation

/// The Map tab: a header (floors, zoom, plan status), the floor plan in braille with the
/// annotations on it (or the text list), a line of key hints; the card and the legend on top.
public enum MapScreen: ScopedTakesKeysAnywhere {
    public typealias Core = MapFeature

    /// The status line on the map: the map's own line above it names the map's keys, this one
    /// the guide's, without the lists' "↑↓ move" (the arrows pan here) and with `f`, Pulse's
    /// on the map as everywhere (issue 47 #10: one key, one meaning).
    public static func hints(_ map: MapState, _ context: FeatureContext) -> String? {
        context.museum.map { $0.mapFloors.isEmpty } == false ? context.strings(.mapStatusLine) : nil
    }
    public static func render(_ screen: inout Screen, _ area: Rect, _ map: MapState, _ context: FeatureContext) {
        let s = context.strings
        guard area.width > 0, area.height > 0, let app = context.museum else { return }
        guard !app.mapFloors.isEmpty else {
            for (k, l) in Wrap.lines(s(.mapNoPlans), width: area.width).prefix(area.height).enumerated() {
                screen.put(l, x: area.x, y: area.y + k, style: Style(role: .muted))
            }
            return
        }
        let (header, rest) = area.splitTop(1)
        let (canvas, hints) = rest.splitBottom(min(1, max(0, rest.height - 1)))
        guard let scene = MapScene(map, context, cols: canvas.width, rows: canvas.height) else { return }
        renderHeader(&screen, header, map: map, context: context, scene: scene)
        if map.textMode {
            MapTextList.render(&screen, canvas, map: map, context: context, scene: scene)
        } else {
            renderMap(&screen, canvas, map: map, context: context, scene: scene)
        }
        if !hints.isEmpty {
            let key = map.legendOpen ? StringKey.mapHintsLegend : map.cardOpen ? StringKey.mapHintsCard : map.textMode ? StringKey.mapHintsText : StringKey.mapHints
            var text = s(key)
            // A card with nothing to do (an amenity, a gallery) offers no Enter (issue 33 #19);
            // every language names Enter first.
            if key == .mapHintsCard, let sel = map.selection, MapScene.cardAction(context, sel) == nil {
                text = text.components(separatedBy: " · ").dropFirst().joined(separator: " · ")
            }
            screen.put(TextWidth.fitHints(text, to: hints.width), x: hints.x, y: hints.y, style: Style(role: .muted), clip: hints)
        }
        if map.cardOpen, let sel = map.selection, let item = scene.items.first(where: { $0.id == sel }) {
            MapCard.render(&screen, canvas, map: map, context: context, scene: scene, item: item)
        }
        if map.legendOpen { MapLegend.render(&screen, canvas, map: map, context: context) }
    }

    // MARK: Header

    static func renderHeader(_ screen: inout Screen, _ area: Rect, map: MapState, context: FeatureContext, scene: MapScene) {
        let s = context.strings
        var x = area.x
        x += screen.put(s(.mapFloor) + " ", x: x, y: area.y, style: Style(role: .muted), clip: area)
        for f in scene.floors {
            let chip = " \(f.label) "
            let current = f == scene.floor
            let w = screen.put(chip, x: x, y: area.y, style: current ? Style(role: .highlight, bold: true, reverse: true) : .plain, clip: area)
            screen.addHitRegion(Rect(x: x, y: area.y, width: w, height: 1), action: .map(.selectFloor(f)))
            x += w
        }
        x += screen.put("  ", x: x, y: area.y, clip: area)
        let zoom = s(.mapZoom, ["level": String(map.zoom + 1), "levels": String(MapZoom.levels)])
        x += screen.put(zoom, x: x, y: area.y, style: Style(role: .muted), clip: area)
        if map.textMode { x += screen.put("  " + s(.mapListMode), x: x, y: area.y, style: Style(role: .accent), clip: area) }
        var status: (String, Style.Role)?
        switch scene.status {
        case .loading?, nil: status = (s(.mapLoadingShort), .muted)
        case .failed?: status = (s(.mapFailedShort), .error)
        case .ready?: status = map.savedCopies.contains(map.floor) ? (s(.mapSavedCopyShort), .muted) : nil
        }
        if let (text, role) = status {
            let t = TextWidth.truncate(text, to: max(0, area.maxX - x - 2))
            let w = TextWidth.width(t)
            if w > 0 { screen.put(t, x: area.maxX - w, y: area.y, style: Style(role: role), clip: area) }
        }
    }

    // MARK: The drawing

    static func renderMap(_ screen: inout Screen, _ area: Rect, map: MapState, context: FeatureContext, scene: MapScene) {
        let v = scene.viewport
        let masks: [UInt8]
        if let r = scene.status?.raster {
            masks = MapCanvas.masks(r, v)
        } else {
            masks = MapCanvas.gridMasks(v)
        }
        let planStyle = Style(role: .muted)
        // A plan that is missing says so on rows of its own at the top, with a blank row under
        // them: no dot of the grid is drawn there (its words over the dots read as noise).
        let message = statusMessage(context, scene)
        let messageLines = message.map { Wrap.lines($0.0, width: max(1, area.width - 2)).prefix(max(0, area.height - 2)) } ?? []
        let clearRows = messageLines.isEmpty ? 0 : min(area.height, messageLines.count + 1)
        for row in clearRows..<max(clearRows, min(v.rows, area.height)) {
            let y = area.y + row
            guard y >= 0, y < screen.height else { continue }
            for col in 0..<min(v.cols, area.width) {
                let m = masks[row * v.cols + col]
                let x = area.x + col
                guard m != 0, x >= 0, x < screen.width else { continue }
                screen[x, y] = Cell(String(MapCanvas.character(m)), style: planStyle)
            }
        }
        var labels = MapLabels(area: area, ink: (0..<(area.width * area.height)).map { i in
            let col = i % area.width, row = i / area.width
            return row >= clearRows && col < v.cols && row < v.rows && masks[row * v.cols + col] != 0
        })
        // The annotations are still drawn, below the message.
        if let message {
            for (k, l) in messageLines.enumerated() {
                screen.put(" " + l, x: area.x, y: area.y + k, style: Style(role: message.1), clip: area)
            }
            labels.occupy(Rect(x: area.x, y: area.y, width: area.width, height: clearRows))
        }
        for item in scene.drawn {
            labels.place(&screen, item, map: map, context: context, scene: scene)
        }
    }

    static func statusMessage(_ context: FeatureContext, _ scene: MapScene) -> (String, Style.Role)? {
        let s = context.strings
        switch scene.status {
        case .failed(_, _, let problem)?: return (s(.mapFailed, ["reason": problem.phrase.text(s)]), .error)
        case .loading?, nil: return (s(.mapLoading), .muted)
        case .ready?: return nil
        }
    }

    static func artworkID(_ item: MapItem) -> Int? {
        if case .artwork(let id) = item.id { return id }
        return nil
    }

    // MARK: Glyphs and names (shared with the card, the list and the legend)

    /// One cell for an amenity; ASCII so every terminal and font agrees on its width.
    public static func glyph(_ type: AmenityType) -> Character {
        switch type {
        case .audioGuide: return "A"
        case .checkRoom: return "C"
        case .dining: return "D"
        case .escalator: return "S"
        case .elevator: return "E"
        case .familyRestroom: return "F"
        case .giftShop: return "G"
        case .information: return "i"
        case .membersLounge: return "L"
        case .mensRoom: return "M"
        case .tickets: return "$"
        case .wheelchairRamp: return "R"
        case .womensRoom: return "W"
        }
    }

    /// The one-cell mark of a pin item; nil for items drawn as their label.
    public static func pin(_ item: MapItem, scene: MapScene) -> String? {
        if item.id == scene.here { return "@" }
        switch item.kind {
        case .amenity(let t): return String(glyph(t))
        case .artwork(let audio):
            if let a = artworkID(item), let n = scene.tourStops[a] { return String(n) }
            return audio ? "*" : "o"
        case .tourStart: return "T"
        default: return nil
        }
    }

    /// UI string key of an amenity type's name.
    public static func amenityKey(_ type: AmenityType) -> StringKey {
        switch type {
        case .audioGuide: return .mapAmenityAudioGuide
        case .checkRoom: return .mapAmenityCheckRoom
        case .dining: return .mapAmenityDining
        case .escalator: return .mapAmenityEscalator
        case .elevator: return .mapAmenityElevator
        case .familyRestroom: return .mapAmenityFamilyRestroom
        case .giftShop: return .mapAmenityGiftShop
        case .information: return .mapAmenityInformation
        case .membersLounge: return .mapAmenityMembersLounge
        case .mensRoom: return .mapAmenityMensRoom
        case .tickets: return .mapAmenityTickets
        case .wheelchairRamp: return .mapAmenityWheelchairRamp
        case .womensRoom: return .mapAmenityWomensRoom
        }
    }

    /// What a visitor calls the item: its label, or the amenity's name.
    public static func name(_ item: MapItem, _ s: Strings) -> String {
        let l = item.singleLineLabel
        if !l.isEmpty { return l }
        if case .amenity(let t) = item.kind { return s(amenityKey(t)) }
        return s(kindKey(item.kind))
    }

    public static func kindKey(_ kind: MapItemKind) -> StringKey {
        switch kind {
        case .amenity(let t): return amenityKey(t)
        case .landmark: return .mapKindLandmark
        case .garden: return .mapKindGarden
        case .space: return .mapKindSpace
        case .department: return .mapKindDepartment
        case .gallery: return .mapKindGallery
        case .artwork: return .mapKindArtwork
        case .tourStart: return .mapKindTourStart
        }
    }

    /// "Gallery 101" for a numbered gallery, the name otherwise; the grounds for nil.
    public static func areaName(_ area: String?, _ s: Strings) -> String {
        guard let a = area else { return s(.mapAreaGrounds) }
        return a.allSatisfy(\.isNumber) ? s(.galleryShort, ["gallery": a]) : a
    }

    /// `v` on any page shows what it is about on the map (an artwork, a tour's start).
    public static func anywhere(_ key: Key, _ map: MapState, _ context: FeatureContext) -> AppAction? {
        key == .char("v") ? MapAction.showOnMap(from: context) : nil
    }

    /// "v map" in the usual hints where `v` shows something.
    public static func anywhereHint(_ map: MapState, _ context: FeatureContext) -> String? {
        MapAction.showOnMap(from: context) != nil ? context.strings(.mapHintShow) : nil
    }

    // MARK: Keys

    /// Keys the map handles itself; nil lets the global key map decide. Arrows and h/j/k/l
    /// pan, + and - zoom (the player's volume and seek keys give way here), [ ] and f change
    /// floors, n/N select, Enter opens the card or does its action, t the list, ? the legend,
    /// c back to "you are here", r retries a plan, Esc closes what is open.
    public static func action(for key: Key, _ m: MapState, _ context: FeatureContext) -> AppAction? {
        guard context.overlay == nil, context.museum != nil else { return nil }
        let somethingOpen = m.legendOpen || m.cardOpen || m.textMode || m.highlight != nil || m.selection != nil
        switch key {
        case .escape, .backspace: return somethingOpen ? .map(.dismiss) : nil
        case .enter: return .map(.activate)
        case .char("?"): return .map(.toggleLegend)
        case .char("t"): return .map(.toggleText)
        case .char("["): return .map(.floorStep(-1))
        case .char("]"): return .map(.floorStep(1))
        case .char("n"): return .map(.selectStep(1))
        case .char("N"): return .map(.selectStep(-1))
        case .char("c"): return .map(.recentre)
        case .char("r"): return .map(.retry)
        default: break
        }
        if m.legendOpen {
            switch key {
            case .up, .char("k"): return .map(.scrollLegend(-1))
            case .down, .char("j"): return .map(.scrollLegend(1))
            case .pageUp: return .map(.scrollLegend(-max(1, context.viewportRows - 6)))
            case .pageDown: return .map(.scrollLegend(max(1, context.viewportRows - 6)))
            default: break
            }
        }
        if m.textMode {
            switch key {
            case .up, .char("k"): return .map(.selectStep(-1))
            case .down, .char("j"): return .map(.selectStep(1))
            case .pageUp: return .map(.selectStep(-max(1, context.viewportRows - 4)))
            case .pageDown: return .map(.selectStep(max(1, context.viewportRows - 4)))
            case .home, .char("g"): return .map(.selectStep(-1_000_000))
            case .end, .char("G"): return .map(.selectStep(1_000_000))
            default: return nil
            }
        }
        switch key {
        case .left, .char("h"): return .map(.pan(dx: -1, dy: 0))
        case .right, .char("l"): return .map(.pan(dx: 1, dy: 0))
        case .up, .char("k"): return .map(.pan(dx: 0, dy: -1))
        case .down, .char("j"): return .map(.pan(dx: 0, dy: 1))
        case .char("+"), .char("="): return .map(.zoom(1))
        case .char("-"), .char("_"): return .map(.zoom(-1))
        default: return nil
        }
    }
}

/// Places labels and pins on the canvas without overlapping: the first to claim a cell keeps
/// it; the selection, the highlight and "you are here" are placed first and always drawn.
/// Labels and pins go where the plan has no line when there is such a place nearby (issue 33
/// #10: a name written over a wall cuts the wall); where there is none they are written over
/// it, each cell of a label replacing the dots under it.
struct MapLabels {
    let area: Rect
    var taken: [Bool]
    /// Cells where the plan draws a line (a wall, a door), row-major over `area`.
    let ink: [Bool]
    /// The names written so far (each text item's lines joined).
    var written: [String] = []

    init(area: Rect, ink: [Bool] = []) {
        self.area = area
        taken = Array(repeating: false, count: area.width * area.height)
        self.ink = ink.count == area.width * area.height ? ink : Array(repeating: false, count: area.width * area.height)
    }

    func free(_ r: Rect) -> Bool {
        guard r.x >= area.x, r.maxX <= area.maxX, r.y >= area.y, r.maxY <= area.maxY else { return false }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX where taken[(y - area.y) * area.width + (x - area.x)] { return false }
        }
        return true
    }

    /// No line of the plan under `r` (inside the area).
    func clearOfWalls(_ r: Rect) -> Bool {
        for y in max(r.y, area.y)..<min(r.maxY, area.maxY) {
            for x in max(r.x, area.x)..<min(r.maxX, area.maxX) where ink[(y - area.y) * area.width + (x - area.x)] { return false }
        }
        return true
    }

    mutating func occupy(_ r: Rect) {
        for y in max(r.y, area.y)..<min(r.maxY, area.maxY) {
            for x in max(r.x, area.x)..<min(r.maxX, area.maxX) { taken[(y - area.y) * area.width + (x - area.x)] = true }
        }
    }

    mutating func place(_ screen: inout Screen, _ item: MapItem, map: MapState, context: FeatureContext, scene: MapScene) {
        let s = context.strings
        guard let cell = scene.viewport.cell(item.point) else { return }
        let cx = area.x + cell.col, cy = area.y + cell.row
        let selected = item.id == map.selection
        let marked = item.id == map.highlight || item.id == scene.here
        let forced = selected || marked
        let click = AppAction.map(.clickItem(item.id))
        if let pin = MapScreen.pin(item, scene: scene) {
            let w = TextWidth.width(pin)
            // The pin's own cell, else the nearest free neighbour: first one with no wall under
            // it, then any.
            var spot: Rect?
            let around = [(0, 0), (1, 0), (-1, 0), (0, -1), (0, 1), (1, 1), (-1, -1), (1, -1), (-1, 1)]
            for clear in [true, false] where spot == nil {
                for (dx, dy) in around {
                    let r = Rect(x: cx + dx, y: cy + dy, width: w, height: 1)
                    if free(r), !clear || clearOfWalls(r) {
                        spot = r
                        break
                    }
                }
            }
            if spot == nil, forced { spot = Rect(x: min(cx, area.maxX - w), y: cy, width: w, height: 1) }
            guard let r = spot else { return }
            screen.put(pin, x: r.x, y: r.y, style: pinStyle(item, scene: scene, selected: selected, marked: marked), clip: area)
            occupy(r)
            screen.addHitRegion(r, action: click)
            // Artwork titles close in: everywhere at the closest level, near the middle one
            // level out (the AIC app opens pins within 15 m of the centre).
            if case .artwork = item.kind, showsTitle(item, map: map, context: context, scene: scene) || forced {
                let title = " " + TextWidth.truncate(MapScreen.name(item, s), to: 24)
                let tr = Rect(x: r.maxX, y: r.y, width: TextWidth.width(title), height: 1)
                // A title over a wall only when it must show (the selection, a mark).
                if (free(tr) && clearOfWalls(tr)) || forced {
                    let style = forced ? Style(role: .highlight, reverse: selected) : Style(role: .normal)
                    screen.put(title, x: tr.x, y: tr.y, style: style, clip: area)
                    occupy(tr)
                    screen.addHitRegion(tr, action: click)
                }
            }
            return
        }
        // Text items: the label centred on the point, one line (landmarks may use up to three).
        var lines: [String]
        switch item.kind {
        case .landmark:
            lines = item.label.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if lines.isEmpty { lines = [MapScreen.name(item, s)] }
        case .gallery(let closed):
            lines = [(closed ? "×" : "") + item.label]
        default:
            lines = [MapScreen.name(item, s)]
        }
        lines = lines.prefix(3).map { TextWidth.truncate($0, to: max(1, area.width)) }
        // A shorter form: a gallery's number without its name ("104" for "104 (Lantern Court)").
        var short: [String]?
        if case .gallery = item.kind, let open = item.label.firstIndex(of: "(") {
            let number = item.label[..<open].trimmingCharacters(in: .whitespaces)
            if !number.isEmpty, !number.contains(" ") { short = [number] }
        }
        // A name already written (a landmark inside a gallery named after it) is not written
        // again (issue 47 #15: "Lantern Court" twice); a gallery whose name is written keeps
        // its number.
        if !forced, lines.count == 1, written.contains(where: { $0.localizedCaseInsensitiveContains(lines[0]) }) {
            guard let short else { return }
            lines = short
        }
        // Centred on the point, else nudged up or down a little, else beside it: first where
        // no wall is under it, then anywhere free.
        func find(_ lines: [String], clear: Bool) -> (spot: Rect, gap: Rect)? {
            let w = lines.map(TextWidth.width).max() ?? 0
            guard w > 0 else { return nil }
            let nudges = [(0, 0), (0, -1), (0, 1), (0, -2), (0, 2), (w / 2 + 1, 0), (-(w / 2 + 1), 0)]
            for (dx, dy) in nudges {
                var r = Rect(x: cx - w / 2 + dx, y: cy - (lines.count - 1) / 2 + dy, width: w, height: lines.count)
                r.x = min(max(r.x, area.x), area.maxX - w)
                r.y = min(max(r.y, area.y), area.maxY - lines.count)
                // A blank cell either side keeps two names from reading as one.
                let gap = Rect(x: max(area.x, r.x - 1), y: r.y, width: min(area.maxX, r.maxX + 1) - max(area.x, r.x - 1), height: r.height)
                if free(gap), !clear || clearOfWalls(gap) { return (r, gap) }
            }
            return nil
        }
        var spot: Rect?
        var gapRect: Rect?
        // Clear of the walls, a blank either side, in full, else in the shorter form.
        for form in [lines] + (short.map { [$0] } ?? []) where spot == nil {
            if let found = find(form, clear: true) {
                (spot, gapRect, lines) = (found.spot, found.gap, form)
            }
        }
        // The whole floor (zoom 1/5) never writes a name over its walls (issue 47 #15:
        // "Founders ⣀⣀⣸"): a name with no clear place is left out (the list, `t`, has it);
        // closer in, it stands on cleared cells over the wall.
        if spot == nil, !forced, map.zoom == 0 { return }
        if spot == nil, let found = find(lines, clear: false) { (spot, gapRect) = (found.spot, found.gap) }
        let w = lines.map(TextWidth.width).max() ?? 0
        guard w > 0 else { return }
        if spot == nil, forced {
            var r = Rect(x: cx - w / 2, y: cy - (lines.count - 1) / 2, width: w, height: lines.count)
            r.x = min(max(r.x, area.x), area.maxX - w)
            r.y = min(max(r.y, area.y), area.maxY - lines.count)
            spot = r
        }
        guard let r = spot else { return }
        let style = textStyle(item, selected: selected, marked: marked)
        // Over a wall the name stands on cleared cells, a blank either side, so its letters do
        // not run into the dots.
        if let g = gapRect, !clearOfWalls(r) {
            screen.fill(g, style: .plain)
            occupy(g)
        }
        for (k, l) in lines.enumerated() {
            let lw = TextWidth.width(l)
            screen.put(l, x: r.x + (w - lw) / 2, y: r.y + k, style: style, clip: area)
        }
        written.append(lines.joined(separator: " "))
        occupy(r)
        screen.addHitRegion(r, action: click)
    }

    func showsTitle(_ item: MapItem, map: MapState, context: FeatureContext, scene: MapScene) -> Bool {
        switch MapZoom.named(map.zoom) {
        case .max: return true
        case .detail:
            let c = scene.viewport.centre
            let d = hypot(item.point.x - c.x, item.point.y - c.y) / max(scene.pointsPerMetre, 1e-9)
            return d <= 15
        default: return false
        }
    }

    func pinStyle(_ item: MapItem, scene: MapScene, selected: Bool, marked: Bool) -> Style {
        if item.id == scene.here { return Style(role: .success, bold: true, reverse: true) }
        if selected || marked { return Style(role: .highlight, bold: true, reverse: true) }
        switch item.kind {
        case .amenity: return Style(role: .accent, bold: true)
        case .artwork:
            if let a = MapScreen.artworkID(item), scene.tourStops[a] != nil {
                return Style(role: .highlight, bold: true, reverse: a == scene.currentStopArtwork)
            }
            return Style(role: .highlight)
        case .tourStart: return Style(role: .success, bold: true)
        default: return .plain
        }
    }

    func textStyle(_ item: MapItem, selected: Bool, marked: Bool) -> Style {
        if selected || marked { return Style(role: .highlight, bold: true, reverse: true) }
        switch item.kind {
        case .gallery(let closed): return closed ? Style(role: .warning) : Style(role: .normal)
        case .landmark: return Style(role: .title, bold: true)
        case .garden: return Style(role: .success)
        case .department: return Style(role: .accent)
        case .space: return Style(role: .normal, underline: false)
        default: return .plain
        }
    }
}

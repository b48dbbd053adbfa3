import Foundation

/// Where a floor's plan stands.
public enum PlanStatus: Equatable, Sendable {
    case loading(url: String)
    case ready(url: String, raster: PlanRaster)
    /// Download or rendering failed: the map draws a blank grid with the annotations. The
    /// visitor is told `problem` in a sentence; `message` is the detail (in the log).
    case failed(url: String, message: String, problem: FetchProblem)

    public var url: String {
        switch self {
        case .loading(let u), .ready(let u, _), .failed(let u, _, _): return u
        }
    }

    public var raster: PlanRaster? {
        if case .ready(_, let r) = self { return r }
        return nil
    }
}

/// The Map tab's state: floor, zoom, centre, selection, modes, and the plans loaded so far.
public struct MapState: Equatable, Sendable {
    /// Raster resolution asked of the shell, in pixels per PDF point. One raster serves every
    /// zoom level; panning and zooming never re-rasterise.
    public static let rasterScale = 2.0

    public var floor = Floor(1)
    /// 0 (the whole building) … `MapZoom.levels - 1`.
    public var zoom = 0
    /// The plan point in the middle of the window; nil centres the floor's plan.
    public var centre: PlanPoint?
    public var selection: MapItemID?
    /// The selection's card is open.
    public var cardOpen = false
    /// The list of the floor's annotations instead of the drawing (screen readers, narrow
    /// terminals).
    public var textMode = false
    /// The glyph legend and keys.
    public var legendOpen = false
    /// How far the legend is scrolled (lines; the view stops at its end).
    public var legendScroll = 0
    /// Marked by "show on map".
    public var highlight: MapItemID?
    /// Plans by floor.
    public var plans: [Floor: PlanStatus] = [:]
    /// Floors whose plan is the copy saved earlier (the server could not be reached).
    public var savedCopies: Set<Floor> = []
    /// The "you are here" artwork the map last centred on, so it centres once per new place.
    public var centredOnArtwork: Int?

    public init() {}

    /// The current floor's plan, when it is ready.
    public var raster: PlanRaster? { plans[floor]?.raster }
}

/// Map actions (keys, clicks, raster results, "show on map" from other features).
public enum MapAction: Equatable, Sendable {
    /// The map is on screen: make sure its floor plan is loading or there.
    case appeared
    /// Pan by quarter windows: dx > 0 right, dy > 0 down.
    case pan(dx: Int, dy: Int)
    /// Zoom in (+1) or out (−1).
    case zoom(Int)
    case selectFloor(Floor)
    /// The floor above (+1) or below (−1), stopping at the ends.
    case floorStep(Int)
    /// The next floor, wrapping from the top to the lower level.
    case cycleFloor
    /// Next (+1) / previous (−1) item: what is visible on the map, or the list in text mode.
    case selectStep(Int)
    case select(MapItemID)
    /// Enter: open the selection's card, or do the card's action when it is open.
    case activate
    /// Esc: close the legend, the card, the text mode, the highlight, in that order.
    case dismiss
    case toggleText
    case toggleLegend
    /// Scroll the open legend by this many lines (a small terminal shows part of it).
    case scrollLegend(Int)
    /// Back to "you are here", or to the middle of the plan.
    case recentre
    /// Try the current floor's plan again after a failure.
    case retry
    /// "Show on map": switch to the map, its floor, centre and highlight the item.
    case show(MapItemID)
    case rasterReady(floor: Floor, url: String, raster: PlanRaster, savedCopy: Bool = false)
    case rasterFailed(floor: Floor, url: String, message: String, problem: FetchProblem)
    /// A click on an item: select it, or act on it when its card is already open.
    case clickItem(MapItemID)
}

/// Work the shell does for the map.
public enum MapEffect: Equatable, Sendable {
    /// Fetch the PDF at `url`, rasterise page 1 at `pixelsPerPoint`, trim the page margin, and
    /// answer `.rasterReady` or `.rasterFailed` (a cached raster of the same URL and content
    /// may be used).
    case loadPlan(floor: Floor, url: String, pixelsPerPoint: Double)
}

/// The Map tab as a feature: floor plans, zoom and pan, items and their cards. Drawn by
/// `MapScreen` (DocentUI); plans are fetched and rasterised by its runner in the shell.
public enum MapFeature: Feature {
    public typealias State = MapState
    public typealias Action = MapAction
    public typealias Effect = MapEffect
    /// The feature's one page: the floor plan.
    public enum Route: Hashable, Sendable { case plan }
    public static let id = FeatureID("map")
    public static let order: [Capability: Int] = [.events: 80, .keysAnywhere: 80]
    public static let listensTo: Set<FeatureEvent.Kind> = [.launched, .navigated]
    public static let initialState = MapState()

    public static func content(_ route: Route, _ state: AppState) -> PageContent { .custom(id, title: nil) }

    /// The mouse wheel zooms the drawing, or moves through the text list.
    public static func move(_ delta: Int, _ state: inout AppState) -> [DocentCore.Effect] {
        if state.map.textMode { return MapReducer.reduce(&state, .selectStep(delta < 0 ? -1 : 1)) }
        return MapReducer.reduce(&state, .zoom(delta < 0 ? 1 : -1))
    }

    public static func reduce(_ state: inout AppState, _ action: MapAction) -> [DocentCore.Effect] {
        MapReducer.reduce(&state, action)
    }

    /// Whenever what is on screen changes and the map is now showing (a tab change, the
    /// document arriving, a page closed over it): ask for the plan, centre on "you are here".
    public static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] {
        // For a screen reader the map opens as its list of places (screen readers read lines,
        // not Braille drawings): the map's own choice, from a mode it only reads.
        if event == .launched, state.screenReader { state.map.textMode = true }
        guard event.kind == .navigated, MapReducer.isShowing(state), let app = state.museum else { return [] }
        return MapReducer.opened(&state, app)
    }
}

extension AppState {
    /// The map's state.
    public var map: MapState {
        get { self[MapFeature.self] }
        _modify { yield &self[MapFeature.self] }
        set { self[MapFeature.self] = newValue }
    }
}

extension AppAction {
    public static func map(_ a: MapAction) -> AppAction { MapFeature.action(a) }
}

extension Route {
    /// The floor plan.
    public static var map: Route { MapFeature.route(.plan) }
}

extension Effect {
    public static func map(_ e: MapEffect) -> Effect { MapFeature.effect(e) }
}

/// The map's reducer proper.
enum MapReducer {
    static func isShowing(_ state: AppState) -> Bool {
        state.tab == .map && state.page.route == .map && state.museum != nil
    }

    static func reduce(_ state: inout AppState, _ action: MapAction) -> [Effect] {
        guard let app = state.museum else { return [] }
        switch action {
        case .appeared:
            return opened(&state, app)
        case .clickItem(let id):
            guard state.overlay == nil else { return [] }
            if state.map.selection == id, state.map.cardOpen { return reduce(&state, .activate) }
            return reduce(&state, .select(id))
        case .pan(let dx, let dy):
            guard let v = viewport(state, app) else { return [] }
            let stepX = Double(v.dotsWide) * v.pointsPerDot / 4, stepY = Double(v.dotsHigh) * v.pointsPerDot / 4
            setCentre(&state, app, PlanPoint(x: v.centre.x + Double(dx) * stepX, y: v.centre.y - Double(dy) * stepY))
            return []
        case .zoom(let d):
            let z = min(max(0, state.map.zoom + d), MapZoom.levels - 1)
            guard z != state.map.zoom else { return [] }
            // Zooming in keeps a visible selection in the window.
            if d > 0, let sel = state.map.selection, let v = viewport(state, app),
                let item = items(state, app).first(where: { $0.id == sel }), v.box.contains(item.point)
            {
                let c = v.centre
                state.map.zoom = z
                let f = 1 / MapZoom.factor(1)
                setCentre(&state, app, PlanPoint(x: c.x + (item.point.x - c.x) * f, y: c.y + (item.point.y - c.y) * f))
            } else {
                state.map.zoom = z
                if let c = state.map.centre { setCentre(&state, app, c) }
            }
            return []
        case .selectFloor(let f):
            return changeFloor(&state, app, f)
        case .floorStep(let d):
            let floors = MapContent.floors(app)
            guard let i = floors.firstIndex(of: state.map.floor) ?? floors.indices.first else { return [] }
            let j = min(max(0, i + d), floors.count - 1)
            return changeFloor(&state, app, floors[j])
        case .cycleFloor:
            let floors = MapContent.floors(app)
            guard !floors.isEmpty else { return [] }
            let i = floors.firstIndex(of: state.map.floor) ?? -1
            return changeFloor(&state, app, floors[(i + 1) % floors.count])
        case .selectStep(let d):
            selectStep(&state, app, d)
            return []
        case .select(let id):
            guard items(state, app).contains(where: { $0.id == id }) else { return [] }
            state.map.selection = id
            state.map.cardOpen = true
            return []
        case .activate:
            return activate(&state, app)
        case .dismiss:
            if state.map.legendOpen {
                state.map.legendOpen = false
            } else if state.map.cardOpen {
                state.map.cardOpen = false
            } else if state.map.textMode {
                state.map.textMode = false
            } else if state.map.highlight != nil || state.map.selection != nil {
                state.map.highlight = nil
                state.map.selection = nil
            }
            return []
        case .toggleText:
            state.map.textMode.toggle()
            state.map.legendOpen = false
            if state.map.textMode, state.map.selection == nil {
                state.map.selection = MapContent.listOrder(items(state, app)).first?.id
            }
            return []
        case .toggleLegend:
            state.map.legendOpen.toggle()
            state.map.legendScroll = 0
            return []
        case .scrollLegend(let d):
            guard state.map.legendOpen else { return [] }
            state.map.legendScroll = min(max(0, state.map.legendScroll.addingReportingOverflow(d).partialValue), 200)
            return []
        case .recentre:
            if let here = hereArtwork(state, app), let loc = MapContent.locate(app, .artwork(here)) {
                var effects: [Effect] = []
                if let f = loc.floor, f != state.map.floor { effects = changeFloor(&state, app, f) }
                setCentre(&state, app, loc.point)
                return effects
            }
            state.map.centre = nil
            return []
        case .retry:
            guard case .failed? = state.map.plans[state.map.floor] else { return [] }
            state.map.plans[state.map.floor] = nil
            return ensurePlan(&state, app)
        case .show(let id):
            return show(&state, app, id)
        case .rasterReady(let floor, let url, let raster, let savedCopy):
            guard MapContent.mapFloor(app, floor)?.planURL == url else { return [] }
            state.map.plans[floor] = .ready(url: url, raster: raster)
            if savedCopy { state.map.savedCopies.insert(floor) } else { state.map.savedCopies.remove(floor) }
            if floor == state.map.floor, let c = state.map.centre { setCentre(&state, app, c) }
            return []
        case .rasterFailed(let floor, let url, let message, let problem):
            guard MapContent.mapFloor(app, floor)?.planURL == url else { return [] }
            state.map.plans[floor] = .failed(url: url, message: message, problem: problem)
            return []
        }
    }

    // MARK: Opening and floors

    /// The map came on screen: a floor that exists, "you are here" centred when it is new,
    /// and the plan asked for.
    static func opened(_ state: inout AppState, _ app: AppData) -> [Effect] {
        let floors = MapContent.floors(app)
        if !floors.contains(state.map.floor), let f = floors.first(where: { $0.number == 1 }) ?? floors.first {
            state.map.floor = f
        }
        if let here = hereArtwork(state, app), here != state.map.centredOnArtwork, state.map.highlight == nil,
            let loc = MapContent.locate(app, .artwork(here))
        {
            state.map.centredOnArtwork = here
            if let f = loc.floor, floors.contains(f) { state.map.floor = f }
            state.map.zoom = max(state.map.zoom, 1)
            setCentre(&state, app, loc.point)
        }
        selectFirstListed(&state, app)
        return ensurePlan(&state, app)
    }

    /// The list (text mode) always has a row highlighted: the first entry of the floor when
    /// nothing on it is (the list opened for a screen reader, another floor). Not a heading:
    /// Enter and the card act on entries.
    static func selectFirstListed(_ state: inout AppState, _ app: AppData) {
        guard state.map.textMode else { return }
        let list = MapContent.listOrder(items(state, app))
        if let sel = state.map.selection, list.contains(where: { $0.id == sel }) { return }
        state.map.selection = list.first?.id
    }

    static func changeFloor(_ state: inout AppState, _ app: AppData, _ floor: Floor) -> [Effect] {
        guard MapContent.floors(app).contains(floor) else { return [] }
        if floor != state.map.floor {
            state.map.floor = floor
            state.map.cardOpen = false
            if let sel = state.map.selection, !items(state, app).contains(where: { $0.id == sel }) { state.map.selection = nil }
            selectFirstListed(&state, app)
        }
        return ensurePlan(&state, app)
    }

    /// Asks for the current floor's plan unless it is loading, loaded or failed for this URL.
    static func ensurePlan(_ state: inout AppState, _ app: AppData) -> [Effect] {
        guard let mf = MapContent.mapFloor(app, state.map.floor) else { return [] }
        if let s = state.map.plans[mf.floor], s.url == mf.planURL { return [] }
        state.map.plans[mf.floor] = .loading(url: mf.planURL)
        return [.map(.loadPlan(floor: mf.floor, url: mf.planURL, pixelsPerPoint: MapState.rasterScale))]
    }

    // MARK: Show on map

    static func show(_ state: inout AppState, _ app: AppData, _ id: MapItemID) -> [Effect] {
        guard let loc = MapContent.locate(app, id) else { return [] }
        var effects: [Effect] = []
        state.overlay = nil
        if state.tab != .map, state.tabs.contains(.map) {
            state.tab = .map
            effects.append(.persist(state.settings))
        }
        state.stacks[.map] = [Page(.map)]
        if let f = loc.floor, MapContent.floors(app).contains(f) { state.map.floor = f }
        state.map.highlight = id
        state.map.selection = id
        state.map.cardOpen = false
        state.map.legendOpen = false
        // Close enough for the item to be drawn. A landmark is drawn only far out: zooming in
        // would never reach a level that draws it, so the zoom stays (it is marked anyway).
        var z = max(state.map.zoom, 1)
        if let p = items(state, app).first(where: { $0.id == id }), !p.isVisible(atZoom: z),
            let closer = (z..<MapZoom.levels).first(where: { p.isVisible(atZoom: $0) })
        {
            z = closer
        }
        state.map.zoom = z
        setCentre(&state, app, loc.point)
        if let here = hereArtwork(state, app) { state.map.centredOnArtwork = here }
        return effects + ensurePlan(&state, app)
    }

    // MARK: Selection and the card

    /// Items on the current floor.
    static func items(_ state: AppState, _ app: AppData) -> [MapItem] {
        MapContent.items(app, floor: state.map.floor)
    }

    /// The items drawn in `v`, most important first (`MapThinning`).
    static func drawn(_ state: AppState, _ app: AppData, _ v: MapViewport) -> [MapItem] {
        let always = Set([state.map.selection, state.map.highlight, hereArtwork(state, app).map(MapItemID.artwork)].compactMap { $0 })
        return MapThinning.shown(items(state, app), in: v, zoom: state.map.zoom, always: always, stops: Set(tourStops(state).keys))
    }

    /// Artwork id → stop number (1-based) of the running tour.
    static func tourStops(_ state: AppState) -> [Int: Int] {
        var stops: [Int: Int] = [:]
        if let machine = state.tour?.machine {
            for (i, s) in machine.stops.enumerated() where stops[s.artworkID] == nil { stops[s.artworkID] = i + 1 }
        }
        return stops
    }

    /// The artwork the visitor last played, when the location setting allows it.
    static func hereArtwork(_ state: AppState, _ app: AppData) -> Int? {
        guard state.locationEnabled, let id = state.player.track?.artworkID, app.artworks[id] != nil else { return nil }
        return id
    }

    static func selectStep(_ state: inout AppState, _ app: AppData, _ d: Int) {
        let all = items(state, app)
        let order: [MapItem]
        if state.map.textMode {
            order = MapContent.listOrder(all)
        } else {
            guard let v = viewport(state, app) else { return }
            // What is drawn, reading order (top to bottom, left to right).
            order = drawn(state, app, v).filter { v.cell($0.point) != nil }
                .sorted {
                    let a = v.cell($0.point), b = v.cell($1.point)
                    return (a?.row ?? 0, a?.col ?? 0, $0.id.tag) < (b?.row ?? 0, b?.col ?? 0, $1.id.tag)
                }
        }
        guard !order.isEmpty else { return }
        let d = min(max(d, -1_000_000), 1_000_000)
        if let sel = state.map.selection, let i = order.firstIndex(where: { $0.id == sel }) {
            let j = state.map.textMode ? min(max(0, i + d), order.count - 1) : ((i + d) % order.count + order.count) % order.count
            state.map.selection = order[j].id
        } else if state.map.textMode {
            // Nothing selected: down from before the first row, up from after the last (Home
            // and End are the longest steps).
            state.map.selection = order[min(max(0, d > 0 ? d - 1 : order.count + d), order.count - 1)].id
        } else {
            state.map.selection = (d >= 0 ? order.first : order.last)?.id
        }
    }

    static func activate(_ state: inout AppState, _ app: AppData) -> [Effect] {
        if state.map.legendOpen {
            state.map.legendOpen = false
            return []
        }
        guard let sel = state.map.selection else {
            // Nothing chosen yet: take what is nearest the middle of the window.
            guard let v = viewport(state, app) else { return [] }
            let c = v.centre
            let near = drawn(state, app, v).filter { v.cell($0.point) != nil }
                .min { hypot($0.point.x - c.x, $0.point.y - c.y) < hypot($1.point.x - c.x, $1.point.y - c.y) }
            guard let near else { return [] }
            state.map.selection = near.id
            state.map.cardOpen = true
            return []
        }
        guard state.map.cardOpen else {
            state.map.cardOpen = true
            return []
        }
        guard let action = cardAction(state, app, sel) else { return [] }
        return Reducer.dispatch(&state, action)
    }

    /// What Enter does on an item's card: play an artwork's commentary, start a tour.
    public static func cardAction(_ state: AppState, _ app: AppData, _ id: MapItemID) -> AppAction? {
        switch id {
        case .artwork(let i):
            guard let a = app.artworks[i], let c = a.commentaries.first else { return nil }
            return .play(audioID: c.audioID, artworkID: a.id, tourID: nil)
        case .tour(let i):
            guard app.tour(i) != nil else { return nil }
            return .tour(.start(tourID: i, stop: nil))
        case .annotation, .gallery:
            return nil
        }
    }

    // MARK: Geometry

    /// The window the map shows now, for the content area the UI reported.
    static func viewport(_ state: AppState, _ app: AppData) -> MapViewport? {
        let (cols, rows) = MapLayout.canvas(rows: state.viewportRows, width: state.viewportWidth)
        return viewport(state.map, app, cols: cols, rows: rows)
    }

    /// The window for a canvas of `cols × rows` cells.
    static func viewport(_ map: MapState, _ app: AppData, cols: Int, rows: Int) -> MapViewport {
        let fit = MapLayout.fitBox(raster: map.raster, items: MapContent.items(app, floor: map.floor))
        let s = MapLayout.pointsPerDot(fit: fit, cols: cols, rows: rows, zoom: map.zoom)
        // Zoom level 1 (0 here) is the whole floor, whatever was centred before.
        let c = map.zoom == 0 ? fit.centre : clamp(map.centre ?? fit.centre, fit)
        return MapViewport(cols: cols, rows: rows, centre: c, pointsPerDot: s)
    }

    static func clamp(_ p: PlanPoint, _ r: PlanRect) -> PlanPoint {
        PlanPoint(x: min(max(p.x, r.minX), r.maxX), y: min(max(p.y, r.minY), r.maxY))
    }

    /// Moves the centre, kept inside what zoom level 0 shows so the plan cannot be lost.
    static func setCentre(_ state: inout AppState, _ app: AppData, _ p: PlanPoint) {
        let fit = MapLayout.fitBox(raster: state.map.raster, items: items(state, app))
        state.map.centre = clamp(p, fit)
    }

    // MARK: Clicks

    /// Tags: `floor:<n>`, `item:<id>`, `card`, `close`, `zoom:+1`/`zoom:-1`.
}

extension MapAction {
    /// "Show on map" for what is on screen elsewhere, for other screens to bind to a key: the
    /// place of the page on top (`Feature.place`: a tour's start, an exhibition's or event's
    /// gallery); on the player and the keypad the number typed, else the artwork playing or the
    /// running tour's current stop. nil when there is nothing to show.
    public static func showOnMap(from state: AppState) -> AppAction? {
        guard let app = state.museum else { return nil }
        func artwork(_ id: Int?) -> AppAction? {
            guard let id, app.artworks[id] != nil else { return nil }
            return .map(.show(.artwork(id)))
        }
        // A feature's page that is about a place (a tour, an exhibition, an event).
        if case .feature(let r) = state.page.route, let f = state.features[id: r.feature], let p = f.place(r, state) {
            return MapContent.locate(app, p) != nil ? .map(.show(p)) : nil
        }
        guard state.page.route == .player || state.page.route == .keypad else { return nil }
        // A number typed on the keypad: what it opens (the first that has a place), before
        // what is playing.
        if state.page.route == .keypad, !state.keypad.input.isEmpty {
            for target in app.keypad.lookup(state.keypad.input) {
                switch target {
                case .artwork(let id, _):
                    if let a = artwork(id) { return a }
                case .tour(let id):
                    guard let t = app.tour(id) else { continue }
                    if t.location != nil, t.floor != nil { return .map(.show(.tour(id))) }
                    if let a = artwork(t.stops.first?.artworkID) { return a }
                }
            }
            return nil
        }
        if let a = artwork(state.player.track?.artworkID) { return a }
        if let m = state.tour?.machine, let k = m.currentStop, m.stops.indices.contains(k) { return artwork(m.stops[k].artworkID) }
        return nil
    }
}

/// What the map screen needs to draw, computed once per frame from the state.
public struct MapScene: Sendable {
    public let floor: Floor
    public let floors: [Floor]
    public let viewport: MapViewport
    public let items: [MapItem]
    public let status: PlanStatus?
    /// The "you are here" artwork.
    public let here: MapItemID?
    /// Artwork id → stop number (1-based) of the running tour, and the current stop's artwork.
    public let tourStops: [Int: Int]
    public let currentStopArtwork: Int?
    /// Plan points per metre on the ground (for "within 15 m of the centre").
    public let pointsPerMetre: Double
    /// What the drawing shows, most important first (`MapThinning`: visible at this zoom,
    /// thinned where it crowds).
    public let drawn: [MapItem]

    /// Builds the scene for a canvas of `cols × rows` cells; nil before the museum is loaded.
    public init?(_ state: AppState, cols: Int, rows: Int) {
        guard let app = state.museum else { return nil }
        floor = state.map.floor
        floors = MapContent.floors(app)
        items = MapContent.items(app, floor: state.map.floor)
        viewport = MapReducer.viewport(state.map, app, cols: cols, rows: rows)
        status = state.map.plans[state.map.floor]
        here = MapReducer.hereArtwork(state, app).map(MapItemID.artwork)
        var current: Int?
        if let machine = state.tour?.machine, let k = machine.currentStop, machine.stops.indices.contains(k) { current = machine.stops[k].artworkID }
        tourStops = MapReducer.tourStops(state)
        currentStopArtwork = current
        drawn = MapReducer.drawn(state, app, viewport)
        pointsPerMetre = MapContent.transform(app, state.map.floor)?.pointsPerMetre ?? 1
    }

    /// What Enter on the card does, if anything.
    public static func cardAction(_ state: AppState, _ id: MapItemID) -> AppAction? {
        guard let app = state.museum else { return nil }
        return MapReducer.cardAction(state, app, id)
    }
}

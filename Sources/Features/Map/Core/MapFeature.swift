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
public enum MapFeature: ScopedFeature, HearsEvents, ScopedContent {
    public typealias State = MapState
    public typealias Action = MapAction
    public typealias Effect = MapEffect
    /// The feature's one page: the floor plan.
    public enum Route: Hashable, Sendable { case plan }
    public static let id = FeatureID("map")
    public static let after = [PlayerFeature.id]
    /// A tour's stops on the plan, the number typed. (What plays is the context's
    /// `playerTrack`, not the player's state.)
    public static let reads = [TourFeature.id, KeypadFeature.id]
    public static let listensTo: Set<FeatureEvent.Kind> = [.launched, .navigated]
    public static let initialState = MapState()

    public static func content(_ route: Route, _ state: State, _ context: FeatureContext) -> PageContent { .custom(id, title: nil) }

    /// The mouse wheel zooms the drawing, or moves through the text list.
    public static func move(_ delta: Int, _ state: inout MapState, _ context: FeatureContext) -> Outcome {
        if state.textMode { return reduce(&state, .selectStep(delta < 0 ? -1 : 1), context) }
        return reduce(&state, .zoom(delta < 0 ? 1 : -1), context)
    }

    public static func reduce(_ state: inout MapState, _ action: MapAction, _ context: FeatureContext) -> Outcome {
        MapReducer.reduce(&state, action, context)
    }

    /// Whenever what is on screen changes and the map is now showing (a tab change, the
    /// document arriving, a page closed over it): ask for the plan, centre on "you are here".
    public static func react(to event: FeatureEvent, _ state: inout MapState, _ context: FeatureContext) -> Outcome {
        // For a screen reader the map opens as its list of places (screen readers read lines,
        // not Braille drawings): the map's own choice, from a mode it only reads.
        if event == .launched, context.screenReader { state.textMode = true }
        guard event.kind == .navigated, MapReducer.isShowing(context), let app = context.museum else { return .none }
        return Outcome(effects: MapReducer.opened(&state, MapReducer.Env(app, context)))
    }
}

extension AppState {
    /// The map's state.
    var map: MapState {
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

/// The map's reducer proper: its own state, and what it reads of the shared state (`Env`).
enum MapReducer {
    /// What the map's reducer reads besides its own state: the museum and the context.
    struct Env {
        let app: AppData
        let context: FeatureContext
        init(_ app: AppData, _ context: FeatureContext) {
            self.app = app
            self.context = context
        }
        /// The artwork the visitor last played, when the location setting allows it.
        var here: Int? { hereArtwork(locationEnabled: context.locationEnabled, track: context.playerTrack, app) }
        /// The running tour's stops.
        var stops: [Int: Int] { tourStops(context.state(of: TourFeature.self).session) }
    }

    static func isShowing(_ context: FeatureContext) -> Bool {
        context.tab == .map && context.route == .map && context.museum != nil
    }

    static func reduce(_ map: inout MapState, _ action: MapAction, _ context: FeatureContext) -> Outcome {
        guard let app = context.museum else { return .none }
        let env = Env(app, context)
        switch action {
        case .appeared:
            return Outcome(effects: opened(&map, env))
        case .clickItem(let id):
            guard context.overlay == nil else { return .none }
            if map.selection == id, map.cardOpen { return reduce(&map, .activate, context) }
            return reduce(&map, .select(id), context)
        case .pan(let dx, let dy):
            let v = viewport(map, env)
            let stepX = Double(v.dotsWide) * v.pointsPerDot / 4, stepY = Double(v.dotsHigh) * v.pointsPerDot / 4
            setCentre(&map, app, PlanPoint(x: v.centre.x + Double(dx) * stepX, y: v.centre.y - Double(dy) * stepY))
            return .none
        case .zoom(let d):
            let z = min(max(0, map.zoom + d), MapZoom.levels - 1)
            guard z != map.zoom else { return .none }
            // Zooming in keeps a visible selection in the window.
            let v = viewport(map, env)
            if d > 0, let sel = map.selection, let item = items(map, app).first(where: { $0.id == sel }), v.box.contains(item.point) {
                let c = v.centre
                map.zoom = z
                let f = 1 / MapZoom.factor(1)
                setCentre(&map, app, PlanPoint(x: c.x + (item.point.x - c.x) * f, y: c.y + (item.point.y - c.y) * f))
            } else {
                map.zoom = z
                if let c = map.centre { setCentre(&map, app, c) }
            }
            return .none
        case .selectFloor(let f):
            return Outcome(effects: changeFloor(&map, app, f))
        case .floorStep(let d):
            let floors = MapContent.floors(app)
            guard let i = floors.firstIndex(of: map.floor) ?? floors.indices.first else { return .none }
            let j = min(max(0, i + d), floors.count - 1)
            return Outcome(effects: changeFloor(&map, app, floors[j]))
        case .selectStep(let d):
            selectStep(&map, env, d)
            return .none
        case .select(let id):
            guard items(map, app).contains(where: { $0.id == id }) else { return .none }
            map.selection = id
            map.cardOpen = true
            return .none
        case .activate:
            return activate(&map, env)
        case .dismiss:
            if map.legendOpen {
                map.legendOpen = false
            } else if map.cardOpen {
                map.cardOpen = false
            } else if map.textMode {
                map.textMode = false
            } else if map.highlight != nil || map.selection != nil {
                map.highlight = nil
                map.selection = nil
            }
            return .none
        case .toggleText:
            map.textMode.toggle()
            map.legendOpen = false
            if map.textMode, map.selection == nil {
                map.selection = MapContent.listOrder(items(map, app)).first?.id
            }
            return .none
        case .toggleLegend:
            map.legendOpen.toggle()
            map.legendScroll = 0
            return .none
        case .scrollLegend(let d):
            guard map.legendOpen else { return .none }
            map.legendScroll = min(max(0, map.legendScroll.addingReportingOverflow(d).partialValue), 200)
            return .none
        case .recentre:
            if let here = env.here, let loc = MapContent.locate(app, .artwork(here)) {
                var effects: [Effect] = []
                if let f = loc.floor, f != map.floor { effects = changeFloor(&map, app, f) }
                setCentre(&map, app, loc.point)
                return Outcome(effects: effects)
            }
            map.centre = nil
            return .none
        case .retry:
            guard case .failed? = map.plans[map.floor] else { return .none }
            map.plans[map.floor] = nil
            return Outcome(effects: ensurePlan(&map, app))
        case .show(let id):
            return show(&map, env, id)
        case .rasterReady(let floor, let url, let raster, let savedCopy):
            guard MapContent.mapFloor(app, floor)?.planURL == url else { return .none }
            map.plans[floor] = .ready(url: url, raster: raster)
            if savedCopy { map.savedCopies.insert(floor) } else { map.savedCopies.remove(floor) }
            if floor == map.floor, let c = map.centre { setCentre(&map, app, c) }
            return .none
        case .rasterFailed(let floor, let url, let message, let problem):
            guard MapContent.mapFloor(app, floor)?.planURL == url else { return .none }
            map.plans[floor] = .failed(url: url, message: message, problem: problem)
            return .none
        }
    }

    // MARK: Opening and floors

    /// The map came on screen: a floor that exists, "you are here" centred when it is new,
    /// and the plan asked for.
    static func opened(_ map: inout MapState, _ env: Env) -> [Effect] {
        let app = env.app
        let floors = MapContent.floors(app)
        if !floors.contains(map.floor), let f = floors.first(where: { $0.number == 1 }) ?? floors.first {
            map.floor = f
        }
        if let here = env.here, here != map.centredOnArtwork, map.highlight == nil,
            let loc = MapContent.locate(app, .artwork(here))
        {
            map.centredOnArtwork = here
            if let f = loc.floor, floors.contains(f) { map.floor = f }
            map.zoom = max(map.zoom, 1)
            setCentre(&map, app, loc.point)
        }
        selectFirstListed(&map, app)
        return ensurePlan(&map, app)
    }

    /// The list (text mode) always has a row highlighted: the first entry of the floor when
    /// nothing on it is (the list opened for a screen reader, another floor). Not a heading:
    /// Enter and the card act on entries.
    static func selectFirstListed(_ map: inout MapState, _ app: AppData) {
        guard map.textMode else { return }
        let list = MapContent.listOrder(items(map, app))
        if let sel = map.selection, list.contains(where: { $0.id == sel }) { return }
        map.selection = list.first?.id
    }

    static func changeFloor(_ map: inout MapState, _ app: AppData, _ floor: Floor) -> [Effect] {
        guard MapContent.floors(app).contains(floor) else { return [] }
        if floor != map.floor {
            map.floor = floor
            map.cardOpen = false
            if let sel = map.selection, !items(map, app).contains(where: { $0.id == sel }) { map.selection = nil }
            selectFirstListed(&map, app)
        }
        return ensurePlan(&map, app)
    }

    /// Asks for the current floor's plan unless it is loading, loaded or failed for this URL.
    static func ensurePlan(_ map: inout MapState, _ app: AppData) -> [Effect] {
        guard let mf = MapContent.mapFloor(app, map.floor) else { return [] }
        if let s = map.plans[mf.floor], s.url == mf.planURL { return [] }
        map.plans[mf.floor] = .loading(url: mf.planURL)
        return [.map(.loadPlan(floor: mf.floor, url: mf.planURL, pixelsPerPoint: MapState.rasterScale))]
    }

    // MARK: Show on map

    /// The map's own part here; the shared part (its tab, fresh, nothing on top) it asks of the root.
    static func show(_ map: inout MapState, _ env: Env, _ id: MapItemID) -> Outcome {
        let app = env.app
        guard let loc = MapContent.locate(app, id) else { return .none }
        var requests: [UIRequest] = [.close]
        if env.context.tab != .map, env.context.tabs.contains(.map) { requests += [.select(.map), .persist] }
        requests.append(.resetTab(.map))
        if let f = loc.floor, MapContent.floors(app).contains(f) { map.floor = f }
        map.highlight = id
        map.selection = id
        map.cardOpen = false
        map.legendOpen = false
        // Close enough for the item to be drawn. A landmark is drawn only far out: zooming in
        // would never reach a level that draws it, so the zoom stays (it is marked anyway).
        var z = max(map.zoom, 1)
        if let p = items(map, app).first(where: { $0.id == id }), !p.isVisible(atZoom: z),
            let closer = (z..<MapZoom.levels).first(where: { p.isVisible(atZoom: $0) })
        {
            z = closer
        }
        map.zoom = z
        setCentre(&map, app, loc.point)
        if let here = env.here { map.centredOnArtwork = here }
        return Outcome(effects: ensurePlan(&map, app), requests: requests)
    }

    // MARK: Selection and the card

    /// Items on the current floor.
    static func items(_ map: MapState, _ app: AppData) -> [MapItem] {
        MapContent.items(app, floor: map.floor)
    }

    /// The items drawn in `v`, most important first (`MapThinning`).
    static func drawn(_ map: MapState, _ app: AppData, _ v: MapViewport, here: Int?, stops: [Int: Int]) -> [MapItem] {
        let always = Set([map.selection, map.highlight, here.map(MapItemID.artwork)].compactMap { $0 })
        return MapThinning.shown(items(map, app), in: v, zoom: map.zoom, always: always, stops: Set(stops.keys))
    }

    /// Artwork id → stop number (1-based) of the running tour.
    static func tourStops(_ tour: TourSession?) -> [Int: Int] {
        var stops: [Int: Int] = [:]
        if let machine = tour?.machine {
            for (i, s) in machine.stops.enumerated() where stops[s.artworkID] == nil { stops[s.artworkID] = i + 1 }
        }
        return stops
    }

    /// The artwork the visitor last played, when the location setting allows it.
    static func hereArtwork(locationEnabled: Bool, track: Track?, _ app: AppData) -> Int? {
        guard locationEnabled, let id = track?.artworkID, app.artworks[id] != nil else { return nil }
        return id
    }

    static func selectStep(_ map: inout MapState, _ env: Env, _ d: Int) {
        let app = env.app
        let all = items(map, app)
        let order: [MapItem]
        if map.textMode {
            order = MapContent.listOrder(all)
        } else {
            let v = viewport(map, env)
            // What is drawn, reading order (top to bottom, left to right).
            order = drawn(map, app, v, here: env.here, stops: env.stops).filter { v.cell($0.point) != nil }
                .sorted {
                    let a = v.cell($0.point), b = v.cell($1.point)
                    return (a?.row ?? 0, a?.col ?? 0, $0.id.tag) < (b?.row ?? 0, b?.col ?? 0, $1.id.tag)
                }
        }
        guard !order.isEmpty else { return }
        let d = min(max(d, -1_000_000), 1_000_000)
        if let sel = map.selection, let i = order.firstIndex(where: { $0.id == sel }) {
            let j = map.textMode ? min(max(0, i + d), order.count - 1) : ((i + d) % order.count + order.count) % order.count
            map.selection = order[j].id
        } else if map.textMode {
            // Nothing selected: down from before the first row, up from after the last (Home
            // and End are the longest steps).
            map.selection = order[min(max(0, d > 0 ? d - 1 : order.count + d), order.count - 1)].id
        } else {
            map.selection = (d >= 0 ? order.first : order.last)?.id
        }
    }

    static func activate(_ map: inout MapState, _ env: Env) -> Outcome {
        let app = env.app
        if map.legendOpen {
            map.legendOpen = false
            return .none
        }
        guard let sel = map.selection else {
            // Nothing chosen yet: take what is nearest the middle of the window.
            let v = viewport(map, env)
            let c = v.centre
            let near = drawn(map, app, v, here: env.here, stops: env.stops).filter { v.cell($0.point) != nil }
                .min { hypot($0.point.x - c.x, $0.point.y - c.y) < hypot($1.point.x - c.x, $1.point.y - c.y) }
            guard let near else { return .none }
            map.selection = near.id
            map.cardOpen = true
            return .none
        }
        guard map.cardOpen else {
            map.cardOpen = true
            return .none
        }
        // Playing, starting a tour: the player's and the tours' own, asked through the root.
        guard let action = cardAction(app, sel) else { return .none }
        return Outcome(requests: [.send(action)])
    }

    /// What Enter does on an item's card: play an artwork's commentary, start a tour.
    static func cardAction(_ app: AppData, _ id: MapItemID) -> AppAction? {
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
    static func viewport(_ map: MapState, _ env: Env) -> MapViewport {
        viewport(map, env.app, rows: env.context.viewportRows, width: env.context.viewportWidth)
    }

    static func viewport(_ map: MapState, _ app: AppData, rows: Int, width: Int) -> MapViewport {
        let (cols, rows) = MapLayout.canvas(rows: rows, width: width)
        return viewport(map, app, cols: cols, rows: rows)
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
    static func setCentre(_ map: inout MapState, _ app: AppData, _ p: PlanPoint) {
        let fit = MapLayout.fitBox(raster: map.raster, items: items(map, app))
        map.centre = clamp(p, fit)
    }

    // MARK: Clicks

    /// Tags: `floor:<n>`, `item:<id>`, `card`, `close`, `zoom:+1`/`zoom:-1`.
}

extension MapAction {
    /// "Show on map" for what is on screen elsewhere, for other screens to bind to a key: the
    /// place of the page on top (`Feature.place`: a tour's start, an exhibition's or event's
    /// gallery); on the player and the keypad the number typed, else the artwork playing or the
    /// running tour's current stop. nil when there is nothing to show. From a feature's context
    /// (the keypad's number and the tour are read: `MapFeature.reads`).
    public static func showOnMap(from context: FeatureContext) -> AppAction? {
        guard let app = context.museum else { return nil }
        func artwork(_ id: Int?) -> AppAction? {
            guard let id, app.artworks[id] != nil else { return nil }
            return .map(.show(.artwork(id)))
        }
        // A feature's page that is about a place (a tour, an exhibition, an event).
        if case .feature = context.route, let p = context.place {
            return MapContent.locate(app, p) != nil ? .map(.show(p)) : nil
        }
        guard context.route == .player || context.route == .keypad else { return nil }
        // A number typed on the keypad: what it opens (the first that has a place), before
        // what is playing.
        let input = context.state(of: KeypadFeature.self).input
        if context.route == .keypad, !input.isEmpty {
            for target in app.keypad.lookup(input) {
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
        if let a = artwork(context.playerTrack?.artworkID) { return a }
        if let m = context.state(of: TourFeature.self).session?.machine, let k = m.currentStop, m.stops.indices.contains(k) {
            return artwork(m.stops[k].artworkID)
        }
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

    /// Builds the scene for a canvas of `cols × rows` cells from the map's own state and its
    /// context (the tour is read: `MapFeature.reads`); nil before the museum is loaded.
    public init?(_ map: MapState, _ context: FeatureContext, cols: Int, rows: Int) {
        guard let app = context.museum else { return nil }
        floor = map.floor
        floors = MapContent.floors(app)
        items = MapContent.items(app, floor: map.floor)
        viewport = MapReducer.viewport(map, app, cols: cols, rows: rows)
        status = map.plans[map.floor]
        let hereID = MapReducer.hereArtwork(locationEnabled: context.locationEnabled, track: context.playerTrack, app)
        here = hereID.map(MapItemID.artwork)
        let tour = context.state(of: TourFeature.self).session
        var current: Int?
        if let machine = tour?.machine, let k = machine.currentStop, machine.stops.indices.contains(k) { current = machine.stops[k].artworkID }
        tourStops = MapReducer.tourStops(tour)
        currentStopArtwork = current
        drawn = MapReducer.drawn(map, app, viewport, here: hereID, stops: tourStops)
        pointsPerMetre = MapContent.transform(app, map.floor)?.pointsPerMetre ?? 1
    }

    /// What Enter on the card does, if anything.
    public static func cardAction(_ context: FeatureContext, _ id: MapItemID) -> AppAction? {
        guard let app = context.museum else { return nil }
        return MapReducer.cardAction(app, id)
    }
}

import Foundation
import XCTest

@testable import DocentCore
import DocentCoreTestSupport

/// The map's reducer on the SampleData museum: opening, zoom, pan, floors, selection, the card,
/// "show on map", "you are here", the text mode and plan results.
final class MapReducerTests: XCTestCase {
    static let sampleSource = Fixtures.repoRoot.appendingPathComponent("SampleData/appData.json").path

    static let museum: Museum? = {
        guard let bytes = try? Fixtures.bytes(URL(fileURLWithPath: sampleSource)),
            case .success(let app) = AppDataReader.read(bytes, source: sampleSource)
        else { return nil }
        return Museum(app)
    }()

    func loaded(config: [String: String] = [:]) throws -> AppState {
        let m = try XCTUnwrap(Self.museum, "SampleData reads")
        var s = AppState(source: Self.sampleSource, catalog: StringCatalog(tables: [.english: [:]]), now: Date(timeIntervalSince1970: 0), features: CoreFixtures.features)
        s.config = config
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil), .documentLoaded(.success(m), note: nil), .viewportChanged(rows: 36, width: 118))
        s.overlay = nil
        s.messageQueue = []
        return s
    }

    func plan(_ n: Int) -> String {
        Fixtures.repoRoot.appendingPathComponent("SampleData/maps/floor\(n).pdf").path
    }

    func load(_ n: Int) -> Effect { .map(.loadPlan(floor: Floor(n), url: plan(n), pixelsPerPoint: 2)) }

    /// A blank raster covering the SampleData building (≈ x 760…1660, y 860…1540 from the top).
    func raster() -> PlanRaster {
        PlanRaster(width: 900, height: 680, pixels: [], origin: PlanPoint(x: 760, y: 1540), pixelsPerPoint: 1)
    }

    func opened() throws -> AppState {
        var s = try loaded()
        prepare(&s, .selectTab(.map), .map(.rasterReady(floor: Floor(1), url: plan(1), raster: raster())))
        return s
    }

    func item(_ s: AppState, _ id: MapItemID) throws -> MapItem {
        let app = try XCTUnwrap(s.museum)
        return try XCTUnwrap(MapContent.items(app, floor: s.map.floor).first { $0.id == id })
    }

    /// What is drawn in the window now, in reading order: top to bottom, left to right.
    func readingOrder(_ s: AppState) throws -> [MapItemID] {
        let app = try XCTUnwrap(s.museum)
        let v = try XCTUnwrap(MapReducer.viewport(s.map, MapReducer.Env(app, FeatureContext(s))))
        let drawn = MapContent.items(app, floor: s.map.floor).compactMap { i in v.cell(i.point).map { (i, $0) } }
            .filter { $0.0.isVisible(atZoom: s.map.zoom) }
        return drawn.sorted { ($0.1.row, $0.1.col, $0.0.id.tag) < ($1.1.row, $1.1.col, $1.0.id.tag) }.map(\.0.id)
    }

    /// What playing `art`'s first commentary does from `s` (the shared `.play`, pinned by the
    /// player's tests): the map's card must do exactly this.
    func playing(_ s: AppState, _ art: Artwork) -> (state: AppState, effects: [Effect]) {
        var t = s
        let e = prepare(&t, .play(audioID: art.commentaries[0].audioID, artworkID: art.id, tourID: nil))
        return (t, e)
    }

    // MARK: Opening and plans

    func testOpeningTheMapAsksForTheFloorPlanOnce() throws {
        var s = try loaded()
        XCTAssertTrue(s.tabs.contains(.map))
        XCTAssertEqual(s.map.floor, Floor(1))
        send(&s, .selectTab(.map), effects: { [.persist($0.settings), self.load(1)] }) {
            $0.tab = .map
            $0.map.plans[Floor(1)] = .loading(url: self.plan(1))
        }
        // Leaving and coming back does not ask again.
        send(&s, .selectTab(.home), effects: { [.persist($0.settings)] }) { $0.tab = .home }
        send(&s, .nextTab, effects: { [.persist($0.settings)] }) { $0.tab = .audioGuide }
        send(&s, .nextTab, effects: { [.persist($0.settings)] }) { $0.tab = .map }
    }

    func testTheMapRestoredAsLastTabLoadsItsPlanWhenTheDocumentArrives() throws {
        let m = try XCTUnwrap(Self.museum)
        var s = AppState(source: Self.sampleSource, catalog: StringCatalog(tables: [.english: [:]]), now: Date(timeIntervalSince1970: 0), features: CoreFixtures.features)
        send(&s, .launched(restored: PersistedSettings(lastTab: .map, introSeen: true), languageOverride: nil), effects: [.loadDocument(source: Self.sampleSource)]) {
            $0.tab = .map
            $0.introSeen = true
        }
        send(&s, .documentLoaded(.success(m), note: nil), effects: [.search(.buildIndex(m)), load(1)]) {
            $0.document = .ready(m)
            $0.overlay = .message(id: 6001)
            // SampleData names a search server: live search is ready.
            $0.search.live.status = .idle
            $0.map.plans[Floor(1)] = .loading(url: self.plan(1))
        }
    }

    func testRasterResultsAreStoredAndStaleOnesIgnored() throws {
        var s = try loaded()
        prepare(&s, .selectTab(.map))
        let r = raster()
        send(&s, .map(.rasterReady(floor: Floor(1), url: "/elsewhere.pdf", raster: r)))
        XCTAssertEqual(s.map.plans[Floor(1)], .loading(url: plan(1)))
        send(&s, .map(.rasterReady(floor: Floor(1), url: plan(1), raster: r))) {
            $0.map.plans[Floor(1)] = .ready(url: self.plan(1), raster: r)
        }
        XCTAssertEqual(s.map.raster, r)
    }

    func testAFailedPlanSaysWhyAndCanBeRetried() throws {
        var s = try loaded()
        prepare(&s, .selectTab(.map))
        send(&s, .map(.rasterFailed(floor: Floor(1), url: plan(1), message: "HTTP 404", problem: .http(404)))) {
            $0.map.plans[Floor(1)] = .failed(url: self.plan(1), message: "HTTP 404", problem: .http(404))
        }
        // Switching away and back keeps the failure (no retry storm).
        send(&s, .map(.floorStep(1)), effects: [load(2)]) {
            $0.map.floor = Floor(2)
            $0.map.plans[Floor(2)] = .loading(url: self.plan(2))
        }
        send(&s, .map(.floorStep(-1))) { $0.map.floor = Floor(1) }
        send(&s, .map(.retry), effects: [load(1)]) { $0.map.plans[Floor(1)] = .loading(url: self.plan(1)) }
        // Only a failed plan is retried.
        send(&s, .map(.retry))
    }

    // MARK: Zoom and pan

    func testZoomStepsAndStopsAtBothEnds() throws {
        var s = try opened()
        XCTAssertEqual(s.map.zoom, 0)
        send(&s, .map(.zoom(-1)))
        XCTAssertGreaterThanOrEqual(MapZoom.levels, 4)
        for z in 1..<MapZoom.levels { send(&s, .map(.zoom(1))) { $0.map.zoom = z } }
        send(&s, .map(.zoom(1)))
        send(&s, .map(.zoom(-1))) { $0.map.zoom = MapZoom.levels - 2 }
    }

    func testPanMovesAQuarterWindowAndStaysOnThePlan() throws {
        var s = try opened()
        let app = try XCTUnwrap(s.museum)
        send(&s, .map(.zoom(2))) { $0.map.zoom = 2 }
        let v = try XCTUnwrap(MapReducer.viewport(s.map, MapReducer.Env(app, FeatureContext(s))))
        let c0 = v.centre
        XCTAssertEqual(c0, raster().planBox.centre)
        let stepX = Double(v.dotsWide) * v.pointsPerDot / 4, stepY = Double(v.dotsHigh) * v.pointsPerDot / 4
        send(&s, .map(.pan(dx: 1, dy: 0))) { $0.map.centre = PlanPoint(x: c0.x + stepX, y: c0.y) }
        // Down the screen is south, y down.
        send(&s, .map(.pan(dx: 0, dy: 1))) { $0.map.centre = PlanPoint(x: c0.x + stepX, y: c0.y - stepY) }
        // Far out of the plan: the centre stops at its edge.
        let corner = PlanPoint(x: 760, y: 1540)
        for _ in 0..<100 where s.map.centre != corner {
            let c = try XCTUnwrap(s.map.centre)
            send(&s, .map(.pan(dx: -1, dy: -1))) { $0.map.centre = PlanPoint(x: max(corner.x, c.x - stepX), y: min(corner.y, c.y + stepY)) }
        }
        XCTAssertEqual(s.map.centre, corner)
        send(&s, .map(.pan(dx: -1, dy: -1)))
        // Panning never asks for the plan again.
        send(&s, .map(.pan(dx: 1, dy: 0))) { $0.map.centre = PlanPoint(x: corner.x + stepX, y: corner.y) }
    }

    // MARK: Floors

    func testFloorsStepStopAndCycle() throws {
        var s = try opened()
        send(&s, .map(.floorStep(1)), effects: [load(2)]) {
            $0.map.floor = Floor(2)
            $0.map.plans[Floor(2)] = .loading(url: self.plan(2))
        }
        send(&s, .map(.floorStep(1)), effects: [load(3)]) {
            $0.map.floor = Floor(3)
            $0.map.plans[Floor(3)] = .loading(url: self.plan(3))
        }
        // No floor above 3.
        send(&s, .map(.floorStep(1)))
        send(&s, .map(.selectFloor(Floor.lowerLevel)), effects: [load(0)]) {
            $0.map.floor = Floor.lowerLevel
            $0.map.plans[Floor.lowerLevel] = .loading(url: self.plan(0))
        }
        send(&s, .map(.floorStep(-1)))
        // Floor 1 is loaded already; there is no floor 7.
        send(&s, .map(.selectFloor(Floor(1)))) { $0.map.floor = Floor(1) }
        send(&s, .map(.selectFloor(Floor(7))))
        // A click on a floor chip.
        send(&s, .map(.selectFloor(Floor(2)))) { $0.map.floor = Floor(2) }
    }

    // MARK: Selection and the card

    func testSelectionGoesInReadingOrderAndTheCardPlaysCommentary() throws {
        var s = try opened()
        send(&s, .map(.zoom(2))) { $0.map.zoom = 2 }
        let order = try readingOrder(s)
        XCTAssertGreaterThan(order.count, 2)
        send(&s, .map(.selectStep(1))) { $0.map.selection = order[0] }
        send(&s, .map(.selectStep(1))) { $0.map.selection = order[1] }
        send(&s, .map(.selectStep(-1))) { $0.map.selection = order[0] }
        send(&s, .map(.selectStep(-1))) { $0.map.selection = order.last }
        // An artwork with commentary: a click opens its card, Enter plays.
        let app = try XCTUnwrap(s.museum)
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.floor == Floor(1) && $0.hasAudio })
        send(&s, .map(.clickItem(.artwork(art.id)))) {
            $0.map.selection = .artwork(art.id)
            $0.map.cardOpen = true
        }
        let play = playing(s, art)
        XCTAssertEqual(play.state.player.track?.audioID, art.commentaries.first?.audioID)
        XCTAssertEqual(play.effects.count, 1)
        if case .audio(.play)? = play.effects.first {} else { XCTFail("expected play, got \(play.effects)") }
        // Playing from the map stays on the map.
        send(&s, .map(.activate), effects: play.effects) { $0 = play.state }
        XCTAssertEqual(s.player.track?.artworkID, art.id)
        XCTAssertEqual(s.tab, .map)
    }

    func testEnterWithoutSelectionTakesWhatIsNearestTheMiddle() throws {
        var s = try opened()
        let app = try XCTUnwrap(s.museum)
        let v = try XCTUnwrap(MapReducer.viewport(s.map, MapReducer.Env(app, FeatureContext(s))))
        let drawn = try readingOrder(s).map { try item(s, $0) }
        let distance = { (i: MapItem) in hypot(i.point.x - v.centre.x, i.point.y - v.centre.y) }
        let nearest = try XCTUnwrap(drawn.min { distance($0) < distance($1) })
        send(&s, .map(.activate)) {
            $0.map.selection = nearest.id
            $0.map.cardOpen = true
        }
    }

    func testTourStartCardStartsTheTour() throws {
        let s = try opened()
        let app = try XCTUnwrap(s.museum)
        let tour = try XCTUnwrap(app.tours.first { $0.floor == Floor(1) && $0.location != nil })
        XCTAssertEqual(MapReducer.cardAction(app, .tour(tour.id)), .tour(.start(tourID: tour.id, stop: nil)))
        XCTAssertNil(MapReducer.cardAction(app, .gallery(1004)))
    }

    func testEscapeClosesLegendCardTextModeThenSelection() throws {
        var s = try opened()
        let app = try XCTUnwrap(s.museum)
        let first = MapContent.listOrder(MapContent.items(app, floor: Floor(1))).first?.id
        XCTAssertNotNil(first)
        send(&s, .map(.toggleText)) {
            $0.map.textMode = true
            $0.map.selection = first
        }
        send(&s, .map(.activate)) { $0.map.cardOpen = true }
        send(&s, .map(.toggleLegend)) { $0.map.legendOpen = true }
        send(&s, .map(.dismiss)) { $0.map.legendOpen = false }
        send(&s, .map(.dismiss)) { $0.map.cardOpen = false }
        send(&s, .map(.dismiss)) { $0.map.textMode = false }
        send(&s, .map(.dismiss)) { $0.map.selection = nil }
        send(&s, .map(.dismiss))
    }

    /// Issue 33 #11: the list a screen reader opens on has an entry highlighted, the first
    /// (not the floor's heading, nor nothing), and so does another floor's.
    func testForAScreenReaderTheListOpensOnItsFirstEntry() throws {
        var s = try loaded(config: ["screen_reader": "true"])
        let app = try XCTUnwrap(s.museum)
        XCTAssertTrue(s.map.textMode)
        XCTAssertNil(s.map.selection)
        let first1 = try XCTUnwrap(MapContent.listOrder(MapContent.items(app, floor: Floor(1))).first?.id)
        let first2 = try XCTUnwrap(MapContent.listOrder(MapContent.items(app, floor: Floor(2))).first?.id)
        send(&s, .selectTab(.map), effects: { [.persist($0.settings), self.load(1)] }) {
            $0.tab = .map
            $0.map.plans[Floor(1)] = .loading(url: self.plan(1))
            $0.map.selection = first1
        }
        send(&s, .map(.floorStep(1)), effects: [load(2)]) {
            $0.map.floor = Floor(2)
            $0.map.plans[Floor(2)] = .loading(url: self.plan(2))
            $0.map.selection = first2
        }
        // Leaving the list for the drawing keeps the highlight as it is.
        send(&s, .map(.dismiss)) { $0.map.textMode = false }
        send(&s, .map(.floorStep(-1))) {
            $0.map.floor = Floor(1)
            $0.map.selection = nil
        }
    }

    /// Issue 33 #10: at the whole floor `n` reaches gallery numbers and artworks, as drawn
    /// (thinned by `MapThinning`), in reading order.
    func testAtTheWholeFloorNStepsThroughWhatIsDrawn() throws {
        var s = try opened()
        XCTAssertEqual(s.map.zoom, 0)
        let app = try XCTUnwrap(s.museum)
        let env = MapReducer.Env(app, FeatureContext(s))
        let v = try XCTUnwrap(MapReducer.viewport(s.map, env))
        let drawn = MapReducer.drawn(s.map, app, v, here: env.here, stops: env.stops).compactMap { i in v.cell(i.point).map { (i, $0) } }
            .sorted { ($0.1.row, $0.1.col, $0.0.id.tag) < ($1.1.row, $1.1.col, $1.0.id.tag) }.map(\.0)
        XCTAssertTrue(drawn.contains { if case .gallery = $0.kind { return true } else { return false } })
        XCTAssertTrue(drawn.contains { if case .artwork = $0.kind { return true } else { return false } })
        send(&s, .map(.selectStep(1))) { $0.map.selection = drawn[0].id }
    }

    func testTextModeWalksTheListInAreaOrder() throws {
        var s = try opened()
        let app = try XCTUnwrap(s.museum)
        let list = MapContent.listOrder(MapContent.items(app, floor: Floor(1))).map(\.id)
        XCTAssertGreaterThan(list.count, 1)
        send(&s, .map(.toggleText)) {
            $0.map.textMode = true
            $0.map.selection = list[0]
        }
        send(&s, .map(.selectStep(1))) { $0.map.selection = list[1] }
        // The list does not wrap.
        send(&s, .map(.selectStep(-5))) { $0.map.selection = list[0] }
        // The mouse wheel moves the list too.
        send(&s, .move(3)) { $0.map.selection = list[1] }
    }

    // MARK: Show on map and you are here

    func testShowOnMapSwitchesTabFloorCentresAndHighlights() throws {
        var s = try loaded()
        let app = try XCTUnwrap(s.museum)
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.floor == Floor(2) })
        let artwork = try XCTUnwrap(MapContent.items(app, floor: Floor(2)).first { $0.id == .artwork(art.id) })
        // Artworks and galleries show at every zoom (issue 33 #10): the zoom is 2/5 at least, as
        // for anything shown.
        let artZoom = 1
        XCTAssertTrue(artwork.isVisible(atZoom: artZoom))
        send(&s, .map(.show(.artwork(art.id))), effects: { [self.load(2), .persist($0.settings)] }) {
            $0.tab = .map
            $0.stacks[.map] = [Page(.map)]
            $0.map.floor = Floor(2)
            $0.map.highlight = .artwork(art.id)
            $0.map.selection = .artwork(art.id)
            $0.map.zoom = artZoom
            $0.map.centre = artwork.point
            $0.map.plans[Floor(2)] = .loading(url: self.plan(2))
        }
        XCTAssertEqual(s.page.route, .map)
        // A gallery on another floor: its label shows at this zoom too.
        let gallery = try XCTUnwrap(MapContent.items(app, floor: Floor(3)).first { $0.id == .gallery(1014) })
        XCTAssertTrue(gallery.isVisible(atZoom: artZoom))
        send(&s, .map(.show(.gallery(1014))), effects: [load(3)]) {
            $0.map.floor = Floor(3)
            $0.map.highlight = .gallery(1014)
            $0.map.selection = .gallery(1014)
            $0.map.centre = gallery.point
            $0.map.plans[Floor(3)] = .loading(url: self.plan(3))
        }
        // A landmark keeps the floor.
        let landmark = try item(s, .annotation(5045))
        XCTAssertNil(landmark.floor)
        send(&s, .map(.show(.annotation(5045)))) {
            $0.map.highlight = .annotation(5045)
            $0.map.selection = .annotation(5045)
            $0.map.centre = landmark.point
        }
        send(&s, .map(.show(.artwork(999_999))))
    }

    /// Scoped (issue 28): "show on map" changes the map's own state and asks the root for its
    /// tab (saved), fresh, with nothing on top; Enter on a card asks the root to play.
    func testScopedShowAsksForItsTabAndTheCardAsksToPlay() throws {
        let s = try loaded()
        let app = try XCTUnwrap(s.museum)
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.floor == Floor(2) })
        let artwork = try XCTUnwrap(MapContent.items(app, floor: Floor(2)).first { $0.id == .artwork(art.id) })
        var m = s.map
        sendScoped(MapFeature.self, &m, .show(.artwork(art.id)), FeatureContext(s), effects: [load(2)], requests: [.close, .select(.map), .persist, .resetTab(.map)]) {
            $0.floor = Floor(2)
            $0.highlight = .artwork(art.id)
            $0.selection = .artwork(art.id)
            $0.zoom = 1
            $0.centre = artwork.point
            $0.plans[Floor(2)] = .loading(url: self.plan(2))
        }
        // Nothing to show: nothing asked.
        sendScoped(MapFeature.self, &m, .show(.artwork(999_999)), FeatureContext(s))
        // On the map already: only the fresh page.
        let o = try opened()
        let first = try XCTUnwrap(app.sortedArtworks.first { $0.floor == Floor(1) && $0.hasAudio })
        var om = o.map
        om.selection = .artwork(first.id)
        om.cardOpen = true
        sendScoped(MapFeature.self, &om, .activate, FeatureContext(o), requests: [.send(.play(audioID: first.commentaries[0].audioID, artworkID: first.id, tourID: nil))])
        let here = try item(o, .artwork(first.id))
        sendScoped(MapFeature.self, &om, .show(.artwork(first.id)), FeatureContext(o), requests: [.close, .resetTab(.map)]) {
            $0.highlight = .artwork(first.id)
            $0.cardOpen = false
            $0.zoom = max(o.map.zoom, 1)
            $0.centre = here.point
        }
    }

    /// The map opens as its list for a screen reader: its own choice, from the configuration it reads.
    func testScopedAScreenReaderGetsTheList() throws {
        let s = try loaded(config: ["screen_reader": "true"])
        var m = MapState()
        reactScoped(MapFeature.self, &m, .launched, FeatureContext(s)) { $0.textMode = true }
        reactScoped(MapFeature.self, &m, .launched, FeatureContext(try loaded()))
    }

    func testShowingALandmarkKeepsTheZoom() throws {
        // A landmark is drawn only far out: no closer level draws it, so "show on map" does not
        // zoom in (it used to zoom all the way in, looking for a level that draws it).
        var s = try opened()
        send(&s, .map(.zoom(2))) { $0.map.zoom = 2 }
        let landmark = try item(s, .annotation(5045))
        XCTAssertEqual(landmark.kind, .landmark)
        send(&s, .map(.show(.annotation(5045)))) {
            $0.stacks[.map] = [Page(.map)]
            $0.map.highlight = .annotation(5045)
            $0.map.selection = .annotation(5045)
            $0.map.centre = landmark.point
        }
    }

    func testYouAreHereIsTheLastArtworkPlayedAndCentredOnOpen() throws {
        var s = try loaded()
        let app = try XCTUnwrap(s.museum)
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.floor == Floor(2) && $0.hasAudio })
        prepare(&s, .play(audioID: art.commentaries[0].audioID, artworkID: art.id, tourID: nil))
        let p = try XCTUnwrap(MapContent.items(app, floor: Floor(2)).first { $0.id == .artwork(art.id) }).point
        send(&s, .selectTab(.map), effects: { [.persist($0.settings), self.load(2)] }) {
            $0.tab = .map
            $0.map.floor = Floor(2)
            $0.map.zoom = 1
            $0.map.centre = p
            $0.map.centredOnArtwork = art.id
            $0.map.plans[Floor(2)] = .loading(url: self.plan(2))
        }
        // Panning away and coming back does not re-centre on the same place.
        let v = try XCTUnwrap(MapReducer.viewport(s.map, MapReducer.Env(app, FeatureContext(s))))
        let moved = PlanPoint(x: p.x + Double(v.dotsWide) * v.pointsPerDot / 4, y: p.y)
        send(&s, .map(.pan(dx: 1, dy: 0))) { $0.map.centre = moved }
        send(&s, .selectTab(.home), effects: { [.persist($0.settings)] }) { $0.tab = .home }
        send(&s, .selectTab(.map), effects: { [.persist($0.settings)] }) { $0.tab = .map }
        // `c` goes back.
        send(&s, .map(.recentre)) { $0.map.centre = p }
    }

    func testNoYouAreHereWhenLocationIsOff() throws {
        var s = try loaded()
        s.locationEnabled = false
        let app = try XCTUnwrap(s.museum)
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.floor == Floor(2) && $0.hasAudio })
        prepare(&s, .play(audioID: art.commentaries[0].audioID, artworkID: art.id, tourID: nil))
        send(&s, .selectTab(.map), effects: { [.persist($0.settings), self.load(1)] }) {
            $0.tab = .map
            $0.map.plans[Floor(1)] = .loading(url: self.plan(1))
        }
        XCTAssertEqual(s.map.floor, Floor(1))
        XCTAssertNil(s.map.centre)
        XCTAssertNil(MapScene(s.map, FeatureContext(s), cols: 80, rows: 20)?.here)
    }

    func testShowOnMapFromThePlayerAndATourPage() throws {
        var s = try loaded()
        let app = try XCTUnwrap(s.museum)
        XCTAssertNil(MapAction.showOnMap(from: FeatureContext(s)), "nothing to show on Home")
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.hasAudio })
        prepare(&s, .play(audioID: art.commentaries[0].audioID, artworkID: art.id, tourID: nil), .openPlayer)
        XCTAssertEqual(s.page.route, .player)
        XCTAssertEqual(MapAction.showOnMap(from: FeatureContext(s)), .map(.show(.artwork(art.id))))
        let tour = try XCTUnwrap(app.tours.first { $0.location != nil && $0.floor != nil })
        s.stacks[.home] = [Page(.home), Page(.tourDetail(tour.id))]
        s.tab = .home
        XCTAssertEqual(MapAction.showOnMap(from: FeatureContext(s)), .map(.show(.tour(tour.id))))
    }

    // MARK: What is on the map

    func testItemsOfAFloorAndWhenTheyShow() throws {
        let s = try loaded()
        let app = try XCTUnwrap(s.museum)
        let items = MapContent.items(app, floor: Floor(3))
        let kinds = Set(items.map(\.kind))
        XCTAssertTrue(kinds.contains(.gallery(closed: true)), "closed Gallery 303 is still labelled")
        XCTAssertTrue(kinds.contains(.landmark), "landmarks are on every floor")
        XCTAssertTrue(kinds.contains(.amenity(.womensRoom)))
        XCTAssertFalse(items.contains { $0.floor != nil && $0.floor != Floor(3) })
        XCTAssertFalse(kinds.contains(.amenity(.tickets)), "tickets are on floor 1")
        let visible = { (level: Int) in Set(items.filter { $0.isVisible(atZoom: level) }.map(\.kind)) }
        XCTAssertTrue(visible(0).contains(.landmark))
        XCTAssertTrue(visible(0).contains(.garden))
        XCTAssertFalse(visible(0).contains(.department))
        XCTAssertTrue(visible(1).contains(.department))
        XCTAssertFalse(visible(1).contains(.landmark))
        XCTAssertTrue(visible(2).contains(.space))
        XCTAssertTrue(visible(3).contains(.gallery(closed: true)))
        XCTAssertFalse(visible(3).contains(.garden))
        for level in 0..<MapZoom.levels {
            XCTAssertTrue(visible(level).contains(.amenity(.womensRoom)), "amenities always")
            // Issue 33 #10: gallery numbers and artworks at every zoom, the whole floor too.
            XCTAssertTrue(visible(level).contains(.gallery(closed: false)), "galleries at zoom \(level + 1)")
            XCTAssertTrue(visible(level).contains { if case .artwork = $0 { return true } else { return false } }, "artworks at zoom \(level + 1)")
        }
        // The list: numbered galleries in numeric order, the grounds last.
        let list = MapContent.listOrder(items)
        XCTAssertEqual(list.last?.area, nil)
        let areas = list.compactMap(\.area)
        XCTAssertEqual(areas, areas.sorted { $0.compare($1, options: .numeric) == .orderedAscending })
    }

    func testItemTagsRoundTrip() {
        for id in [MapItemID.annotation(5001), .gallery(3), .artwork(1101), .tour(4001)] {
            XCTAssertEqual(MapItemID(tag: id.tag), id)
        }
        XCTAssertNil(MapItemID(tag: "x1"))
        XCTAssertNil(MapItemID(tag: "a"))
    }
}

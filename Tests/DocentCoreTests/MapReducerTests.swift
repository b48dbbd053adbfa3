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

    func loaded() throws -> AppState {
        let m = try XCTUnwrap(Self.museum, "SampleData reads")
        var s = AppState(source: Self.sampleSource, catalog: StringCatalog(tables: [.english: [:]]), now: Date(timeIntervalSince1970: 0), features: CoreFixtures.features)
        _ = Reducer.reduce(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        _ = Reducer.reduce(&s, .documentLoaded(.success(m), note: nil))
        _ = Reducer.reduce(&s, .viewportChanged(rows: 36, width: 118))
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
        _ = Reducer.reduce(&s, .selectTab(.map))
        _ = Reducer.reduce(&s, .map(.rasterReady(floor: Floor(1), url: plan(1), raster: raster())))
        return s
    }

    func item(_ s: AppState, _ id: MapItemID) throws -> MapItem {
        let app = try XCTUnwrap(s.museum)
        return try XCTUnwrap(MapContent.items(app, floor: s.map.floor).first { $0.id == id })
    }

    // MARK: Opening and plans

    func testOpeningTheMapAsksForTheFloorPlanOnce() throws {
        var s = try loaded()
        XCTAssertTrue(s.tabs.contains(.map))
        let e = Reducer.reduce(&s, .selectTab(.map))
        XCTAssertEqual(e, [.persist(s.settings), load(1)])
        XCTAssertEqual(s.map.floor, Floor(1))
        XCTAssertEqual(s.map.plans[Floor(1)], .loading(url: plan(1)))
        // Leaving and coming back does not ask again.
        _ = Reducer.reduce(&s, .selectTab(.home))
        XCTAssertEqual(Reducer.reduce(&s, .nextTab), [.persist(s.settings)])
        XCTAssertEqual(s.tab, .audioGuide)
        XCTAssertEqual(Reducer.reduce(&s, .nextTab), [.persist(s.settings)])
        XCTAssertEqual(s.tab, .map)
    }

    func testTheMapRestoredAsLastTabLoadsItsPlanWhenTheDocumentArrives() throws {
        let m = try XCTUnwrap(Self.museum)
        var s = AppState(source: Self.sampleSource, catalog: StringCatalog(tables: [.english: [:]]), now: Date(timeIntervalSince1970: 0), features: CoreFixtures.features)
        _ = Reducer.reduce(&s, .launched(restored: PersistedSettings(lastTab: .map, introSeen: true), languageOverride: nil))
        XCTAssertEqual(s.tab, .map)
        let e = Reducer.reduce(&s, .documentLoaded(.success(m), note: nil))
        XCTAssertTrue(e.contains(load(1)), "\(e)")
    }

    func testRasterResultsAreStoredAndStaleOnesIgnored() throws {
        var s = try loaded()
        _ = Reducer.reduce(&s, .selectTab(.map))
        let r = raster()
        XCTAssertEqual(Reducer.reduce(&s, .map(.rasterReady(floor: Floor(1), url: "/elsewhere.pdf", raster: r))), [])
        XCTAssertEqual(s.map.plans[Floor(1)], .loading(url: plan(1)))
        _ = Reducer.reduce(&s, .map(.rasterReady(floor: Floor(1), url: plan(1), raster: r)))
        XCTAssertEqual(s.map.raster, r)
    }

    func testAFailedPlanSaysWhyAndCanBeRetried() throws {
        var s = try loaded()
        _ = Reducer.reduce(&s, .selectTab(.map))
        _ = Reducer.reduce(&s, .map(.rasterFailed(floor: Floor(1), url: plan(1), message: "HTTP 404")))
        XCTAssertEqual(s.map.plans[Floor(1)], .failed(url: plan(1), message: "HTTP 404"))
        // Switching away and back keeps the failure (no retry storm).
        _ = Reducer.reduce(&s, .map(.floorStep(1)))
        XCTAssertEqual(Reducer.reduce(&s, .map(.floorStep(-1))), [])
        XCTAssertEqual(Reducer.reduce(&s, .map(.retry)), [load(1)])
        XCTAssertEqual(s.map.plans[Floor(1)], .loading(url: plan(1)))
        XCTAssertEqual(Reducer.reduce(&s, .map(.retry)), [], "only a failed plan is retried")
    }

    // MARK: Zoom and pan

    func testZoomStepsAndStopsAtBothEnds() throws {
        var s = try opened()
        XCTAssertEqual(s.map.zoom, 0)
        _ = Reducer.reduce(&s, .map(.zoom(-1)))
        XCTAssertEqual(s.map.zoom, 0)
        for _ in 0..<10 { _ = Reducer.reduce(&s, .map(.zoom(1))) }
        XCTAssertEqual(s.map.zoom, MapZoom.levels - 1)
        XCTAssertGreaterThanOrEqual(MapZoom.levels, 4)
        _ = Reducer.reduce(&s, .map(.zoom(-1)))
        XCTAssertEqual(s.map.zoom, MapZoom.levels - 2)
    }

    func testPanMovesAQuarterWindowAndStaysOnThePlan() throws {
        var s = try opened()
        let app = try XCTUnwrap(s.museum)
        _ = Reducer.reduce(&s, .map(.zoom(2)))
        let v = try XCTUnwrap(MapReducer.viewport(s, app))
        let c0 = v.centre
        XCTAssertEqual(c0, raster().planBox.centre)
        _ = Reducer.reduce(&s, .map(.pan(dx: 1, dy: 0)))
        let c1 = try XCTUnwrap(s.map.centre)
        XCTAssertEqual(c1.x - c0.x, Double(v.dotsWide) * v.pointsPerDot / 4, accuracy: 1e-9)
        XCTAssertEqual(c1.y, c0.y, accuracy: 1e-9)
        _ = Reducer.reduce(&s, .map(.pan(dx: 0, dy: 1)))
        XCTAssertLessThan(try XCTUnwrap(s.map.centre).y, c0.y, "down the screen is south, y down")
        // Far out of the plan: the centre stops at its edge.
        for _ in 0..<100 { _ = Reducer.reduce(&s, .map(.pan(dx: -1, dy: -1))) }
        XCTAssertEqual(s.map.centre, PlanPoint(x: 760, y: 1540))
        // Panning never asks for the plan again.
        XCTAssertEqual(Reducer.reduce(&s, .map(.pan(dx: 1, dy: 0))), [])
    }

    // MARK: Floors

    func testFloorsStepStopAndCycle() throws {
        var s = try opened()
        XCTAssertEqual(Reducer.reduce(&s, .map(.floorStep(1))), [load(2)])
        XCTAssertEqual(s.map.floor, Floor(2))
        _ = Reducer.reduce(&s, .map(.floorStep(1)))
        XCTAssertEqual(Reducer.reduce(&s, .map(.floorStep(1))), [], "no floor above 3")
        XCTAssertEqual(s.map.floor, Floor(3))
        XCTAssertEqual(Reducer.reduce(&s, .map(.cycleFloor)), [load(0)])
        XCTAssertEqual(s.map.floor, Floor.lowerLevel)
        XCTAssertEqual(Reducer.reduce(&s, .map(.floorStep(-1))), [])
        XCTAssertEqual(Reducer.reduce(&s, .map(.selectFloor(Floor(1)))), [], "floor 1 is loaded already")
        XCTAssertEqual(Reducer.reduce(&s, .map(.selectFloor(Floor(7)))), [])
        XCTAssertEqual(s.map.floor, Floor(1))
        // A click on a floor chip.
        XCTAssertEqual(Reducer.reduce(&s, .map(.selectFloor(Floor(2)))), [])
        XCTAssertEqual(s.map.floor, Floor(2))
    }

    // MARK: Selection and the card

    func testSelectionGoesInReadingOrderAndTheCardPlaysCommentary() throws {
        var s = try opened()
        _ = Reducer.reduce(&s, .map(.zoom(2)))
        _ = Reducer.reduce(&s, .map(.selectStep(1)))
        let first = try XCTUnwrap(s.map.selection)
        _ = Reducer.reduce(&s, .map(.selectStep(1)))
        XCTAssertNotEqual(s.map.selection, first)
        _ = Reducer.reduce(&s, .map(.selectStep(-1)))
        XCTAssertEqual(s.map.selection, first)
        // An artwork with commentary: Enter opens its card, Enter again plays.
        let app = try XCTUnwrap(s.museum)
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.floor == Floor(1) && $0.hasAudio })
        _ = Reducer.reduce(&s, .map(.clickItem(.artwork(art.id))))
        XCTAssertEqual(s.map.selection, .artwork(art.id))
        XCTAssertTrue(s.map.cardOpen)
        let e = Reducer.reduce(&s, .map(.activate))
        XCTAssertEqual(s.player.track?.artworkID, art.id)
        XCTAssertEqual(s.player.track?.audioID, art.commentaries.first?.audioID)
        XCTAssertEqual(e.count, 1)
        if case .audio(.play)? = e.first {} else { XCTFail("expected play, got \(e)") }
        XCTAssertEqual(s.tab, .map, "playing from the map stays on the map")
    }

    func testEnterWithoutSelectionTakesWhatIsNearestTheMiddle() throws {
        var s = try opened()
        _ = Reducer.reduce(&s, .map(.activate))
        XCTAssertNotNil(s.map.selection)
        XCTAssertTrue(s.map.cardOpen)
    }

    func testTourStartCardStartsTheTour() throws {
        let s = try opened()
        let app = try XCTUnwrap(s.museum)
        let tour = try XCTUnwrap(app.tours.first { $0.floor == Floor(1) && $0.location != nil })
        XCTAssertEqual(MapReducer.cardAction(s, app, .tour(tour.id)), .tour(.start(tourID: tour.id, stop: nil)))
        XCTAssertNil(MapReducer.cardAction(s, app, .gallery(1004)))
    }

    func testEscapeClosesLegendCardTextModeThenSelection() throws {
        var s = try opened()
        _ = Reducer.reduce(&s, .map(.toggleText))
        _ = Reducer.reduce(&s, .map(.activate))
        _ = Reducer.reduce(&s, .map(.toggleLegend))
        XCTAssertTrue(s.map.legendOpen && s.map.cardOpen && s.map.textMode)
        _ = Reducer.reduce(&s, .map(.dismiss))
        XCTAssertFalse(s.map.legendOpen)
        _ = Reducer.reduce(&s, .map(.dismiss))
        XCTAssertFalse(s.map.cardOpen)
        _ = Reducer.reduce(&s, .map(.dismiss))
        XCTAssertFalse(s.map.textMode)
        XCTAssertNotNil(s.map.selection)
        _ = Reducer.reduce(&s, .map(.dismiss))
        XCTAssertNil(s.map.selection)
    }

    func testTextModeWalksTheListInAreaOrder() throws {
        var s = try opened()
        let app = try XCTUnwrap(s.museum)
        let list = MapContent.listOrder(MapContent.items(app, floor: Floor(1)))
        _ = Reducer.reduce(&s, .map(.toggleText))
        XCTAssertEqual(s.map.selection, list.first?.id)
        _ = Reducer.reduce(&s, .map(.selectStep(1)))
        XCTAssertEqual(s.map.selection, list[1].id)
        _ = Reducer.reduce(&s, .map(.selectStep(-5)))
        XCTAssertEqual(s.map.selection, list.first?.id, "the list does not wrap")
        // The mouse wheel moves the list too.
        _ = Reducer.reduce(&s, .move(3))
        XCTAssertEqual(s.map.selection, list[1].id)
    }

    // MARK: Show on map and you are here

    func testShowOnMapSwitchesTabFloorCentresAndHighlights() throws {
        var s = try loaded()
        let app = try XCTUnwrap(s.museum)
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.floor == Floor(2) })
        let e = Reducer.reduce(&s, .map(.show(.artwork(art.id))))
        XCTAssertEqual(e, [.persist(s.settings), load(2)])
        XCTAssertEqual(s.tab, .map)
        XCTAssertEqual(s.page.route, .map)
        XCTAssertEqual(s.map.floor, Floor(2))
        XCTAssertEqual(s.map.highlight, .artwork(art.id))
        XCTAssertEqual(s.map.selection, .artwork(art.id))
        XCTAssertGreaterThanOrEqual(s.map.zoom, 2, "close enough for artworks to show")
        let point = try item(s, .artwork(art.id)).point
        let c = try XCTUnwrap(s.map.centre)
        XCTAssertEqual(c.x, point.x, accuracy: 1e-6)
        XCTAssertEqual(c.y, point.y, accuracy: 1e-6)
        // A gallery and an amenity on another floor; a landmark keeps the floor.
        _ = Reducer.reduce(&s, .map(.show(.gallery(1014))))
        XCTAssertEqual(s.map.floor, Floor(3))
        XCTAssertGreaterThanOrEqual(s.map.zoom, 3, "gallery labels show close in")
        _ = Reducer.reduce(&s, .map(.show(.annotation(5045))))
        XCTAssertEqual(s.map.floor, Floor(3))
        XCTAssertEqual(s.map.highlight, .annotation(5045))
        XCTAssertEqual(Reducer.reduce(&s, .map(.show(.artwork(999_999)))), [])
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
        _ = Reducer.reduce(&s, .play(audioID: art.commentaries[0].audioID, artworkID: art.id, tourID: nil))
        let e = Reducer.reduce(&s, .selectTab(.map))
        XCTAssertEqual(e, [.persist(s.settings), load(2)])
        XCTAssertEqual(s.map.floor, Floor(2))
        let c = try XCTUnwrap(s.map.centre)
        let p = try item(s, .artwork(art.id)).point
        XCTAssertEqual(c.x, p.x, accuracy: 1e-6)
        XCTAssertEqual(s.map.centredOnArtwork, art.id)
        // Panning away and coming back does not re-centre on the same place.
        _ = Reducer.reduce(&s, .map(.pan(dx: 1, dy: 0)))
        let moved = s.map.centre
        _ = Reducer.reduce(&s, .selectTab(.home))
        _ = Reducer.reduce(&s, .selectTab(.map))
        XCTAssertEqual(s.map.centre, moved)
        // `c` goes back.
        _ = Reducer.reduce(&s, .map(.recentre))
        XCTAssertEqual(try XCTUnwrap(s.map.centre).x, p.x, accuracy: 1e-6)
    }

    func testNoYouAreHereWhenLocationIsOff() throws {
        var s = try loaded()
        s.locationEnabled = false
        let app = try XCTUnwrap(s.museum)
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.floor == Floor(2) && $0.hasAudio })
        _ = Reducer.reduce(&s, .play(audioID: art.commentaries[0].audioID, artworkID: art.id, tourID: nil))
        _ = Reducer.reduce(&s, .selectTab(.map))
        XCTAssertEqual(s.map.floor, Floor(1))
        XCTAssertNil(s.map.centre)
        XCTAssertNil(MapScene(s, cols: 80, rows: 20)?.here)
    }

    func testShowOnMapFromThePlayerAndATourPage() throws {
        var s = try loaded()
        let app = try XCTUnwrap(s.museum)
        XCTAssertNil(MapAction.showOnMap(from: s), "nothing to show on Home")
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.hasAudio })
        _ = Reducer.reduce(&s, .play(audioID: art.commentaries[0].audioID, artworkID: art.id, tourID: nil))
        _ = Reducer.reduce(&s, .openPlayer)
        XCTAssertEqual(s.page.route, .player)
        XCTAssertEqual(MapAction.showOnMap(from: s), .map(.show(.artwork(art.id))))
        let tour = try XCTUnwrap(app.tours.first { $0.location != nil && $0.floor != nil })
        s.stacks[.home] = [Page(.home), Page(.tourDetail(tour.id))]
        s.tab = .home
        XCTAssertEqual(MapAction.showOnMap(from: s), .map(.show(.tour(tour.id))))
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
        XCTAssertFalse(visible(2).contains(.gallery(closed: false)))
        XCTAssertTrue(visible(3).contains(.gallery(closed: true)))
        XCTAssertFalse(visible(3).contains(.garden))
        for level in 0..<MapZoom.levels { XCTAssertTrue(visible(level).contains(.amenity(.womensRoom)), "amenities always") }
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

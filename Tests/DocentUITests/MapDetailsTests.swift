import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 17 #16: zoom level 1 is the whole floor, Home/End/g/G in the text list, the legend
/// scrolls on a small terminal, and `@` is called what it is.
final class MapDetailsTests: XCTestCase {
    /// SampleData on the Map tab, floor 1's plan ready (as MapScreenTests makes it).
    func mapState(size: Size) throws -> AppState {
        let m = try XCTUnwrap(MapScreenTests.museum, "SampleData reads")
        let raster = try XCTUnwrap(MapScreenTests.floor1, "the raster fixture reads")
        var s = AppState(source: MapScreenTests.sampleSource, catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        prepare(&s, .documentLoaded(.success(m), note: nil))
        let vp = RootView.viewport(for: size)
        prepare(&s, .viewportChanged(rows: vp.rows, width: vp.width))
        s.overlay = nil
        s.messageQueue = []
        s.banner = nil
        prepare(&s, .selectTab(.map))
        let url = UIFixtures.repoRoot.appendingPathComponent("SampleData/maps/floor1.pdf").path
        prepare(&s, .map(.rasterReady(floor: Floor(1), url: url, raster: raster)))
        return s
    }

    func testZoomLevelOneIsTheWholeFloorWhateverWasCentred() throws {
        var s = try mapState(size: Size(width: 80, height: 24))
        let app = try XCTUnwrap(s.museum)
        let fit = MapLayout.fitBox(raster: s.map.raster, items: MapContent.items(app, floor: s.map.floor))
        s.map.zoom = 2
        s.map.centre = PlanPoint(x: fit.minX, y: fit.minY)
        XCTAssertNotEqual(MapReducer.viewport(s.map, MapReducer.Env(app, FeatureContext(s))).centre, fit.centre)
        send(&s, .map(.zoom(-1))) { $0.map.zoom = 1 }
        send(&s, .map(.zoom(-1))) { $0.map.zoom = 0 }
        XCTAssertEqual(MapReducer.viewport(s.map, MapReducer.Env(app, FeatureContext(s))).centre, fit.centre, "Zoom 1/5 shows the plan's middle, so all of it")
    }

    func testHomeAndEndInTheTextList() throws {
        var s = try mapState(size: Size(width: 80, height: 24))
        prepare(&s, .map(.toggleText))
        let app = try XCTUnwrap(s.museum)
        let order = MapContent.listOrder(MapContent.items(app, floor: s.map.floor))
        XCTAssertGreaterThan(order.count, 3)
        for (key, target) in [(Key.end, order.last), (.home, order.first), (.char("G"), order.last), (.char("g"), order.first)] {
            let action = try XCTUnwrap(KeyMap.action(for: key, in: s), "\(key)")
            prepare(&s, action)
            XCTAssertEqual(s.map.selection, target?.id, "\(key)")
        }
        // With nothing selected, End is still the last row and Home the first.
        s.map.selection = nil
        prepare(&s, .map(.selectStep(1_000_000)))
        XCTAssertEqual(s.map.selection, order.last?.id)
        s.map.selection = nil
        prepare(&s, .map(.selectStep(-1_000_000)))
        XCTAssertEqual(s.map.selection, order.first?.id)
    }

    func testTheLegendScrollsAt40x12() throws {
        let size = Size(width: 40, height: 12)
        var s = try mapState(size: size)
        send(&s, .map(.toggleLegend)) { $0.map.legendOpen = true }
        // The legend box's rows (the hint lines below it may name Esc too).
        func text() -> String {
            let sc = RootView.render(s, size: size)
            return (0..<12).map(sc.row).filter { $0.hasPrefix(" │") }.joined(separator: "\n")
        }
        XCTAssertFalse(text().contains("Esc close"), "the keys' end is below the fold")
        XCTAssertEqual(KeyMap.action(for: .down, in: s), .map(.scrollLegend(1)))
        for _ in 0..<40 { prepare(&s, .map(.scrollLegend(1))) }
        XCTAssertTrue(text().contains("Esc close"), text())
        assertSnapshot(RootView.render(s, size: size), named: "map-legend-scrolled-40x12")
        send(&s, .map(.toggleLegend)) {
            $0.map.legendOpen = false
            $0.map.legendScroll = 0
        }
    }

    func testTheMarkIsCalledTheLastArtworkPlayed() {
        for lang in Language.uiLanguages {
            let s = UIFixtures.catalog.strings(for: lang)
            for key in [StringKey.mapLegendHere, StringKey.mapHere, StringKey.infoLocation] {
                XCTAssertFalse(s(key).lowercased().contains("you are here") || s(key).contains("está aquí") || s(key).contains("当前位置") || s(key).contains("目前位置") || s(key).contains("vous êtes ici") || s(key).contains("현재 위치"), "\(lang) \(key): \(s(key))")
            }
        }
        XCTAssertEqual(UIFixtures.catalog.strings(for: .english)(.mapLegendHere), "The last artwork you played")
    }
}

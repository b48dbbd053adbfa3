import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Positions no map can show (a pole, an anchor 10¹⁹ points away) never reach a conversion
/// that traps: the reader drops them and says why, and the map draws and moves on what is left.
final class HostileMapDataTests: XCTestCase {
    static var sample: [String: Any] {
        let url = UIFixtures.repoRoot.appendingPathComponent("SampleData/appData.json")
        let data = (try? Data(contentsOf: url)) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// SampleData with `change` applied, read, on the map tab, every floor's plan failed (the
    /// map then draws the annotations over a blank grid: the path that projects everything).
    func guide(_ change: (inout [String: Any]) -> Void, file: StaticString = #filePath, line: UInt = #line) throws -> (AppState, AppData) {
        var doc = Self.sample
        XCTAssertFalse(doc.isEmpty, "SampleData reads", file: file, line: line)
        change(&doc)
        let bytes = [UInt8](try JSONSerialization.data(withJSONObject: doc))
        guard case .success(let app) = AppDataReader.read(bytes, source: "/museum/appData.json") else {
            XCTFail("the document still reads", file: file, line: line)
            throw CancellationError()
        }
        var s = UIFixtures.loadedState()
        s.document = .ready(Museum(app))
        prepare(&s, .selectTab(.map))
        for f in app.mapFloors {
            prepare(&s, .map(.rasterFailed(floor: f.floor, url: f.planURL, message: "no plan in this test", problem: .missing)))
        }
        return (s, app)
    }

    /// Draws the map at two sizes, walks the selection, opens the card, zooms and shows an
    /// artwork on the map: every path that turns a position into a cell.
    func exercise(_ state: AppState) {
        var s = state
        for size in [Size(width: 80, height: 24), Size(width: 40, height: 12)] {
            _ = RootView.render(s, size: size)
        }
        for _ in 0..<6 {
            prepare(&s, .map(.selectStep(1)))
            _ = RootView.render(s, size: Size(width: 80, height: 24))
        }
        for _ in 0..<MapZoom.levels { prepare(&s, .map(.zoom(1))) }
        XCTAssertEqual(s.map.zoom, MapZoom.levels - 1)
        _ = RootView.render(s, size: Size(width: 80, height: 24))
        if let id = s.museum?.artworks.keys.sorted().first {
            prepare(&s, .map(.show(.artwork(id))))
            XCTAssertEqual(s.map.highlight, .artwork(id))
            _ = RootView.render(s, size: Size(width: 80, height: 24))
        }
        XCTAssertEqual(s.tab, .map)
    }

    func objects(_ doc: [String: Any]) -> [String: [String: Any]] { doc["objects"] as? [String: [String: Any]] ?? [:] }

    func testPolesAreDroppedAndSaidSo() throws {
        let artwork = try XCTUnwrap(objects(Self.sample).keys.sorted().first)
        let annotation = try XCTUnwrap((Self.sample["map_annontations"] as? [String: Any])?.keys.sorted().first)
        let (s, app) = try guide { doc in
            var objs = doc["objects"] as! [String: [String: Any]]
            objs[artwork]?["location"] = "90,0"
            doc["objects"] = objs
            var ann = doc["map_annontations"] as! [String: [String: Any]]
            ann[annotation]?["location"] = "-90,-180"
            doc["map_annontations"] = ann
        }
        XCTAssertTrue(app.diagnostics.contains { $0.id == artwork && $0.message.contains("85") }, "the artwork's pole is reported: \(app.diagnostics)")
        XCTAssertTrue(app.diagnostics.contains { $0.id == annotation && $0.message.contains("85") }, "the amenity's pole is reported")
        exercise(s)
    }

    func testAnAnchorAtAPoleDropsItsFloor() throws {
        let (s, app) = try guide { doc in
            var floors = doc["map_floors"] as! [String: [String: Any]]
            floors["map_floor1"]?["anchor_location_1"] = "-90,-87.62"
            doc["map_floors"] = floors
        }
        XCTAssertFalse(app.mapFloors.contains { $0.floor == Floor(1) }, "floor 1 has no usable anchors")
        XCTAssertTrue(app.diagnostics.contains { $0.id == "map_floor1" }, "and validate says so")
        exercise(s)
    }

    func testAnAnchorFarOffThePageDropsItsFloor() throws {
        let (s, app) = try guide { doc in
            var floors = doc["map_floors"] as! [String: [String: Any]]
            floors["map_floor1"]?["anchor_pixel_2"] = "1e19,1338.365"
            doc["map_floors"] = floors
        }
        XCTAssertFalse(app.mapFloors.contains { $0.floor == Floor(1) })
        XCTAssertTrue(app.diagnostics.contains { $0.id == "map_floor1" && $0.message.contains("1,000,000") }, "\(app.diagnostics)")
        exercise(s)
    }

    func testLargestAcceptedValuesStillDraw() throws {
        // Just inside every bound: far from the plan, yet every conversion stays in range.
        let artwork = try XCTUnwrap(objects(Self.sample).keys.sorted().first)
        let (s, app) = try guide { doc in
            var floors = doc["map_floors"] as! [String: [String: Any]]
            floors["map_floor1"]?["anchor_pixel_2"] = "999999,-999999"
            floors["map_floor1"]?["anchor_location_2"] = "85.05,179.99"
            doc["map_floors"] = floors
            var objs = doc["objects"] as! [String: [String: Any]]
            objs[artwork]?["location"] = "-85.05,-180"
            doc["objects"] = objs
        }
        XCTAssertTrue(app.mapFloors.contains { $0.floor == Floor(1) })
        exercise(s)
    }
}

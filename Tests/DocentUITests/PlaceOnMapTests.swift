import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 17 #11: `v` on an exhibition's or an event's page shows its gallery on the map.
final class PlaceOnMapTests: XCTestCase {
    func testExhibitionAndEventPagesShowTheirGallery() {
        var s = UIFixtures.loadedState()
        // Blue Hours is in gallery_id 502: the gallery whose nid is 2 (Gallery 201, on floor 2,
        // which the test museum's map cannot place: `v` then offers nothing).
        Reducer.push(&s, .exhibitionDetail(1))
        XCTAssertEqual(HomeFeature.place(.exhibition(1), s), .gallery(2))
        XCTAssertNil(KeyMap.action(for: .char("v"), in: s))
        // "Gallery 101" names the numbered gallery 101 (nid 1).
        s = UIFixtures.loadedState()
        Reducer.push(&s, .eventDetail("e1"))
        XCTAssertEqual(HomeFeature.place(.event("e1"), s), .gallery(1))
    }

    /// On SampleData, whose floors are mapped, `v` on the event's page is the map's show.
    func testVOnAnEventPageShowsItsGallery() throws {
        let app = try Self.sampleData()
        var s = UIFixtures.loadedState()
        s.document = .ready(Museum(app))
        Reducer.push(&s, .eventDetail("e1"))
        let g101 = app.galleries.values.first { $0.title == "Gallery 101" }?.id
        XCTAssertNotNil(g101)
        XCTAssertEqual(KeyMap.action(for: .char("v"), in: s), g101.map { .map(.show(.gallery($0))) })
        // The status line offers it.
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        XCTAssertTrue(screen.row(23).contains("v map"), screen.row(23))
    }

    func testFreeTextLocationsFindTheirGallery() {
        let app = UIFixtures.museum().data
        XCTAssertEqual(HomeFeature.gallery(named: "Gallery 201", app), 2)
        XCTAssertEqual(HomeFeature.gallery(named: "gallery 101 (east wing)", app), 1)
        XCTAssertNil(HomeFeature.gallery(named: "Gallery 2010", app), "201 is not a word of 2010")
        XCTAssertNil(HomeFeature.gallery(named: "Family Studio, lower level", app))
        XCTAssertNil(HomeFeature.gallery(named: "", app))
    }

    static func sampleData() throws -> AppData {
        let url = UIFixtures.repoRoot.appendingPathComponent("SampleData/appData.json")
        switch AppDataReader.read([UInt8](try Data(contentsOf: url)), source: url.path) {
        case .success(let app): return app
        case .failure(let e): throw e
        }
    }

    func testSampleDataNamedHallsAreFound() throws {
        let app = try Self.sampleData()
        let g104 = app.galleries.values.first { $0.title == "Gallery 104 (Lantern Court)" }
        XCTAssertNotNil(g104, "SampleData has Gallery 104 (Lantern Court)")
        XCTAssertEqual(HomeFeature.gallery(named: "Gallery 104 (Lantern Court)", app), g104?.id)
    }
}

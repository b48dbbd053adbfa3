import Foundation
import XCTest

@testable import DocentCore

/// The live search requests (spec §d.3, §d.4) and how their answers are tied to the guide's data.
final class SearchLiveTests: XCTestCase {
    static let now = ISO8601DateFormatter().date(from: "2026-11-22T12:00:00Z") ?? Date()

    func sample(api: String? = nil) throws -> AppData {
        let url = Fixtures.repoRoot.appendingPathComponent("SampleData/appData.json")
        var text = String(decoding: try Fixtures.bytes(url), as: UTF8.self)
        if let api {
            text = text.replacingOccurrences(of: #""data_api_url": """#, with: #""data_api_url": "\#(api)""#)
            text = text.replacingOccurrences(of: #""autocomplete_endpoint": "search/autocomplete.json""#, with: #""autocomplete_endpoint": "/api/v1/autocomplete""#)
            text = text.replacingOccurrences(of: #""multisearch_endpoint": "search/msearch.json""#, with: #""multisearch_endpoint": "/api/v1/msearch""#)
        }
        switch AppDataReader.read(Array(text.utf8), source: url.path) {
        case .success(let a): return a
        case .failure(let e): throw e
        }
    }

    func sampleBytes(_ name: String) throws -> [UInt8] {
        try Fixtures.bytes(Fixtures.repoRoot.appendingPathComponent("SampleData/search/\(name)"))
    }

    func testFileEndpointsAreReadAsFiles() throws {
        let app = try sample()
        let ac = try XCTUnwrap(LiveSearch.autocompleteRequest("harbour", app: app))
        XCTAssertEqual(ac.method, .get)
        XCTAssertTrue(ac.url.hasSuffix("SampleData/search/autocomplete.json"), ac.url)
        let ms = try XCTUnwrap(LiveSearch.multisearchRequest("harbour", app: app))
        XCTAssertEqual(ms.method, .get)
        XCTAssertNil(ms.body)
        XCTAssertTrue(ms.url.hasSuffix("SampleData/search/msearch.json"), ms.url)
    }

    func testHTTPAutocompleteIsAnEncodedGet() throws {
        let app = try sample(api: "https://api.example.org")
        let r = try XCTUnwrap(LiveSearch.autocompleteRequest("café & co", app: app))
        XCTAssertEqual(r.method, .get)
        XCTAssertEqual(r.url, "https://api.example.org/api/v1/autocomplete?q=caf%C3%A9%20%26%20co&resources=artworks,tours,exhibitions,artists")
    }

    func testHTTPMultisearchPostsThreeQueriesInOrder() throws {
        let app = try sample(api: "https://api.example.org/")
        let r = try XCTUnwrap(LiveSearch.multisearchRequest("harbour", app: app))
        XCTAssertEqual(r.method, .post)
        XCTAssertEqual(r.url, "https://api.example.org/api/v1/msearch")
        XCTAssertEqual(r.headers["Content-Type"], "application/json")
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(r.body))) as? [[String: Any]])
        XCTAssertEqual(body.map { $0["resources"] as? String }, ["artworks", "tours", "exhibitions"])
        XCTAssertEqual(body.map { $0["q"] as? String }, ["harbour", "harbour", "harbour"])
        XCTAssertEqual(body.map { $0["size"] as? Int }, [99, 99, 99])
        XCTAssertEqual(body[0]["fields"] as? [String], ["id", "is_on_view", "title", "artist_display", "image_id", "gallery_id", "latlon"])
        XCTAssertEqual(((body[0]["query"] as? [String: Any])?["term"] as? [String: Any])?["is_on_view"] as? String, "true")
        XCTAssertEqual(body[1]["fields"] as? [String], ["id"])
        XCTAssertEqual((body[2]["fields"] as? [String])?.count, 8)
        let must = (((body[2]["query"] as? [String: Any])?["bool"] as? [String: Any])?["must"] as? [Any])?.count
        XCTAssertEqual(must, 2)
    }

    func testNoEndpointsNoLiveSearch() throws {
        var app = try sample()
        app.endpoints.autocompleteEndpoint = nil
        app.endpoints.multisearchEndpoint = nil
        XCTAssertFalse(LiveSearch.isAvailable(app: app))
        XCTAssertNil(LiveSearch.multisearchRequest("x", app: app))
    }

    func testFileAnswersAreFilteredByTheQuery() throws {
        let app = try sample()
        let r = try LiveSearch.results(from: sampleBytes("msearch.json"), query: "harbour", app: app, now: Self.now).get()
        let titles = r.artworks.compactMap { app.artworks[$0]?.title }
        XCTAssertFalse(titles.isEmpty)
        XCTAssertTrue(titles.allSatisfy { $0.lowercased().contains("harbour") }, "\(titles)")
        XCTAssertTrue(r.liveArtworks.isEmpty, "every sample hit is a CMS artwork (by collection id)")
        XCTAssertEqual(r.exhibitions.map(\.id), [7101])
        let s = try LiveSearch.suggestions(from: sampleBytes("autocomplete.json"), query: "harb", app: app).get()
        XCTAssertEqual(s, ["Harbour at First Light", "Harbour Crane", "Harbour Sketchbook", "Tidewater: Painting the Working Harbour"])
    }

    func testHTTPAnswersAreTiedToTheGuideData() throws {
        let app = try sample(api: "https://api.example.org")
        let cms = try XCTUnwrap(app.artworks.values.first { $0.collectionID == 87001 })
        let gallery = try XCTUnwrap(app.galleries.values.first { $0.galleryID == 24010 && !$0.closed })
        let json = """
            [{"data": [
               {"id": 87001, "is_on_view": true, "title": "Indigo Field Coverlet", "artist_display": "x", "gallery_id": 24010},
               {"id": 5, "is_on_view": true, "title": "Not In The Guide", "artist_display": "Someone\\nDutch", "gallery_id": 24010, "latlon": "41.88,-87.62"},
               {"id": 6, "is_on_view": false, "title": "In Storage", "artist_display": "A", "gallery_id": 24010},
               {"id": 7, "is_on_view": true, "title": "No Gallery", "artist_display": "A", "gallery_id": 999},
               {"id": 8, "is_on_view": true, "artist_display": "A", "gallery_id": 24010}
             ]},
             {"data": [{"id": 4001}, {"id": 123456}]},
             {"data": [{"id": 9, "title": "Now On", "aic_start_at": "2026-01-01T00:00:00-06:00", "aic_end_at": "2027-01-01T00:00:00-06:00"},
                       {"id": 10, "title": "Over", "aic_start_at": "2020-01-01T00:00:00-06:00", "aic_end_at": "2021-01-01T00:00:00-06:00"}]}]
            """
        let r = try LiveSearch.results(from: Array(json.utf8), query: "zzz", app: app, now: Self.now).get()
        XCTAssertEqual(r.artworks, [cms.id])
        XCTAssertEqual(r.liveArtworks, [LiveArtwork(id: 5, title: "Not In The Guide", artist: "Someone\nDutch", galleryID: gallery.id, galleryTitle: gallery.title, floor: gallery.floor, location: LatLon(lat: 41.88, lon: -87.62))])
        XCTAssertEqual(r.tours, [4001])
        XCTAssertEqual(r.exhibitions.map(\.id), [9])
    }

    func testBadAnswersFailQuietly() throws {
        let app = try sample()
        XCTAssertThrowsError(try LiveSearch.results(from: Array("<html>".utf8), query: "a", app: app, now: Self.now).get())
        XCTAssertThrowsError(try LiveSearch.results(from: Array("[{}]".utf8), query: "a", app: app, now: Self.now).get())
        XCTAssertThrowsError(try LiveSearch.suggestions(from: Array("{}".utf8), query: "a", app: app).get())
    }
}

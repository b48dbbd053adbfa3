import XCTest

@testable import DocentCore

/// Issue 33 #10: gallery numbers and artworks show at every zoom, thinned where they would
/// collide, in the core (what is drawn is what `n`/`N` step through).
final class MapThinningTests: XCTestCase {
    /// 20 × 10 cells, one point per dot: a cell is 2 × 4 points, the window 0…40 × 0…40.
    let v = MapViewport(cols: 20, rows: 10, centre: PlanPoint(x: 20, y: 20), pointsPerDot: 1)

    func artwork(_ id: Int, x: Double, y: Double, audio: Bool = true) -> MapItem {
        MapItem(id: .artwork(id), kind: .artwork(hasAudio: audio), floor: Floor(1), location: LatLon(lat: 0, lon: 0), point: PlanPoint(x: x, y: y), label: "Work \(id)", detail: "", area: "101")
    }

    func gallery(_ id: Int, _ label: String, x: Double, y: Double) -> MapItem {
        MapItem(id: .gallery(id), kind: .gallery(closed: false), floor: Floor(1), location: LatLon(lat: 0, lon: 0), point: PlanPoint(x: x, y: y), label: label, detail: "", area: label)
    }

    func testArtworksInOneCellAreOnePinAndFarOutTheirNeighboursGiveWay() {
        // 1 and 2 share a cell; 3 is in the next cell; 4 is far away. 2 has a commentary, 1 not.
        let items = [artwork(1, x: 10.2, y: 20.2, audio: false), artwork(2, x: 10.6, y: 20.6), artwork(3, x: 12.5, y: 20.5), artwork(4, x: 30, y: 10)]
        let far = MapThinning.shown(items, in: v, zoom: 0, always: [], stops: [])
        XCTAssertEqual(far.map(\.id), [.artwork(2), .artwork(4)], "one pin a cell and its neighbours, a commentary first")
        let close = MapThinning.shown(items, in: v, zoom: 3, always: [], stops: [])
        XCTAssertEqual(close.map(\.id), [.artwork(2), .artwork(3), .artwork(4)], "close in only the same cell gives way")
        // The selection and a tour's stops show however crowded (and first); the work sharing
        // the selection's cell gives way to it.
        let chosen = MapThinning.shown(items, in: v, zoom: 0, always: [.artwork(1)], stops: [3])
        XCTAssertEqual(chosen.map(\.id), [.artwork(1), .artwork(3), .artwork(4)])
    }

    func testGalleryNumbersThatWouldTouchAreThinned() {
        // "101" and "102" two cells apart on one row would read "101102"; "103" on another row.
        let items = [gallery(1, "101", x: 10, y: 20), gallery(2, "102", x: 14, y: 20), gallery(3, "103", x: 10, y: 30)]
        XCTAssertEqual(MapThinning.shown(items, in: v, zoom: 0, always: [], stops: []).map(\.id), [.gallery(1), .gallery(3)])
        // Apart by a blank cell and their widths, both stay.
        let apart = [gallery(1, "101", x: 10, y: 20), gallery(2, "102", x: 22, y: 20)]
        XCTAssertEqual(MapThinning.shown(apart, in: v, zoom: 0, always: [], stops: []).count, 2)
        // Off the window: not drawn, unless it must be (the view keeps it in sight).
        XCTAssertEqual(MapThinning.shown([gallery(9, "109", x: 900, y: 20)], in: v, zoom: 0, always: [], stops: []), [])
    }
}

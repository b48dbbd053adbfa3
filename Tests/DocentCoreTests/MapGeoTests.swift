import Foundation
import XCTest

@testable import DocentCore

/// The lat/lon ↔ plan transform against the figures of spec §c.2, plus the raster's ink
/// index and the page-margin trim.
final class MapGeoTests: XCTestCase {
    /// The AIC anchors (the same for every floor).
    static let aic: GeoTransform? = GeoTransform(
        points: (PlanPoint(x: 855.955, y: 1338.365), PlanPoint(x: 1011.94, y: 1338.365)),
        locations: (LatLon(lat: 41.88002009571711, lon: -87.62398928403854), LatLon(lat: 41.8800240897643, lon: -87.62334823608397)))

    func transform() throws -> GeoTransform { try XCTUnwrap(Self.aic) }

    func testRotationScaleAndAnchorDistanceMatchTheSpec() throws {
        let t = try transform()
        XCTAssertEqual(t.theta * 180 / .pi, -0.48, accuracy: 0.005)
        XCTAssertEqual(t.anchorDistance, 53.07, accuracy: 0.01)
        XCTAssertEqual(t.pointsPerMetre, 2.939, accuracy: 0.001)
        // "One metre south" is "one metre east" turned 90° clockwise, and points down the page.
        XCTAssertEqual(t.south.x, t.east.y, accuracy: 1e-12)
        XCTAssertEqual(t.south.y, -t.east.x, accuracy: 1e-12)
        XCTAssertLessThan(t.south.y, 0)
    }

    func testPageCornersMatchTheSpec() throws {
        let t = try transform()
        let sw = t.location(PlanPoint(x: 0, y: 0)), ne = t.location(PlanPoint(x: 2400, y: 2400))
        XCTAssertEqual(sw.lat, 41.87591, accuracy: 0.000006)
        XCTAssertEqual(sw.lon, -87.62746, accuracy: 0.000006)
        XCTAssertEqual(ne.lat, 41.88330, accuracy: 0.000006)
        XCTAssertEqual(ne.lon, -87.61769, accuracy: 0.000006)
        // Inside the box the Android app hard-codes as the map bounds.
        XCTAssertGreaterThan(sw.lat, 41.875815)
        XCTAssertLessThan(ne.lat, 41.883309)
    }

    func testGallery100LandsWhereTheSpecSays() throws {
        let t = try transform()
        let p = t.plan(LatLon(lat: 41.87955079343, lon: -87.62364596128))
        XCTAssertEqual(p.x, 938, accuracy: 1)
        XCTAssertEqual(p.y, 1184, accuracy: 1)
        // Raster row at 1 px/pt with a top-left origin (§c.2 step 7).
        XCTAssertEqual(2400 - p.y, 1216, accuracy: 1)
    }

    /// Within 0.1 pt (3 cm): the converter measures the anchors' ground distance on the mean
    /// radius (CoreLocation) but scales map points on the equatorial one (MapKit), as the spec
    /// describes, so the anchors come back 0.09 pt off.
    func testAnchorsMapOntoThemselves() throws {
        let t = try transform()
        let a1 = t.plan(LatLon(lat: 41.88002009571711, lon: -87.62398928403854))
        let a2 = t.plan(LatLon(lat: 41.8800240897643, lon: -87.62334823608397))
        XCTAssertEqual(a1.x, 855.955, accuracy: 0.1)
        XCTAssertEqual(a1.y, 1338.365, accuracy: 0.1)
        XCTAssertEqual(a2.x, 1011.94, accuracy: 0.1)
        XCTAssertEqual(a2.y, 1338.365, accuracy: 0.1)
    }

    func testRoundTripsBothWays() throws {
        let t = try transform()
        for x in stride(from: 0.0, through: 2400, by: 300) {
            for y in stride(from: 0.0, through: 2400, by: 400) {
                let p = t.plan(t.location(PlanPoint(x: x, y: y)))
                XCTAssertEqual(p.x, x, accuracy: 1e-6)
                XCTAssertEqual(p.y, y, accuracy: 1e-6)
            }
        }
        for g in [LatLon(lat: 41.8796, lon: -87.6237), LatLon(lat: 41.87591, lon: -87.62746), LatLon(lat: 41.8833, lon: -87.6177)] {
            let back = t.location(t.plan(g))
            XCTAssertEqual(back.lat, g.lat, accuracy: 1e-10)
            XCTAssertEqual(back.lon, g.lon, accuracy: 1e-10)
        }
    }

    func testNorthIsUpAndEastIsRight() throws {
        let t = try transform()
        let c = t.plan(LatLon(lat: 41.8796, lon: -87.6237))
        let north = t.plan(LatLon(lat: 41.8806, lon: -87.6237)), east = t.plan(LatLon(lat: 41.8796, lon: -87.6227))
        XCTAssertGreaterThan(north.y - c.y, 100)
        XCTAssertEqual(north.x, c.x, accuracy: 3)
        XCTAssertGreaterThan(east.x - c.x, 100)
    }

    func testDegenerateAnchorsGiveNoTransform() {
        let p = PlanPoint(x: 1, y: 1), g = LatLon(lat: 41.88, lon: -87.62)
        XCTAssertNil(GeoTransform(points: (p, p), locations: (g, LatLon(lat: 41.89, lon: -87.62))))
        XCTAssertNil(GeoTransform(points: (p, PlanPoint(x: 5, y: 1)), locations: (g, g)))
    }

    // MARK: Raster

    /// A 10×6 raster: black line in column 3, mid-grey block, white paper.
    func sampleRaster() -> PlanRaster {
        var px = [UInt8](repeating: 255, count: 60)
        for y in 0..<6 { px[y * 10 + 3] = 0 }
        return PlanRaster(width: 10, height: 6, pixels: px, origin: PlanPoint(x: 100, y: 500), pixelsPerPoint: 2)
    }

    func testRasterPlacementAndInkCounts() {
        let r = sampleRaster()
        XCTAssertEqual(r.planBox, PlanRect(minX: 100, minY: 497, maxX: 105, maxY: 500))
        let p = r.pixel(PlanPoint(x: 101.5, y: 499))
        XCTAssertEqual(p.x, 3, accuracy: 1e-9)
        XCTAssertEqual(p.y, 2, accuracy: 1e-9)
        XCTAssertEqual(r.ink.paper, 255)
        XCTAssertEqual(r.inkCount(x0: 0, y0: 0, x1: 10, y1: 6), 6)
        XCTAssertEqual(r.inkCount(x0: 3, y0: 2, x1: 4, y1: 4), 2)
        XCTAssertEqual(r.inkCount(x0: 4, y0: 0, x1: 10, y1: 6), 0)
        XCTAssertEqual(r.inkCount(x0: -5, y0: -5, x1: 50, y1: 50), 6, "clipped to the raster")
        XCTAssertTrue(r.isInk(x: 3, y: 5))
        XCTAssertFalse(r.isInk(x: 2, y: 5))
    }

    func testInkPolarityFollowsThePlanStyle() {
        // Black lines on white paper: dark ink.
        XCTAssertTrue(PlanInk(pixels: [255, 255, 255, 0]).isInk(0))
        XCTAssertFalse(PlanInk(pixels: [255, 255, 255, 0]).isInk(220))
        // White walls on a blue-grey building (the AIC plans): light ink, fills are not ink.
        let aic = PlanInk(pixels: [140, 140, 192, 192, 192, 255, 115, 140])
        XCTAssertTrue(aic.isInk(255))
        XCTAssertFalse(aic.isInk(192))
        XCTAssertFalse(aic.isInk(115))
    }

    func testTrimFindsTheBuildingAndIgnoresStreetsAndText() {
        // 60×60 page: white; a street across the whole page (touches the edges); a thin text
        // line; a building outline 20×16 in the middle.
        let w = 60, h = 60
        var px = [UInt8](repeating: 255, count: w * h)
        for x in 0..<w { px[10 * w + x] = 100 }
        for x in 5..<25 { px[4 * w + x] = 0 }
        for x in 20..<40 {
            px[25 * w + x] = 0
            px[40 * w + x] = 0
        }
        for y in 25...40 {
            px[y * w + 20] = 0
            px[y * w + 39] = 0
        }
        let box = PlanTrim.contentBox(pixels: px, width: w, height: h)
        XCTAssertEqual(box?.x0, 20)
        XCTAssertEqual(box?.y0, 25)
        XCTAssertEqual(box?.x1, 40)
        XCTAssertEqual(box?.y1, 41)
        // In page points (y up), padded, on a 600-point page (10 pt per pixel).
        let r = PlanTrim.contentRect(pixels: px, width: w, height: h, pageWidth: 600, pageHeight: 600, padding: 5)
        XCTAssertEqual(r, PlanRect(minX: 195, minY: 185, maxX: 405, maxY: 355))
        // Nothing but background: the whole page.
        XCTAssertEqual(PlanTrim.contentRect(pixels: [UInt8](repeating: 200, count: 100), width: 10, height: 10, pageWidth: 50, pageHeight: 50), PlanRect(minX: 0, minY: 0, maxX: 50, maxY: 50))
    }

    // MARK: Viewport

    func testViewportCellsAndBox() {
        let v = MapViewport(cols: 10, rows: 5, centre: PlanPoint(x: 100, y: 100), pointsPerDot: 1)
        XCTAssertEqual(v.box, PlanRect(minX: 90, minY: 90, maxX: 110, maxY: 110))
        XCTAssertEqual(v.cell(PlanPoint(x: 100, y: 100))?.col, 5)
        XCTAssertEqual(v.cell(PlanPoint(x: 100, y: 100))?.row, 2)
        XCTAssertEqual(v.cell(PlanPoint(x: 90.5, y: 109.5))?.col, 0)
        XCTAssertEqual(v.cell(PlanPoint(x: 90.5, y: 109.5))?.row, 0)
        XCTAssertNil(v.cell(PlanPoint(x: 111, y: 100)))
        XCTAssertEqual(v.point(col: 5, row: 2), PlanPoint(x: 101, y: 100))
        // Level 0 fits the box; every level doubles.
        let fit = PlanRect(minX: 0, minY: 0, maxX: 200, maxY: 100)
        XCTAssertEqual(MapLayout.pointsPerDot(fit: fit, cols: 50, rows: 10, zoom: 0), 2.5, accuracy: 1e-12)
        XCTAssertEqual(MapLayout.pointsPerDot(fit: fit, cols: 50, rows: 10, zoom: 2), 0.625, accuracy: 1e-12)
    }
}

import XCTest

@testable import DocentCore

/// Issue 33 #10: the plan's printed text is painted over with the paper around it, so at
/// braille resolution it is not a blot of dots; the walls stay.
final class PlanTextTests: XCTestCase {
    /// 20 × 10: white paper, a grey street on rows 4…7, a black wall in column 2, and a
    /// black "glyph" on the street at columns 10…12, rows 5…6, its antialiased edge (100) at
    /// column 14 just outside its box (columns 9…13, rows 4…7, as a font's box is larger
    /// than its letter).
    func plan() -> [UInt8] {
        var p = [UInt8](repeating: 255, count: 200)
        for y in 4..<8 { for x in 0..<20 { p[y * 20 + x] = 200 } }
        for y in 0..<10 { p[y * 20 + 2] = 0 }
        for y in 5..<7 { for x in 10..<13 { p[y * 20 + x] = 0 } }
        p[5 * 20 + 14] = 100
        return p
    }

    func testAGlyphTakesTheGreyOfThePaperUnderIt() {
        var p = plan()
        PlanText.clear(&p, width: 20, height: 10, boxes: [PlanText.Box(x0: 9, y0: 4, x1: 14, y1: 8)])
        var expected = plan()
        for y in 5..<7 { for x in 10..<13 { expected[y * 20 + x] = 200 } }
        expected[5 * 20 + 14] = 200
        XCTAssertEqual(p, expected, "the letter and its edge go; the street, the white paper beyond it and the wall stay")
        // The ink the map sees: none left where the glyph was.
        let r = PlanRaster(width: 20, height: 10, pixels: p, origin: PlanPoint(x: 0, y: 10), pixelsPerPoint: 1)
        XCTAssertEqual(r.inkCount(x0: 9, y0: 4, x1: 15, y1: 8), 0)
        XCTAssertGreaterThan(r.inkCount(x0: 2, y0: 0, x1: 3, y1: 10), 0)
    }

    func testBoxesOffTheRasterOrTooLargeAreLeftAlone() {
        var p = plan()
        PlanText.clear(&p, width: 20, height: 10, boxes: [
            PlanText.Box(x0: 40, y0: 40, x1: 50, y1: 50), PlanText.Box(x0: -9, y0: -9, x1: -3, y1: -3),
            PlanText.Box(x0: 5, y0: 5, x1: 5, y1: 9),
        ])
        XCTAssertEqual(p, plan())
        var q = plan()
        PlanText.clear(&q, width: 20, height: 10, boxes: [PlanText.Box(x0: 0, y0: 0, x1: 1000, y1: 1000)])
        XCTAssertEqual(q, plan(), "no glyph covers a whole plan")
    }
}

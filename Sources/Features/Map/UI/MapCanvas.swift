import DocentCore

/// Turns a plan raster and a window into braille cells: each cell is 2×4 dots, a dot is set
/// when enough of the plan's ink falls in the raster box under it (a line crossing at least a
/// third of the box). Pure, and linear in the number of dots: the raster's summed ink answers
/// each box in four reads, so a pan step costs the same at every zoom level.
public enum MapCanvas {
    /// Braille dot bits by (column, row) inside a cell (Unicode's numbering 1–8).
    static let dotBits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    /// One dot mask per cell, row-major (`cols × rows`); 0 where nothing is drawn.
    public static func masks(_ raster: PlanRaster, _ v: MapViewport) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: v.cols * v.rows)
        let s = v.pointsPerDot, ppp = raster.pixelsPerPoint
        let block = s * ppp
        // Pixel spans of each dot column and dot row, computed once per frame.
        func spans(count: Int, start: Double, step: Double, toPixel: (Double) -> Double) -> [(Int, Int)] {
            (0..<count).map { i in
                let a = toPixel(start + Double(i) * step), b = toPixel(start + Double(i + 1) * step)
                let lo = min(a, b), hi = max(a, b)
                if hi - lo < 1 {
                    let c = pixel((lo + hi) / 2)
                    return (c, c + 1)
                }
                return (pixel(lo), pixel(hi))
            }
        }
        let xs = spans(count: v.dotsWide, start: v.left, step: s) { ($0 - raster.origin.x) * ppp }
        let ys = spans(count: v.dotsHigh, start: v.top, step: -s) { (raster.origin.y - $0) * ppp }
        let need = max(1, Int(cell: block * 0.35) ?? 1)
        // Skip dot columns and rows entirely off the raster.
        let w = raster.width, h = raster.height
        for (j, (y0, y1)) in ys.enumerated() where y1 > 0 && y0 < h {
            let row = j / 4, bitRow = j % 4
            for (i, (x0, x1)) in xs.enumerated() where x1 > 0 && x0 < w {
                if raster.inkCount(x0: x0, y0: y0, x1: x1, y1: y1) >= need {
                    out[row * v.cols + i / 2] |= dotBits[i % 2][bitRow]
                }
            }
        }
        return out
    }

    /// A raster pixel index, rounded down; off the raster (-1, or far beyond its size) when the
    /// value is not finite or out of range, so a span there is simply skipped.
    static func pixel(_ d: Double) -> Int {
        Int(cell: d).map { Swift.min(Swift.max($0, -1), Int(Int32.max)) } ?? (d > 0 ? Int(Int32.max) : -1)
    }

    /// The character of a dot mask (a space for none).
    public static func character(_ mask: UInt8) -> Character {
        guard mask != 0, let u = Unicode.Scalar(0x2800 + UInt32(mask)) else { return " " }
        return Character(u)
    }

    /// A faint grid in plan coordinates for a floor without a plan (so panning still shows
    /// movement): one dot every `spacing` points, `spacing` a doubling of 25 pt at least six
    /// cells apart.
    public static func gridMasks(_ v: MapViewport) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: v.cols * v.rows)
        var spacing = 25.0
        while spacing < v.pointsPerDot * 2 * 6 { spacing *= 2 }
        let box = v.box
        var x = (box.minX / spacing).rounded(.up) * spacing
        while x < box.maxX {
            var y = (box.minY / spacing).rounded(.up) * spacing
            while y < box.maxY {
                if let dx = Int(cell: (x - v.left) / v.pointsPerDot), let dy = Int(cell: (v.top - y) / v.pointsPerDot), dx >= 0, dx < v.dotsWide, dy >= 0, dy < v.dotsHigh {
                    out[(dy / 4) * v.cols + dx / 2] |= dotBits[dx % 2][dy % 4]
                }
                y += spacing
            }
            x += spacing
        }
        return out
    }
}

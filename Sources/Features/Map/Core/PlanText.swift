/// Text printed on a floor plan (room numbers, street names, a title) is not drawn as part of
/// the plan: at braille resolution a word is a blot of dots, and the map writes its own
/// labels from the data. The PDF reader knows which marks are text (a box per glyph); here
/// each glyph's box is painted over with the grey around it, so the paper under the text
/// (white, or a grey street) stays what it was and only the letters go.
public enum PlanText {
    /// A glyph's box in raster pixels, end-exclusive.
    public struct Box: Hashable, Sendable {
        public var x0: Int, y0: Int, x1: Int, y1: Int
        public init(x0: Int, y0: Int, x1: Int, y1: Int) {
            (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
        }
    }

    /// Boxes larger than this many pixels are not glyphs (a broken font's box could cover a
    /// whole wing): they are left alone.
    public static let maxBoxPixels = 250_000

    /// Paints each box (clipped to the raster) with the grey most common inside it (the paper
    /// under the letters: a glyph's box is the font's, ascent to descent, and its ink is a
    /// small part of it), and, on the ring of pixels just outside it, the pixels on the ink's
    /// side of that grey (a letter's antialiased edge reaches past its box); the paper beyond
    /// a street's edge, on the other side, stays.
    public static func clear(_ pixels: inout [UInt8], width: Int, height: Int, boxes: [Box]) {
        guard width > 0, height > 0, pixels.count >= width * height else { return }
        for b in boxes {
            guard b.x0 < b.x1, b.y0 < b.y1, b.x1 - b.x0 <= maxBoxPixels, b.y1 - b.y0 <= maxBoxPixels,
                (b.x1 - b.x0) * (b.y1 - b.y0) <= maxBoxPixels
            else { continue }
            let x0 = max(0, b.x0), y0 = max(0, b.y0), x1 = min(width, b.x1), y1 = min(height, b.y1)
            guard x0 < x1, y0 < y1 else { continue }
            var hist = [Int](repeating: 0, count: 256)
            for y in y0..<y1 {
                for x in x0..<x1 { hist[Int(pixels[y * width + x])] += 1 }
            }
            let paper = hist.indices.max { hist[$0] < hist[$1] } ?? 255
            // The ink: the grey inside farthest from the paper, and on which side of it.
            let ink = hist.indices.filter { hist[$0] > 0 }.max { abs($0 - paper) < abs($1 - paper) } ?? paper
            let side = ink < paper ? -1 : ink > paper ? 1 : 0
            for y in y0..<y1 {
                for x in x0..<x1 { pixels[y * width + x] = UInt8(paper) }
            }
            guard side != 0 else { continue }
            for y in (y0 - 1)...y1 where y >= 0 && y < height {
                for x in (x0 - 1)...x1 where x >= 0 && x < width && (y == y0 - 1 || y == y1 || x == x0 - 1 || x == x1) {
                    let v = Int(pixels[y * width + x])
                    if (v - paper) * side > edgeTolerance { pixels[y * width + x] = UInt8(paper) }
                }
            }
        }
    }

    /// How far from the paper, towards the ink, a pixel on the ring must be to be taken for
    /// part of a letter.
    public static let edgeTolerance = 8
}

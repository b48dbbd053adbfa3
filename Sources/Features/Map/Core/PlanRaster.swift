import Foundation

/// A rectangle on a floor plan, in PDF points (y up).
public struct PlanRect: Hashable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = min(minX, maxX)
        self.minY = min(minY, maxY)
        self.maxX = max(minX, maxX)
        self.maxY = max(minY, maxY)
    }

    /// The smallest rectangle holding every point; nil for none.
    public init?(covering points: [PlanPoint]) {
        guard let f = points.first else { return nil }
        var r = PlanRect(minX: f.x, minY: f.y, maxX: f.x, maxY: f.y)
        for p in points.dropFirst() {
            r.minX = min(r.minX, p.x)
            r.maxX = max(r.maxX, p.x)
            r.minY = min(r.minY, p.y)
            r.maxY = max(r.maxY, p.y)
        }
        self = r
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var centre: PlanPoint { PlanPoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }

    public func contains(_ p: PlanPoint) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }

    /// Grown by `d` points on every side.
    public func padded(_ d: Double) -> PlanRect { PlanRect(minX: minX - d, minY: minY - d, maxX: maxX + d, maxY: maxY + d) }

    public func union(_ o: PlanRect) -> PlanRect {
        PlanRect(minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }

    /// The part inside `o`, or nil when they do not overlap.
    public func intersection(_ o: PlanRect) -> PlanRect? {
        let r = (max(minX, o.minX), max(minY, o.minY), min(maxX, o.maxX), min(maxY, o.maxY))
        guard r.0 < r.2, r.1 < r.3 else { return nil }
        return PlanRect(minX: r.0, minY: r.1, maxX: r.2, maxY: r.3)
    }
}

/// A floor plan rasterised once, at one resolution, for every zoom level: grey levels
/// (0 black … 255 white, rows from the top), where the raster lies on the page, and an index of
/// its "ink" (the plan's lines) that answers "how much is drawn in this box" in constant time,
/// so drawing a frame costs the same at any zoom and panning never touches the PDF again.
/// A reference type: states holding it stay cheap to copy and compare (by identity).
public final class PlanRaster: Equatable, Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    /// Grey levels, row-major, top row first.
    public let pixels: [UInt8]
    /// The page point under the raster's top-left corner (the left edge, the top edge; y up).
    public let origin: PlanPoint
    /// Raster pixels per PDF point.
    public let pixelsPerPoint: Double
    /// What the raster was made from (URL and content hash), for diagnostics and caching.
    public let source: String
    /// Which pixels count as lines (see `PlanInk`).
    public let ink: PlanInk
    /// Summed-area table of ink pixels, `(width + 1) × (height + 1)`.
    let inkSums: [UInt32]

    /// - Parameters:
    ///   - pixels: `width × height` grey levels, top row first (shorter input is padded white).
    ///   - origin: the page point of the raster's top-left corner.
    public init(width: Int, height: Int, pixels: [UInt8], origin: PlanPoint, pixelsPerPoint: Double, source: String = "") {
        let w = max(0, width), h = max(0, height)
        var px = pixels
        if px.count < w * h { px += [UInt8](repeating: 255, count: w * h - px.count) }
        if px.count > w * h { px.removeLast(px.count - w * h) }
        self.width = w
        self.height = h
        self.pixels = px
        self.origin = origin
        self.pixelsPerPoint = pixelsPerPoint > 0 ? pixelsPerPoint : 1
        self.source = source
        let ink = PlanInk(pixels: px)
        self.ink = ink
        self.inkSums = Self.summedInk(px, w, h, ink)
    }

    public static func == (a: PlanRaster, b: PlanRaster) -> Bool { a === b }

    public var description: String { "PlanRaster(\(width)×\(height) @\(pixelsPerPoint) px/pt, \(source))" }

    /// The page area the raster covers.
    public var planBox: PlanRect {
        PlanRect(
            minX: origin.x, minY: origin.y - Double(height) / pixelsPerPoint,
            maxX: origin.x + Double(width) / pixelsPerPoint, maxY: origin.y)
    }

    /// Raster coordinates (column, row; fractional) of a page point.
    public func pixel(_ p: PlanPoint) -> (x: Double, y: Double) {
        ((p.x - origin.x) * pixelsPerPoint, (origin.y - p.y) * pixelsPerPoint)
    }

    /// Ink pixels in the pixel box [x0, x1) × [y0, y1), clipped to the raster.
    public func inkCount(x0: Int, y0: Int, x1: Int, y1: Int) -> Int {
        let ax = min(max(0, x0), width), bx = min(max(0, x1), width)
        let ay = min(max(0, y0), height), by = min(max(0, y1), height)
        guard ax < bx, ay < by else { return 0 }
        let s = width + 1
        let total = Int(inkSums[by * s + bx]) - Int(inkSums[ay * s + bx]) - Int(inkSums[by * s + ax]) + Int(inkSums[ay * s + ax])
        return total
    }

    /// Whether the pixel at (x, y) is ink (false outside the raster).
    public func isInk(x: Int, y: Int) -> Bool { inkCount(x0: x, y0: y, x1: x + 1, y1: y + 1) > 0 }

    static func summedInk(_ px: [UInt8], _ w: Int, _ h: Int, _ ink: PlanInk) -> [UInt32] {
        let s = w + 1
        var sums = [UInt32](repeating: 0, count: s * (h + 1))
        guard w > 0, h > 0 else { return sums }
        px.withUnsafeBufferPointer { p in
            sums.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    var run: UInt32 = 0
                    let row = y * w
                    for x in 0..<w {
                        let v = p[row + x]
                        var hit = ink.isInk(v)
                        // A sharp step to a neighbour marks the side farther from the paper,
                        // so a boundary becomes one pixel of ink, not two.
                        if !hit, x > 0 { hit = ink.isEdge(v, p[row + x - 1]) }
                        if !hit, x + 1 < w { hit = ink.isEdge(v, p[row + x + 1]) }
                        if !hit, y > 0 { hit = ink.isEdge(v, p[row - w + x]) }
                        if !hit, y + 1 < h { hit = ink.isEdge(v, p[row + w + x]) }
                        if hit { run += 1 }
                        out[(y + 1) * s + x + 1] = out[y * s + x + 1] + run
                    }
                }
            }
        }
        return sums
    }
}

/// Which grey levels are a plan's lines. Plans differ: our sample plans draw black walls on
/// white paper, the AIC plans draw white walls on a blue-grey building on a darker city. The
/// paper is the median grey; on light paper the ink is what is clearly darker, on mid or dark
/// paper it is whichever extreme (near white or near black) the plan uses more. Sharp steps
/// between neighbours (a filled room against the corridor) count as ink too.
public struct PlanInk: Hashable, Sendable {
    /// The median grey level.
    public let paper: UInt8
    /// Ink is at or below `darkLimit`, or at or above `lightLimit` (one of them is unused).
    public let darkLimit: Int
    public let lightLimit: Int
    /// A step of at least this between neighbours is an edge.
    public let edgeStep: Int

    public init(paper: UInt8, darkLimit: Int, lightLimit: Int, edgeStep: Int = 72) {
        self.paper = paper
        self.darkLimit = darkLimit
        self.lightLimit = lightLimit
        self.edgeStep = edgeStep
    }

    /// Chooses the ink of a raster from its histogram.
    public init(pixels: [UInt8]) {
        var hist = [Int](repeating: 0, count: 256)
        for v in pixels { hist[Int(v)] += 1 }
        var acc = 0, median = 255
        for (v, n) in hist.enumerated() {
            acc += n
            if acc * 2 >= pixels.count {
                median = v
                break
            }
        }
        let paper = pixels.isEmpty ? 255 : median
        if paper >= 200 {
            self.init(paper: UInt8(paper), darkLimit: paper - 56, lightLimit: 256)
        } else {
            let light = hist[224...].reduce(0, +), dark = hist[...32].reduce(0, +)
            if light >= dark {
                self.init(paper: UInt8(paper), darkLimit: -1, lightLimit: max(224, paper + 40))
            } else {
                self.init(paper: UInt8(paper), darkLimit: min(32, paper - 40), lightLimit: 256)
            }
        }
    }

    @inline(__always) public func isInk(_ v: UInt8) -> Bool { Int(v) <= darkLimit || Int(v) >= lightLimit }

    /// Whether `a` is the ink side of a sharp step to its neighbour `b`.
    @inline(__always) public func isEdge(_ a: UInt8, _ b: UInt8) -> Bool {
        let pa = abs(Int(a) - Int(paper)), pb = abs(Int(b) - Int(paper))
        return abs(Int(a) - Int(b)) >= edgeStep && pa > pb
    }
}

/// Finds the part of a page that holds the building, on a small overview raster of the whole
/// page. The page's own colour is the most common grey along its border; what differs clearly
/// from it is drawn. Drawn regions that touch the page edge (streets, a river, a city block)
/// and thin ones (text lines, labels) are set aside; what remains is the building.
public enum PlanTrim {
    /// Greys closer than this to the page colour count as page.
    public static let threshold = 40

    /// The content box in pixels (x0, y0, x1, y1 — end-exclusive), or nil when the page holds
    /// nothing but its background and edge-touching shapes.
    public static func contentBox(pixels: [UInt8], width w: Int, height h: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        guard w > 2, h > 2, pixels.count >= w * h else { return nil }
        var ring = [Int](repeating: 0, count: 256)
        for x in 0..<w {
            ring[Int(pixels[x])] += 1
            ring[Int(pixels[(h - 1) * w + x])] += 1
        }
        for y in 0..<h {
            ring[Int(pixels[y * w])] += 1
            ring[Int(pixels[y * w + w - 1])] += 1
        }
        let page = ring.indices.max { ring[$0] < ring[$1] } ?? 255
        let minSide = max(2, Int((Double(min(w, h)) * 0.02).rounded(.up)))
        var state = [UInt8](repeating: 0, count: w * h)  // 0 page, 1 drawn, 2 visited
        for i in 0..<(w * h) where abs(Int(pixels[i]) - page) > threshold { state[i] = 1 }
        var box: (Int, Int, Int, Int)?
        var stack: [Int] = []
        for start in 0..<(w * h) where state[start] == 1 {
            state[start] = 2
            stack.append(start)
            var (x0, y0, x1, y1) = (w, h, -1, -1)
            var touchesEdge = false
            while let i = stack.popLast() {
                let x = i % w, y = i / w
                x0 = min(x0, x)
                x1 = max(x1, x)
                y0 = min(y0, y)
                y1 = max(y1, y)
                if x == 0 || y == 0 || x == w - 1 || y == h - 1 { touchesEdge = true }
                if x > 0, state[i - 1] == 1 { state[i - 1] = 2; stack.append(i - 1) }
                if x < w - 1, state[i + 1] == 1 { state[i + 1] = 2; stack.append(i + 1) }
                if y > 0, state[i - w] == 1 { state[i - w] = 2; stack.append(i - w) }
                if y < h - 1, state[i + w] == 1 { state[i + w] = 2; stack.append(i + w) }
            }
            guard !touchesEdge, x1 - x0 + 1 >= minSide, y1 - y0 + 1 >= minSide else { continue }
            if let b = box {
                box = (min(b.0, x0), min(b.1, y0), max(b.2, x1 + 1), max(b.3, y1 + 1))
            } else {
                box = (x0, y0, x1 + 1, y1 + 1)
            }
        }
        return box.map { (x0: $0.0, y0: $0.1, x1: $0.2, y1: $0.3) }
    }

    /// The content box of a whole-page overview in page points (y up), padded by `padding`
    /// points and kept on the page; the whole page when nothing stands out.
    public static func contentRect(pixels: [UInt8], width: Int, height: Int, pageWidth: Double, pageHeight: Double, padding: Double = 24) -> PlanRect {
        let page = PlanRect(minX: 0, minY: 0, maxX: pageWidth, maxY: pageHeight)
        guard width > 0, height > 0, let b = contentBox(pixels: pixels, width: width, height: height) else { return page }
        let sx = pageWidth / Double(width), sy = pageHeight / Double(height)
        let r = PlanRect(
            minX: Double(b.x0) * sx, minY: pageHeight - Double(b.y1) * sy,
            maxX: Double(b.x1) * sx, maxY: pageHeight - Double(b.y0) * sy)
        return r.padded(padding).intersection(page) ?? page
    }
}

import Foundation

/// The part of a floor plan a map window shows: `cols × rows` cells of 2×4 braille dots each,
/// centred on a plan point, at so many plan points per dot. Dots are square on a terminal
/// whose cells are twice as tall as wide. Shared by the reducer (panning, selection) and the
/// renderer, so both agree on what is on screen.
public struct MapViewport: Hashable, Sendable {
    public let cols: Int
    public let rows: Int
    public let centre: PlanPoint
    public let pointsPerDot: Double

    public init(cols: Int, rows: Int, centre: PlanPoint, pointsPerDot: Double) {
        self.cols = max(1, cols)
        self.rows = max(1, rows)
        self.centre = centre
        self.pointsPerDot = pointsPerDot > 0 ? pointsPerDot : 1
    }

    public var dotsWide: Int { cols * 2 }
    public var dotsHigh: Int { rows * 4 }
    /// Plan x of the left edge.
    public var left: Double { centre.x - Double(dotsWide) * pointsPerDot / 2 }
    /// Plan y of the top edge (y grows upwards).
    public var top: Double { centre.y + Double(dotsHigh) * pointsPerDot / 2 }
    public var box: PlanRect {
        PlanRect(minX: left, minY: top - Double(dotsHigh) * pointsPerDot, maxX: left + Double(dotsWide) * pointsPerDot, maxY: top)
    }

    /// The cell a plan point falls in, or nil when it is outside the window.
    public func cell(_ p: PlanPoint) -> (col: Int, row: Int)? {
        guard let c = Int(cell: (p.x - left) / (pointsPerDot * 2)), let r = Int(cell: (top - p.y) / (pointsPerDot * 4)),
            c >= 0, c < cols, r >= 0, r < rows
        else { return nil }
        return (c, r)
    }

    /// The plan point at the middle of a cell.
    public func point(col: Int, row: Int) -> PlanPoint {
        PlanPoint(x: left + (Double(col) + 0.5) * pointsPerDot * 2, y: top - (Double(row) + 0.5) * pointsPerDot * 4)
    }
}

/// How the map screen divides its area: a header line (floors, zoom, status), the canvas, and
/// a line of key hints.
public enum MapLayout {
    /// Rows above and below the canvas.
    public static let chromeRows = 2

    /// Canvas size in cells for a content area (`AppState.viewportRows/Width`).
    public static func canvas(rows: Int, width: Int) -> (cols: Int, rows: Int) {
        (max(1, width), max(1, rows - chromeRows))
    }

    /// The page box used before anything is known about a plan: the AIC plans are
    /// 2400 × 2400 points.
    public static let defaultPage = PlanRect(minX: 0, minY: 0, maxX: 2400, maxY: 2400)

    /// What zoom level 0 fits into the window: the trimmed plan when it is there, else the
    /// floor's items with a margin, else the whole page.
    public static func fitBox(raster: PlanRaster?, items: [MapItem]) -> PlanRect {
        if let r = raster, r.width > 0, r.height > 0 { return r.planBox }
        if let b = PlanRect(covering: items.map(\.point)) {
            let pad = max(40, max(b.width, b.height) * 0.1)
            return b.padded(pad)
        }
        return defaultPage
    }

    /// Plan points per dot at a zoom level for a canvas.
    public static func pointsPerDot(fit: PlanRect, cols: Int, rows: Int, zoom: Int) -> Double {
        let fitScale = max(fit.width / Double(max(1, cols * 2)), fit.height / Double(max(1, rows * 4)))
        return max(fitScale, 1e-6) / MapZoom.factor(zoom)
    }
}

extension Int {
    /// A cell or dot index from a plan distance, rounded down; nil when it is not finite or
    /// too far to mean anything (a plain `Int(_:)` stops the program there).
    public init?(cell d: Double) {
        guard d.isFinite, abs(d) < 1e15 else { return nil }
        self = Int(d.rounded(.down))
    }
}

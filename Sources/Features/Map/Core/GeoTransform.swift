import Foundation

/// Latitude/longitude ↔ floor-plan points (PDF points, origin bottom-left, y up), from the two
/// anchor pairs of `map_floors`: a similarity transform (scale, rotation, translation) built
/// exactly as the AIC app's converter does (spec §c.2): both geo anchors go to Web-Mercator map
/// points, the PDF vector for "one metre east" comes from the anchors' displacement rotated by
/// the Mercator bearing and divided by their ground distance, and everything is measured from
/// the midpoint of the anchors.
public struct GeoTransform: Equatable, Sendable {
    /// MapKit's world square in map points.
    public static let worldSize = 268_435_456.0
    /// Equatorial radius used for map-point scale (MapKit's `MKMetersPerMapPointAtLatitude`).
    static let equatorialRadius = 6_378_137.0
    /// Mean radius used for ground distance (CoreLocation-like great-circle distance).
    static let meanRadius = 6_371_009.0

    /// PDF vector of one metre east.
    public let east: PlanPoint
    /// PDF vector of one metre south: `east` turned 90° clockwise.
    public let south: PlanPoint
    /// The anchors' midpoint in PDF points.
    public let tangentPlan: PlanPoint
    /// The anchors' midpoint in Mercator map points (y grows southward).
    public let tangentMercator: PlanPoint
    /// Metres per map point at the tangent latitude.
    public let metresPerMapPoint: Double
    /// Bearing of anchor 1 → anchor 2 in Mercator, radians, clockwise from east.
    public let theta: Double
    /// Ground distance between the two geo anchors, metres.
    public let anchorDistance: Double

    /// Builds the transform; nil when the anchors coincide (no scale or direction).
    public init?(points: (PlanPoint, PlanPoint), locations: (LatLon, LatLon)) {
        let m1 = Self.mercator(locations.0), m2 = Self.mercator(locations.1)
        let d = Self.distance(locations.0, locations.1)
        let dx = points.1.x - points.0.x, dy = points.1.y - points.0.y
        guard d > 0, dx != 0 || dy != 0, m1 != m2 else { return nil }
        let th = atan2(m2.y - m1.y, m2.x - m1.x)
        // Rotate the PDF displacement counter-clockwise by θ, then per metre.
        let e = PlanPoint(x: (dx * cos(th) - dy * sin(th)) / d, y: (dx * sin(th) + dy * cos(th)) / d)
        // Anchors the reader let through always give finite numbers; this keeps it so.
        guard e.x.isFinite, e.y.isFinite, e.x != 0 || e.y != 0, m1.x.isFinite, m1.y.isFinite, m2.x.isFinite, m2.y.isFinite else { return nil }
        east = e
        south = PlanPoint(x: e.y, y: -e.x)
        tangentPlan = PlanPoint(x: (points.0.x + points.1.x) / 2, y: (points.0.y + points.1.y) / 2)
        let tm = PlanPoint(x: (m1.x + m2.x) / 2, y: (m1.y + m2.y) / 2)
        tangentMercator = tm
        let lat = Self.unproject(tm).lat * .pi / 180
        metresPerMapPoint = cos(lat) * 2 * .pi * Self.equatorialRadius / Self.worldSize
        theta = th
        anchorDistance = d
    }

    /// The transform of a floor (nil when its anchors are degenerate).
    public init?(_ floor: MapFloor) {
        self.init(points: floor.anchorPoints, locations: floor.anchorLocations)
    }

    /// PDF points per metre on the ground.
    public var pointsPerMetre: Double { (east.x * east.x + east.y * east.y).squareRoot() }

    /// Where a place lies on the plan.
    public func plan(_ g: LatLon) -> PlanPoint {
        let m = Self.mercator(g)
        let eastM = (m.x - tangentMercator.x) * metresPerMapPoint
        let southM = (m.y - tangentMercator.y) * metresPerMapPoint
        return PlanPoint(
            x: tangentPlan.x + eastM * east.x + southM * south.x,
            y: tangentPlan.y + eastM * east.y + southM * south.y)
    }

    /// The place under a plan point.
    public func location(_ p: PlanPoint) -> LatLon {
        let vx = p.x - tangentPlan.x, vy = p.y - tangentPlan.y
        let ee = east.x * east.x + east.y * east.y
        let ss = south.x * south.x + south.y * south.y
        let eastM = (vx * east.x + vy * east.y) / ee
        let southM = (vx * south.x + vy * south.y) / ss
        return Self.unproject(PlanPoint(
            x: tangentMercator.x + eastM / metresPerMapPoint,
            y: tangentMercator.y + southM / metresPerMapPoint))
    }

    /// Web-Mercator map point of a location (x east, y south, world square `worldSize`).
    public static func mercator(_ g: LatLon) -> PlanPoint {
        let s = sin(g.lat * .pi / 180)
        let x = (g.lon + 180) / 360 * worldSize
        let y = (0.5 - log((1 + s) / (1 - s)) / (4 * .pi)) * worldSize
        return PlanPoint(x: x, y: y)
    }

    /// The inverse of `mercator`.
    public static func unproject(_ m: PlanPoint) -> LatLon {
        let lon = m.x / worldSize * 360 - 180
        let k = 4 * .pi * (0.5 - m.y / worldSize)
        let lat = asin(tanh(k / 2)) * 180 / .pi
        return LatLon(lat: lat, lon: lon)
    }

    /// Great-circle distance in metres (haversine on the mean radius).
    public static func distance(_ a: LatLon, _ b: LatLon) -> Double {
        let p1 = a.lat * .pi / 180, p2 = b.lat * .pi / 180
        let dp = p2 - p1, dl = (b.lon - a.lon) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * meanRadius * asin(min(1, h.squareRoot()))
    }
}

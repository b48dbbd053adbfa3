/// A latitude/longitude pair in degrees.
public struct LatLon: Hashable, Sendable {
    public var lat: Double
    public var lon: Double
    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}

/// A point on a floor-plan PDF page, in points, origin bottom-left, y up.
public struct PlanPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A floor: 0 is the Lower Level ("LL"), then 1, 2, 3.
public struct Floor: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let number: Int
    public init(_ number: Int) { self.number = number }
    public static let lowerLevel = Floor(0)
    /// "LL" for the lower level, otherwise the number.
    public var label: String { number == 0 ? "LL" : String(number) }
    public var description: String { label }
    public static func < (a: Floor, b: Floor) -> Bool { a.number < b.number }
}

/// One floor plan and the two anchor pairs that register it on the globe.
public struct MapFloor: Hashable, Sendable {
    public let floor: Floor
    public let label: String
    /// Resolved URL of the PDF plan.
    public let planURL: String
    public let anchorPoints: (PlanPoint, PlanPoint)
    public let anchorLocations: (LatLon, LatLon)

    public init(floor: Floor, label: String, planURL: String, anchorPoints: (PlanPoint, PlanPoint), anchorLocations: (LatLon, LatLon)) {
        self.floor = floor
        self.label = label
        self.planURL = planURL
        self.anchorPoints = anchorPoints
        self.anchorLocations = anchorLocations
    }

    public static func == (a: MapFloor, b: MapFloor) -> Bool {
        a.floor == b.floor && a.label == b.label && a.planURL == b.planURL && a.anchorPoints == b.anchorPoints
            && a.anchorLocations == b.anchorLocations
    }

    public func hash(into h: inout Hasher) {
        h.combine(floor)
        h.combine(planURL)
    }
}

/// The amenity types the data may name (exact strings).
public enum AmenityType: String, CaseIterable, Hashable, Sendable {
    case audioGuide = "Audio Guide"
    case checkRoom = "Check Room"
    case dining = "Dining"
    case escalator = "Escalator"
    case elevator = "Elevator"
    case familyRestroom = "Family Restroom"
    case giftShop = "Gift Shop"
    case information = "Information"
    case membersLounge = "Members Lounge"
    case mensRoom = "Men's Room"
    case tickets = "Tickets"
    case wheelchairRamp = "Wheelchair Ramp"
    case womensRoom = "Women's Room"

}

/// What a map annotation is.
public enum AnnotationKind: Hashable, Sendable {
    case amenity(AmenityType)
    /// A building name, shown on every floor.
    case landmark
    /// A garden name, shown on every floor.
    case garden
    /// A named space on one floor.
    case space
    /// A curatorial department badge.
    case department
}

/// A label, icon or badge on the map.
public struct MapAnnotation: Hashable, Sendable, Identifiable {
    public let id: Int
    public let kind: AnnotationKind
    /// nil for landmarks and gardens (every floor).
    public let floor: Floor?
    public let location: LatLon
    /// The visible name (restaurant name, department, space); may hold line breaks.
    public let label: String
    /// Dining: opening hours text.
    public let description: String
    public let imageURL: String?

    public init(id: Int, kind: AnnotationKind, floor: Floor?, location: LatLon, label: String, description: String, imageURL: String?) {
        self.id = id
        self.kind = kind
        self.floor = floor
        self.location = location
        self.label = label
        self.description = description
        self.imageURL = imageURL
    }
}

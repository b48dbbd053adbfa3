import Foundation

/// Something that can be selected on the map.
public enum MapItemID: Hashable, Sendable {
    case annotation(Int)
    case gallery(Int)
    case artwork(Int)
    /// Where a tour starts.
    case tour(Int)

    /// A short text form for click tags: `a12`, `g3`, `o101`, `t500`.
    public var tag: String {
        switch self {
        case .annotation(let i): return "a\(i)"
        case .gallery(let i): return "g\(i)"
        case .artwork(let i): return "o\(i)"
        case .tour(let i): return "t\(i)"
        }
    }

    public init?(tag: String) {
        guard let k = tag.first, let n = Int(tag.dropFirst()) else { return nil }
        switch k {
        case "a": self = .annotation(n)
        case "g": self = .gallery(n)
        case "o": self = .artwork(n)
        case "t": self = .tour(n)
        default: return nil
        }
    }
}

/// What a map item is, which decides its glyph and when it shows.
public enum MapItemKind: Hashable, Sendable {
    case amenity(AmenityType)
    /// A building name (every floor).
    case landmark
    /// A garden name (every floor).
    case garden
    case space
    case department
    case gallery(closed: Bool)
    case artwork(hasAudio: Bool)
    case tourStart
}

/// One thing drawn on a floor: an annotation, a gallery label, an artwork pin or a tour start,
/// already placed on the plan.
public struct MapItem: Hashable, Sendable, Identifiable {
    public let id: MapItemID
    public let kind: MapItemKind
    /// nil: shown on every floor (landmarks, gardens).
    public let floor: Floor?
    public let location: LatLon
    /// Where it lies on the plan page (PDF points, y up).
    public let point: PlanPoint
    /// The visible name; empty for amenities without one (the UI names the type).
    public let label: String
    /// Dining hours, a tombstone, a tour description.
    public let detail: String
    /// The gallery (display title) it is in or nearest to; nil for the grounds (landmarks, gardens).
    public let area: String?
    /// The keypad number on an artwork's label or a tour's sign (issue 47 #4); nil for the rest.
    public let number: String?

    public init(id: MapItemID, kind: MapItemKind, floor: Floor?, location: LatLon, point: PlanPoint, label: String, detail: String, area: String?, number: String? = nil) {
        self.number = number
        self.id = id
        self.kind = kind
        self.floor = floor
        self.location = location
        self.point = point
        self.label = label
        self.detail = detail
        self.area = area
    }

    /// Whether the item shows at a zoom level (spec §c.4, "all information" mode): landmarks and
    /// gardens far out, departments in the middle, spaces close in; amenities, galleries and
    /// artworks always (issue 33 #10: the whole floor showed neither, so it said nothing of
    /// where things are), thinned where they crowd (`MapThinning`).
    public func isVisible(atZoom level: Int) -> Bool {
        let l = MapZoom.named(level)
        switch kind {
        case .amenity: return true
        case .landmark: return l == .limit
        case .garden: return l <= .medium
        case .department: return l == .standard || l == .medium
        case .space: return l >= .medium
        case .artwork: return true
        case .gallery: return true
        case .tourStart: return l >= .standard
        }
    }

    /// Drawing and list order within an area: amenities, galleries, spaces, departments, tours,
    /// artworks, then the grounds' names.
    public var kindRank: Int {
        switch kind {
        case .gallery: return 0
        case .amenity: return 1
        case .space: return 2
        case .department: return 3
        case .tourStart: return 4
        case .artwork: return 5
        case .landmark: return 6
        case .garden: return 7
        }
    }

    /// The label on one line (data labels may hold line breaks).
    public var singleLineLabel: String {
        label.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// Zoom levels: five steps, each twice as close as the one before. Level 0 fits the floor's
/// plan in the window. They follow the AIC app's named camera distances.
public enum MapZoom {
    public static let levels = 5

    /// The spec's named levels (§c.4).
    public enum Named: Int, Comparable, Sendable {
        /// > 300 m: the whole building.
        case limit
        /// 150–300 m.
        case standard
        /// 50–150 m.
        case medium
        /// ≤ 50 m.
        case detail
        /// 25 m.
        case max

        public static func < (a: Named, b: Named) -> Bool { a.rawValue < b.rawValue }
    }

    public static func named(_ level: Int) -> Named { Named(rawValue: min(max(0, level), levels - 1)) ?? .limit }

    /// Magnification of a level over the fitted view.
    public static func factor(_ level: Int) -> Double { Double(1 << min(max(0, level), levels - 1)) }
}

/// The floors, their transforms and items, built from the museum's data.
public enum MapContent {
    /// Floors that have a plan, in order.
    public static func floors(_ app: AppData) -> [Floor] { app.mapFloors.map(\.floor) }

    public static func mapFloor(_ app: AppData, _ floor: Floor) -> MapFloor? { app.mapFloors.first { $0.floor == floor } }

    /// The transform of a floor, or of the first floor with usable anchors (AIC uses the
    /// same anchors for every floor).
    public static func transform(_ app: AppData, _ floor: Floor) -> GeoTransform? {
        if let f = mapFloor(app, floor), let t = GeoTransform(f) { return t }
        return app.mapFloors.lazy.compactMap(GeoTransform.init).first
    }

    /// Every item on `floor` (landmarks and gardens included), sorted by id within kind.
    public static func items(_ app: AppData, floor: Floor) -> [MapItem] {
        guard let t = transform(app, floor) else { return [] }
        let galleries = app.galleries.values.filter { $0.floor == floor }.sorted { $0.id < $1.id }
        let galleryPoints = galleries.map { ($0, t.plan($0.location)) }
        func nearest(_ p: PlanPoint) -> String? {
            var best: (String, Double)?
            for (g, q) in galleryPoints {
                let d = (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)
                if best == nil || d < (best?.1 ?? 0) { best = (g.displayTitle, d) }
            }
            return best?.0
        }
        var out: [MapItem] = []
        for a in app.annotations {
            let onFloor = a.floor == floor
            let kind: MapItemKind
            switch a.kind {
            case .amenity(let type):
                guard onFloor else { continue }
                kind = .amenity(type)
            case .landmark:
                kind = .landmark
            case .garden:
                kind = .garden
            case .space:
                guard onFloor else { continue }
                kind = .space
            case .department:
                guard onFloor else { continue }
                kind = .department
            }
            let p = t.plan(a.location)
            let grounds = a.kind == .landmark || a.kind == .garden
            out.append(MapItem(
                id: .annotation(a.id), kind: kind, floor: grounds ? nil : floor, location: a.location, point: p,
                label: a.label, detail: a.description, area: grounds ? nil : nearest(p)))
        }
        for (g, p) in galleryPoints {
            out.append(MapItem(
                id: .gallery(g.id), kind: .gallery(closed: g.closed), floor: floor, location: g.location, point: p,
                label: g.displayTitle, detail: "", area: g.displayTitle))
        }
        for a in app.sortedArtworks where a.floor == floor {
            let loc = a.location ?? app.galleries[a.galleryID]?.location
            guard let loc else { continue }
            out.append(MapItem(
                id: .artwork(a.id), kind: .artwork(hasAudio: a.hasAudio), floor: floor, location: loc, point: t.plan(loc),
                label: a.title, detail: a.tombstone, area: Gallery.displayTitle(for: a.galleryTitle), number: a.keypadLabel))
        }
        for tour in app.tours where tour.floor == floor {
            guard let loc = tour.location else { continue }
            let p = t.plan(loc)
            out.append(MapItem(
                id: .tour(tour.id), kind: .tourStart, floor: floor, location: loc, point: p,
                label: tour.english.title, detail: tour.english.description, area: nearest(p), number: tour.selectorNumber.map(String.init)))
        }
        return out
    }

    /// The items of a floor in list order: by area (galleries by name, the grounds last), then
    /// kind, then label.
    public static func listOrder(_ items: [MapItem]) -> [MapItem] {
        items.sorted { a, b in
            switch (a.area, b.area) {
            case (nil, .some): return false
            case (.some, nil): return true
            case (.some(let x), .some(let y)) where x != y: return areaLess(x, y)
            default: break
            }
            if a.kindRank != b.kindRank { return a.kindRank < b.kindRank }
            if a.label != b.label { return a.label < b.label }
            return a.id.tag < b.id.tag
        }
    }

    /// Gallery names compare numerically where they are numbers ("99" before "101").
    static func areaLess(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.numeric, .caseInsensitive]) == .orderedAscending
    }

    /// Where an item lives: its floor (nil for landmarks and gardens, on every floor) and plan
    /// point, whatever the current floor.
    public static func locate(_ app: AppData, _ id: MapItemID) -> (floor: Floor?, point: PlanPoint)? {
        func on(_ f: Floor?, _ loc: LatLon?) -> (Floor?, PlanPoint)? {
            guard let loc, let t = transform(app, f ?? app.mapFloors.first?.floor ?? Floor(1)) else { return nil }
            return (f, t.plan(loc))
        }
        switch id {
        case .annotation(let i):
            guard let a = app.annotations.first(where: { $0.id == i }) else { return nil }
            return on(a.kind == .landmark || a.kind == .garden ? nil : a.floor, a.location)
        case .gallery(let i):
            guard let g = app.galleries[i] else { return nil }
            return on(g.floor, g.location)
        case .artwork(let i):
            guard let a = app.artworks[i] else { return nil }
            return on(a.floor, a.location ?? app.galleries[a.galleryID]?.location)
        case .tour(let i):
            guard let t = app.tour(i), t.floor != nil else { return nil }
            return on(t.floor, t.location)
        }
    }
}

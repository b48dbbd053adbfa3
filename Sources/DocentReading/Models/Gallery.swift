/// A gallery: a room on a floor. Artworks are tied to it by its exact `title`.
public struct Gallery: Hashable, Sendable, Identifiable {
    public let id: Int
    /// The title as in the data, e.g. "Gallery 109"; artworks match on this text exactly.
    public let title: String
    /// What a visitor reads: the title without a leading "Gallery "/"Galleries ".
    public let displayTitle: String
    /// The Data Aggregator gallery id (used by exhibitions and live search), when known.
    public let galleryID: Int?
    public let closed: Bool
    public let location: LatLon
    public let floor: Floor

    public init(id: Int, title: String, galleryID: Int?, closed: Bool, location: LatLon, floor: Floor) {
        self.id = id
        self.title = title
        self.displayTitle = Gallery.displayTitle(for: title)
        self.galleryID = galleryID
        self.closed = closed
        self.location = location
        self.floor = floor
    }

    public static func displayTitle(for title: String) -> String {
        for prefix in ["Galleries ", "Gallery "] where title.hasPrefix(prefix) {
            let rest = title.dropFirst(prefix.count)
            if !rest.isEmpty { return String(rest) }
        }
        return title
    }
}

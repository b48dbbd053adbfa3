/// One keypad entry of an artwork: a number on its label and the audio it plays.
public struct Commentary: Hashable, Sendable {
    /// The keypad number, if this commentary is reachable from the keypad.
    public let selectorNumber: Int?
    public let audioID: Int
    public init(selectorNumber: Int?, audioID: Int) {
        self.selectorNumber = selectorNumber
        self.audioID = audioID
    }
}

/// An artwork ("object" in the data) that is on view in an open gallery.
public struct Artwork: Hashable, Sendable, Identifiable {
    public let id: Int
    public let title: String
    /// Artist, culture, place: one item per line.
    public let tombstone: String
    /// Credit line and copyright notice, joined by a blank line.
    public let credits: String
    public let galleryID: Int
    public let galleryTitle: String
    public let floor: Floor
    public let location: LatLon?
    /// The Data Aggregator artwork id, used to merge live search hits.
    public let collectionID: Int?
    public let imageURL: String?
    public let commentaries: [Commentary]

    public init(
        id: Int, title: String, tombstone: String, credits: String, galleryID: Int, galleryTitle: String,
        floor: Floor, location: LatLon?, collectionID: Int?, imageURL: String?, commentaries: [Commentary]
    ) {
        self.id = id
        self.title = title
        self.tombstone = tombstone
        self.credits = credits
        self.galleryID = galleryID
        self.galleryTitle = galleryTitle
        self.floor = floor
        self.location = location
        self.collectionID = collectionID
        self.imageURL = imageURL
        self.commentaries = commentaries
    }

    /// An artwork with no commentary is silent: it is listed and mapped, never "played".
    public var hasAudio: Bool { !commentaries.isEmpty }
    public var selectorNumbers: [Int] { commentaries.compactMap(\.selectorNumber) }
    /// The keypad numbers as a label shows them ("105", "105/106"); nil without one.
    public var keypadLabel: String? {
        let n = selectorNumbers
        return n.isEmpty ? nil : n.map(String.init).joined(separator: "/")
    }
}

/// Which dialect a document was written in.
public enum AppDataFormat: String, Hashable, Sendable {
    /// The first SampleData: objects with `audio` arrays, tours with `stops`.
    case v1
    /// The format the current AIC app reads (Drupal v2/v3 exports).
    case v2
    /// The newer Laravel CMS export: string ids, array `search_strings`, no general_info nid.
    case cms
}

/// Everything the guide knows about a museum, read from one appData document. Collections
/// are sorted deterministically (by id, `weight` or `sort`), never by JSON field order.
public struct AppData: Sendable, Equatable {
    public var format: AppDataFormat
    /// Where the document came from; relative URLs were resolved against it.
    public var source: String
    public var galleries: [Int: Gallery] = [:]
    public var artworks: [Int: Artwork] = [:]
    public var audioFiles: [Int: AudioFile] = [:]
    /// Sorted by weight, then id.
    public var tours: [Tour] = []
    public var tourCategories: [TourCategory] = []
    public var mapFloors: [MapFloor] = []
    public var annotations: [MapAnnotation] = []
    public var generalInfo: GeneralInfo = .empty
    public var endpoints = DataEndpoints()
    public var search = SearchSuggestions()
    public var messages: [Message] = []
    public var exhibitionOrder: [ExhibitionOrder] = []
    public var featuredTourIDs: [Int] = []
    public var featuredExhibitionIDs: [Int] = []
    /// Everything dropped, repaired or suspicious, in parse order.
    public var diagnostics: [Diagnostic] = []
    /// Keypad numbers → what they open.
    public var keypad = KeypadIndex()

    public init(format: AppDataFormat, source: String) {
        self.format = format
        self.source = source
    }

    public func tour(_ id: Int) -> Tour? { tours.first { $0.id == id } }

    /// Artworks sorted by id (a stable order for lists and tests).
    public var sortedArtworks: [Artwork] { artworks.values.sorted { $0.id < $1.id } }

    /// Languages that appear anywhere in the content, English first.
    public var contentLanguages: [Language] {
        var set: Set<Language> = [.english]
        for a in audioFiles.values { set.formUnion(a.translations.keys) }
        for t in tours { set.formUnion(t.translations.keys) }
        return set.sorted()
    }
}

/// Keypad numbers and what they open. Tours are checked before artworks; numbers compare as
/// integers. A number shared by several targets gives all of them, in a fixed order, so the
/// guide can offer a choice instead of picking arbitrarily (see DECISIONS.md).
public struct KeypadIndex: Sendable, Equatable {
    /// What a number can open.
    public enum Target: Hashable, Sendable {
        case tour(tourID: Int)
        case artwork(artworkID: Int, audioID: Int)
    }

    public private(set) var tours: [Int: [Int]] = [:]
    public private(set) var artworks: [Int: [Target]] = [:]

    public init() {}

    /// A finished index as it was saved (`PreparedMuseum`).
    init(tours: [Int: [Int]], artworks: [Int: [Target]]) {
        self.tours = tours
        self.artworks = artworks
    }

    mutating func addTour(number: Int, tourID: Int) {
        tours[number, default: []].append(tourID)
    }

    mutating func addArtwork(number: Int, artworkID: Int, audioID: Int) {
        artworks[number, default: []].append(.artwork(artworkID: artworkID, audioID: audioID))
    }

    /// Puts every list in its deterministic order: tours by the order given, artworks by id.
    mutating func finish(tourOrder: [Int]) {
        // In place, and only the lists that have more than one entry: nearly every number opens
        // one thing, and assigning each list again while iterating the dictionary copied the
        // whole dictionary and every list (issue 48: a tenth of a large museum's last phase).
        let rank = Dictionary(tourOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var t = tours.values.startIndex
        while t != tours.values.endIndex {
            if tours.values[t].count > 1 { tours.values[t].sort { (rank[$0] ?? .max, $0) < (rank[$1] ?? .max, $1) } }
            tours.values.formIndex(after: &t)
        }
        var a = artworks.values.startIndex
        while a != artworks.values.endIndex {
            if artworks.values[a].count > 1 {
                artworks.values[a].sort {
                    if case .artwork(let a, let aa) = $0, case .artwork(let b, let bb) = $1 { return (a, aa) < (b, bb) }
                    return false
                }
            }
            artworks.values.formIndex(after: &a)
        }
    }

    /// The maximum number of digits a visitor can type.
    public static let maxDigits = 5

    /// What the digits typed open: tours first, then artworks; empty if nothing matches.
    /// Leading zeros are ignored ("0101" is 101).
    public func lookup(_ digits: String) -> [Target] {
        guard !digits.isEmpty, digits.count <= Self.maxDigits, digits.allSatisfy(\.isASCII),
            let n = Int(digits)
        else { return [] }
        if let t = tours[n], !t.isEmpty { return t.map { .tour(tourID: $0) } }
        return artworks[n] ?? []
    }

    /// Numbers that open more than one thing.
    public var sharedNumbers: [Int] {
        let all = Set(tours.filter { $0.value.count > 1 }.keys).union(artworks.filter { $0.value.count > 1 }.keys)
        return all.sorted()
    }

    public var count: Int { Set(tours.keys).union(artworks.keys).count }
}

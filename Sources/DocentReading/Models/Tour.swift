/// Translatable text of a tour.
public struct TourText: Hashable, Sendable {
    public let title: String
    public let description: String
    public let intro: String
    public let duration: String?
    public init(title: String, description: String, intro: String, duration: String?) {
        self.title = title
        self.description = description
        self.intro = intro
        self.duration = duration
    }
}

/// One stop: an artwork, the audio played there, and the optional bumper that walks the
/// visitor to it (played at the end of the previous stop, or after the intro for stop 1).
public struct TourStop: Hashable, Sendable {
    public let sort: Int
    public let artworkID: Int
    public let audioID: Int
    public let bumperID: Int?
    public init(sort: Int, artworkID: Int, audioID: Int, bumperID: Int?) {
        self.sort = sort
        self.artworkID = artworkID
        self.audioID = audioID
        self.bumperID = bumperID
    }
}

/// A narrated tour: intro audio plus ordered stops.
public struct Tour: Hashable, Sendable, Identifiable {
    public let id: Int
    public let english: TourText
    public let translations: [Language: TourText]
    public let imageURL: String?
    public let introAudioID: Int
    public let weight: Int
    public let location: LatLon?
    public let floor: Floor?
    public let selectorNumber: Int?
    public let category: String?
    /// "FEATURED", "NEW" or nil.
    public let banner: String?
    /// Sorted by `sort` (stable).
    public let stops: [TourStop]

    public init(
        id: Int, english: TourText, translations: [Language: TourText], imageURL: String?, introAudioID: Int,
        weight: Int, location: LatLon?, floor: Floor?, selectorNumber: Int?, category: String?, banner: String?,
        stops: [TourStop]
    ) {
        self.id = id
        self.english = english
        self.translations = translations
        self.imageURL = imageURL
        self.introAudioID = introAudioID
        self.weight = weight
        self.location = location
        self.floor = floor
        self.selectorNumber = selectorNumber
        self.category = category
        self.banner = banner
        self.stops = stops
    }

    /// The text in `language`, falling back to English (per field, empty counts as missing).
    public func text(_ language: Language) -> (text: TourText, fellBack: Bool) {
        let language = language.content
        guard language != .english, let t = translations[language] else { return (english, language != .english) }
        let merged = TourText(
            title: t.title.isEmpty ? english.title : t.title,
            description: t.description.isEmpty ? english.description : t.description,
            intro: t.intro.isEmpty ? english.intro : t.intro,
            duration: (t.duration?.isEmpty ?? true) ? english.duration : t.duration)
        return (merged, t.title.isEmpty || t.description.isEmpty)
    }
}

/// A tour category, used to group "all tours" when every tour has one.
public struct TourCategory: Hashable, Sendable {
    public let id: Int
    public let name: String
    public let translations: [Language: String]
    public init(id: Int, name: String, translations: [Language: String]) {
        self.id = id
        self.name = name
        self.translations = translations
    }

    public func name(_ language: Language) -> String {
        if let n = translations[language.content], !n.isEmpty { return n }
        return name
    }
}

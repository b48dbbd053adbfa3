/// The museum's own texts (hours, section titles, facility cards), per language.
public struct GeneralInfo: Hashable, Sendable {
    /// The known keys, in display order.
    public static let keys = [
        "museum_hours", "home_member_prompt_text", "see_all_tours_intro", "audio_title", "audio_subtitle",
        "map_title", "map_subtitle", "info_title", "info_subtitle", "gift_shops_title", "gift_shops_text",
        "members_lounge_title", "members_lounge_text", "restrooms_title", "restrooms_text",
    ]

    public let english: [String: String]
    public let translations: [Language: [String: String]]

    public init(english: [String: String], translations: [Language: [String: String]]) {
        self.english = english
        self.translations = translations
    }

    public static let empty = GeneralInfo(english: [:], translations: [:])

    /// The text for `key` in `language`: that language's record if it exists (an empty string
    /// there is kept as empty, as the AIC app does), else English, else nil.
    public func text(_ key: String, _ language: Language) -> (text: String, fellBack: Bool)? {
        let language = language.content
        if language != .english, let record = translations[language], let t = record[key] {
            return (t, false)
        }
        guard let t = english[key] else { return nil }
        return (t, language != .english && translations[language] == nil)
    }
}

/// The Data Aggregator settings: where live exhibitions, events and search come from.
public struct DataEndpoints: Hashable, Sendable {
    public var imageServerURL: String?
    public var dataAPIURL: String?
    public var exhibitionsEndpoint: String?
    public var eventsEndpoint: String?
    public var autocompleteEndpoint: String?
    public var multisearchEndpoint: String?
    public var artworksEndpoint: String?
    public var toursEndpoint: String?
    public var membershipURL: String?
    public var websiteURL: String?
    public var ticketsURL: String?

    public init() {}
}

/// A message shown after launch or after leaving a tour.
public struct Message: Hashable, Sendable, Identifiable {
    public enum Kind: Hashable, Sendable {
        case launch
        case tourExit(tourID: Int)
        case memberExpiration(thresholdSeconds: Int)
    }

    public struct Text: Hashable, Sendable {
        public let title: String
        public let body: String
        public let actionTitle: String?
        public init(title: String, body: String, actionTitle: String?) {
            self.title = title
            self.body = body
            self.actionTitle = actionTitle
        }
    }

    public let id: Int
    public let kind: Kind
    public let persistent: Bool
    public let english: Text
    public let translations: [Language: Text]
    public let actionURL: String?

    public init(id: Int, kind: Kind, persistent: Bool, english: Text, translations: [Language: Text], actionURL: String?) {
        self.id = id
        self.kind = kind
        self.persistent = persistent
        self.english = english
        self.translations = translations
        self.actionURL = actionURL
    }

    public func text(_ language: Language) -> Text { translations[language.content] ?? english }
}

/// The CMS's curation of live exhibitions: their order and optional image override.
public struct ExhibitionOrder: Hashable, Sendable {
    public let exhibitionID: Int
    public let sort: Int
    public let imageURL: String?
    public init(exhibitionID: Int, sort: Int, imageURL: String?) {
        self.exhibitionID = exhibitionID
        self.sort = sort
        self.imageURL = imageURL
    }
}

/// Search suggestions shown before the visitor types.
public struct SearchSuggestions: Hashable, Sendable {
    public var strings: [String]
    public var artworkIDs: [Int]
    public init(strings: [String] = [], artworkIDs: [Int] = []) {
        self.strings = strings
        self.artworkIDs = artworkIDs
    }
}

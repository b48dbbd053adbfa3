import Foundation

/// The loaded museum, shared by reference: state copies stay cheap and compare by identity.
public final class Museum: Equatable, @unchecked Sendable {
    public let data: AppData
    public init(_ data: AppData) { self.data = data }
    public static func == (a: Museum, b: Museum) -> Bool { a === b }
}

/// Where the appData stands.
public enum DocumentState: Equatable, Sendable {
    case loading(source: String)
    case ready(Museum)
    case failed(String)
}

/// A one-line notice in the status bar. Its words are a `Phrase`, put into the current
/// language when drawn, so a language change reaches a banner already on screen.
public struct Banner: Equatable, Sendable {
    public enum Level: Equatable, Sendable { case info, warning, error }
    public var phrase: Phrase
    public var level: Level
    public init(_ phrase: Phrase, level: Level = .info) {
        self.phrase = phrase
        self.level = level
    }

    /// The banner's words in `strings`' language.
    public func text(_ strings: Strings) -> String { phrase.text(strings) }

    /// How long the banner stays before the key hints come back (issue 47 #1): long enough to
    /// read a sentence twice; a warning or an error, which may need acting on, longer. Every
    /// banner stays reachable afterwards in help's "Recent messages" (`AppState.recentBanners`).
    public var lifetimeMilliseconds: Int {
        switch level {
        case .info: return 10_000
        case .warning: return 20_000
        case .error: return 30_000
        }
    }
}

/// Something drawn over the current screen that takes the keys until dismissed.
public enum Overlay: Equatable, Sendable {
    /// The keys of the current screen; also the first-run introduction.
    case help(firstRun: Bool)
    /// Choose the UI language; `selection` indexes `StringCatalog.languages`.
    case languagePicker(selection: Int)
    /// A launch or tour-exit message from the museum.
    case message(id: Int)
    /// One of a feature's own boxes (`Feature.Overlay`).
    case feature(FeatureValue)
}

/// What survives a restart (stored in SQLite by the app layer).
public struct PersistedSettings: Equatable, Sendable {
    public var language: Language?
    public var lastTab: Tab
    public var seenMessageIDs: Set<Int>
    public var locationEnabled: Bool
    public var introSeen: Bool
    /// What each feature keeps (its own storage in the shell reads and writes it).
    public var saves: FeatureSaves
    /// Saved values that could not be read and were left out (a damaged or hand-edited
    /// database); said in a banner at start, never saved.
    public var skippedValues = 0

    public init(language: Language? = nil, lastTab: Tab = .home, seenMessageIDs: Set<Int> = [], locationEnabled: Bool = true, introSeen: Bool = false, saves: FeatureSaves = FeatureSaves()) {
        self.saves = saves
        self.language = language
        self.lastTab = lastTab
        self.seenMessageIDs = seenMessageIDs
        self.locationEnabled = locationEnabled
        self.introSeen = introSeen
    }
}

/// Everything on screen is a function of this value.
public struct AppState: Equatable, Sendable {
    public var document: DocumentState
    /// A note about where the document came from ("offline: using the copy from …").
    public var documentNote: Phrase?
    public var catalog: StringCatalog
    public var language: Language
    /// The language the guide starts in when the visitor chose none (`--lang`, the
    /// configuration, the locale of the environment, else English); starting over returns to it.
    public var defaultLanguage: Language
    /// The language the visitor chose (the picker, or a choice restored from an earlier run);
    /// nil: none. Only a choice is saved, so a guide started under another locale follows
    /// that locale, and `--lang` for one run does not replace the visitor's choice.
    public var chosenLanguage: Language?
    public var tab: Tab = .home
    public var tabs: [Tab] = Tab.available
    /// One navigation stack per tab.
    public var stacks: [Tab: [Page]] = [:]
    public var overlay: Overlay?
    /// Messages still to show, in order.
    public var messageQueue: [Int] = []
    public var seenMessageIDs: Set<Int> = []
    public var locationEnabled = true
    public var introSeen = false
    public var banner: Banner?
    /// The banners shown since the visitor came, newest first (at most `recentBannerLimit`):
    /// help lists them, so a message gone from the bottom line can still be read whole.
    public var recentBanners: [Banner] = []
    public static let recentBannerLimit = 8
    public var now: Date
    /// Rows available to a list or text (set by the UI from the terminal size; used for paging).
    public var viewportRows = 10
    /// Columns available to text (for wrapping when bounding scroll).
    public var viewportWidth = 78
    public var quitting = false
    /// The features of this guide (the registry), and each one's own state.
    public let features: FeatureSet
    public var featureStates = FeatureStates()
    /// The configuration file's settings that belong to features (`key = "value"`), read
    /// by the features themselves at launch.
    public var config: [String: String] = [:]
    /// How far a text overlay (help) is scrolled.
    public var overlayScroll = 0
    /// The machine's zone (UTC in tests): for the visitor's own instants (when a card was
    /// checked) when no museum zone is configured; never for what the museum dated.
    public var timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!
    /// The museum's zone (`time_zone` in the configuration, an IANA name); nil: events and
    /// exhibitions show in the offsets the museum wrote them with.
    public var museumTimeZone: TimeZone?
    /// Where the museum's data comes from (`--data`), named when it cannot be used.
    public let source: String
    /// The state's clock when the museum began to load: the loading page counts from it (the
    /// loop ticks every second while loading).
    public var loadingSince: Date

    public init(source: String, catalog: StringCatalog, language: Language = .english, now: Date, features: FeatureSet) {
        self.features = features
        self.source = source
        document = .loading(source: source)
        self.catalog = catalog
        self.language = language
        self.defaultLanguage = language
        self.now = now
        loadingSince = now
    }

    public var strings: Strings { catalog.strings(for: language) }

    /// Whether a frame drawn from this state would be the frame drawn from `other`: equal but
    /// for what features keep for themselves (`Feature.drawsAlike`).
    public func drawsLike(_ other: AppState) -> Bool {
        guard featureStates.drawsAlike(other.featureStates) else { return false }
        var a = self
        a.featureStates = other.featureStates
        return a == other
    }

    public var museum: AppData? {
        if case .ready(let m) = document { return m.data }
        return nil
    }

    /// The page on top of the current tab's stack.
    public var page: Page {
        get { stacks[tab]?.last ?? Page(Route.root(of: tab)) }
        set {
            var s = stacks[tab] ?? [Page(Route.root(of: tab))]
            if s.isEmpty { s = [newValue] } else { s[s.count - 1] = newValue }
            stacks[tab] = s
        }
    }

    public var depth: Int { stacks[tab]?.count ?? 1 }

    /// The languages a visitor can ask a commentary in (the UI languages).
    /// The content languages a recording or tour can be asked in: the interface languages as
    /// content (both Chinese tables ask for the data's one Chinese), each once.
    public var audioLanguages: [Language] {
        var out: [Language] = []
        for l in catalog.languages.map(\.content) where !out.contains(l) { out.append(l) }
        return out
    }

    public var settings: PersistedSettings {
        var saves = FeatureSaves()
        for f in features.all { if let v = f.saved(self) { saves.values[f.id] = v } }
        return PersistedSettings(language: chosenLanguage, lastTab: tab, seenMessageIDs: seenMessageIDs, locationEnabled: locationEnabled, introSeen: introSeen, saves: saves)
    }
}

import Foundation
/// Where user state lives between runs (SQLite in the live app, memory in tests).
public protocol SettingsStoring: AnyObject {
    /// The saved settings, nil on a first run, or why they could not be read.
    func load() -> Result<PersistedSettings?, LoadFailure>
    /// Saves the settings; a failure is reported once as a banner, never fatal.
    func save(_ settings: PersistedSettings) -> Result<Void, LoadFailure>
}

/// The last good copy of a remote appData, so the guide can start offline.
public struct CachedDocument: Equatable, Sendable {
    public var body: [UInt8]
    public var etag: String?
    public var lastModified: String?
    /// When it was fetched (seconds since 1970), for the "offline copy from …" note.
    public var fetchedAt: Double

    public init(body: [UInt8], etag: String?, lastModified: String?, fetchedAt: Double) {
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
    }
}

/// Stores the last good copy of each remote document by URL.
public protocol DocumentCaching: Sendable {
    func cached(for url: String) -> CachedDocument?
    func store(_ doc: CachedDocument, for url: String)
}

/// Which copy of a local appData a prepared museum must have been made from: the program, the
/// read options and the file as it is now (device, inode, size, modification and change times),
/// all in `identity`. Taken before the file is read, so a copy is stamped with what was read.
public struct PreparedTicket: Hashable, Sendable {
    public var source: String
    public var identity: String
    public init(source: String, identity: String) {
        self.source = source
        self.identity = identity
    }
}

/// Prepared copies of museums read from local files (issue 14): a second start of the same
/// document opens the copy instead of parsing the appData, and never when the file changed.
public protocol PreparedCopying: Sendable {
    /// The ticket for `source` as it is now; nil when it is not a local file or cannot be examined.
    func ticket(for source: String, options: ReadOptions) -> PreparedTicket?
    /// The museum prepared for exactly this ticket, or nil (none, stale, damaged).
    func open(_ ticket: PreparedTicket) -> AppData?
    /// Keeps `app`, read under `ticket`, for the next start (best effort, after the museum is
    /// shown): not when the file changed meanwhile or so recently that a change in the same
    /// clock tick could go unseen.
    func save(_ app: AppData, for ticket: PreparedTicket)
}

/// The configuration file's settings (the AIC app's Config.plist keys), before flags.
public struct DocentConfig: Equatable, Sendable {
    /// appData location: a path or URL.
    public var dataSource: String?
    /// The features' own keys (see `Feature.configKeys`), as written.
    public var features: [String: String]
    /// Print dropped records at start (to the log), like the seed's printDataErrors.
    public var printDataErrors: Bool
    /// The v1 internal→external URL prefix rewrite.
    public var rewrite: URLResolver.Rewrite?
    /// The default UI language.
    public var language: Language?
    /// OSC 8 hyperlinks: auto (by terminal), always or never; nil: not set.
    public var hyperlinks: HyperlinkMode?
    /// The museum's time zone (`time_zone`, an IANA name such as "America/Chicago").
    public var timeZone: TimeZone?

    public init(dataSource: String? = nil, features: [String: String] = [:], printDataErrors: Bool = false, rewrite: URLResolver.Rewrite? = nil, language: Language? = nil, hyperlinks: HyperlinkMode? = nil) {
        self.dataSource = dataSource
        self.features = features
        self.printDataErrors = printDataErrors
        self.rewrite = rewrite
        self.language = language
        self.hyperlinks = hyperlinks
    }
}

/// Whether to make URLs clickable with OSC 8 escapes: decided from the terminal (`auto`), or
/// forced by the user.
public enum HyperlinkMode: String, Equatable, Sendable, CaseIterable {
    case auto, always, never

    /// Accepts auto/always/never and the usual on/off spellings (1, yes, true, on; 0, no,
    /// false, off); nil for anything else.
    public init?(parsing text: String) {
        switch String(text.filter { !$0.isWhitespace }).lowercased() {
        case "auto": self = .auto
        case "always", "on", "yes", "true", "1": self = .always
        case "never", "off", "no", "false", "0": self = .never
        default: return nil
        }
    }
}

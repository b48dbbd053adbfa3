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

/// The configuration file's settings (the AIC app's Config.plist keys), before flags.
public struct DocentConfig: Equatable, Sendable {
    /// appData location: a path or URL.
    public var dataSource: String?
    /// Member card SOAP endpoint (unused until the member card lands).
    public var memberCardURL: String?
    /// Print dropped records at start (to the log), like the seed's printDataErrors.
    public var printDataErrors: Bool
    /// The v1 internal→external URL prefix rewrite.
    public var rewrite: URLResolver.Rewrite?
    /// The default UI language.
    public var language: Language?

    public init(dataSource: String? = nil, memberCardURL: String? = nil, printDataErrors: Bool = false, rewrite: URLResolver.Rewrite? = nil, language: Language? = nil) {
        self.dataSource = dataSource
        self.memberCardURL = memberCardURL
        self.printDataErrors = printDataErrors
        self.rewrite = rewrite
        self.language = language
    }
}

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
    /// `CachedValidators.fingerprint(body)` when the cache already knows it (nil: work it out).
    public var fingerprint: String?

    public init(body: [UInt8], etag: String?, lastModified: String?, fetchedAt: Double, fingerprint: String? = nil) {
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.fingerprint = fingerprint
    }
}

/// A cached copy without its body: what revalidating it needs, and what names its bytes for a
/// prepared copy (`fingerprint`: its size and checksum).
public struct CachedValidators: Equatable, Sendable {
    public var etag: String?
    public var lastModified: String?
    public var fetchedAt: Double
    public var fingerprint: String

    public init(etag: String?, lastModified: String?, fetchedAt: Double, fingerprint: String) {
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.fingerprint = fingerprint
    }

    /// "bytes=<count> fnv1a64=<16 hex digits>" of a body.
    public static func fingerprint(_ body: [UInt8]) -> String {
        "bytes=\(body.count) fnv1a64=" + FNV1a.hex64(body)
    }
}

/// Stores the last good copy of each remote document by URL.
public protocol DocumentCaching: Sendable {
    func cached(for url: String) -> CachedDocument?
    func store(_ doc: CachedDocument, for url: String)
    /// The validators of the copy for `url`, without reading its body.
    func validators(for url: String) -> CachedValidators?
    /// Where the saved body for `url` is a file of its own (nil: nowhere, or not a file), so a
    /// download just saved can be read from there, mapped, instead of from memory (issue 14).
    func savedBodyPath(for url: String) -> String?
    /// A new file for a download of `url` to be written into as it arrives (issue 30), on the
    /// same file system as the saved copy so `adopt` can rename it; nil: this cache keeps no
    /// files (the download then comes whole into memory, as `store` takes it).
    func stagingPath(for url: String) -> String?
    /// Makes the finished download in `staged` (`saved` says its length and checksum) the
    /// saved copy of `url`, with its validators; false when it could not (the file is gone).
    func adopt(_ staged: String, saved: SavedBody, etag: String?, lastModified: String?, fetchedAt: Double, for url: String) -> Bool
    /// Removes a staging file that is not adopted (a 304, a failure).
    func discard(_ staged: String)
}

extension DocumentCaching {
    public func savedBodyPath(for url: String) -> String? { nil }
    public func stagingPath(for url: String) -> String? { nil }
    public func adopt(_ staged: String, saved: SavedBody, etag: String?, lastModified: String?, fetchedAt: Double, for url: String) -> Bool { false }
    public func discard(_ staged: String) {}

    /// Worked out from the whole copy (a cache that keeps them apart answers without the body).
    public func validators(for url: String) -> CachedValidators? {
        guard let c = cached(for: url) else { return nil }
        return CachedValidators(etag: c.etag, lastModified: c.lastModified, fetchedAt: c.fetchedAt, fingerprint: c.fingerprint ?? CachedValidators.fingerprint(c.body))
    }
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

/// Prepared copies of museums (issue 14), read from local files or saved downloads: a second start of the same
/// document opens the copy instead of parsing the appData, and never when the file changed.
public protocol PreparedCopying: Sendable {
    /// The ticket for `source` as it is now; nil when it is not a local file or cannot be examined.
    func ticket(for source: String, options: ReadOptions) -> PreparedTicket?
    /// The ticket for a downloaded appData whose saved body has `fingerprint`.
    func ticket(forRemote url: String, fingerprint: String, options: ReadOptions) -> PreparedTicket?
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
    /// The terminal's background (`background`): read from the terminal, or forced.
    public var background: BackgroundSetting?

    public init(dataSource: String? = nil, features: [String: String] = [:], printDataErrors: Bool = false, rewrite: URLResolver.Rewrite? = nil, language: Language? = nil, hyperlinks: HyperlinkMode? = nil) {
        self.dataSource = dataSource
        self.features = features
        self.printDataErrors = printDataErrors
        self.rewrite = rewrite
        self.language = language
        self.hyperlinks = hyperlinks
    }
}

/// Which colours suit the terminal (issue 47 #3): those for a dark or a light background,
/// read from the terminal (`auto`: `COLORFGBG`, then the terminal's answer to OSC 11), or forced.
public enum BackgroundSetting: String, Equatable, Sendable, CaseIterable {
    case auto, light, dark

    public init?(parsing text: String) {
        guard let s = BackgroundSetting(rawValue: String(text.filter { !$0.isWhitespace }).lowercased()) else { return nil }
        self = s
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

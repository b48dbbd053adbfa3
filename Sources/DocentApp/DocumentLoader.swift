import DocentCore
import Foundation

/// Fetches and reads an appData: a file directly; an http(s) URL revalidated against the
/// cached copy (ETag / Last-Modified), falling back to that copy when offline.
///
/// The clock and the time zone come from the caller (a pure target reads neither): `now` stamps
/// a fresh copy, `timeZone` shows when the offline copy was saved, with its abbreviation so a
/// UTC default is never taken for local time. The adapter passes the user's zone.
public enum DocumentLoader {
    public static let utc = TimeZone(secondsFromGMT: 0)!

    /// `log` hears the detail behind a plain note (the URL, libcurl's words) for the log file.
    ///
    /// A prepared copy (issue 14) is opened instead of parsing when it was made from exactly
    /// what would be read: for a local file, the file as it is now; for an http(s) URL, the
    /// cached body the server just confirmed (304) or the offline copy. Otherwise the document
    /// is parsed and a copy is made for the next start, handed to `later` (work that can wait
    /// until the museum is on screen; done at once without it).
    public static func load(
        source: String, fetcher: any Fetching, cache: DocumentCaching?, prepared: (any PreparedCopying)? = nil, options: ReadOptions, now: Date,
        timeZone: TimeZone = utc, log: (String) -> Void = { _ in }, handOff: ((JSON) -> Void)? = nil,
        later: ((@escaping @Sendable () -> Void) -> Void)? = nil
    ) -> (Result<Museum, LoadFailure>, Phrase?) {
        let isHTTP = source.hasPrefix("http://") || source.hasPrefix("https://")
        // Taken before the file is read: a copy is stamped with what was read, never newer.
        var ticket = isHTTP ? nil : prepared?.ticket(for: source, options: options)
        if let ticket, let app = prepared?.open(ticket) {
            log("museum data \(source): opened the copy prepared from this file")
            return (.success(Museum(app)), nil)
        }
        // The cached copy's validators only: its body is read when it is needed.
        let validators = isHTTP ? cache?.validators(for: source) : nil
        /// The copy prepared from the cached body, if there is one.
        func preparedFromCache() -> AppData? {
            guard let validators, let prepared,
                let t = prepared.ticket(forRemote: source, fingerprint: validators.fingerprint, options: options),
                let app = prepared.open(t)
            else { return nil }
            log("museum data \(source): opened the copy prepared from the saved download")
            return app
        }
        /// The cached body, and the ticket a copy prepared from it would carry.
        func cachedBody() -> CachedDocument? {
            guard let c = cache?.cached(for: source) else { return nil }
            ticket = prepared?.ticket(forRemote: source, fingerprint: c.fingerprint ?? CachedValidators.fingerprint(c.body), options: options)
            return c
        }
        var request = FetchRequest(url: source, timeoutSeconds: 30)
        request.etag = validators?.etag
        request.lastModified = validators?.lastModified
        var note: Phrase?
        // A large local file is mapped, not read: the reader lets its pages go as it passes them.
        if !isHTTP, let mapped = fetcher.mapDocument(source, maxBytes: request.maxBytes) {
            switch mapped {
            case .success(let document): return read(document, source: source, options: options, ticket: ticket, prepared: prepared, note: nil, handOff: handOff, later: later)
            case .failure(let e): return (.failure(LoadFailure(e.description)), nil)
            }
        }
        var bytes: [UInt8]
        /// A download just saved, read from the cache's file rather than from memory.
        var saved: JSONBytes?
        switch fetchDocument(request, fetcher: fetcher, cache: isHTTP ? cache : nil, now: now) {
        case .success(let r) where r.status == 304:
            if let app = preparedFromCache() { return (.success(Museum(app)), nil) }
            bytes = cachedBody()?.body ?? r.body
        case .success(let r):
            bytes = r.body
            if isHTTP {
                // A download streamed to the cache's file is saved already (`fetchDocument`).
                if r.saved == nil {
                    cache?.store(CachedDocument(body: r.body, etag: r.etag, lastModified: r.lastModified, fetchedAt: now.timeIntervalSince1970), for: source)
                }
                let size = r.saved?.bytes ?? r.body.count
                // Prepared only when the cache now holds exactly this body.
                if let v = cache?.validators(for: source), v.etag == r.etag, v.lastModified == r.lastModified,
                    v.fingerprint.hasPrefix("bytes=\(size) ")
                {
                    ticket = prepared?.ticket(forRemote: source, fingerprint: v.fingerprint, options: options)
                    // Then it is read from there, mapped, and the download lets go of its memory
                    // before the museum is built (a large one: as a local file is read).
                    if let path = cache?.savedBodyPath(for: source), case .success(let mapped)? = fetcher.mapDocument(path, maxBytes: request.maxBytes),
                        mapped.count == size
                    {
                        saved = mapped
                        bytes = []
                    }
                }
                // Streamed but not mapped (a small file): the saved body, checked, as after a 304.
                if r.saved != nil, saved == nil {
                    guard let c = cachedBody() else { return (.failure(LoadFailure("\(source): the download could not be read back from the cache")), nil) }
                    bytes = c.body
                }
            }
        case .failure(let e):
            guard let validators else { return (.failure(LoadFailure(e.description)), nil) }
            log("museum data \(source): \(e.description); using the copy saved earlier")
            let when = Date(timeIntervalSince1970: validators.fetchedAt)
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = timeZone
            f.dateFormat = "yyyy-MM-dd HH:mm zzz"
            // The reason in a plain sentence; the detail went to `log`.
            note = .key(.bannerOfflineCopy, ["date": .verbatim(f.string(from: when)), "reason": FetchProblem(e).phrase])
            if let app = preparedFromCache() { return (.success(Museum(app)), note) }
            guard let c = cachedBody() else { return (.failure(LoadFailure(e.description)), nil) }
            bytes = c.body
        }
        if let saved { return read(saved, source: source, options: options, ticket: ticket, prepared: prepared, note: note, handOff: handOff, later: later) }
        // The bytes go to the reader (`consume`): it lets them go once parsed, so the file and
        // the whole museum are not in memory at once.
        return read(JSONBytes(bytes), source: source, options: options, ticket: ticket, prepared: prepared, note: note, handOff: handOff, later: later)
    }

    /// The request's answer. Over http(s) with a cache that keeps files, the body is written to
    /// a staging file as it arrives and, once whole, becomes the saved copy (`saved` set, `body`
    /// empty): a large museum's download is never whole in memory (issue 30). Otherwise, or
    /// when that file cannot be made the copy, the body comes whole into memory as before.
    private static func fetchDocument(_ request: FetchRequest, fetcher: any Fetching, cache: DocumentCaching?, now: Date) -> Result<FetchResponse, FetchError> {
        guard let cache, let staged = cache.stagingPath(for: request.url), let answer = fetcher.download(request, to: staged) else {
            return fetcher.fetch(request)
        }
        guard case .success(let r) = answer, r.status != 304, let body = r.saved else {
            cache.discard(staged)
            return answer
        }
        if cache.adopt(staged, saved: body, etag: r.etag, lastModified: r.lastModified, fetchedAt: now.timeIntervalSince1970, for: request.url) {
            return answer
        }
        return fetcher.fetch(request)
    }

    private static func read(
        _ document: JSONBytes, source: String, options: ReadOptions, ticket: PreparedTicket?, prepared: (any PreparedCopying)?, note: Phrase?,
        handOff: ((JSON) -> Void)?, later: ((@escaping @Sendable () -> Void) -> Void)?
    ) -> (Result<Museum, LoadFailure>, Phrase?) {
        switch AppDataReader.read(document, source: source, options: options, handOff: handOff) {
        case .success(let app):
            if let ticket, let prepared {
                let work: @Sendable () -> Void = { prepared.save(app, for: ticket) }
                if let later { later(work) } else { work() }
            }
            return (.success(Museum(app)), note)
        case .failure(let e): return (.failure(LoadFailure(e.description)), note)
        }
    }
}

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
        // A large local file is mapped, not read: the reader lets its pages go as it passes them.
        if !isHTTP, let mapped = fetcher.mapDocument(source, maxBytes: request.maxBytes) {
            switch mapped {
            case .success(let document): return read(document, source: source, options: options, ticket: ticket, prepared: prepared, note: nil, handOff: handOff, later: later)
            case .failure(let e): return (.failure(LoadFailure(e.description)), nil)
            }
        }
        /// The copy saved earlier, because `reason`: the note says when it was saved and why.
        func savedCopy(_ reason: FetchProblem, failure: LoadFailure) -> (Result<Museum, LoadFailure>, Phrase?) {
            guard let validators else { return (.failure(failure), nil) }
            let when = Date(timeIntervalSince1970: validators.fetchedAt)
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = timeZone
            f.dateFormat = "yyyy-MM-dd HH:mm zzz"
            // The reason in a plain sentence; the detail went to `log`.
            let note = Phrase.key(.bannerOfflineCopy, ["date": .verbatim(f.string(from: when)), "reason": reason.phrase])
            if let app = preparedFromCache() { return (.success(Museum(app)), note) }
            guard let c = cachedBody() else { return (.failure(failure), nil) }
            return read(JSONBytes(c.body), source: source, options: options, ticket: ticket, prepared: prepared, note: note, handOff: handOff, later: later)
        }
        switch fetchDocument(request, fetcher: fetcher, cache: isHTTP ? cache : nil) {
        case .success((let r, _)) where r.status == 304:
            if let app = preparedFromCache() { return (.success(Museum(app)), nil) }
            let body = cachedBody()?.body ?? r.body  // sets `ticket` for the saved body
            return read(JSONBytes(body), source: source, options: options, ticket: ticket, prepared: prepared, note: nil, handOff: handOff, later: later)
        case .success((let r, let staged)):
            guard isHTTP else {
                // The bytes go to the reader (`consume`): it lets them go once parsed, so the
                // file and the whole museum are not in memory at once.
                return read(JSONBytes(r.body), source: source, options: options, ticket: ticket, prepared: prepared, note: nil, handOff: handOff, later: later)
            }
            // A fresh answer replaces the saved copy only once it has been read whole as a
            // museum (issue 45: one 200 "Maintenance" page destroyed the last good copy, and the
            // outage after it had nothing to fall back on).
            let fresh: (Result<Museum, LoadFailure>, Phrase?)
            if let staged, let body = r.saved {
                // Streamed to a file of its own: read from there, mapped; made the saved copy by
                // rename once read (the mapping stays valid across the rename).
                let fingerprint = "bytes=\(body.bytes) fnv1a64=" + FNV1a.hex(body.fnv1a64)
                ticket = prepared?.ticket(forRemote: source, fingerprint: fingerprint, options: options)
                fresh = read(staged, source: source, options: options, ticket: ticket, prepared: prepared, note: nil, handOff: handOff, later: later) {
                    cache?.adopt(staged.path, saved: body, etag: r.etag, lastModified: r.lastModified, fetchedAt: now.timeIntervalSince1970, for: source) == true
                }
                if case .failure = fresh.0 { cache?.discard(staged.path) }
            } else {
                // Whole in memory (a cache that keeps no files): stored once read. The reader
                // cannot let these bytes go while they are still to be stored.
                let body = r.body
                ticket = prepared?.ticket(forRemote: source, fingerprint: CachedValidators.fingerprint(body), options: options)
                fresh = read(JSONBytes(r.body), source: source, options: options, ticket: ticket, prepared: prepared, note: nil, handOff: handOff, later: later) {
                    cache?.store(CachedDocument(body: body, etag: r.etag, lastModified: r.lastModified, fetchedAt: now.timeIntervalSince1970), for: source)
                    return cache?.validators(for: source)?.fingerprint == CachedValidators.fingerprint(body)
                }
            }
            guard case .failure(let failure) = fresh.0, validators != nil else { return fresh }
            log("museum data \(source): the answer cannot be read (\(failure.description)); using the copy saved earlier")
            ticket = nil
            return savedCopy(.unreadable, failure: failure)
        case .failure(let e):
            if validators != nil { log("museum data \(source): \(e.description); using the copy saved earlier") }
            return savedCopy(FetchProblem(e), failure: LoadFailure(e.description))
        }
    }

    /// A download streamed to `path`, mapped for reading.
    struct Staged {
        var path: String
        var document: JSONBytes
    }

    /// The request's answer. Over http(s) with a cache that keeps files, the body is written to
    /// a staging file as it arrives (`saved` set, `body` empty) and mapped: a large museum's
    /// download is never whole in memory (issue 30). It becomes the saved copy only once read
    /// (`load`). Otherwise, or when that file cannot be mapped, the body comes whole into memory.
    private static func fetchDocument(_ request: FetchRequest, fetcher: any Fetching, cache: DocumentCaching?) -> Result<(FetchResponse, Staged?), FetchError> {
        guard let cache, let staged = cache.stagingPath(for: request.url), let answer = fetcher.download(request, to: staged) else {
            return fetcher.fetch(request).map { ($0, nil) }
        }
        guard case .success(let r) = answer, r.status != 304, let body = r.saved else {
            cache.discard(staged)
            return answer.map { ($0, nil) }
        }
        if case .success(let document)? = fetcher.mapDocument(staged, maxBytes: request.maxBytes), document.count == body.bytes {
            return .success((r, Staged(path: staged, document: document)))
        }
        // Too small to be mapped: read from the file (a local read, not the server again).
        if case .success(let local) = fetcher.fetch(FetchRequest(url: staged, timeoutSeconds: 30, maxBytes: request.maxBytes)),
            local.body.count == body.bytes
        {
            return .success((r, Staged(path: staged, document: JSONBytes(local.body))))
        }
        cache.discard(staged)
        return fetcher.fetch(request).map { ($0, nil) }
    }

    private static func read(
        _ staged: Staged, source: String, options: ReadOptions, ticket: PreparedTicket?, prepared: (any PreparedCopying)?, note: Phrase?,
        handOff: ((JSON) -> Void)?, later: ((@escaping @Sendable () -> Void) -> Void)?, keep: () -> Bool
    ) -> (Result<Museum, LoadFailure>, Phrase?) {
        read(staged.document, source: source, options: options, ticket: ticket, prepared: prepared, note: note, handOff: handOff, later: later, keep: keep)
    }

    private static func read(
        _ document: JSONBytes, source: String, options: ReadOptions, ticket: PreparedTicket?, prepared: (any PreparedCopying)?, note: Phrase?,
        handOff: ((JSON) -> Void)?, later: ((@escaping @Sendable () -> Void) -> Void)?, keep: () -> Bool = { true }
    ) -> (Result<Museum, LoadFailure>, Phrase?) {
        switch AppDataReader.read(document, source: source, options: options, handOff: handOff) {
        case .success(let app):
            // `keep` makes what was read the saved copy; a copy is prepared only from that.
            if keep(), let ticket, let prepared {
                let work: @Sendable () -> Void = { prepared.save(app, for: ticket) }
                if let later { later(work) } else { work() }
            }
            return (.success(Museum(app)), note)
        case .failure(let e): return (.failure(LoadFailure(e.description)), note)
        }
    }
}

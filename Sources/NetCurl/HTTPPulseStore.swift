import DocentCore
import Foundation

/// The guide's store for a Pulse service (`--pulse http://host:port`): each protocol call is
/// one HTTP request through libcurl (`Resources/pulse-openapi.yaml`, JSON by `PulseWire`), so the
/// feature does not change. Writes carry the ids the feature chose, so a retried call is the
/// same write on the service; `snapshot(… since:)` is a conditional GET (ETag = the version),
/// which costs an idle guide a 304.
///
/// The identity given to `register` is kept and used for the viewer's reads (own reactions,
/// own reports). The service loads its own seed (`docent-pulse serve --seed`), so
/// `seedIfEmpty` sends nothing. Blocking transfers run on a dispatch queue, never on a Swift
/// concurrency thread.
public final class HTTPPulseStore: PulseStore, @unchecked Sendable {
    public let baseURL: String
    private let fetcher: any Fetching
    private let timeoutSeconds: Double
    private let lock = NSLock()
    private var registered: VisitorCredentials?

    /// `baseURL` without a trailing slash, e.g. `http://pulse.museum.local:8080`.
    public init(baseURL: String, fetcher: any Fetching = CurlFetcher(connectTimeoutSeconds: 3), timeoutSeconds: Double = 10) {
        var b = baseURL
        while b.hasSuffix("/") { b.removeLast() }
        self.baseURL = b
        self.fetcher = fetcher
        self.timeoutSeconds = timeoutSeconds
    }

    // MARK: PulseStore

    public func register(_ credentials: VisitorCredentials) async throws(PulseStoreError) {
        let body = PulseWire.encode(.object(JSONObject([(key: "visitor", value: .string(credentials.visitor.rawValue)), (key: "secret", value: .string(credentials.secret))])))
        _ = try await call(.post, "/v1/visitors", body: body, auth: nil, ok: [200, 201])
        lock.withLock { registered = credentials }
    }

    public func snapshot(viewer: VisitorID?, dayStart: Date, since: PulseVersion?) async throws(PulseStoreError) -> PulseSnapshot? {
        let day = String(format: "%.3f", dayStart.timeIntervalSince1970)
        let r = try await call(.get, "/v1/snapshot?day_start=\(day)", auth: credentials(for: viewer), etag: since.map { "\"\($0.value)\"" }, ok: [200, 304])
        if r.status == 304 { return nil }
        return try decode { () throws(PulseWire.Problem) in try PulseWire.readSnapshot(r.body) }
    }

    public func notes(on subject: PulseSubject, viewer: VisitorID?) async throws(PulseStoreError) -> [PulseNote] {
        let r = try await call(.get, "/v1/notes?subject=\(Self.query(subject.key))", auth: credentials(for: viewer), ok: [200])
        return Self.capped(try decode { () throws(PulseWire.Problem) in try PulseWire.readNotes(r.body) })
    }

    /// The most notes of a subject the guide keeps from a service (the README's "newest 100",
    /// as a page of the embedded store).
    public static let maxNotes = 100

    /// A service's answer held to what the guide shows (issue 45: a hostile service's 24,000
    /// notes were all listed and a 7.8 MB note drawn whole): the newest `maxNotes`, in the
    /// service's order, each at most `NoteText.maxCells` cells (a longer one cut, with "…").
    public static func capped(_ notes: [PulseNote]) -> [PulseNote] {
        var kept = notes
        if notes.count > maxNotes {
            let newest = Set(notes.indices.sorted { notes[$0].createdAt > notes[$1].createdAt }.prefix(maxNotes))
            kept = notes.indices.filter(newest.contains).map { notes[$0] }
        }
        return kept.map { note in
            guard note.text.utf8.count > NoteText.maxCells, TextWidth.width(note.text) > NoteText.maxCells else { return note }
            var text = ""
            var cells = 0
            for ch in note.text {
                let w = TextWidth.width(String(ch))
                if cells + w > NoteText.maxCells - 1 { break }
                text.append(ch)
                cells += w
            }
            return PulseNote(
                id: note.id, subject: note.subject, language: note.language, text: NoteText.normalise(text) + "…", createdAt: note.createdAt,
                author: note.author, counts: note.counts, reports: note.reports, decision: note.decision)
        }
    }

    public func react(_ value: ReactionValue?, on subject: PulseSubject, as credentials: VisitorCredentials) async throws(PulseStoreError) -> PulseCounts {
        let path = "/v1/reactions/\(subject.key)"
        let r: FetchResponse
        if let value {
            r = try await call(.put, path, body: PulseWire.encode(PulseWire.reactionBody(value)), auth: credentials, ok: [200])
        } else {
            // Nothing to withdraw (a retry of a withdrawal that went through): the counts as they are.
            r = try await call(.delete, path, auth: credentials, ok: [200, 404])
            if r.status == 404 {
                guard (try? JSONParser.parse(r.body, maxDepth: 4))?["code"]?.stringValue == "no_reaction" else {
                    throw PulseWire.storeError(status: 404, body: r.body)
                }
                let s = try await call(.get, "/v1/subjects/\(subject.key)", auth: nil, ok: [200])
                return try decode { () throws(PulseWire.Problem) in try PulseWire.readCounts(try? JSONParser.parse(s.body, maxDepth: 4)) }
            }
        }
        return try decode { () throws(PulseWire.Problem) in try PulseWire.readCounts(try? JSONParser.parse(r.body, maxDepth: 4)) }
    }

    public func post(_ draft: NoteDraft, as credentials: VisitorCredentials) async throws(PulseStoreError) -> PostOutcome {
        let r = try await call(.post, "/v1/notes", body: PulseWire.encode(PulseWire.draftBody(draft)), auth: credentials, ok: [200, 201])
        let note = try decode { () throws(PulseWire.Problem) -> PulseNote in
            guard let json = try? JSONParser.parse(r.body, maxDepth: 8) else { throw PulseWire.Problem("the answer is not JSON") }
            return try PulseWire.readNote(json)
        }
        return r.status == 201 ? .created(note) : .alreadyStored(note)
    }

    public func report(_ note: NoteID, _ reported: Bool, as credentials: VisitorCredentials) async throws(PulseStoreError) {
        _ = try await call(reported ? .put : .delete, "/v1/reports/\(note.key)", auth: credentials, ok: [200])
    }

    public func deleteOwnNote(_ note: NoteID, as credentials: VisitorCredentials) async throws(PulseStoreError) {
        let r = try await call(.delete, "/v1/notes/\(note.key)", auth: credentials, ok: [204, 404])
        // The service's 404 names no note: it is this one, not there (or not this visitor's).
        if r.status == 404 { throw .noSuchNote(note) }
    }

    public func recordPlay(_ subject: PulseSubject) async throws(PulseStoreError) {
        _ = try await call(.post, "/v1/plays/\(subject.key)", body: [], auth: nil, ok: [204])
    }

    public func seedIfEmpty(_ seed: PulseSeed) async throws(PulseStoreError) -> Bool { false }

    // MARK: Transfers

    private func credentials(for viewer: VisitorID?) -> VisitorCredentials? {
        guard let viewer else { return nil }
        return lock.withLock { registered?.visitor == viewer ? registered : nil }
    }

    private func call(
        _ method: FetchRequest.Method, _ path: String, body: [UInt8]? = nil, auth: VisitorCredentials?, etag: String? = nil, ok: Set<Int>
    ) async throws(PulseStoreError) -> FetchResponse {
        var headers = ["Accept": "application/json"]
        if let auth { headers["Authorization"] = "Bearer \(auth.visitor.rawValue).\(auth.secret)" }
        let request = FetchRequest(
            url: baseURL + path, method: method, body: body, headers: headers, etag: etag, timeoutSeconds: timeoutSeconds, maxBytes: 8 << 20, errorBodies: true)
        let fetcher = self.fetcher
        let result: Result<FetchResponse, FetchError> = await withCheckedContinuation { done in
            DispatchQueue.global().async { done.resume(returning: fetcher.fetch(request)) }
        }
        switch result {
        case .failure(let e):
            throw .unavailable("Pulse at \(baseURL): \(e)")
        case .success(let r):
            if ok.contains(r.status) { return r }
            throw PulseWire.storeError(status: r.status, body: r.body)
        }
    }

    private func decode<T>(_ body: () throws(PulseWire.Problem) -> T) throws(PulseStoreError) -> T {
        do {
            return try body()
        } catch {
            throw .unavailable("Pulse at \(baseURL) answered something unreadable (\(error.message))")
        }
    }

    /// A query value: subject keys are ASCII letters, digits, `:` and `/`; `/` is escaped.
    static func query(_ s: String) -> String { s.replacingOccurrences(of: "/", with: "%2F") }
}

import Crypto
import PulseKit
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The Pulse service's HTTP API (`Resources/pulse-openapi.yaml`) over any `PulseServiceStore`.
///
/// Every handler answers JSON; what a client got wrong is a 4xx with `{"error": sentence,
/// "code": …}`, never a crash and never the store's raw text. Bodies are capped at
/// `PulseWire.maxBodyBytes` (413). A visitor's token is `VISITOR.SECRET`; the store is given
/// the SHA-256 of the secret only, so a copy of the database holds no usable token (the
/// secrets are 128 random bits, so an unsalted fast hash is enough: nothing to brute-force).
public struct PulseAPI<Store: PulseServiceStore>: Sendable {
    public let store: Store
    /// The staff token (`DOCENT_PULSE_STAFF_TOKEN` or `--staff-token-file`); nil: staff routes
    /// answer 403 to everyone.
    public let staffToken: String?
    /// Plays gathered and written every few seconds (nil: each play written at once).
    public let plays: PlayCoalescer?
    public let metrics: PulseMetrics
    public let logger: Logger
    /// Where staff actions are logged (the audit log of the console's store); nil: not logged
    /// (a service without a console store, as some tests run it).
    public let audit: (any ConsoleStore)?
    let clientAddress: ClientAddress
    let clientLimits: ClientRateLimits?
    let buckets = TokenBuckets()
    /// Whether requests meet a database that refuses them (`/readyz`), said in the log.
    let health = StoreHealth()
    /// Failed staff sign-ins logged at most 20 a minute (the rest counted in one line).
    let staffWarnings = WarningThrottle(perMinute: 20)
    /// Who may post notes (`--posting`).
    public let posting: PostingCheck
    /// The service's clock (the visit code's day).
    let clock: @Sendable () -> Date

    public init(
        store: Store, staffToken: String? = nil, plays: PlayCoalescer? = nil, metrics: PulseMetrics = PulseMetrics(),
        clientLimits: ClientRateLimits? = ClientRateLimits(), trustedProxies: [String] = [], audit: (any ConsoleStore)? = nil,
        posting: PostingCheck = .open, clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "docent-pulse")
    ) {
        self.posting = posting
        self.clock = clock
        self.store = store
        self.audit = audit
        self.staffToken = staffToken.flatMap { $0.isEmpty ? nil : $0 }
        self.plays = plays
        self.metrics = metrics
        self.clientLimits = clientLimits
        self.clientAddress = ClientAddress(trustedProxies: trustedProxies)
        self.logger = logger
    }

    /// The router with every route of the API: the request log first, then the routes; those
    /// with a per-address limit in a group behind it, staff routes in a group behind `StaffAuth`.
    public func router() -> Router<PulseRequestContext> {
        let router = Router(context: PulseRequestContext.self)
        router.add(middleware: RequestLogMiddleware(logger: logger, metrics: metrics, address: clientAddress))
        // Its table is the router's own, read once every route below is added.
        let methods = MethodNotAllowed()
        router.add(middleware: methods)
        router.add(middleware: WritesServed(health: health, logger: logger))
        router.add(middleware: RequestDeadlineMiddleware())
        let api = self
        // The routes that cost the service, each kind in a group behind its per-address limit.
        func limited(_ kind: String, _ rate: KeyPath<ClientRateLimits, TokenBuckets.Rate>) -> RouterGroup<PulseRequestContext> {
            guard let clientLimits else { return router.group() }
            return router.group().add(
                middleware: ClientRateLimitMiddleware(kind: kind, rate: clientLimits[keyPath: rate], buckets: buckets, address: clientAddress, metrics: metrics))
        }
        let registrations = limited("registration", \.registrations), plays = limited("play", \.plays)
        let reactions = limited("reaction", \.reactions), notes = limited("note", \.notes), reports = limited("report", \.reports)
        let reads = limited("read", \.reads)
        router.get("/healthz") { _, _ in api.json(200, PulseWire.fields([("status", .string("ok"))])) }
        router.get("/readyz") { _, _ in
            await api.handle {
                // Not ready while requests meet a database that refuses them (a full disk:
                // reads still work, writes do not), as well as when it does not answer.
                if let why = api.health.failing() {
                    throw Failure(503, "unavailable", "Pulse is unavailable (\(why))", retryAfter: 5)
                }
                try await api.store.ready()
                return api.json(200, PulseWire.fields([("status", .string("ready"))]))
            }
        }
        router.get("/metrics") { _, _ in
            var h = HTTPFields()
            h[.contentType] = "text/plain; version=0.0.4"
            return Response(status: .ok, headers: h, body: ResponseBody(byteBuffer: ByteBuffer(bytes: api.metrics.text())))
        }
        registrations.post("/v1/visitors") { req, _ in await api.handle { try await api.createVisitor(req) } }
        reads.get("/v1/snapshot") { req, _ in await api.handle { try await api.snapshot(req) } }
        reads.get("/v1/subjects/**") { req, ctx in await api.handle { try await api.subject(req, ctx) } }
        reactions.put("/v1/reactions/**") { req, ctx in await api.handle { try await api.react(req, ctx, withdraw: false) } }
        reactions.delete("/v1/reactions/**") { req, ctx in await api.handle { try await api.react(req, ctx, withdraw: true) } }
        notes.post("/v1/notes") { req, ctx in await api.handle { try await api.post(req, client: api.client(req, ctx)) } }
        reads.get("/v1/notes") { req, _ in await api.handle { try await api.notes(req) } }
        reports.put("/v1/reports/**") { req, ctx in await api.handle { try await api.report(req, ctx, true) } }
        reports.delete("/v1/reports/**") { req, ctx in await api.handle { try await api.report(req, ctx, false) } }
        plays.post("/v1/plays/**") { _, ctx in await api.handle { try await api.play(ctx) } }
        let staff = router.group().add(middleware: StaffAuth(api: api))
        staff.get("/v1/moderation/queue") { req, _ in await api.handle { try await api.moderationQueue(req) } }
        staff.put("/v1/moderation/notes/**") { req, ctx in await api.handle { try await api.decide(req, ctx) } }
        staff.post("/v1/staff/seed") { req, _ in await api.handle { try await api.applySeed(req) } }
        staff.get("/v1/staff/export") { req, _ in await api.handle { try await api.export(req) } }
        methods.table.set(router.routes.map { (path: $0.path.description, method: $0.method) })
        return router
    }

    // MARK: Handlers

    func createVisitor(_ req: Request) async throws -> Response {
        let body = try await Self.body(req)
        let creds: VisitorCredentials
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            // No body: the service chooses (the contract's form).
            var rng = SystemRandomNumberGenerator()
            guard let c = VisitorCredentials.make(random: (0..<26).map { _ in UInt8.random(in: 0...255, using: &rng) }) else { throw Failure(500, "internal", "no identity") }
            creds = c
        } else {
            // The client chose (the guide keeps its identity in its state database).
            let o = try PulseWire.object(body, required: ["visitor", "secret"])
            guard let v = VisitorID(try PulseWire.string(o, "visitor")) else { throw Failure(400, "bad_visitor", "field 'visitor' must be 8 to 40 of a-z, 0-9") }
            guard !v.isReserved else {
                throw Failure(403, "reserved_visitor", "ids starting with \(VisitorID.reservedPrefixes.joined(separator: ", ")) are the museum's own")
            }
            let secret = try PulseWire.string(o, "secret")
            guard Self.isSecret(secret) else { throw Failure(400, "bad_secret", "field 'secret' must be 16 to 128 of a-z, A-Z, 0-9, - and _") }
            creds = VisitorCredentials(visitor: v, secret: secret)
        }
        try await store.register(Self.hashed(creds))
        return json(201, PulseWire.fields([("visitor", .string(creds.visitor.rawValue)), ("token", .string("\(creds.visitor.rawValue).\(creds.secret)"))]))
    }

    func snapshot(_ req: Request) async throws -> Response {
        let viewer = try await optionalViewer(req)
        guard let dayText = req.uri.queryParameters["day_start"], let day = Double(String(dayText)), day.isFinite, abs(day) < 1e11 else {
            throw Failure(400, "bad_query", "day_start must be the start of the museum's day in seconds since 1970")
        }
        let since = req.headers[.ifNoneMatch].flatMap(Self.version(etag:))
        guard var snap = try await store.snapshot(viewer: viewer?.visitor, dayStart: Date(timeIntervalSince1970: day), since: since) else {
            var h = HTTPFields()
            h[.eTag] = Self.etag(since ?? PulseVersion(0))
            h[.vary] = "Authorization"
            return Response(status: .notModified, headers: h)
        }
        snap.posting = posting.gate
        var r = json(200, PulseWire.snapshot(snap))
        r.headers[.eTag] = Self.etag(snap.version)
        r.headers[.vary] = "Authorization"
        return r
    }

    func subject(_ req: Request, _ context: PulseRequestContext) async throws -> Response {
        let subject = try Self.subject(context)
        let counts = try await store.counts(of: subject)
        let notes = try await store.notes(on: subject, viewer: nil)
        return json(
            200, PulseWire.fields([("up", .integer(counts.up)), ("meh", .integer(counts.meh)), ("down", .integer(counts.down)), ("notes", .integer(notes.count))]))
    }

    func react(_ req: Request, _ context: PulseRequestContext, withdraw: Bool) async throws -> Response {
        let creds = try Self.credentials(req)
        let subject = try Self.subject(context)
        let body = try await Self.body(req)
        let value: ReactionValue?
        if withdraw {
            try await store.authenticate(creds)
            guard try await store.reaction(of: creds.visitor, on: subject) != nil else {
                throw Failure(404, "no_reaction", "no reaction to \(subject.key) to withdraw")
            }
            value = nil
        } else {
            value = try PulseWire.reaction(body)
        }
        return json(200, PulseWire.counts(try await store.react(value, on: subject, as: creds)))
    }

    func post(_ req: Request, client: String) async throws -> Response {
        let creds = try Self.credentials(req)
        let draft = try PulseWire.draft(try await Self.body(req))
        guard draft.id.visitor == creds.visitor else { throw Failure(403, "not_yours", "a note's id must start with your visitor id") }
        try await passGate(draft.pass, creds, client: client)
        switch try await store.post(draft, as: creds) {
        // A server's store keeps what it is given (only the guide's outbox queues).
        case .created(let n), .queued(let n): return json(201, PulseWire.note(n))
        case .alreadyStored(let n): return json(200, PulseWire.note(n))
        }
    }

    /// The posting gate (issue 32): a known visitor first (a stranger learns nothing of codes),
    /// then the pass. A client address out of wrong tries is refused before its pass is looked
    /// at, so guessing learns nothing while it waits; each wrong pass takes a try.
    func passGate(_ pass: PostingPass?, _ creds: VisitorCredentials, client: String) async throws {
        guard posting.gate != .open else { return }
        try await store.authenticate(creds)
        let key = "pass " + client
        if let rate = clientLimits?.wrongPasses, pass != nil, let wait = buckets.wait(key, rate) {
            metrics.limited("pass")
            throw PulseStoreError.postingRefused(.tooManyTries(seconds: wait))
        }
        guard let refusal = posting.refusal(pass, at: clock()) else { return }
        if refusal == .visitCodeWrong || refusal == .memberUnknown, let rate = clientLimits?.wrongPasses {
            _ = buckets.take(key, rate)
        }
        throw PulseStoreError.postingRefused(refusal)
    }

    /// The client's address (see `ClientAddress`).
    func client(_ req: Request, _ ctx: PulseRequestContext) -> String {
        clientAddress.of(peer: ctx.remoteAddress?.ipAddress, forwardedFor: req.headers[values: .xForwardedFor])
    }

    func notes(_ req: Request) async throws -> Response {
        let viewer = try await optionalViewer(req)
        guard let key = req.uri.queryParameters["subject"].map(String.init).flatMap({ $0.removingPercentEncoding }), let subject = PulseSubject(key) else {
            throw Failure(400, "bad_subject", "subject must be a subject key such as artwork:1101")
        }
        let (cursor, limit) = try Self.page(req)
        return json(200, Self.page(try await store.notes(on: subject, viewer: viewer?.visitor, after: cursor, limit: limit)))
    }

    /// `after` (a cursor from the previous page's `next`) and `limit` (1 to 200, 100 by default).
    static func page(_ req: Request) throws -> (PulseCursor?, Int) {
        var cursor: PulseCursor?
        if let text = req.uri.queryParameters["after"].map(String.init).flatMap({ $0.removingPercentEncoding }) {
            guard let c = PulseCursor(text: text) else { throw Failure(400, "bad_cursor", "after must be the 'next' of a previous page") }
            cursor = c
        }
        var limit = 100
        if let text = req.uri.queryParameters["limit"] {
            guard let n = Int(String(text)), (1...200).contains(n) else { throw Failure(400, "bad_limit", "limit must be 1 to 200") }
            limit = n
        }
        return (cursor, limit)
    }

    /// `{"notes": [...], "next": cursor or null}`.
    static func page(_ p: PulsePage) -> JSON {
        PulseWire.fields([("notes", .array(p.notes.map(PulseWire.note))), ("next", p.next.map { .string($0.text) } ?? .null)])
    }

    func report(_ req: Request, _ context: PulseRequestContext, _ on: Bool) async throws -> Response {
        let creds = try Self.credentials(req)
        let key = try Self.rest(context)
        guard let note = NoteID(key: key) else { throw Failure(400, "bad_note", "not a note id: \(Self.shown(key))") }
        // A note hidden from the public answers as a missing one (issue 44 #13): reports must
        // not tell which hidden notes exist. (Taking a report back stays open to its reporter.)
        if on, let audit {
            try await store.authenticate(creds)
            let shown = try await audit.note(note).map { store.rules.hidden($0, viewerReported: false, viewer: creds.visitor) == nil } ?? true
            if !shown { throw PulseStoreError.noSuchNote(note) }
        }
        try await store.report(note, on, as: creds)
        return json(200, PulseWire.fields([("note", .string(note.key)), ("reported", .bool(on))]))
    }

    func play(_ context: PulseRequestContext) async throws -> Response {
        let subject = try Self.subject(context)
        if let plays {
            // Answered once written (with the plays that came meanwhile): a 204 is kept.
            try await plays.add(subject)
        } else {
            try await store.recordPlay(subject)
        }
        return Response(status: .noContent)
    }

    func moderationQueue(_ req: Request) async throws -> Response {
        let (cursor, limit) = try Self.page(req)
        return json(200, Self.page(try await store.moderationQueue(after: cursor, limit: limit)))
    }

    /// `PUT /v1/moderation/notes/{note}` `{"decision": "removed" | "restored" | "pinned"}`.
    func decide(_ req: Request, _ context: PulseRequestContext) async throws -> Response {
        let key = try Self.rest(context)
        guard let note = NoteID(key: key) else { throw Failure(400, "bad_note", "not a note id: \(Self.shown(key))") }
        let o = try PulseWire.object(try await Self.body(req), required: ["decision"])
        guard let decision = StaffDecision(rawValue: try PulseWire.string(o, "decision")) else {
            throw Failure(400, "bad_decision", "decision must be removed, restored or pinned")
        }
        guard let audit else { return json(200, PulseWire.note(try await store.decide(note, decision))) }
        let before = try await audit.note(note)
        let after = try await store.decide(note, decision)
        try await audit.audit(StaffAudit.decision(note, before: before, after: after, staff: Self.staffName(req), at: Date()))
        return json(200, PulseWire.note(after))
    }

    /// Who a staff-token call is, for the audit log (`Docent-Staff: NAME`, see `StaffAudit`).
    static func staffName(_ req: Request) -> String {
        StaffAudit.tokenStaff(named: HTTPField.Name("Docent-Staff").flatMap { req.headers[$0] })
    }

    /// `POST /v1/staff/seed` with a seed file: its entries put in or replaced (`docent-pulse
    /// seed`, `feature`, `announce`); entries it cannot use are named, the rest applied.
    func applySeed(_ req: Request) async throws -> Response {
        let bytes: [UInt8]
        do {
            bytes = Array(try await req.body.collect(upTo: PulseWire.maxSeedBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw Failure(413, "too_large", "a seed may be at most \(PulseWire.maxSeedBytes) bytes")
        }
        switch PulseSeed.read(bytes) {
        case .failure(let f): throw Failure(400, "bad_seed", f.message)
        case .success(let seed):
            if let audit {
                let store = self.store
                try await StaffAudit.applySeed(seed, console: audit, staff: Self.staffName(req), at: { Date() }) { try await store.apply(seed) }
            } else {
                try await store.apply(seed)
            }
            return json(200, PulseWire.seedApplied(seed))
        }
    }

    /// `GET /v1/staff/export`: everything but the visitors (`docent-pulse export`).
    /// A page, as `GET /v1/notes` pages (`after`, `limit` 1 to 200, 100 by default): the first
    /// has the museum's own content and the counts whole and the first visitor notes, oldest
    /// first; the next ones (`after` the last page's `next`) only visitor notes.
    func export(_ req: Request) async throws -> Response {
        let (cursor, limit) = try Self.page(req)
        let page = try await store.exportNotes(after: cursor, limit: limit)
        guard cursor == nil else { return json(200, PulseExport.notesPage(page)) }
        return json(200, try await store.export(visitorNotes: false).json(at: Date(), page: page))
    }

    /// 401 without a token (or with one that is nobody's), 403 with a visitor's token. A
    /// failed sign-in is logged (warning: the client's address, never the token), at most
    /// `staffWarnings` allows a minute (issue 44 #4). A client address that sent too many
    /// wrong tokens (`wrongStaffTokens`, whatever `--client-limits` says) gets 429 with
    /// Retry-After before its token is even compared.
    func requireStaff(_ req: Request, client: String) async throws {
        let key = "staff-token " + client
        // No token is no guess: 401, whatever the address did.
        guard let header = req.headers[.authorization] else { throw Failure(401, "no_token", "staff routes need Authorization: Bearer STAFF-TOKEN") }
        if let wait = buckets.wait(key, clientLimits?.wrongStaffTokens ?? ClientRateLimits().wrongStaffTokens) {
            metrics.limited("staff-token")
            throw Failure(429, "rate_limited_client", "too many wrong staff tokens from your address: try again in \(wait) s", retryAfter: wait)
        }
        if let staff = staffToken, header.hasPrefix("Bearer "), Self.sameSecret(Array(header.utf8.dropFirst(7)), Array(staff.utf8)) {
            // Who it says it is goes into the audit log: a name, not a page of text.
            if let name = HTTPField.Name("Docent-Staff").flatMap({ req.headers[$0] }), name.utf8.count > 100 {
                throw Failure(400, "bad_staff_name", "Docent-Staff must be at most 100 bytes")
            }
            return
        }
        _ = buckets.take(key, clientLimits?.wrongStaffTokens ?? ClientRateLimits().wrongStaffTokens)
        staffWarnings.log(logger, "failed staff sign-in", ["client": .string(client), "path": .string(req.uri.path)])
        // A visitor's valid token: known, and not staff.
        if let c = try? Self.credentials(req), (try? await store.authenticate(c)) != nil {
            throw Failure(403, "not_staff", "this is a staff route; a visitor's token is not enough")
        }
        throw Failure(401, "bad_token", "the token is not the staff token")
    }

    /// Compares in time that does not depend on where the first difference is.
    static func sameSecret(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var diff = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) { diff |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0) }
        return diff == 0
    }

    // MARK: Pieces

    /// A 4xx or 5xx the handler decided on.
    struct Failure: Error {
        let status: Int
        let code: String
        let message: String
        var retryAfter: Int?
        init(_ status: Int, _ code: String, _ message: String, retryAfter: Int? = nil) {
            self.status = status
            self.code = code
            self.message = message
            self.retryAfter = retryAfter
        }

        var response: Response {
            var r = pulseJSON(status, PulseWire.problem(code, message, retryAfter.map { [("retry_after", .integer($0))] } ?? []))
            if let retryAfter { r.headers[.retryAfter] = String(retryAfter) }
            return r
        }
    }

    /// Runs a handler; every error becomes a JSON answer with a clear sentence.
    func handle(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let f as Failure {
            return f.response
        } catch let p as PulseWire.Problem {
            return json(400, PulseWire.problem("bad_request", p.message))
        } catch let e as PulseStoreError {
            if case .unavailable(let why) = e { health.failed(why, logger) }
            let (status, body, retry) = PulseWire.error(e)
            var r = json(status, body)
            if let retry { r.headers[.retryAfter] = String(retry) }
            return r
        } catch is NIOTooManyBytesError {
            // The rest of the body is not read: the connection closes after the answer.
            var r = json(413, PulseWire.problem("too_large", "the body is larger than \(PulseWire.maxBodyBytes) bytes"))
            r.headers[.connection] = "close"
            return r
        } catch {
            return json(500, PulseWire.problem("internal", "internal error"))
        }
    }

    func json(_ status: Int, _ value: JSON) -> Response { pulseJSON(status, value) }

    static func body(_ req: Request) async throws -> [UInt8] {
        let buffer = try await req.body.collect(upTo: PulseWire.maxBodyBytes)
        return Array(buffer.readableBytesView)
    }

    /// `Authorization: Bearer VISITOR.SECRET`, the secret hashed for the store.
    static func credentials(_ req: Request) throws -> VisitorCredentials {
        guard let header = req.headers[.authorization] else { throw Failure(401, "no_token", "this needs Authorization: Bearer TOKEN (POST /v1/visitors gives one)") }
        guard header.hasPrefix("Bearer "), let dot = header.dropFirst(7).firstIndex(of: "."),
            let visitor = VisitorID(String(header[header.index(header.startIndex, offsetBy: 7)..<dot]))
        else { throw Failure(401, "bad_token", "the token is not VISITOR.SECRET") }
        let secret = String(header[header.index(after: dot)...])
        guard isSecret(secret) else { throw Failure(401, "bad_token", "the token is not VISITOR.SECRET") }
        return hashed(VisitorCredentials(visitor: visitor, secret: secret))
    }

    /// The viewer of a read: none without a token, checked with one.
    func optionalViewer(_ req: Request) async throws -> VisitorCredentials? {
        guard req.headers[.authorization] != nil else { return nil }
        let c = try Self.credentials(req)
        try await store.authenticate(c)
        return c
    }

    static func hashed(_ c: VisitorCredentials) -> VisitorCredentials {
        let digest = SHA256.hash(data: Array(c.secret.utf8))
        // Hex by table: String(format:) per byte was a visible share of a reaction's time.
        var hex: [UInt8] = Array("sha256:".utf8)
        hex.reserveCapacity(7 + 64)
        for b in digest {
            hex.append(pulseHexDigits[Int(b >> 4)])
            hex.append(pulseHexDigits[Int(b & 0x0F)])
        }
        return VisitorCredentials(visitor: c.visitor, secret: String(decoding: hex, as: UTF8.self))
    }

    static func isSecret(_ s: String) -> Bool {
        (16...128).contains(s.utf8.count)
            && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
    }

    /// What the route's `**` caught, percent-decoded (`stop:2/3` may come as `stop:2%2F3`).
    static func rest(_ context: PulseRequestContext) throws -> String {
        guard let key = context.parameters.getCatchAll().joined(separator: "/").removingPercentEncoding else {
            throw Failure(400, "bad_path", "the path is not valid percent-encoded UTF-8")
        }
        return key
    }

    static func subject(_ context: PulseRequestContext) throws -> PulseSubject {
        let key = try rest(context)
        guard let s = PulseSubject(key) else {
            throw Failure(400, "bad_subject", "not a subject: '\(shown(key))' (artwork:ID, tour:ID, stop:TOUR/N, exhibition:ID, gallery:ID, museum)")
        }
        return s
    }

    /// Client text repeated in a message: printable ASCII only, at most 40 characters.
    static func shown(_ s: String) -> String {
        String(s.unicodeScalars.prefix(40).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }

    static func etag(_ v: PulseVersion) -> String { "\"\(v.value)\"" }

    static func version(etag: String) -> PulseVersion? {
        var t = etag.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("W/") { t.removeFirst(2) }
        guard t.count >= 3, t.first == "\"", t.last == "\"", let n = Int64(t.dropFirst().dropLast()) else { return nil }
        return PulseVersion(n)
    }
}

/// A JSON answer: never cached (a visitor's view differs from another's).
func pulseJSON(_ status: Int, _ value: JSON) -> Response {
    var h = HTTPFields()
    h[.contentType] = "application/json"
    h[.cacheControl] = "no-store"
    return Response(status: HTTPResponse.Status(code: status), headers: h, body: ResponseBody(byteBuffer: ByteBuffer(bytes: PulseWire.encode(value))))
}

/// Staff routes' sign-in, as middleware on their route group.
struct StaffAuth<Store: PulseServiceStore>: RouterMiddleware {
    typealias Context = PulseRequestContext
    let api: PulseAPI<Store>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            try await api.requireStaff(request, client: api.clientAddress.of(peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: .xForwardedFor]))
        } catch let f as PulseAPI<Store>.Failure {
            return f.response
        }
        return try await next(request, context)
    }
}

private let pulseHexDigits: [UInt8] = Array("0123456789abcdef".utf8)

/// A method the API does not serve on a path it does serve answers 405 with `Allow`, not 404
/// (a client that sent the wrong method learns what to send). The paths and methods are the
/// router's own (`Router.routes`, issue 46): a route added to `router()` is in the table.
struct MethodNotAllowed: RouterMiddleware {
    typealias Context = PulseRequestContext

    /// The router's routes, set once by `PulseAPI.router()` after its last route, before any
    /// request (the middleware is added before the routes, so it is filled in afterwards).
    final class Table: @unchecked Sendable {
        private let lock = NSLock()
        private var routes: [(segments: [Substring], methods: [HTTPRequest.Method])] = []

        /// Routes as Hummingbird describes them: `/v1/notes`, `/v1/subjects/**`, `{id}`, `*`.
        func set(_ routes: [(path: String, method: HTTPRequest.Method)]) {
            var table: [(segments: [Substring], methods: [HTTPRequest.Method])] = []
            for r in routes {
                let segments = r.path.split(separator: "/")
                if let i = table.firstIndex(where: { $0.segments == segments }) {
                    if !table[i].methods.contains(r.method) { table[i].methods.append(r.method) }
                } else {
                    table.append((segments, [r.method]))
                }
            }
            lock.withLock { self.routes = table }
        }

        /// The methods served on `path`, in the router's order; nil when no route has the path.
        func allowed(_ path: String) -> [HTTPRequest.Method]? {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            let routes = lock.withLock { self.routes }
            for r in routes where Self.matches(r.segments, Array(parts)) { return r.methods }
            return nil
        }

        /// `**` takes one segment or more (what Hummingbird's recursive wildcard takes), `*` and
        /// `{name}` one; anything else is itself.
        static func matches(_ pattern: [Substring], _ path: [Substring]) -> Bool {
            for (i, p) in pattern.enumerated() {
                if p == "**" { return path.count > i && !(path.count == i + 1 && path[i].isEmpty) }
                guard i < path.count else { return false }
                if p == "*" || (p.hasPrefix("{") && p.hasSuffix("}")) { if path[i].isEmpty { return false } else { continue } }
                if p != path[i] { return false }
            }
            return pattern.count == path.count
        }
    }

    let table = Table()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let methods = table.allowed(request.uri.path), !methods.contains(request.method) {
            var h = HTTPFields()
            h[.contentType] = "application/json"
            h[.allow] = methods.map(\.rawValue).joined(separator: ", ")
            let body = PulseWire.encode(PulseWire.problem("method_not_allowed", "\(request.uri.path) answers \(h[.allow] ?? "")"))
            return Response(status: .methodNotAllowed, headers: h, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        return try await next(request, context)
    }
}

/// The database as requests meet it (issue 44 #9): a request the store refused (`unavailable`:
/// a full disk, a database gone) is logged, a warning once when the refusals start with why,
/// then at most once a minute while they go on, and a notice when a request is served again;
/// `/readyz` answers 503 while the last refusal is less than 10 s old and nothing was served
/// since.
final class StoreHealth: @unchecked Sendable {
    private let lock = NSLock()
    private var lastFailure: (at: Double, why: String)?
    private var lastLogged = -Double.infinity
    private var refusedSinceLog = 0

    func failed(_ why: String, _ logger: Logger) {
        let now = ProcessInfo.processInfo.systemUptime
        lock.lock()
        let first = lastFailure == nil
        lastFailure = (now, why)
        refusedSinceLog += 1
        let log = first || now - lastLogged >= 60
        let refused = refusedSinceLog
        if log {
            lastLogged = now
            refusedSinceLog = 0
        }
        lock.unlock()
        if log {
            logger.warning(
                first ? "the database refuses requests" : "the database still refuses requests", metadata: ["error": .string(why), "refused": .stringConvertible(refused)])
        }
    }

    func ok(_ logger: Logger) {
        lock.lock()
        guard lastFailure != nil else {
            lock.unlock()
            return
        }
        lastFailure = nil
        lock.unlock()
        logger.notice("the database serves requests again")
    }

    /// Why the store is not ready, while it refuses.
    func failing() -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard let f = lastFailure, ProcessInfo.processInfo.systemUptime - f.at < 10 else { return nil }
        return f.why
    }
}

/// A write served (a method other than GET and HEAD answered 2xx) tells `StoreHealth`
/// the database takes writes again; reads do not (a full disk still reads).
struct WritesServed: RouterMiddleware {
    typealias Context = PulseRequestContext
    let health: StoreHealth
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let r = try await next(request, context)
        if request.method != .get, request.method != .head, (200..<300).contains(r.status.code) { health.ok(logger) }
        return r
    }
}

/// Every request's database calls together get `PostgresPulseStore.callDeadline` (5 s): the
/// README's "503 with Retry-After within 5 s" holds for a request that makes several calls.
struct RequestDeadlineMiddleware: RouterMiddleware {
    typealias Context = PulseRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await RequestDeadline.$ends.withValue(ContinuousClock.now + PostgresPulseStore.callDeadline - .milliseconds(500)) {
            try await next(request, context)
        }
    }
}

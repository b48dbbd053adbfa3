import Crypto
import PulseKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt
import Logging
import Mustache
import NIOCore
import PulseKitSQLite

/// What the console is set up with (`docent-pulse serve`'s options).
public struct ConsoleConfiguration: Sendable {
    /// The staff token (signs in as "staff-token"); nil: accounts only.
    public var staffToken: String?
    public var rules: PulseRules
    /// The museum's time zone: days, and the times staff type, are museum time.
    public var timeZone: TimeZone
    public var catalogue: ConsoleCatalogue
    /// A session ends this long after sign-in.
    public var sessionLifetime: TimeInterval = 8 * 3600
    /// Failed sign-ins allowed before a lockout; the lockout then doubles with each failure.
    public var lockoutAfter = 5
    public var lockoutBase: TimeInterval = 30
    public var lockoutMax: TimeInterval = 3600
    /// Failed sign-ins from one client address (any names) before its lockout.
    public var addressLockoutAfter = 20
    /// The visit code's maker when posting needs one (`--posting visit-code`): the Pulse page
    /// shows today's code, for whoever prints tickets.
    public var visitCode: VisitCode?
    /// Proxies whose `X-Forwarded-For` names the client (as the API's).
    public var trustedProxies: [String] = []
    /// Sign-ins one client address may try (issue 44 #1): a burst, then a few a minute; past
    /// it, 429 before the form is even read (no bcrypt, no database).
    public var signInRate = TokenBuckets.Rate(perMinute: 10, burst: 20)
    /// Sign-in forms one client address may be given (each is a row until it is used or an
    /// hour has passed).
    public var signInFormRate = TokenBuckets.Rate(perMinute: 30, burst: 60)

    public init(staffToken: String?, rules: PulseRules = .standard, timeZone: TimeZone = .current, catalogue: ConsoleCatalogue = ConsoleCatalogue()) {
        self.staffToken = staffToken.flatMap { $0.isEmpty ? nil : $0 }
        self.rules = rules
        self.timeZone = timeZone
        self.catalogue = catalogue
    }

    /// How long sign-ins under a key stay refused after `failures` failures (0: not locked).
    public func lockout(failures: Int) -> TimeInterval {
        guard failures >= lockoutAfter else { return 0 }
        let doublings = min(failures - lockoutAfter, 20)
        return min(lockoutMax, lockoutBase * pow(2, Double(doublings)))
    }
}

/// The staff console (issue 29): server-rendered pages under `/staff/` over the same stores as
/// the API. Every action is a plain HTML form (POST, with the session's CSRF token); the one
/// script only adds keyboard shortcuts and live previews. Sessions are in the database (an
/// HttpOnly, SameSite=Strict cookie, Secure behind TLS), so instances behind nginx share them.
public struct StaffConsole<Store: PulseServiceStore>: Sendable {
    public let store: Store
    public let console: any ConsoleStore
    public let config: ConsoleConfiguration
    let logger: Logger
    let clock: @Sendable () -> Date
    /// Per-address sign-in limits (`ConsoleConfiguration.signInRate`).
    let buckets = TokenBuckets()
    let clientAddress: ClientAddress
    /// Where passwords are checked: never the threads that serve requests.
    let bcrypt: BcryptPool

    public init(
        store: Store, console: any ConsoleStore, config: ConsoleConfiguration, logger: Logger, clock: @escaping @Sendable () -> Date = { Date() },
        bcrypt: BcryptPool = .shared
    ) {
        self.store = store
        self.console = console
        self.config = config
        self.logger = logger
        self.clock = clock
        self.bcrypt = bcrypt
        self.clientAddress = ClientAddress(trustedProxies: config.trustedProxies)
    }

    /// What a sign-in form's server-side token is stored as: a session row whose staff is no
    /// account's name (names are a-z, 0-9, '.', '-', '_'), so it never signs anyone in.
    static var signInFormStaff: String { " sign-in form" }

    static var sessionCookie: String { "docent_staff" }
    static var signInCookie: String { "docent_signin" }
    static var languageCookie: String { "docent_lang" }
    /// What a sign-in with the staff token is recorded as.
    public static var tokenStaffName: String { StaffAudit.tokenStaffName }

    /// Mounts the console's routes (and the author's own-note deletion) on `router`.
    public func add<Context: RequestContext & RemoteAddressRequestContext>(to router: Router<Context>) {
        let c = self
        router.get("/staff") { _, _ in Self.redirect("/staff/queue") }
        router.get("/staff/static/console.css") { _, _ in Self.asset(ConsoleAssets.css, "text/css; charset=utf-8") }
        router.get("/staff/static/console.js") { _, _ in Self.asset(ConsoleAssets.js, "text/javascript; charset=utf-8") }
        router.get("/staff/sign-in") { req, ctx in await c.signInForm(req, client: c.client(req, ctx)) }
        router.post("/staff/sign-in") { req, ctx in await c.signIn(req, client: c.client(req, ctx)) }
        router.post("/staff/sign-out") { req, _ in await c.action(req) { s, _, _ in try await c.signOut(s, req) } }
        router.get("/staff/queue") { req, _ in await c.page(req) { s, l in try await c.queuePage(req, s, l) } }
        router.post("/staff/notes/:note/decide") { req, ctx in
            let id = ctx.parameters.get("note") ?? ""
            return await c.action(req) { s, l, form in try await c.decide(id, form, s, l) }
        }
        router.get("/staff/visitors") { req, _ in await c.page(req) { s, l in try await c.visitorsPage(req, s, l) } }
        router.post("/staff/visitors/ban") { req, _ in await c.action(req) { s, l, form in try await c.ban(form["visitor"] ?? "", s, l) } }
        router.post("/staff/visitors/erase") { req, _ in await c.action(req) { s, l, form in try await c.erase(form, s, l) } }
        router.post("/staff/visitors/:visitor/ban") { req, ctx in
            let v = ctx.parameters.get("visitor") ?? ""
            return await c.action(req) { s, l, form in form["confirm"] == "yes" ? try await c.ban(v, s, l) : c.banSure(v, s, l) }
        }
        router.post("/staff/visitors/:visitor/unban") { req, ctx in
            let v = ctx.parameters.get("visitor") ?? ""
            return await c.action(req) { s, l, _ in try await c.unban(v, s, l) }
        }
        router.get("/staff/featured") { req, _ in await c.page(req) { s, l in try await c.featuredPage(req, s, l) } }
        router.get("/staff/featured/preview") { req, _ in await c.page(req) { _, l in c.taglinePreview(req, l) } }
        router.post("/staff/featured") { req, _ in await c.action(req) { s, l, form in try await c.saveFeatured(form, s, l) } }
        router.get("/staff/announcements") { req, _ in await c.page(req) { s, l in try await c.announcementsPage(req, s, l) } }
        router.post("/staff/announcements") { req, _ in await c.action(req) { s, l, form in try await c.saveAnnouncement(form, s, l) } }
        router.get("/staff/pulse") { req, _ in await c.page(req) { s, l in try await c.pulsePage(req, s, l) } }
        router.get("/staff/pulse.csv") { req, _ in await c.page(req) { _, _ in try await c.pulseCSV() } }
        router.get("/staff/accounts") { req, _ in await c.page(req) { s, l in try await c.accountsPage(req, s, l) } }
        router.post("/staff/accounts") { req, _ in await c.action(req) { s, l, form in try await c.addAccount(form, s, l) } }
        router.post("/staff/accounts/:name/password") { req, ctx in
            let name = ctx.parameters.get("name") ?? ""
            return await c.action(req) { s, l, form in try await c.setPassword(name, form, s, l, req) }
        }
        router.post("/staff/accounts/:name/sessions") { req, ctx in
            let name = ctx.parameters.get("name") ?? ""
            return await c.action(req) { s, l, form in try await c.endSessions(name, form, s, l, req) }
        }
        router.post("/staff/accounts/:name/remove") { req, ctx in
            let name = ctx.parameters.get("name") ?? ""
            return await c.action(req) { s, l, form in try await c.removeAccount(name, form, s, l) }
        }
        router.get("/staff/audit") { req, _ in await c.page(req) { s, l in try await c.auditPage(req, s, l) } }
        router.get("/staff/audit.csv") { req, _ in await c.page(req) { _, _ in try await c.auditCSV(req) } }
        // An author deletes their own note (issue 32): the visitor's token, as every visitor write.
        router.delete("/v1/notes/:note") { req, ctx in await c.deleteOwnNote(req, ctx.parameters.get("note") ?? "") }
    }

    // MARK: Sessions

    struct Failure: Error {
        let status: HTTPResponse.Status
        let message: String
    }

    /// A signed-in page: no session sends the browser to sign in.
    func page(_ req: Request, _ body: (StaffSession, Language) async throws -> Response) async -> Response {
        let lang = language(req)
        do {
            guard let s = try await session(req) else { return Self.redirect("/staff/sign-in") }
            do {
                var r = try await body(s, lang)
                remember(lang, req, &r)
                return r
            } catch {
                return failurePage(error, lang, req, session: s)
            }
        } catch {
            return failurePage(error, lang, req)
        }
    }

    /// A signed-in action: a POST whose form carries the session's CSRF token.
    func action(_ req: Request, _ body: (StaffSession, Language, [String: String]) async throws -> Response) async -> Response {
        let lang = language(req)
        var signedIn: StaffSession?
        do {
            let form = try await Self.form(req)
            guard Self.sameOrigin(req), let s = try await session(req) else { throw Failure(status: .forbidden, message: ConsoleStrings.text("badForm", lang)) }
            guard let token = form["csrf"], Self.same(token, s.csrf) else {
                logger.warning("staff console: a form without the session's CSRF token was refused", metadata: ["staff": "\(s.staff)", "path": "\(req.uri.path)"])
                throw Failure(status: .forbidden, message: ConsoleStrings.text("badForm", lang))
            }
            signedIn = s
            return try await body(s, lang, form)
        } catch {
            // A refusal after the form was checked keeps the navigation (issue 44 #14).
            return failurePage(error, lang, req, session: signedIn)
        }
    }

    func session(_ req: Request) async throws -> StaffSession? {
        guard let raw = cookieValue(req, Self.sessionCookie), raw.count == 64 else { return nil }
        guard let stored = try await console.session(id: Self.digest(raw)), stored.expires > clock(), stored.staff != Self.signInFormStaff else { return nil }
        // Tied to the credential that made it: a new password, a removed account or another
        // staff token ends it (issue 44 #6). The account's role comes with it (issue 44 #14).
        var s = stored
        let current: String?
        if s.staff == Self.tokenStaffName {
            current = config.staffToken.map(Self.tokenCredential)
        } else {
            let account = try await console.staffHashAndRole(name: s.staff)
            current = account.map { Self.accountCredential($0.hash) }
            s.mayManageAccounts = account?.role.mayManageAccounts == true
        }
        guard let current, Self.same(current, s.credential) else { return nil }
        return s
    }

    static func tokenCredential(_ token: String) -> String { digest("staff-token\n" + token) }
    static func accountCredential(_ hash: String) -> String { digest("account\n" + hash) }

    /// The client's address (see `ClientAddress`).
    func client<Context: RemoteAddressRequestContext>(_ req: Request, _ ctx: Context) -> String {
        clientAddress.of(peer: ctx.remoteAddress?.ipAddress, forwardedFor: req.headers[values: .xForwardedFor])
    }

    /// `GET /staff/sign-in`: a new form, within the address's limit on forms.
    func signInForm(_ req: Request, client: String) async -> Response {
        if let wait = buckets.take("sign-in form " + client, config.signInFormRate) { return tooMany(req, wait: wait) }
        return await signInPage(req, problem: nil, status: .ok)
    }

    /// 429 with Retry-After, a page without a form (a refusal costs no row and no bcrypt).
    func tooMany(_ req: Request, wait: Int) -> Response {
        let lang = language(req)
        let body = render("message", ConsolePages.Message(text: ConsoleStrings.text("locked", lang, ["s": String(wait)]), back: "/staff/sign-in", backLabel: ConsoleStrings.text("signIn", lang)))
        var r = layout(title: ConsoleStrings.text("signIn", lang), lang: lang, session: nil, path: "/staff/sign-in", body: body, status: .tooManyRequests)
        r.headers[.retryAfter] = String(wait)
        return r
    }

    /// The sign-in page with a new form. The form's token is kept on the server (issue 44 #1, #7:
    /// a session row of its own, `signInFormStaff`, used once, gone in an hour) and in a cookie:
    /// a sign-in must bring both, so it needs a form this service gave out.
    func signInPage(_ req: Request, problem: String?, status: HTTPResponse.Status, name: String = "") async -> Response {
        let lang = language(req)
        let token = Self.randomHex()
        let now = clock()
        do {
            try await console.createSession(StaffSession(id: Self.digest(token), staff: Self.signInFormStaff, csrf: "", created: now, expires: now.addingTimeInterval(3600)))
        } catch {
            return failurePage(error, lang, req)
        }
        let body = render("signin", ConsolePages.SignIn(t: ConsoleStrings.all(lang), csrf: token, name: name))
        var r = layout(title: ConsoleStrings.text("signIn", lang), lang: lang, session: nil, path: "/staff/sign-in", body: body, problem: problem, status: status)
        r.setCookie(cookie(Self.signInCookie, token, req, maxAge: 3600))
        remember(lang, req, &r)
        return r
    }

    /// Whether `token` is a sign-in form this service gave out and nobody used yet; it is used
    /// up here.
    func useSignInForm(_ token: String) async throws -> Bool {
        guard token.count == 64, let row = try await console.session(id: Self.digest(token)), row.staff == Self.signInFormStaff else { return false }
        try await console.deleteSession(id: row.id)
        return row.expires > clock()
    }

    func signIn(_ req: Request, client: String) async -> Response {
        let lang = language(req)
        // The address's limit first: past it nothing is read, checked or written.
        if let wait = buckets.take("sign-in " + client, config.signInRate) {
            logger.warning("staff console: sign-ins refused: too many from one address", metadata: ["client": .string(client)])
            return tooMany(req, wait: wait)
        }
        do {
            let form = try await Self.form(req)
            guard Self.sameOrigin(req), let token = form["csrf"], let cookie = cookieValue(req, Self.signInCookie), Self.same(token, cookie), try await useSignInForm(token) else {
                logger.warning("staff console: a sign-in without its form token was refused", metadata: ["client": .string(client)])
                return await signInPage(req, problem: ConsoleStrings.text("badForm", lang), status: .forbidden)
            }
            let name = (form["name"] ?? "").trimmingCharacters(in: .whitespaces)
            let password = form["password"] ?? ""
            // A name no account can have is not looked up (nor kept as a key); a name that is no
            // account's is never logged as typed (it may be a password typed in the wrong field).
            let validName = StaffPassword.validName(name)
            let hash = validName ? try await console.staffHash(name: name) : nil
            let shown = name.isEmpty ? Self.tokenStaffName : hash != nil ? name : "(unknown)"
            // Each try is counted before it is checked (issue 44 #2), in the database (shared by
            // instances), per account and per address; a success clears both. The staff
            // token's tries count per address only: a wrong token from one address does not
            // lock the token for everyone.
            let now = clock()
            // A name's key is its digest: a password typed as a name is not kept in the database.
            let keys = (name.isEmpty ? ["token:" + client] : validName ? ["account:" + String(Self.digest(name).prefix(32))] : []) + ["address:" + client]
            var left = 0
            var failures = 0
            for key in keys {
                let (before, last) = try await console.countAttempt(key: key, decay: config.lockoutMax)
                let wait = key.hasPrefix("address:") ? config.lockout(failures: before - config.addressLockoutAfter + config.lockoutAfter) : config.lockout(failures: before)
                if key == keys[0] { failures = before }
                if wait > 0, let last, now < last.addingTimeInterval(wait) { left = max(left, Int(last.addingTimeInterval(wait).timeIntervalSince(now).rounded(.up))) }
            }
            if left > 0 {
                logger.warning("staff console: sign-in refused while locked out", metadata: ["account": .string(shown), "client": .string(client), "failures": "\(failures)"])
                var r = await signInPage(req, problem: ConsoleStrings.text("locked", lang, ["s": String(left)]), status: .tooManyRequests, name: name)
                r.headers[.retryAfter] = String(left)
                return r
            }
            let staff: String?
            if name.isEmpty {
                staff = config.staffToken.map { Self.same(password, $0) } == true ? Self.tokenStaffName : nil
            } else {
                // An unknown name costs the same time as a known one (a bcrypt on the pool).
                guard let matched = await bcrypt.verify(password, hash) else {
                    logger.warning("staff console: sign-in refused: password checks are busy", metadata: ["client": .string(client)])
                    var r = await signInPage(req, problem: ConsoleStrings.text("locked", lang, ["s": "5"]), status: .serviceUnavailable, name: name)
                    r.headers[.retryAfter] = "5"
                    return r
                }
                staff = matched && hash != nil ? name : nil
            }
            guard let staff else {
                logger.warning("staff console: failed sign-in", metadata: ["account": .string(shown), "client": .string(client), "failures": "\(failures + 1)"])
                return await signInPage(req, problem: ConsoleStrings.text("badSignIn", lang), status: .unauthorized, name: name)
            }
            for key in keys { try await console.clearFailures(key: key) }
            let raw = Self.randomHex()
            let credential = name.isEmpty ? config.staffToken.map(Self.tokenCredential) : hash.map(Self.accountCredential)
            let s = StaffSession(
                id: Self.digest(raw), staff: staff, csrf: Self.randomHex(), created: now, expires: now.addingTimeInterval(config.sessionLifetime),
                credential: credential ?? "")
            try await console.createSession(s)
            try await console.audit(AuditEntry(at: now, staff: staff, action: "sign-in", target: "", before: "", after: ""))
            logger.info("staff console: signed in", metadata: ["staff": "\(staff)"])
            var r = Self.redirect("/staff/queue")
            r.setCookie(self.cookie(Self.sessionCookie, raw, req, maxAge: Int(config.sessionLifetime)))
            r.setCookie(self.cookie(Self.signInCookie, "", req, maxAge: 0))
            return r
        } catch {
            return failurePage(error, lang, req)
        }
    }

    func signOut(_ s: StaffSession, _ req: Request) async throws -> Response {
        try await console.deleteSession(id: s.id)
        try await console.audit(AuditEntry(at: clock(), staff: s.staff, action: "sign-out", target: "", before: "", after: ""))
        var r = Self.redirect("/staff/sign-in")
        r.setCookie(cookie(Self.sessionCookie, "", req, maxAge: 0))
        return r
    }

    // MARK: Moderation

    func queuePage(_ req: Request, _ s: StaffSession, _ lang: Language) async throws -> Response {
        // A page at a time (a hundred, the most a person works through at once), oldest first;
        // `after` is the last note of the page before.
        var after: PulseCursor?
        if let text = req.uri.queryParameters["after"].map(String.init).flatMap({ $0.removingPercentEncoding }), !text.isEmpty {
            guard let cursor = PulseCursor(text: text) else { throw Failure(status: .badRequest, message: "after: not a place in the queue") }
            after = cursor
        }
        let page = try await console.queue(rules: config.rules, after: after, limit: Self.queuePageSize + 1)
        let notes = Array(page.prefix(Self.queuePageSize))
        let waiting = try await console.queueLength(rules: config.rules)
        let allReports = try await console.reports(on: notes.map(\.id))
        let items = notes.map { n in
            let reports = allReports[n.id] ?? []
            var item = noteContext(n, lang, s)
            item.reason = ConsoleStrings.text(n.decision == .restored ? "reasonRestored" : (n.reports > 0 ? "reasonReported" : "reasonScore"), lang)
            item.reporters = reports.map { ConsolePages.Queue.Reporter(visitor: $0.visitor.rawValue, at: time($0.at)) }
            item.hasReporters = !reports.isEmpty
            item.reporterCount = reports.count
            return item
        }
        let removed = try await console.removedNotes(limit: 30).map { noteContext($0, lang, s) }
        // nil, not "": an empty string would still open a Mustache section.
        let context = ConsolePages.Queue(
            t: ConsoleStrings.all(lang), items: items, removed: removed, waiting: ConsoleStrings.text("waiting", lang, ["n": String(waiting)]),
            next: page.count > notes.count ? notes.last.map { "/staff/queue?after=" + Self.urlEncode(PulseCursor(after: $0).text) } : nil,
            first: after != nil ? "/staff/queue" : nil)
        let body = render("queue", context)
        return layout(
            title: ConsoleStrings.text("queue", lang), lang: lang, session: s, path: "/staff/queue", body: body, flash: flash(req, s), problem: problemParam(req, s))
    }

    /// Notes on one page of the queue.
    static var queuePageSize: Int { 100 }

    func noteContext(_ n: PulseNote, _ lang: Language, _ s: StaffSession) -> ConsolePages.Queue.Note {
        ConsolePages.Queue.Note(
            id: n.id.key, dom: Self.domID(n.id.key), subject: n.subject.key, title: config.catalogue.title(n.subject.key, lang) ?? "",
            when: time(n.createdAt), languageName: n.language.nativeName, langTag: n.language.code == "zh-hant" ? "zh-Hant" : n.language.code,
            text: n.text, up: n.counts.up, down: n.counts.down, reports: n.reports, visitor: n.id.visitor.rawValue,
            isVisitor: n.author == .visitor, decision: n.decision?.rawValue ?? "", csrf: s.csrf)
    }

    func decide(_ key: String, _ form: [String: String], _ s: StaffSession, _ lang: Language) async throws -> Response {
        guard let id = NoteID(key: key) else { throw Failure(status: .badRequest, message: "not a note id") }
        guard let decision = form["decision"].flatMap(StaffDecision.init(rawValue:)) else { throw Failure(status: .badRequest, message: "decision must be removed, restored or pinned") }
        let expectedText = form["expected"] ?? ""
        let expected = expectedText.isEmpty ? nil : StaffDecision(rawValue: expectedText)
        let before = try await console.note(id)
        let (note, changed) = try await console.decide(id, decision, expected: expected)
        guard changed else {
            // Someone decided meanwhile: say who and what, change nothing.
            let last = try await console.auditLog(AuditFilter(search: id.key, limit: 1)).first
            let text = ConsoleStrings.text(
                "conflict", lang, ["staff": last?.staff ?? "?", "decision": note.decision?.rawValue ?? "none", "at": last.map { time($0.at) } ?? "?"])
            return Self.redirect(notice("/staff/queue", "problem", text, s) + "&focus=" + Self.urlEncode(id.key))
        }
        try await console.audit(StaffAudit.decision(id, before: before, after: note, staff: s.staff, at: clock()))
        // Restoring a removed note says so (it said "Keep").
        let what = ConsoleStrings.text(decision == .removed ? "hide" : decision == .restored ? (expected == .removed ? "restore" : "keep") : "pin", lang)
        return Self.redirect(notice("/staff/queue", "done", ConsoleStrings.text("done", lang, ["what": what, "note": id.key]), s))
    }

    func visitorsPage(_ req: Request, _ s: StaffSession, _ lang: Language) async throws -> Response {
        let bans = try await console.bans().map { ConsolePages.Visitors.Ban(visitor: $0.visitor.rawValue, at: time($0.at), staff: $0.staff) }
        let body = render("visitors", ConsolePages.Visitors(t: ConsoleStrings.all(lang), csrf: s.csrf, bans: bans))
        return layout(
            title: ConsoleStrings.text("visitors", lang), lang: lang, session: s, path: "/staff/visitors", body: body, flash: flash(req, s),
            problem: problemParam(req, s))
    }

    func ban(_ text: String, _ s: StaffSession, _ lang: Language) async throws -> Response {
        guard let v = VisitorID(text.trimmingCharacters(in: .whitespaces)), v != .curator else {
            return Self.redirect(notice("/staff/visitors", "problem", ConsoleStrings.text("badInput", lang, ["why": "visitor id"]), s))
        }
        let (changed, notes) = try await console.ban(v, by: s.staff)
        if changed {
            try await console.audit(AuditEntry(at: clock(), staff: s.staff, action: "ban", target: "visitor:" + v.rawValue, before: "allowed", after: "banned, \(notes) notes hidden"))
        }
        return Self.redirect(notice("/staff/visitors", "done", ConsoleStrings.text("banned", lang, ["visitor": v.rawValue, "n": String(notes)]), s))
    }

    /// "Ban the writer" from the queue asks first: a page with the question and the button.
    func banSure(_ text: String, _ s: StaffSession, _ lang: Language) -> Response {
        guard let v = VisitorID(text), v != .curator else {
            return Self.redirect(notice("/staff/visitors", "problem", ConsoleStrings.text("badInput", lang, ["why": "visitor id"]), s))
        }
        let body = render("banSure", ConsolePages.BanSure(t: ConsoleStrings.all(lang), csrf: s.csrf, visitor: v.rawValue, question: ConsoleStrings.text("banSure", lang, ["visitor": v.rawValue])))
        return layout(title: ConsoleStrings.text("ban", lang), lang: lang, session: s, path: "/staff/visitors", body: body)
    }

    func unban(_ text: String, _ s: StaffSession, _ lang: Language) async throws -> Response {
        guard let v = VisitorID(text) else { throw Failure(status: .badRequest, message: "not a visitor id") }
        if try await console.unban(v) {
            try await console.audit(AuditEntry(at: clock(), staff: s.staff, action: "unban", target: "visitor:" + v.rawValue, before: "banned", after: "allowed"))
        }
        return Self.redirect(notice("/staff/visitors", "done", ConsoleStrings.text("unbanned", lang, ["visitor": v.rawValue]), s))
    }

    func erase(_ form: [String: String], _ s: StaffSession, _ lang: Language) async throws -> Response {
        guard let v = VisitorID((form["visitor"] ?? "").trimmingCharacters(in: .whitespaces)), v != .curator, form["confirm"] == "yes" else {
            return Self.redirect(notice("/staff/visitors", "problem", ConsoleStrings.text("badInput", lang, ["why": "visitor id"]), s))
        }
        let gone = try await console.erase(v)
        try await console.audit(AuditEntry(at: clock(), staff: s.staff, action: "erase", target: "visitor:" + v.rawValue, before: gone.summary, after: "erased"))
        return Self.redirect(notice("/staff/visitors", "done", ConsoleStrings.text("erased", lang, ["visitor": v.rawValue, "what": gone.summary]), s))
    }

    // MARK: Featured and announcements

    /// The tagline as the guide shows it: cleaned and cut as a seed's taglines are.
    public static func guideCut(_ text: String) -> String { TextWidth.truncate(NoteText.normalise(text), to: taglineCells) }
    public static var taglineCells: Int { 60 }

    func featuredPage(_ req: Request, _ s: StaffSession, _ lang: Language) async throws -> Response {
        let list = try await console.featuredList()
        let entries = list.map { f in
            ConsolePages.Featured.Entry(
                subject: f.subject.key, dom: Self.domID(f.subject.key), title: config.catalogue.title(f.subject.key, lang) ?? "", tier: f.tier,
                from: f.from.map(localInput) ?? "", until: f.until.map(localInput) ?? "",
                taglines: ConsoleStrings.languages.map { l in
                    let t = f.taglines[l] ?? ""
                    let cut = Self.guideCut(t)
                    return ConsolePages.Featured.Tagline(
                        code: l.code, name: l.interfaceName, text: t, cut: cut, dom: Self.domID(f.subject.key),
                        cells: ConsoleStrings.text("cells", lang, ["n": String(TextWidth.width(cut)), "max": String(Self.taglineCells)]))
                })
        }
        let body = render("featured", ConsolePages.Featured(t: ConsoleStrings.all(lang), csrf: s.csrf, entries: entries))
        return layout(
            title: ConsoleStrings.text("featured", lang), lang: lang, session: s, path: "/staff/featured", body: body, flash: flash(req, s),
            problem: problemParam(req, s))
    }

    /// A tagline as the guide would cut it, for the live preview as staff type (issue 44 #14:
    /// the preview changed only on saving): the cut line, then the cells it takes.
    func taglinePreview(_ req: Request, _ lang: Language) -> Response {
        let text = req.uri.queryParameters["text"].map(String.init).flatMap { $0.removingPercentEncoding } ?? ""
        let cut = Self.guideCut(String(text.prefix(400)))
        let cells = ConsoleStrings.text("cells", lang, ["n": String(TextWidth.width(cut)), "max": String(Self.taglineCells)])
        var h = Self.headers("text/plain; charset=utf-8")
        h[.cacheControl] = "no-store"
        return Response(status: .ok, headers: h, body: ResponseBody(byteBuffer: ByteBuffer(string: cut + "\n" + cells)))
    }

    func saveFeatured(_ form: [String: String], _ s: StaffSession, _ lang: Language) async throws -> Response {
        func refuse(_ why: String) -> Response { Self.redirect(notice("/staff/featured", "problem", ConsoleStrings.text("badInput", lang, ["why": why]), s)) }
        guard let subject = PulseSubject((form["subject"] ?? "").trimmingCharacters(in: .whitespaces)) else { return refuse("subject (artwork:ID, tour:ID …)") }
        // As `docent-pulse feature --data`: a subject the museum's data does not have is refused.
        if config.catalogue.lacks(subject.key) { return refuse("subject: the museum's data has no \(subject.key)") }
        guard let tier = Int(form["tier"] ?? ""), (0...100).contains(tier) else { return refuse("tier 0…100") }
        guard let from = parseLocal(form["from"]), let until = parseLocal(form["until"]) else { return refuse("from / until") }
        let old = try await console.featuredList().first { $0.subject == subject }
        var taglines: [Language: String] = old?.taglines ?? [:]
        for l in ConsoleStrings.languages {
            guard let raw = form["tagline-" + l.code] else { continue }
            let cut = Self.guideCut(raw)
            taglines[l] = cut.isEmpty ? nil : cut
        }
        var seed = PulseSeed()
        seed.featured = [PulseFeatured(subject: subject, tier: tier, taglines: taglines, from: from ?? nil, until: until ?? nil)]
        try await store.apply(seed)
        for entry in StaffAudit.seed(seed, featuredBefore: old.map { [$0] } ?? [], announcementsBefore: [], curatorNotesBefore: [:], staff: s.staff, at: clock()) {
            try await console.audit(entry)
        }
        return Self.redirect(notice("/staff/featured", "done", ConsoleStrings.text("saved", lang, ["what": subject.key]), s))
    }

    func announcementsPage(_ req: Request, _ s: StaffSession, _ lang: Language) async throws -> Response {
        let list = try await console.announcementList()
        let patternsText = req.uri.queryParameters["patterns"].map(String.init) ?? list.first.map { $0.feeds.map(\.source).joined(separator: "\n") } ?? "tab:home"
        var patterns: [PulsePattern] = []
        var problem: String?
        for line in patternsText.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty {
            switch PulsePattern.compile(line) {
            case .success(let p): patterns.append(p)
            case .failure(let f): problem = "\(line): \(f)"
            }
        }
        let matches = config.catalogue.matching(patterns)
        let entries =
            list.map { a in announcementContext(a, s) }
            + [.init(id: "", dom: "new", feeds: "", isCard: true, positions: "", from: "", until: "", csrf: s.csrf, texts: texts([:]))]
        let context = ConsolePages.Announcements(
            t: ConsoleStrings.all(lang), csrf: s.csrf, patterns: patternsText,
            matches: matches.prefix(300).map { .init(key: $0, title: config.catalogue.title($0, lang) ?? "") }, matchCount: matches.count, entries: entries,
            patternProblem: problem)
        let body = render("announcements", context)
        return layout(
            title: ConsoleStrings.text("announcements", lang), lang: lang, session: s, path: "/staff/announcements", body: body, flash: flash(req, s),
            problem: problemParam(req, s))
    }

    func texts(_ t: [Language: String]) -> [ConsolePages.Announcements.Text] {
        ConsoleStrings.languages.map { .init(code: $0.code, name: $0.interfaceName, text: t[$0] ?? "") }
    }

    func announcementContext(_ a: PulseAnnouncement, _ s: StaffSession) -> ConsolePages.Announcements.Entry {
        ConsolePages.Announcements.Entry(
            id: a.id, dom: Self.domID(a.id), feeds: a.feeds.map(\.source).joined(separator: "\n"), isCard: a.style == .card,
            positions: a.positions.map(String.init).joined(separator: ", "), from: a.from.map(localInput) ?? "", until: a.until.map(localInput) ?? "",
            csrf: s.csrf, texts: texts(a.text))
    }

    func saveAnnouncement(_ form: [String: String], _ s: StaffSession, _ lang: Language) async throws -> Response {
        func refuse(_ why: String) -> Response { Self.redirect(notice("/staff/announcements", "problem", ConsoleStrings.text("badInput", lang, ["why": why]), s)) }
        let id = (form["id"] ?? "").trimmingCharacters(in: .whitespaces)
        guard (1...40).contains(id.count), id.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }) else {
            return refuse("id: 1 to 40 of A-Z, a-z, 0-9, - and _")
        }
        var feeds: [PulsePattern] = []
        for line in (form["feeds"] ?? "").split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty {
            switch PulsePattern.compile(line) {
            case .success(let p): feeds.append(p)
            case .failure(let f): return refuse("\(line): \(f)")
            }
        }
        guard !feeds.isEmpty else { return refuse("patterns") }
        let positions = (form["positions"] ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Int($0) }.filter { (0...500).contains($0) }
        guard let from = parseLocal(form["from"]), let until = parseLocal(form["until"]) else { return refuse("from / until") }
        var text: [Language: String] = [:]
        for l in ConsoleStrings.languages {
            let t = NoteText.normalise(form["text-" + l.code] ?? "")
            if !t.isEmpty { text[l] = TextWidth.truncate(t, to: 200) }
        }
        guard !text.isEmpty else { return refuse("text") }
        let old = try await console.announcementList().first { $0.id == id }
        let a = PulseAnnouncement(
            id: id, feeds: feeds, positions: positions, style: form["style"] == "banner" ? .banner : .card, from: from ?? nil, until: until ?? nil, text: text,
            link: old?.link)
        var seed = PulseSeed()
        seed.announcements = [a]
        try await store.apply(seed)
        for entry in StaffAudit.seed(seed, featuredBefore: [], announcementsBefore: old.map { [$0] } ?? [], curatorNotesBefore: [:], staff: s.staff, at: clock()) {
            try await console.audit(entry)
        }
        return Self.redirect(notice("/staff/announcements", "done", ConsoleStrings.text("saved", lang, ["what": id]), s))
    }

    // MARK: The museum's pulse

    struct Days {
        let first: Int
        let values: [ActivityDay]
        let labels: [String]
    }

    func days() async throws -> Days {
        let now = clock()
        let offset = config.timeZone.secondsFromGMT(for: now)
        let today = Int(floor((now.timeIntervalSince1970 + Double(offset)) / 86400))
        let first = today - 29
        let per = try await console.activityPerDay(from: Date(timeIntervalSince1970: Double(first) * 86400 - Double(offset)), offset: offset)
        let f = DateFormatter()
        f.calendar = Calendar(identifier: .gregorian)
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd"
        let labels = (first...today).map { f.string(from: Date(timeIntervalSince1970: Double($0) * 86400)) }
        return Days(first: first, values: (first...today).map { per[$0] ?? ActivityDay() }, labels: labels)
    }

    func pulsePage(_ req: Request, _ s: StaffSession, _ lang: Language) async throws -> Response {
        let d = try await days()
        let t = d.values.last ?? ActivityDay()
        let kinds: [(String, KeyPath<ActivityDay, Int>)] = [("plays", \.plays), ("reactions", \.reactions), ("notes", \.notes), ("reports", \.reports)]
        let charts = kinds.map { k in
            let values = d.values.map { $0[keyPath: k.1] }
            let caption = ConsoleStrings.text("chartOf", lang, ["what": ConsoleStrings.text(k.0, lang)])
            return PulsePageContext.Chart(
                kind: k.0, caption: caption, chart: ConsoleCharts.bars(values, labels: d.labels, label: caption),
                rows: zip(d.labels, values).map { PulsePageContext.Day(day: $0.0, value: $0.1) })
        }
        let since = Date(timeIntervalSince1970: Double(d.first) * 86400 - Double(config.timeZone.secondsFromGMT(for: clock())))
        let played = try await console.top(kind: "play", since: since, offset: config.timeZone.secondsFromGMT(for: clock()), limit: 10).map {
            PulsePageContext.Played(key: $0.subject.key, title: config.catalogue.title($0.subject.key, lang) ?? "", count: $0.count)
        }
        let liked = try await console.bestLiked(limit: 10).map {
            PulsePageContext.Liked(key: $0.subject.key, title: config.catalogue.title($0.subject.key, lang) ?? "", up: $0.counts.up, down: $0.counts.down)
        }
        let abandoned = Self.abandonment(try await console.stopPlays(since: since, offset: config.timeZone.secondsFromGMT(for: clock()))).prefix(10).map {
            PulsePageContext.Abandoned(key: $0.stop, title: config.catalogue.title($0.stop, lang) ?? "", plays: $0.plays, lost: $0.lost)
        }
        let body = render(
            "pulse",
            PulsePageContext(
                t: ConsoleStrings.all(lang), todayLabel: d.labels.last ?? "",
                today: kinds.map { PulsePageContext.Tile(label: ConsoleStrings.text($0.0, lang), value: t[keyPath: $0.1]) },
                charts: charts, mostPlayed: played, bestLiked: liked, abandoned: Array(abandoned), hasAbandoned: !abandoned.isEmpty,
                hasVisitCode: config.visitCode != nil, visitCode: config.visitCode?.code(at: clock()) ?? ""))
        return layout(title: ConsoleStrings.text("pulse", lang), lang: lang, session: s, path: "/staff/pulse", body: body)
    }

    /// Per tour stop, how many fewer played the next stop: the biggest drops first.
    static func abandonment(_ plays: [(subject: PulseSubject, count: Int)]) -> [(stop: String, plays: Int, lost: Int)] {
        var tours: [Int: [Int: Int]] = [:]
        for p in plays {
            let parts = p.subject.key.dropFirst("stop:".count).split(separator: "/")
            guard parts.count == 2, let t = Int(parts[0]), let n = Int(parts[1]) else { continue }
            tours[t, default: [:]][n, default: 0] += p.count
        }
        var out: [(stop: String, plays: Int, lost: Int)] = []
        for (t, stops) in tours {
            let order = stops.keys.sorted()
            for (i, n) in order.enumerated() where i + 1 < order.count {
                let here = stops[n] ?? 0, next = stops[order[i + 1]] ?? 0
                if here > next { out.append(("stop:\(t)/\(n)", here, here - next)) }
            }
        }
        return out.sorted { ($0.lost, $1.stop) > ($1.lost, $0.stop) }
    }

    func pulseCSV() async throws -> Response {
        let d = try await days()
        var csv = "day,plays,reactions,notes,reports\n"
        for (label, v) in zip(d.labels, d.values) { csv += "\(label),\(v.plays),\(v.reactions),\(v.notes),\(v.reports)\n" }
        return Self.download(csv, "pulse-30-days.csv")
    }

    // MARK: Audit

    func auditFilter(_ req: Request) -> AuditFilter {
        func q(_ k: String) -> String? { req.uri.queryParameters[k[...]].map(String.init).flatMap { $0.isEmpty ? nil : $0 } }
        return AuditFilter(staff: q("staff"), action: q("action"), search: q("q"), limit: 500)
    }

    func auditPage(_ req: Request, _ s: StaffSession, _ lang: Language) async throws -> Response {
        let f = auditFilter(req)
        let entries = try await console.auditLog(f)
        let names = try await console.staffNames() + [Self.tokenStaffName]
        let actions: [String] = ["sign-in", "sign-out", "decide", "ban", "unban", "erase", "feature", "announce"] + StaffAccountsPage.auditActions
        let body = render(
            "audit",
            ConsolePages.Audit(
                t: ConsoleStrings.all(lang), q: f.search ?? "", query: req.uri.query.map { "?" + $0 } ?? "",
                staffOptions: names.map { .init(name: $0, selected: $0 == f.staff) },
                actionOptions: actions.map { .init(name: $0, selected: $0 == f.action) },
                entries: entries.map { .init(at: time($0.at), staff: $0.staff, action: $0.action, target: $0.target, before: $0.before, after: $0.after) },
                hasEntries: !entries.isEmpty))
        return layout(title: ConsoleStrings.text("audit", lang), lang: lang, session: s, path: "/staff/audit", body: body)
    }

    func auditCSV(_ req: Request) async throws -> Response {
        var f = auditFilter(req)
        f.limit = 100_000
        var csv = "at,staff,action,target,before,after\n"
        for e in try await console.auditLog(f) {
            csv += [Self.iso(e.at), e.staff, e.action, e.target, e.before, e.after].map(Self.csvField).joined(separator: ",") + "\n"
        }
        return Self.download(csv, "audit.csv")
    }

    // MARK: An author's own note

    func deleteOwnNote(_ req: Request, _ key: String) async -> Response {
        func problem(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
            var h = HTTPFields()
            h[.contentType] = "application/json"
            return Response(status: status, headers: h, body: ResponseBody(byteBuffer: ByteBuffer(bytes: PulseWire.encode(PulseWire.problem(code, message)))))
        }
        guard let id = NoteID(key: key.removingPercentEncoding ?? key) else { return problem(.badRequest, "bad_note", "not a note id") }
        do {
            let creds = try PulseAPI<Store>.credentials(req)
            try await console.deleteOwnNote(id, as: creds)
            return Response(status: .noContent)
        } catch let f as PulseAPI<Store>.Failure {
            return problem(HTTPResponse.Status(code: f.status), f.code, f.message)
        } catch PulseStoreError.badCredentials {
            return problem(.unauthorized, "bad_token", "the token is not a known visitor's")
        } catch PulseStoreError.noSuchNote {
            return problem(.notFound, "no_such_note", "no note of yours with this id")
        } catch {
            return problem(.serviceUnavailable, "unavailable", "the store cannot be used just now")
        }
    }

    // MARK: Pieces

    /// A page filled from a typed context (a struct the template reads by its fields).
    func render<Context: ConsoleContext>(_ template: String, _ context: Context) -> ConsoleHTML {
        ConsolePages.render(template, context)
    }

    func layout(
        title: String, lang: Language, session: StaffSession?, path: String, body: ConsoleHTML, flash: String? = nil, problem: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let context = Self.layoutContext(title: title, lang: lang, session: session, path: path, body: body, flash: flash, problem: problem)
        return Self.html(render("layout", context).html, status: status)
    }

    /// The layout's context (apart, so a test renders what a page gets).
    static func layoutContext(
        title: String, lang: Language, session: StaffSession?, path: String, body: ConsoleHTML, flash: String?, problem: String?
    ) -> ConsolePages.Layout {
        // The accounts page only for those who may manage accounts (issue 44 #14).
        let pages: [(String, String)] =
            [
                ("/staff/queue", "queue"), ("/staff/visitors", "visitors"), ("/staff/featured", "featured"), ("/staff/announcements", "announcements"),
                ("/staff/pulse", "pulse"), ("/staff/audit", "audit"),
            ] + (session?.mayManageAccounts == true ? [("/staff/accounts", "accounts")] : [])
        let nav = pages.map { ConsolePages.Layout.Link(href: $0.0, label: ConsoleStrings.text($0.1, lang), current: $0.0 == path) }
        return ConsolePages.Layout(
            t: ConsoleStrings.all(lang), lang: lang == .traditionalChinese ? "zh-Hant" : lang.code, title: title, path: path, body: body,
            languages: ConsoleStrings.languages.map { .init(code: $0.code, name: $0.interfaceName, selected: $0 == lang) },
            staff: session.map { .init(nav: nav, csrf: $0.csrf, signedIn: ConsoleStrings.text("signedInAs", lang, ["name": $0.staff])) },
            flash: flash, problem: problem)
    }

    /// A page's notice after an action: the text in the query, with its HMAC under the session's
    /// own secret (issue 44 #11): a link from elsewhere cannot make the console say something
    /// it did not (`?problem=Your session expired. Call IT at …`).
    func notice(_ path: String, _ kind: String, _ text: String, _ s: StaffSession) -> String {
        "\(path)?\(kind)=\(Self.urlEncode(text))&\(kind)-sig=\(Self.noticeSignature(kind, text, s))"
    }

    static func noticeSignature(_ kind: String, _ text: String, _ s: StaffSession) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array((kind + "\n" + text).utf8), using: SymmetricKey(data: Array(s.csrf.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }

    /// The notice of `kind` in the query when it is one this console made for this session.
    func signedNotice(_ req: Request, _ kind: String, _ s: StaffSession) -> String? {
        guard let text = req.uri.queryParameters[kind[...]].map(String.init).flatMap({ $0.removingPercentEncoding }),
            let sig = req.uri.queryParameters[(kind + "-sig")[...]].map(String.init), Self.same(sig, Self.noticeSignature(kind, text, s))
        else { return nil }
        return String(text.prefix(300))
    }

    func flash(_ req: Request, _ s: StaffSession) -> String? { signedNotice(req, "done", s) }

    func problemParam(_ req: Request, _ s: StaffSession) -> String? { signedNotice(req, "problem", s) }

    /// An error page; with the session when there is one, the navigation stays (issue 44 #14).
    func failurePage(_ error: any Error, _ lang: Language, _ req: Request, session: StaffSession? = nil) -> Response {
        var status = HTTPResponse.Status.internalServerError
        var text = ""
        switch error {
        case let f as Failure: (status, text) = (f.status, f.message)
        case PulseStoreError.noSuchNote: (status, text) = (.notFound, ConsoleStrings.text("notFound", lang))
        case PulseStoreError.unavailable(let why):
            logger.warning("staff console: the store is unavailable", metadata: ["reason": "\(why)"])
            (status, text) = (.serviceUnavailable, ConsoleStrings.text("unavailable", lang, ["why": why]))
        case is NIOTooManyBytesError: (status, text) = (.contentTooLarge, "the form is too large")
        default:
            logger.error("staff console: \(String(describing: error))")
            (status, text) = (.internalServerError, ConsoleStrings.text("unavailable", lang, ["why": "internal error"]))
        }
        let body = render("message", ConsolePages.Message(text: text, back: "/staff/queue", backLabel: ConsoleStrings.text("queue", lang)))
        return layout(title: ConsoleStrings.text("console", lang), lang: lang, session: session, path: req.uri.path, body: body, status: status)
    }

    func language(_ req: Request) -> Language {
        ConsoleStrings.pick(
            query: req.uri.queryParameters["lang"].map(String.init), cookie: cookieValue(req, Self.languageCookie), accept: req.headers[.acceptLanguage])
    }

    func remember(_ lang: Language, _ req: Request, _ r: inout Response) {
        if req.uri.queryParameters["lang"] != nil { r.setCookie(cookie(Self.languageCookie, lang.code, req, maxAge: 365 * 86400)) }
    }

    /// HttpOnly, SameSite=Strict. Over TLS (nginx says so with `X-Forwarded-Proto: https`)
    /// the name is `__Host-…`, Secure, path / (issue 44 #7): a page on another port or
    /// another name of the host cannot set or shadow it; over plain HTTP (a test, a laptop)
    /// the plain name, path /staff.
    func cookie(_ name: String, _ value: String, _ req: Request, maxAge: Int) -> Cookie {
        let secure = Self.overTLS(req)
        return Cookie(name: (secure ? "__Host-" : "") + name, value: value, maxAge: maxAge, path: secure ? "/" : "/staff", secure: secure, httpOnly: true, sameSite: .strict)
    }

    static func overTLS(_ req: Request) -> Bool { req.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https" }

    /// A cookie of ours: nil unless it came exactly once (a second one of the same name was
    /// tossed in from elsewhere, with a narrower path: neither is trusted).
    func cookieValue(_ req: Request, _ name: String) -> String? {
        let full = (Self.overTLS(req) ? "__Host-" : "") + name
        var found: [String] = []
        for header in req.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if kv.count == 2, kv[0].trimmingCharacters(in: .whitespaces) == full { found.append(kv[1].trimmingCharacters(in: .whitespaces)) }
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// A form posted from a page of this console: browsers say where a request comes from in
    /// `Sec-Fetch-Site`; "same-site" is another port or name of the same site (cookie tossing,
    /// login CSRF: issue 44 #7), refused as cross-site is. (No header: a client that is no
    /// browser, which brings no victim's cookies.)
    static func sameOrigin(_ req: Request) -> Bool {
        guard let site = req.headers[HTTPField.Name("Sec-Fetch-Site")!] else { return true }
        return site == "same-origin" || site == "none"
    }

    /// Museum time, as staff read it (a formatter is costly to make: made once a zone).
    func time(_ d: Date) -> String { ConsoleClock.format(d, "yyyy-MM-dd HH:mm", config.timeZone) }

    func localInput(_ d: Date) -> String { ConsoleClock.format(d, "yyyy-MM-dd'T'HH:mm", config.timeZone) }

    /// A `datetime-local` value in museum time: `.some(nil)` when empty, nil when unreadable.
    func parseLocal(_ text: String?) -> Date?? {
        let t = (text ?? "").trimmingCharacters(in: .whitespaces)
        if t.isEmpty { return .some(nil) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = config.timeZone
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            f.dateFormat = format
            if let d = f.date(from: t) { return .some(d) }
        }
        return nil
    }

    static func iso(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: d)
    }

    static func csvField(_ s: String) -> String {
        // A leading = + - @ would be a formula in a spreadsheet: quoted with a ' first.
        var v = s
        if let c = v.first, "=+-@".contains(c) { v = "'" + v }
        if v.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || v != s {
            return "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return v
    }

    static func domID(_ s: String) -> String {
        String(s.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
    }

    static func headers(_ type: String) -> HTTPFields {
        var h = HTTPFields()
        h[.contentType] = type
        h[.cacheControl] = "no-store"
        h[HTTPField.Name("Content-Security-Policy")!] =
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
        h[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        h[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        h[HTTPField.Name("X-Frame-Options")!] = "DENY"
        return h
    }

    static func html(_ s: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: headers("text/html; charset=utf-8"), body: ResponseBody(byteBuffer: ByteBuffer(string: s)))
    }

    static func asset(_ s: String, _ type: String) -> Response {
        var h = headers(type)
        h[.cacheControl] = "max-age=300"
        return Response(status: .ok, headers: h, body: ResponseBody(byteBuffer: ByteBuffer(string: s)))
    }

    static func download(_ s: String, _ name: String) -> Response {
        var h = headers("text/csv; charset=utf-8")
        h[.contentDisposition] = "attachment; filename=\"\(name)\""
        return Response(status: .ok, headers: h, body: ResponseBody(byteBuffer: ByteBuffer(string: s)))
    }

    static func redirect(_ to: String) -> Response {
        var h = headers("text/plain; charset=utf-8")
        h[.location] = to
        return Response(status: .seeOther, headers: h)
    }

    static func urlEncode(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// An `application/x-www-form-urlencoded` body (at most 64 KB).
    static func form(_ req: Request) async throws -> [String: String] {
        let buffer = try await req.body.collect(upTo: 64 * 1024)
        let text = String(decoding: buffer.readableBytesView, as: UTF8.self)
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String { String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            guard let k = kv.first else { continue }
            out[decode(k)] = kv.count > 1 ? decode(kv[1]) : ""
        }
        return out
    }

    static func randomHex() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &rng)) }.joined()
    }

    static func digest(_ s: String) -> String {
        SHA256.hash(data: Array(s.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func same(_ a: String, _ b: String) -> Bool { PulseAPI<Store>.sameSecret(Array(a.utf8), Array(b.utf8)) }

}

/// Staff passwords: bcrypt (hummingbird-auth's), cost 12 by default.
public enum StaffPassword {
    /// A bcrypt hash no password matches (an unknown account costs as much as a known one).
    static let dummyHash = Bcrypt.hash(StaffConsole<SQLitePulseStore>.randomHex(), cost: 12)

    /// A staff password's hash (`docent-pulse staff add`).
    public static func hash(_ password: String, cost: UInt8 = 12) -> String { Bcrypt.hash(password, cost: cost) }

    /// Account names: 1 to 40 of a-z, 0-9, '.', '-' and '_' (they appear in the audit log).
    public static func validName(_ name: String) -> Bool {
        (1...40).contains(name.count) && name != StaffConsole<SQLitePulseStore>.tokenStaffName
            && name.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "." || $0 == "-" || $0 == "_" }
    }
}

/// Date formatters, made once per format and zone and used under a lock.
enum ConsoleClock {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var formatters: [String: DateFormatter] = [:]

    static func format(_ d: Date, _ format: String, _ zone: TimeZone) -> String {
        lock.lock()
        defer { lock.unlock() }
        let key = format + "|" + zone.identifier
        if let f = formatters[key] { return f.string(from: d) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = format
        formatters[key] = f
        return f.string(from: d)
    }
}

/// What the Pulse page (`/staff/pulse`) shows, typed: the template reads these fields.
struct PulsePageContext: ConsoleContext {
    struct Tile: Sendable { let label: String, value: Int }
    struct Day: Sendable { let day: String, value: Int }
    struct Chart: Sendable { let kind: String, caption: String, chart: ConsoleCharts.BarChart, rows: [Day] }
    struct Played: Sendable { let key: String, title: String, count: Int }
    struct Liked: Sendable { let key: String, title: String, up: Int, down: Int }
    struct Abandoned: Sendable { let key: String, title: String, plays: Int, lost: Int }
    let t: [String: String]
    let todayLabel: String
    let today: [Tile]
    let charts: [Chart]
    let mostPlayed: [Played]
    let bestLiked: [Liked]
    let abandoned: [Abandoned]
    let hasAbandoned: Bool
    let hasVisitCode: Bool
    let visitCode: String
}

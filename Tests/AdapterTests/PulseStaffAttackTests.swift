import DocentCore
import Foundation
import GRDB
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 44's attacks on the real `docent-pulse` binary: a sign-in flood beside a visitor,
/// staff-token guessing, forged log lines, plays answered 204 then SIGTERM or kill -9. Each
/// attack is bounded in time and count, against 127.0.0.0/8 only (127.0.0.2 plays the
/// attacker, 127.0.0.1 the visitor).
final class PulseStaffAttackTests: PostgresTestCase {
    private let staffToken = "staff-token-0123456789abcdef"
    private let password = "correct horse battery staple"

    private func start(_ database: String, _ extra: [String] = []) throws -> PulseServiceProcess {
        let s = try PulseServiceProcess(
            ["--database", database] + extra, environment: ["DOCENT_PULSE_STAFF_TOKEN": staffToken], errorLog: tempDir + "/service-\(services.count).log")
        services.append(s)
        return s
    }

    /// `docent-pulse staff add NAME` with the password on standard input (bcrypt's cost 12, as
    /// the command's default: what a flood of sign-ins costs the service).
    private func addStaff(_ database: String, _ name: String, password: String? = nil) throws {
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        let p = Process()
        p.executableURL = exe.deletingLastPathComponent().appendingPathComponent("docent-pulse")
        p.arguments = ["staff", "add", name, "--database", database]
        let input = Pipe()
        p.standardInput = input
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        input.fileHandleForWriting.write(Data(((password ?? self.password) + "\n").utf8))
        try input.fileHandleForWriting.close()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "staff add \(name)")
    }

    /// A sign-in form: its token (the hidden field) and its cookie; nil when refused.
    private static func signInForm(_ port: Int, from: String) throws -> String? {
        let r = try RawHTTP.request(port: port, "GET", "/staff/sign-in", from: from)
        guard r.status == 200, let range = r.text.range(of: #"name="csrf" value=""#) else { return nil }
        return String(r.text[range.upperBound...].prefix(64))
    }

    private static func signIn(_ port: Int, name: String, password: String, token: String, from: String) throws -> RawHTTP.Answer {
        func enc(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }
        let body = "csrf=\(token)&name=\(enc(name))&password=\(enc(password))"
        return try RawHTTP.request(
            port: port, "POST", "/staff/sign-in", body: Array(body.utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "docent_signin=\(token)"], from: from)
    }

    // MARK: 1. A sign-in flood beside a visitor

    func testASignInFloodDoesNotStarveTheVisitorsSQLite() throws { try signInFlood(try database(.sqlite)) }

    /// 8 attackers from one address sign in as fast as they can for 15 s (a known account and
    /// unknown names, wrong passwords, forms fetched or made up); a visitor on another address
    /// reads the snapshot every 100 ms meanwhile: its p99 stays under 250 ms.
    private func signInFlood(_ database: String) throws {
        try addStaff(database, "ana")
        let s = try start(database)
        let port = s.port
        let stopAt = Date().addingTimeInterval(15)
        let flood = Flood(workers: 8, seconds: 15) { w, n in
            let token = (try? Self.signInForm(port, from: "127.0.0.2")) ?? StaffConsoleToken.made(n)
            let name = n % 2 == 0 ? "ana" : "nobody\(w)x\(n)"
            return (try? Self.signIn(port, name: name, password: "wrong-\(n)", token: token, from: "127.0.0.2").status) ?? -1
        }
        var times: [Double] = []
        var next = Date()
        while Date() < stopAt {
            let t0 = Date()
            let r = try RawHTTP.request(port: port, "GET", "/v1/snapshot?day_start=0", from: "127.0.0.1")
            times.append(Date().timeIntervalSince(t0) * 1000)
            XCTAssertEqual(r.status, 200)
            next = next.addingTimeInterval(0.1)
            if next > Date() { Thread.sleep(until: next) }  // pacing, not synchronisation
        }
        let statuses = try XCTUnwrap(flood.finish(), "the attackers stopped")
        let p50 = RawHTTP.percentile(times, 0.5), p99 = RawHTTP.percentile(times, 0.99)
        let checked = statuses[401, default: 0]
        print("sign-in flood: visitor p50 \(String(format: "%.1f", p50)) ms, p99 \(String(format: "%.1f", p99)) ms over \(times.count); attacker answers \(statuses)")
        XCTAssertGreaterThan(times.count, 100)
        XCTAssertLessThan(p99, 250, "the visitor's p99 during the flood")
        XCTAssertGreaterThan(statuses[429, default: 0], 0, "the address met its limit")
        // The address's limit: 20 at once, then 10 a minute (15 s: 2.5 more).
        XCTAssertLessThanOrEqual(checked, 23, "passwords checked for one address in 15 s")
    }

    // MARK: The lockout, raced

    func testSixtyConcurrentWrongPasswordsCheckFiveSQLite() throws { try lockoutRace(try database(.sqlite)) }
    func testSixtyConcurrentWrongPasswordsCheckFivePostgreSQL() throws { try lockoutRace(try database(.postgres)) }

    /// 60 wrong passwords on one account at once, from 60 addresses (each under its own
    /// limit): the tries are counted before they are checked, so 5 are checked (401) and the
    /// rest meet the lockout (429); the right password then meets it too.
    private func lockoutRace(_ database: String) throws {
        try addStaff(database, "ana")
        let s = try start(database)
        let port = s.port
        let forms = try (0..<60).map { i in try XCTUnwrap(try Self.signInForm(port, from: "127.0.1.\(i + 1)")) }
        let lock = NSLock()
        nonisolated(unsafe) var statuses: [Int: Int] = [:]
        DispatchQueue.concurrentPerform(iterations: 60) { i in
            let status = (try? Self.signIn(port, name: "ana", password: "wrong-\(i)", token: forms[i], from: "127.0.1.\(i + 1)").status) ?? -1
            lock.withLock { statuses[status, default: 0] += 1 }
        }
        print("60 concurrent wrong passwords: \(statuses)")
        XCTAssertEqual(statuses[401], 5, "passwords checked: \(statuses)")
        XCTAssertEqual(statuses[429], 55, "\(statuses)")
        let form = try XCTUnwrap(try Self.signInForm(port, from: "127.0.0.1"))
        XCTAssertEqual(try Self.signIn(port, name: "ana", password: password, token: form, from: "127.0.0.1").status, 429)
    }

    /// Six wrong staff tokens from one address locked the token's sign-in for everyone (the
    /// right token then met 429): now they lock that address only.
    func testWrongTokensFromOneAddressDoNotLockTheTokenForEveryone() throws {
        let s = try start(try database(.sqlite))
        var statuses: [Int] = []
        for i in 0..<7 {
            let form = try XCTUnwrap(try Self.signInForm(s.port, from: "127.0.0.2"))
            statuses.append(try Self.signIn(s.port, name: "", password: "wrong-token-\(i)", token: form, from: "127.0.0.2").status)
        }
        XCTAssertEqual(statuses.last, 429, "the guessing address is locked out: \(statuses)")
        let form = try XCTUnwrap(try Self.signInForm(s.port, from: "127.0.0.1"))
        XCTAssertEqual(try Self.signIn(s.port, name: "", password: staffToken, token: form, from: "127.0.0.1").status, 303, "the right token, from elsewhere")
    }

    // MARK: 2. Guessing the staff token on the API

    func testThreeHundredWrongStaffTokensMeetA429() throws {
        let s = try start(try database(.sqlite))
        var limited = 0, refused = 0
        var retryAfter: String?
        for i in 0..<300 {
            let r = try RawHTTP.request(
                port: s.port, "GET", "/v1/moderation/queue", headers: ["Authorization": "Bearer guess-\(i)-0123456789abcdef"], from: "127.0.0.2")
            if r.status == 429 {
                limited += 1
                retryAfter = retryAfter ?? r.headers["retry-after"]
            } else {
                XCTAssertEqual(r.status, 401)
                refused += 1
            }
        }
        XCTAssertGreaterThan(limited, 250, "wrong tokens past the address's limit get 429")
        XCTAssertLessThanOrEqual(refused, 10, "tokens compared for one address")
        XCTAssertNotNil(retryAfter.flatMap(Int.init), "429 says when to come back")
        // Another address, with the right token, is served.
        let ok = try RawHTTP.request(port: s.port, "GET", "/v1/moderation/queue", headers: ["Authorization": "Bearer " + staffToken], from: "127.0.0.1")
        XCTAssertEqual(ok.status, 200)
        // The warnings are bounded (20 a minute), not one per guess.
        let warnings = s.standardError().components(separatedBy: "failed staff sign-in").count - 1
        XCTAssertGreaterThan(warnings, 0)
        XCTAssertLessThanOrEqual(warnings, 20)
        // An over-long Docent-Staff (it goes into the audit log) is refused.
        let long = try RawHTTP.request(
            port: s.port, "GET", "/v1/moderation/queue", headers: ["Authorization": "Bearer " + staffToken, "Docent-Staff": String(repeating: "a", count: 500)])
        XCTAssertEqual(long.status, 400)
    }

    // MARK: 3. Forged log lines, passwords in the name field

    func testTypedNamesCannotForgeLogLinesNorLeakPasswords() throws {
        let database = try database(.sqlite)
        try addStaff(database, "ana")
        let s = try start(database)
        let forged = "x\n2026-11-28T09:00:00+0000 critical docent-pulse: FORGED\r\u{1b}[2J"
        let typedPassword = "my-own-password-4242"
        for name in [forged, typedPassword, String(repeating: "n", count: 15_000)] {
            let token = try XCTUnwrap(try Self.signInForm(s.port, from: "127.0.0.1"))
            XCTAssertEqual(try Self.signIn(s.port, name: name, password: "whatever", token: token, from: "127.0.0.1").status, 401)
        }
        let token = try XCTUnwrap(try Self.signInForm(s.port, from: "127.0.0.1"))
        XCTAssertEqual(try Self.signIn(s.port, name: "ana", password: "wrong", token: token, from: "127.0.0.1").status, 401)
        let log = s.standardError()
        let lines = log.split(separator: "\n")
        XCTAssertFalse(lines.contains { $0.contains("critical") || $0.hasPrefix("2026-11-28T09:00:00") }, "a forged line:\n\(log)")
        XCTAssertFalse(log.contains("\u{1b}"), "a terminal escape reached the log")
        XCTAssertFalse(log.contains(typedPassword), "a name that is no account's was logged as typed")
        XCTAssertFalse(log.contains(String(repeating: "n", count: 300)), "a 15 KB name was logged")
        XCTAssertEqual(lines.filter { $0.contains("failed sign-in") && $0.contains("(unknown)") }.count, 3, log)
        XCTAssertTrue(lines.contains { $0.contains("failed sign-in") && $0.contains("account=ana") }, log)
        XCTAssertLessThan(log.utf8.count, 8_000, "four failed sign-ins")
        // Nothing typed is kept (a 15 KB name added 32 KB a try): the address's row and one
        // per name an account could have (ana, the password typed as a name), by digest.
        let q = try DatabaseQueue(path: String(database.dropFirst("sqlite:".count)))
        let keys = try q.read { try String.fetchAll($0, sql: "SELECT key FROM staff_failure ORDER BY key") }
        XCTAssertEqual(keys.count, 3, "\(keys)")
        XCTAssertTrue(keys.contains("address:127.0.0.1"), "\(keys)")
        XCTAssertTrue(keys.allSatisfy { $0.utf8.count <= 48 && !$0.contains("password") && !$0.contains("ana") && !$0.contains("nnnn") }, "\(keys)")
    }

    // MARK: 4. Plays answered 204 are kept

    func testPlaysAnswered204SurviveSIGTERMSQLite() throws { try playsThenSIGTERM(.sqlite) }
    func testPlaysAnswered204SurviveSIGTERMPostgreSQL() throws { try playsThenSIGTERM(.postgres) }

    /// 100 plays answered 204 (the default five-second flush), then SIGTERM at once: 100 stored.
    private func playsThenSIGTERM(_ store: Store) throws {
        let database = try database(store)
        let s = try start(database, ["--plays-per-minute", "100000"])
        var answered = 0
        for i in 0..<100 where try RawHTTP.request(port: s.port, "POST", "/v1/plays/artwork:\(1100 + i % 7)").status == 204 { answered += 1 }
        XCTAssertEqual(answered, 100)
        s.stop()
        XCTAssertEqual(try storedPlays(store, database), 100, "plays answered 204, then SIGTERM")
    }

    func testPlaysAnswered204SurviveKillNineSQLite() throws { try playsThenKillNine(.sqlite) }
    func testPlaysAnswered204SurviveKillNinePostgreSQL() throws { try playsThenKillNine(.postgres) }

    /// Four writers send plays for 3 s; the service is killed (-9) half-way: every play
    /// answered 204 is in the database.
    private func playsThenKillNine(_ store: Store) throws {
        let database = try database(store)
        let s = try start(database, ["--plays-per-minute", "100000"])
        let port = s.port
        let flood = Flood(workers: 4, seconds: 3) { w, n in
            (try? RawHTTP.request(port: port, "POST", "/v1/plays/artwork:\(1100 + n % 13)", from: "127.0.0.\(3 + w)").status) ?? -1
        }
        // Mid-load: killed while the writers still send.
        Thread.sleep(forTimeInterval: 1.5)
        kill(s.process.processIdentifier, SIGKILL)
        let statuses = try XCTUnwrap(flood.finish())
        s.process.waitUntilExit()
        let acked = statuses[204, default: 0]
        let stored = try storedPlays(store, database)
        print("kill -9 under plays (\(store)): \(acked) answered 204, \(stored) stored")
        XCTAssertGreaterThan(acked, 50, "the load ran")
        XCTAssertGreaterThanOrEqual(stored, acked, "every play answered 204 was stored")
    }

    // MARK: 6, 7, 11. Sessions, cookies, notices

    /// A request whose answer's raw head is kept (several Set-Cookie lines).
    private func rawRequest(_ port: Int, _ method: String, _ path: String, body: String = "", headers: [String: String] = [:]) throws -> (status: Int, head: String, body: String) {
        let fd = try RawHTTP.connect(port: port)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        RawHTTP.send(fd, Array((head + "\r\n" + body).utf8))
        let text = String(decoding: RawHTTP.readToEnd(fd), as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? -1
        return (status, parts.first ?? "", parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// Signs in (name empty: the staff token) and answers the session cookie's value.
    private func session(_ port: Int, name: String, password: String) throws -> String {
        let token = try XCTUnwrap(try Self.signInForm(port, from: "127.0.0.1"))
        func enc(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }
        let r = try rawRequest(
            port, "POST", "/staff/sign-in", body: "csrf=\(token)&name=\(enc(name))&password=\(enc(password))",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "docent_signin=\(token)"])
        XCTAssertEqual(r.status, 303, r.body)
        let range = try XCTUnwrap(r.head.range(of: "docent_staff="), r.head)
        return String(r.head[range.upperBound...].prefix(64))
    }

    private func queueStatus(_ port: Int, _ cookie: String) throws -> Int {
        try rawRequest(port, "GET", "/staff/queue", headers: ["Cookie": "docent_staff=\(cookie)"]).status
    }

    func testASessionEndsWhenItsCredentialChangesSQLite() throws {
        let database = try database(.sqlite)
        try addStaff(database, "ana")
        var s = try start(database)
        let ana = try session(s.port, name: "ana", password: password)
        let token = try session(s.port, name: "", password: staffToken)
        XCTAssertEqual(try queueStatus(s.port, ana), 200)
        XCTAssertEqual(try queueStatus(s.port, token), 200)
        // A new password for ana (`staff add` again): her old session is over.
        try addStaff(database, "ana", password: "a whole new password")
        XCTAssertEqual(try queueStatus(s.port, ana), 303, "a session outlived its password")
        XCTAssertEqual(try queueStatus(s.port, token), 200)
        // Another staff token: the old token's session is over.
        s.stop()
        s = try PulseServiceProcess(["--database", database], environment: ["DOCENT_PULSE_STAFF_TOKEN": "another-staff-token-0123456789"])
        services.append(s)
        XCTAssertEqual(try queueStatus(s.port, token), 303, "a session outlived its staff token")
    }

    func testSignInsFromAnotherOriginOfTheSiteAndTossedCookiesAreRefused() throws {
        let database = try database(.sqlite)
        try addStaff(database, "ana")
        let s = try start(database)
        // Login CSRF from another port of the same host: the browser says same-site.
        let form = try XCTUnwrap(try Self.signInForm(s.port, from: "127.0.0.1"))
        let tossed = try rawRequest(
            s.port, "POST", "/staff/sign-in", body: "csrf=\(form)&name=ana&password=\(password.replacingOccurrences(of: " ", with: "+"))",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "docent_signin=\(form)", "Sec-Fetch-Site": "same-site"])
        XCTAssertEqual(tossed.status, 403)
        XCTAssertFalse(tossed.head.contains("docent_staff="), "signed in from another origin")
        // A made-up form token with its cookie (double submit alone) is refused.
        let madeUp = StaffConsoleToken.made(7)
        XCTAssertEqual(try Self.signIn(s.port, name: "ana", password: password, token: madeUp, from: "127.0.0.1").status, 403)
        // A session cookie tossed in beside the real one: neither is trusted.
        let ana = try session(s.port, name: "ana", password: password)
        XCTAssertEqual(try queueStatus(s.port, ana), 200)
        let two = try rawRequest(s.port, "GET", "/staff/queue", headers: ["Cookie": "docent_staff=\(StaffConsoleToken.made(9)); docent_staff=\(ana)"])
        XCTAssertEqual(two.status, 303)
        // Over TLS (nginx says so) the cookies are __Host- ones, Secure, path /.
        let tls = try rawRequest(s.port, "GET", "/staff/sign-in", headers: ["X-Forwarded-Proto": "https"])
        XCTAssertTrue(tls.head.contains("__Host-docent_signin="), tls.head)
        XCTAssertTrue(tls.head.contains("Path=/;") || tls.head.contains("Path=/\r") || tls.head.hasSuffix("Path=/"), tls.head)
        XCTAssertTrue(tls.head.contains("Secure"), tls.head)
    }

    func testNoticesAreOnlyTheConsolesOwnSQLite() throws {
        let database = try database(.sqlite)
        try addStaff(database, "ana")
        let s = try start(database)
        let ana = try session(s.port, name: "ana", password: password)
        let forged = try rawRequest(s.port, "GET", "/staff/queue?problem=Your%20session%20expired.%20Call%20IT&done=Call%20IT", headers: ["Cookie": "docent_staff=\(ana)"])
        XCTAssertEqual(forged.status, 200)
        XCTAssertFalse(forged.body.contains("Call IT"), "a notice from a link was shown")
        // The console's own notice after an action is shown.
        let page = try rawRequest(s.port, "GET", "/staff/visitors", headers: ["Cookie": "docent_staff=\(ana)"])
        let range = try XCTUnwrap(page.body.range(of: #"name="csrf" value=""#))
        let csrf = String(page.body[range.upperBound...].prefix(64))
        let ban = try rawRequest(
            s.port, "POST", "/staff/visitors/ban", body: "csrf=\(csrf)&visitor=visitor123",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "docent_staff=\(ana)"])
        XCTAssertEqual(ban.status, 303)
        let location = try XCTUnwrap(ban.head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("location:") }).dropFirst("location:".count)
            .trimmingCharacters(in: .whitespaces)
        let after = try rawRequest(s.port, "GET", location, headers: ["Cookie": "docent_staff=\(ana)"])
        XCTAssertTrue(after.body.contains("visitor123"), after.body)
        XCTAssertTrue(after.body.contains("class=\"flash") || after.body.contains("role=\"status\""), "the console's own notice is shown")
    }

    // MARK: 5. Slow bodies

    /// The connection cap (40 here) filled with requests whose body trickles in a byte at a
    /// time, from four addresses: a visitor still gets in, in the place of the slowest.
    func testSlowBodiesDoNotFillTheConnectionCap() throws {
        let s = try start(try database(.sqlite), ["--max-connections", "40"])
        var slow: [Int32] = []
        defer { for fd in slow { close(fd) } }
        for i in 0..<40 {
            let fd = try RawHTTP.connect(port: s.port, from: "127.0.0.\(10 + i / 10)")
            RawHTTP.send(fd, Array("POST /v1/visitors HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 16000\r\n\r\n{".utf8))
            slow.append(fd)
        }
        // The attack: a byte a second on each (three rounds).
        for _ in 0..<3 {
            Thread.sleep(forTimeInterval: 0.5)
            for fd in slow { RawHTTP.send(fd, [0x20]) }
        }
        var statuses: [Int: Int] = [:]
        for _ in 0..<20 {
            let status = (try? RawHTTP.request(port: s.port, "GET", "/healthz").status) ?? -1
            statuses[status, default: 0] += 1
        }
        print("slow bodies at the cap: the visitor's answers \(statuses)")
        XCTAssertGreaterThanOrEqual(statuses[200, default: 0], 19, "\(statuses)")
    }

    /// Issue 44 #5's second part: right after a burst of slow-header sockets (1,320 from 22
    /// addresses in the review), the first honest request sometimes waited 5 s. The burst
    /// filled the cap with sockets all younger than the 250 ms a connection must have waited
    /// to give way at a newcomer's connect, so the newcomer was answered 503 with
    /// Retry-After: 5 (what a client honouring it waits). Here the cap (40) is filled, and
    /// over-filled, within milliseconds, and the visitor comes at once: its whole head takes
    /// the place of a socket that was waiting before it came.
    func testAnHonestRequestRightAfterABurstOfSlowHeadsIsServed() throws {
        let s = try start(try database(.sqlite), ["--max-connections", "40"])
        var slow: [Int32] = []
        defer { for fd in slow { close(fd) } }
        for i in 0..<60 {
            guard let fd = try? RawHTTP.connect(port: s.port, from: "127.0.3.\(1 + i % 22)", timeoutSeconds: 2) else { continue }
            RawHTTP.send(fd, Array("GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8))  // and never the end of the head
            slow.append(fd)
        }
        let t0 = Date()
        let first = try RawHTTP.request(port: s.port, "GET", "/healthz", from: "127.0.0.1")
        let ms = Date().timeIntervalSince(t0) * 1000
        print("the first request right after 60 slow heads: \(first.status) \(first.headers["retry-after"].map { "Retry-After: \($0) " } ?? "")in \(String(format: "%.1f", ms)) ms")
        XCTAssertEqual(slow.count, 60, "the slow sockets were made")
        XCTAssertEqual(first.status, 200, "the first honest request after the burst")
        var statuses: [Int: Int] = [:]
        for _ in 0..<9 { statuses[try RawHTTP.request(port: s.port, "GET", "/healthz", from: "127.0.0.1").status, default: 0] += 1 }
        XCTAssertEqual(statuses, [200: 9], "the next nine")
    }

    // MARK: 13. A hidden note is reported as a missing one is

    func testReportingAHiddenNoteAnswersAsAMissingOneSQLite() throws {
        let s = try start(try database(.sqlite))
        func register(_ v: String) throws -> [String: String] {
            let body = Array(#"{"visitor":"\#(v)","secret":"secret-\#(v)-0123456789"}"#.utf8)
            XCTAssertEqual(try RawHTTP.request(port: s.port, "POST", "/v1/visitors", body: body, headers: ["Content-Type": "application/json"]).status, 201)
            return ["Authorization": "Bearer \(v).secret-\(v)-0123456789", "Content-Type": "application/json"]
        }
        let author = try register("author01")
        let note = Array(#"{"id":"author01.1","subject":"artwork:1101","language":"en","text":"rude words"}"#.utf8)
        XCTAssertEqual(try RawHTTP.request(port: s.port, "POST", "/v1/notes", body: note, headers: author).status, 201)
        for v in ["reporter1", "reporter2", "reporter3"] {
            XCTAssertEqual(try RawHTTP.request(port: s.port, "PUT", "/v1/reports/author01.1", headers: try register(v)).status, 200)
        }
        let prober = try register("prober01")
        let hidden = try RawHTTP.request(port: s.port, "PUT", "/v1/reports/author01.1", headers: prober)
        let missing = try RawHTTP.request(port: s.port, "PUT", "/v1/reports/author01.2", headers: prober)
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(hidden.status, missing.status, "a hidden note answers as a missing one")
        XCTAssertEqual(hidden.text.replacingOccurrences(of: "author01.1", with: "X"), missing.text.replacingOccurrences(of: "author01.2", with: "X"))
        // With a malformed token, GET /v1/notes is 401 (listed in the OpenAPI file now).
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/v1/notes?subject=artwork:1101", headers: ["Authorization": "Bearer nonsense"]).status, 401)
    }

    // MARK: 12. Reads from one address

    func testAReadFloodFromOneAddressIsLimited() throws {
        let s = try start(try database(.sqlite))
        let port = s.port
        let stopAt = Date().addingTimeInterval(5)
        let flood = Flood(workers: 8, seconds: 5) { _, _ in
            (try? RawHTTP.request(port: port, "GET", "/v1/snapshot?day_start=0", from: "127.0.0.2").status) ?? -1
        }
        var times: [Double] = []
        while Date() < stopAt {
            let t0 = Date()
            XCTAssertEqual(try RawHTTP.request(port: port, "GET", "/v1/snapshot?day_start=0", from: "127.0.0.1").status, 200)
            times.append(Date().timeIntervalSince(t0) * 1000)
            Thread.sleep(forTimeInterval: 0.1)  // pacing: a guide's reads
        }
        let statuses = try XCTUnwrap(flood.finish())
        let served = statuses[200, default: 0]
        print("read flood: visitor p99 \(String(format: "%.1f", RawHTTP.percentile(times, 0.99))) ms; attacker answers \(statuses)")
        XCTAssertGreaterThan(statuses[429, default: 0], 0)
        XCTAssertLessThanOrEqual(served, 100 + 30, "reads served to one address in 5 s: a burst of 100, then 5 a second")
    }

    // MARK: 9. Readiness as requests meet the database

    func testReadyzSaysWhenWritesAreRefusedSQLite() throws {
        let database = try database(.sqlite)
        let s = try start(database, ["--log-level", "notice"])
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/readyz").status, 200)
        // Another connection holds the write lock (as a full disk refuses every write, reads
        // still answering): writes meet 503, and readiness says so.
        var config = Configuration()
        config.allowsUnsafeTransactions = true  // the lock is held across accesses on purpose
        // The service's own upkeep writes right after it starts (the console's past days, then
        // the purge): the lock is taken once that write is over, not refused because of it.
        config.busyMode = .timeout(10)
        let q = try DatabaseQueue(path: String(database.dropFirst("sqlite:".count)), configuration: config)
        try q.inDatabase { try $0.execute(sql: "BEGIN EXCLUSIVE") }
        let body = Array(#"{"visitor":"visitor01","secret":"secret-visitor01-0123456789"}"#.utf8)
        let refused = try RawHTTP.request(port: s.port, "POST", "/v1/visitors", body: body, headers: ["Content-Type": "application/json"])
        XCTAssertEqual(refused.status, 503)
        let ready = try RawHTTP.request(port: s.port, "GET", "/readyz")
        XCTAssertEqual(ready.status, 503)
        XCTAssertNotNil(ready.headers["retry-after"].flatMap(Int.init))
        try q.inDatabase { try $0.execute(sql: "ROLLBACK") }
        XCTAssertEqual(try RawHTTP.request(port: s.port, "POST", "/v1/visitors", body: body, headers: ["Content-Type": "application/json"]).status, 201)
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/readyz").status, 200)
        let log = s.standardError()
        XCTAssertTrue(log.contains("the database refuses requests"), log)
        XCTAssertTrue(log.contains("the database serves requests again"), log)
    }

    /// PostgreSQL stopped: a snapshot and notes with a viewer (two calls each), a note posted,
    /// are answered 503 with Retry-After within 5 s, and the refusal is in the log.
    func testPostgreSQLGoneIsA503WithRetryAfterWithinFiveSeconds() throws {
        let pg = try server()
        let s = try start(try database(.postgres))
        let body = Array(#"{"visitor":"visitor01","secret":"secret-visitor01-0123456789"}"#.utf8)
        XCTAssertEqual(try RawHTTP.request(port: s.port, "POST", "/v1/visitors", body: body, headers: ["Content-Type": "application/json"]).status, 201)
        let viewer = ["Authorization": "Bearer visitor01.secret-visitor01-0123456789", "Content-Type": "application/json"]
        try pg.stop()
        defer { try? pg.start() }
        let note = Array(#"{"id":"visitor01.1","subject":"artwork:1101","language":"en","text":"hello"}"#.utf8)
        for (method, path, body) in [("GET", "/v1/snapshot?day_start=0", [UInt8]()), ("GET", "/v1/notes?subject=artwork:1101", []), ("POST", "/v1/notes", note)] {
            let t0 = Date()
            let r = try RawHTTP.request(port: s.port, method, path, body: body, headers: viewer)
            let seconds = Date().timeIntervalSince(t0)
            print("PostgreSQL stopped: \(method) \(path) \(r.status) in \(String(format: "%.2f", seconds)) s")
            XCTAssertEqual(r.status, 503, "\(method) \(path)")
            XCTAssertNotNil(r.headers["retry-after"].flatMap(Int.init), "\(method) \(path): Retry-After")
            XCTAssertLessThan(seconds, 5.0, "\(method) \(path): within 5 s, as the README says")
        }
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/readyz").status, 503)
        XCTAssertTrue(s.standardError().contains("the database refuses requests"), s.standardError())
    }

    /// Plays stored, read from the database itself.
    private func storedPlays(_ store: Store, _ database: String) throws -> Int {
        switch store {
        case .sqlite:
            let q = try DatabaseQueue(path: String(database.dropFirst("sqlite:".count)))
            return try q.read { try Int.fetchOne($0, sql: "SELECT COALESCE(SUM(n), 0) FROM activity WHERE kind = 'play'") ?? -1 }
        case .postgres:
            let name = String(database.split(separator: "/").last?.split(separator: "?").first ?? "")
            let out = try server().psql(name, "SELECT COALESCE(SUM(n), 0) FROM activity WHERE kind = 'play'")
            return Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
    }
}

/// `workers` senders, each on a thread of its own (all at once, whatever Dispatch's pool
/// allows), sending until `seconds` have passed (at most `limit` each); `send(worker, n)`
/// answers a status, and the statuses are counted.
final class Flood: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Int: Int] = [:]
    private let group = DispatchGroup()

    init(workers: Int, seconds: Double, limit: Int = 50_000, _ send: @escaping @Sendable (_ worker: Int, _ n: Int) -> Int) {
        let stopAt = Date().addingTimeInterval(seconds)
        for w in 0..<workers {
            group.enter()
            Thread.detachNewThread { [self] in
                defer { group.leave() }
                var n = 0
                while Date() < stopAt && n < limit {
                    n += 1
                    let status = send(w, n)
                    lock.withLock { statuses[status, default: 0] += 1 }
                }
            }
        }
    }

    /// The statuses, once every sender ended (nil: one did not within 30 s).
    func finish() -> [Int: Int]? {
        group.wait(timeout: .now() + 30) == .success ? lock.withLock { statuses } : nil
    }
}

/// A made-up sign-in token (what an attacker sends without fetching a form).
enum StaffConsoleToken {
    static func made(_ n: Int) -> String { String(repeating: String(format: "%02x", n % 256), count: 32) }
}

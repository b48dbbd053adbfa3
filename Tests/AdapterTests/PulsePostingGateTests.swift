import DocentCore
import Foundation
import NetCurl
import PulseService
import XCTest

/// Issue 32's posting gate on the real `docent-pulse` binary, over SQLite and PostgreSQL:
/// `--posting open` as before; `visit-code` takes the code `docent-pulse visit-code` prints
/// and nothing else; `members` takes the cards on its list; wrong tries from one address are
/// limited whatever identities they come under; reactions and reports stay open; the guide's
/// HTTP store reads the gate from the snapshot and sends the pass.
final class PulsePostingGateTests: PostgresTestCase {



    private func start(_ store: Store, _ extra: [String]) throws -> PulseServiceProcess {
        let s = try PulseServiceProcess(["--database", try database(store)] + extra, errorLog: tempDir + "/service-\(services.count).log")
        services.append(s)
        return s
    }

    private func register(_ port: Int, _ visitor: String) throws -> String {
        let body = Array(#"{"visitor":"\#(visitor)","secret":"secret-\#(visitor)-0123456789"}"#.utf8)
        let r = try RawHTTP.request(port: port, "POST", "/v1/visitors", body: body)
        XCTAssertEqual(r.status, 201, r.text)
        return "\(visitor).secret-\(visitor)-0123456789"
    }

    /// `POST /v1/notes` with `pass` (a JSON field and its value, or nil) from `source`.
    private func post(
        _ port: Int, _ token: String, _ id: String, pass: (String, String)? = nil, from source: String = "127.0.0.1"
    ) throws -> RawHTTP.Answer {
        let extra = pass.map { #","\#($0.0)":"\#($0.1)""# } ?? ""
        let body = Array(#"{"id":"\#(id)","subject":"artwork:1101","language":"en","text":"A fine vessel"\#(extra)}"#.utf8)
        return try RawHTTP.request(port: port, "POST", "/v1/notes", body: body, headers: ["Authorization": "Bearer \(token)"], from: source)
    }

    private func code(_ r: RawHTTP.Answer) -> String? { (try? JSONParser.parse(r.body))?["code"]?.stringValue }

    private func posting(_ port: Int) throws -> String? {
        let r = try RawHTTP.request(port: port, "GET", "/v1/snapshot?day_start=0")
        XCTAssertEqual(r.status, 200, r.text)
        return (try? JSONParser.parse(r.body))?["posting"]?.stringValue
    }

    /// A zone whose clock now reads `hour`:xx (Etc/GMT zones: UTC−12 … UTC+14), so a test of
    /// "today" and "just after midnight" does not depend on when it runs.
    private func zone(whereItIs hour: Int) -> String {
        let utcHour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour ?? 0
        var offset = hour - utcHour
        if offset < -12 { offset += 24 }
        if offset > 14 { offset -= 24 }
        // POSIX's sign: Etc/GMT-3 is three hours east of Greenwich.
        return offset == 0 ? "Etc/GMT" : "Etc/GMT\(offset > 0 ? "-" : "+")\(abs(offset))"
    }

    private func day(_ zoneName: String, daysFromToday: Int) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: zoneName)!
        let d = cal.date(byAdding: .day, value: daysFromToday, to: Date())!
        let c = cal.dateComponents([.year, .month, .day], from: d)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    private func visitCode(_ secretFile: String, _ zoneName: String, date: String? = nil) throws -> String {
        let r = try runDocentPulse(["visit-code", "--secret-file", secretFile, "--time-zone", zoneName] + (date.map { ["--date", $0] } ?? []))
        XCTAssertEqual(r.status, 0, r.err)
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func secretFile() throws -> String {
        let path = tempDir + "/visit-code-secret"
        try Data("museum-secret-0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: Open

    func testOpenPostingIsUnchangedSQLite() throws { try openPosting(.sqlite) }
    func testOpenPostingIsUnchangedPostgreSQL() throws { try openPosting(.postgres) }

    private func openPosting(_ store: Store) throws {
        let s = try start(store, [])
        XCTAssertEqual(try posting(s.port), "open")
        let t = try register(s.port, "visitor01")
        XCTAssertEqual(try post(s.port, t, "visitor01.1").status, 201)
        // A pass sent to an open service is no harm.
        XCTAssertEqual(try post(s.port, t, "visitor01.2", pass: ("visit_code", "ABCDEF")).status, 201)
    }

    // MARK: Visit code

    func testVisitCodePostingTakesTodaysCodeOnlySQLite() throws { try visitCodePosting(.sqlite) }
    func testVisitCodePostingTakesTodaysCodeOnlyPostgreSQL() throws { try visitCodePosting(.postgres) }

    private func visitCodePosting(_ store: Store) throws {
        let secret = try secretFile()
        let noon = zone(whereItIs: 12)
        let s = try start(store, ["--posting", "visit-code", "--visit-code-secret-file", secret, "--time-zone", noon])
        XCTAssertEqual(try posting(s.port), "visit-code")
        let t = try register(s.port, "visitor01")

        let none = try post(s.port, t, "visitor01.1")
        XCTAssertEqual(none.status, 403, none.text)
        XCTAssertEqual(code(none), "visit_code_required")
        let wrong = try post(s.port, t, "visitor01.1", pass: ("visit_code", "AAAAAA"))
        XCTAssertEqual(wrong.status, 403, wrong.text)
        XCTAssertEqual(code(wrong), "visit_code_wrong")
        // At noon, yesterday's and tomorrow's codes are not today's.
        for other in [-1, 1] {
            let c = try visitCode(secret, noon, date: day(noon, daysFromToday: other))
            let r = try post(s.port, t, "visitor01.1", pass: ("visit_code", c))
            XCTAssertEqual(code(r), "visit_code_wrong", "the code of \(other) day(s) from today: \(r.text)")
        }
        // A member card is not a visit code.
        XCTAssertEqual(code(try post(s.port, t, "visitor01.1", pass: ("member_card", "12345678"))), "visit_code_required")

        // What the front desk prints is what the service takes (also typed in lower case with a dash).
        let today = try visitCode(secret, noon)
        XCTAssertEqual(today.count, 6)
        XCTAssertTrue(today.allSatisfy { VisitCodeText.alphabet.contains($0) }, today)
        XCTAssertEqual(try visitCode(secret, noon, date: day(noon, daysFromToday: 0)), today, "--date of today is today's code")
        XCTAssertEqual(try post(s.port, t, "visitor01.1", pass: ("visit_code", today)).status, 201)
        let typed = today.prefix(3).lowercased() + "-" + today.dropFirst(3).lowercased()
        XCTAssertEqual(try post(s.port, t, "visitor01.2", pass: ("visit_code", typed)).status, 201)

        // Reactions and reports stay open.
        let other = try register(s.port, "visitor02")
        let react = try RawHTTP.request(port: s.port, "PUT", "/v1/reactions/artwork:1101", body: Array(#"{"value":1}"#.utf8), headers: ["Authorization": "Bearer \(other)"])
        XCTAssertEqual(react.status, 200, react.text)
        XCTAssertEqual(try RawHTTP.request(port: s.port, "PUT", "/v1/reports/visitor01.1", headers: ["Authorization": "Bearer \(other)"]).status, 200)
        // A stranger's token is told it is unknown, not about codes.
        XCTAssertEqual(try post(s.port, "nobody000.secret-nobody-0123456789", "nobody000.1", pass: ("visit_code", today)).status, 401)
    }

    func testJustAfterMidnightYesterdaysCodeIsStillTakenSQLite() throws {
        let secret = try secretFile()
        let night = zone(whereItIs: 0)
        let s = try start(.sqlite, ["--posting", "visit-code", "--visit-code-secret-file", secret, "--time-zone", night])
        let t = try register(s.port, "visitor01")
        let yesterday = try visitCode(secret, night, date: day(night, daysFromToday: -1))
        XCTAssertEqual(try post(s.port, t, "visitor01.1", pass: ("visit_code", yesterday)).status, 201, "a ticket of last evening, within the grace")
        XCTAssertEqual(try post(s.port, t, "visitor01.2", pass: ("visit_code", try visitCode(secret, night))).status, 201)
        let before = try visitCode(secret, night, date: day(night, daysFromToday: -2))
        XCTAssertEqual(code(try post(s.port, t, "visitor01.3", pass: ("visit_code", before))), "visit_code_wrong")
    }

    // MARK: Guessing

    func testGuessingCodesFromOneAddressIsLimitedSQLite() throws { try guessing(.sqlite) }
    func testGuessingCodesFromOneAddressIsLimitedPostgreSQL() throws { try guessing(.postgres) }

    private func guessing(_ store: Store) throws {
        let secret = try secretFile()
        let noon = zone(whereItIs: 12)
        let s = try start(store, ["--posting", "visit-code", "--visit-code-secret-file", secret, "--time-zone", noon])
        let today = try visitCode(secret, noon)
        // Three identities (identities are free), guessing from one address.
        let guessers = try (0..<3).map { try register(s.port, "guesser\($0)0") }
        var codes: [String?] = []
        var retryAfter: String?
        for i in 0..<12 {
            let r = try post(s.port, guessers[i % 3], "guesser\(i % 3)0.\(i)", pass: ("visit_code", String(format: "ZZZ%03d", i)), from: "127.0.0.2")
            codes.append(code(r))
            if r.status == 429 { retryAfter = retryAfter ?? r.headers["retry-after"] }
        }
        XCTAssertEqual(codes.filter { $0 == "visit_code_wrong" }.count, 10, "ten tries, then none: \(codes)")
        XCTAssertEqual(codes.filter { $0 == "rate_limited_passes" }.count, 2, "\(codes)")
        XCTAssertNotNil(retryAfter.flatMap(Int.init), "a 429 says when to come back")
        // Out of tries, even the right code is not looked at: a guess learns nothing.
        let right = try post(s.port, guessers[0], "guesser00.99", pass: ("visit_code", today), from: "127.0.0.2")
        XCTAssertEqual(right.status, 429, right.text)
        XCTAssertEqual(code(right), "rate_limited_passes")
        // Another address is not held back.
        let t = try register(s.port, "visitor01")
        XCTAssertEqual(try post(s.port, t, "visitor01.1", pass: ("visit_code", today)).status, 201)
        let metrics = try RawHTTP.request(port: s.port, "GET", "/metrics").text
        XCTAssertTrue(metrics.contains(#"pulse_client_limited_total{kind="pass"} 3"#), metrics)
    }

    // MARK: Members

    func testMembersPostingTakesTheListedCardsSQLite() throws { try membersPosting(.sqlite) }
    func testMembersPostingTakesTheListedCardsPostgreSQL() throws { try membersPosting(.postgres) }

    private func membersPosting(_ store: Store) throws {
        let list = tempDir + "/members.txt"
        try Data("# exported nightly from the membership system\n12345678\n  87654321  \n\n".utf8).write(to: URL(fileURLWithPath: list))
        let s = try start(store, ["--posting", "members", "--member-cards-file", list])
        XCTAssertEqual(try posting(s.port), "members")
        let t = try register(s.port, "visitor01")
        XCTAssertEqual(code(try post(s.port, t, "visitor01.1")), "member_required")
        XCTAssertEqual(code(try post(s.port, t, "visitor01.1", pass: ("visit_code", "ABCDEF"))), "member_required")
        let unknown = try post(s.port, t, "visitor01.1", pass: ("member_card", "11111111"))
        XCTAssertEqual(unknown.status, 403, unknown.text)
        XCTAssertEqual(code(unknown), "member_unknown")
        XCTAssertEqual(code(try post(s.port, t, "visitor01.1", pass: ("member_card", "# exported nightly from the membership system"))), "member_unknown")
        XCTAssertEqual(try post(s.port, t, "visitor01.1", pass: ("member_card", "12345678")).status, 201)
        XCTAssertEqual(try post(s.port, t, "visitor01.2", pass: ("member_card", "87654321")).status, 201)
    }

    // MARK: Configuration

    func testAGateThatCannotWorkDoesNotStart() throws {
        let db = "sqlite:" + tempDir + "/pulse.sqlite"
        let short = tempDir + "/short"
        try Data("short\n".utf8).write(to: URL(fileURLWithPath: short))
        let cases: [([String], String)] = [
            (["--posting", "tickets"], "--posting must be open, visit-code or members"),
            (["--posting", "visit-code"], "--posting visit-code needs --visit-code-secret-file"),
            (["--posting", "visit-code", "--visit-code-secret-file", tempDir + "/none"], "cannot read the visit-code secret file"),
            (["--posting", "visit-code", "--visit-code-secret-file", short], "at least 16 characters"),
            (["--posting", "members"], "--posting members needs --member-cards-file"),
            (["--posting", "members", "--member-cards-file", tempDir + "/none"], "cannot read the member cards file"),
            (["--member-cards-file", short], "--member-cards-file goes with --posting members"),
        ]
        for (args, message) in cases {
            let r = try runDocentPulse(["serve", "--database", db, "--listen", "127.0.0.1:0"] + args)
            XCTAssertEqual(r.status, 64, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains(message), "\(args): \(r.err)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: tempDir + "/pulse.sqlite"), "no store is made for a service that cannot start")
        let bad = try runDocentPulse(["visit-code", "--secret-file", try secretFile(), "--date", "2026-02-30"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.err.contains("--date must be a day as YYYY-MM-DD"), bad.err)
    }

    // MARK: The guide's HTTP store

    func testTheGuidesStoreReadsTheGateAndSendsThePass() async throws {
        let secret = try secretFile()
        let noon = zone(whereItIs: 12)
        let s = try start(.sqlite, ["--posting", "visit-code", "--visit-code-secret-file", secret, "--time-zone", noon, "--client-limits", "off"])
        let me = VisitorCredentials(visitor: VisitorID("alice000")!, secret: "aaaaaaaaaaaaaaaa0001")
        let guide = HTTPPulseStore(baseURL: s.url)
        try await guide.register(me)
        let snap = try await guide.snapshot(viewer: me.visitor, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        XCTAssertEqual(snap?.posting, .visitCode)
        func send(_ seq: UInt64, _ pass: PostingPass?) async -> Result<PostOutcome, PulseStoreError> {
            let d = NoteDraft(id: NoteID(visitor: me.visitor, sequence: seq), subject: .artwork(1101), language: .english, text: "A fine vessel", pass: pass)
            do { return .success(try await guide.post(d, as: me)) } catch { return .failure(error) }
        }
        guard case .failure(.postingRefused(.visitCodeRequired)) = await send(1, nil) else { return XCTFail("no code: refused") }
        guard case .failure(.postingRefused(.visitCodeWrong)) = await send(1, .visitCode("AAAAAA")) else { return XCTFail("a wrong code: refused") }
        guard case .success(.created(let note)) = await send(1, .visitCode(try visitCode(secret, noon))) else { return XCTFail("today's code: stored") }
        XCTAssertEqual(note.text, "A fine vessel")
    }
}

/// The visit code's pieces without a service: the code is HMAC-SHA256 cut as documented (the
/// expected value computed apart, with Python's hmac), and the member list is read again when
/// its file changes.
final class PostingCheckTests: XCTestCase {
    func testTheCodeIsTheDocumentedCutOfTheHMAC() {
        // python3 -c "import hmac,hashlib; m=hmac.new(b'museum-secret-0123456789abcdef',
        //   b'docent-visit-code:2026-11-28', hashlib.sha256).digest(); b=int.from_bytes(m[:8],'big');
        //   a='23456789ABCDEFGHJKLMNPQRSTUVWXYZ'; print(''.join(a[(b>>(59-5*i))&31] for i in range(6)))"
        let v = VisitCode(secret: "museum-secret-0123456789abcdef", timeZone: TimeZone(identifier: "Europe/Paris")!)
        XCTAssertEqual(v.code(on: "2026-11-28"), "LU67ZS")
        // 2026-11-28 00:30 in Paris is 2026-11-27 23:30 UTC: the museum's day counts.
        let halfPastMidnight = Date(timeIntervalSince1970: 1_795_822_200)
        XCTAssertEqual(v.day(of: halfPastMidnight), "2026-11-28")
        XCTAssertTrue(v.accepts("lu6-7zs", at: halfPastMidnight))
        XCTAssertTrue(v.accepts(v.code(on: "2026-11-27"), at: halfPastMidnight), "yesterday's, within two hours of midnight")
        XCTAssertFalse(v.accepts(v.code(on: "2026-11-27"), at: halfPastMidnight.addingTimeInterval(2 * 3600)), "not after")
        XCTAssertFalse(v.accepts(v.code(on: "2026-11-29"), at: halfPastMidnight), "not tomorrow's")
        XCTAssertFalse(v.accepts("", at: halfPastMidnight))
        XCTAssertNotEqual(VisitCode(secret: "another-secret-0123456789", timeZone: v.timeZone).code(on: "2026-11-28"), "LU67ZS")
    }

    func testTheMemberListIsReadAgainWhenItsFileChanges() throws {
        let path = NSTemporaryDirectory() + "docent-members-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("12345678\n".utf8).write(to: URL(fileURLWithPath: path))
        final class Clock: @unchecked Sendable { var now = 0.0 }
        let clock = Clock()
        let list = try MemberList.load(path: path, recheck: 30, clock: { clock.now }).get()
        XCTAssertTrue(list.contains("12345678"))
        XCTAssertFalse(list.contains("87654321"))
        try Data("87654321\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: path)
        clock.now = 10
        XCTAssertFalse(list.contains("87654321"), "not looked at again before 30 s")
        clock.now = 31
        XCTAssertTrue(list.contains("87654321"))
        XCTAssertFalse(list.contains("12345678"))
        try FileManager.default.removeItem(atPath: path)
        clock.now = 62
        XCTAssertTrue(list.contains("87654321"), "a file gone keeps the last list")
    }
}

import ChildProcessSupport
import DocentCore
import Foundation
import GRDB
import NetCurl
import StateStore
import XCTest

/// The real `docent-pulse` binary (built next to this test bundle), started on a free port.
final class PulseServiceProcess {
    let process = Process()
    let port: Int
    var url: String { "http://127.0.0.1:\(port)" }

    /// Starts `docent-pulse serve ARGS --listen LISTEN` (a free port by default) and waits for
    /// its "listening" line.
    /// `descriptorLimit`: started under `ulimit -n N` (the README's unit without LimitNOFILE).
    /// `errorLog`: the service's standard error goes to this file (`standardError()` reads it).
    /// `asGiven`: `arguments` are the whole command line (no `serve`, no `--listen` added) and
    /// `environment` the whole environment (the settings tests give both themselves).
    init(
        _ arguments: [String], environment: [String: String] = [:], listen: String = "127.0.0.1:0", descriptorLimit: Int? = nil, errorLog: String? = nil,
        asGiven: Bool = false
    ) throws {
        self.errorLog = errorLog
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        let binary = exe.deletingLastPathComponent().appendingPathComponent("docent-pulse")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw NSError(domain: "PulseServiceProcess", code: 2, userInfo: [NSLocalizedDescriptionKey: "no docent-pulse next to the tests at \(binary.path): run `swift build` first"])
        }
        let serveArguments =
            asGiven ? arguments : ["serve"] + arguments + ["--listen", listen] + (ProcessInfo.processInfo.environment["DOCENT_PULSE_TEST_LOG"].map { ["--log-level", $0] } ?? [])
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", binary.path] + serveArguments
        } else {
            process.executableURL = binary
            process.arguments = serveArguments
        }
        if asGiven {
            process.environment = environment
        } else if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        process.standardOutput = out
        if let errorLog {
            FileManager.default.createFile(atPath: errorLog, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: errorLog)
        }
        try process.run()
        // The first line says the port; reading blocks until it is written (or the process ends).
        var line: [UInt8] = []
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte.first == 0x0A { break }
            line.append(contentsOf: byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("docent-pulse listening on "), let p = text.split(separator: ":").last.flatMap({ Int($0) }) else {
            process.terminate()
            throw NSError(domain: "PulseServiceProcess", code: 1, userInfo: [NSLocalizedDescriptionKey: "docent-pulse did not start: '\(text)'"])
        }
        port = p
        // The rest of standard output is read to the end, so the service never blocks on a full pipe.
        let handle = out.fileHandleForReading
        Thread.detachNewThread { _ = handle.readDataToEndOfFile() }
    }

    let errorLog: String?

    /// What the service wrote on standard error (with `errorLog`).
    func standardError() -> String {
        errorLog.flatMap { FileManager.default.contents(atPath: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// SIGTERM, then SIGKILL if it has not ended 20 s later (the service bounds its own
    /// graceful stop to 15 s; a test must never hang on a service that does not end).
    func stop() {
        process.stopWithin(20)
    }

    deinit { stop() }
}

/// The Pulse service over the embedded SQLite store, through the guide's HTTP store and raw
/// requests: the same behaviour as the embedded store, secrets kept hashed, hostile requests
/// refused with a clear 4xx.
final class PulseServiceTests: XCTestCase {
    private var tempDir = ""
    private var service: PulseServiceProcess?
    private var dbPath: String { tempDir + "/pulse.sqlite" }
    private let alice = VisitorCredentials(visitor: VisitorID("alice000")!, secret: "aaaaaaaaaaaaaaaa0001")
    private let bob = VisitorCredentials(visitor: VisitorID("bob00000")!, secret: "bbbbbbbbbbbbbbbb0002")
    private let carol = VisitorCredentials(visitor: VisitorID("carol000")!, secret: "cccccccccccccccc0003")
    private let dave = VisitorCredentials(visitor: VisitorID("dave0000")!, secret: "dddddddddddddddd0004")

    override func setUpWithError() throws {
        tempDir = NSTemporaryDirectory() + "docent-pulse-service-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tempDir, withIntermediateDirectories: true)
        service = try PulseServiceProcess(["--database", "sqlite:" + dbPath, "--client-limits", "off"])
    }

    override func tearDownWithError() throws {
        service?.stop()
        try? FileManager.default.removeItem(atPath: tempDir)
    }

    private var url: String { service?.url ?? "http://127.0.0.1:1" }

    /// One guide per visitor: each HTTP store reads as the identity it registered.
    private func guide(_ c: VisitorCredentials) async throws -> HTTPPulseStore {
        let s = HTTPPulseStore(baseURL: url)
        try await s.register(c)
        return s
    }

    func testReactionsRetriesAndWithdrawals() async throws {
        let a = try await guide(alice), b = try await guide(bob)
        let stop = PulseSubject.stop(tour: 2, sort: 3)
        let r1 = try await a.react(.up, on: stop, as: alice)
        XCTAssertEqual(r1, PulseCounts(up: 1))
        let r2 = try await b.react(.down, on: stop, as: bob)
        XCTAssertEqual(r2, PulseCounts(up: 1, down: 1))
        let r3 = try await b.react(.down, on: stop, as: bob)
        XCTAssertEqual(r3, PulseCounts(up: 1, down: 1), "a retry counts once")
        let r4 = try await a.react(nil, on: stop, as: alice)
        XCTAssertEqual(r4, PulseCounts(down: 1))
        let r5 = try await a.react(nil, on: stop, as: alice)
        XCTAssertEqual(r5, PulseCounts(down: 1), "withdrawing again (the service's 404) answers the counts")
        let snap = try await b.snapshot(viewer: bob.visitor, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        XCTAssertEqual(snap?.counts[stop], PulseCounts(down: 1))
        XCTAssertEqual(snap?.mine, [stop: .down])
        // Another guide's snapshot does not carry bob's own reactions.
        let other = try await a.snapshot(viewer: alice.visitor, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        XCTAssertEqual(other?.mine, [:])
    }

    func testSnapshotSinceTheSameVersionIs304() async throws {
        let a = try await guide(alice)
        _ = try await a.react(.up, on: .artwork(1101), as: alice)
        let day = Date(timeIntervalSince1970: 0)
        let first = try await a.snapshot(viewer: alice.visitor, dayStart: day, since: nil)
        let v = try XCTUnwrap(first?.version)
        let again = try await a.snapshot(viewer: alice.visitor, dayStart: day, since: v)
        XCTAssertNil(again)
        let raw = CurlFetcher().fetch(DocentCore.FetchRequest(url: url + "/v1/snapshot?day_start=0", etag: "\"\(v.value)\""))
        XCTAssertEqual(try raw.get().status, 304)
        _ = try await a.react(.meh, on: .artwork(1101), as: alice)
        let next = try await a.snapshot(viewer: alice.visitor, dayStart: day, since: v)
        XCTAssertEqual(next?.version, PulseVersion(v.value + 1))
        XCTAssertEqual(next?.counts[.artwork(1101)], PulseCounts(meh: 1))
    }

    func testNoteRetryIsTheSameNoteOtherTextIsAConflict() async throws {
        let a = try await guide(alice), b = try await guide(bob)
        let id = NoteID(visitor: alice.visitor, sequence: 7)
        let draft = NoteDraft(id: id, subject: .artwork(1101), language: .spanish, text: "  Precioso\u{1B}[31m  azul ")
        guard case .created(let n) = try await a.post(draft, as: alice) else { return XCTFail("not created") }
        XCTAssertEqual(n.text, "Precioso[31m azul")
        guard case .alreadyStored(let again) = try await a.post(draft, as: alice) else { return XCTFail("retry made a second note") }
        XCTAssertEqual(again, n)
        do {
            _ = try await a.post(NoteDraft(id: id, subject: .artwork(1101), language: .spanish, text: "otro"), as: alice)
            XCTFail("conflict expected")
        } catch { XCTAssertEqual(error, .conflict(id)) }
        do {
            _ = try await b.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 8), subject: .museum, language: .english, text: "x"), as: bob)
            XCTFail("impersonation accepted")
        } catch { XCTAssertEqual(error, .badCredentials) }
        let list = try await b.notes(on: .artwork(1101), viewer: bob.visitor)
        XCTAssertEqual(list, [n], "the note read back is the note stored, time and all")
        do {
            _ = try await a.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 9), subject: .museum, language: .english, text: "  \u{7}  "), as: alice)
            XCTFail("empty note accepted")
        } catch { XCTAssertEqual(error, .badText(.empty)) }
    }

    func testThreeReportersHideForAllReporterAtOnceAndUndo() async throws {
        let a = try await guide(alice), b = try await guide(bob), c = try await guide(carol), d = try await guide(dave)
        let id = NoteID(visitor: alice.visitor, sequence: 1)
        _ = try await a.post(NoteDraft(id: id, subject: .artwork(1), language: .english, text: "hello"), as: alice)
        try await b.report(id, true, as: bob)
        let forBob = try await b.notes(on: .artwork(1), viewer: bob.visitor)
        XCTAssertEqual(forBob.count, 0, "hidden for the reporter at once")
        let forDave = try await d.notes(on: .artwork(1), viewer: dave.visitor)
        XCTAssertEqual(forDave.count, 1)
        try await b.report(id, true, as: bob)
        try await c.report(id, true, as: carol)
        try await d.report(id, true, as: dave)
        let forAnyone = try await a.notes(on: .artwork(1), viewer: nil)
        XCTAssertEqual(forAnyone.count, 0, "three reporters hide it for everyone")
        let forAlice = try await a.notes(on: .artwork(1), viewer: alice.visitor)
        XCTAssertEqual(forAlice.count, 1, "but its author (issue 33 #9)")
        let snap = try await d.snapshot(viewer: dave.visitor, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        XCTAssertEqual(snap?.myReports, [id])
        try await d.report(id, false, as: dave)
        let back = try await a.notes(on: .artwork(1), viewer: nil)
        XCTAssertEqual(back.count, 1, "undo brings it back")
        do {
            try await d.report(NoteID(visitor: alice.visitor, sequence: 99), true, as: dave)
            XCTFail("a report of no note accepted")
        } catch { XCTAssertEqual(error, .noSuchNote(NoteID(visitor: alice.visitor, sequence: 99))) }
        let store = try SQLitePulseStore.open(path: dbPath, clock: { Date() }).get()
        XCTAssertEqual(try store.recountMismatches(), [])
    }

    func testSecretsAreStoredHashedAndAWrongSecretIsRefused() async throws {
        _ = try await guide(alice)
        let q = try DatabaseQueue(path: dbPath)
        let stored = try await q.read { try String.fetchOne($0, sql: "SELECT secret FROM visitor WHERE id = ?", arguments: ["alice000"]) }
        XCTAssertEqual(stored?.hasPrefix("sha256:"), true)
        XCTAssertFalse(stored?.contains(alice.secret) ?? true)
        let impostor = VisitorCredentials(visitor: alice.visitor, secret: "wrongwrongwrong0000")
        let s = HTTPPulseStore(baseURL: url)
        do {
            try await s.register(impostor)
            XCTFail("registered over another's id")
        } catch { XCTAssertEqual(error, .badCredentials) }
        do {
            _ = try await s.react(.up, on: .museum, as: impostor)
            XCTFail("reacted with a wrong secret")
        } catch { XCTAssertEqual(error, .badCredentials) }
    }

    func testServiceChoosesAnIdentityWhenAskedWithoutABody() throws {
        let r = try raw(.post, "/v1/visitors", body: [])
        XCTAssertEqual(r.status, 201)
        let json = try JSONParser.parse(r.body)
        let visitor = try XCTUnwrap(json["visitor"]?.stringValue)
        XCTAssertNotNil(VisitorID(visitor))
        let token = try XCTUnwrap(json["token"]?.stringValue)
        XCTAssertTrue(token.hasPrefix(visitor + "."))
        let put = try raw(.put, "/v1/reactions/artwork:5", body: Array(#"{"value": -1}"#.utf8), token: token)
        XCTAssertEqual(put.status, 200)
        XCTAssertEqual(try JSONParser.parse(put.body), try JSONParser.parse(Array(#"{"up":0,"meh":0,"down":1}"#.utf8)))
        let subject = try raw(.get, "/v1/subjects/artwork:5")
        XCTAssertEqual(try JSONParser.parse(subject.body), try JSONParser.parse(Array(#"{"up":0,"meh":0,"down":1,"notes":0}"#.utf8)))
        // A subject with a slash, as the route's `**` catches it: written out or percent-encoded.
        let stop = try raw(.put, "/v1/reactions/stop:2%2F3", body: Array(#"{"value": 1}"#.utf8), token: token)
        XCTAssertEqual(stop.status, 200)
        for path in ["/v1/subjects/stop:2/3", "/v1/subjects/stop:2%2F3"] {
            XCTAssertEqual(try JSONParser.parse(try raw(.get, path).body), try JSONParser.parse(Array(#"{"up":1,"meh":0,"down":0,"notes":0}"#.utf8)), path)
        }
        XCTAssertEqual(try raw(.get, "/v1/subjects/stop:2%FF").status, 400, "not UTF-8")
    }

    /// Hostile and mistaken requests: each a 4xx with a sentence saying what is wrong.
    func testHostileRequestsGetAClearRefusal() async throws {
        _ = try await guide(alice)
        let token = "alice000.\(alice.secret)"
        func expect(_ status: Int, _ code: String, _ r: FetchResponse, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(r.status, status, String(decoding: r.body, as: UTF8.self), file: file, line: line)
            let json = try? JSONParser.parse(r.body)
            XCTAssertEqual(json?["code"]?.stringValue, code, file: file, line: line)
            XCTAssertFalse(json?["error"]?.stringValue?.isEmpty ?? true, "a sentence", file: file, line: line)
        }
        expect(400, "bad_request", try raw(.put, "/v1/reactions/artwork:1", body: Array(#"{"value": "1"}"#.utf8), token: token))
        expect(400, "bad_request", try raw(.put, "/v1/reactions/artwork:1", body: Array(#"{"value": 1.5}"#.utf8), token: token))
        expect(400, "bad_request", try raw(.put, "/v1/reactions/artwork:1", body: Array(#"{"value": 2}"#.utf8), token: token))
        expect(400, "bad_request", try raw(.put, "/v1/reactions/artwork:1", body: Array(#"{"value": 1, "up": 1000}"#.utf8), token: token))
        expect(400, "bad_request", try raw(.put, "/v1/reactions/artwork:1", body: Array(#"{"value": 1"#.utf8), token: token))
        expect(400, "bad_request", try raw(.put, "/v1/reactions/artwork:1", body: [], token: token))
        expect(400, "bad_subject", try raw(.put, "/v1/reactions/artwork:1;DROP", body: Array(#"{"value": 1}"#.utf8), token: token))
        expect(400, "bad_subject", try raw(.get, "/v1/notes?subject=painting:1"))
        let badUTF8 = Array(#"{"id":"alice000.1","subject":"museum","language":"en","text":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        expect(400, "bad_request", try raw(.post, "/v1/notes", body: badUTF8, token: token))
        let big = Array(#"{"value": 1, "pad": ""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 1 << 20) + Array(#""}"#.utf8)
        expect(413, "too_large", try raw(.put, "/v1/reactions/artwork:1", body: big, token: token))
        expect(401, "no_token", try raw(.put, "/v1/reactions/artwork:1", body: Array(#"{"value": 1}"#.utf8)))
        expect(401, "bad_token", try raw(.put, "/v1/reactions/artwork:1", body: Array(#"{"value": 1}"#.utf8), token: "nonsense"))
        expect(401, "bad_credentials", try raw(.put, "/v1/reactions/artwork:1", body: Array(#"{"value": 1}"#.utf8), token: "alice000.0000000000000000000000"))
        expect(401, "bad_credentials", try raw(.get, "/v1/snapshot?day_start=0", token: "alice000.0000000000000000000000"))
        expect(400, "bad_query", try raw(.get, "/v1/snapshot?day_start=soon"))
        expect(404, "no_reaction", try raw(.delete, "/v1/reactions/artwork:77", token: token))
        XCTAssertEqual(try raw(.get, "/v2/everything").status, 404)
        // Escape sequences never come back raw: the stored text is cleaned, and every answer
        // escapes what is not printable ASCII.
        let note = #"{"id":"alice000.5","subject":"museum","language":"en","text":"hi \u001b]8;;http://x\u0007 \u001b[2J 你好"}"#
        let posted = try raw(.post, "/v1/notes", body: Array(note.utf8), token: token)
        XCTAssertEqual(posted.status, 201)
        let listed = try raw(.get, "/v1/notes?subject=museum")
        for answer in [posted.body, listed.body] {
            XCTAssertFalse(answer.contains(0x1B))
            XCTAssertTrue(answer.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "printable ASCII only")
        }
        let text = try JSONParser.parse(listed.body)["notes"]?.arrayValue?.first?["text"]?.stringValue
        XCTAssertEqual(text?.contains("\u{1B}"), false)
        XCTAssertEqual(text?.hasSuffix("你好"), true)
    }

    /// Sixteen guides at once react, change their minds and withdraw: the counts the service
    /// keeps equal a recount of the rows and what each visitor finally chose.
    func testConcurrentGuidesKeepCountsExact() async throws {
        let subjects: [PulseSubject] = [.artwork(1), .artwork(2), .tour(3)]
        let finals = try await withThrowingTaskGroup(of: [PulseSubject: ReactionValue].self) { group in
            for i in 0..<16 {
                let c = VisitorCredentials(visitor: VisitorID("storm\(String(format: "%03d", i))")!, secret: "stormsecret000000\(i)")
                let url = self.url
                group.addTask {
                    let s = HTTPPulseStore(baseURL: url)
                    try await s.register(c)
                    var mine: [PulseSubject: ReactionValue] = [:]
                    for step in 0..<12 {
                        let subject = subjects[(i + step) % subjects.count]
                        let value: ReactionValue? = (i + step) % 4 == 0 ? nil : ReactionValue(rawValue: (i * 7 + step) % 3 - 1)
                        _ = try await s.react(value, on: subject, as: c)
                        mine[subject] = value
                    }
                    return mine
                }
            }
            var all: [[PulseSubject: ReactionValue]] = []
            for try await m in group { all.append(m) }
            return all
        }
        let store = try SQLitePulseStore.open(path: dbPath, clock: { Date() }).get()
        XCTAssertEqual(try store.recountMismatches(), [])
        for s in subjects {
            let expected = PulseCounts.recount(finals.compactMap { $0[s] })
            let kept = try await store.counts(of: s)
            XCTAssertEqual(kept, expected, s.key)
        }
    }

    func testAStoppedServiceIsUnavailableNotACrash() async throws {
        let a = try await guide(alice)
        service?.stop()
        do {
            _ = try await a.react(.up, on: .museum, as: alice)
            XCTFail("a reaction reached a stopped service")
        } catch {
            guard case .unavailable(let why) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains(url), why)
        }
        let snap = try? await a.snapshot(viewer: alice.visitor, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        XCTAssertNil(snap)
    }

    /// The moderation queue is the staff's: 401 without a token or with one that is nobody's,
    /// 403 with a visitor's, the reported notes oldest first with the staff token (from the
    /// environment or a file).
    func testModerationQueueIsForStaffOnly() async throws {
        service?.stop()
        let staff = "staff-0123456789-abcdef"
        service = try PulseServiceProcess(["--database", "sqlite:" + dbPath], environment: ["DOCENT_PULSE_STAFF_TOKEN": staff])
        let a = try await guide(alice)
        let b = try await guide(bob)
        let first = NoteID(visitor: alice.visitor, sequence: 1)
        let second = NoteID(visitor: alice.visitor, sequence: 2)
        _ = try await a.post(NoteDraft(id: first, subject: .artwork(1), language: .english, text: "first"), as: alice)
        _ = try await a.post(NoteDraft(id: second, subject: .artwork(1), language: .english, text: "second"), as: alice)
        _ = try await a.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 3), subject: .artwork(1), language: .english, text: "fine"), as: alice)
        try await b.report(second, true, as: bob)
        try await b.report(first, true, as: bob)
        XCTAssertEqual(try raw(.get, "/v1/moderation/queue").status, 401)
        XCTAssertEqual(try raw(.get, "/v1/moderation/queue", token: "nobody00.aaaaaaaaaaaaaaaaaaaa").status, 401)
        XCTAssertEqual(try raw(.get, "/v1/moderation/queue", token: "\(alice.visitor.rawValue).\(alice.secret)").status, 403)
        let r = try raw(.get, "/v1/moderation/queue", token: staff)
        XCTAssertEqual(r.status, 200)
        let notes = try JSONParser.parse(r.body)["notes"]?.arrayValue ?? []
        XCTAssertEqual(notes.compactMap { $0["id"]?.stringValue }, [first.key, second.key], "reported notes, oldest first, and only those")
        XCTAssertEqual(notes.map { $0["reports"] }, [.integer(1), .integer(1)])
        XCTAssertEqual(try raw(.post, "/v1/moderation/queue", token: staff).status, 405)
        // Staff agree with the reporters: the note is gone for everyone and leaves the queue.
        let body = Array(#"{"decision": "removed"}"#.utf8)
        XCTAssertEqual(try raw(.put, "/v1/moderation/notes/\(second.key)", body: body, token: "\(alice.visitor.rawValue).\(alice.secret)").status, 403)
        let decided = try raw(.put, "/v1/moderation/notes/\(second.key)", body: body, token: staff)
        XCTAssertEqual(decided.status, 200)
        XCTAssertEqual(try JSONParser.parse(decided.body)["decision"]?.stringValue, "removed")
        let listed = try await b.notes(on: .artwork(1), viewer: bob.visitor).map(\.id)
        XCTAssertFalse(listed.contains(second))
        let queue = try JSONParser.parse(try raw(.get, "/v1/moderation/queue", token: staff).body)["notes"]?.arrayValue ?? []
        XCTAssertEqual(queue.compactMap { $0["id"]?.stringValue }, [first.key])
        XCTAssertEqual(try raw(.put, "/v1/moderation/notes/\(second.key)", body: Array(#"{"decision": "maybe"}"#.utf8), token: staff).status, 400)
        XCTAssertEqual(try raw(.put, "/v1/moderation/notes/alice000.77", body: body, token: staff).status, 404)

        // The same token from a file; an empty file is refused at start.
        service?.stop()
        let file = tempDir + "/staff-token"
        try (staff + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        service = try PulseServiceProcess(["--database", "sqlite:" + dbPath, "--staff-token-file", file])
        XCTAssertEqual(try raw(.get, "/v1/moderation/queue", token: staff).status, 200)
        service?.stop()
        try "".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PulseServiceProcess(["--database", "sqlite:" + dbPath, "--staff-token-file", file]))
    }

    /// 405 with `Allow` comes from the router's own routes (issue 46): a served path with another
    /// method names exactly the router's methods; a path no route serves is 404, never a 405
    /// naming a method nothing answers (the hand-kept copy said `/v1/notes/*` took DELETE).
    func testMethodNotAllowedFollowsTheRoutersRoutes() throws {
        let put = try raw(.put, "/v1/notes")
        XCTAssertEqual(put.status, 405)
        XCTAssertEqual(allowed(put), ["GET", "POST"])
        let reactions = try raw(.get, "/v1/reactions/artwork:1")
        XCTAssertEqual(reactions.status, 405)
        XCTAssertEqual(allowed(reactions), ["PUT", "DELETE"])
        XCTAssertEqual(try raw(.get, "/v1/notes/abc.1").status, 404)
        XCTAssertEqual(try raw(.post, "/healthz").status, 405)
    }

    /// The methods a 405's problem names ("PATH answers GET, POST", as its `Allow` header).
    private func allowed(_ r: FetchResponse) -> Set<String> {
        let message = (try? JSONParser.parse(r.body))?["error"]?.stringValue ?? ""
        guard let range = message.range(of: " answers ") else { return [] }
        return Set(message[range.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    func testServiceRefusesABadDatabaseArgument() throws {
        XCTAssertThrowsError(try PulseServiceProcess(["--database", "mysql://nowhere"]))
    }

    /// Issue 33 #15: a busy port printed NIO's "bind(descriptor:ptr:bytes:): Address already in
    /// use) (errno: 98)" and the usage. Now one sentence naming the address, exit status 1.
    func testABusyPortIsSaidInASentence() throws {
        let busy = "127.0.0.1:\(service!.port)"
        let r = try runDocentPulse(["serve", "--database", "sqlite:" + tempDir + "/other.sqlite", "--listen", busy])
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("docent-pulse: \(busy) is already in use"), r.err)
        XCTAssertFalse(r.err.contains("errno"), r.err)
        XCTAssertFalse(r.err.contains("Usage:"), r.err)
        XCTAssertFalse(r.err.contains("not answering"), "a stop is no database outage: \(r.err)")
        // And it says its version (it had no --version).
        let version = try runDocentPulse(["--version"])
        XCTAssertEqual(version.status, 0, version.err)
        XCTAssertEqual(version.out.trimmingCharacters(in: .whitespacesAndNewlines), DocentVersion.string)
    }

    /// Issue 33 #15: a typed path gets no directories made up for it (a typo would leave a
    /// tree of them and a Pulse nobody shares), and a value a command refuses once it runs is
    /// said with that command's help, not the whole service's usage.
    func testATypedPathMakesNoDirectoriesAndARefusalNamesItsCommand() throws {
        let missing = tempDir + "/no/such/dir"
        let r = try runDocentPulse(["serve", "--database", "sqlite:" + missing + "/p.sqlite", "--listen", "127.0.0.1:0"])
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("the directory \(missing) does not exist"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tempDir + "/no"), "no directories made")
        let ban = try runDocentPulse(["ban", "visitor-1", "--database", "sqlite:" + missing + "/p.sqlite"])
        XCTAssertNotEqual(ban.status, 0, ban.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tempDir + "/no"), "no directories made")

        let announce = try runDocentPulse(["announce", "late-opening", "--database", "sqlite:" + dbPath])
        XCTAssertEqual(announce.status, 64, announce.err)
        XCTAssertTrue(announce.err.contains("Error: an announcement needs --text LANG=TEXT"), announce.err)
        XCTAssertTrue(announce.err.contains("See 'docent-pulse announce --help'"), announce.err)
        XCTAssertFalse(announce.err.contains("<subcommand>"), announce.err)
        let staff = try runDocentPulse(["staff", "add", "Not A Name", "--database", "sqlite:" + dbPath])
        XCTAssertTrue(staff.err.contains("See 'docent-pulse staff add --help'"), staff.err)
    }

    /// The purge's ages are options of `serve` (issue 32); a negative, zero where a day is the
    /// least, absurd (ten years and more) or infinite age is refused with one sentence naming
    /// the option.
    func testRetentionOptionsRefuseNegativeAndAbsurdAges() throws {
        for (option, said) in [
            ("--abandoned-visitor-days=-3", "--abandoned-visitor-days must be 1 to 3650"),
            ("--abandoned-visitor-days=0", "--abandoned-visitor-days must be 1 to 3650"),
            ("--abandoned-visitor-days=1e9", "--abandoned-visitor-days must be 1 to 3650"),
            ("--decided-report-days=-1", "--decided-report-days must be 0 to 3650"),
            ("--decided-report-days=inf", "--decided-report-days must be 0 to 3650"),
            ("--decided-report-days=nan", "--decided-report-days must be 0 to 3650"),
            ("--activity-retention-hours=1000000", "--activity-retention-hours must be above 1 and at most 87600"),
        ] {
            let r = try runDocentPulse(["serve", "--database", "sqlite:" + tempDir + "/refused.sqlite", "--listen", "127.0.0.1:0", option])
            XCTAssertNotEqual(r.status, 0, option)
            XCTAssertTrue(r.err.contains(said), "\(option): \(r.err)")
        }
    }

    /// The running service applies its configured age: a visitor registered ten days ago with
    /// nothing of its own is forgotten by the purge at start under `--abandoned-visitor-days 5`
    /// (the id with another secret is then a new registration, 201, where it was 401).
    func testTheServicesPurgeForgetsAbandonedVisitorsAtTheConfiguredAge() throws {
        let other = tempDir + "/abandoned.sqlite"
        let tenDaysAgo = Date().addingTimeInterval(-10 * 86400)
        let old = try SQLitePulseStore.open(path: other, clock: { tenDaysAgo }).get()
        let registered = expectation(description: "registered")
        Task {
            try await old.register(VisitorCredentials(visitor: VisitorID("idle0000")!, secret: "iiiiiiiiiiiiiiii0005"))
            registered.fulfill()
        }
        wait(for: [registered], timeout: 10)
        service?.stop()
        service = try PulseServiceProcess(["--database", "sqlite:" + other, "--client-limits", "off", "--abandoned-visitor-days", "5"])
        let body = Array(#"{"visitor":"idle0000","secret":"another-secret-0123456789"}"#.utf8)
        // The first purge runs as the service starts; until it has, the id is still taken.
        let giveUp = Date().addingTimeInterval(20)
        var status = 0
        var attempts = 0
        while status != 201, Date() < giveUp {
            status = try raw(.post, "/v1/visitors", body: body).status
            attempts += 1
            XCTAssertTrue([201, 401].contains(status), "\(status)")
        }
        XCTAssertEqual(status, 201, "forgotten after \(attempts) attempts")
    }

    private func raw(_ method: DocentCore.FetchRequest.Method, _ path: String, body: [UInt8]? = nil, token: String? = nil) throws -> FetchResponse {
        var headers: [String: String] = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return try CurlFetcher().fetch(DocentCore.FetchRequest(url: url + path, method: method, body: body, headers: headers, timeoutSeconds: 10, errorBodies: true)).get()
    }
}

import ChildProcessSupport
import DocentCore
import Foundation
import NetCurl
import StateStore
import XCTest

/// Runs the real `docent-pulse` binary; answers its exit status, standard output and standard
/// error.
func runDocentPulse(_ arguments: [String], token: String? = nil) throws -> (status: Int32, out: String, err: String) {
    let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    let p = Process()
    p.executableURL = exe.deletingLastPathComponent().appendingPathComponent("docent-pulse")
    p.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["DOCENT_PULSE_STAFF_TOKEN"] = token
    p.environment = env
    let (o, e) = try runReadingBoth(p)
    return (p.exitCode, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// What the curators set, changed from the command line against `target` (`--database DB` or
/// `--server URL`, with `token`), then read through `read` (a guide's view): a feature, an
/// announcement, a seed with one bad entry; then `export` and `seed` of the export into
/// `copy` (`--database DB` of an empty store) give the same curated content.
func checkCuration(
    _ target: [String], token: String?, copy: [String], dir: String, read: () async throws -> PulseSnapshot?, file: StaticString = #filePath, line: UInt = #line
) async throws {
    let feature = try runDocentPulse(["feature", "tour:4002", "--tier", "3", "--tagline", "en=Winter lights", "--tagline", "ko=겨울 빛"] + target, token: token)
    XCTAssertEqual(feature.status, 0, feature.err, file: file, line: line)
    let announce = try runDocentPulse(
        ["announce", "closing", "--style", "banner", "--feed", "tab:home", "--feed", "gallery:2\\d\\d", "--text", "en=Closing at 3 pm", "--text", "fr=Fermeture à 15 h",
         "--until", "2099-01-01T00:00:00Z"] + target, token: token)
    XCTAssertEqual(announce.status, 0, announce.err, file: file, line: line)
    let snap = try await read()
    let featured = try XCTUnwrap(snap?.featured.first { $0.subject == .tour(4002) }, file: file, line: line)
    XCTAssertEqual(featured.tier, 3, file: file, line: line)
    XCTAssertEqual(featured.taglines, [.english: "Winter lights", .korean: "겨울 빛"], file: file, line: line)
    let closing = try XCTUnwrap(snap?.announcements.first { $0.id == "closing" }, file: file, line: line)
    XCTAssertEqual(closing.style, .banner, file: file, line: line)
    XCTAssertEqual(closing.feeds.map(\.source), ["tab:home", "gallery:2\\d\\d"], file: file, line: line)
    XCTAssertEqual(closing.text, [.english: "Closing at 3 pm", .french: "Fermeture à 15 h"], file: file, line: line)

    // A seed with a bad entry: the good ones are applied, the bad one named, exit 1.
    let seedPath = dir + "/seed.json"
    try Data(
        """
        {"featured": [{"subject": "exhibition:7101", "tier": 2, "tagline": {"en": "Preview"}}, {"subject": "tour:1", "tier": 500}],
         "notes": [{"sequence": 7, "subject": "artwork:1101", "language": "es", "text": "Mire el borde."}]}
        """.utf8
    ).write(to: URL(fileURLWithPath: seedPath))
    let seeded = try runDocentPulse(["seed", seedPath] + target, token: token)
    XCTAssertEqual(seeded.status, 1, file: file, line: line)
    XCTAssertTrue(seeded.err.contains("featured[1]: tier must be 0…100"), seeded.err, file: file, line: line)
    XCTAssertTrue(seeded.out.contains("Applied 1 featured, 1 curator notes, 0 announcements"), seeded.out, file: file, line: line)
    let after = try await read()
    XCTAssertEqual(after?.featured.map(\.subject).sorted(), [.tour(4002), .exhibition(7101)].sorted(), file: file, line: line)
    XCTAssertEqual(after?.curatorPicks, [.artwork(1101)], file: file, line: line)

    // Export, then seed the export into an empty store: the same curated content.
    let exported = try runDocentPulse(["export", "-o", dir + "/export.json"] + target, token: token)
    XCTAssertEqual(exported.status, 0, exported.err, file: file, line: line)
    let restored = try runDocentPulse(["seed", dir + "/export.json"] + copy)
    XCTAssertEqual(restored.status, 0, restored.err, file: file, line: line)
    XCTAssertTrue(restored.out.contains("Applied 2 featured, 1 curator notes, 1 announcements"), restored.out, file: file, line: line)
    let again = try runDocentPulse(["export"] + copy)
    XCTAssertEqual(again.status, 0, again.err, file: file, line: line)
    let first = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/export.json"))), maxDepth: 16)
    let second = try JSONParser.parse(Array(again.out.utf8), maxDepth: 16)
    for key in ["featured", "announcements", "notes"] {
        XCTAssertEqual(first[key], second[key], "\(key) differs after export and seed", file: file, line: line)
        XCTAssertFalse(first[key]?.arrayValue?.isEmpty ?? true, "\(key) is empty", file: file, line: line)
    }
}

/// The audit log of `database` after `checkCuration`: one entry for each entry put in, naming
/// `who`, each with what it replaced (nothing, here) and what it is now.
func checkCurationAudit(database: String, who: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let audit = try runDocentPulse(["audit", "--database", database])
    XCTAssertEqual(audit.status, 0, audit.err, file: file, line: line)
    let rows = audit.out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    XCTAssertTrue(rows.allSatisfy { $0.count == 6 }, audit.out, file: file, line: line)
    let logged = Set(rows.map { $0[1] + " " + $0[2] + " " + $0[3] })
    XCTAssertEqual(
        logged, ["\(who) feature tour:4002", "\(who) announce announcement:closing", "\(who) feature exhibition:7101", "\(who) curator-note note:curator0.7"],
        audit.out, file: file, line: line)
    let tour = try XCTUnwrap(rows.first { $0[3] == "tour:4002" }, file: file, line: line)
    XCTAssertEqual(tour[4], "", file: file, line: line)
    XCTAssertEqual(tour[5], "tier=3 en=Winter lights | ko=겨울 빛", file: file, line: line)
    let note = try XCTUnwrap(rows.first { $0[3] == "note:curator0.7" }, file: file, line: line)
    XCTAssertEqual(note[5], "artwork:1101 es: Mire el borde.", file: file, line: line)
}

/// The staff commands of the real `docent-pulse` binary, against a running service (with the
/// staff token) and against the store's file directly.
final class PulseStaffCommandTests: XCTestCase {
    private var tempDir = ""
    private var service: PulseServiceProcess?
    private let staff = "staff-token-for-tests-0001"
    private let alice = VisitorCredentials(visitor: VisitorID("alice000")!, secret: "aaaaaaaaaaaaaaaa0001")
    private let bob = VisitorCredentials(visitor: VisitorID("bob00000")!, secret: "bbbbbbbbbbbbbbbb0002")

    override func setUpWithError() throws {
        tempDir = NSTemporaryDirectory() + "docent-staff-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tempDir, withIntermediateDirectories: true)
        service = try PulseServiceProcess(["--database", "sqlite:" + tempDir + "/pulse.sqlite"], environment: ["DOCENT_PULSE_STAFF_TOKEN": staff])
    }

    override func tearDownWithError() throws {
        service?.stop()
        try? FileManager.default.removeItem(atPath: tempDir)
    }

    private func pulse(_ arguments: [String], token: String? = nil) throws -> (status: Int32, out: String, err: String) {
        try runDocentPulse(arguments, token: token)
    }

    func testQueueDecideAndRecountFromTheCommandLine() async throws {
        let url = try XCTUnwrap(service?.url)
        let a = HTTPPulseStore(baseURL: url)
        try await a.register(alice)
        let b = HTTPPulseStore(baseURL: url)
        try await b.register(bob)
        let rude = NoteID(visitor: alice.visitor, sequence: 1)
        let kind = NoteID(visitor: alice.visitor, sequence: 2)
        _ = try await a.post(NoteDraft(id: rude, subject: .artwork(7), language: .english, text: "rude words"), as: alice)
        _ = try await a.post(NoteDraft(id: kind, subject: .artwork(7), language: .english, text: "kind words"), as: alice)
        try await b.report(rude, true, as: bob)
        try await b.report(kind, true, as: bob)

        let queue = try pulse(["queue", "--server", url], token: staff)
        XCTAssertEqual(queue.status, 0, queue.err)
        XCTAssertEqual(queue.out.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) ?? "" }, [rude.key, kind.key])
        XCTAssertTrue(queue.out.contains("1 report\tartwork:7\t-\trude words"), queue.out)

        let agree = try pulse(["agree", rude.key, "--server", url, "--as", "ana"], token: staff)
        XCTAssertEqual(agree.status, 0, agree.err)
        XCTAssertTrue(agree.out.contains("removed"), agree.out)
        let keep = try pulse(["keep", kind.key, "--database", "sqlite:" + tempDir + "/pulse.sqlite", "--as", "ben"])
        XCTAssertEqual(keep.status, 0, keep.err)
        XCTAssertTrue(keep.out.contains("pinned"), keep.out)
        // Both decisions are in the audit log, naming who made them and what changed, whether
        // they went through the service's staff route or the store itself.
        let audit = try pulse(["audit", "--database", "sqlite:" + tempDir + "/pulse.sqlite", "--action", "decide"])
        XCTAssertEqual(audit.status, 0, audit.err)
        let decisions = Set(audit.out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).dropFirst().joined(separator: "\t") })
        XCTAssertEqual(
            decisions,
            [
                "staff-token:ana\tdecide\tnote:\(rude.key)\tdecision=none reports=1 score=0\tdecision=removed reports=1 score=0",
                "ben\tdecide\tnote:\(kind.key)\tdecision=none reports=1 score=0\tdecision=pinned reports=1 score=0",
            ], audit.out)
        let shown = try await b.notes(on: .artwork(7), viewer: nil).map(\.id)
        XCTAssertEqual(shown, [kind], "agreed: gone for everyone; kept: shown")

        let empty = try pulse(["queue", "--database", "sqlite:" + tempDir + "/pulse.sqlite"])
        XCTAssertEqual(empty.status, 0, empty.err)
        XCTAssertEqual(empty.out, "The moderation queue is empty.\n")
        let recount = try pulse(["recount", "--database", "sqlite:" + tempDir + "/pulse.sqlite"])
        XCTAssertEqual(recount.status, 0, recount.err)
        XCTAssertEqual(recount.out, "Every count equals its recount.\n")
    }

    func testFeatureAnnounceSeedAndExportOverTheServiceAndTheFile() async throws {
        let url = try XCTUnwrap(service?.url)
        let copy = tempDir + "/copy.sqlite"
        _ = try SQLitePulseStore.open(path: copy, clock: { Date() }).get()
        let guide = HTTPPulseStore(baseURL: url)
        try await checkCuration(["--server", url], token: staff, copy: ["--database", "sqlite:" + copy], dir: tempDir) {
            try await guide.snapshot(viewer: nil, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        }
        // The file directly: the same commands, the same answers.
        let other = tempDir + "/other.sqlite"
        let direct = try SQLitePulseStore.open(path: other, clock: { Date() }).get()
        try FileManager.default.createDirectory(atPath: tempDir + "/d", withIntermediateDirectories: true)
        _ = try SQLitePulseStore.open(path: tempDir + "/d/copy.sqlite", clock: { Date() }).get()
        try await checkCuration(["--database", "sqlite:" + other], token: nil, copy: ["--database", "sqlite:" + tempDir + "/d/copy.sqlite"], dir: tempDir + "/d") {
            try await direct.snapshot(viewer: nil, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        }
        // Every entry put in was logged, by the service (the staff token) or on the file
        // (the command line).
        try checkCurationAudit(database: "sqlite:" + tempDir + "/pulse.sqlite", who: "staff-token")
        try checkCurationAudit(database: "sqlite:" + other, who: "command-line")
    }

    static let sampleData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleData/appData.json").path

    func testCurationMistakesGetOneClearLineAndChangeNothing() async throws {
        let url = try XCTUnwrap(service?.url)
        let db = ["--database", "sqlite:" + tempDir + "/pulse.sqlite"]
        let guide = HTTPPulseStore(baseURL: url)
        let before = try await guide.snapshot(viewer: nil, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        for (args, said) in [
            (["announce", "x", "--feed", "gallery:(", "--text", "en=x"], "unclosed"),
            (["announce", "x", "--feed", "tab:home"], "needs --text"),
            (["announce", "x", "--feed", "tab:home", "--text", "en=x", "--style", "popup"], "style must be card or banner"),
            (["announce", "x", "--feed", "tab:home", "--text", "english"], "LANG=TEXT"),
            (["feature", "tour:x"], "not a subject"),
            (["feature", "museum", "--tier", "101"], "tier must be 0…100"),
            (["feature", "museum", "--until", "tomorrow"], "--until takes a date-time"),
            (["seed", tempDir + "/missing.json"], "cannot read"),
            // Issue 33 #15: with the museum's data, a subject it does not have is refused.
            (["feature", "tour:9999", "--data", Self.sampleData], "the museum's data has no tour 9999 (its tours: 4001, 4002, 4003, 4004)"),
            (["feature", "stop:4001/99", "--data", Self.sampleData], "tour 4001 has no stop 99"),
            (["feature", "artwork:1", "--data", Self.sampleData], "no artwork 1"),
            (["feature", "tour:4004", "--data", tempDir + "/missing.json"], "--data: cannot read"),
        ] {
            let r = try pulse(args + db)
            XCTAssertNotEqual(r.status, 0, "\(args)")
            XCTAssertTrue(r.err.contains(said), "\(args): \(r.err)")
        }
        let notJSON = tempDir + "/not.json"
        try Data("featured: yes".utf8).write(to: URL(fileURLWithPath: notJSON))
        let r = try pulse(["seed", notJSON] + db)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("not JSON"), r.err)
        let wrongToken = try pulse(["feature", "museum", "--server", url], token: "not-the-staff-token-at-all")
        XCTAssertEqual(wrongToken.status, 1)
        XCTAssertTrue(wrongToken.err.contains("refused the staff token"), wrongToken.err)
        let exportRefused = try pulse(["export", "--server", url], token: "not-the-staff-token-at-all")
        XCTAssertEqual(exportRefused.status, 1)
        XCTAssertEqual(exportRefused.out, "")
        let unchanged = try await guide.snapshot(viewer: nil, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        XCTAssertEqual(unchanged?.version, before?.version, "a refused command changed the store")
        // A subject the data has is featured.
        let known = try pulse(["feature", "tour:4004", "--tier", "2", "--data", Self.sampleData] + db)
        XCTAssertEqual(known.status, 0, known.err)
    }

    func testBanLiftAndEraseFromTheCommandLineAreAudited() async throws {
        let url = try XCTUnwrap(service?.url)
        let db = ["--database", "sqlite:" + tempDir + "/pulse.sqlite"]
        let a = HTTPPulseStore(baseURL: url)
        try await a.register(alice)
        let b = HTTPPulseStore(baseURL: url)
        try await b.register(bob)
        let rude = NoteID(visitor: alice.visitor, sequence: 1)
        _ = try await a.post(NoteDraft(id: rude, subject: .artwork(7), language: .english, text: "rude words"), as: alice)
        _ = try await b.post(NoteDraft(id: NoteID(visitor: bob.visitor, sequence: 1), subject: .artwork(7), language: .english, text: "bob's"), as: bob)

        let ban = try pulse(["ban", alice.visitor.rawValue, "--as", "ana"] + db)
        XCTAssertEqual(ban.status, 0, ban.err)
        XCTAssertEqual(ban.out, "Banned alice000: 1 notes hidden.\n")
        let shown = try await b.notes(on: .artwork(7), viewer: nil).map(\.id)
        XCTAssertEqual(shown, [NoteID(visitor: bob.visitor, sequence: 1)], "a banned visitor's note is still shown")
        let refusedWrite: PulseStoreError?
        do {
            _ = try await a.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 2), subject: .artwork(7), language: .english, text: "again"), as: alice)
            refusedWrite = nil
        } catch {
            refusedWrite = error
        }
        XCTAssertEqual(refusedWrite, .badCredentials, "a banned visitor could still write")
        let again = try pulse(["ban", alice.visitor.rawValue] + db)
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.err, "docent-pulse: alice000 is already banned\n")
        let lift = try pulse(["ban", alice.visitor.rawValue, "--lift", "--as", "ana"] + db)
        XCTAssertEqual(lift.status, 0, lift.err)
        let erase = try pulse(["erase", bob.visitor.rawValue, "--yes", "--as", "ben"] + db)
        XCTAssertEqual(erase.status, 0, erase.err)
        XCTAssertTrue(erase.out.hasPrefix("Erased bob00000: "), erase.out)
        let left = try await a.notes(on: .artwork(7), viewer: nil)
        XCTAssertEqual(left, [], "the erased visitor's note is still shown")

        let audit = try pulse(["audit"] + db)
        XCTAssertEqual(audit.status, 0, audit.err)
        let rows = audit.out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).dropFirst().prefix(4).joined(separator: " | ") }
        XCTAssertEqual(
            Set(rows),
            [
                "ana | ban | visitor:alice000 | allowed", "ana | unban | visitor:alice000 | banned",
                "ben | erase | visitor:bob00000 | " + (erase.out.dropFirst("Erased bob00000: ".count).dropLast(2)),
            ], audit.out)
    }

    func testMistakesGetOneClearLine() throws {
        let url = try XCTUnwrap(service?.url)
        let noToken = try pulse(["queue", "--server", url])
        XCTAssertNotEqual(noToken.status, 0)
        XCTAssertTrue(noToken.err.contains("staff token"), noToken.err)
        let wrong = try pulse(["queue", "--server", url], token: "not-the-staff-token-at-all")
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.err.contains("refused the staff token"), wrong.err)
        let port = try PostgresServer.freePort()
        let down = try pulse(["queue", "--server", "http://127.0.0.1:\(port)"], token: staff)
        XCTAssertEqual(down.status, 1)
        XCTAssertTrue(down.err.contains("cannot reach the Pulse service"), down.err)
        let missing = try pulse(["agree", "alice000.9", "--server", url], token: staff)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.err.contains("no note alice000.9"), missing.err)
        let badID = try pulse(["disagree", "nonsense", "--database", "sqlite:" + tempDir + "/pulse.sqlite"])
        XCTAssertNotEqual(badID.status, 0)
        XCTAssertTrue(badID.err.contains("not a note id"), badID.err)
        let noFile = try pulse(["queue", "--database", "sqlite:" + tempDir + "/nothing-here.sqlite"])
        XCTAssertEqual(noFile.status, 1)
        XCTAssertTrue(noFile.err.contains("no Pulse store at"), noFile.err)
        let both = try pulse(["queue"])
        XCTAssertNotEqual(both.status, 0)
        XCTAssertTrue(both.err.contains("either --server URL or --database DB"), both.err)
    }
}

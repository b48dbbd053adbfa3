import ChildProcessSupport
import DocentCore
import Foundation
import NetCurl
import StateStore
import XCTest

/// The guide's outbox with real parts: the state database on disk, libcurl, and the
/// `docent-pulse` service started late. Writes made while the service is down survive the
/// guide's restart and reach the service once, in order.
final class PulseOutboxServiceTests: XCTestCase {
    private var tempDir = ""
    private var service: PulseServiceProcess?
    private let alice = VisitorCredentials(visitor: VisitorID("alice000")!, secret: "aaaaaaaaaaaaaaaa0001")
    private let art = PulseSubject.artwork(1101)

    override func setUpWithError() throws {
        tempDir = NSTemporaryDirectory() + "docent-outbox-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tempDir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        service?.stop()
        try? FileManager.default.removeItem(atPath: tempDir)
    }

    /// A guide's Pulse as `PulseRunner` makes it: the state database migrated by the settings
    /// store, its outbox, the HTTP store.
    private func guideStore(port: Int) throws -> (OutboxPulseStore, SQLitePulseOutbox) {
        let statePath = tempDir + "/state.sqlite"
        _ = try SQLiteSettingsStore.open(path: statePath, features: [PulseStorage()]).get()
        let outbox = try SQLitePulseOutbox.open(path: statePath).get()
        let http = HTTPPulseStore(baseURL: "http://127.0.0.1:\(port)", fetcher: CurlFetcher(connectTimeoutSeconds: 2), timeoutSeconds: 5)
        return (OutboxPulseStore(store: http, outbox: outbox, clock: { Date() }), outbox)
    }

    func testWritesMadeWhileTheServiceIsDownSurviveARestartAndArriveOnce() async throws {
        let port = try PostgresServer.freePort()
        do {
            let (offline, outbox) = try guideStore(port: port)
            try await offline.register(alice)
            let counts = try await offline.react(.up, on: art, as: alice)
            XCTAssertEqual(counts, PulseCounts(up: 1))
            let draft = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 1), subject: art, language: .korean, text: "아름다운 파랑")
            guard case .queued = try await offline.post(draft, as: alice) else { return XCTFail("the note was not kept") }
            try await offline.report(NoteID(visitor: alice.visitor, sequence: 1), true, as: alice)
            try await offline.report(NoteID(visitor: alice.visitor, sequence: 1), false, as: alice)
            XCTAssertEqual(try outbox.pending().map(\.write.key), ["react artwork:1101", "post alice000.1", "report alice000.1"])
            do {
                _ = try await offline.snapshot(viewer: alice.visitor, dayStart: Date(timeIntervalSince1970: 0), since: nil)
                XCTFail("the service is not running")
            } catch {
                guard case .unavailable = error else { return XCTFail("\(error)") }
            }
        }
        // The guide quit; the service comes up; a new guide opens the same state database.
        service = try PulseServiceProcess(["--database", "sqlite:" + tempDir + "/pulse.sqlite"], listen: "127.0.0.1:\(port)")
        let (online, outbox) = try guideStore(port: port)
        try await online.register(alice)
        let snap = try await online.snapshot(viewer: alice.visitor, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        XCTAssertEqual(try outbox.pending(), [], "everything was sent")
        XCTAssertEqual(snap?.counts[art], PulseCounts(up: 1))
        XCTAssertEqual(snap?.mine[art], .up)
        XCTAssertEqual(snap?.noteCounts[art], 1)
        XCTAssertEqual(snap?.myReports, [], "the report was taken back before it was sent")
        // Sent again (as after an answer lost in a crash): the service still has one note.
        let again = try outbox.put(.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 1), subject: art, language: .korean, text: "아름다운 파랑")), as: alice, at: Date())
        _ = try await online.snapshot(viewer: alice.visitor, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        XCTAssertFalse(try outbox.pending().contains(again))
        let notes = try await HTTPPulseStore(baseURL: "http://127.0.0.1:\(port)").notes(on: art, viewer: nil)
        XCTAssertEqual(notes.map(\.text), ["아름다운 파랑"])
    }

    func testAnOutboxRowThatCannotBeReadIsSkippedNotFatal() async throws {
        let statePath = tempDir + "/state.sqlite"
        _ = try SQLiteSettingsStore.open(path: statePath, features: [PulseStorage()]).get()
        let outbox = try SQLitePulseOutbox.open(path: statePath).get()
        let kept = try outbox.put(.react(.meh, art), as: alice, at: Date(timeIntervalSince1970: 5))
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [
            statePath,
            "INSERT INTO pulse_outbox (key, sequence, kind, visitor, secret, queued_at) VALUES ('future x', 0, 'teleport', 'alice000', 's', 0)",
        ]
        try sqlite.run()
        XCTAssertTrue(sqlite.waitForEnd(within: 60), "sqlite3 did not end")
        XCTAssertEqual(sqlite.exitCode, 0)
        XCTAssertEqual(try outbox.pending(), [kept])
    }

    /// Issue 32: a note waiting for the service keeps its visit code or member card (every
    /// send reads its write back from the outbox), in the state database and in a fallback
    /// file made before the column existed.
    func testAWaitingNoteKeepsItsPass() throws {
        let statePath = tempDir + "/state.sqlite"
        _ = try SQLiteSettingsStore.open(path: statePath, features: [PulseStorage()]).get()
        let oldFile = tempDir + "/pulse-outbox.sqlite"
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        // The table as guides before the gate made it (migration v6).
        sqlite.arguments = [
            oldFile,
            """
            CREATE TABLE pulse_outbox (key TEXT PRIMARY KEY, sequence INTEGER NOT NULL, kind TEXT NOT NULL, subject TEXT, value INTEGER, note TEXT,
            language TEXT, text TEXT, reported INTEGER, visitor TEXT NOT NULL, secret TEXT NOT NULL, queued_at REAL NOT NULL)
            """,
        ]
        try sqlite.run()
        XCTAssertTrue(sqlite.waitForEnd(within: 60), "sqlite3 did not end")
        XCTAssertEqual(sqlite.exitCode, 0)
        for outbox in [try SQLitePulseOutbox.open(path: statePath).get(), try SQLitePulseOutbox.openFile(path: oldFile).get()] {
            let coded = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 1), subject: art, language: .english, text: "Blue", pass: .visitCode("K7QM2P"))
            let member = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 2), subject: art, language: .english, text: "Red", pass: .memberCard("12345678"))
            let plain = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 3), subject: art, language: .english, text: "Green")
            for d in [coded, member, plain] { _ = try outbox.put(.post(d), as: alice, at: Date(timeIntervalSince1970: 5)) }
            XCTAssertEqual(try outbox.pending().map(\.write), [.post(coded), .post(member), .post(plain)], outbox.path)
        }
    }

    func testAStateDatabaseWithoutTheOutboxSaysSo() throws {
        let path = tempDir + "/old.sqlite"
        _ = try SQLiteSettingsStore.open(path: path, features: []).get()
        guard case .failure(let f) = SQLitePulseOutbox.open(path: path) else { return XCTFail("opened an outbox that is not there") }
        XCTAssertTrue(f.message.contains("no Pulse outbox"), f.message)
    }
}

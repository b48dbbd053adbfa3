import ChildProcessSupport
import DocentCore
import DocentCoreTestSupport
import Foundation
import GRDB
import StateStore
import XCTest

/// A clock the test moves (the store keeps time through it).
final class MovableClock: @unchecked Sendable {
    private let lock = NSLock()
    private var t: Date
    init(_ t: Date) { self.t = t }
    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return t
    }
    func advance(_ s: TimeInterval) {
        lock.lock()
        t = t.addingTimeInterval(s)
        lock.unlock()
    }
}

/// The embedded Pulse store against real SQLite files.
final class PulseStoreTests: XCTestCase {
    private var tempDir = ""
    private let clock = MovableClock(Date(timeIntervalSince1970: 1_800_000_000))
    private let alice = VisitorCredentials(visitor: VisitorID("alice000")!, secret: "a-secret")
    private let bob = VisitorCredentials(visitor: VisitorID("bob00000")!, secret: "b-secret")
    private let carol = VisitorCredentials(visitor: VisitorID("carol000")!, secret: "c-secret")
    private let dave = VisitorCredentials(visitor: VisitorID("dave0000")!, secret: "d-secret")

    override func setUpWithError() throws {
        tempDir = NSTemporaryDirectory() + "docent-pulse-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tempDir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tempDir)
    }

    private func open(_ name: String = "shared/pulse.sqlite", rules: PulseRules = .standard) throws -> SQLitePulseStore {
        let c = clock
        return try SQLitePulseStore.open(path: tempDir + "/" + name, rules: rules, clock: { c.now }).get()
    }

    private func registered(_ store: SQLitePulseStore) async throws {
        for v in [alice, bob, carol, dave] { try await store.register(v) }
    }

    func testFileIsWALWithNamedMigrations() throws {
        _ = try open()
        let q = try DatabaseQueue(path: tempDir + "/shared/pulse.sqlite")
        XCTAssertEqual(try q.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }, "wal")
        XCTAssertEqual(try q.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }, ["pulse-v1", "pulse-public-v1"])
    }

    func testDefaultPathAndLocationOption() {
        XCTAssertEqual(SQLitePulseStore.defaultPath(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/h"]), "/x/data/docent/pulse.sqlite")
        XCTAssertEqual(SQLitePulseStore.defaultPath(environment: ["HOME": "/h"]), "/h/.local/share/docent/pulse.sqlite")
        XCTAssertEqual(try PulseLocation.parse("sqlite:/var/lib/docent/pulse.sqlite").get(), .sqlite(path: "/var/lib/docent/pulse.sqlite"))
        XCTAssertEqual(try PulseLocation.parse(nil).get(), .defaultFile)
        XCTAssertEqual(try PulseLocation.parse("http://pulse.museum.local:8080").get(), .service(url: "http://pulse.museum.local:8080"))
        XCTAssertThrowsError(try PulseLocation.parse("http://").get())
        XCTAssertThrowsError(try PulseLocation.parse("postgres://x").get())
        XCTAssertThrowsError(try PulseLocation.parse("sqlite:").get())
    }

    func testReactionsChangeWithdrawAndRetriesAreTheSame() async throws {
        let store = try open()
        try await registered(store)
        let art = PulseSubject.artwork(1101)
        let awaited1 = try await store.react(.up, on: art, as: alice)
        XCTAssertEqual(awaited1, PulseCounts(up: 1))
        let awaited2 = try await store.react(.down, on: art, as: bob)
        XCTAssertEqual(awaited2, PulseCounts(up: 1, down: 1))
        let v = try store.version()
        // A retry of the same reaction changes nothing, not even the version.
        let awaited3 = try await store.react(.down, on: art, as: bob)
        XCTAssertEqual(awaited3, PulseCounts(up: 1, down: 1))
        XCTAssertEqual(try store.version(), v)
        let awaited4 = try await store.react(.meh, on: art, as: alice)
        XCTAssertEqual(awaited4, PulseCounts(meh: 1, down: 1))
        let awaited5 = try await store.react(nil, on: art, as: bob)
        XCTAssertEqual(awaited5, PulseCounts(meh: 1))
        let snap = try await store.snapshot(viewer: alice.visitor, dayStart: clock.now.addingTimeInterval(-3600), since: nil)
        XCTAssertEqual(snap?.counts[art], PulseCounts(meh: 1))
        XCTAssertEqual(snap?.mine, [art: .meh])
        XCTAssertEqual(snap?.activity[art]?.recent, 4)
        XCTAssertEqual(try store.recountMismatches(), [])
    }

    /// Issue 45: counts of Int64.max in a shared pulse.sqlite (one user can write it for all):
    /// a reaction made SQLite's `up + 1` a REAL, and reading it back trapped in GRDB. Counts
    /// are read whatever their type, bounded, and the guide goes on.
    func testCountsOfInt64MaxAreReadBoundedAfterAReaction() async throws {
        let store = try open()
        try await registered(store)
        let art = PulseSubject.artwork(1101)
        _ = try await store.react(.meh, on: art, as: bob)
        let q = try DatabaseQueue(path: tempDir + "/shared/pulse.sqlite")
        try await q.write { try $0.execute(sql: "UPDATE counts SET up = \(Int64.max), down = \(Int64.min)") }
        let damaged = try await store.react(.down, on: art, as: carol)
        XCTAssertEqual(damaged.down, -PulseBounds.maxCount)
        try await q.write { try $0.execute(sql: "UPDATE counts SET down = 0") }
        try q.close()
        let counts = try await store.react(.up, on: art, as: alice)
        XCTAssertEqual(counts.up, PulseBounds.maxCount)
        XCTAssertEqual(counts.meh, 1)
        let withdrawn = try await store.react(nil, on: art, as: alice)
        XCTAssertEqual(withdrawn.up, PulseBounds.maxCount)
        let snap = try await store.snapshot(viewer: alice.visitor, dayStart: clock.now, since: nil)
        XCTAssertEqual(snap?.counts[art]?.up, PulseBounds.maxCount)
        XCTAssertEqual(snap?.counts[art]?.changed(from: nil, to: .up).up, PulseBounds.maxCount + 1)
    }

    func testSnapshotSinceAnUnchangedVersionIsNil() async throws {
        let store = try open()
        try await registered(store)
        let first = try await store.snapshot(viewer: nil, dayStart: clock.now, since: nil)
        let v = try XCTUnwrap(first?.version)
        let awaited6 = try await store.snapshot(viewer: nil, dayStart: clock.now, since: v)
        XCTAssertNil(awaited6)
        _ = try await store.react(.up, on: .tour(4001), as: alice)
        let next = try await store.snapshot(viewer: nil, dayStart: clock.now, since: v)
        XCTAssertEqual(next?.version, PulseVersion(v.value + 1))
        // Another connection (another process) sees the change through the same check.
        let other = try open()
        let awaited7 = try await other.snapshot(viewer: nil, dayStart: clock.now, since: v)
        XCTAssertNotNil(awaited7)
    }

    func testNoteRetryIsTheSameNoteOtherTextIsAConflict() async throws {
        let store = try open()
        try await registered(store)
        let id = NoteID(visitor: alice.visitor, sequence: 7)
        let draft = NoteDraft(id: id, subject: .artwork(1101), language: .spanish, text: "  Precioso\u{1B}[31m  azul ")
        guard case .created(let n) = try await store.post(draft, as: alice) else { return XCTFail("not created") }
        XCTAssertEqual(n.text, "Precioso[31m azul")
        XCTAssertEqual(n.language, .spanish)
        guard case .alreadyStored(let again) = try await store.post(draft, as: alice) else { return XCTFail("retry made a second note") }
        XCTAssertEqual(again.id, id)
        do {
            _ = try await store.post(NoteDraft(id: id, subject: .artwork(1101), language: .spanish, text: "otro"), as: alice)
            XCTFail("conflict expected")
        } catch { XCTAssertEqual(error, .conflict(id)) }
        // Nobody posts under another visitor's id.
        do {
            _ = try await store.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 8), subject: .museum, language: .english, text: "x"), as: bob)
            XCTFail("impersonation accepted")
        } catch { XCTAssertEqual(error, .badCredentials) }
        let list = try await store.notes(on: .artwork(1101), viewer: bob.visitor)
        XCTAssertEqual(list.map(\.id), [id])
    }

    /// Issue 33 #15: a named file in a directory that does not exist is a sentence, and no
    /// directory is made up for it; the default place still gets its directories.
    func testANamedFileInAMissingDirectoryIsRefusedWithoutMakingIt() throws {
        let missing = tempDir + "/no/such/dir"
        guard case .failure(let f) = SQLitePulseStore.open(path: missing + "/p.sqlite", createDirectory: false, clock: { Date() }) else {
            return XCTFail("opened")
        }
        XCTAssertEqual(f.message, "the directory \(missing) does not exist: create it, or name another file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tempDir + "/no"))
        XCTAssertNoThrow(try SQLitePulseStore.open(path: missing + "/p.sqlite", clock: { Date() }).get())
    }

    /// A NUL written into the shared file by another program (here the sqlite3 shell) no
    /// longer cuts the rest of the note off: GRDB reads TEXT as a C string, the store reads
    /// the bytes. Fails before the change with "first half".
    func testANulInAStoredNoteKeepsTheRestOfIt() async throws {
        let store = try open()
        try await registered(store)
        let id = NoteID(visitor: alice.visitor, sequence: 3)
        _ = try await store.post(NoteDraft(id: id, subject: .artwork(1101), language: .english, text: "placeholder"), as: alice)
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        // 'first half' NUL ' second half', as TEXT.
        let hex = Array("first half\u{0} second half".utf8).map { String(format: "%02X", $0) }.joined()
        sqlite.arguments = [tempDir + "/shared/pulse.sqlite", "UPDATE note SET text = CAST(X'\(hex)' AS TEXT) WHERE id = '\(id.key)'"]
        try sqlite.run()
        XCTAssertTrue(sqlite.waitForEnd(within: 60), "sqlite3 did not end")
        XCTAssertEqual(sqlite.exitCode, 0)
        let list = try await store.notes(on: .artwork(1101), viewer: nil)
        XCTAssertEqual(list.map(\.text), ["first half second half"])
    }

    func testThreeReportersHideForAllReporterAtOnceAndUndo() async throws {
        let store = try open()
        try await registered(store)
        let id = NoteID(visitor: alice.visitor, sequence: 1)
        _ = try await store.post(NoteDraft(id: id, subject: .artwork(1), language: .english, text: "hello"), as: alice)
        try await store.report(id, true, as: bob)
        // Gone for bob at once, still there for the others.
        let awaited8 = try await store.notes(on: .artwork(1), viewer: bob.visitor).count
        XCTAssertEqual(awaited8, 0)
        let awaited9 = try await store.notes(on: .artwork(1), viewer: dave.visitor).count
        XCTAssertEqual(awaited9, 1)
        try await store.report(id, true, as: bob)  // a retry does not count twice
        try await store.report(id, true, as: carol)
        let awaited10 = try await store.notes(on: .artwork(1), viewer: dave.visitor).count
        XCTAssertEqual(awaited10, 1)
        try await store.report(id, true, as: dave)
        let awaited11 = try await store.notes(on: .artwork(1), viewer: nil).count
        XCTAssertEqual(awaited11, 0, "three reporters hide it for everyone")
        let awaited12 = try await store.snapshot(viewer: nil, dayStart: clock.now, since: nil)?.noteCounts[.artwork(1)]
        XCTAssertEqual(awaited12, nil)
        // But its author (issue 33 #9), whose count has it too.
        let authorSees = try await store.notes(on: .artwork(1), viewer: alice.visitor).count
        XCTAssertEqual(authorSees, 1, "its author still sees it")
        let authorCount = try await store.snapshot(viewer: alice.visitor, dayStart: clock.now, since: nil)?.noteCounts[.artwork(1)]
        XCTAssertEqual(authorCount, 1)
        try await store.report(id, false, as: dave)
        let awaited13 = try await store.notes(on: .artwork(1), viewer: nil).count
        XCTAssertEqual(awaited13, 1, "undo brings it back")
        let awaited14 = try await store.notes(on: .artwork(1), viewer: dave.visitor).count
        XCTAssertEqual(awaited14, 1)
        // Reports are not down votes.
        let awaited15 = try await store.notes(on: .artwork(1), viewer: alice.visitor).first?.counts
        XCTAssertEqual(awaited15, .zero)
        XCTAssertEqual(try store.recountMismatches(), [])
    }

    func testScoreFloorHidesNote() async throws {
        let store = try open()
        var voters: [VisitorCredentials] = []
        for i in 0..<5 {
            let v = VisitorCredentials(visitor: VisitorID("voter00\(i)")!, secret: "s\(i)")
            try await store.register(v)
            voters.append(v)
        }
        try await store.register(alice)
        let id = NoteID(visitor: alice.visitor, sequence: 1)
        _ = try await store.post(NoteDraft(id: id, subject: .tour(4001), language: .english, text: "meh tour"), as: alice)
        for v in voters.prefix(4) { _ = try await store.react(.down, on: .note(id), as: v) }
        let awaited16 = try await store.notes(on: .tour(4001), viewer: nil).count
        XCTAssertEqual(awaited16, 1)
        _ = try await store.react(.down, on: .note(id), as: voters[4])
        let awaited17 = try await store.notes(on: .tour(4001), viewer: nil).count
        XCTAssertEqual(awaited17, 0)
    }

    func testRateLimitsAnswerWithAWait() async throws {
        var rules = PulseRules()
        rules.notesPerHour = 2
        rules.reactionsPerMinute = 3
        let store = try open(rules: rules)
        try await registered(store)
        for s in 0..<2 { _ = try await store.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: UInt64(s)), subject: .museum, language: .english, text: "n\(s)"), as: alice) }
        do {
            _ = try await store.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 9), subject: .museum, language: .english, text: "n9"), as: alice)
            XCTFail("limit not applied")
        } catch { XCTAssertEqual(error, .rateLimited(.notes(retryAfter: 3600))) }
        for a in 1...3 { _ = try await store.react(.up, on: .artwork(a), as: bob) }
        clock.advance(20)
        do {
            _ = try await store.react(.up, on: .artwork(9), as: bob)
            XCTFail("limit not applied")
        } catch {
            XCTAssertEqual(error, .rateLimited(.reactions(retryAfter: 40)))
            XCTAssertEqual(error.phrase, .key(.pulseErrorReactionsLimit, ["seconds": .verbatim("40")]))
        }
        clock.advance(40)
        let awaited18 = try await store.react(.up, on: .artwork(9), as: bob)
        XCTAssertEqual(awaited18, PulseCounts(up: 1))
    }

    func testWrongSecretAndUnknownVisitorAreRefused() async throws {
        let store = try open()
        try await store.register(alice)
        let impostor = VisitorCredentials(visitor: alice.visitor, secret: "guess")
        do {
            try await store.register(impostor)
            XCTFail("took another secret for a known id")
        } catch { XCTAssertEqual(error, .badCredentials) }
        do {
            _ = try await store.react(.up, on: .museum, as: impostor)
            XCTFail("wrong secret accepted")
        } catch { XCTAssertEqual(error, .badCredentials) }
        do {
            _ = try await store.react(.up, on: .note(NoteID(visitor: bob.visitor, sequence: 1)), as: alice)
            XCTFail("reaction to a missing note")
        } catch { XCTAssertEqual(error, .noSuchNote(NoteID(visitor: bob.visitor, sequence: 1))) }
    }

    func testSeedLoadsOnceIntoAnEmptyStore() async throws {
        let bytes = try [UInt8](Data(contentsOf: Self.repoRoot.appendingPathComponent("SampleData/pulse/seed.json")))
        let seed = try PulseSeed.read(bytes).get()
        XCTAssertEqual(seed.problems, [])
        XCTAssertEqual(Set(seed.featured.map(\.subject.kind)), ["tour", "exhibition"])
        for f in seed.featured { XCTAssertEqual(Set(f.taglines.keys), [.english, .spanish, .chinese], f.subject.key) }
        XCTAssertEqual(Set(seed.notes.map(\.language)), [.english, .spanish, .chinese])
        XCTAssertGreaterThanOrEqual(Set(seed.notes.map(\.subject)).count, 3)
        let card = try XCTUnwrap(seed.announcements.first { $0.style == .card })
        // Floor 2's galleries of SampleData are 1008–1011.
        XCTAssertEqual((1001...1014).filter { g in card.feeds.contains { $0.matches("gallery:\(g)") } }, [1008, 1009, 1010, 1011])
        XCTAssertEqual(seed.announcements.filter { $0.style == .banner }.count, 1)

        let store = try open()
        let awaited19 = try await store.seedIfEmpty(seed)
        XCTAssertTrue(awaited19)
        let awaited20 = try await store.seedIfEmpty(seed)
        XCTAssertFalse(awaited20, "a seeded store is never seeded again")
        let snap = try await store.snapshot(viewer: nil, dayStart: clock.now, since: nil)
        XCTAssertEqual(snap?.featured.count, seed.featured.count)
        XCTAssertEqual(snap?.announcements.map(\.id).sorted(), ["floor2-lighting", "late-thursday"])
        XCTAssertEqual(snap?.curatorPicks, Set(seed.notes.map(\.subject)))
        let notes = try await store.notes(on: .artwork(1101), viewer: nil)
        XCTAssertEqual(Set(notes.map(\.language)), [.english, .spanish, .chinese])
        XCTAssertTrue(notes.allSatisfy { $0.author == .curator })
    }

    func testBadSeedEntriesAreSkippedWithReasons() throws {
        let json = """
            {"featured": [{"subject": "tour:x", "tier": 1}, {"subject": "tour:1", "tier": "high"}],
             "notes": [{"subject": "artwork:1", "sequence": 1, "language": "en", "text": "\\u001b"}],
             "announcements": [{"id": "a", "style": "card", "feeds": ["(a*)*b", "((((((x))))))"], "text": {"en": "t"}}]}
            """
        let seed = try PulseSeed.read(Array(json.utf8)).get()
        XCTAssertEqual(seed.featured.count + seed.notes.count + seed.announcements.count, 0)
        XCTAssertEqual(seed.problems.count, 4)
        XCTAssertTrue(seed.problems[3].contains("nested deeper"), seed.problems[3])
        XCTAssertThrowsError(try PulseSeed.read(Array("[1]".utf8)).get())
    }

    func testPurgeKeepsRecentHighlightsAndCuratorNotes() async throws {
        let store = try open()
        try await registered(store)
        var seed = PulseSeed()
        seed.notes = [PulseSeed.CuratorNote(sequence: 1, subject: .artwork(1), language: .english, text: "curator")]
        _ = try await store.seedIfEmpty(seed)
        for s in 0..<6 {
            _ = try await store.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: UInt64(s)), subject: .artwork(1), language: .english, text: "old \(s)"), as: alice)
        }
        _ = try await store.react(.down, on: .note(NoteID(visitor: alice.visitor, sequence: 0)), as: bob)
        clock.advance(48 * 3600)
        _ = try await store.post(NoteDraft(id: NoteID(visitor: bob.visitor, sequence: 1), subject: .artwork(1), language: .english, text: "new"), as: bob)
        XCTAssertEqual(try store.purge(), 2, "six old notes: four highlights kept; the negative one and the oldest go")
        let left = try await store.notes(on: .artwork(1), viewer: nil)
        XCTAssertEqual(left.count, 6)
        XCTAssertEqual(Set(left.filter { $0.id.visitor == alice.visitor }.map(\.id.sequence)), [2, 3, 4, 5])
        XCTAssertEqual(try store.recountMismatches(), [])
    }

    /// The service's purge on a big store runs in short transactions (`purgeChunk` notes, ten
    /// times as many activity rows, at a time) and leaves exactly what one transaction left:
    /// more expired notes and old activity than one chunk, on two copies of one store.
    func testThePurgeOfABigStoreInChunksLeavesWhatOneTransactionLeft() async throws {
        let store = try open()
        try await registered(store)
        let expired = SQLitePulseStore.purgeChunk * 2 + 37
        let now = clock.now.timeIntervalSince1970
        let q = try DatabaseQueue(path: tempDir + "/shared/pulse.sqlite")
        let writer = alice.visitor.rawValue
        try await q.write { db in
            for i in 0..<expired + 6 {
                try db.execute(
                    sql: "INSERT INTO note (id, visitor, seq, subject, language, text, created, author, reports) VALUES (?, ?, ?, 'artwork:1', 'en', 'old', ?, 'visitor', 0)",
                    arguments: ["\(writer).\(i)", writer, i, now - 40 * 86400 - Double(i)])
            }
            for i in 0..<(SQLitePulseStore.purgeChunk * 10 * 2 + 11) {
                try db.execute(sql: "INSERT INTO activity (subject, kind, at) VALUES ('artwork:1', 'play', ?)", arguments: [now - 400 * 86400 - Double(i)])
            }
            try db.execute(sql: "INSERT INTO activity (subject, kind, at) VALUES ('artwork:1', 'play', ?)", arguments: [now - 60])
        }
        try FileManager.default.copyItem(atPath: tempDir + "/shared", toPath: tempDir + "/copy")
        let gone = try await store.purgeExpired(PulsePurgeAges(activity: 90 * 86400))
        let once = try open("copy/pulse.sqlite")
        XCTAssertEqual(try once.purge(), gone, "as many notes as one transaction purged")
        let left = try await store.notes(on: .artwork(1), viewer: nil).map(\.id)
        let leftOnce = try await once.notes(on: .artwork(1), viewer: nil).map(\.id)
        XCTAssertEqual(left, leftOnce)
        XCTAssertGreaterThan(gone, SQLitePulseStore.purgeChunk * 2, "more than two chunks went")
        let activity = try await q.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM activity") }
        XCTAssertEqual(activity, 1, "only the recent play is left")
    }

    func testIdentityIsKeptInTheStateDatabase() throws {
        let state = try SQLiteSettingsStore.open(path: tempDir + "/state.sqlite", features: [PulseStorage()]).get()
        var settings = PersistedSettings(introSeen: true)
        // Hidden writers keep their order (the list under Info), and showing one again removes it.
        let hidden = [HiddenWriter(visitor: VisitorID("zzzz9999")!, sample: "loud"), HiddenWriter(visitor: VisitorID("aaaa1111")!, sample: "画 twice")]
        // The largest sequence kept (issue 45: one past any clock's milliseconds is read as 0).
        var identity = PulseIdentity(credentials: alice, nextSequence: 9_000_000_000_000_000, hidden: hidden)
        settings.saves[PulseFeature.self] = identity
        try state.save(settings).get()
        let again = try SQLiteSettingsStore.open(path: tempDir + "/state.sqlite", features: [PulseStorage()]).get()
        XCTAssertEqual(try again.load().get()?.saves[PulseFeature.self], identity)
        XCTAssertEqual(try again.appliedMigrations().get(), ["v1", "v4-pulse-identity", "v5-pulse-hidden", "v6-pulse-outbox", "v8-pulse-outbox-pass"])
        identity.hidden.removeFirst()
        settings.saves[PulseFeature.self] = identity
        try again.save(settings).get()
        XCTAssertEqual(try again.load().get()?.saves[PulseFeature.self]?.hidden, [hidden[1]])
    }

    // MARK: Several processes

    static let workerDB = "DOCENT_PULSE_WORKER_DB"
    static let workerIndex = "DOCENT_PULSE_WORKER_INDEX"
    static let workerOut = "DOCENT_PULSE_WORKER_OUT"
    static let subjects: [PulseSubject] = [.artwork(1101), .artwork(1102), .tour(4001), .stop(tour: 4001, sort: 2), .exhibition(7101)]

    /// Eight processes (this test binary run again, one test each) react, change, withdraw,
    /// post notes (some retried with the same id) and report at once on one file; then every
    /// count equals a recount of the rows and the sum of each visitor's final choices, and
    /// every note is there exactly once.
    func testEightProcessesKeepCountsExact() async throws {
        let db = tempDir + "/storm/pulse.sqlite"
        _ = try open("storm/pulse.sqlite")
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        var processes: [Process] = []
        for i in 0..<8 {
            let p = Process()
            p.executableURL = exe
            p.arguments = Self.workerArguments(exe)
            var env = ProcessInfo.processInfo.environment
            env[Self.workerDB] = db
            env[Self.workerIndex] = String(i)
            env[Self.workerOut] = tempDir + "/worker\(i).txt"
            p.environment = env
            p.standardOutput = FileHandle.nullDevice
            processes.append(p)
        }
        for p in processes { try p.run() }
        for p in processes { XCTAssertTrue(p.waitForEnd(within: 300), "a worker did not end") }
        XCTAssertEqual(processes.map(\.exitCode), Array(repeating: 0, count: 8))

        // What each visitor finally chose, as the workers wrote it down.
        var expected: [PulseSubject: PulseCounts] = [:]
        var notes = 0
        for i in 0..<8 {
            let text = try String(contentsOfFile: tempDir + "/worker\(i).txt", encoding: .utf8)
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                if parts[0] == "notes" { notes += Int(parts[1]) ?? -1000; continue }
                let s = try XCTUnwrap(PulseSubject(String(parts[0])))
                let v = Int(parts[1]).flatMap(ReactionValue.init(rawValue:))
                expected[s] = (expected[s] ?? .zero).changed(from: nil, to: v)
            }
        }
        // The workers wrote on the real clock; read on it too (the notes are minutes old).
        let store = try SQLitePulseStore.open(path: db, clock: { Date() }).get()
        XCTAssertEqual(try store.recountMismatches(), [])
        let snap = try await store.snapshot(viewer: nil, dayStart: Date().addingTimeInterval(-86400), since: nil)
        for s in Self.subjects { XCTAssertEqual(snap?.counts[s] ?? .zero, expected[s] ?? .zero, s.key) }
        XCTAssertEqual(snap?.noteCounts[.museum], notes)
        XCTAssertEqual(notes, 8 * 10)
    }

    /// How this test binary runs one test (Linux XCTest: `Module.Class/test` as argument).
    static func workerArguments(_ exe: URL) -> [String] {
        ["AdapterTests.PulseStoreTests/testStormWorker"]
    }

    /// One of the storm's processes when the storm starts it (its environment names the file);
    /// run by itself, one worker alone on a file of its own, whose counts must then equal its
    /// own final choices and a recount.
    func testStormWorker() async throws {
        let env = ProcessInfo.processInfo.environment
        if let db = env[Self.workerDB], let index = env[Self.workerIndex].flatMap(Int.init), let out = env[Self.workerOut] {
            return try await Self.runWorker(db: db, index: index, out: out)
        }
        let db = tempDir + "/alone/pulse.sqlite"
        _ = try open("alone/pulse.sqlite")
        try await Self.runWorker(db: db, index: 3, out: tempDir + "/alone.txt")
        var expected: [PulseSubject: PulseCounts] = [:]
        var notes = -1
        for line in try String(contentsOfFile: tempDir + "/alone.txt", encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts[0] == "notes" { notes = Int(parts[1]) ?? -1; continue }
            let v = Int(parts[1]).flatMap(ReactionValue.init(rawValue:))
            expected[try XCTUnwrap(PulseSubject(String(parts[0])))] = PulseCounts.zero.changed(from: nil, to: v)
        }
        let store = try SQLitePulseStore.open(path: db, clock: { Date() }).get()
        XCTAssertEqual(try store.recountMismatches(), [])
        let snap = try await store.snapshot(viewer: nil, dayStart: Date().addingTimeInterval(-86400), since: nil)
        for s in Self.subjects { XCTAssertEqual(snap?.counts[s] ?? .zero, expected[s] ?? .zero, s.key) }
        XCTAssertEqual(notes, 10, "one note every 15 steps of 150, each sent twice")
        XCTAssertEqual(snap?.noteCounts[.museum], notes)
    }

    /// What one storm process does: 150 reactions, 10 notes each sent twice, reactions to and
    /// reports of a neighbour's notes; its final choices and note count written to `out`.
    static func runWorker(db: String, index: Int, out: String) async throws {
        var rules = PulseRules()
        rules.reactionsPerMinute = 100_000
        rules.notesPerHour = 100_000
        let store = try SQLitePulseStore.open(path: db, rules: rules, clock: { Date() }).get()
        let me = VisitorCredentials(visitor: VisitorID("worker0\(index)")!, secret: "s\(index)")
        try await store.register(me)
        var mine: [PulseSubject: ReactionValue] = [:]
        var rng = SplitMix(seed: UInt64(index) &* 0x9E37_79B9)
        var posted = 0
        for step in 0..<150 {
            let s = Self.subjects[Int(rng.next() % UInt64(Self.subjects.count))]
            let choice = ReactionValue.allCases[Int(rng.next() % 3)]
            let new = PulseRules.toggled(mine[s], pressing: choice)
            _ = try await store.react(new, on: s, as: me)
            mine[s] = new
            if step % 15 == 0 {
                let id = NoteID(visitor: me.visitor, sequence: UInt64(step))
                let draft = NoteDraft(id: id, subject: .museum, language: .english, text: "note \(step) from \(index)")
                _ = try await store.post(draft, as: me)
                _ = try await store.post(draft, as: me)  // a retry: the same note
                posted += 1
                // React to and report a neighbour's note if it is there yet.
                let other = NoteID(visitor: VisitorID("worker0\((index + 1) % 8)")!, sequence: UInt64(step))
                do {
                    _ = try await store.react(.up, on: .note(other), as: me)
                    try await store.report(other, step % 30 == 0, as: me)
                } catch {
                    if case .noSuchNote = error {} else { throw error }
                }
            }
        }
        var lines = mine.map { "\($0.key.key) \($0.value.rawValue)" }
        lines.append("notes \(posted)")
        try lines.joined(separator: "\n").write(toFile: out, atomically: true, encoding: .utf8)
    }

    static var repoRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}


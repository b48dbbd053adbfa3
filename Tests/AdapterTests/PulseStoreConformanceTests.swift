import DocentCore
import DocentCoreTestSupport
import Foundation
import NetCurl
import PulseService
import StateStore
import XCTest

/// One store under test: how each visitor's guide reaches it, the store's own recount, and
/// how it is torn down. The embedded stores serve every visitor from one object; the HTTP
/// store is one guide per visitor (each reads as the identity it registered).
struct StoreUnderTest {
    let name: String
    let forVisitor: (VisitorCredentials) -> any PulseStore
    let recount: () async throws -> [String]
    let close: () -> Void
}

/// The same behaviour from every store the guide can use: SQLite embedded, PostgreSQL
/// embedded (as the service uses it), and the HTTP store through `docent-pulse` over SQLite
/// and over PostgreSQL. Each check runs against all four; a failure names the store.
final class PulseStoreConformanceTests: PostgresTestCase {
    private var opened: [StoreUnderTest] = []

    private let alice = VisitorCredentials(visitor: VisitorID("alice000")!, secret: "aaaaaaaaaaaaaaaa0001")
    private let bob = VisitorCredentials(visitor: VisitorID("bob00000")!, secret: "bbbbbbbbbbbbbbbb0002")
    private let carol = VisitorCredentials(visitor: VisitorID("carol000")!, secret: "cccccccccccccccc0003")
    private let dave = VisitorCredentials(visitor: VisitorID("dave0000")!, secret: "dddddddddddddddd0004")
    private var everyone: [VisitorCredentials] { [alice, bob, carol, dave] }


    override func tearDownWithError() throws {
        for s in opened { s.close() }
        opened = []
        try super.tearDownWithError()
    }


    /// The four stores, each new and empty.
    private func stores() async throws -> [StoreUnderTest] {
        let pg = try server()
        var out: [StoreUnderTest] = []
        let sqlite = try SQLitePulseStore.open(path: tempDir + "/embedded-\(UUID().uuidString).sqlite", clock: { Date() }).get()
        out.append(StoreUnderTest(name: "SQLite", forVisitor: { _ in sqlite }, recount: { try sqlite.recountMismatches() }, close: {}))

        let location = try PostgresPulseStore.Location.parse(pg.url(try pg.createDatabase())).get()
        let postgresStore = try await PostgresPulseStore.open(location, clock: { Date() }).get()
        out.append(
            StoreUnderTest(name: "PostgreSQL", forVisitor: { _ in postgresStore }, recount: { try await postgresStore.recountMismatches() }, close: { postgresStore.close() }))

        for (name, database) in [("HTTP over SQLite", "sqlite:" + tempDir + "/service-\(UUID().uuidString).sqlite"), ("HTTP over PostgreSQL", pg.url(try pg.createDatabase()))] {
            let service = try PulseServiceProcess(["--database", database, "--client-limits", "off"])
            services.append(service)
            let url = service.url
            var guides: [String: HTTPPulseStore] = [:]
            let lock = NSLock()
            out.append(
                StoreUnderTest(
                    name: name,
                    forVisitor: { c in
                        lock.withLock {
                            if let g = guides[c.visitor.rawValue] { return g }
                            let g = HTTPPulseStore(baseURL: url)
                            guides[c.visitor.rawValue] = g
                            return g
                        }
                    },
                    recount: { try await Self.recountBehindTheService(database) }, close: {}))
        }
        opened = out
        return out
    }

    /// The HTTP stores' recount is the service's: the store behind it, opened directly (the
    /// rows the service wrote).
    private static func recountBehindTheService(_ database: String) async throws -> [String] {
        if database.hasPrefix("sqlite:") {
            return try SQLitePulseStore.open(path: String(database.dropFirst(7)), clock: { Date() }).get().recountMismatches()
        }
        let store = try await PostgresPulseStore.open(try PostgresPulseStore.Location.parse(database).get(), clock: { Date() }).get()
        defer { store.close() }
        return try await store.recountMismatches()
    }

    private func registered(_ s: StoreUnderTest) async throws {
        for c in everyone { try await s.forVisitor(c).register(c) }
    }

    // MARK: Checks

    func testReactionsChangeWithdrawAndRetriesAreTheSame() async throws {
        for s in try await stores() {
            try await registered(s)
            let art = PulseSubject.artwork(1101)
            let a = s.forVisitor(alice)
            let b = s.forVisitor(bob)
            var c = try await a.react(.up, on: art, as: alice)
            XCTAssertEqual(c, PulseCounts(up: 1), s.name)
            c = try await b.react(.down, on: art, as: bob)
            XCTAssertEqual(c, PulseCounts(up: 1, down: 1), s.name)
            let before = try await a.snapshot(viewer: alice.visitor, dayStart: Date(), since: nil)
            // A retry of the same reaction changes nothing, not even the version.
            c = try await b.react(.down, on: art, as: bob)
            XCTAssertEqual(c, PulseCounts(up: 1, down: 1), s.name)
            let unchanged = try await a.snapshot(viewer: alice.visitor, dayStart: Date(), since: before?.version)
            XCTAssertNil(unchanged, "\(s.name): a retried reaction changed the version")
            c = try await a.react(.meh, on: art, as: alice)
            XCTAssertEqual(c, PulseCounts(meh: 1, down: 1), s.name)
            c = try await b.react(nil, on: art, as: bob)
            XCTAssertEqual(c, PulseCounts(meh: 1), s.name)
            let snap = try await a.snapshot(viewer: alice.visitor, dayStart: Date().addingTimeInterval(-3600), since: nil)
            XCTAssertEqual(snap?.counts[art], PulseCounts(meh: 1), s.name)
            XCTAssertEqual(snap?.mine, [art: .meh], s.name)
            XCTAssertEqual(snap?.activity[art]?.recent, 4, s.name)
            let mismatches = try await s.recount()
            XCTAssertEqual(mismatches, [], s.name)
        }
    }

    func testSnapshotSinceAnUnchangedVersionIsNilAndAnyWriteChangesIt() async throws {
        for s in try await stores() {
            try await registered(s)
            let a = s.forVisitor(alice)
            let first = try await a.snapshot(viewer: nil, dayStart: Date(), since: nil)
            let v = try XCTUnwrap(first?.version, s.name)
            let same = try await a.snapshot(viewer: nil, dayStart: Date(), since: v)
            XCTAssertNil(same, s.name)
            // Each kind of write moves the version (what a guide polls for).
            _ = try await s.forVisitor(bob).react(.up, on: .tour(4001), as: bob)
            let afterReaction = try await a.snapshot(viewer: nil, dayStart: Date(), since: v)
            let v2 = try XCTUnwrap(afterReaction?.version, "\(s.name): a reaction did not change the version")
            XCTAssertGreaterThan(v2, v, s.name)
            let id = NoteID(visitor: carol.visitor, sequence: 1)
            _ = try await s.forVisitor(carol).post(NoteDraft(id: id, subject: .tour(4001), language: .english, text: "lovely"), as: carol)
            let afterNote = try await a.snapshot(viewer: nil, dayStart: Date(), since: v2)
            let v3 = try XCTUnwrap(afterNote?.version, "\(s.name): a note did not change the version")
            XCTAssertEqual(afterNote?.noteCounts[.tour(4001)], 1, s.name)
            try await s.forVisitor(dave).report(id, true, as: dave)
            let afterReport = try await a.snapshot(viewer: nil, dayStart: Date(), since: v3)
            XCTAssertNotNil(afterReport, "\(s.name): a report did not change the version")
        }
    }

    func testNoteRetryIsTheSameNoteOtherTextIsAConflictAndTextIsCleaned() async throws {
        for s in try await stores() {
            try await registered(s)
            let a = s.forVisitor(alice)
            let id = NoteID(visitor: alice.visitor, sequence: 7)
            let draft = NoteDraft(id: id, subject: .artwork(1101), language: .spanish, text: "  Precioso\u{1B}[31m  azul ")
            guard case .created(let n) = try await a.post(draft, as: alice) else {
                XCTFail("\(s.name): not created")
                continue
            }
            XCTAssertEqual(n.text, "Precioso[31m azul", s.name)
            XCTAssertEqual(n.language, .spanish, s.name)
            guard case .alreadyStored(let again) = try await a.post(draft, as: alice) else {
                XCTFail("\(s.name): a retry made a second note")
                continue
            }
            XCTAssertEqual(again.id, id, s.name)
            do {
                _ = try await a.post(NoteDraft(id: id, subject: .artwork(1101), language: .spanish, text: "otro"), as: alice)
                XCTFail("\(s.name): conflict expected")
            } catch { XCTAssertEqual(error, .conflict(id), s.name) }
            let list = try await s.forVisitor(bob).notes(on: .artwork(1101), viewer: bob.visitor)
            XCTAssertEqual(list.map(\.id), [id], s.name)
            XCTAssertEqual(list.first?.text, "Precioso[31m azul", s.name)
        }
    }

    func testNotesAreListedNewestFirstOnTheirSubjectOnly() async throws {
        for s in try await stores() {
            try await registered(s)
            var ids: [NoteID] = []
            for (i, c) in [alice, bob, carol].enumerated() {
                let id = NoteID(visitor: c.visitor, sequence: UInt64(10 + i))
                _ = try await s.forVisitor(c).post(NoteDraft(id: id, subject: .stop(tour: 2, sort: 3), language: .english, text: "note \(i)"), as: c)
                ids.append(id)
            }
            _ = try await s.forVisitor(dave).post(NoteDraft(id: NoteID(visitor: dave.visitor, sequence: 1), subject: .museum, language: .english, text: "elsewhere"), as: dave)
            let list = try await s.forVisitor(dave).notes(on: .stop(tour: 2, sort: 3), viewer: dave.visitor)
            XCTAssertEqual(list.map(\.id), ids.reversed(), s.name)
        }
    }

    func testThreeReportersHideForAllReporterAtOnceAndUndo() async throws {
        for s in try await stores() {
            try await registered(s)
            let id = NoteID(visitor: alice.visitor, sequence: 1)
            _ = try await s.forVisitor(alice).post(NoteDraft(id: id, subject: .artwork(1), language: .english, text: "hello"), as: alice)
            try await s.forVisitor(bob).report(id, true, as: bob)
            var seen = try await s.forVisitor(bob).notes(on: .artwork(1), viewer: bob.visitor).count
            XCTAssertEqual(seen, 0, "\(s.name): gone for the reporter at once")
            seen = try await s.forVisitor(dave).notes(on: .artwork(1), viewer: dave.visitor).count
            XCTAssertEqual(seen, 1, "\(s.name): still there for the others")
            try await s.forVisitor(bob).report(id, true, as: bob)  // a retry does not count twice
            try await s.forVisitor(carol).report(id, true, as: carol)
            seen = try await s.forVisitor(dave).notes(on: .artwork(1), viewer: dave.visitor).count
            XCTAssertEqual(seen, 1, s.name)
            try await s.forVisitor(dave).report(id, true, as: dave)
            seen = try await s.forVisitor(alice).notes(on: .artwork(1), viewer: nil).count
            XCTAssertEqual(seen, 0, "\(s.name): three reporters hide it for everyone")
            // But its author, who is told it waits for staff (issue 33 #9).
            seen = try await s.forVisitor(alice).notes(on: .artwork(1), viewer: alice.visitor).count
            XCTAssertEqual(seen, 1, "\(s.name): its author still sees it")
            let mine = try await s.forVisitor(dave).snapshot(viewer: dave.visitor, dayStart: Date(), since: nil)?.myReports
            XCTAssertEqual(mine, [id], s.name)
            try await s.forVisitor(dave).report(id, false, as: dave)
            seen = try await s.forVisitor(alice).notes(on: .artwork(1), viewer: nil).count
            XCTAssertEqual(seen, 1, "\(s.name): undo brings it back")
            do {
                try await s.forVisitor(bob).report(NoteID(visitor: alice.visitor, sequence: 99), true, as: bob)
                XCTFail("\(s.name): reporting a missing note succeeded")
            } catch { XCTAssertEqual(error, .noSuchNote(NoteID(visitor: alice.visitor, sequence: 99)), s.name) }
        }
    }

    func testScoreFloorHidesANote() async throws {
        for s in try await stores() {
            var voters: [VisitorCredentials] = []
            for i in 0..<5 {
                let v = VisitorCredentials(visitor: VisitorID("voter00\(i)")!, secret: "vvvvvvvvvvvvvvvv000\(i)")
                try await s.forVisitor(v).register(v)
                voters.append(v)
            }
            try await s.forVisitor(alice).register(alice)
            let id = NoteID(visitor: alice.visitor, sequence: 1)
            _ = try await s.forVisitor(alice).post(NoteDraft(id: id, subject: .tour(4001), language: .english, text: "meh tour"), as: alice)
            for v in voters.prefix(4) { _ = try await s.forVisitor(v).react(.down, on: .note(id), as: v) }
            var seen = try await s.forVisitor(alice).notes(on: .tour(4001), viewer: nil).count
            XCTAssertEqual(seen, 1, s.name)
            let counts = try await s.forVisitor(voters[4]).react(.down, on: .note(id), as: voters[4])
            XCTAssertEqual(counts, PulseCounts(down: 5), s.name)
            seen = try await s.forVisitor(alice).notes(on: .tour(4001), viewer: nil).count
            XCTAssertEqual(seen, 0, s.name)
        }
    }

    func testWrongSecretAndUnknownVisitorAreRefused() async throws {
        for s in try await stores() {
            try await s.forVisitor(alice).register(alice)
            let impostor = VisitorCredentials(visitor: alice.visitor, secret: "zzzzzzzzzzzzzzzz9999")
            do {
                try await s.forVisitor(impostor).register(impostor)
                XCTFail("\(s.name): a known id registered with another secret")
            } catch { XCTAssertEqual(error, .badCredentials, s.name) }
            // The HTTP guide remembers the identity it registered; the others are asked directly.
            let stranger = VisitorCredentials(visitor: VisitorID("nobody00")!, secret: "nnnnnnnnnnnnnnnn0000")
            do {
                _ = try await s.forVisitor(stranger).react(.up, on: .museum, as: stranger)
                XCTFail("\(s.name): an unknown visitor reacted")
            } catch { XCTAssertEqual(error, .badCredentials, s.name) }
        }
    }

    /// Sixteen visitors, each toggling, changing and withdrawing reactions on a few subjects,
    /// all at once: the counts each store keeps equal a recount of its rows.
    func testConcurrentWritersKeepCountsExact() async throws {
        for s in try await stores() {
            let visitors = (0..<16).map { VisitorCredentials(visitor: VisitorID(String(format: "storm%03d", $0))!, secret: String(format: "ssssssssssssssss%04d", $0)) }
            for v in visitors { try await s.forVisitor(v).register(v) }
            let subjects: [PulseSubject] = [.artwork(1), .artwork(2), .tour(3)]
            let finals = try await withThrowingTaskGroup(of: [PulseSubject: ReactionValue].self) { group in
                for (i, v) in visitors.enumerated() {
                    let store = s.forVisitor(v)
                    group.addTask {
                        var mine: [PulseSubject: ReactionValue] = [:]
                        let values: [ReactionValue?] = [.up, .meh, nil, .down, .up]
                        for step in 0..<5 {
                            let subject = subjects[(i + step) % subjects.count]
                            let value = values[(i + step) % values.count]
                            _ = try await store.react(value, on: subject, as: v)
                            mine[subject] = value
                        }
                        return mine
                    }
                }
                var all: [[PulseSubject: ReactionValue]] = []
                for try await m in group { all.append(m) }
                return all
            }
            let snap = try await s.forVisitor(visitors[0]).snapshot(viewer: nil, dayStart: Date(), since: nil)
            for subject in subjects {
                let expected = PulseCounts.recount(finals.compactMap { $0[subject] })
                XCTAssertEqual(snap?.counts[subject] ?? .zero, expected, "\(s.name) \(subject.key)")
            }
            let mismatches = try await s.recount()
            XCTAssertEqual(mismatches, [], s.name)
        }
    }

    /// An author deletes their own note (issue 32), the guide's way (`deleteOwnNote`): another
    /// visitor cannot, the note goes with its reactions and reports, and a second delete
    /// finds nothing. The same from every store.
    func testAnAuthorDeletesTheirOwnNoteAndNobodyElseCan() async throws {
        for s in try await stores() {
            try await registered(s)
            let a = s.forVisitor(alice), b = s.forVisitor(bob)
            let id = NoteID(visitor: alice.visitor, sequence: 41), kept = NoteID(visitor: alice.visitor, sequence: 42)
            for n in [id, kept] {
                _ = try await a.post(NoteDraft(id: n, subject: .artwork(1101), language: .english, text: "note \(n.sequence)"), as: alice)
            }
            _ = try await b.react(.up, on: .note(id), as: bob)
            try await s.forVisitor(carol).report(id, true, as: carol)
            do {
                try await b.deleteOwnNote(id, as: bob)
                XCTFail("\(s.name): bob deleted alice's note")
            } catch { XCTAssertEqual(error, .noSuchNote(id), s.name) }
            try await a.deleteOwnNote(id, as: alice)
            let left = try await b.notes(on: .artwork(1101), viewer: bob.visitor).map(\.id)
            XCTAssertEqual(left, [kept], s.name)
            let snap = try await b.snapshot(viewer: bob.visitor, dayStart: Date(), since: nil)
            XCTAssertNil(snap?.counts[.note(id)], "\(s.name): its reactions went with it")
            XCTAssertEqual(snap?.noteCounts[.artwork(1101)], 1, s.name)
            do {
                try await a.deleteOwnNote(id, as: alice)
                XCTFail("\(s.name): a second delete found the note")
            } catch { XCTAssertEqual(error, .noSuchNote(id), s.name) }
            let mismatches = try await s.recount()
            XCTAssertEqual(mismatches, [], s.name)
        }
    }

    /// The rate limits, with a clock the test moves: the embedded stores only (the service
    /// keeps the real time). The same waits from SQLite and from PostgreSQL's reaction function.
    func testRateLimitsAnswerWithTheSameWaitInBothEmbeddedStores() async throws {
        var rules = PulseRules()
        rules.notesPerHour = 2
        rules.reactionsPerMinute = 3
        let pg = try server()
        let sqliteClock = MovableClock(Date(timeIntervalSince1970: 1_800_000_000))
        let pgClock = MovableClock(Date(timeIntervalSince1970: 1_800_000_000))
        let sqlite = try SQLitePulseStore.open(path: tempDir + "/limits.sqlite", rules: rules, clock: { sqliteClock.now }).get()
        let postgresStore = try await PostgresPulseStore.open(try PostgresPulseStore.Location.parse(pg.url(try pg.createDatabase())).get(), rules: rules, clock: { pgClock.now }).get()
        defer { postgresStore.close() }
        for (name, store, clock) in [("SQLite", sqlite as any PulseStore, sqliteClock), ("PostgreSQL", postgresStore as any PulseStore, pgClock)] {
            try await store.register(alice)
            try await store.register(bob)
            for n in 0..<2 {
                _ = try await store.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: UInt64(n)), subject: .museum, language: .english, text: "n\(n)"), as: alice)
            }
            do {
                _ = try await store.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 9), subject: .museum, language: .english, text: "n9"), as: alice)
                XCTFail("\(name): the notes limit was not applied")
            } catch { XCTAssertEqual(error, .rateLimited(.notes(retryAfter: 3600)), name) }
            for a in 1...3 { _ = try await store.react(.up, on: .artwork(a), as: bob) }
            // The same reaction again is a retry: never limited.
            let again = try await store.react(.up, on: .artwork(3), as: bob)
            XCTAssertEqual(again, PulseCounts(up: 1), name)
            clock.advance(20)
            do {
                _ = try await store.react(.up, on: .artwork(9), as: bob)
                XCTFail("\(name): the reactions limit was not applied")
            } catch { XCTAssertEqual(error, .rateLimited(.reactions(retryAfter: 40)), name) }
            clock.advance(40)
            let later = try await store.react(.up, on: .artwork(9), as: bob)
            XCTAssertEqual(later, PulseCounts(up: 1), name)
        }
    }

    /// Issue 28: one reaction implementation (`PulseRulesSQL.reaction`), run by SQLite in its
    /// transaction and by PostgreSQL in the function made from the same text. 300 reactions
    /// with a moved clock (changes, the same reaction again, up to down, withdrawals, notes
    /// that exist and do not, a wrong secret, the rate limit and its waits) answer the same in
    /// both stores, step by step, and what a model built on `PulseCounts.changed` and
    /// `PulseRules.check` says; the counts equal a recount; the hand-written function is gone.
    func testReactionsAgreeStepByStepWithTheRulesInBothEmbeddedStores() async throws {
        var rules = PulseRules()
        rules.reactionsPerMinute = 3
        let pg = try server()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let sqliteClock = MovableClock(start), pgClock = MovableClock(start)
        let sqlite = try SQLitePulseStore.open(path: tempDir + "/react.sqlite", rules: rules, clock: { sqliteClock.now }).get()
        let database = try pg.createDatabase()
        let postgresStore = try await PostgresPulseStore.open(try PostgresPulseStore.Location.parse(pg.url(database)).get(), rules: rules, clock: { pgClock.now }).get()
        defer { postgresStore.close() }
        let visitors = [alice, bob, carol]
        let note = NoteID(visitor: dave.visitor, sequence: 1)
        for store in [sqlite as any PulseStore, postgresStore] {
            for c in everyone { try await store.register(c) }
            _ = try await store.post(NoteDraft(id: note, subject: .artwork(7), language: .english, text: "a note"), as: dave)
        }
        let missing = NoteID(visitor: dave.visitor, sequence: 99)
        let subjects: [PulseSubject] = [.artwork(1), .artwork(2), .note(note), .note(missing)]
        let values: [ReactionValue?] = [.up, .meh, .down, nil]
        // The model: the rules in Swift.
        var mine: [PulseSubject: [VisitorID: ReactionValue]] = [:]
        var counts: [PulseSubject: PulseCounts] = [:]
        var recent: [VisitorID: [Date]] = [:]
        var now = start
        var rng = SplitMix(seed: 28)
        var seen: [String: Int] = [:]
        for step in 0..<300 {
            let advance = [0, 0, 1, 2, 5, 20, 61][rng.next(7)]
            sqliteClock.advance(TimeInterval(advance))
            pgClock.advance(TimeInterval(advance))
            now = now.addingTimeInterval(TimeInterval(advance))
            var who = visitors[rng.next(3)]
            let wrongSecret = rng.next(15) == 0
            if wrongSecret { who = VisitorCredentials(visitor: who.visitor, secret: "wrongwrongwrong00000") }
            let subject = subjects[rng.next(4)]
            // Often the visitor's own reaction again (a retry), or up then down.
            let old = mine[subject]?[who.visitor]
            let value: ReactionValue? = rng.next(4) == 0 ? old : (old == .up && rng.next(2) == 0 ? .down : values[rng.next(4)])
            let expected: Result<PulseCounts, PulseStoreError>
            let kind: String
            if wrongSecret {
                (expected, kind) = (.failure(.badCredentials), "wrong secret")
            } else if subject == .note(missing) {
                (expected, kind) = (.failure(.noSuchNote(missing)), "no such note")
            } else if old == value {
                (expected, kind) = (.success(counts[subject] ?? .zero), old == nil ? "nothing withdrawn" : "the same again")
            } else if let wait = PulseRules.check(recent[who.visitor] ?? [], now: now, limit: rules.reactionsPerMinute, per: 60) {
                (expected, kind) = (.failure(.rateLimited(.reactions(retryAfter: wait))), "rate-limited")
            } else {
                kind = old == .up && value == .down ? "up to down" : value == nil ? "withdrawn" : old == nil ? "new" : "changed"
                mine[subject, default: [:]][who.visitor] = value
                counts[subject] = (counts[subject] ?? .zero).changed(from: old, to: value)
                recent[who.visitor, default: []].append(now)
                expected = .success(counts[subject]!)
            }
            let label = "step \(step): \(who.visitor.rawValue) \(value.map { "\($0)" } ?? "withdraws") on \(subject.key) (before: \(old.map { "\($0)" } ?? "none"))"
            for (name, store) in [("SQLite", sqlite as any PulseStore), ("PostgreSQL", postgresStore)] {
                let got: Result<PulseCounts, PulseStoreError>
                do { got = .success(try await store.react(value, on: subject, as: who)) } catch { got = .failure(error) }
                XCTAssertEqual(got, expected, "\(name), \(label)")
            }
            seen[kind, default: 0] += 1
        }
        // Every kind of step happened.
        for kind in ["wrong secret", "no such note", "nothing withdrawn", "the same again", "rate-limited", "up to down", "withdrawn", "new", "changed"] {
            XCTAssertGreaterThan(seen[kind] ?? 0, 0, "no '\(kind)' step in \(seen)")
        }
        XCTAssertEqual(try sqlite.recountMismatches(), [])
        let pgMismatches = try await postgresStore.recountMismatches()
        XCTAssertEqual(pgMismatches, [])
        // The same snapshot: counts, the viewer's own reactions, a note's reactions warming its artwork.
        for viewer in visitors {
            let a = try await sqlite.snapshot(viewer: viewer.visitor, dayStart: start, since: nil)
            let b = try await postgresStore.snapshot(viewer: viewer.visitor, dayStart: start, since: nil)
            XCTAssertEqual(a?.counts, b?.counts)
            XCTAssertEqual(a?.mine, b?.mine)
            XCTAssertEqual(a?.activity[.artwork(7)], b?.activity[.artwork(7)])
            XCTAssertEqual(a?.mine, mine.compactMapValues { $0[viewer.visitor] }.filter { $0.key != .note(missing) })
        }
        let functions = try pg.psql(database, "SELECT proname FROM pg_proc WHERE proname LIKE 'pulse_react%' ORDER BY proname")
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(functions, [PostgresPulseStore.reactionFunctionName], "the hand-written pulse_react is dropped; only the generated one is left")
    }

    /// The staff's queue from both embedded stores: reported notes awaiting a decision, oldest
    /// first, with their report counts; unreported notes are not in it.
    func testModerationQueueListsReportedNotesOldestFirst() async throws {
        let pg = try server()
        let clock = MovableClock(Date(timeIntervalSince1970: 1_800_000_000))
        let sqlite = try SQLitePulseStore.open(path: tempDir + "/queue.sqlite", clock: { clock.now }).get()
        let postgresStore = try await PostgresPulseStore.open(try PostgresPulseStore.Location.parse(pg.url(try pg.createDatabase())).get(), clock: { clock.now }).get()
        defer { postgresStore.close() }
        for (name, store) in [("SQLite", sqlite as any PulseServiceStore), ("PostgreSQL", postgresStore as any PulseServiceStore)] {
            for c in everyone { try await store.register(c) }
            let ids = (1...3).map { NoteID(visitor: alice.visitor, sequence: UInt64($0)) }
            for (i, id) in ids.enumerated() {
                _ = try await store.post(NoteDraft(id: id, subject: .artwork(1), language: .english, text: "note \(i)"), as: alice)
                clock.advance(10)
            }
            try await store.report(ids[2], true, as: bob)
            try await store.report(ids[0], true, as: bob)
            try await store.report(ids[0], true, as: carol)
            let queue = try await store.moderationQueue()
            XCTAssertEqual(queue.map(\.id), [ids[0], ids[2]], name)
            XCTAssertEqual(queue.map(\.reports), [2, 1], name)

            // Decisions: a third report hides ids[0]; staff disagree: it is back, its reports
            // no longer count, and it leaves the queue. Staff agree on ids[2]: gone for all.
            try await store.report(ids[0], true, as: dave)
            var shown = try await store.notes(on: .artwork(1), viewer: nil).map(\.id)
            XCTAssertFalse(shown.contains(ids[0]), "\(name): three reports hide it")
            let v0 = try await store.snapshot(viewer: nil, dayStart: clock.now, since: nil)?.version
            let restored = try await store.decide(ids[0], .restored)
            XCTAssertEqual(restored.decision, .restored, name)
            XCTAssertEqual(restored.reports, 0, name)
            let afterDecision = try await store.snapshot(viewer: nil, dayStart: clock.now, since: v0)
            XCTAssertNotNil(afterDecision, "\(name): a decision did not change the version")
            _ = try await store.decide(ids[2], .removed)
            shown = try await store.notes(on: .artwork(1), viewer: nil).map(\.id)
            XCTAssertEqual(shown.sorted(), [ids[0], ids[1]].sorted(), name)
            let left = try await store.moderationQueue()
            XCTAssertEqual(left.map(\.id), [], name)
            // A report withdrawn after the restore takes nothing off (it no longer counted).
            try await store.report(ids[0], false, as: dave)
            let mismatches = try await store.recountMismatches()
            XCTAssertEqual(mismatches, [], name)
            do {
                _ = try await store.decide(NoteID(visitor: alice.visitor, sequence: 99), .pinned)
                XCTFail("\(name): a decision on a missing note")
            } catch { XCTAssertEqual(error, .noSuchNote(NoteID(visitor: alice.visitor, sequence: 99)), name) }
        }
    }

    /// The service's purge with its configured ages (`PulsePurgeAges`), from both embedded
    /// stores with a clock the test moves: reports on decided notes go once older than
    /// `decidedReports` (on a pinned note every one, its count following; on a restored note
    /// only those before the restore), reports on an undecided note stay, and a visitor with
    /// nothing left goes once older than `abandonedVisitors`. The standard ages (30 days) let
    /// none of it go two days on.
    func testThePurgeLetsGoDecidedReportsAndAbandonedVisitorsAtTheirConfiguredAges() async throws {
        var rules = PulseRules()
        rules.retention = 400 * 86400  // the notes themselves stay: this is about the rest
        let pg = try server()
        let day: TimeInterval = 86400
        let idle = VisitorCredentials(visitor: VisitorID("idle0000")!, secret: "iiiiiiiiiiiiiiii0005")
        let fresh = VisitorCredentials(visitor: VisitorID("fresh000")!, secret: "ffffffffffffffff0006")
        let sqliteClock = MovableClock(Date(timeIntervalSince1970: 1_800_000_000))
        let pgClock = MovableClock(Date(timeIntervalSince1970: 1_800_000_000))
        let sqlite = try SQLitePulseStore.open(path: tempDir + "/purge.sqlite", rules: rules, clock: { sqliteClock.now }).get()
        let postgresStore = try await PostgresPulseStore.open(try PostgresPulseStore.Location.parse(pg.url(try pg.createDatabase())).get(), rules: rules, clock: { pgClock.now }).get()
        defer { postgresStore.close() }
        for (name, store, clock) in [("SQLite", sqlite as any PulseServiceStore, sqliteClock), ("PostgreSQL", postgresStore as any PulseServiceStore, pgClock)] {
            for c in everyone + [idle] { try await store.register(c) }
            let restored = NoteID(visitor: alice.visitor, sequence: 1), pinned = NoteID(visitor: alice.visitor, sequence: 2), open = NoteID(visitor: alice.visitor, sequence: 3)
            for (i, id) in [restored, pinned, open].enumerated() {
                _ = try await store.post(NoteDraft(id: id, subject: .artwork(i + 1), language: .english, text: "note \(i)"), as: alice)
                try await store.report(id, true, as: bob)
            }
            clock.advance(day)
            _ = try await store.decide(restored, .restored)
            _ = try await store.decide(pinned, .pinned)
            clock.advance(10)  // (a report at the very instant of a restore is counted by the store, not by its recount)
            try await store.report(restored, true, as: carol)  // after the restore: a new case
            try await store.report(pinned, true, as: dave)
            clock.advance(day)
            try await store.register(fresh)
            func reports(_ c: VisitorCredentials) async throws -> Set<NoteID> {
                try await store.snapshot(viewer: c.visitor, dayStart: clock.now, since: nil)?.myReports ?? []
            }
            func pinnedReports() async throws -> Int? { try await store.notes(on: .artwork(2), viewer: nil).first?.reports }
            /// Whether the visitor is still known: its id with another secret is refused.
            func known(_ c: VisitorCredentials) async -> Bool {
                do {
                    try await store.register(VisitorCredentials(visitor: c.visitor, secret: "another-secret-0123456789"))
                    return false
                } catch { return error == .badCredentials }
            }

            _ = try await store.purgeExpired(.standard)
            let bobsBefore = try await reports(bob)
            XCTAssertEqual(bobsBefore, [restored, pinned, open], "\(name): the standard 30 days keep two-day-old reports")
            let pinnedBefore = try await pinnedReports()
            XCTAssertEqual(pinnedBefore, 2, name)

            let v0 = try await store.snapshot(viewer: nil, dayStart: clock.now, since: nil)?.version
            let ages = PulsePurgeAges(activity: 2 * day, abandonedVisitors: 1.5 * day, decidedReports: 1.5 * day)
            _ = try await store.purgeExpired(ages)
            let bobs = try await reports(bob)
            XCTAssertEqual(bobs, [open], "\(name): bob's reports on the decided notes went; the undecided note's stays")
            let carols = try await reports(carol)
            XCTAssertEqual(carols, [restored], "\(name): a report after the restore is a new case and stays")
            let daves = try await reports(dave)
            XCTAssertEqual(daves, [pinned], "\(name): a day old: kept")
            let pinnedAfter = try await pinnedReports()
            XCTAssertEqual(pinnedAfter, 1, "\(name): the pinned note's count follows its reports")
            let moved = try await store.snapshot(viewer: nil, dayStart: clock.now, since: v0)
            XCTAssertNotNil(moved, "\(name): reports gone change what reporters see: the version moves")
            let idleKnown = await known(idle), freshKnown = await known(fresh), bobKnown = await known(bob)
            XCTAssertFalse(idleKnown, "\(name): two days registered, nothing of its own: forgotten")
            XCTAssertTrue(freshKnown, "\(name): registered just now: kept")
            XCTAssertTrue(bobKnown, "\(name): a report left: kept")
            var mismatches = try await store.recountMismatches()
            XCTAssertEqual(mismatches, [], name)

            clock.advance(day)
            _ = try await store.purgeExpired(ages)
            let davesLater = try await reports(dave)
            XCTAssertEqual(davesLater, [], "\(name): two days old on a pinned note: gone")
            let pinnedLater = try await pinnedReports()
            XCTAssertEqual(pinnedLater, 0, name)
            let carolsLater = try await reports(carol)
            XCTAssertEqual(carolsLater, [restored], "\(name): still undecided since the restore")
            mismatches = try await store.recountMismatches()
            XCTAssertEqual(mismatches, [], name)
        }
    }
}

import DocentCore
import Foundation
import PulseService
import StateStore
import XCTest

/// The console's store (issues 29 and 32) behaves the same over SQLite and PostgreSQL: bans
/// refuse a visitor's writes and hide their notes, erasure leaves every count equal to a
/// recount, a decision never overwrites another person's, an author deletes only their own
/// note, sessions, failed sign-ins and the audit log round-trip. Each check runs on both.
final class ConsoleStoreConformanceTests: PostgresTestCase {

    private let alice = VisitorCredentials(visitor: VisitorID("alice000")!, secret: "sha256:aaaa")
    private let bob = VisitorCredentials(visitor: VisitorID("bob00000")!, secret: "sha256:bbbb")
    private let carol = VisitorCredentials(visitor: VisitorID("carol000")!, secret: "sha256:cccc")
    private let dave = VisitorCredentials(visitor: VisitorID("dave0000")!, secret: "sha256:dddd")

    struct Pair {
        let name: String
        let pulse: any PulseServiceStore
        let console: any ConsoleStore
        /// The same database two days later (its clock): today's activity is a past day there.
        let later: any ConsoleStore
    }



    private func stores() async throws -> [Pair] {
        let path = tempDir + "/pulse-\(UUID().uuidString).sqlite"
        let sqlite = try SQLitePulseStore.open(path: path, clock: { Date() }).get()
        let sqliteConsole = try SQLiteConsoleStore.open(path: path, clock: { Date() }).get()
        let location = try PostgresPulseStore.Location.parse(try database(.postgres)).get()
        let pgStore = try await PostgresPulseStore.open(location, clock: { Date() }).get()
        let pgConsole = try await PostgresConsoleStore.open(location, clock: { Date() }).get()
        let twoDays: @Sendable () -> Date = { Date().addingTimeInterval(2 * 86400) }
        let sqliteLater = try SQLiteConsoleStore.open(path: path, clock: twoDays).get()
        let pgLater = try await PostgresConsoleStore.open(location, clock: twoDays).get()
        closers += [{ pgStore.close() }, { pgConsole.close() }, { pgLater.close() }]
        let pairs = [
            Pair(name: "SQLite", pulse: sqlite, console: sqliteConsole, later: sqliteLater),
            Pair(name: "PostgreSQL", pulse: pgStore, console: pgConsole, later: pgLater),
        ]
        for p in pairs { for c in [alice, bob, carol, dave] { try await p.pulse.register(c) } }
        return pairs
    }

    private func post(_ s: Pair, _ c: VisitorCredentials, _ seq: UInt64, _ subject: PulseSubject = .artwork(1101), _ text: String = "a note") async throws -> NoteID {
        let id = NoteID(visitor: c.visitor, sequence: seq)
        _ = try await s.pulse.post(NoteDraft(id: id, subject: subject, language: .english, text: text), as: c)
        return id
    }

    private func refused(_ s: Pair, _ body: () async throws -> Void) async -> PulseStoreError? {
        do {
            try await body()
            return nil
        } catch let e as PulseStoreError {
            return e
        } catch {
            return .unavailable("\(error)")
        }
    }

    func testABanHidesTheWritersNotesAndRefusesTheirWritesUntilLifted() async throws {
        for s in try await stores() {
            let n1 = try await post(s, alice, 1)
            _ = try await post(s, alice, 2, .artwork(1102))
            let other = try await post(s, bob, 1)
            let v0 = try await s.pulse.snapshot(viewer: nil, dayStart: Date(timeIntervalSince1970: 0), since: nil)?.version
            let (changed, hidden) = try await s.console.ban(alice.visitor, by: "staff1")
            XCTAssertTrue(changed, s.name)
            XCTAssertEqual(hidden, 2, s.name)
            let again = try await s.console.ban(alice.visitor, by: "staff1")
            XCTAssertFalse(again.changed, "\(s.name): a second ban is no change")
            let v1 = try await s.pulse.snapshot(viewer: nil, dayStart: Date(timeIntervalSince1970: 0), since: nil)?.version
            XCTAssertNotEqual(v1, v0, "\(s.name): guides must see a ban")
            let shown = try await s.pulse.notes(on: .artwork(1101), viewer: nil).map(\.id)
            XCTAssertEqual(shown, [other], "\(s.name): the banned writer's note is still shown")
            let writeError = await refused(s) { _ = try await s.pulse.react(.up, on: .artwork(1101), as: alice) }
            XCTAssertEqual(writeError, .badCredentials, s.name)
            let postError = await refused(s) { _ = try await post(s, alice, 3) }
            XCTAssertEqual(postError, .badCredentials, s.name)
            let v2 = try await s.console.bans().map(\.visitor)
            XCTAssertEqual(v2, [alice.visitor], s.name)
            let v3 = try await s.console.unban(alice.visitor)
            XCTAssertTrue(v3, s.name)
            _ = try await s.pulse.react(.up, on: .artwork(1101), as: alice)
            let v4 = try await s.console.note(n1)?.decision
            XCTAssertEqual(v4, .removed, "\(s.name): lifting a ban does not bring notes back")
            let v5 = try await s.console.bans().count
            XCTAssertEqual(v5, 0, s.name)
        }
    }

    func testErasingAVisitorLeavesEveryCountEqualToARecount() async throws {
        for s in try await stores() {
            let theirs = try await post(s, alice, 1)
            let bobs = try await post(s, bob, 1)
            _ = try await s.pulse.react(.up, on: .artwork(1101), as: alice)
            _ = try await s.pulse.react(.down, on: .note(bobs), as: alice)
            _ = try await s.pulse.react(.up, on: .note(theirs), as: bob)
            try await s.pulse.report(bobs, true, as: alice)
            try await s.pulse.report(bobs, true, as: carol)
            _ = try await s.pulse.react(.up, on: .artwork(1101), as: carol)
            try await s.pulse.recordPlay(.artwork(1101))
            let gone = try await s.console.erase(alice.visitor)
            XCTAssertTrue(gone.existed, s.name)
            XCTAssertEqual(gone.notes, 1, s.name)
            XCTAssertEqual(gone.reactions, 2, s.name)
            XCTAssertEqual(gone.reports, 1, s.name)
            XCTAssertGreaterThanOrEqual(gone.activity, 3, s.name)
            let v6 = try await s.pulse.recountMismatches()
            XCTAssertEqual(v6, [], "\(s.name): counts differ from a recount after erasure")
            let v7 = try await s.pulse.counts(of: .artwork(1101))
            XCTAssertEqual(v7, PulseCounts(up: 1, meh: 0, down: 0), s.name)
            let v8 = try await s.console.note(bobs)?.reports
            XCTAssertEqual(v8, 1, "\(s.name): the erased visitor's report still counts")
            let v9 = try await s.console.note(theirs)
            XCTAssertNil(v9, "\(s.name): the erased visitor's note is still there")
            let e = await refused(s) { try await s.pulse.authenticate(alice) }
            XCTAssertEqual(e, .badCredentials, "\(s.name): the erased identity still works")
        }
    }

    func testADecisionNeverOverwritesAnotherPersons() async throws {
        for s in try await stores() {
            let n = try await post(s, alice, 1)
            try await s.pulse.report(n, true, as: bob)
            let v10 = try await s.console.queue(rules: .standard, after: nil, limit: 100).map(\.id)
            XCTAssertEqual(v10, [n], s.name)
            let first = try await s.console.decide(n, .restored, expected: nil)
            XCTAssertTrue(first.changed, s.name)
            XCTAssertEqual(first.note.decision, .restored, s.name)
            XCTAssertEqual(first.note.reports, 0, s.name)
            // The second person's page still showed no decision.
            let late = try await s.console.decide(n, .removed, expected: nil)
            XCTAssertFalse(late.changed, s.name)
            XCTAssertEqual(late.note.decision, .restored, "\(s.name): a stale page overwrote a decision")
            let v11 = try await s.console.queue(rules: .standard, after: nil, limit: 100)
            XCTAssertEqual(v11, [], s.name)
            let hide = try await s.console.decide(n, .removed, expected: .restored)
            XCTAssertTrue(hide.changed, s.name)
            let v12 = try await s.console.removedNotes(limit: 10).map(\.id)
            XCTAssertEqual(v12, [n], s.name)
            let missing = await refused(s) { _ = try await s.console.decide(NoteID(visitor: bob.visitor, sequence: 99), .removed, expected: nil) }
            XCTAssertEqual(missing, .noSuchNote(NoteID(visitor: bob.visitor, sequence: 99)), s.name)
        }
    }

    func testNotesHiddenByScoreWaitForStaff() async throws {
        var rules = PulseRules.standard
        rules.scoreFloor = -2
        for s in try await stores() {
            let n = try await post(s, alice, 1)
            _ = try await s.pulse.react(.down, on: .note(n), as: bob)
            let v13 = try await s.console.queue(rules: rules, after: nil, limit: 10)
            XCTAssertEqual(v13, [], s.name)
            _ = try await s.pulse.react(.down, on: .note(n), as: carol)
            let v14 = try await s.console.queue(rules: rules, after: nil, limit: 10).map(\.id)
            XCTAssertEqual(v14, [n], s.name)
        }
    }

    func testTheQueueComesAPageAtATimeAndListsWhatThePulseStoresQueueLists() async throws {
        for s in try await stores() {
            var posted: [NoteID] = []
            for seq in 1...4 {
                posted.append(try await post(s, alice, UInt64(seq)))
                posted.append(try await post(s, dave, UInt64(seq)))
            }
            // Six reported, one hidden by its score (five down-votes), one untouched.
            for n in posted.prefix(6) { try await s.pulse.report(n, true, as: bob) }
            for i in 0..<5 {
                let voter = VisitorCredentials(visitor: VisitorID("voter00\(i)")!, secret: "sha256:v\(i)")
                try await s.pulse.register(voter)
                _ = try await s.pulse.react(.down, on: .note(posted[6]), as: voter)
            }
            let whole = try await s.console.queue(rules: .standard, after: nil, limit: 100)
            XCTAssertEqual(Set(whole.map(\.id)), Set(posted.prefix(7)), s.name)
            XCTAssertEqual(whole, whole.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, "\(s.name): not oldest first")
            var paged: [NoteID] = []
            var after: PulseCursor?
            repeat {
                let page = try await s.console.queue(rules: .standard, after: after, limit: 3)
                XCTAssertLessThanOrEqual(page.count, 3, s.name)
                paged += page.map(\.id)
                after = page.count == 3 ? PulseCursor(after: page[2]) : nil
            } while after != nil && paged.count < 20
            XCTAssertEqual(paged, whole.map(\.id), "\(s.name): the pages are not the queue")
            let length = try await s.console.queueLength(rules: .standard)
            XCTAssertEqual(length, 7, s.name)
            // A reported note that its score would hide too waits once, and is counted once.
            for i in 0..<5 {
                _ = try await s.pulse.react(.down, on: .note(posted[0]), as: VisitorCredentials(visitor: VisitorID("voter00\(i)")!, secret: "sha256:v\(i)"))
            }
            let both = try await s.console.queue(rules: .standard, after: nil, limit: 100).map(\.id)
            XCTAssertEqual(both.sorted { $0.key < $1.key }, whole.map(\.id).sorted { $0.key < $1.key }, s.name)
            let bothLength = try await s.console.queueLength(rules: .standard)
            XCTAssertEqual(bothLength, 7, "\(s.name): a note reported and low-scored is one note waiting")
            // The console's reads and the Pulse store's (its rules as SQL) agree.
            let stores = try await s.pulse.moderationQueue(after: nil, limit: 100).notes.map(\.id)
            XCTAssertEqual(Set(stores), Set(whole.map(\.id)), s.name)
        }
    }

    func testAnAuthorDeletesOnlyTheirOwnNote() async throws {
        for s in try await stores() {
            let mine = try await post(s, alice, 1)
            let bobs = try await post(s, bob, 1)
            _ = try await s.pulse.react(.up, on: .note(mine), as: bob)
            let notMine = await refused(s) { try await s.console.deleteOwnNote(bobs, as: alice) }
            XCTAssertEqual(notMine, .noSuchNote(bobs), s.name)
            let wrongSecret = await refused(s) { try await s.console.deleteOwnNote(mine, as: VisitorCredentials(visitor: alice.visitor, secret: "sha256:nope")) }
            XCTAssertEqual(wrongSecret, .badCredentials, s.name)
            try await s.console.deleteOwnNote(mine, as: alice)
            let v15 = try await s.console.note(mine)
            XCTAssertNil(v15, s.name)
            let v16 = try await s.console.note(bobs)
            XCTAssertNotNil(v16, s.name)
            let v17 = try await s.pulse.recountMismatches()
            XCTAssertEqual(v17, [], s.name)
        }
    }

    func testSessionsFailuresAndTheAuditLogRoundTrip() async throws {
        for s in try await stores() {
            try await s.console.putStaff(name: "ana", passwordHash: "$2b$10$x")
            let v18 = try await s.console.staffHash(name: "ana")
            XCTAssertEqual(v18, "$2b$10$x", s.name)
            let v19 = try await s.console.staffNames()
            XCTAssertEqual(v19, ["ana"], s.name)
            let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970).rounded())
            let session = StaffSession(id: "abc", staff: "ana", csrf: "tok", created: now, expires: now.addingTimeInterval(60))
            try await s.console.createSession(session)
            let v20 = try await s.console.session(id: "abc")
            XCTAssertEqual(v20, session, s.name)
            try await s.console.deleteSession(id: "abc")
            let v21 = try await s.console.session(id: "abc")
            XCTAssertNil(v21, s.name)
            try await s.console.recordFailure(key: "account:ana")
            try await s.console.recordFailure(key: "account:ana")
            let v22 = try await s.console.failures(key: "account:ana").count
            XCTAssertEqual(v22, 2, s.name)
            try await s.console.clearFailures(key: "account:ana")
            let v23 = try await s.console.failures(key: "account:ana").count
            XCTAssertEqual(v23, 0, s.name)
            for (i, who) in ["ana", "ben", "ana"].enumerated() {
                try await s.console.audit(AuditEntry(at: now.addingTimeInterval(Double(i)), staff: who, action: i == 1 ? "ban" : "decide", target: "note:x.\(i)", before: "b\(i)", after: "a\(i)"))
            }
            let v24 = try await s.console.auditLog(AuditFilter()).map(\.target)
            XCTAssertEqual(v24, ["note:x.2", "note:x.1", "note:x.0"], s.name)
            let v25 = try await s.console.auditLog(AuditFilter(staff: "ana")).map(\.after)
            XCTAssertEqual(v25, ["a2", "a0"], s.name)
            let v26 = try await s.console.auditLog(AuditFilter(action: "ban")).map(\.staff)
            XCTAssertEqual(v26, ["ben"], s.name)
            let v27 = try await s.console.auditLog(AuditFilter(search: "x.0")).map(\.before)
            XCTAssertEqual(v27, ["b0"], s.name)
            let v28 = try await s.console.removeStaff(name: "ana")
            XCTAssertTrue(v28, s.name)
            let v29 = try await s.console.staffHash(name: "ana")
            XCTAssertNil(v29, s.name)
        }
    }

    /// Accounts and their roles (issue 44 #14): a taken name is not added again, a new
    /// password or ending sessions ends them in the same transaction, and a removal is refused
    /// for oneself, for whoever may not manage accounts, and where it would leave no account
    /// that may manage accounts.
    func testAccountsRolesSessionsAndTheLastManager() async throws {
        for s in try await stores() {
            let now = Date()
            let v1 = try await s.console.addStaff(name: "ana", passwordHash: "$2b$10$a", role: .admin)
            let v2 = try await s.console.addStaff(name: "ben", passwordHash: "$2b$10$b", role: .staff)
            let v3 = try await s.console.addStaff(name: "ana", passwordHash: "$2b$10$z", role: .staff)
            XCTAssertEqual([v1, v2, v3], [true, true, false], s.name)
            let v4 = try await s.console.staffHashAndRole(name: "ana")
            XCTAssertEqual(v4?.hash, "$2b$10$a", s.name)
            XCTAssertEqual(v4?.role, .admin, s.name)
            for (i, who) in ["ben", "ben", "ana"].enumerated() {
                try await s.console.createSession(StaffSession(id: "s\(i)", staff: who, csrf: "c", created: now, expires: now.addingTimeInterval(600)))
            }
            try await s.console.createSession(StaffSession(id: "old", staff: "ben", csrf: "c", created: now, expires: now.addingTimeInterval(-1)))
            let v5 = try await s.console.staffAccounts()
            XCTAssertEqual(v5.map(\.name), ["ana", "ben"], s.name)
            XCTAssertEqual(v5.map(\.role), [.admin, .staff], s.name)
            XCTAssertEqual(v5.map(\.sessions), [1, 2], s.name)
            let v6 = try await s.console.endStaffSessions(name: "ben")
            XCTAssertEqual(v6, 2, s.name)
            let v7 = try await s.console.session(id: "s0")
            XCTAssertNil(v7, s.name)
            let v8 = try await s.console.setStaffPassword(name: "ana", passwordHash: "$2b$10$n")
            let v9 = try await s.console.setStaffPassword(name: "nobody", passwordHash: "$2b$10$n")
            XCTAssertEqual([v8, v9], [true, false], s.name)
            let v10 = try await s.console.session(id: "s2")
            XCTAssertNil(v10, "a new password leaves the session (\(s.name))")
            let v11 = [
                try await s.console.removeStaff(name: "ana", by: "ana"), try await s.console.removeStaff(name: "ana", by: "ben"),
                try await s.console.removeStaff(name: "ana", by: nil), try await s.console.removeStaff(name: "zed", by: "ana"),
                try await s.console.setStaffRole(name: "ana", role: .staff),
            ]
            XCTAssertEqual(v11, [.yourself, .notAllowed, .lastManager, .noSuchAccount, .lastManager], s.name)
            let v12 = [try await s.console.setStaffRole(name: "ben", role: .admin), try await s.console.removeStaff(name: "ben", by: "ana")]
            XCTAssertEqual(v12, [.done, .done], s.name)
            let v13 = try await s.console.staffAccounts().map(\.name)
            XCTAssertEqual(v13, ["ana"], s.name)
        }
    }

    /// Tries are counted before they are checked (issue 44 #2): each answers the count from
    /// before it; a session keeps the credential it was made with; an hour after the last try
    /// (here two days, the later clock) the count starts again and the old rows are gone.
    func testTriesAreCountedAtOnceAndForgottenAfterTheirDecay() async throws {
        for s in try await stores() {
            var befores: [Int] = []
            for _ in 0..<6 { befores.append(try await s.console.countAttempt(key: "account:ana", decay: 3600).before) }
            XCTAssertEqual(befores, [0, 1, 2, 3, 4, 5], s.name)
            _ = try await s.console.countAttempt(key: "address:127.0.0.9", decay: 3600)
            let later = try await s.later.countAttempt(key: "account:ana", decay: 3600)
            XCTAssertEqual(later.before, 0, "\(s.name): the count decays")
            let old = try await s.later.failures(key: "address:127.0.0.9").count
            XCTAssertEqual(old, 0, "\(s.name): old rows are forgotten")
            // 20 at once: each sees a different count.
            let seen = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await s.console.countAttempt(key: "account:ben", decay: 3600).before } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            XCTAssertEqual(seen.sorted(), Array(0..<20), s.name)
            let now = Date()
            let session = StaffSession(id: "cred", staff: "ana", csrf: "tok", created: now, expires: now.addingTimeInterval(60), credential: "digest")
            try await s.console.createSession(session)
            let back = try await s.console.session(id: "cred")
            XCTAssertEqual(back?.credential, "digest", s.name)
        }
    }

    func testActivityPerDayAndTheTopLists() async throws {
        for s in try await stores() {
            for _ in 0..<3 { try await s.pulse.recordPlay(.artwork(1101)) }
            try await s.pulse.recordPlay(.stop(tour: 4002, sort: 1))
            _ = try await s.pulse.react(.up, on: .artwork(1102), as: bob)
            _ = try await post(s, alice, 1)
            let today = Int(floor(Date().timeIntervalSince1970 / 86400))
            let days = try await s.console.activityPerDay(from: Date(timeIntervalSince1970: Double(today - 1) * 86400), offset: 0)
            XCTAssertEqual(days[today], ActivityDay(plays: 4, reactions: 1, notes: 1, reports: 0), s.name)
            let top = try await s.console.top(kind: "play", since: Date(timeIntervalSince1970: Double(today - 3) * 86400), offset: 0, limit: 5)
            XCTAssertEqual(top.map(\.subject), [.artwork(1101), .stop(tour: 4002, sort: 1)], s.name)
            XCTAssertEqual(top.map(\.count), [3, 1], s.name)
            let v30 = try await s.console.bestLiked(limit: 5).map(\.subject)
            XCTAssertEqual(v30, [.artwork(1102)], s.name)
            let v31 = try await s.console.stopPlays(since: Date(timeIntervalSince1970: Double(today - 3) * 86400), offset: 0).map(\.count)
            XCTAssertEqual(v31, [1], s.name)
            // Two days on, that day is counted once into the day table and read from there.
            let later = try await s.later.activityPerDay(from: Date(timeIntervalSince1970: Double(today - 1) * 86400), offset: 0)
            XCTAssertEqual(later[today], ActivityDay(plays: 4, reactions: 1, notes: 1, reports: 0), "\(s.name): a past day from the day table")
            XCTAssertNil(later[today + 2], s.name)
            // A counted day is final: a later row dated in it (only a test's clocks make one) is not added.
            try await s.pulse.recordPlay(.artwork(1101))
            let again = try await s.later.top(kind: "play", since: Date(timeIntervalSince1970: Double(today - 1) * 86400), offset: 0, limit: 5)
            XCTAssertEqual(again.map(\.count), [3, 1], "\(s.name): the past day from the day table")
            let live = try await s.console.top(kind: "play", since: Date(timeIntervalSince1970: Double(today - 1) * 86400), offset: 0, limit: 5)
            XCTAssertEqual(live.map(\.count), [4, 1], "\(s.name): today is counted from the rows")
        }
    }

    /// What the upkeep asks before each purge: the past days are counted into the day table,
    /// so the counts outlive the activity the purge lets go, on both stores.
    func testPastDaysCountedBeforeThePurgeOutliveTheirActivity() async throws {
        for s in try await stores() {
            for _ in 0..<3 { try await s.pulse.recordPlay(.artwork(1101)) }
            try await s.pulse.recordPlay(.stop(tour: 4002, sort: 1))
            let today = Int(floor(Date().timeIntervalSince1970 / 86400))
            // Two days on, the upkeep counts the past days, then the activity is gone.
            try await s.later.countPastDays(offset: 0)
            try await s.later.countPastDays(offset: 0)  // once counted, a day is not counted again
            _ = try await s.pulse.purgeExpired(PulsePurgeAges(activity: -86400))
            let rows = try await s.console.top(kind: "play", since: Date(timeIntervalSince1970: Double(today) * 86400), offset: 0, limit: 5)
            XCTAssertEqual(rows.map(\.count), [], "\(s.name): today's rows are gone (counted live from them)")
            let days = try await s.later.activityPerDay(from: Date(timeIntervalSince1970: Double(today) * 86400), offset: 0)
            XCTAssertEqual(days[today], ActivityDay(plays: 4), "\(s.name): the day counted before its rows went")
            let top = try await s.later.top(kind: "play", since: Date(timeIntervalSince1970: Double(today) * 86400), offset: 0, limit: 5)
            XCTAssertEqual(top.map(\.count), [3, 1], s.name)
        }
    }
}


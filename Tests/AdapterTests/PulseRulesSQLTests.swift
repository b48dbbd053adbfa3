import DocentCore
import DocentCoreTestSupport
import Foundation
import GRDB
import StateStore
import XCTest

/// `PulseRulesSQL` (what the stores run) against `PulseRules` (the Swift functions) on the
/// same random notes: who sees what, in which order, page by page; the snapshot's counts; the
/// moderation queue; what the purge deletes. The PostgreSQL store runs the same statements
/// (`PulseStoreConformanceTests` proves the two stores agree).
final class PulseRulesSQLTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let viewer = VisitorID("viewer01")!

    func testTheSQLAgreesWithTheSwiftRules() async throws {
        let dir = NSTemporaryDirectory() + "docent-rules-sql-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/pulse.sqlite"
        let now = self.now
        let store = try SQLitePulseStore.open(path: path, clock: { now }).get()
        let rules = store.rules
        var rng = SplitMix(seed: 32)
        var notes: [PulseNote] = []
        var viewerReports = Set<NoteID>()
        let subjects: [PulseSubject] = [.artwork(1), .artwork(2), .museum]
        let writers = ["alice000", "bob00000", "carol000"].compactMap(VisitorID.init)
        for i in 0..<400 {
            let curator = rng.next(10) == 0
            let visitor = curator ? VisitorID.curator : writers[rng.next(3)]
            // Some notes share a time (ties are ordered by id).
            let created = now.addingTimeInterval(-Double(rng.next(5 * 86400 / 600)) * 600)
            let decision: StaffDecision? = [nil, nil, nil, nil, .removed, .restored, .pinned][rng.next(7)]
            // A third never voted on (no counts row) and most unreported: the snapshot's fast
            // path for plain notes (issue 32's million notes) must agree with the rules too.
            let voted = rng.next(3) != 0
            let up = voted ? rng.next(9) : 0, down = voted ? rng.next(12) : 0, reports = rng.next(3) == 0 ? rng.next(6) : 0
            let note = PulseNote(
                id: NoteID(visitor: visitor, sequence: UInt64(i % 37 == 0 ? 9 : i)), subject: subjects[rng.next(3)], language: .english, text: "n\(i)",
                createdAt: created, author: curator ? .curator : .visitor, counts: PulseCounts(up: up, down: down), reports: reports, decision: decision)
            guard !notes.contains(where: { $0.id == note.id }) else { continue }
            notes.append(note)
            if rng.next(8) == 0 { viewerReports.insert(note.id) }
        }
        let q = try DatabaseQueue(path: path)
        let rows = notes, reported = viewerReports
        try await q.write { db in
            for note in rows {
                try db.execute(
                    sql: "INSERT INTO note (id, visitor, seq, subject, language, text, created, author, reports, decision) VALUES (?, ?, ?, ?, 'en', ?, ?, ?, ?, ?)",
                    arguments: [
                        note.id.key, note.id.visitor.rawValue, Int64(note.id.sequence), note.subject.key, note.text, note.createdAt.timeIntervalSince1970,
                        note.author == .curator ? "curator" : "visitor", note.reports, note.decision?.rawValue,
                    ])
                if note.counts != .zero || note.id.sequence % 2 == 0 {  // some rows left at zero (votes withdrawn)
                    try db.execute(sql: "INSERT INTO counts (subject, up, meh, down) VALUES (?, ?, 0, ?)", arguments: ["note:" + note.id.key, note.counts.up, note.counts.down])
                }
                if reported.contains(note.id) {
                    try db.execute(sql: "INSERT INTO report (note, visitor, at) VALUES (?, ?, ?)", arguments: [note.id.key, "viewer01", note.createdAt.timeIntervalSince1970])
                }
            }
        }
        let kept = rules.retained(notes, now: now)
        XCTAssertGreaterThan(notes.count - kept.count, 10, "the sample has expired notes")
        for subject in subjects {
            let expected = rules.visible(notes.filter { $0.subject == subject && kept.contains($0.id) }, reportedByViewer: viewerReports).map(\.id)
            XCTAssertGreaterThan(expected.count, 5)
            let all = try await store.notes(on: subject, viewer: viewer, after: nil, limit: 10_000)
            XCTAssertEqual(all.notes.map(\.id), expected, subject.key)
            XCTAssertNil(all.next)
            // Page by page: the same list.
            var paged: [NoteID] = []
            var cursor: PulseCursor?
            repeat {
                let page = try await store.notes(on: subject, viewer: viewer, after: cursor, limit: 7)
                XCTAssertLessThanOrEqual(page.notes.count, 7)
                paged += page.notes.map(\.id)
                // The cursor as `?after=` carries it reads back the same.
                if let next = page.next { XCTAssertEqual(PulseCursor(text: next.text), next) }
                cursor = page.next
            } while cursor != nil
            XCTAssertEqual(paged, expected, "pages of \(subject.key)")
            // An author sees their own notes that reports or votes hide from others (issue 33
            // #9), as the rules in Swift say.
            let author = writers[0]
            let own = try await store.notes(on: subject, viewer: author, after: nil, limit: 10_000)
            let ownExpected = rules.visible(notes.filter { $0.subject == subject && kept.contains($0.id) }, reportedByViewer: [], viewer: author).map(\.id)
            XCTAssertEqual(own.notes.map(\.id), ownExpected, "\(subject.key) for its author")
            XCTAssertTrue(
                own.notes.contains { n in n.id.visitor == author && rules.hidden(n, viewerReported: false) != nil },
                "the sample has \(author)'s notes hidden from others on \(subject.key)")
            // Anonymous: nobody's reports hide anything.
            let anonymous = try await store.notes(on: subject, viewer: nil, after: nil, limit: 10_000)
            XCTAssertEqual(anonymous.notes.map(\.id), rules.visible(notes.filter { $0.subject == subject && kept.contains($0.id) }, reportedByViewer: []).map(\.id))
        }
        let snap = try await store.snapshot(viewer: viewer, dayStart: now, since: nil)
        var counts: [PulseSubject: Int] = [:]
        for n in rules.visible(notes.filter { kept.contains($0.id) }, reportedByViewer: viewerReports) { counts[n.subject, default: 0] += 1 }
        XCTAssertEqual(snap?.noteCounts, counts)
        // Anonymous, and an author whose own hidden notes count for them.
        for who in [nil, writers[0]] {
            let snap = try await store.snapshot(viewer: who, dayStart: now, since: nil)
            var counts: [PulseSubject: Int] = [:]
            for n in rules.visible(notes.filter { kept.contains($0.id) }, reportedByViewer: [], viewer: who) { counts[n.subject, default: 0] += 1 }
            XCTAssertEqual(snap?.noteCounts, counts, "\(who?.rawValue ?? "anonymous")'s counts")
        }
        XCTAssertEqual(snap?.curatorPicks, Set(notes.filter { $0.author == .curator }.map(\.subject)))
        let queue = try await store.moderationQueue()
        let expectedQueue = notes.filter { n in
            n.author == .visitor && (n.decision == nil || n.decision == .restored) && (n.reports > 0 || n.counts.score <= rules.scoreFloor)
        }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        XCTAssertEqual(queue.map(\.id), expectedQueue.map(\.id))
        XCTAssertTrue(notes.filter { rules.needsReview($0) }.allSatisfy { n in queue.contains { $0.id == n.id } }, "every note that needs review is queued")
        XCTAssertEqual(try store.purge(), notes.count - kept.count)
        let left = try await q.read { db in try String.fetchAll(db, sql: "SELECT id FROM note") }
        XCTAssertEqual(Set(left), Set(kept.map(\.key)))
    }
}

extension SplitMix {
    mutating func next(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

import DocentCore
import Foundation
import XCTest

/// The outbox in front of a remote store: what is written offline is kept, shown to its writer,
/// sent in order once the store answers, and never stored twice.
final class PulseOutboxTests: XCTestCase {
    let alice = VisitorCredentials(visitor: VisitorID("alice0001")!, secret: "alice-secret")
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    let art = PulseSubject.artwork(1101)

    func store(_ remote: FakeRemote, _ outbox: any PulseOutbox = MemoryPulseOutbox()) -> OutboxPulseStore {
        let t0 = self.t0
        return OutboxPulseStore(store: remote, outbox: outbox, clock: { t0 })
    }

    func testOnlineWritesAreSentAtOnceAndLeaveNothingWaiting() async throws {
        let remote = FakeRemote()
        let outbox = MemoryPulseOutbox()
        let s = store(remote, outbox)
        try await s.register(alice)
        let counts = try await s.react(.up, on: art, as: alice)
        XCTAssertEqual(counts, PulseCounts(up: 1))
        let draft = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 1), subject: art, language: .english, text: "  Lovely\nblue ")
        guard case .created(let n) = try await s.post(draft, as: alice) else { return XCTFail("not created") }
        XCTAssertEqual(n.text, "Lovely blue")
        XCTAssertEqual(try outbox.pending(), [])
        XCTAssertEqual(remote.log, ["register alice0001", "react artwork:1101 1", "post alice0001.1"])
    }

    func testOfflineWritesWaitAreShownToTheirWriterAndGoInOrderWhenTheStoreIsBack() async throws {
        let remote = FakeRemote()
        remote.online = false
        let outbox = MemoryPulseOutbox()
        let s = store(remote, outbox)
        // Registration waits too: the guide opens offline.
        try await s.register(alice)
        let counts = try await s.react(.up, on: art, as: alice)
        XCTAssertEqual(counts, PulseCounts(up: 1), "the visitor's own count, at once")
        let draft = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 7), subject: art, language: .french, text: "Très beau")
        guard case .queued(let kept) = try await s.post(draft, as: alice) else { return XCTFail("an offline note is kept, not sent") }
        XCTAssertEqual(kept, PulseNote(id: draft.id, subject: art, language: .french, text: "Très beau", createdAt: t0))
        try await s.report(NoteID(visitor: alice.visitor, sequence: 7), true, as: alice)
        // The visitor pressed like again: withdrawn, and the waiting reaction is replaced.
        _ = try await s.react(nil, on: art, as: alice)
        _ = try await s.react(.meh, on: art, as: alice)
        XCTAssertEqual(try outbox.pending().map(\.write), [.post(draft), .report(draft.id, true), .react(.meh, art)])

        do {
            _ = try await s.snapshot(viewer: alice.visitor, dayStart: t0, since: nil)
            XCTFail("a snapshot while offline fails (the guide says Pulse is offline)")
        } catch {
            guard case .unavailable = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(remote.log, [], "nothing reached the store")

        remote.online = true
        let snap = try await s.snapshot(viewer: alice.visitor, dayStart: t0, since: nil)
        XCTAssertEqual(remote.log, ["register alice0001", "post alice0001.7", "report alice0001.7 true", "react artwork:1101 0", "snapshot"])
        XCTAssertEqual(snap?.counts[art], PulseCounts(meh: 1))
        XCTAssertEqual(snap?.mine[art], .meh)
        XCTAssertEqual(snap?.noteCounts[art], 1)
        XCTAssertEqual(snap?.myReports, [draft.id])
        XCTAssertEqual(try outbox.pending(), [])
    }

    func testAWaitingNoteIsInItsWritersListAndTheSnapshotUntilSent() async throws {
        let remote = FakeRemote()
        let s = store(remote)
        try await s.register(alice)
        remote.storedNotes = [PulseNote(id: NoteID(visitor: VisitorID("bob000001")!, sequence: 1), subject: art, language: .english, text: "older", createdAt: t0)]
        remote.failWrites = true
        let draft = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 2), subject: art, language: .english, text: "mine")
        guard case .queued = try await s.post(draft, as: alice) else { return XCTFail("not kept") }
        let listed = try await s.notes(on: art, viewer: alice.visitor)
        XCTAssertEqual(listed.map(\.text), ["mine", "older"], "newest first, the waiting note on top")
        let others = try await s.notes(on: art, viewer: VisitorID("bob000001")!)
        XCTAssertEqual(others.map(\.text), ["older"], "only its writer sees a waiting note")
        let snap = try await s.snapshot(viewer: alice.visitor, dayStart: t0, since: nil)
        XCTAssertEqual(snap?.noteCounts[art], 2)
    }

    /// The store took the note but its answer was lost: the note is sent again with its id and
    /// the store says it already has it; it is stored once.
    /// Deleting one's own note through the outbox (issue 32): online, the store deletes it; a
    /// note still waiting offline leaves the outbox and is never sent; a delete while the store
    /// cannot be reached is not kept (it fails, the note stays).
    func testADeleteGoesToTheStoreOrTakesAWaitingNoteOutOfTheOutbox() async throws {
        let remote = FakeRemote()
        let outbox = MemoryPulseOutbox()
        let s = store(remote, outbox)
        try await s.register(alice)
        let sent = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 1), subject: art, language: .english, text: "sent")
        _ = try await s.post(sent, as: alice)
        try await s.deleteOwnNote(sent.id, as: alice)
        XCTAssertEqual(remote.notesStored, [], "deleted on the store")

        remote.online = false
        let waiting = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 2), subject: art, language: .english, text: "waiting")
        guard case .queued = try await s.post(waiting, as: alice) else { return XCTFail("kept offline") }
        try await s.deleteOwnNote(waiting.id, as: alice)
        XCTAssertEqual(try outbox.pending(), [], "the waiting note left the outbox")

        remote.online = true
        let other = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 3), subject: art, language: .english, text: "other")
        _ = try await s.post(other, as: alice)
        remote.online = false
        do {
            try await s.deleteOwnNote(other.id, as: alice)
            XCTFail("a delete offline is not kept")
        } catch {
            guard case .unavailable = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try outbox.pending(), [], "nothing waits")
        remote.online = true
        _ = try await s.snapshot(viewer: alice.visitor, dayStart: t0, since: nil)
        XCTAssertEqual(remote.notesStored.map(\.id), [other.id], "the note stays; the waiting one was never sent")
        XCTAssertFalse(remote.log.contains("post alice0001.2"))
        let listed = try await s.notes(on: art, viewer: alice.visitor).map(\.id)
        XCTAssertEqual(listed, [other.id], "nor is it in its writer's list")
    }

    func testAWriteWhoseAnswerWasLostIsStoredOnce() async throws {
        let remote = FakeRemote()
        let s = store(remote)
        try await s.register(alice)
        remote.loseAnswers = true
        let draft = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 3), subject: art, language: .english, text: "once")
        guard case .queued = try await s.post(draft, as: alice) else { return XCTFail("not kept") }
        remote.loseAnswers = false
        _ = try await s.snapshot(viewer: alice.visitor, dayStart: t0, since: nil)
        XCTAssertEqual(remote.notesStored.count, 1)
        XCTAssertEqual(remote.log.filter { $0.hasPrefix("post") }, ["post alice0001.3", "post alice0001.3"])
        let listed = try await s.notes(on: art, viewer: alice.visitor)
        XCTAssertEqual(listed.map(\.text), ["once"], "not listed twice either")
    }

    func testARefusalIsToldToTheWriterAndLeavesTheOutbox() async throws {
        let remote = FakeRemote()
        let outbox = MemoryPulseOutbox()
        let s = store(remote, outbox)
        try await s.register(alice)
        remote.refusal = .rateLimited(.reactions(retryAfter: 30))
        do {
            _ = try await s.react(.down, on: art, as: alice)
            XCTFail("a refused reaction is not acknowledged")
        } catch {
            XCTAssertEqual(error, .rateLimited(.reactions(retryAfter: 30)))
        }
        XCTAssertEqual(try outbox.pending(), [])
        do {
            _ = try await s.post(NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 1), subject: art, language: .english, text: " \n "), as: alice)
            XCTFail("empty text is refused before it is kept")
        } catch {
            XCTAssertEqual(error, .badText(.empty))
        }
        XCTAssertEqual(try outbox.pending(), [])
    }

    /// An earlier write held back by a rate limit stays, and holds the later ones behind it
    /// (they may depend on it: a report of a note that waits).
    func testAWaitingWriteHeldByARateLimitKeepsItsPlace() async throws {
        let remote = FakeRemote()
        let outbox = MemoryPulseOutbox()
        let s = store(remote, outbox)
        try await s.register(alice)
        remote.online = false
        let draft = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 4), subject: art, language: .english, text: "later")
        _ = try await s.post(draft, as: alice)
        remote.online = true
        remote.refusal = .rateLimited(.notes(retryAfter: 600))
        try await s.report(draft.id, true, as: alice)
        XCTAssertEqual(try outbox.pending().map(\.write), [.post(draft), .report(draft.id, true)])
        remote.refusal = nil
        _ = try await s.snapshot(viewer: alice.visitor, dayStart: t0, since: nil)
        XCTAssertEqual(try outbox.pending(), [])
        XCTAssertEqual(remote.reports, [draft.id])
    }

    /// Issue 33 #8: the guide said "saved, will be sent" and never learnt it was sent. Each
    /// snapshot names the viewer's notes still waiting, and once the notes the store refused
    /// when the outbox sent them; a snapshot after writes left the outbox is taken whole (the
    /// store may not have changed: a refused note).
    func testASnapshotSaysWhichOfTheViewersNotesWaitAndWhichWereRefused() async throws {
        let remote = FakeRemote()
        let s = store(remote)
        try await s.register(alice)
        remote.failWrites = true
        let a = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 1), subject: art, language: .english, text: "first")
        guard case .queued = try await s.post(a, as: alice) else { return XCTFail("not kept") }
        var snap = try await s.snapshot(viewer: alice.visitor, dayStart: t0, since: PulseVersion(1))
        XCTAssertEqual(snap?.waitingNotes, [a.id])
        XCTAssertEqual(snap?.refusedNotes, [:])
        let bob = try await s.snapshot(viewer: VisitorID("bob000001")!, dayStart: t0, since: nil)
        XCTAssertEqual(bob?.waitingNotes, [], "only the writer's")
        remote.failWrites = false
        snap = try await s.snapshot(viewer: alice.visitor, dayStart: t0, since: PulseVersion(1))
        XCTAssertEqual(snap?.waitingNotes, [])
        XCTAssertEqual(snap?.refusedNotes, [:])
        XCTAssertEqual(remote.notesStored.map(\.id), [a.id])

        remote.failWrites = true
        let b = NoteDraft(id: NoteID(visitor: alice.visitor, sequence: 2), subject: art, language: .english, text: "second")
        guard case .queued = try await s.post(b, as: alice) else { return XCTFail("not kept") }
        remote.failWrites = false
        remote.refusal = .conflict(b.id)
        snap = try await s.snapshot(viewer: alice.visitor, dayStart: t0, since: PulseVersion(1))
        XCTAssertEqual(snap?.waitingNotes, [])
        XCTAssertEqual(snap?.refusedNotes, [b.id: .conflict(b.id)])
        snap = try await s.snapshot(viewer: alice.visitor, dayStart: t0, since: PulseVersion(1))
        XCTAssertEqual(snap?.refusedNotes, [:], "said once")
        XCTAssertEqual(remote.sinceAsked, [PulseVersion(1), nil, nil, nil, PulseVersion(1)], "whole after writes left the outbox")
    }

    func testAWriteReplacedWhileItWasBeingSentIsNotForgotten() throws {
        let outbox = MemoryPulseOutbox()
        let first = try outbox.put(.react(.up, art), as: alice, at: t0)
        let second = try outbox.put(.react(.down, art), as: alice, at: t0)
        try outbox.remove(first)
        XCTAssertEqual(try outbox.pending(), [second])
        try outbox.remove(second)
        XCTAssertEqual(try outbox.pending(), [])
    }
}

/// A remote store in memory that can be unreachable, refuse, or apply a write and lose its
/// answer.
final class FakeRemote: PulseStore, @unchecked Sendable {
    private let lock = NSLock()
    private var _online = true, _loseAnswers = false, _failWrites = false
    private var _refusal: PulseStoreError?
    private var _log: [String] = []
    private var _since: [PulseVersion?] = []
    private var reactions: [PulseSubject: ReactionValue] = [:]
    private var _notes: [NoteID: PulseNote] = [:]
    private var _reports: Set<NoteID> = []
    var storedNotes: [PulseNote] {
        get { lock.withLock { Array(_notes.values) } }
        set { lock.withLock { _notes = Dictionary(uniqueKeysWithValues: newValue.map { ($0.id, $0) }) } }
    }

    var online: Bool { get { lock.withLock { _online } } set { lock.withLock { _online = newValue } } }
    var loseAnswers: Bool { get { lock.withLock { _loseAnswers } } set { lock.withLock { _loseAnswers = newValue } } }
    /// Reads answer; writes find the store unreachable.
    var failWrites: Bool { get { lock.withLock { _failWrites } } set { lock.withLock { _failWrites = newValue } } }
    var refusal: PulseStoreError? { get { lock.withLock { _refusal } } set { lock.withLock { _refusal = newValue } } }
    var log: [String] { lock.withLock { _log } }
    /// The version each snapshot was asked since.
    var sinceAsked: [PulseVersion?] { lock.withLock { _since } }
    var notesStored: [PulseNote] { storedNotes }
    var reports: Set<NoteID> { lock.withLock { _reports } }

    private func reach(_ entry: String, write: Bool = true) throws(PulseStoreError) {
        let (on, failing, refused) = lock.withLock { (_online, _failWrites && write, write ? _refusal : nil) }
        guard on, !failing else { throw .unavailable("down") }
        lock.withLock { _log.append(entry) }
        if let refused { throw refused }
    }

    private func answer() throws(PulseStoreError) {
        if loseAnswers { throw .unavailable("the answer was lost") }
    }

    func register(_ c: VisitorCredentials) async throws(PulseStoreError) { try reach("register \(c.visitor.rawValue)", write: false) }

    func snapshot(viewer: VisitorID?, dayStart: Date, since: PulseVersion?) async throws(PulseStoreError) -> PulseSnapshot? {
        try reach("snapshot", write: false)
        return lock.withLock {
            _since.append(since)
            var counts: [PulseSubject: PulseCounts] = [:]
            for (s, v) in reactions { counts[s, default: .zero] = counts[s, default: .zero].changed(from: nil, to: v) }
            var noteCounts: [PulseSubject: Int] = [:]
            for n in _notes.values { noteCounts[n.subject, default: 0] += 1 }
            return PulseSnapshot(version: PulseVersion(1), counts: counts, noteCounts: noteCounts, mine: reactions, myReports: _reports, takenAt: dayStart)
        }
    }

    func notes(on subject: PulseSubject, viewer: VisitorID?) async throws(PulseStoreError) -> [PulseNote] {
        try reach("notes", write: false)
        return lock.withLock { _notes.values.filter { $0.subject == subject }.sorted { $0.createdAt > $1.createdAt } }
    }

    func react(_ value: ReactionValue?, on subject: PulseSubject, as c: VisitorCredentials) async throws(PulseStoreError) -> PulseCounts {
        try reach("react \(subject.key) \(value.map { String($0.rawValue) } ?? "nil")")
        lock.withLock { reactions[subject] = value }
        try answer()
        return lock.withLock { PulseCounts.recount(reactions.filter { $0.key == subject }.map(\.value)) }
    }

    func post(_ d: NoteDraft, as c: VisitorCredentials) async throws(PulseStoreError) -> PostOutcome {
        try reach("post \(d.id.key)")
        guard case .success(let text) = NoteText.clean(d.text) else { throw .badText(.empty) }
        let note = PulseNote(id: d.id, subject: d.subject, language: d.language, text: text, createdAt: Date(timeIntervalSince1970: 1_790_000_100))
        let existed = lock.withLock { () -> Bool in
            if _notes[d.id] != nil { return true }
            _notes[d.id] = note
            return false
        }
        try answer()
        return existed ? .alreadyStored(note) : .created(note)
    }

    func report(_ n: NoteID, _ on: Bool, as c: VisitorCredentials) async throws(PulseStoreError) {
        try reach("report \(n.key) \(on)")
        lock.withLock { if on { _reports.insert(n) } else { _reports.remove(n) } }
        try answer()
    }

    func deleteOwnNote(_ n: NoteID, as c: VisitorCredentials) async throws(PulseStoreError) {
        try reach("delete \(n.key)")
        guard n.visitor == c.visitor, lock.withLock({ _notes.removeValue(forKey: n) }) != nil else { throw .noSuchNote(n) }
        try answer()
    }

    func recordPlay(_ subject: PulseSubject) async throws(PulseStoreError) {}
    func seedIfEmpty(_ seed: PulseSeed) async throws(PulseStoreError) -> Bool { false }
}

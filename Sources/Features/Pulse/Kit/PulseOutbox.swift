import DocentText
import DocentJSON
import Foundation

/// A visitor's write to Pulse as it waits to be sent: the same write again (a reaction on the
/// same subject, a report on the same note, a note with the same id) replaces the waiting one,
/// because each is idempotent on the store and only the latest matters.
public enum PulseWrite: Hashable, Sendable {
    /// Sets (nil: withdraws) the visitor's reaction on a subject.
    case react(ReactionValue?, PulseSubject)
    /// A note under its client-chosen id.
    case post(NoteDraft)
    /// Reports a note (`true`) or takes the report back.
    case report(NoteID, Bool)

    /// What makes two writes the same write (the outbox keeps one per key).
    public var key: String {
        switch self {
        case .react(_, let s): return "react \(s.key)"
        case .post(let d): return "post \(d.id.key)"
        case .report(let n, _): return "report \(n.key)"
        }
    }
}

/// A write in the outbox: its order, who made it, when.
public struct PulseOutboxEntry: Equatable, Sendable {
    /// Grows with every write put in the outbox (a replaced write gets a new one), so entries
    /// are sent in the order they were made, and a write replaced while it was being sent is
    /// not removed with it.
    public let sequence: Int64
    public let write: PulseWrite
    public let credentials: VisitorCredentials
    public let queuedAt: Date
    public init(sequence: Int64, write: PulseWrite, credentials: VisitorCredentials, queuedAt: Date) {
        self.sequence = sequence
        self.write = write
        self.credentials = credentials
        self.queuedAt = queuedAt
    }
}

/// Where writes wait until the store has them: the state database in the guide
/// (`StateStore.SQLitePulseOutbox`), so a write made offline survives a quit, a crash and a
/// reboot. Calls are short and synchronous (a local file).
public protocol PulseOutbox: Sendable {
    /// Keeps the write (replacing a waiting one with the same key); answers its entry.
    func put(_ write: PulseWrite, as credentials: VisitorCredentials, at: Date) throws(PulseStoreError) -> PulseOutboxEntry
    /// Every waiting write, oldest first.
    func pending() throws(PulseStoreError) -> [PulseOutboxEntry]
    /// Forgets the entry once the store has it (or refused it), unless it was replaced since.
    func remove(_ entry: PulseOutboxEntry) throws(PulseStoreError)
    /// True when a kept write survives a quit (a file); false for an outbox in memory, which
    /// lasts only as long as the guide: a note that cannot be sent is then not "saved".
    var keepsWritesOnDisk: Bool { get }
}

extension PulseOutbox {
    public var keepsWritesOnDisk: Bool { true }
}

/// An outbox in memory (tests, and a guide that has no file it can keep writes in).
public final class MemoryPulseOutbox: PulseOutbox, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: PulseOutboxEntry] = [:]
    private var last: Int64 = 0
    /// Tests stand it in for a file (true); the guide's last resort says it is not (false).
    public let keepsWritesOnDisk: Bool
    public init(keepsWritesOnDisk: Bool = true) { self.keepsWritesOnDisk = keepsWritesOnDisk }

    public func put(_ write: PulseWrite, as credentials: VisitorCredentials, at: Date) throws(PulseStoreError) -> PulseOutboxEntry {
        lock.withLock {
            last += 1
            let e = PulseOutboxEntry(sequence: last, write: write, credentials: credentials, queuedAt: at)
            entries[write.key] = e
            return e
        }
    }

    public func pending() throws(PulseStoreError) -> [PulseOutboxEntry] {
        lock.withLock { entries.values.sorted { $0.sequence < $1.sequence } }
    }

    public func remove(_ entry: PulseOutboxEntry) throws(PulseStoreError) {
        lock.withLock {
            if entries[entry.write.key]?.sequence == entry.sequence { entries[entry.write.key] = nil }
        }
    }
}

/// A store that never loses a visitor's write: each write goes to the outbox first, then to
/// the store behind it, in the order the visitor made them, with their ids (so a write whose
/// answer was lost and is sent again is the same write, never a second one). While the store
/// cannot be reached (`.unavailable`) the writes wait and the visitor's own view shows them:
/// a reaction's counts, a note in its list and in the counts, a report. Every snapshot first
/// sends what waits, so the guide's regular check is the retry.
///
/// A write the store refuses for good (rate limit, bad text, unknown note, bad identity) leaves
/// the outbox: the visitor is told when it was the write just made. Registration waits too, so
/// a guide started while the service is down comes online by itself.
///
/// Only one send runs at a time; reads do not wait for one another.
public actor OutboxPulseStore: PulseStore {
    private let store: any PulseStore
    private let outbox: any PulseOutbox
    private let clock: @Sendable () -> Date
    private var unregistered: VisitorCredentials?
    /// What the store last said of the viewer's reactions and the counts, for answers given
    /// while offline.
    private var knownCounts: [PulseSubject: PulseCounts] = [:]
    private var knownMine: [PulseSubject: ReactionValue] = [:]
    private var sending = false
    /// Writes that left the outbox (sent or refused), counted: a snapshot after some left is
    /// taken whole, so the viewer's waiting notes are told even when the store did not change.
    private var removed = 0
    /// Notes sent from the outbox without their writer waiting (a flush) that the store
    /// refused for good, until the writer's next snapshot tells them.
    private var refusedNotes: [(VisitorID, NoteID, PulseStoreError)] = []
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(store: any PulseStore, outbox: any PulseOutbox, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.outbox = outbox
        self.clock = clock
    }

    // MARK: PulseStore

    public func register(_ credentials: VisitorCredentials) async throws(PulseStoreError) {
        // Said again before anything else is sent: the guide works offline meanwhile.
        unregistered = credentials
        do {
            try await registerIfNeeded()
        } catch {
            guard case .unavailable = error else { throw error }
        }
    }

    public func snapshot(viewer: VisitorID?, dayStart: Date, since: PulseVersion?) async throws(PulseStoreError) -> PulseSnapshot? {
        try await registerIfNeeded()
        let before = removed
        _ = await sendWaiting(awaiting: nil)
        guard var snap = try await store.snapshot(viewer: viewer, dayStart: dayStart, since: removed == before ? since : nil) else { return nil }
        knownCounts = snap.counts
        knownMine = snap.mine
        if let viewer {
            overlay(&snap, viewer: viewer)
            for (visitor, note, error) in refusedNotes where visitor == viewer { snap.refusedNotes[note] = error }
        }
        refusedNotes = []
        return snap
    }

    public func notes(on subject: PulseSubject, viewer: VisitorID?) async throws(PulseStoreError) -> [PulseNote] {
        var notes = try await store.notes(on: subject, viewer: viewer)
        guard let viewer else { return notes }
        let stored = Set(notes.map(\.id))
        for e in waitingEntries(of: viewer).reversed() {
            guard case .post(let d) = e.write, d.subject == subject, !stored.contains(d.id), let note = Self.note(d, at: e.queuedAt) else { continue }
            notes.insert(note, at: 0)
        }
        return notes
    }

    public func react(_ value: ReactionValue?, on subject: PulseSubject, as credentials: VisitorCredentials) async throws(PulseStoreError) -> PulseCounts {
        let entry = try outbox.put(.react(value, subject), as: credentials, at: clock())
        let before = knownMine[subject]
        let counts = (knownCounts[subject] ?? .zero).changed(from: before, to: value)
        knownCounts[subject] = counts
        knownMine[subject] = value
        switch await sendWaiting(awaiting: entry) {
        case .answered(.counts(let c))?:
            knownCounts[subject] = c
            return c
        case .refused(let e)?:
            knownCounts[subject] = (knownCounts[subject] ?? .zero).changed(from: value, to: before)
            knownMine[subject] = before
            throw e
        default: return counts
        }
    }

    public func post(_ draft: NoteDraft, as credentials: VisitorCredentials) async throws(PulseStoreError) -> PostOutcome {
        // Text the store would refuse is refused now, not after a wait.
        let text: String
        switch NoteText.clean(draft.text) {
        case .success(let t): text = t
        case .failure(let p): throw .badText(p)
        }
        let entry = try outbox.put(.post(draft), as: credentials, at: clock())
        switch await sendWaiting(awaiting: entry) {
        case .answered(.posted(let outcome))?: return outcome
        case .refused(let e)?: throw e
        default:
            // Waiting: "saved" only if it is on disk. An outbox in memory would lose it at quit,
            // so the note is taken back and the visitor keeps the draft.
            guard outbox.keepsWritesOnDisk else {
                try? outbox.remove(entry)
                throw .notKept
            }
            return .queued(PulseNote(id: draft.id, subject: draft.subject, language: draft.language, text: text, createdAt: entry.queuedAt))
        }
    }

    public func report(_ note: NoteID, _ reported: Bool, as credentials: VisitorCredentials) async throws(PulseStoreError) {
        let entry = try outbox.put(.report(note, reported), as: credentials, at: clock())
        if case .refused(let e)? = await sendWaiting(awaiting: entry) { throw e }
    }

    /// A delete is not kept while the store cannot be reached (the note stays on the visitor's
    /// screen and they can try again): it undoes something public, and a delete sent much later
    /// would surprise. A note still waiting here was never seen by anyone: it leaves the outbox
    /// at once (and the store is asked too, in case it had the note and its answer was lost).
    public func deleteOwnNote(_ note: NoteID, as credentials: VisitorCredentials) async throws(PulseStoreError) {
        // No send under way meanwhile: a waiting note is either sent or still waiting.
        await acquire()
        defer { release() }
        let waiting = ((try? outbox.pending()) ?? []).first { e in
            if case .post(let d) = e.write { return d.id == note && e.credentials.visitor == credentials.visitor }
            return false
        }
        guard let waiting else {
            try await store.deleteOwnNote(note, as: credentials)
            return
        }
        try outbox.remove(waiting)
        removed += 1
        do {
            try await store.deleteOwnNote(note, as: credentials)
        } catch {
            switch error {
            case .noSuchNote, .unavailable: break  // never sent, or to be found out later
            default: throw error
            }
        }
    }

    public func recordPlay(_ subject: PulseSubject) async throws(PulseStoreError) {
        // Anonymous and only a popularity signal: not kept while offline.
        try await store.recordPlay(subject)
    }

    public func seedIfEmpty(_ seed: PulseSeed) async throws(PulseStoreError) -> Bool {
        try await store.seedIfEmpty(seed)
    }

    // MARK: Sending

    enum Answer {
        case counts(PulseCounts)
        case posted(PostOutcome)
        case done
    }

    enum Outcome {
        /// The store has it.
        case answered(Answer)
        /// The store refused it for good.
        case refused(PulseStoreError)
    }

    /// Sends every waiting write, oldest first, until the store cannot be reached; answers what
    /// became of `awaiting` (nil: it still waits).
    private func sendWaiting(awaiting: PulseOutboxEntry?) async -> Outcome? {
        await acquire()
        defer { release() }
        do {
            try await registerIfNeeded()
        } catch {
            guard case .unavailable = error else {
                // The identity is refused for good: the writes are sent anyway, and refused.
                unregistered = nil
                return await sendEntries(awaiting: awaiting)
            }
            return nil
        }
        return await sendEntries(awaiting: awaiting)
    }

    private func sendEntries(awaiting: PulseOutboxEntry?) async -> Outcome? {
        var mine: Outcome?
        guard let entries = try? outbox.pending() else { return nil }
        sending: for e in entries {
            let outcome: Outcome
            do {
                outcome = .answered(try await sendRegistering(e))
            } catch {
                switch error {
                case .unavailable: break sending
                // An earlier write waits for its limit to pass; the later ones wait behind it.
                case .rateLimited where e.sequence != awaiting?.sequence: break sending
                default: outcome = .refused(error)
                }
            }
            try? outbox.remove(e)
            removed += 1
            if e.sequence == awaiting?.sequence {
                mine = outcome
            } else if case .refused(let error) = outcome, case .post(let d) = e.write {
                refusedNotes.append((e.credentials.visitor, d.id, error))
            }
        }
        return mine
    }

    private func registerIfNeeded() async throws(PulseStoreError) {
        guard let creds = unregistered else { return }
        try await store.register(creds)
        unregistered = nil
    }

    /// Sends the entry; an identity the store does not know (a write kept by an earlier guide
    /// whose state database could not keep its identity, so it never registered) is
    /// registered and the write sent once more, instead of being refused for good.
    private func sendRegistering(_ e: PulseOutboxEntry) async throws(PulseStoreError) -> Answer {
        do {
            return try await send(e)
        } catch {
            guard case .badCredentials = error else { throw error }
            try await store.register(e.credentials)
            return try await send(e)
        }
    }

    private func send(_ e: PulseOutboxEntry) async throws(PulseStoreError) -> Answer {
        switch e.write {
        case .react(let v, let s):
            return .counts(try await store.react(v, on: s, as: e.credentials))
        case .post(let d):
            return .posted(try await store.post(d, as: e.credentials))
        case .report(let n, let on):
            try await store.report(n, on, as: e.credentials)
            return .done
        }
    }

    private func acquire() async {
        if !sending {
            sending = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty { sending = false } else { waiting.removeFirst().resume() }
    }

    // MARK: The viewer's waiting writes

    private func waitingEntries(of viewer: VisitorID) -> [PulseOutboxEntry] {
        ((try? outbox.pending()) ?? []).filter { $0.credentials.visitor == viewer }
    }

    /// The snapshot as the viewer will see it once the waiting writes are sent.
    private func overlay(_ snap: inout PulseSnapshot, viewer: VisitorID) {
        for e in waitingEntries(of: viewer) {
            switch e.write {
            case .react(let v, let s):
                snap.counts[s] = (snap.counts[s] ?? .zero).changed(from: snap.mine[s], to: v)
                snap.mine[s] = v
            case .post(let d):
                snap.noteCounts[d.subject, default: 0] += 1
                snap.waitingNotes.insert(d.id)
            case .report(let n, let on):
                if on { snap.myReports.insert(n) } else { snap.myReports.remove(n) }
            }
        }
    }

    /// A waiting note as its writer sees it.
    static func note(_ d: NoteDraft, at: Date) -> PulseNote? {
        guard case .success(let text) = NoteText.clean(d.text) else { return nil }
        return PulseNote(id: d.id, subject: d.subject, language: d.language, text: text, createdAt: at)
    }
}

import DocentText
import DocentJSON
import Foundation

/// Where Pulse lives: the embedded SQLite file (`StateStore.SQLitePulseStore`, the default),
/// and later the Pulse service over HTTP (issue 13). The interface sits beside its consumer;
/// the feature talks to nothing else, so a store is swapped without touching it.
///
/// Shaped for a remote store: every call is `async` and may fail with `PulseStoreError`;
/// writes carry ids the client chose (a note's `NoteID`; a reaction is keyed by subject and
/// visitor), so a retried write is the same write; reads say which `PulseVersion` they saw,
/// and `snapshot(… since:)` answers nil while nothing changed (an ETag and a 304 over HTTP, one
/// indexed row in SQLite). Counts are computed by the store in the same transaction as the
/// rows, never sent by a client. The store keeps time (the server's clock wins).
public protocol PulseStore: Sendable {
    /// Makes the visitor known to the store (the same credentials again: nothing changes).
    /// Fails with `.badCredentials` when the id is known with another secret.
    func register(_ credentials: VisitorCredentials) async throws(PulseStoreError)
    /// What the guide shows of Pulse, for `viewer`; nil when the store is still at `since`.
    func snapshot(viewer: VisitorID?, dayStart: Date, since: PulseVersion?) async throws(PulseStoreError) -> PulseSnapshot?
    /// The notes on a subject that `viewer` may see, newest first.
    func notes(on subject: PulseSubject, viewer: VisitorID?) async throws(PulseStoreError) -> [PulseNote]
    /// Sets (or with nil withdraws) the visitor's reaction; answers the subject's counts.
    func react(_ value: ReactionValue?, on subject: PulseSubject, as credentials: VisitorCredentials) async throws(PulseStoreError) -> PulseCounts
    /// Stores a note under its client-chosen id: the same id and text again is the same note.
    func post(_ draft: NoteDraft, as credentials: VisitorCredentials) async throws(PulseStoreError) -> PostOutcome
    /// Reports a note (`true`) or takes the report back (`false`).
    func report(_ note: NoteID, _ reported: Bool, as credentials: VisitorCredentials) async throws(PulseStoreError)
    /// Deletes the visitor's own note, with the reactions and reports it had. A note of
    /// someone else's, or none (a retry of a delete that went through), is `.noSuchNote`.
    func deleteOwnNote(_ note: NoteID, as credentials: VisitorCredentials) async throws(PulseStoreError)
    /// A commentary of this subject was played (feeds "popular right now"; anonymous).
    func recordPlay(_ subject: PulseSubject) async throws(PulseStoreError)
    /// Loads a museum's seed when the store has never been seeded; true when it was loaded.
    func seedIfEmpty(_ seed: PulseSeed) async throws(PulseStoreError) -> Bool
}

/// Where a page of notes ended (the last note of the page): the next page starts after it.
/// Its text form (`created~visitor.sequence`) is what `GET /v1/notes?after=` carries.
public struct PulseCursor: Hashable, Sendable {
    public let created: Double
    public let id: NoteID
    public init(created: Double, id: NoteID) {
        self.created = created
        self.id = id
    }
    public init(after note: PulseNote) { self.init(created: note.createdAt.timeIntervalSince1970, id: note.id) }

    /// `-?D{1,16}(.D{1,20})?` (the OpenAPI pattern): no exponent, no hex, nothing Double()
    /// would read that the contract does not name.
    static func isDecimal(_ t: Substring) -> Bool {
        let body = t.hasPrefix("-") ? Array(t.utf8.dropFirst()) : Array(t.utf8)
        let parts = body.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        func digits(_ p: ArraySlice<UInt8>, _ most: Int) -> Bool { (1...most).contains(p.count) && p.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard let whole = parts.first, digits(whole, 16) else { return false }
        return parts.count == 1 || digits(parts[1], 20)
    }

    /// Swift's shortest round-trip text for the time, so the cursor is exact.
    public var text: String { "\(created)~\(id.key)" }

    public init?(text: String) {
        let parts = text.split(separator: "~", maxSplits: 1)
        guard parts.count == 2, Self.isDecimal(parts[0]), let t = Double(parts[0]), t.isFinite, let id = NoteID(key: String(parts[1])) else { return nil }
        self.init(created: t, id: id)
    }
}

/// One page of a list and where the next starts (nil: this was the last).
public struct PulsePage: Hashable, Sendable {
    public var notes: [PulseNote]
    public var next: PulseCursor?
    public init(notes: [PulseNote], next: PulseCursor?) {
        self.notes = notes
        self.next = next
    }

    /// Every page of a list, read in turn from the first (`page(nil)`) until one says it was
    /// the last: the one paging loop both stores' whole-list reads use.
    public static func all(_ page: (PulseCursor?) async throws(PulseStoreError) -> PulsePage) async throws(PulseStoreError) -> [PulseNote] {
        var out: [PulseNote] = []
        var cursor: PulseCursor?
        repeat {
            let p = try await page(cursor)
            out += p.notes
            cursor = p.next
        } while cursor != nil
        return out
    }
}

/// A store's change counter: it grows with every write, so "changed since N" is one compare.
public struct PulseVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let value: Int64
    public init(_ value: Int64) { self.value = value }
    public static func < (a: PulseVersion, b: PulseVersion) -> Bool { a.value < b.value }
    public var description: String { "v\(value)" }
}

/// A note as a client submits it.
public struct NoteDraft: Hashable, Sendable {
    public let id: NoteID
    public let subject: PulseSubject
    public let language: Language
    /// Raw text; the store cleans it with `NoteText.clean` (the same function as the guide).
    public let text: String
    /// What lets the note through the service's posting gate (`PostingGate`); the stores keep
    /// no trace of it.
    public let pass: PostingPass?
    public init(id: NoteID, subject: PulseSubject, language: Language, text: String, pass: PostingPass? = nil) {
        self.id = id
        self.subject = subject
        self.language = language
        self.text = text
        self.pass = pass
    }
}

public enum PostOutcome: Hashable, Sendable {
    /// A new note.
    case created(PulseNote)
    /// The same id and text were stored before (a retry): nothing new.
    case alreadyStored(PulseNote)
    /// Kept in the guide's outbox while the store cannot be reached; sent when it can
    /// (`OutboxPulseStore`). The note as its writer sees it meanwhile.
    case queued(PulseNote)
}

/// Why a store refused or failed. Each case has a sentence for the visitor.
public enum PulseStoreError: Error, Hashable, Sendable {
    /// Too many writes: wait, and try again.
    case rateLimited(PulseRules.Limit)
    /// A note with this id exists with other text (a client bug, never a retry).
    case conflict(NoteID)
    /// The note text cannot be stored.
    case badText(NoteText.Problem)
    /// The visitor is unknown or the secret does not match.
    case badCredentials
    /// Reporting or reacting to a note that is not there.
    case noSuchNote(NoteID)
    /// A subject key the store does not accept.
    case badSubject(String)
    /// The store cannot be reached or used (the reason in the store's words).
    case unavailable(String)
    /// The store cannot be reached and the guide has nowhere on disk to keep the write until
    /// it can: the write was not kept (the visitor still has the draft).
    case notKept
    /// The service's posting gate refused the note (issue 32): no code, a wrong one, no
    /// member card, or too many wrong tries.
    case postingRefused(PostingRefusal)
}

/// What the guide shows of Pulse at one version.
public struct PulseSnapshot: Hashable, Sendable {
    public var version: PulseVersion
    /// Reactions per subject (subjects nobody reacted to are absent).
    public var counts: [PulseSubject: PulseCounts]
    /// Notes the viewer can read, per subject.
    public var noteCounts: [PulseSubject: Int]
    /// The viewer's own reactions.
    public var mine: [PulseSubject: ReactionValue]
    /// Notes the viewer reported (still reported).
    public var myReports: Set<NoteID>
    /// Featured subjects active now.
    public var featured: [PulseFeatured]
    /// Announcements not yet expired (future ones too: they start by the clock).
    public var announcements: [PulseAnnouncement]
    /// Activity per subject: the last hour, since `dayStart`, the newest.
    public var activity: [PulseSubject: PulseActivitySummary]
    /// Subjects with a curator's note (the cold-start picks).
    public var curatorPicks: Set<PulseSubject>
    /// The store's clock when the snapshot was taken.
    public var takenAt: Date
    /// The viewer's notes still waiting in the guide's outbox (`OutboxPulseStore`; empty for a
    /// store without one): a note said to be "saved, will be sent" is sent once it is not here.
    public var waitingNotes: Set<NoteID>
    /// The viewer's waiting notes the store refused for good since the last snapshot (a note
    /// sent later by the outbox has no caller to be told; the guide says it instead).
    public var refusedNotes: [NoteID: PulseStoreError]
    /// Who may post notes (the service's `--posting`; the embedded store: open).
    public var posting: PostingGate

    public init(
        version: PulseVersion, counts: [PulseSubject: PulseCounts] = [:], noteCounts: [PulseSubject: Int] = [:], mine: [PulseSubject: ReactionValue] = [:],
        myReports: Set<NoteID> = [], featured: [PulseFeatured] = [], announcements: [PulseAnnouncement] = [],
        activity: [PulseSubject: PulseActivitySummary] = [:], curatorPicks: Set<PulseSubject> = [], takenAt: Date,
        waitingNotes: Set<NoteID> = [], refusedNotes: [NoteID: PulseStoreError] = [:], posting: PostingGate = .open
    ) {
        self.version = version
        self.counts = counts
        self.noteCounts = noteCounts
        self.mine = mine
        self.myReports = myReports
        self.featured = featured
        self.announcements = announcements
        self.activity = activity
        self.curatorPicks = curatorPicks
        self.takenAt = takenAt
        self.waitingNotes = waitingNotes
        self.refusedNotes = refusedNotes
        self.posting = posting
    }
}

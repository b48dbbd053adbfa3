import PulseKit
import Foundation
import PulseKitSQLite

/// What the service needs of a store besides `PulseStore`: checking a reader's credentials,
/// a visitor's own reaction (DELETE answers 404 when there was none), a subject's counts, and
/// the recount check. The SQLite store has them; the PostgreSQL store will too.
public protocol PulseServiceStore: PulseStore {
    /// The rules the store applies (thresholds from the service's configuration).
    var rules: PulseRules { get }
    func authenticate(_ credentials: VisitorCredentials) async throws(PulseStoreError)
    func reaction(of visitor: VisitorID, on subject: PulseSubject) async throws(PulseStoreError) -> ReactionValue?
    func counts(of subject: PulseSubject) async throws(PulseStoreError) -> PulseCounts
    func recountMismatches() async throws(PulseStoreError) -> [String]
    /// Reported notes awaiting a staff decision (none yet, or restored and reported again),
    /// oldest first, with their report counts.
    func moderationQueue() async throws(PulseStoreError) -> [PulseNote]
    /// A staff decision on a note: `removed` (agree with the reporters), `restored` (disagree:
    /// the reports so far stop counting), `pinned` (keep it shown whatever reports and votes).
    /// Answers the note as it is now.
    func decide(_ note: NoteID, _ decision: StaffDecision) async throws(PulseStoreError) -> PulseNote
    /// A seed applied whatever the store holds (featured, curator notes, announcements put in
    /// or replaced by subject, sequence or id); every guide sees it at its next check.
    func apply(_ seed: PulseSeed) async throws(PulseStoreError)
    /// Everything but the visitors: featured, announcements, every note (`visitorNotes: false`:
    /// the museum's only), every count.
    func export(visitorNotes: Bool) async throws(PulseStoreError) -> PulseExport
    /// One page of every visitor note (removed and hidden ones too), oldest first, after
    /// `cursor`: the export's record, paged (`GET /v1/staff/export`).
    func exportNotes(after cursor: PulseCursor?, limit: Int) async throws(PulseStoreError) -> PulsePage

    // Pulse in public (issue 32).
    /// One page of the notes a viewer sees on a subject, newest first, after `cursor`.
    func notes(on subject: PulseSubject, viewer: VisitorID?, after cursor: PulseCursor?, limit: Int) async throws(PulseStoreError) -> PulsePage
    /// One page of the moderation queue (reported or score-hidden notes), oldest first.
    func moderationQueue(after cursor: PulseCursor?, limit: Int) async throws(PulseStoreError) -> PulsePage
    /// Plays gathered, as one write; `versionStep`: the version moves with it (the service's
    /// batches write without, and step once per `--play-flush`; an empty batch with a step
    /// is the step alone).
    func recordPlays(_ plays: [PulseSubject: Int], versionStep: Bool) async throws(PulseStoreError)
    /// Notes past retention deleted, then what `ages` lets go (activity, reports on decided
    /// notes, abandoned visitors); answers how many notes went.
    func purgeExpired(_ ages: PulsePurgeAges) async throws(PulseStoreError) -> Int
    /// Succeeds when the database answers (`/readyz`).
    func ready() async throws(PulseStoreError)
    /// How the store uses its database connections now (`/metrics`).
    func poolUse() async throws(PulseStoreError) -> DatabasePoolUse
}

extension PulseServiceStore {
    /// The whole export at once (`docent-pulse export --database`).
    public func export() async throws(PulseStoreError) -> PulseExport { try await export(visitorNotes: true) }
}

extension SQLitePulseStore: PulseServiceStore {}

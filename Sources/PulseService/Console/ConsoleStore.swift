import PulseKit
import Foundation

/// What the staff console (and the staff commands of `docent-pulse`) keep besides Pulse itself:
/// staff accounts, sessions, failed sign-ins, the audit log, bans; and the staff-side reads and
/// writes on Pulse's own tables (the queue with its reasons, decisions that refuse to overwrite
/// another person's, erasing a visitor, the museum's activity per day).
///
/// A second object over the same database as the Pulse store (the same SQLite file, the same
/// PostgreSQL database), with migrations of its own (`staff-…`): sessions live in the database,
/// so several instances behind nginx share them, and the Pulse store's write paths are left
/// alone. Every write that guides must see bumps the store's version as the Pulse store does.
public protocol ConsoleStore: Sendable {
    // MARK: Staff accounts and sign-in
    /// Adds a staff account or replaces its password hash.
    func putStaff(name: String, passwordHash: String) async throws(PulseStoreError)
    func staffHash(name: String) async throws(PulseStoreError) -> String?
    func staffNames() async throws(PulseStoreError) -> [String]
    func removeStaff(name: String) async throws(PulseStoreError) -> Bool
    /// Every account with its role and the sessions it has open now, by name.
    func staffAccounts() async throws(PulseStoreError) -> [StaffAccount]
    /// An account's password hash and role (what a session is checked against at each request).
    func staffHashAndRole(name: String) async throws(PulseStoreError) -> (hash: String, role: StaffRole)?
    /// Adds an account; false when the name is taken (nothing changed).
    func addStaff(name: String, passwordHash: String, role: StaffRole) async throws(PulseStoreError) -> Bool
    /// A new password for an existing account, its sessions ended in the same transaction;
    /// false when there is no such account.
    func setStaffPassword(name: String, passwordHash: String) async throws(PulseStoreError) -> Bool
    /// Ends every session of one account; answers how many were open.
    func endStaffSessions(name: String) async throws(PulseStoreError) -> Int
    /// Removes an account and its sessions in one transaction (account changes are serialised),
    /// as `by` (nil: the command line): refused when `by` is the account itself or is no
    /// account that may manage accounts, and when it would leave accounts that may manage
    /// accounts none (issue 44 #14).
    func removeStaff(name: String, by: String?) async throws(PulseStoreError) -> StaffChange
    /// Sets an account's role (the command line); refused when it would leave no account that
    /// may manage accounts where there was one.
    func setStaffRole(name: String, role: StaffRole) async throws(PulseStoreError) -> StaffChange
    /// Failed sign-ins under a key (an account name, or the staff token), and the last one's time.
    func failures(key: String) async throws(PulseStoreError) -> (count: Int, last: Date?)
    func recordFailure(key: String) async throws(PulseStoreError)
    func clearFailures(key: String) async throws(PulseStoreError)
    /// One more try under `key`, counted in one transaction before the try is checked (issue 44
    /// #2: concurrent tries cannot all read the count from before the others): answers the
    /// count and the last try's time from before this one. Failures older than `decay` are
    /// forgotten (every key's: the table keeps only the last `decay`'s).
    func countAttempt(key: String, decay: TimeInterval) async throws(PulseStoreError) -> (before: Int, last: Date?)

    // MARK: Sessions (ids stored hashed)
    func createSession(_ session: StaffSession) async throws(PulseStoreError)
    func session(id: String) async throws(PulseStoreError) -> StaffSession?
    func deleteSession(id: String) async throws(PulseStoreError)

    // MARK: Audit
    func audit(_ entry: AuditEntry) async throws(PulseStoreError)
    /// Newest first; `staff`/`action` filter exactly, `search` matches target, before or after.
    func auditLog(_ filter: AuditFilter) async throws(PulseStoreError) -> [AuditEntry]

    // MARK: Moderation
    /// Notes awaiting staff, oldest first: reported ones not yet decided (or restored and
    /// reported again), and visitor notes hidden by their score with no decision; at most
    /// `limit` of them after `after` (the last note of the page before; nil: from the oldest).
    func queue(rules: PulseRules, after: PulseCursor?, limit: Int) async throws(PulseStoreError) -> [PulseNote]
    /// How many notes the queue holds (what `queue` would list with no limit).
    func queueLength(rules: PulseRules) async throws(PulseStoreError) -> Int
    func note(_ id: NoteID) async throws(PulseStoreError) -> PulseNote?
    /// Notes staff removed, newest first (to restore one).
    func removedNotes(limit: Int) async throws(PulseStoreError) -> [PulseNote]
    /// Every featured subject and every announcement (past, present and future), read without
    /// the notes.
    func featuredList() async throws(PulseStoreError) -> [PulseFeatured]
    func announcementList() async throws(PulseStoreError) -> [PulseAnnouncement]
    /// Who reported a note and when (counting or not), oldest first.
    func reports(on id: NoteID) async throws(PulseStoreError) -> [(visitor: VisitorID, at: Date)]
    /// The same for many notes in one query (the queue page).
    func reports(on ids: [NoteID]) async throws(PulseStoreError) -> [NoteID: [(visitor: VisitorID, at: Date)]]
    /// Sets a decision only if the note's decision is still `expected` (what the page showed);
    /// answers the note as it is now and whether this call changed it.
    func decide(_ id: NoteID, _ decision: StaffDecision, expected: StaffDecision?) async throws(PulseStoreError) -> (note: PulseNote, changed: Bool)
    /// Bans a visitor: their secret is revoked (kept, marked, so a lift restores it), so every
    /// write and every read as them answers 401; their visible notes are removed. Answers how
    /// many notes went; false when already banned.
    func ban(_ visitor: VisitorID, by staff: String) async throws(PulseStoreError) -> (changed: Bool, notes: Int)
    func unban(_ visitor: VisitorID) async throws(PulseStoreError) -> Bool
    func bans() async throws(PulseStoreError) -> [(visitor: VisitorID, at: Date, staff: String)]
    /// Deletes everything of one visitor (identity, notes, reactions, reports, activity), the
    /// counts and report tallies of everyone else corrected in the same transaction.
    func erase(_ visitor: VisitorID) async throws(PulseStoreError) -> ErasedVisitor
    /// A note deleted by its own writer (their credentials, hashed as the store keeps them).
    func deleteOwnNote(_ id: NoteID, as credentials: VisitorCredentials) async throws(PulseStoreError)

    // MARK: The museum's pulse
    /// Plays, reactions, notes and reports per museum day from `from` (a day start) on;
    /// `offset`: the museum's offset from UTC in seconds.
    func activityPerDay(from: Date, offset: Int) async throws(PulseStoreError) -> [Int: ActivityDay]
    /// Counts into the day table every whole past day it keeps that is not counted yet, for a
    /// museum at `offset`. The upkeep calls it before each purge: the purge lets activity
    /// older than 48 h go, and a day nobody had looked at on the Pulse page before that was
    /// lost to the charts for good.
    func countPastDays(offset: Int) async throws(PulseStoreError)
    /// The most frequent subjects of one activity kind since `from`.
    func top(kind: String, since from: Date, offset: Int, limit: Int) async throws(PulseStoreError) -> [(subject: PulseSubject, count: Int)]
    /// Subjects (not notes) by likes minus dislikes, best first.
    func bestLiked(limit: Int) async throws(PulseStoreError) -> [(subject: PulseSubject, counts: PulseCounts)]
    /// Plays per tour stop since `from`.
    func stopPlays(since from: Date, offset: Int) async throws(PulseStoreError) -> [(subject: PulseSubject, count: Int)]
}

/// What a staff account may do: every staff account moderates, curates and reads the audit
/// log; `admin` also manages the accounts (the console's accounts page). The staff token is no
/// account: it never manages accounts (the audit log could not name the person).
public enum StaffRole: String, Sendable, CaseIterable {
    case staff
    case admin
    public var mayManageAccounts: Bool { self == .admin }
}

public struct StaffAccount: Sendable, Equatable {
    public var name: String
    public var role: StaffRole
    public var created: Date
    /// Sessions open now (not ended, not expired).
    public var sessions: Int
    public init(name: String, role: StaffRole, created: Date, sessions: Int) {
        self.name = name
        self.role = role
        self.created = created
        self.sessions = sessions
    }
}

/// How an account change went.
public enum StaffChange: Sendable, Equatable {
    case done
    case noSuchAccount
    /// The one asking is the account itself (nobody removes their own account).
    case yourself
    /// The one asking may not manage accounts (any more).
    case notAllowed
    /// It would leave no account that may manage accounts.
    case lastManager
}

public struct StaffSession: Sendable, Equatable {
    /// SHA-256 of the cookie's value (a copy of the database holds no usable session).
    public var id: String
    public var staff: String
    public var csrf: String
    public var created: Date
    public var expires: Date
    /// What signed in, as a digest (issue 44 #6): the account's password hash or the staff
    /// token then. A session whose credential is no longer the account's (or the service's)
    /// is over.
    public var credential: String
    /// Not stored: whether the account may manage accounts, read with its credential at each
    /// request (a role taken away counts at once).
    public var mayManageAccounts = false
    public init(id: String, staff: String, csrf: String, created: Date, expires: Date, credential: String = "") {
        self.id = id
        self.staff = staff
        self.csrf = csrf
        self.created = created
        self.expires = expires
        self.credential = credential
    }
}

/// One staff action: who, when, what, on what, before and after.
public struct AuditEntry: Sendable, Equatable {
    public var at: Date
    public var staff: String
    public var action: String
    public var target: String
    public var before: String
    public var after: String
    public init(at: Date, staff: String, action: String, target: String, before: String, after: String) {
        self.at = at
        self.staff = staff
        self.action = action
        self.target = target
        self.before = before
        self.after = after
    }
}

public struct AuditFilter: Sendable, Equatable {
    public var staff: String?
    public var action: String?
    public var search: String?
    public var limit: Int
    public init(staff: String? = nil, action: String? = nil, search: String? = nil, limit: Int = 200) {
        self.staff = staff
        self.action = action
        self.search = search
        self.limit = limit
    }
}

public struct ErasedVisitor: Sendable, Equatable {
    public var notes = 0
    public var reactions = 0
    public var reports = 0
    public var activity = 0
    public var existed = false
    public init() {}
    public var summary: String { "notes \(notes), reactions \(reactions), reports \(reports), activity \(activity)" }
}

public struct ActivityDay: Sendable, Equatable {
    public var plays = 0
    public var reactions = 0
    public var notes = 0
    public var reports = 0
    public init(plays: Int = 0, reactions: Int = 0, notes: Int = 0, reports: Int = 0) {
        self.plays = plays
        self.reactions = reactions
        self.notes = notes
        self.reports = reports
    }
    mutating func add(kind: String, _ n: Int) {
        switch kind {
        case "play": plays += n
        case "reaction": reactions += n
        case "note": notes += n
        case "report": reports += n
        default: break
        }
    }
}

/// SQL both stores share (the schema is the same in both).
enum ConsoleSQL {
    /// A queue page from the two lists each store reads (reported, low score), each asked for
    /// `limit + ties` rows from the cursor's time on: merged in `(createdAt, id)` order, the
    /// notes up to the cursor dropped, at most `limit` kept. (The SQL only filters on the time:
    /// the stores order ids their own way, Swift orders them as `NoteID` does.)
    static func queuePage(_ lists: [PulseNote]..., after: PulseCursor?, limit: Int) -> [PulseNote] {
        var merged = Array(Set(lists.joined())).sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        if let after {
            let t = Date(timeIntervalSince1970: after.created)
            merged.removeAll { ($0.createdAt, $0.id) <= (t, after.id) }
        }
        return Array(merged.prefix(limit))
    }

    /// The first text past every text that starts with `prefix` (not empty): its last
    /// character moved one on ("stop:" → "stop;"), so `>= prefix AND < this` is "starts with
    /// it" as a range an index can search.
    static func pastPrefix(_ prefix: String) -> String {
        var scalars = Array(prefix.unicodeScalars)
        guard let last = scalars.popLast() else { return prefix }
        let next = Unicode.Scalar(last.value + 1) ?? Unicode.Scalar(last.value + 0x801) ?? last
        return String(String.UnicodeScalarView(scalars + [next]))
    }

    /// Rows asked for beyond `limit`: notes created at the cursor's very time, already shown.
    static let queueTies = 64

    static let noteColumns = """
        SELECT n.id, n.subject, n.language, n.text, n.created, n.author, n.reports, n.decision,
               COALESCE(c.up, 0) AS up, COALESCE(c.meh, 0) AS meh, COALESCE(c.down, 0) AS down
        FROM note n LEFT JOIN counts c ON c.subject = 'note:' || n.id
        """

    /// A note from its columns; one that cannot be read is left out.
    static func note(
        id: String, subject: String, language: String, text: String, created: Double, author: String, reports: Int, decision: String?, up: Int, meh: Int,
        down: Int
    ) -> PulseNote? {
        guard let nid = NoteID(key: id), let s = PulseSubject(subject), let l = Language.fromTag(language) else { return nil }
        return PulseNote(
            id: nid, subject: s, language: l, text: text, createdAt: Date(timeIntervalSince1970: created), author: author == "curator" ? .curator : .visitor,
            counts: PulseCounts(up: up, meh: meh, down: down), reports: reports, decision: decision.flatMap(StaffDecision.init(rawValue:)))
    }

    static func featured(_ rows: [(subject: String, tier: Int, from: Double?, until: Double?)], taglines: [(String, String, String)]) -> [PulseFeatured] {
        var t: [String: [Language: String]] = [:]
        for (s, l, x) in taglines { if let lang = Language.fromTag(l) { t[s, default: [:]][lang] = x } }
        return rows.compactMap { r in
            PulseSubject(r.subject).map {
                PulseFeatured(
                    subject: $0, tier: r.tier, taglines: t[r.subject] ?? [:], from: r.from.map(Date.init(timeIntervalSince1970:)),
                    until: r.until.map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    static func announcements(
        _ rows: [(id: String, style: String, feeds: String, positions: String, languages: String, from: Double?, until: Double?, link: String?)],
        texts: [(String, String, String)]
    ) -> [PulseAnnouncement] {
        var t: [String: [Language: String]] = [:]
        for (s, l, x) in texts { if let lang = Language.fromTag(l) { t[s, default: [:]][lang] = x } }
        return rows.compactMap { r in
            guard let style = PulseAnnouncement.Style(rawValue: r.style) else { return nil }
            let feeds = r.feeds.split(separator: "\n").compactMap { PulsePattern(String($0)) }
            guard !feeds.isEmpty else { return nil }
            return PulseAnnouncement(
                id: r.id, feeds: feeds, positions: r.positions.split(separator: ",").compactMap { Int($0) }, style: style,
                languages: r.languages.split(separator: ",").compactMap { Language.fromTag(String($0)) }, from: r.from.map(Date.init(timeIntervalSince1970:)),
                until: r.until.map(Date.init(timeIntervalSince1970:)), text: t[r.id] ?? [:], link: r.link)
        }
    }

    /// What signed a session in (issue 44 #6); sessions from before it have none, and are over.
    static let sessionCredentialSchema = "ALTER TABLE staff_session ADD COLUMN credential TEXT NOT NULL DEFAULT ''"

    /// Whether `by` (nil: the command line) may remove `name`, given every account's role.
    static func removal(of name: String, by: String?, roles: [String: StaffRole]) -> StaffChange {
        guard let role = roles[name] else { return .noSuchAccount }
        if let by {
            if by == name { return .yourself }
            guard roles[by]?.mayManageAccounts == true else { return .notAllowed }
        }
        if role.mayManageAccounts && roles.values.filter(\.mayManageAccounts).count <= 1 { return .lastManager }
        return .done
    }

    /// Whether `name` may be given `role`: the last account that manages accounts keeps it.
    static func roleChange(of name: String, to role: StaffRole, roles: [String: StaffRole]) -> StaffChange {
        guard let old = roles[name] else { return .noSuchAccount }
        if old.mayManageAccounts && !role.mayManageAccounts && roles.values.filter(\.mayManageAccounts).count <= 1 { return .lastManager }
        return .done
    }

    /// Accounts' roles (issue 44 #14): every account from before is plain staff.
    static let accountRoleSchema = "ALTER TABLE staff_account ADD COLUMN role TEXT NOT NULL DEFAULT 'staff'"

    /// Whole days of activity, counted once (`staff_day`), and which days are counted.
    static let daysSchema = """
        CREATE TABLE staff_day (
            zone_offset INTEGER NOT NULL, day INTEGER NOT NULL, kind TEXT NOT NULL, subject TEXT NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (zone_offset, day, kind, subject));
        CREATE TABLE staff_day_done (zone_offset INTEGER NOT NULL, day INTEGER NOT NULL, PRIMARY KEY (zone_offset, day))
        """

    /// Past days are counted back at most this far (the charts show 30).
    static let rollUpDays = 60

    static func ranked(_ counts: [String: Int], limit: Int) -> [(subject: PulseSubject, count: Int)] {
        counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(limit).compactMap { kv in PulseSubject(kv.key).map { ($0, kv.value) } }
    }

    /// The marker a banned visitor's kept secret carries (no hashed secret starts so).
    static let bannedPrefix = "banned:"
}

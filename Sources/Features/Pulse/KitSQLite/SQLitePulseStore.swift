import PulseKit
import Foundation
import StoreSupport
import GRDB

/// Pulse in one SQLite file (WAL), shared by every guide process of a machine: the default
/// store, `$XDG_DATA_HOME/docent/pulse.sqlite` or `--pulse sqlite:PATH`.
///
/// Every write is one `BEGIN IMMEDIATE` transaction that checks the visitor, applies the rate
/// limit, changes the row, changes the counts by the difference and bumps the version, so
/// counts stay equal to a recount of the rows however many processes write at once. The rules
/// (who sees a note, what is kept) are `PulseRules`, the same the service will apply.
public final class SQLitePulseStore: PulseStore, Sendable {
    public let path: String
    public let rules: PulseRules
    private let dbQueue: DatabaseQueue
    /// Calls running on the queue's connection now (`poolUse`).
    private let busy = BusyCount()
    private let clock: @Sendable () -> Date

    /// How long a write waits for another process's transaction.
    public static let busyTimeout: TimeInterval = 5

    private init(path: String, dbQueue: DatabaseQueue, rules: PulseRules, clock: @escaping @Sendable () -> Date) {
        self.path = path
        self.dbQueue = dbQueue
        self.rules = rules
        self.clock = clock
    }

    /// `$XDG_DATA_HOME/docent/pulse.sqlite`, or `$HOME/.local/share/docent/pulse.sqlite`.
    public static func defaultPath(environment: [String: String]) -> String {
        Support.xdgPath("XDG_DATA_HOME", fallback: ".local/share", file: "pulse.sqlite", environment: environment)
    }

    /// Opens (creating it, and its directory if `createDirectory`) and migrates the file. A
    /// path someone typed (`--pulse sqlite:PATH`) gets no directories made up for it: a typo
    /// would otherwise leave a tree of them and a Pulse nobody else shares (issue 33 #15).
    public static func open(
        path: String, rules: PulseRules = .standard, createDirectory: Bool = true, clock: @escaping @Sendable () -> Date
    ) -> Result<SQLitePulseStore, LoadFailure> {
        let dir = Support.directory(of: path)
        if !createDirectory, !dir.isEmpty {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                return .failure(LoadFailure("the directory \(dir) does not exist: create it, or name another file"))
            }
        } else if !dir.isEmpty {
            do {
                try Support.makeDirectory(dir)
            } catch {
                return .failure(LoadFailure("cannot create the directory \(dir) for Pulse (\(Support.describe(error)))"))
            }
        }
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(busyTimeout)
        config.label = "docent.pulse"
        do {
            let q = try DatabaseQueue(path: path, configuration: config)
            try migrator.migrate(q)
            return .success(SQLitePulseStore(path: path, dbQueue: q, rules: rules, clock: clock))
        } catch {
            return .failure(LoadFailure("cannot open Pulse at \(path) (\(Self.describe(error)))"))
        }
    }

    /// The schema, as named migrations (never edited once shipped).
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("pulse-v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
                INSERT INTO meta (key, value) VALUES ('version', 0), ('seeded', 0);
                CREATE TABLE visitor (id TEXT PRIMARY KEY, secret TEXT NOT NULL, created REAL NOT NULL);
                CREATE TABLE note (
                    id TEXT PRIMARY KEY, visitor TEXT NOT NULL, seq INTEGER NOT NULL, subject TEXT NOT NULL,
                    language TEXT NOT NULL, text TEXT NOT NULL, created REAL NOT NULL,
                    author TEXT NOT NULL CHECK (author IN ('visitor', 'curator')),
                    reports INTEGER NOT NULL DEFAULT 0, decision TEXT, restored_at REAL);
                CREATE INDEX note_subject ON note (subject, created);
                CREATE TABLE reaction (
                    subject TEXT NOT NULL, visitor TEXT NOT NULL, value INTEGER NOT NULL CHECK (value IN (-1, 0, 1)),
                    at REAL NOT NULL, PRIMARY KEY (subject, visitor));
                CREATE INDEX reaction_visitor ON reaction (visitor);
                CREATE TABLE counts (
                    subject TEXT PRIMARY KEY, up INTEGER NOT NULL DEFAULT 0, meh INTEGER NOT NULL DEFAULT 0,
                    down INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE report (note TEXT NOT NULL, visitor TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (note, visitor));
                CREATE INDEX report_visitor ON report (visitor);
                CREATE TABLE featured (subject TEXT PRIMARY KEY, tier INTEGER NOT NULL, from_at REAL, until_at REAL);
                CREATE TABLE featured_tagline (subject TEXT NOT NULL, language TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (subject, language));
                CREATE TABLE announcement (
                    id TEXT PRIMARY KEY, style TEXT NOT NULL, feeds TEXT NOT NULL, positions TEXT NOT NULL,
                    languages TEXT NOT NULL, from_at REAL, until_at REAL, link TEXT);
                CREATE TABLE announcement_text (id TEXT NOT NULL, language TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (id, language));
                CREATE TABLE activity (subject TEXT NOT NULL, kind TEXT NOT NULL, visitor TEXT, at REAL NOT NULL);
                CREATE INDEX activity_at ON activity (at);
                CREATE INDEX activity_visitor ON activity (visitor, kind, at);
                """)
        }
        // Pulse in public (issue 32): coalesced plays (one row carries `n` events), curator
        // picks found without reading every note.
        m.registerMigration("pulse-public-v1") { db in
            try db.execute(sql: """
                ALTER TABLE activity ADD COLUMN n INTEGER NOT NULL DEFAULT 1;
                CREATE INDEX note_author ON note (author, subject);
                """)
        }
        // Later steps are described once (`PulseSchema.steps`) and rendered for each store.
        for (i, step) in PulseSchema.steps.enumerated() {
            m.registerMigration("pulse-schema-\(i + 1)") { db in
                for statement in PulseSchema.statements(step, .sqlite) { try db.execute(sql: statement) }
            }
        }
        return m
    }

    // MARK: PulseStore

    public func register(_ credentials: VisitorCredentials) async throws(PulseStoreError) {
        // The museum's namespace (`VisitorID.isReserved`) is nobody's to register.
        guard !credentials.visitor.isReserved else { throw .badCredentials }
        try await writeAsync { db, now in
            if let secret = try String.fetchOne(db, sql: "SELECT secret FROM visitor WHERE id = ?", arguments: [credentials.visitor.rawValue]) {
                guard secret == credentials.secret else { throw PulseStoreError.badCredentials }
                return false
            }
            try db.execute(sql: "INSERT INTO visitor (id, secret, created) VALUES (?, ?, ?)", arguments: [credentials.visitor.rawValue, credentials.secret, now.timeIntervalSince1970])
            return false  // nobody sees a new visitor: the version stays
        }
    }

    public func snapshot(viewer: VisitorID?, dayStart: Date, since: PulseVersion?) async throws(PulseStoreError) -> PulseSnapshot? {
        let now = clock()
        let rules = self.rules
        let sql = PulseRulesSQL(rules, .sqlite)
        return try await readAsync { db in
            let version = PulseVersion(try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'version'") ?? 0)
            if let since, since == version { return nil }
            var snap = PulseSnapshot(version: version, takenAt: now)
            for row in try Row.fetchAll(db, sql: "SELECT subject, up, meh, down FROM counts WHERE up + meh + down > 0 AND subject NOT LIKE 'note:%'") {
                guard let s = row.decoded("subject", as: String.self).flatMap(PulseSubject.init) else { continue }
                snap.counts[s] = Self.counts(row)
            }
            if let viewer {
                for row in try Row.fetchAll(db, sql: "SELECT subject, value FROM reaction WHERE visitor = ?", arguments: [viewer.rawValue]) {
                    guard let s = row.decoded("subject", as: String.self).flatMap(PulseSubject.init),
                        let v = row.decoded("value", as: Int.self).flatMap(ReactionValue.init(rawValue:))
                    else { continue }
                    snap.mine[s] = v
                }
                snap.myReports = try Self.reports(of: viewer, db)
            }
            // Counted by the database (`PulseRulesSQL`): no note is loaded.
            for row in try Row.fetchAll(db, sql: sql.noteCounts(now: now), arguments: [viewer?.rawValue]) {
                guard let s = (row[0] as String?).flatMap(PulseSubject.init), let n = row[1] as Int? else { continue }
                snap.noteCounts[s] = n
            }
            snap.curatorPicks = Set(try String.fetchAll(db, sql: "SELECT DISTINCT subject FROM note WHERE author = 'curator'").compactMap(PulseSubject.init))
            snap.featured = try Self.featured(db).filter { $0.isActive(at: now) }
            snap.announcements = try Self.announcements(db).filter { a in a.until.map { now < $0 } ?? true }
            let hour = now.addingTimeInterval(-rules.recentWindow).timeIntervalSince1970
            let day = dayStart.timeIntervalSince1970
            // The busiest `snapshotActivityLimit` subjects only: a flood of plays on random
            // subjects cannot grow the snapshot past that.
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT subject, SUM(CASE WHEN at >= ? THEN n ELSE 0 END) AS recent, SUM(CASE WHEN at >= ? THEN n ELSE 0 END) AS today, MAX(at) AS last
                    FROM activity WHERE kind IN ('play', 'reaction', 'note') AND at >= ? AND at <= ? GROUP BY subject
                    ORDER BY recent DESC, today DESC, subject LIMIT ?
                    """, arguments: [hour, day, min(hour, day), now.timeIntervalSince1970, rules.snapshotActivityLimit])
            {
                guard let s = row.decoded("subject", as: String.self).flatMap(PulseSubject.init) else { continue }
                snap.activity[s] = PulseActivitySummary(
                    recent: PulseBounds.wireCount(row.decoded("recent", as: Int.self) ?? 0), today: PulseBounds.wireCount(row.decoded("today", as: Int.self) ?? 0),
                    last: row.decoded("last", as: Double.self).map(PulseBounds.time))
            }
            return snap
        }
    }

    /// The newest page of the notes a viewer sees (`PulseRules.notesPage` of them): the
    /// guide's list is a page of the store, never every note of a subject.
    public func notes(on subject: PulseSubject, viewer: VisitorID?) async throws(PulseStoreError) -> [PulseNote] {
        try await notes(on: subject, viewer: viewer, after: nil, limit: rules.notesPage).notes
    }

    /// One page of the notes a viewer sees, after `cursor` (nil: the newest).
    public func notes(on subject: PulseSubject, viewer: VisitorID?, after cursor: PulseCursor?, limit: Int) async throws(PulseStoreError) -> PulsePage {
        let now = clock()
        let sql = PulseRulesSQL(rules, .sqlite).notesPage(now: now, limit: limit + 1)
        return try await readAsync { db in
            let rows = try Row.fetchAll(
                db, sql: sql,
                arguments: [viewer?.rawValue, subject.key, cursor?.created, cursor?.id.visitor.rawValue, cursor.map { Int64(bitPattern: $0.id.sequence) }])
            return Self.page(rows.compactMap { Self.note($0) }, limit: limit)
        }
    }

    /// Reported or score-hidden notes awaiting staff, oldest first, one page after `cursor`.
    public func moderationQueue(after cursor: PulseCursor?, limit: Int) async throws(PulseStoreError) -> PulsePage {
        try await page(PulseRulesSQL(rules, .sqlite).moderationQueue(limit: limit + 1), after: cursor, limit: limit)
    }

    /// One page of every visitor note, oldest first (the export's record, paged).
    public func exportNotes(after cursor: PulseCursor?, limit: Int) async throws(PulseStoreError) -> PulsePage {
        try await page(PulseRulesSQL(rules, .sqlite).exportNotes(limit: limit + 1), after: cursor, limit: limit)
    }

    /// One page of a query whose parameters 1 to 3 are the cursor (`limit + 1` rows asked).
    private func page(_ sql: String, after cursor: PulseCursor?, limit: Int) async throws(PulseStoreError) -> PulsePage {
        try await readAsync { db in
            let rows = try Row.fetchAll(db, sql: sql, arguments: [cursor?.created, cursor?.id.visitor.rawValue, cursor.map { Int64(bitPattern: $0.id.sequence) }])
            return Self.page(rows.compactMap { Self.note($0) }, limit: limit)
        }
    }

    /// `limit + 1` rows asked for: the extra one says whether there is a next page.
    public static func page(_ notes: [PulseNote], limit: Int) -> PulsePage {
        guard notes.count > limit, let last = notes.prefix(limit).last else { return PulsePage(notes: notes, next: nil) }
        return PulsePage(notes: Array(notes.prefix(limit)), next: PulseCursor(after: last))
    }

    /// The reaction's rules are `PulseRulesSQL.reaction`'s statements, the PostgreSQL store's too.
    public func react(_ value: ReactionValue?, on subject: PulseSubject, as credentials: VisitorCredentials) async throws(PulseStoreError) -> PulseCounts {
        let rules = self.rules
        let sql = PulseRulesSQL(rules, .sqlite).reaction
        return try await writeAsync { db, now in
            var args: [String: (any DatabaseValueConvertible)?] = [
                "visitor": credentials.visitor.rawValue, "secret": credentials.secret, "subject": subject.key, "value": value?.rawValue,
                "now": now.timeIntervalSince1970, "limit": rules.reactionsPerMinute,
            ]
            guard let d = try Row.fetchOne(db, sql: sql.decide, arguments: StatementArguments(args)) else { throw PulseStoreError.unavailable("no reaction outcome") }
            switch ReactionSQL.Outcome(rawValue: d["outcome"] ?? "") {
            case .badCredentials: throw PulseStoreError.badCredentials
            case .noSuchNote: throw PulseStoreError.noSuchNote(subject.noteID ?? NoteID(visitor: credentials.visitor, sequence: 0))
            case .rateLimited: throw PulseStoreError.rateLimited(.reactions(retryAfter: d["wait"] ?? 60))
            case .same: return (try Self.reactionCounts(sql, args, db), false)  // a retry changes nothing
            case .changed:
                // (As `DatabaseValue`: NULL stays a bound NULL, not a missing argument.)
                args["old"] = d["old"] as DatabaseValue
                args["target"] = d["target"] as DatabaseValue
                for statement in sql.write { try db.execute(sql: statement, arguments: StatementArguments(args)) }
                return (try Self.reactionCounts(sql, args, db), true)
            case nil: throw PulseStoreError.unavailable("no reaction outcome")
            }
        }
    }

    private static func reactionCounts(_ sql: ReactionSQL, _ args: [String: (any DatabaseValueConvertible)?], _ db: Database) throws -> PulseCounts {
        guard let row = try Row.fetchOne(db, sql: sql.counts, arguments: StatementArguments(args)) else { return .zero }
        return Self.counts(row)
    }

    /// A row's `up`, `meh` and `down`, each bounded (`count`). Issue 45: GRDB's subscript traps
    /// on a value it cannot convert, and SQLite turns a count of Int64.max plus one into a REAL
    /// (a shared pulse.sqlite damaged by one user crashed every user's guide).
    static func counts(_ row: GRDB.Row) -> PulseCounts {
        PulseCounts(up: count(row, "up"), meh: count(row, "meh"), down: count(row, "down"))
    }

    /// A count as stored, whatever its type: an integer or a real within ±`PulseBounds.maxCount`
    /// (the nearest limit when past it), anything else 0.
    static func count(_ row: GRDB.Row, _ column: String) -> Int {
        let value = row[column] as DatabaseValue
        switch value.storage {
        case .int64(let n): return PulseBounds.count(Int(n))
        case .double(let d) where !d.isNaN: return PulseBounds.count(Int(min(max(d, -Double(PulseBounds.maxCount)), Double(PulseBounds.maxCount))))
        default: return 0
        }
    }

    public func post(_ draft: NoteDraft, as credentials: VisitorCredentials) async throws(PulseStoreError) -> PostOutcome {
        let rules = self.rules
        let text: String
        switch NoteText.clean(draft.text) {
        case .success(let t): text = t
        case .failure(let p): throw .badText(p)
        }
        return try await writeAsync { db, now in
            try Self.check(credentials, db)
            guard draft.id.visitor == credentials.visitor else { throw PulseStoreError.badCredentials }
            if let row = try Row.fetchOne(db, sql: "SELECT subject, text FROM note WHERE id = ?", arguments: [draft.id.key]) {
                guard row.decoded("subject", as: String.self) == draft.subject.key, row.decoded("text", as: String.self) == text else {
                    throw PulseStoreError.conflict(draft.id)
                }
                guard let stored = try Self.notes(db, id: draft.id) else { throw PulseStoreError.noSuchNote(draft.id) }
                return (.alreadyStored(stored), false)
            }
            let recent = try Self.times(of: credentials.visitor, kinds: ["note"], since: now.addingTimeInterval(-3600), db)
            if let wait = PulseRules.check(recent, now: now, limit: rules.notesPerHour, per: 3600) { throw PulseStoreError.rateLimited(.notes(retryAfter: wait)) }
            try db.execute(
                sql: "INSERT INTO note (id, visitor, seq, subject, language, text, created, author) VALUES (?, ?, ?, ?, ?, ?, ?, 'visitor')",
                arguments: [draft.id.key, draft.id.visitor.rawValue, Int64(bitPattern: draft.id.sequence), draft.subject.key, draft.language.code, text, now.timeIntervalSince1970])
            try Self.activity(draft.subject, .note, credentials.visitor, now, db)
            guard let stored = try Self.notes(db, id: draft.id) else { throw PulseStoreError.noSuchNote(draft.id) }
            return (.created(stored), true)
        }
    }

    public func report(_ note: NoteID, _ reported: Bool, as credentials: VisitorCredentials) async throws(PulseStoreError) {
        let rules = self.rules
        try await writeAsync { db, now in
            try Self.check(credentials, db)
            guard try Self.noteExists(note, db) else { throw PulseStoreError.noSuchNote(note) }
            let existing = try Double.fetchOne(db, sql: "SELECT at FROM report WHERE note = ? AND visitor = ?", arguments: [note.key, credentials.visitor.rawValue])
            if reported == (existing != nil) { return false }  // a retry
            try Self.limitReactions(credentials.visitor, now: now, rules: rules, db)
            let restoredAt = try Double.fetchOne(db, sql: "SELECT restored_at FROM note WHERE id = ?", arguments: [note.key])
            if reported {
                try db.execute(sql: "INSERT INTO report (note, visitor, at) VALUES (?, ?, ?)", arguments: [note.key, credentials.visitor.rawValue, now.timeIntervalSince1970])
                try db.execute(sql: "UPDATE note SET reports = reports + 1 WHERE id = ?", arguments: [note.key])
            } else {
                try db.execute(sql: "DELETE FROM report WHERE note = ? AND visitor = ?", arguments: [note.key, credentials.visitor.rawValue])
                // A report made before staff restored the note no longer counted.
                if let at = existing, at > (restoredAt ?? -Double.infinity) {
                    try db.execute(sql: "UPDATE note SET reports = reports - 1 WHERE id = ?", arguments: [note.key])
                }
            }
            try db.execute(sql: "INSERT INTO activity (subject, kind, visitor, at) VALUES (?, 'report', ?, ?)", arguments: [PulseSubject.note(note).key, credentials.visitor.rawValue, now.timeIntervalSince1970])
            return true
        }
    }

    public func deleteOwnNote(_ note: NoteID, as credentials: VisitorCredentials) async throws(PulseStoreError) {
        try await writeAsync { db, _ in
            try Self.check(credentials, db)
            guard note.visitor == credentials.visitor,
                try Int.fetchOne(db, sql: "SELECT 1 FROM note WHERE id = ? AND author = 'visitor'", arguments: [note.key]) != nil
            else { throw PulseStoreError.noSuchNote(note) }
            try Self.deleteNote(db, note.key)
            return true
        }
    }

    public func recordPlay(_ subject: PulseSubject) async throws(PulseStoreError) {
        try await recordPlays([subject: 1])
    }

    /// Plays gathered by the service over a few seconds, in one transaction and one version
    /// step (issue 32: a flood of plays moves the snapshot once per flush, not once a play).
    /// Plays as one write; `versionStep: false` leaves the version where it is (the service
    /// steps it once per interval for many batches); an empty batch with a step is the step.
    public func recordPlays(_ plays: [PulseSubject: Int], versionStep: Bool = true) async throws(PulseStoreError) {
        guard !plays.isEmpty || versionStep else { return }
        try await writeAsync { db, now in
            for (subject, n) in plays where n > 0 {
                try db.execute(
                    sql: "INSERT INTO activity (subject, kind, visitor, at, n) VALUES (?, 'play', NULL, ?, ?)",
                    arguments: [subject.key, now.timeIntervalSince1970, PulseBounds.wireCount(n)])
            }
            return versionStep
        }
    }

    public func seedIfEmpty(_ seed: PulseSeed) async throws(PulseStoreError) -> Bool {
        try await writeAsync { db, now in
            guard try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'seeded'") == 0 else { return (false, false) }
            try db.execute(sql: "UPDATE meta SET value = 1 WHERE key = 'seeded'")
            try Self.insert(seed, db, now: now)
            return (true, true)
        }
    }

    /// A seed's featured subjects, curator notes and announcements, each put in or replacing
    /// the one with its subject, sequence or id (a curator note's text is corrected, its votes
    /// and reports kept); what the seed does not name is left as it is.
    static func insert(_ seed: PulseSeed, _ db: Database, now: Date) throws {
        for f in seed.featured {
            try db.execute(
                sql: "INSERT OR REPLACE INTO featured (subject, tier, from_at, until_at) VALUES (?, ?, ?, ?)",
                arguments: [f.subject.key, f.tier, f.from?.timeIntervalSince1970, f.until?.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM featured_tagline WHERE subject = ?", arguments: [f.subject.key])
            for (lang, text) in f.taglines {
                try db.execute(sql: "INSERT OR REPLACE INTO featured_tagline (subject, language, text) VALUES (?, ?, ?)", arguments: [f.subject.key, lang.code, text])
            }
        }
        for n in seed.notes {
            let id = NoteID(visitor: .curator, sequence: n.sequence)
            try db.execute(
                sql: """
                    INSERT INTO note (id, visitor, seq, subject, language, text, created, author) VALUES (?, ?, ?, ?, ?, ?, ?, 'curator')
                    ON CONFLICT (id) DO UPDATE SET subject = excluded.subject, language = excluded.language, text = excluded.text
                    """,
                arguments: [id.key, id.visitor.rawValue, Int64(bitPattern: n.sequence), n.subject.key, n.language.code, n.text, now.timeIntervalSince1970])
        }
        for a in seed.announcements {
            try db.execute(
                sql: "INSERT OR REPLACE INTO announcement (id, style, feeds, positions, languages, from_at, until_at, link) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    a.id, a.style.rawValue, a.feeds.map(\.source).joined(separator: "\n"), a.positions.map(String.init).joined(separator: ","),
                    a.languages.map(\.code).joined(separator: ","), a.from?.timeIntervalSince1970, a.until?.timeIntervalSince1970, a.link,
                ])
            try db.execute(sql: "DELETE FROM announcement_text WHERE id = ?", arguments: [a.id])
            for (lang, text) in a.text {
                try db.execute(sql: "INSERT OR REPLACE INTO announcement_text (id, language, text) VALUES (?, ?, ?)", arguments: [a.id, lang.code, text])
            }
        }
    }

    /// Staff: a seed applied whatever the store holds (`docent-pulse seed`, `feature`,
    /// `announce`); every guide sees it at its next check.
    public func apply(_ seed: PulseSeed) async throws(PulseStoreError) {
        try await writeAsync { db, now in
            try Self.insert(seed, db, now: now)
            return true
        }
    }

    /// Staff: everything the store holds but its visitors (`docent-pulse export`).
    /// Everything but the visitors; `visitorNotes: false` leaves visitors' notes out (the
    /// service pages them, `exportNotes`).
    public func export(visitorNotes: Bool) async throws(PulseStoreError) -> PulseExport {
        try await readAsync { db in
            var out = PulseExport(version: PulseVersion(try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'version'") ?? 0))
            out.featured = try Self.featured(db)
            out.announcements = try Self.announcements(db)
            out.notes = visitorNotes ? try Self.notes(db, subject: nil) : try Row.fetchAll(db, sql: Self.noteColumns + " WHERE n.author = 'curator'").compactMap { Self.note($0) }
            for row in try Row.fetchAll(db, sql: "SELECT subject, up, meh, down FROM counts WHERE subject NOT LIKE 'note:%'") {
                guard let s = row.decoded("subject", as: String.self).flatMap(PulseSubject.init) else { continue }
                out.counts[s] = Self.counts(row)
            }
            return out
        }
    }

    // MARK: What the Pulse service asks besides the protocol

    /// Succeeds when the visitor is known with this secret (a read that names a viewer).
    public func authenticate(_ credentials: VisitorCredentials) async throws(PulseStoreError) {
        try await readAsync { db in try Self.check(credentials, db) }
    }

    /// The visitor's reaction to a subject, if any.
    public func reaction(of visitor: VisitorID, on subject: PulseSubject) async throws(PulseStoreError) -> ReactionValue? {
        try await readAsync { db in
            try Int.fetchOne(db, sql: "SELECT value FROM reaction WHERE subject = ? AND visitor = ?", arguments: [subject.key, visitor.rawValue])
                .flatMap(ReactionValue.init(rawValue:))
        }
    }

    /// A subject's kept counts.
    public func counts(of subject: PulseSubject) async throws(PulseStoreError) -> PulseCounts {
        try await readAsync { db in try Self.counts(subject, db) }
    }

    /// Reported notes awaiting a staff decision (none yet, or restored and reported again),
    /// oldest first.
    public func moderationQueue() async throws(PulseStoreError) -> [PulseNote] {
        try await PulsePage.all { cursor throws(PulseStoreError) in try await moderationQueue(after: cursor, limit: 500) }
    }

    public func decide(_ note: NoteID, _ decision: StaffDecision) async throws(PulseStoreError) -> PulseNote {
        try await writeAsync { db, now in
            guard try Self.noteExists(note, db) else { throw PulseStoreError.noSuchNote(note) }
            if decision == .restored {
                try db.execute(sql: "UPDATE note SET decision = 'restored', reports = 0, restored_at = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, note.key])
            } else {
                try db.execute(sql: "UPDATE note SET decision = ? WHERE id = ?", arguments: [decision.rawValue, note.key])
            }
            guard let n = try Self.notes(db, id: note) else { throw PulseStoreError.noSuchNote(note) }
            return (n, true)
        }
    }

    // MARK: Upkeep and checks

    /// Deletes notes past retention (keeping highlights) with their reactions and reports, and
    /// activity older than two days. Answers how many notes went.
    @discardableResult
    public func purge() throws(PulseStoreError) -> Int {
        let sql = PulseRulesSQL(rules, .sqlite)
        return try write { db, now in
            let gone = try Self.purge(db, now: now, expired: sql.expired(now: now), activityBefore: now.addingTimeInterval(-2 * 86400))
            return (gone, gone > 0)
        }
    }

    /// The service's scheduled purge (`docent-pulse serve --purge-every`): notes past
    /// retention, then what `ages` lets go (activity, reports on notes staff decided, abandoned
    /// visitors; `PulsePurgeAges`). Answers how many notes went.
    /// Rows deleted in one transaction of the purge: the purge of a big store is many short
    /// transactions, so the writes of guides and staff get in between (one transaction over
    /// 100,000 notes and a year of activity held the lock past the 5 s busy timeout, and staff
    /// sign-ins failed as "locked").
    public static let purgeChunk = 500

    public func purgeExpired(_ ages: PulsePurgeAges) async throws(PulseStoreError) -> Int {
        let sql = PulseRulesSQL(rules, .sqlite)
        let chunk = Self.purgeChunk
        let retention = rules.retention
        // Which notes are past retention is read without the write lock (WAL: a read does not
        // block writers; the query ranks every note, 0.8 s for 100,000). Each chunk is deleted
        // in its own short transaction, checking again what can change meanwhile: a note
        // pinned, or the clock (a note younger than retention is never deleted).
        let expired = try await readAsync { db in try String.fetchAll(db, sql: sql.expired(now: self.clock())) }
        var total = 0
        var start = 0
        while start < expired.count, !Task.isCancelled {
            let slice = Array(expired[start..<min(start + chunk, expired.count)])
            start += chunk
            let gone: Int = try await writeAsync { db, now in
                let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
                var arguments = StatementArguments(slice)
                arguments += [now.timeIntervalSince1970 - retention]
                let ids = try String.fetchAll(
                    db,
                    sql: "SELECT id FROM note WHERE id IN (\(marks)) AND author <> 'curator' AND COALESCE(decision, '') <> 'pinned' AND created <= ?",
                    arguments: arguments)
                for id in ids { try Self.deleteNote(db, id) }
                return (ids.count, !ids.isEmpty)
            }
            total += gone
        }
        // Activity past its retention; reports on decided notes past theirs (the reporter's
        // view of the note follows: a report no longer hides it for them, so the version
        // moves); then abandoned visitors, registered long ago with nothing left of theirs
        // (the reports just gone may have been the last). Each in chunks, as the notes.
        let deletes: [(sql: String, age: TimeInterval)] = [
            ("DELETE FROM activity WHERE rowid IN (SELECT rowid FROM activity WHERE at < ? LIMIT \(chunk * 10))", ages.activity),
            (sql.decidedReports(limit: chunk * 10), ages.decidedReports),
            (
                """
                DELETE FROM visitor WHERE rowid IN (SELECT rowid FROM visitor WHERE created < ? AND NOT EXISTS (SELECT 1 FROM note WHERE note.visitor = visitor.id)
                  AND NOT EXISTS (SELECT 1 FROM reaction WHERE reaction.visitor = visitor.id) AND NOT EXISTS (SELECT 1 FROM report WHERE report.visitor = visitor.id)
                  LIMIT \(chunk * 10))
                """, ages.abandonedVisitors
            ),
        ]
        for (i, delete) in deletes.enumerated() {
            while !Task.isCancelled {
                let n: Int = try await writeAsync { db, now in
                    try db.execute(sql: delete.sql, arguments: [now.addingTimeInterval(-max(0, delete.age)).timeIntervalSince1970])
                    let n = db.changesCount
                    guard i == 1, n > 0 else { return (n, false) }
                    // A pinned note's reports still counted: its count follows the rows left.
                    try db.execute(sql: sql.pinnedReportCounts)
                    return (n, true)
                }
                if n < chunk * 10 { break }
            }
        }
        return total
    }

    /// A note gone with its reactions, counts and reports.
    private static func deleteNote(_ db: Database, _ id: String) throws {
        let s = "note:" + id
        try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM reaction WHERE subject = ?", arguments: [s])
        try db.execute(sql: "DELETE FROM counts WHERE subject = ?", arguments: [s])
        try db.execute(sql: "DELETE FROM report WHERE note = ?", arguments: [id])
    }

    /// A guide's purge, set by set: the expired ids into a temporary table, then each table's
    /// rows of them in one statement (note by note, a file left unpurged with 250,000 expired
    /// notes took 31 s at the guide's start).
    private static func purge(_ db: Database, now: Date, expired: String, activityBefore: Date) throws -> Int {
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS purged (id TEXT PRIMARY KEY); DELETE FROM temp.purged")
        try db.execute(sql: "INSERT OR IGNORE INTO temp.purged (id) SELECT id FROM (\(expired)) AS expired")
        let gone = db.changesCount
        if gone > 0 {
            try db.execute(sql: """
                DELETE FROM note WHERE id IN (SELECT id FROM temp.purged);
                DELETE FROM reaction WHERE subject IN (SELECT 'note:' || id FROM temp.purged);
                DELETE FROM counts WHERE subject IN (SELECT 'note:' || id FROM temp.purged);
                DELETE FROM report WHERE note IN (SELECT id FROM temp.purged);
                DELETE FROM temp.purged;
                """)
        }
        try db.execute(sql: "DELETE FROM activity WHERE at < ?", arguments: [activityBefore.timeIntervalSince1970])
        return gone
    }

    /// Subjects whose kept counts differ from a recount of the reaction rows (empty: exact),
    /// and notes whose report count differs from their counting reports.
    public func recountMismatches() throws(PulseStoreError) -> [String] {
        try read { db in
            var out: [String] = []
            var rows: [String: [ReactionValue]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT subject, value FROM reaction") {
                if let s = row.decoded("subject", as: String.self), let v = row.decoded("value", as: Int.self).flatMap(ReactionValue.init(rawValue:)) {
                    rows[s, default: []].append(v)
                }
            }
            var kept: [String: PulseCounts] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT subject, up, meh, down FROM counts") {
                if let s = row.decoded("subject", as: String.self) {
                    kept[s] = PulseCounts(up: row.decoded("up", as: Int.self) ?? -1, meh: row.decoded("meh", as: Int.self) ?? -1, down: row.decoded("down", as: Int.self) ?? -1)
                }
            }
            for s in Set(rows.keys).union(kept.keys).sorted() {
                let recount = PulseCounts.recount(rows[s] ?? [])
                let stored = kept[s] ?? .zero
                if recount != stored { out.append("\(s): kept \(stored), rows \(recount)") }
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT n.id, n.reports, (SELECT COUNT(*) FROM report r WHERE r.note = n.id AND r.at > COALESCE(n.restored_at, -1e300)) AS actual
                    FROM note n
                    """)
            where row.decoded("reports", as: Int.self) != row.decoded("actual", as: Int.self) {
                out.append("note \(row.decoded("id", as: String.self) ?? "?"): reports")
            }
            return out
        }
    }

    /// Whether the file answers now (`/readyz`).
    public func ready() async throws(PulseStoreError) {
        let _: Int = try await readAsync { db in try Int.fetchOne(db, sql: "SELECT 1") ?? 0 }
    }

    /// The store's version (tests; the snapshot carries it too).
    public func version() throws(PulseStoreError) -> PulseVersion {
        try read { db in PulseVersion(try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'version'") ?? 0) }
    }

    // MARK: The connection

    /// The store's use of its database connection, for `/metrics`: GRDB's `DatabaseQueue` is
    /// one connection that reads and writes in turn, so the most is 1, and it is in use while
    /// a call runs on it (counted by the store around each call, as GRDB says nothing of it).
    public func poolUse() async -> DatabasePoolUse {
        let n = min(busy.count, 1)
        return DatabasePoolUse(inUse: n, idle: 1 - n, max: 1)
    }

    // MARK: Transactions

    /// One immediate transaction; `body` answers its result and whether anything visible
    /// changed (then the version grows in the same transaction).
    private func write<T>(_ body: @escaping (Database, Date) throws -> (T, Bool)) throws(PulseStoreError) -> T {
        let now = clock()
        do {
            return try dbQueue.writeWithoutTransaction { db in try self.transaction(db, now, body) }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// What `write` and `writeAsync` run on GRDB's writer: the transaction, the version bump.
    private func transaction<T>(_ db: Database, _ now: Date, _ body: (Database, Date) throws -> (T, Bool)) throws -> T {
        busy.enter()
        defer { busy.leave() }
        var result: T?
        try db.inTransaction(.immediate) {
            let (value, changed) = try body(db, now)
            if changed { try db.execute(sql: "UPDATE meta SET value = value + 1 WHERE key = 'version'") }
            result = value
            return .commit
        }
        guard let result else { throw PulseStoreError.unavailable("no result") }
        return result
    }

    /// A store error as it is, anything else (GRDB's, the file system's) as `unavailable`.
    private static func storeError(_ error: any Error) -> PulseStoreError {
        (error as? PulseStoreError) ?? .unavailable(describe(error))
    }

    private func write(_ body: @escaping (Database, Date) throws -> Bool) throws(PulseStoreError) {
        let _: Void = try write { db, now in ((), try body(db, now)) }
    }

    /// The service's and the guide's calls: on GRDB's own queue, never blocking the caller's
    /// thread (issue 32: no synchronous SQLite inside an `async` handler on the event loops'
    /// two-thread pool).
    private func writeAsync<T: Sendable>(_ body: @escaping @Sendable (Database, Date) throws -> (T, Bool)) async throws(PulseStoreError) -> T {
        let now = clock()
        do {
            return try await dbQueue.writeWithoutTransaction { db in try self.transaction(db, now, body) }
        } catch {
            throw Self.storeError(error)
        }
    }

    private func writeAsync(_ body: @escaping @Sendable (Database, Date) throws -> Bool) async throws(PulseStoreError) {
        let _: Bool = try await writeAsync { db, now in
            let changed = try body(db, now)
            return (changed, changed)
        }
    }

    private func readAsync<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(PulseStoreError) -> T {
        do {
            return try await dbQueue.read { db in try self.counted(db, body) }
        } catch {
            throw Self.storeError(error)
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(PulseStoreError) -> T {
        do {
            return try dbQueue.read { db in try self.counted(db, body) }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// What `read` and `readAsync` run on GRDB's reader: `body`, counted as a use of the
    /// connection (`poolUse`).
    private func counted<T>(_ db: Database, _ body: (Database) throws -> T) rethrows -> T {
        busy.enter()
        defer { busy.leave() }
        return try body(db)
    }

    static func describe(_ error: any Error) -> String {
        if let d = error as? DatabaseError { return d.message ?? "SQLite error \(d.resultCode.rawValue)" }
        return Support.describe(error)
    }

    // MARK: Queries

    private static func check(_ c: VisitorCredentials, _ db: Database) throws {
        guard try String.fetchOne(db, sql: "SELECT secret FROM visitor WHERE id = ?", arguments: [c.visitor.rawValue]) == c.secret else {
            throw PulseStoreError.badCredentials
        }
    }

    private static func limitReactions(_ v: VisitorID, now: Date, rules: PulseRules, _ db: Database) throws {
        let recent = try times(of: v, kinds: ["reaction", "report"], since: now.addingTimeInterval(-60), db)
        if let wait = PulseRules.check(recent, now: now, limit: rules.reactionsPerMinute, per: 60) { throw PulseStoreError.rateLimited(.reactions(retryAfter: wait)) }
    }

    private static func times(of v: VisitorID, kinds: [String], since: Date, _ db: Database) throws -> [Date] {
        let marks = kinds.map { _ in "?" }.joined(separator: ",")
        return try Double.fetchAll(
            db, sql: "SELECT at FROM activity WHERE visitor = ? AND kind IN (\(marks)) AND at > ?",
            arguments: StatementArguments([v.rawValue] + kinds + [String(since.timeIntervalSince1970)]) ?? []
        ).map(Date.init(timeIntervalSince1970:))
    }

    private static func activity(_ s: PulseSubject, _ kind: PulseActivity.Kind, _ v: VisitorID?, _ at: Date, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO activity (subject, kind, visitor, at) VALUES (?, ?, ?, ?)", arguments: [s.key, kind.rawValue, v?.rawValue, at.timeIntervalSince1970])
    }

    private static func counts(_ s: PulseSubject, _ db: Database) throws -> PulseCounts {
        guard let row = try Row.fetchOne(db, sql: "SELECT up, meh, down FROM counts WHERE subject = ?", arguments: [s.key]) else { return .zero }
        return Self.counts(row)
    }

    private static func noteExists(_ id: NoteID, _ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT 1 FROM note WHERE id = ?", arguments: [id.key]) != nil
    }

    private static func reports(of v: VisitorID, _ db: Database) throws -> Set<NoteID> {
        Set(try String.fetchAll(db, sql: "SELECT note FROM report WHERE visitor = ?", arguments: [v.rawValue]).compactMap { NoteID(key: $0) })
    }

    private static let noteColumns = """
        SELECT n.id, n.subject, n.language, CAST(n.text AS BLOB) AS text, n.created, n.author, n.reports, n.decision,
               COALESCE(c.up, 0) AS up, COALESCE(c.meh, 0) AS meh, COALESCE(c.down, 0) AS down
        FROM note n LEFT JOIN counts c ON c.subject = 'note:' || n.id
        """

    private static func notes(_ db: Database, subject: PulseSubject?) throws -> [PulseNote] {
        let rows =
            try subject.map { try Row.fetchAll(db, sql: noteColumns + " WHERE n.subject = ?", arguments: [$0.key]) }
            ?? Row.fetchAll(db, sql: noteColumns)
        return rows.compactMap { Self.note($0) }
    }

    private static func notes(_ db: Database, id: NoteID) throws -> PulseNote? {
        try Row.fetchOne(db, sql: noteColumns + " WHERE n.id = ?", arguments: [id.key]).flatMap { Self.note($0) }
    }

    /// A row that cannot be read as a note is left out, never a crash.
    private static func note(_ row: GRDB.Row) -> PulseNote? {
        guard let id = row.decoded("id", as: String.self).flatMap({ NoteID(key: $0) }),
            let subject = row.decoded("subject", as: String.self).flatMap(PulseSubject.init),
            let lang = row.decoded("language", as: String.self).flatMap(Language.fromTag),
            let text = row.wholeText("text"), let created = row.decoded("created", as: Double.self)
        else { return nil }
        return PulseNote(
            id: id, subject: subject, language: lang, text: NoteText.normalise(text), createdAt: Date(timeIntervalSince1970: created),
            author: row.decoded("author", as: String.self) == "curator" ? .curator : .visitor,
            counts: Self.counts(row),
            reports: row.decoded("reports", as: Int.self) ?? 0, decision: row.decoded("decision", as: String.self).flatMap(StaffDecision.init(rawValue:)))
    }

    private static func featured(_ db: Database) throws -> [PulseFeatured] {
        var taglines: [String: [Language: String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT subject, language, CAST(text AS BLOB) AS text FROM featured_tagline") {
            if let s = row.decoded("subject", as: String.self), let l = row.decoded("language", as: String.self).flatMap(Language.fromTag), let t = row.wholeText("text") {
                taglines[s, default: [:]][l] = t
            }
        }
        return try Row.fetchAll(db, sql: "SELECT subject, tier, from_at, until_at FROM featured ORDER BY subject").compactMap { row in
            guard let key = row.decoded("subject", as: String.self), let s = PulseSubject(key), let tier = row.decoded("tier", as: Int.self) else { return nil }
            return PulseFeatured(
                subject: s, tier: tier, taglines: taglines[key] ?? [:], from: row.decoded("from_at", as: Double.self).map(Date.init(timeIntervalSince1970:)),
                until: row.decoded("until_at", as: Double.self).map(Date.init(timeIntervalSince1970:)))
        }
    }

    /// Announcements; one whose patterns no longer compile is left out.
    private static func announcements(_ db: Database) throws -> [PulseAnnouncement] {
        var texts: [String: [Language: String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, language, CAST(text AS BLOB) AS text FROM announcement_text") {
            if let s = row.decoded("id", as: String.self), let l = row.decoded("language", as: String.self).flatMap(Language.fromTag), let t = row.wholeText("text") {
                texts[s, default: [:]][l] = t
            }
        }
        return try Row.fetchAll(db, sql: "SELECT * FROM announcement ORDER BY id").compactMap { row in
            guard let id = row.decoded("id", as: String.self), let style = row.decoded("style", as: String.self).flatMap(PulseAnnouncement.Style.init),
                let feedText = row.decoded("feeds", as: String.self)
            else { return nil }
            let feeds = feedText.split(separator: "\n").compactMap { PulsePattern(String($0)) }
            guard !feeds.isEmpty else { return nil }
            return PulseAnnouncement(
                id: id, feeds: feeds, positions: (row.decoded("positions", as: String.self) ?? "").split(separator: ",").compactMap { Int($0) },
                style: style, languages: (row.decoded("languages", as: String.self) ?? "").split(separator: ",").compactMap { Language.fromTag(String($0)) },
                from: row.decoded("from_at", as: Double.self).map(Date.init(timeIntervalSince1970:)),
                until: row.decoded("until_at", as: Double.self).map(Date.init(timeIntervalSince1970:)), text: texts[id] ?? [:], link: row.decoded("link", as: String.self))
        }
    }
}

/// How a store uses its database connections, at one moment (`/metrics`).
public struct DatabasePoolUse: Equatable, Sendable {
    /// Connections running a call now.
    public var inUse: Int
    /// Open connections waiting for one.
    public var idle: Int
    /// The most the store opens.
    public var max: Int
    public init(inUse: Int, idle: Int, max: Int) {
        self.inUse = inUse
        self.idle = idle
        self.max = max
    }
}

/// Calls under way, counted under a lock.
final class BusyCount: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func enter() { lock.withLock { n += 1 } }
    func leave() { lock.withLock { n -= 1 } }
    var count: Int { lock.withLock { n } }
}

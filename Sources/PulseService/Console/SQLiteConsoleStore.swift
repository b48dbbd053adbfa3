import PulseKit
import Foundation
import GRDB
import PulseKitSQLite

/// The console's store over the Pulse SQLite file (`SQLitePulseStore`'s), with its own
/// migrations (`staff-…`) in the same file. Calls go through GRDB's async API (its own serial
/// queue), never blocking the service's event loops.
public final class SQLiteConsoleStore: ConsoleStore, Sendable {
    private let dbQueue: DatabaseQueue
    private let clock: @Sendable () -> Date

    private init(dbQueue: DatabaseQueue, clock: @escaping @Sendable () -> Date) {
        self.dbQueue = dbQueue
        self.clock = clock
    }

    /// Opens the Pulse file (creating and migrating Pulse's schema first), then adds the
    /// console's tables.
    public static func open(path: String, createDirectory: Bool = true, clock: @escaping @Sendable () -> Date) -> Result<SQLiteConsoleStore, LoadFailure> {
        if case .failure(let f) = SQLitePulseStore.open(path: path, createDirectory: createDirectory, clock: clock) { return .failure(f) }
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(SQLitePulseStore.busyTimeout)
        config.label = "docent.console"
        // The console reads wide (the queue's notes by the thousand, 30 days of day counts):
        // with SQLite's default 2 MB of cache each page came again from the file by a system
        // call, a quarter of the queue page's time on 100,000 notes. Its pages stay instead,
        // up to this much (a cache grows only as pages are read).
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(Self.cacheKiB)") }
        do {
            let q = try DatabaseQueue(path: path, configuration: config)
            try migrator.migrate(q)
            return .success(SQLiteConsoleStore(dbQueue: q, clock: clock))
        } catch {
            return .failure(LoadFailure("cannot open the staff tables at \(path) (\(error))"))
        }
    }

    /// The console connection's page cache, in KiB (`PRAGMA cache_size`).
    static let cacheKiB = 64 * 1024

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("staff-v1") { db in
            try db.execute(sql: """
                CREATE TABLE staff_account (name TEXT PRIMARY KEY, hash TEXT NOT NULL, created REAL NOT NULL);
                CREATE TABLE staff_session (id TEXT PRIMARY KEY, staff TEXT NOT NULL, csrf TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL);
                CREATE INDEX staff_session_expires ON staff_session (expires);
                CREATE TABLE staff_failure (key TEXT PRIMARY KEY, count INTEGER NOT NULL, last_at REAL NOT NULL);
                CREATE TABLE staff_audit (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, staff TEXT NOT NULL, action TEXT NOT NULL,
                    target TEXT NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL);
                CREATE INDEX staff_audit_at ON staff_audit (at);
                CREATE TABLE staff_ban (visitor TEXT PRIMARY KEY, at REAL NOT NULL, staff TEXT NOT NULL);
                CREATE INDEX staff_note_reported ON note (created) WHERE reports > 0;
                CREATE INDEX staff_note_visitor ON note (visitor);
                CREATE INDEX staff_note_removed ON note (created) WHERE decision = 'removed';
                CREATE INDEX staff_counts_score ON counts (up - down);
                CREATE INDEX staff_activity_at_kind ON activity (at, kind, subject);
                """)
        }
        m.registerMigration("staff-v2-days") { db in
            try db.execute(sql: ConsoleSQL.daysSchema)
        }
        m.registerMigration("staff-v3-session-credential") { db in
            try db.execute(sql: ConsoleSQL.sessionCredentialSchema)
        }
        m.registerMigration("staff-v4-account-role") { db in
            try db.execute(sql: ConsoleSQL.accountRoleSchema)
        }
        // The Pulse page's per-subject counts (most played, the tours' stops) read one kind's
        // rows of the day table, not every kind's (an index only: the rows stay as they are).
        m.registerMigration("staff-v5-day-kind") { db in
            try db.execute(sql: "CREATE INDEX staff_day_kind ON staff_day (zone_offset, kind, subject, day, n)")
        }
        // The Pulse page's 30 days by kind read their counts from an index holding them, not
        // each row of the table by its key (58,000 rows: 15 → 9 ms, `sqlite3 .timer`).
        m.registerMigration("staff-v6-day-totals") { db in
            try db.execute(sql: "CREATE INDEX staff_day_totals ON staff_day (zone_offset, day, kind, n)")
        }
        return m
    }

    // MARK: Plumbing

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(PulseStoreError) -> T {
        do { return try await dbQueue.read(body) } catch let e as PulseStoreError { throw e } catch { throw .unavailable(Self.describe(error)) }
    }

    /// One immediate transaction; `bump`: guides must see it (the store's version grows).
    private func write<T: Sendable>(bump: Bool = false, _ body: @escaping @Sendable (Database, Double) throws -> (T, Bool)) async throws(PulseStoreError) -> T {
        let now = clock().timeIntervalSince1970
        do {
            return try await dbQueue.write { db in
                let (value, changed) = try body(db, now)
                if bump && changed { try db.execute(sql: "UPDATE meta SET value = value + 1 WHERE key = 'version'") }
                return value
            }
        } catch let e as PulseStoreError { throw e } catch { throw .unavailable(Self.describe(error)) }
    }

    static func describe(_ error: any Error) -> String {
        if let d = error as? DatabaseError { return d.message ?? "SQLite error \(d.resultCode.rawValue)" }
        return String(describing: error)
    }

    private static func notes(_ db: Database, _ sql: String, _ args: StatementArguments) throws -> [PulseNote] {
        try Row.fetchAll(db, sql: sql, arguments: args).compactMap { r in
            ConsoleSQL.note(
                id: r["id"], subject: r["subject"], language: r["language"], text: r["text"], created: r["created"], author: r["author"], reports: r["reports"],
                decision: r["decision"], up: r["up"], meh: r["meh"], down: r["down"])
        }
    }

    // MARK: Staff accounts and sign-in

    public func putStaff(name: String, passwordHash: String) async throws(PulseStoreError) {
        let _: Void = try await write { db, now in
            let old = try String.fetchOne(db, sql: "SELECT hash FROM staff_account WHERE name = ?", arguments: [name])
            try db.execute(
                sql: "INSERT INTO staff_account (name, hash, created) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET hash = excluded.hash",
                arguments: [name, passwordHash, now])
            // A new password ends the account's sessions (they were tied to the old one).
            if let old, old != passwordHash { try db.execute(sql: "DELETE FROM staff_session WHERE staff = ?", arguments: [name]) }
            return ((), true)
        }
    }

    public func staffAccounts() async throws(PulseStoreError) -> [StaffAccount] {
        let now = clock().timeIntervalSince1970
        return try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT a.name, a.role, a.created, (SELECT COUNT(*) FROM staff_session s WHERE s.staff = a.name AND s.expires > ?) AS sessions FROM staff_account a ORDER BY a.name",
                arguments: [now]
            ).map { r in
                StaffAccount(name: r["name"], role: StaffRole(rawValue: r["role"]) ?? .staff, created: Date(timeIntervalSince1970: r["created"]), sessions: r["sessions"])
            }
        }
    }

    public func staffHashAndRole(name: String) async throws(PulseStoreError) -> (hash: String, role: StaffRole)? {
        try await read { db in
            guard let r = try Row.fetchOne(db, sql: "SELECT hash, role FROM staff_account WHERE name = ?", arguments: [name]) else { return nil }
            return (r["hash"], StaffRole(rawValue: r["role"]) ?? .staff)
        }
    }

    public func addStaff(name: String, passwordHash: String, role: StaffRole) async throws(PulseStoreError) -> Bool {
        try await write { db, now in
            try db.execute(
                sql: "INSERT INTO staff_account (name, hash, created, role) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING",
                arguments: [name, passwordHash, now, role.rawValue])
            return (db.changesCount > 0, false)
        }
    }

    public func setStaffPassword(name: String, passwordHash: String) async throws(PulseStoreError) -> Bool {
        try await write { db, _ in
            try db.execute(sql: "UPDATE staff_account SET hash = ? WHERE name = ?", arguments: [passwordHash, name])
            guard db.changesCount > 0 else { return (false, false) }
            try db.execute(sql: "DELETE FROM staff_session WHERE staff = ?", arguments: [name])
            return (true, false)
        }
    }

    public func endStaffSessions(name: String) async throws(PulseStoreError) -> Int {
        try await write { db, now in
            let open = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM staff_session WHERE staff = ? AND expires > ?", arguments: [name, now]) ?? 0
            try db.execute(sql: "DELETE FROM staff_session WHERE staff = ?", arguments: [name])
            return (open, false)
        }
    }

    private static func roles(_ db: Database) throws -> [String: StaffRole] {
        var out: [String: StaffRole] = [:]
        for r in try Row.fetchAll(db, sql: "SELECT name, role FROM staff_account") {
            let name: String = r["name"], role: String = r["role"]
            out[name] = StaffRole(rawValue: role) ?? .staff
        }
        return out
    }

    public func removeStaff(name: String, by: String?) async throws(PulseStoreError) -> StaffChange {
        try await write { db, _ in
            let change = ConsoleSQL.removal(of: name, by: by, roles: try Self.roles(db))
            guard change == .done else { return (change, false) }
            try db.execute(sql: "DELETE FROM staff_account WHERE name = ?", arguments: [name])
            try db.execute(sql: "DELETE FROM staff_session WHERE staff = ?", arguments: [name])
            return (.done, false)
        }
    }

    public func setStaffRole(name: String, role: StaffRole) async throws(PulseStoreError) -> StaffChange {
        try await write { db, _ in
            let change = ConsoleSQL.roleChange(of: name, to: role, roles: try Self.roles(db))
            guard change == .done else { return (change, false) }
            try db.execute(sql: "UPDATE staff_account SET role = ? WHERE name = ?", arguments: [role.rawValue, name])
            return (.done, false)
        }
    }

    public func staffHash(name: String) async throws(PulseStoreError) -> String? {
        try await read { db in try String.fetchOne(db, sql: "SELECT hash FROM staff_account WHERE name = ?", arguments: [name]) }
    }

    public func staffNames() async throws(PulseStoreError) -> [String] {
        try await read { db in try String.fetchAll(db, sql: "SELECT name FROM staff_account ORDER BY name") }
    }

    public func removeStaff(name: String) async throws(PulseStoreError) -> Bool {
        try await write { db, _ in
            try db.execute(sql: "DELETE FROM staff_account WHERE name = ?", arguments: [name])
            let gone = db.changesCount > 0
            try db.execute(sql: "DELETE FROM staff_session WHERE staff = ?", arguments: [name])
            return (gone, gone)
        }
    }

    public func failures(key: String) async throws(PulseStoreError) -> (count: Int, last: Date?) {
        try await read { db in
            guard let r = try Row.fetchOne(db, sql: "SELECT count, last_at FROM staff_failure WHERE key = ?", arguments: [key]) else { return (0, nil) }
            return (r["count"], Date(timeIntervalSince1970: r["last_at"]))
        }
    }

    public func recordFailure(key: String) async throws(PulseStoreError) {
        let _: Void = try await write { db, now in
            try db.execute(
                sql: "INSERT INTO staff_failure (key, count, last_at) VALUES (?, 1, ?) ON CONFLICT (key) DO UPDATE SET count = count + 1, last_at = excluded.last_at",
                arguments: [key, now])
            return ((), true)
        }
    }

    public func countAttempt(key: String, decay: TimeInterval) async throws(PulseStoreError) -> (before: Int, last: Date?) {
        try await write { db, now in
            try db.execute(sql: "DELETE FROM staff_failure WHERE last_at < ?", arguments: [now - decay])
            let r = try Row.fetchOne(db, sql: "SELECT count, last_at FROM staff_failure WHERE key = ?", arguments: [key])
            try db.execute(
                sql: "INSERT INTO staff_failure (key, count, last_at) VALUES (?, 1, ?) ON CONFLICT (key) DO UPDATE SET count = count + 1, last_at = excluded.last_at",
                arguments: [key, now])
            let before: (Int, Date?) = r.map { ($0["count"], Date(timeIntervalSince1970: $0["last_at"])) } ?? (0, nil)
            return (before, false)
        }
    }

    public func clearFailures(key: String) async throws(PulseStoreError) {
        let _: Void = try await write { db, _ in
            try db.execute(sql: "DELETE FROM staff_failure WHERE key = ?", arguments: [key])
            return ((), true)
        }
    }

    // MARK: Sessions

    public func createSession(_ s: StaffSession) async throws(PulseStoreError) {
        let _: Void = try await write { db, now in
            try db.execute(sql: "DELETE FROM staff_session WHERE expires < ?", arguments: [now])
            try db.execute(
                sql: "INSERT INTO staff_session (id, staff, csrf, created, expires, credential) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [s.id, s.staff, s.csrf, s.created.timeIntervalSince1970, s.expires.timeIntervalSince1970, s.credential])
            return ((), true)
        }
    }

    public func session(id: String) async throws(PulseStoreError) -> StaffSession? {
        try await read { db in
            guard let r = try Row.fetchOne(db, sql: "SELECT * FROM staff_session WHERE id = ?", arguments: [id]) else { return nil }
            return StaffSession(
                id: r["id"], staff: r["staff"], csrf: r["csrf"], created: Date(timeIntervalSince1970: r["created"]), expires: Date(timeIntervalSince1970: r["expires"]),
                credential: r["credential"])
        }
    }

    public func deleteSession(id: String) async throws(PulseStoreError) {
        let _: Void = try await write { db, _ in
            try db.execute(sql: "DELETE FROM staff_session WHERE id = ?", arguments: [id])
            return ((), true)
        }
    }

    // MARK: Audit

    public func audit(_ e: AuditEntry) async throws(PulseStoreError) {
        let _: Void = try await write { db, _ in
            try db.execute(
                sql: "INSERT INTO staff_audit (at, staff, action, target, before, after) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [e.at.timeIntervalSince1970, e.staff, e.action, e.target, e.before, e.after])
            return ((), true)
        }
    }

    public func auditLog(_ f: AuditFilter) async throws(PulseStoreError) -> [AuditEntry] {
        try await read { db in
            var sql = "SELECT at, staff, action, target, before, after FROM staff_audit WHERE 1 = 1"
            var args: [(any DatabaseValueConvertible)?] = []
            if let s = f.staff { sql += " AND staff = ?"; args.append(s) }
            if let a = f.action { sql += " AND action = ?"; args.append(a) }
            if let q = f.search {
                sql += " AND (instr(target, ?) > 0 OR instr(before, ?) > 0 OR instr(after, ?) > 0)"
                args += [q, q, q]
            }
            sql += " ORDER BY seq DESC LIMIT ?"
            args.append(max(1, f.limit))
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(args)).map { r in
                AuditEntry(at: Date(timeIntervalSince1970: r["at"]), staff: r["staff"], action: r["action"], target: r["target"], before: r["before"], after: r["after"])
            }
        }
    }

    // MARK: Moderation

    public func queue(rules: PulseRules, after: PulseCursor?, limit: Int) async throws(PulseStoreError) -> [PulseNote] {
        let from = after?.created ?? -Double.greatestFiniteMagnitude
        let rows = limit + ConsoleSQL.queueTies
        return try await read { db in
            let reported = try Self.notes(
                db,
                ConsoleSQL.noteColumns
                    + " WHERE n.reports > 0 AND (n.decision IS NULL OR n.decision = 'restored') AND n.created >= ? ORDER BY n.created, n.id LIMIT ?",
                [from, rows])
            let low = try Self.notes(
                db,
                """
                SELECT n.id, n.subject, n.language, n.text, n.created, n.author, n.reports, n.decision, c.up, c.meh, c.down
                FROM counts c JOIN note n ON n.id = substr(c.subject, 6)
                WHERE c.subject LIKE 'note:%' AND c.up - c.down <= ? AND n.author = 'visitor' AND n.decision IS NULL AND n.created >= ?
                ORDER BY n.created, n.id LIMIT ?
                """, [rules.scoreFloor, from, rows])
            return ConsoleSQL.queuePage(reported, low, after: after, limit: limit)
        }
    }

    public func queueLength(rules: PulseRules) async throws(PulseStoreError) -> Int {
        try await read { db in
            try Int.fetchOne(
                db,
                // The reported notes, plus the low-scored ones not reported: the two counts add up
                // to the union's (each side has a note once: note ids and counts' subjects are
                // keys) without sorting every id into a temporary table to drop the doubles.
                sql: """
                    SELECT (SELECT COUNT(*) FROM note WHERE reports > 0 AND (decision IS NULL OR decision = 'restored'))
                         + (SELECT COUNT(*) FROM counts c JOIN note n ON n.id = substr(c.subject, 6)
                            WHERE c.subject LIKE 'note:%' AND c.up - c.down <= ? AND n.author = 'visitor' AND n.decision IS NULL AND NOT n.reports > 0)
                    """, arguments: [rules.scoreFloor]) ?? 0
        }
    }

    public func note(_ id: NoteID) async throws(PulseStoreError) -> PulseNote? {
        try await read { db in try Self.notes(db, ConsoleSQL.noteColumns + " WHERE n.id = ?", [id.key]).first }
    }

    public func removedNotes(limit: Int) async throws(PulseStoreError) -> [PulseNote] {
        try await read { db in try Self.notes(db, ConsoleSQL.noteColumns + " WHERE n.decision = 'removed' ORDER BY n.created DESC, n.id DESC LIMIT ?", [limit]) }
    }

    public func featuredList() async throws(PulseStoreError) -> [PulseFeatured] {
        try await read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT subject, tier, from_at, until_at FROM featured ORDER BY tier DESC, subject").map {
                (subject: $0["subject"] as String, tier: $0["tier"] as Int, from: $0["from_at"] as Double?, until: $0["until_at"] as Double?)
            }
            let t = try Row.fetchAll(db, sql: "SELECT subject, language, text FROM featured_tagline").map { ($0["subject"] as String, $0["language"] as String, $0["text"] as String) }
            return ConsoleSQL.featured(rows, taglines: t)
        }
    }

    public func announcementList() async throws(PulseStoreError) -> [PulseAnnouncement] {
        try await read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, style, feeds, positions, languages, from_at, until_at, link FROM announcement ORDER BY id").map {
                (
                    id: $0["id"] as String, style: $0["style"] as String, feeds: $0["feeds"] as String, positions: $0["positions"] as String,
                    languages: $0["languages"] as String, from: $0["from_at"] as Double?, until: $0["until_at"] as Double?, link: $0["link"] as String?
                )
            }
            let t = try Row.fetchAll(db, sql: "SELECT id, language, text FROM announcement_text").map { ($0["id"] as String, $0["language"] as String, $0["text"] as String) }
            return ConsoleSQL.announcements(rows, texts: t)
        }
    }

    public func reports(on id: NoteID) async throws(PulseStoreError) -> [(visitor: VisitorID, at: Date)] {
        let rows: [(String, Double)] = try await read { db in
            try Row.fetchAll(db, sql: "SELECT visitor, at FROM report WHERE note = ? ORDER BY at", arguments: [id.key]).map { ($0["visitor"], $0["at"]) }
        }
        return rows.compactMap { r in VisitorID(r.0).map { ($0, Date(timeIntervalSince1970: r.1)) } }
    }

    public func reports(on ids: [NoteID]) async throws(PulseStoreError) -> [NoteID: [(visitor: VisitorID, at: Date)]] {
        guard !ids.isEmpty else { return [:] }
        let keys = ids.map(\.key)
        let rows: [(String, String, Double)] = try await read { db in
            let marks = keys.map { _ in "?" }.joined(separator: ",")
            return try Row.fetchAll(db, sql: "SELECT note, visitor, at FROM report WHERE note IN (\(marks)) ORDER BY at", arguments: StatementArguments(keys))
                .map { ($0["note"], $0["visitor"], $0["at"]) }
        }
        var out: [NoteID: [(visitor: VisitorID, at: Date)]] = [:]
        for r in rows { if let n = NoteID(key: r.0), let v = VisitorID(r.1) { out[n, default: []].append((v, Date(timeIntervalSince1970: r.2))) } }
        return out
    }

    public func decide(_ id: NoteID, _ decision: StaffDecision, expected: StaffDecision?) async throws(PulseStoreError) -> (note: PulseNote, changed: Bool) {
        try await write(bump: true) { db, now in
            guard let current = try Self.notes(db, ConsoleSQL.noteColumns + " WHERE n.id = ?", [id.key]).first else { throw PulseStoreError.noSuchNote(id) }
            guard current.decision == expected else { return ((current, false), false) }
            if decision == .restored {
                try db.execute(sql: "UPDATE note SET decision = 'restored', reports = 0, restored_at = ? WHERE id = ?", arguments: [now, id.key])
            } else {
                try db.execute(sql: "UPDATE note SET decision = ? WHERE id = ?", arguments: [decision.rawValue, id.key])
            }
            guard let n = try Self.notes(db, ConsoleSQL.noteColumns + " WHERE n.id = ?", [id.key]).first else { throw PulseStoreError.noSuchNote(id) }
            return ((n, true), true)
        }
    }

    public func ban(_ visitor: VisitorID, by staff: String) async throws(PulseStoreError) -> (changed: Bool, notes: Int) {
        try await write(bump: true) { db, now in
            guard try Int.fetchOne(db, sql: "SELECT 1 FROM staff_ban WHERE visitor = ?", arguments: [visitor.rawValue]) == nil else { return ((false, 0), false) }
            try db.execute(sql: "INSERT INTO staff_ban (visitor, at, staff) VALUES (?, ?, ?)", arguments: [visitor.rawValue, now, staff])
            try db.execute(
                sql: "UPDATE visitor SET secret = ? || secret WHERE id = ? AND secret NOT LIKE ?",
                arguments: [ConsoleSQL.bannedPrefix, visitor.rawValue, ConsoleSQL.bannedPrefix + "%"])
            try db.execute(
                sql: "UPDATE note SET decision = 'removed' WHERE visitor = ? AND author = 'visitor' AND (decision IS NULL OR decision <> 'removed')",
                arguments: [visitor.rawValue])
            let n = db.changesCount
            return ((true, n), true)
        }
    }

    public func unban(_ visitor: VisitorID) async throws(PulseStoreError) -> Bool {
        try await write(bump: true) { db, _ in
            try db.execute(sql: "DELETE FROM staff_ban WHERE visitor = ?", arguments: [visitor.rawValue])
            guard db.changesCount > 0 else { return (false, false) }
            try db.execute(
                sql: "UPDATE visitor SET secret = substr(secret, ?) WHERE id = ? AND secret LIKE ?",
                arguments: [ConsoleSQL.bannedPrefix.count + 1, visitor.rawValue, ConsoleSQL.bannedPrefix + "%"])
            return (true, true)
        }
    }

    public func bans() async throws(PulseStoreError) -> [(visitor: VisitorID, at: Date, staff: String)] {
        let rows: [(String, Double, String)] = try await read { db in
            try Row.fetchAll(db, sql: "SELECT visitor, at, staff FROM staff_ban ORDER BY at DESC").map { ($0["visitor"], $0["at"], $0["staff"]) }
        }
        return rows.compactMap { r in VisitorID(r.0).map { ($0, Date(timeIntervalSince1970: r.1), r.2) } }
    }

    public func erase(_ visitor: VisitorID) async throws(PulseStoreError) -> ErasedVisitor {
        try await write(bump: true) { db, _ in
            let v = visitor.rawValue
            var out = ErasedVisitor()
            out.existed = try Int.fetchOne(db, sql: "SELECT 1 FROM visitor WHERE id = ?", arguments: [v]) != nil
            // Their reactions leave everyone's counts.
            try db.execute(
                sql: """
                    UPDATE counts SET
                        up = up - (SELECT COUNT(*) FROM reaction r WHERE r.subject = counts.subject AND r.visitor = ?1 AND r.value = 1),
                        meh = meh - (SELECT COUNT(*) FROM reaction r WHERE r.subject = counts.subject AND r.visitor = ?1 AND r.value = 0),
                        down = down - (SELECT COUNT(*) FROM reaction r WHERE r.subject = counts.subject AND r.visitor = ?1 AND r.value = -1)
                    WHERE subject IN (SELECT subject FROM reaction WHERE visitor = ?1)
                    """, arguments: [v])
            try db.execute(sql: "DELETE FROM reaction WHERE visitor = ?", arguments: [v])
            out.reactions = db.changesCount
            // Their reports leave the tallies they still count in.
            try db.execute(
                sql: """
                    UPDATE note SET reports = reports - 1
                    WHERE id IN (SELECT r.note FROM report r WHERE r.visitor = ?1 AND r.at > COALESCE(note.restored_at, -1e300))
                    """, arguments: [v])
            try db.execute(sql: "DELETE FROM report WHERE visitor = ?", arguments: [v])
            out.reports = db.changesCount
            // Their notes, with what others did to them.
            let ids = try String.fetchAll(db, sql: "SELECT id FROM note WHERE visitor = ? AND author = 'visitor'", arguments: [v])
            for id in ids { try Self.deleteNote(id, db) }
            out.notes = ids.count
            try db.execute(sql: "DELETE FROM activity WHERE visitor = ?", arguments: [v])
            out.activity = db.changesCount
            try db.execute(sql: "DELETE FROM staff_ban WHERE visitor = ?", arguments: [v])
            try db.execute(sql: "DELETE FROM visitor WHERE id = ?", arguments: [v])
            return (out, true)
        }
    }

    private static func deleteNote(_ id: String, _ db: Database) throws {
        let s = "note:" + id
        try db.execute(sql: "DELETE FROM reaction WHERE subject = ?", arguments: [s])
        try db.execute(sql: "DELETE FROM counts WHERE subject = ?", arguments: [s])
        try db.execute(sql: "DELETE FROM report WHERE note = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [id])
    }

    public func deleteOwnNote(_ id: NoteID, as c: VisitorCredentials) async throws(PulseStoreError) {
        let _: Void = try await write(bump: true) { db, _ in
            guard try String.fetchOne(db, sql: "SELECT secret FROM visitor WHERE id = ?", arguments: [c.visitor.rawValue]) == c.secret else {
                throw PulseStoreError.badCredentials
            }
            guard id.visitor == c.visitor, try Int.fetchOne(db, sql: "SELECT 1 FROM note WHERE id = ? AND author = 'visitor'", arguments: [id.key]) != nil else {
                throw PulseStoreError.noSuchNote(id)
            }
            try Self.deleteNote(id.key, db)
            return ((), true)
        }
    }

    // MARK: The museum's pulse

    /// Whole past days are counted once into `staff_day` (per zone offset, day, kind and
    /// subject) and read from there; only today is counted from the raw activity. So a page
    /// costs the same with a year of activity as with a day, and the counts outlive the purge.
    private func rollUp(_ db: Database, fromDay: Int, today: Int, offset: Int) throws {
        let first = max(fromDay, today - ConsoleSQL.rollUpDays)
        guard first < today else { return }
        let done = Set(
            try Int.fetchAll(db, sql: "SELECT day FROM staff_day_done WHERE zone_offset = ? AND day >= ? AND day < ?", arguments: [offset, first, today]))
        for day in first..<today where !done.contains(day) {
            let start = Double(day) * 86400 - Double(offset)
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO staff_day (zone_offset, day, kind, subject, n)
                    SELECT ?, ?, kind, subject, COUNT(*) FROM activity WHERE at >= ? AND at < ? GROUP BY kind, subject
                    """, arguments: [offset, day, start, start + 86400])
            try db.execute(sql: "INSERT OR IGNORE INTO staff_day_done (zone_offset, day) VALUES (?, ?)", arguments: [offset, day])
        }
    }

    /// Whether a whole past day `rollUp` would count is not counted yet.
    private static func daysMissing(_ db: Database, fromDay: Int, today: Int, offset: Int) throws -> Bool {
        let first = max(fromDay, today - ConsoleSQL.rollUpDays)
        guard first < today else { return false }
        let done = try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM staff_day_done WHERE zone_offset = ? AND day >= ? AND day < ?", arguments: [offset, first, today]) ?? 0
        return done < today - first
    }

    /// `body` over the day table once every past day from `fromDay` on is counted. Once they
    /// are (every time but the first of a day), it is a read: it takes no write lock, so the
    /// Pulse page does not wait for the upkeep's purge (which holds it for each chunk it
    /// deletes) nor for a busy service's writes. Only when a day is missing is it counted first,
    /// in a write, as before.
    private func fromDays<T: Sendable>(
        fromDay: Int, today: Int, offset: Int, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(PulseStoreError) -> T {
        let counted: T? = try await read { db in try Self.daysMissing(db, fromDay: fromDay, today: today, offset: offset) ? nil : body(db) }
        if let counted { return counted }
        return try await write { db, _ in
            try self.rollUp(db, fromDay: fromDay, today: today, offset: offset)
            return (try body(db), false)
        }
    }

    public func countPastDays(offset: Int) async throws(PulseStoreError) {
        let today = self.today(offset)
        guard try await read({ db in try Self.daysMissing(db, fromDay: today - ConsoleSQL.rollUpDays, today: today, offset: offset) }) else { return }
        try await write { db, _ in
            try self.rollUp(db, fromDay: today - ConsoleSQL.rollUpDays, today: today, offset: offset)
            return ((), false)
        }
    }

    private func today(_ offset: Int) -> Int { Int(floor((clock().timeIntervalSince1970 + Double(offset)) / 86400)) }

    public func activityPerDay(from: Date, offset: Int) async throws(PulseStoreError) -> [Int: ActivityDay] {
        let today = self.today(offset)
        let fromDay = Int(floor((from.timeIntervalSince1970 + Double(offset)) / 86400))
        return try await fromDays(fromDay: fromDay, today: today, offset: offset) { db in
            var out: [Int: ActivityDay] = [:]
            for r in try Row.fetchAll(
                db, sql: "SELECT day, kind, SUM(n) AS n FROM staff_day WHERE zone_offset = ? AND day >= ? AND day < ? GROUP BY day, kind",
                arguments: [offset, fromDay, today])
            {
                out[r["day"], default: ActivityDay()].add(kind: r["kind"], r["n"])
            }
            let start = Double(today) * 86400 - Double(offset)
            for r in try Row.fetchAll(db, sql: "SELECT kind, COUNT(*) AS n FROM activity WHERE at >= ? GROUP BY kind", arguments: [start]) {
                out[today, default: ActivityDay()].add(kind: r["kind"], r["n"])
            }
            return out
        }
    }

    /// Per subject, how many activities of `kind` (on subjects starting with `prefix`) from
    /// `fromDay` on. The prefix is a range on the day table's `(zone_offset, kind, subject…)`
    /// index, so the tours' stops read their own rows, not 30 days of every subject's (`LIKE`
    /// filtered them one by one: 3 ms of the Pulse page's 4 for 80 stops of 480 subjects).
    private func subjectCounts(kind: String, prefix: String, since from: Date, offset: Int) async throws(PulseStoreError) -> [String: Int] {
        let today = self.today(offset)
        let fromDay = Int(floor((from.timeIntervalSince1970 + Double(offset)) / 86400))
        // Text compares byte by byte (SQLite's BINARY): every subject from the prefix on and
        // before the prefix with its last character moved one on starts with it.
        let within = prefix.isEmpty ? "" : " AND subject >= ? AND subject < ?"
        let bounds: StatementArguments = prefix.isEmpty ? [] : [prefix, ConsoleSQL.pastPrefix(prefix)]
        return try await fromDays(fromDay: fromDay, today: today, offset: offset) { db in
            var out: [String: Int] = [:]
            for r in try Row.fetchAll(
                db,
                sql: "SELECT subject, SUM(n) AS n FROM staff_day WHERE zone_offset = ? AND kind = ?\(within) AND day >= ? AND day < ? GROUP BY subject",
                arguments: [offset, kind] + bounds + [fromDay, today])
            {
                out[r["subject"], default: 0] += r["n"] as Int
            }
            for r in try Row.fetchAll(
                db, sql: "SELECT subject, COUNT(*) AS n FROM activity WHERE at >= ? AND kind = ?\(within) GROUP BY subject",
                arguments: [max(from.timeIntervalSince1970, Double(today) * 86400 - Double(offset)), kind] + bounds)
            {
                out[r["subject"], default: 0] += r["n"] as Int
            }
            return out
        }
    }

    public func top(kind: String, since from: Date, offset: Int, limit: Int) async throws(PulseStoreError) -> [(subject: PulseSubject, count: Int)] {
        ConsoleSQL.ranked(try await subjectCounts(kind: kind, prefix: "", since: from, offset: offset), limit: limit)
    }

    public func bestLiked(limit: Int) async throws(PulseStoreError) -> [(subject: PulseSubject, counts: PulseCounts)] {
        let rows: [(String, Int, Int, Int)] = try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT subject, up, meh, down FROM counts WHERE subject NOT LIKE 'note:%' AND up > 0 ORDER BY up - down DESC, subject LIMIT ?",
                arguments: [limit]
            ).map { ($0["subject"], $0["up"], $0["meh"], $0["down"]) }
        }
        return rows.compactMap { r in PulseSubject(r.0).map { ($0, PulseCounts(up: r.1, meh: r.2, down: r.3)) } }
    }

    public func stopPlays(since from: Date, offset: Int) async throws(PulseStoreError) -> [(subject: PulseSubject, count: Int)] {
        ConsoleSQL.ranked(try await subjectCounts(kind: "play", prefix: "stop:", since: from, offset: offset), limit: Int.max)
    }
}

import PulseKit
import Foundation
import Logging
import PostgresNIO

/// The console's store in the Pulse PostgreSQL database (`PostgresPulseStore`'s), with its own
/// numbered steps (`staff_schema`), a small pool of its own, and the same SQL as the SQLite one.
/// A write guides must see bumps one of the version shards, as the Pulse store's writes do.
public final class PostgresConsoleStore: ConsoleStore, @unchecked Sendable {
    private let client: PostgresClient
    private let runner: Task<Void, Never>?
    private let clock: @Sendable () -> Date
    private let logger: Logger
    /// Where the store connects, without the password (for messages).
    let location: String

    /// A store over `client`, which someone else runs (`PostgresPulseDatabase`) or `runner`
    /// (`open`). Nothing is connected yet.
    init(client: PostgresClient, runner: Task<Void, Never>?, location: String, clock: @escaping @Sendable () -> Date, logger: Logger) {
        self.client = client
        self.runner = runner
        self.location = location
        self.clock = clock
        self.logger = logger
    }

    /// Opens the Pulse store first (its schema), then the console's steps, with a small pool
    /// of the store's own (one-shot commands and tests; the service shares one client,
    /// `PostgresPulseDatabase`).
    public static func open(
        _ location: PostgresPulseStore.Location, clock: @escaping @Sendable () -> Date,
        logger: Logger = Logger(label: "docent-pulse.console", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async -> Result<PostgresConsoleStore, LoadFailure> {
        switch await PostgresPulseStore.open(location, maxConnections: 1, clock: clock) {
        case .failure(let f): return .failure(f)
        case .success(let s): s.close()
        }
        let (client, _) = PostgresPulseStore.makeClient(location, maxConnections: 4, logger: logger)
        let runner = Task { await client.run() }
        let store = PostgresConsoleStore(client: client, runner: runner, location: location.shown, clock: clock, logger: logger)
        switch await store.migrate() {
        case .success: return .success(store)
        case .failure(let f):
            runner.cancel()
            return .failure(f)
        }
    }

    /// The console's steps, after the Pulse store's (its tables are the Pulse schema's).
    func migrate() async -> Result<Void, LoadFailure> {
        let logger = self.logger
        do {
            try await client.withTransaction(logger: logger) { conn in
                try await conn.query("SELECT pg_advisory_xact_lock(7301301)", logger: logger)
                try await conn.query("CREATE TABLE IF NOT EXISTS staff_schema (step INTEGER PRIMARY KEY)", logger: logger)
                var done = 0
                for try await n in try await conn.query("SELECT COALESCE(MAX(step), 0) FROM staff_schema", logger: logger).decode(Int.self) { done = n }
                for (i, step) in Self.migrations.enumerated() where i + 1 > done {
                    for statement in step { try await conn.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                    try await conn.query("INSERT INTO staff_schema (step) VALUES (\(i + 1))", logger: logger)
                }
            }
            return .success(())
        } catch {
            return .failure(LoadFailure("cannot use PostgreSQL at \(location) for the staff tables (\(PostgresPulseStore.describe(error)))"))
        }
    }

    /// Stops the store's own client (`open`); a shared client is its group's.
    public func close() { runner?.cancel() }
    deinit { runner?.cancel() }

    /// The console's steps (never edited once shipped).
    static let migrations: [[String]] = [
        PostgresPulseStore.statements(
            """
            CREATE TABLE staff_account (name TEXT PRIMARY KEY, hash TEXT NOT NULL, created DOUBLE PRECISION NOT NULL);
            CREATE TABLE staff_session (id TEXT PRIMARY KEY, staff TEXT NOT NULL, csrf TEXT NOT NULL, created DOUBLE PRECISION NOT NULL, expires DOUBLE PRECISION NOT NULL);
            CREATE INDEX staff_session_expires ON staff_session (expires);
            CREATE TABLE staff_failure (key TEXT PRIMARY KEY, count INTEGER NOT NULL, last_at DOUBLE PRECISION NOT NULL);
            CREATE TABLE staff_audit (
                seq BIGSERIAL PRIMARY KEY, at DOUBLE PRECISION NOT NULL, staff TEXT NOT NULL, action TEXT NOT NULL,
                target TEXT NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL);
            CREATE INDEX staff_audit_at ON staff_audit (at);
            CREATE TABLE staff_ban (visitor TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL, staff TEXT NOT NULL);
            CREATE INDEX staff_note_reported ON note (created) WHERE reports > 0;
            CREATE INDEX staff_note_visitor ON note (visitor);
            CREATE INDEX staff_note_removed ON note (created) WHERE decision = 'removed';
            CREATE INDEX staff_counts_score ON counts ((up - down));
            CREATE INDEX staff_activity_at_kind ON activity (at, kind, subject)
            """),
        PostgresPulseStore.statements(ConsoleSQL.daysSchema),
        PostgresPulseStore.statements(ConsoleSQL.sessionCredentialSchema),
        PostgresPulseStore.statements(ConsoleSQL.accountRoleSchema),
    ]

    // MARK: Plumbing

    private func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(PulseStoreError) -> T {
        do {
            return try await client.withConnection { conn in try await body(conn) }
        } catch {
            throw PostgresPulseStore.storeError(error)
        }
    }

    /// One transaction; `bump`: guides must see it (one version shard grows).
    private func write<T: Sendable>(bump: Bool = false, _ body: @escaping @Sendable (PostgresConnection, Double) async throws -> (T, Bool)) async throws(PulseStoreError) -> T {
        let now = clock().timeIntervalSince1970
        let logger = self.logger
        do {
            return try await client.withTransaction(logger: logger) { conn in
                let (value, changed) = try await body(conn, now)
                if bump && changed {
                    try await conn.query("UPDATE version_shard SET value = value + 1 WHERE shard = \(Int.random(in: 0..<16))", logger: logger)
                }
                return value
            }
        } catch {
            throw PostgresPulseStore.storeError(error)
        }
    }

    private func notes(_ conn: PostgresConnection, _ q: PostgresQuery) async throws -> [PulseNote] {
        var out: [PulseNote] = []
        for try await (id, s, l, t, c, a, r, d, up, meh, down) in try await conn.query(q, logger: logger).decode(
            (String, String, String, String, Double, String, Int, String?, Int, Int, Int).self)
        {
            if let n = ConsoleSQL.note(id: id, subject: s, language: l, text: t, created: c, author: a, reports: r, decision: d, up: up, meh: meh, down: down) {
                out.append(n)
            }
        }
        return out
    }

    private func affected(_ conn: PostgresConnection, _ q: PostgresQuery) async throws -> Int {
        var n = 0
        for try await _ in try await conn.query(q, logger: logger) { n += 1 }
        return n
    }

    // MARK: Staff accounts and sign-in

    public func putStaff(name: String, passwordHash: String) async throws(PulseStoreError) {
        let _: Void = try await write { conn, now in
            try await conn.query("SELECT pg_advisory_xact_lock(7301302)", logger: self.logger)
            let old = try await PostgresPulseStore.one(conn.query("SELECT hash FROM staff_account WHERE name = \(name)", logger: self.logger), String.self)
            try await conn.query(
                "INSERT INTO staff_account (name, hash, created) VALUES (\(name), \(passwordHash), \(now)) ON CONFLICT (name) DO UPDATE SET hash = excluded.hash",
                logger: self.logger)
            // A new password ends the account's sessions (they were tied to the old one).
            if let old, old != passwordHash { try await conn.query("DELETE FROM staff_session WHERE staff = \(name)", logger: self.logger) }
            return ((), true)
        }
    }

    public func staffAccounts() async throws(PulseStoreError) -> [StaffAccount] {
        let now = clock().timeIntervalSince1970
        return try await run { conn in
            var out: [StaffAccount] = []
            for try await (name, role, created, sessions) in try await conn.query(
                "SELECT a.name, a.role, a.created, (SELECT COUNT(*) FROM staff_session s WHERE s.staff = a.name AND s.expires > \(now))::BIGINT FROM staff_account a ORDER BY a.name",
                logger: self.logger
            ).decode((String, String, Double, Int).self) {
                out.append(StaffAccount(name: name, role: StaffRole(rawValue: role) ?? .staff, created: Date(timeIntervalSince1970: created), sessions: sessions))
            }
            return out
        }
    }

    public func staffHashAndRole(name: String) async throws(PulseStoreError) -> (hash: String, role: StaffRole)? {
        try await run { conn in
            for try await (hash, role) in try await conn.query("SELECT hash, role FROM staff_account WHERE name = \(name)", logger: self.logger).decode((String, String).self) {
                return (hash, StaffRole(rawValue: role) ?? .staff)
            }
            return nil
        }
    }

    public func addStaff(name: String, passwordHash: String, role: StaffRole) async throws(PulseStoreError) -> Bool {
        try await write { conn, now in
            let added = try await self.affected(
                conn,
                "INSERT INTO staff_account (name, hash, created, role) VALUES (\(name), \(passwordHash), \(now), \(role.rawValue)) ON CONFLICT (name) DO NOTHING RETURNING 1"
            ) > 0
            return (added, false)
        }
    }

    public func setStaffPassword(name: String, passwordHash: String) async throws(PulseStoreError) -> Bool {
        try await write { conn, _ in
            guard try await self.affected(conn, "UPDATE staff_account SET hash = \(passwordHash) WHERE name = \(name) RETURNING 1") > 0 else { return (false, false) }
            try await conn.query("DELETE FROM staff_session WHERE staff = \(name)", logger: self.logger)
            return (true, false)
        }
    }

    public func endStaffSessions(name: String) async throws(PulseStoreError) -> Int {
        try await write { conn, now in
            var open = 0
            for try await expires in try await conn.query("DELETE FROM staff_session WHERE staff = \(name) RETURNING expires", logger: self.logger).decode(Double.self)
            where expires > now { open += 1 }
            return (open, false)
        }
    }

    /// Every account's role, with account changes serialised (an advisory lock for the
    /// transaction): two staff removing each other at once cannot both succeed.
    private func lockedRoles(_ conn: PostgresConnection) async throws -> [String: StaffRole] {
        try await conn.query("SELECT pg_advisory_xact_lock(7301302)", logger: logger)
        var out: [String: StaffRole] = [:]
        for try await (name, role) in try await conn.query("SELECT name, role FROM staff_account", logger: logger).decode((String, String).self) {
            out[name] = StaffRole(rawValue: role) ?? .staff
        }
        return out
    }

    public func removeStaff(name: String, by: String?) async throws(PulseStoreError) -> StaffChange {
        try await write { conn, _ in
            let change = ConsoleSQL.removal(of: name, by: by, roles: try await self.lockedRoles(conn))
            guard change == .done else { return (change, false) }
            try await conn.query("DELETE FROM staff_account WHERE name = \(name)", logger: self.logger)
            try await conn.query("DELETE FROM staff_session WHERE staff = \(name)", logger: self.logger)
            return (.done, false)
        }
    }

    public func setStaffRole(name: String, role: StaffRole) async throws(PulseStoreError) -> StaffChange {
        try await write { conn, _ in
            let change = ConsoleSQL.roleChange(of: name, to: role, roles: try await self.lockedRoles(conn))
            guard change == .done else { return (change, false) }
            try await conn.query("UPDATE staff_account SET role = \(role.rawValue) WHERE name = \(name)", logger: self.logger)
            return (.done, false)
        }
    }

    public func staffHash(name: String) async throws(PulseStoreError) -> String? {
        try await run { conn in try await PostgresPulseStore.one(conn.query("SELECT hash FROM staff_account WHERE name = \(name)", logger: self.logger), String.self) }
    }

    public func staffNames() async throws(PulseStoreError) -> [String] {
        try await run { conn in
            var out: [String] = []
            for try await n in try await conn.query("SELECT name FROM staff_account ORDER BY name", logger: self.logger).decode(String.self) { out.append(n) }
            return out
        }
    }

    public func removeStaff(name: String) async throws(PulseStoreError) -> Bool {
        try await write { conn, _ in
            let gone = try await self.affected(conn, "DELETE FROM staff_account WHERE name = \(name) RETURNING 1") > 0
            try await conn.query("DELETE FROM staff_session WHERE staff = \(name)", logger: self.logger)
            return (gone, gone)
        }
    }

    public func failures(key: String) async throws(PulseStoreError) -> (count: Int, last: Date?) {
        try await run { conn in
            for try await (n, at) in try await conn.query("SELECT count, last_at FROM staff_failure WHERE key = \(key)", logger: self.logger).decode((Int, Double).self) {
                return (n, Date(timeIntervalSince1970: at))
            }
            return (0, nil)
        }
    }

    public func recordFailure(key: String) async throws(PulseStoreError) {
        let _: Void = try await write { conn, now in
            try await conn.query(
                "INSERT INTO staff_failure (key, count, last_at) VALUES (\(key), 1, \(now)) ON CONFLICT (key) DO UPDATE SET count = staff_failure.count + 1, last_at = excluded.last_at",
                logger: self.logger)
            return ((), true)
        }
    }

    public func countAttempt(key: String, decay: TimeInterval) async throws(PulseStoreError) -> (before: Int, last: Date?) {
        try await write { conn, now in
            try await conn.query("DELETE FROM staff_failure WHERE key = \(key) AND last_at < \(now - decay)", logger: self.logger)
            // Every other key's old rows too, as SQLite does; rows another try holds are left
            // for the next (no waiting on each other, no deadlock).
            try await conn.query(
                "DELETE FROM staff_failure WHERE key IN (SELECT key FROM staff_failure WHERE last_at < \(now - decay) FOR UPDATE SKIP LOCKED)", logger: self.logger)
            // The row made if missing (count 0), then locked: a concurrent try waits here and
            // reads this one's count.
            try await conn.query("INSERT INTO staff_failure (key, count, last_at) VALUES (\(key), 0, \(now)) ON CONFLICT (key) DO NOTHING", logger: self.logger)
            var before: (Int, Date?) = (0, nil)
            for try await (n, at) in try await conn.query("SELECT count, last_at FROM staff_failure WHERE key = \(key) FOR UPDATE", logger: self.logger).decode((Int, Double).self) {
                before = (n, n == 0 ? nil : Date(timeIntervalSince1970: at))
            }
            try await conn.query("UPDATE staff_failure SET count = count + 1, last_at = \(now) WHERE key = \(key)", logger: self.logger)
            return (before, false)
        }
    }

    public func clearFailures(key: String) async throws(PulseStoreError) {
        let _: Void = try await write { conn, _ in
            try await conn.query("DELETE FROM staff_failure WHERE key = \(key)", logger: self.logger)
            return ((), true)
        }
    }

    // MARK: Sessions

    public func createSession(_ s: StaffSession) async throws(PulseStoreError) {
        let _: Void = try await write { conn, now in
            try await conn.query("DELETE FROM staff_session WHERE expires < \(now)", logger: self.logger)
            try await conn.query(
                "INSERT INTO staff_session (id, staff, csrf, created, expires, credential) VALUES (\(s.id), \(s.staff), \(s.csrf), \(s.created.timeIntervalSince1970), \(s.expires.timeIntervalSince1970), \(s.credential))",
                logger: self.logger)
            return ((), true)
        }
    }

    public func session(id: String) async throws(PulseStoreError) -> StaffSession? {
        try await run { conn in
            for try await (i, st, c, cr, ex, cred) in try await conn.query(
                "SELECT id, staff, csrf, created, expires, credential FROM staff_session WHERE id = \(id)", logger: self.logger
            ).decode((String, String, String, Double, Double, String).self) {
                return StaffSession(id: i, staff: st, csrf: c, created: Date(timeIntervalSince1970: cr), expires: Date(timeIntervalSince1970: ex), credential: cred)
            }
            return nil
        }
    }

    public func deleteSession(id: String) async throws(PulseStoreError) {
        let _: Void = try await write { conn, _ in
            try await conn.query("DELETE FROM staff_session WHERE id = \(id)", logger: self.logger)
            return ((), true)
        }
    }

    // MARK: Audit

    public func audit(_ e: AuditEntry) async throws(PulseStoreError) {
        let _: Void = try await write { conn, _ in
            try await conn.query(
                "INSERT INTO staff_audit (at, staff, action, target, before, after) VALUES (\(e.at.timeIntervalSince1970), \(e.staff), \(e.action), \(e.target), \(e.before), \(e.after))",
                logger: self.logger)
            return ((), true)
        }
    }

    public func auditLog(_ f: AuditFilter) async throws(PulseStoreError) -> [AuditEntry] {
        try await run { conn in
            var out: [AuditEntry] = []
            let q: PostgresQuery = """
                SELECT at, staff, action, target, before, after FROM staff_audit
                WHERE (\(f.staff)::TEXT IS NULL OR staff = \(f.staff))
                  AND (\(f.action)::TEXT IS NULL OR action = \(f.action))
                  AND (\(f.search)::TEXT IS NULL OR strpos(target, \(f.search)) > 0 OR strpos(before, \(f.search)) > 0 OR strpos(after, \(f.search)) > 0)
                ORDER BY seq DESC LIMIT \(max(1, f.limit))
                """
            for try await (at, s, a, t, b, af) in try await conn.query(q, logger: self.logger).decode((Double, String, String, String, String, String).self) {
                out.append(AuditEntry(at: Date(timeIntervalSince1970: at), staff: s, action: a, target: t, before: b, after: af))
            }
            return out
        }
    }

    // MARK: Moderation

    public func queue(rules: PulseRules, after: PulseCursor?, limit: Int) async throws(PulseStoreError) -> [PulseNote] {
        let from = after?.created ?? -Double.greatestFiniteMagnitude
        let rows = limit + ConsoleSQL.queueTies
        return try await run { conn in
            let reported = try await self.notes(
                conn,
                "\(unescaped: ConsoleSQL.noteColumns) WHERE n.reports > 0 AND (n.decision IS NULL OR n.decision = 'restored') AND n.created >= \(from) ORDER BY n.created, n.id LIMIT \(rows)")
            let low = try await self.notes(
                conn,
                """
                SELECT n.id, n.subject, n.language, n.text, n.created, n.author, n.reports, n.decision, c.up, c.meh, c.down
                FROM counts c JOIN note n ON n.id = substr(c.subject, 6)
                WHERE c.subject LIKE 'note:%' AND (c.up - c.down) <= \(rules.scoreFloor) AND n.author = 'visitor' AND n.decision IS NULL AND n.created >= \(from)
                ORDER BY n.created, n.id LIMIT \(rows)
                """)
            return ConsoleSQL.queuePage(reported, low, after: after, limit: limit)
        }
    }

    public func queueLength(rules: PulseRules) async throws(PulseStoreError) -> Int {
        try await run { conn in
            let q: PostgresQuery = """
                SELECT COUNT(*)::BIGINT FROM (
                    SELECT id FROM note WHERE reports > 0 AND (decision IS NULL OR decision = 'restored')
                    UNION
                    SELECT n.id FROM counts c JOIN note n ON n.id = substr(c.subject, 6)
                    WHERE c.subject LIKE 'note:%' AND (c.up - c.down) <= \(rules.scoreFloor) AND n.author = 'visitor' AND n.decision IS NULL) AS waiting
                """
            for try await n in try await conn.query(q, logger: self.logger).decode(Int64.self) { return Int(n) }
            return 0
        }
    }

    public func note(_ id: NoteID) async throws(PulseStoreError) -> PulseNote? {
        try await run { conn in try await self.notes(conn, "\(unescaped: ConsoleSQL.noteColumns) WHERE n.id = \(id.key)").first }
    }

    public func removedNotes(limit: Int) async throws(PulseStoreError) -> [PulseNote] {
        try await run { conn in
            try await self.notes(conn, "\(unescaped: ConsoleSQL.noteColumns) WHERE n.decision = 'removed' ORDER BY n.created DESC, n.id DESC LIMIT \(limit)")
        }
    }

    public func featuredList() async throws(PulseStoreError) -> [PulseFeatured] {
        try await run { conn in
            var rows: [(subject: String, tier: Int, from: Double?, until: Double?)] = []
            for try await r in try await conn.query("SELECT subject, tier, from_at, until_at FROM featured ORDER BY tier DESC, subject", logger: self.logger)
                .decode((String, Int, Double?, Double?).self)
            { rows.append((r.0, r.1, r.2, r.3)) }
            var t: [(String, String, String)] = []
            for try await r in try await conn.query("SELECT subject, language, text FROM featured_tagline", logger: self.logger).decode((String, String, String).self) {
                t.append(r)
            }
            return ConsoleSQL.featured(rows, taglines: t)
        }
    }

    public func announcementList() async throws(PulseStoreError) -> [PulseAnnouncement] {
        try await run { conn in
            var rows: [(id: String, style: String, feeds: String, positions: String, languages: String, from: Double?, until: Double?, link: String?)] = []
            for try await r in try await conn.query(
                "SELECT id, style, feeds, positions, languages, from_at, until_at, link FROM announcement ORDER BY id", logger: self.logger
            ).decode((String, String, String, String, String, Double?, Double?, String?).self) { rows.append((r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7)) }
            var t: [(String, String, String)] = []
            for try await r in try await conn.query("SELECT id, language, text FROM announcement_text", logger: self.logger).decode((String, String, String).self) {
                t.append(r)
            }
            return ConsoleSQL.announcements(rows, texts: t)
        }
    }

    public func reports(on id: NoteID) async throws(PulseStoreError) -> [(visitor: VisitorID, at: Date)] {
        let rows: [(String, Double)] = try await run { conn in
            var out: [(String, Double)] = []
            for try await r in try await conn.query("SELECT visitor, at FROM report WHERE note = \(id.key) ORDER BY at", logger: self.logger).decode((String, Double).self) {
                out.append(r)
            }
            return out
        }
        return rows.compactMap { r in VisitorID(r.0).map { ($0, Date(timeIntervalSince1970: r.1)) } }
    }

    public func reports(on ids: [NoteID]) async throws(PulseStoreError) -> [NoteID: [(visitor: VisitorID, at: Date)]] {
        guard !ids.isEmpty else { return [:] }
        let keys = ids.map(\.key)
        let rows: [(String, String, Double)] = try await run { conn in
            var out: [(String, String, Double)] = []
            for try await r in try await conn.query("SELECT note, visitor, at FROM report WHERE note = ANY(\(keys)) ORDER BY at", logger: self.logger)
                .decode((String, String, Double).self) { out.append(r) }
            return out
        }
        var out: [NoteID: [(visitor: VisitorID, at: Date)]] = [:]
        for r in rows { if let n = NoteID(key: r.0), let v = VisitorID(r.1) { out[n, default: []].append((v, Date(timeIntervalSince1970: r.2))) } }
        return out
    }

    public func decide(_ id: NoteID, _ decision: StaffDecision, expected: StaffDecision?) async throws(PulseStoreError) -> (note: PulseNote, changed: Bool) {
        try await write(bump: true) { conn, now in
            // The row lock makes two staff deciding at once take turns: the second sees the first's.
            guard let current = try await self.notes(conn, "\(unescaped: ConsoleSQL.noteColumns) WHERE n.id = \(id.key) FOR UPDATE OF n").first else {
                throw PulseStoreError.noSuchNote(id)
            }
            guard current.decision == expected else { return ((current, false), false) }
            if decision == .restored {
                try await conn.query("UPDATE note SET decision = 'restored', reports = 0, restored_at = \(now) WHERE id = \(id.key)", logger: self.logger)
            } else {
                try await conn.query("UPDATE note SET decision = \(decision.rawValue) WHERE id = \(id.key)", logger: self.logger)
            }
            guard let n = try await self.notes(conn, "\(unescaped: ConsoleSQL.noteColumns) WHERE n.id = \(id.key)").first else { throw PulseStoreError.noSuchNote(id) }
            return ((n, true), true)
        }
    }

    public func ban(_ visitor: VisitorID, by staff: String) async throws(PulseStoreError) -> (changed: Bool, notes: Int) {
        try await write(bump: true) { conn, now in
            let v = visitor.rawValue
            let inserted = try await self.affected(
                conn, "INSERT INTO staff_ban (visitor, at, staff) VALUES (\(v), \(now), \(staff)) ON CONFLICT (visitor) DO NOTHING RETURNING 1")
            guard inserted > 0 else { return ((false, 0), false) }
            let prefix = ConsoleSQL.bannedPrefix
            try await conn.query("UPDATE visitor SET secret = \(prefix) || secret WHERE id = \(v) AND secret NOT LIKE \(prefix + "%")", logger: self.logger)
            let n = try await self.affected(
                conn, "UPDATE note SET decision = 'removed' WHERE visitor = \(v) AND author = 'visitor' AND (decision IS NULL OR decision <> 'removed') RETURNING 1")
            return ((true, n), true)
        }
    }

    public func unban(_ visitor: VisitorID) async throws(PulseStoreError) -> Bool {
        try await write(bump: true) { conn, _ in
            let v = visitor.rawValue
            guard try await self.affected(conn, "DELETE FROM staff_ban WHERE visitor = \(v) RETURNING 1") > 0 else { return (false, false) }
            let prefix = ConsoleSQL.bannedPrefix
            try await conn.query(
                "UPDATE visitor SET secret = substr(secret, \(Int32(prefix.count + 1))) WHERE id = \(v) AND secret LIKE \(prefix + "%")", logger: self.logger)
            return (true, true)
        }
    }

    public func bans() async throws(PulseStoreError) -> [(visitor: VisitorID, at: Date, staff: String)] {
        let rows: [(String, Double, String)] = try await run { conn in
            var out: [(String, Double, String)] = []
            for try await r in try await conn.query("SELECT visitor, at, staff FROM staff_ban ORDER BY at DESC", logger: self.logger).decode((String, Double, String).self) {
                out.append(r)
            }
            return out
        }
        return rows.compactMap { r in VisitorID(r.0).map { ($0, Date(timeIntervalSince1970: r.1), r.2) } }
    }

    public func erase(_ visitor: VisitorID) async throws(PulseStoreError) -> ErasedVisitor {
        try await write(bump: true) { conn, _ in
            let v = visitor.rawValue
            let l = self.logger
            // The same lock as the visitor's own writes: nothing of theirs lands meanwhile.
            try await conn.query("SELECT pg_advisory_xact_lock(hashtextextended(\(v), 7301))", logger: l)
            var out = ErasedVisitor()
            out.existed = try await self.affected(conn, "SELECT 1 FROM visitor WHERE id = \(v)") > 0
            try await conn.query(
                """
                UPDATE counts SET
                    up = counts.up - x.up, meh = counts.meh - x.meh, down = counts.down - x.down
                FROM (SELECT subject, COUNT(*) FILTER (WHERE value = 1) AS up, COUNT(*) FILTER (WHERE value = 0) AS meh,
                             COUNT(*) FILTER (WHERE value = -1) AS down
                      FROM reaction WHERE visitor = \(v) GROUP BY subject) AS x
                WHERE counts.subject = x.subject
                """, logger: l)
            out.reactions = try await self.affected(conn, "DELETE FROM reaction WHERE visitor = \(v) RETURNING 1")
            try await conn.query(
                """
                UPDATE note SET reports = note.reports - 1 FROM report r
                WHERE r.note = note.id AND r.visitor = \(v) AND r.at > COALESCE(note.restored_at, -1e300)
                """, logger: l)
            out.reports = try await self.affected(conn, "DELETE FROM report WHERE visitor = \(v) RETURNING 1")
            var ids: [String] = []
            for try await id in try await conn.query("SELECT id FROM note WHERE visitor = \(v) AND author = 'visitor'", logger: l).decode(String.self) { ids.append(id) }
            for id in ids { try await self.deleteNote(id, conn) }
            out.notes = ids.count
            out.activity = try await self.affected(conn, "DELETE FROM activity WHERE visitor = \(v) RETURNING 1")
            try await conn.query("DELETE FROM staff_ban WHERE visitor = \(v)", logger: l)
            try await conn.query("DELETE FROM visitor WHERE id = \(v)", logger: l)
            return (out, true)
        }
    }

    private func deleteNote(_ id: String, _ conn: PostgresConnection) async throws {
        let s = "note:" + id
        try await conn.query("DELETE FROM reaction WHERE subject = \(s)", logger: logger)
        try await conn.query("DELETE FROM counts WHERE subject = \(s)", logger: logger)
        try await conn.query("DELETE FROM report WHERE note = \(id)", logger: logger)
        try await conn.query("DELETE FROM note WHERE id = \(id)", logger: logger)
    }

    public func deleteOwnNote(_ id: NoteID, as c: VisitorCredentials) async throws(PulseStoreError) {
        let _: Void = try await write(bump: true) { conn, _ in
            try await conn.query("SELECT pg_advisory_xact_lock(hashtextextended(\(c.visitor.rawValue), 7301))", logger: self.logger)
            let secret = try await PostgresPulseStore.one(conn.query("SELECT secret FROM visitor WHERE id = \(c.visitor.rawValue)", logger: self.logger), String.self)
            guard secret == c.secret else { throw PulseStoreError.badCredentials }
            guard id.visitor == c.visitor, try await self.affected(conn, "SELECT 1 FROM note WHERE id = \(id.key) AND author = 'visitor'") > 0 else {
                throw PulseStoreError.noSuchNote(id)
            }
            try await self.deleteNote(id.key, conn)
            return ((), true)
        }
    }

    // MARK: The museum's pulse

    /// Whole past days counted once into `staff_day` (as the SQLite store does); several
    /// instances counting the same day at once take turns on an advisory lock.
    private func rollUp(_ conn: PostgresConnection, fromDay: Int, today: Int, offset: Int) async throws {
        let first = max(fromDay, today - ConsoleSQL.rollUpDays)
        guard first < today else { return }
        var done = Set<Int>()
        for try await d in try await conn.query(
            "SELECT day FROM staff_day_done WHERE zone_offset = \(offset) AND day >= \(first) AND day < \(today)", logger: logger
        ).decode(Int.self) { done.insert(d) }
        if (first..<today).allSatisfy(done.contains) { return }
        try await conn.query("SELECT pg_advisory_xact_lock(7301302)", logger: logger)
        done = []
        for try await d in try await conn.query(
            "SELECT day FROM staff_day_done WHERE zone_offset = \(offset) AND day >= \(first) AND day < \(today)", logger: logger
        ).decode(Int.self) { done.insert(d) }
        for day in first..<today where !done.contains(day) {
            let start = Double(day) * 86400 - Double(offset)
            try await conn.query(
                """
                INSERT INTO staff_day (zone_offset, day, kind, subject, n)
                SELECT \(offset), \(day), kind, subject, COUNT(*) FROM activity WHERE at >= \(start) AND at < \(start + 86400) GROUP BY kind, subject
                ON CONFLICT (zone_offset, day, kind, subject) DO UPDATE SET n = excluded.n
                """, logger: logger)
            try await conn.query("INSERT INTO staff_day_done (zone_offset, day) VALUES (\(offset), \(day)) ON CONFLICT DO NOTHING", logger: logger)
        }
    }

    private func today(_ offset: Int) -> Int { Int(floor((clock().timeIntervalSince1970 + Double(offset)) / 86400)) }

    public func countPastDays(offset: Int) async throws(PulseStoreError) {
        let today = self.today(offset)
        try await write { conn, _ in
            try await self.rollUp(conn, fromDay: today - ConsoleSQL.rollUpDays, today: today, offset: offset)
            return ((), false)
        }
    }

    public func activityPerDay(from: Date, offset: Int) async throws(PulseStoreError) -> [Int: ActivityDay] {
        let today = self.today(offset)
        let fromDay = Int(floor((from.timeIntervalSince1970 + Double(offset)) / 86400))
        return try await write { conn, _ in
            try await self.rollUp(conn, fromDay: fromDay, today: today, offset: offset)
            var out: [Int: ActivityDay] = [:]
            for try await (d, kind, n) in try await conn.query(
                "SELECT day, kind, SUM(n)::INTEGER FROM staff_day WHERE zone_offset = \(offset) AND day >= \(fromDay) AND day < \(today) GROUP BY day, kind",
                logger: self.logger
            ).decode((Int, String, Int).self) { out[d, default: ActivityDay()].add(kind: kind, n) }
            let start = Double(today) * 86400 - Double(offset)
            for try await (kind, n) in try await conn.query(
                "SELECT kind, COUNT(*)::INTEGER FROM activity WHERE at >= \(start) GROUP BY kind", logger: self.logger
            ).decode((String, Int).self) { out[today, default: ActivityDay()].add(kind: kind, n) }
            return (out, false)
        }
    }

    private func subjectCounts(kind: String, like pattern: String, since from: Date, offset: Int) async throws(PulseStoreError) -> [String: Int] {
        let today = self.today(offset)
        let fromDay = Int(floor((from.timeIntervalSince1970 + Double(offset)) / 86400))
        return try await write { conn, _ in
            try await self.rollUp(conn, fromDay: fromDay, today: today, offset: offset)
            var out: [String: Int] = [:]
            for try await (subject, n) in try await conn.query(
                """
                SELECT subject, SUM(n)::INTEGER FROM staff_day
                WHERE zone_offset = \(offset) AND day >= \(fromDay) AND day < \(today) AND kind = \(kind) AND subject LIKE \(pattern) GROUP BY subject
                """, logger: self.logger
            ).decode((String, Int).self) { out[subject, default: 0] += n }
            let start = max(from.timeIntervalSince1970, Double(today) * 86400 - Double(offset))
            for try await (subject, n) in try await conn.query(
                "SELECT subject, COUNT(*)::INTEGER FROM activity WHERE at >= \(start) AND kind = \(kind) AND subject LIKE \(pattern) GROUP BY subject",
                logger: self.logger
            ).decode((String, Int).self) { out[subject, default: 0] += n }
            return (out, false)
        }
    }

    public func top(kind: String, since from: Date, offset: Int, limit: Int) async throws(PulseStoreError) -> [(subject: PulseSubject, count: Int)] {
        ConsoleSQL.ranked(try await subjectCounts(kind: kind, like: "%", since: from, offset: offset), limit: limit)
    }

    public func bestLiked(limit: Int) async throws(PulseStoreError) -> [(subject: PulseSubject, counts: PulseCounts)] {
        let rows: [(String, Int, Int, Int)] = try await run { conn in
            var out: [(String, Int, Int, Int)] = []
            for try await r in try await conn.query(
                "SELECT subject, up, meh, down FROM counts WHERE subject NOT LIKE 'note:%' AND up > 0 ORDER BY up - down DESC, subject LIMIT \(limit)", logger: self.logger
            ).decode((String, Int, Int, Int).self) { out.append(r) }
            return out
        }
        return rows.compactMap { r in PulseSubject(r.0).map { ($0, PulseCounts(up: r.1, meh: r.2, down: r.3)) } }
    }

    public func stopPlays(since from: Date, offset: Int) async throws(PulseStoreError) -> [(subject: PulseSubject, count: Int)] {
        ConsoleSQL.ranked(try await subjectCounts(kind: "play", like: "stop:%", since: from, offset: offset), limit: Int.max)
    }

}

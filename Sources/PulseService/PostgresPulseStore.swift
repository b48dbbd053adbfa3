import PulseKit
import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import PulseKitSQLite

/// Pulse in PostgreSQL, for museums that run several `docent-pulse` instances behind a load
/// balancer: the instances keep no state of their own, so any of them answers any request.
///
/// The same rules and the same schema shape as `SQLitePulseStore`, with the concurrency of a
/// server made explicit (SQLite has one writer at a time; PostgreSQL has many):
/// - Every write of a visitor first takes a transaction-scoped advisory lock on that visitor,
///   so one visitor's writes are serial (a reaction toggled from two kiosks at once reads the
///   old value the other left) while different visitors write in parallel. The old reaction,
///   the new row, the counts delta and the rate-limit check are one transaction: counts stay
///   equal to a recount of the rows however many instances write at once.
/// - Counts change by `INSERT … ON CONFLICT DO UPDATE SET up = counts.up + …`: one row lock,
///   held to the commit, and no lost update.
/// - The version is the sum of 16 counters; a write bumps the counter of its visitor's shard
///   as its last statement. A snapshot reads the sum and the rows in one REPEATABLE READ
///   transaction, so a write it did not see commits later and makes the sum grow: a reader
///   can never keep an ETag for data it missed. One counter would be as correct, but every
///   write of the museum would queue on its row lock through the commit.
/// - Times come from the injected clock (the service's), as in the SQLite store.
/// - When PostgreSQL cannot be reached, every call fails with `.unavailable` within
///   `connectTimeout` (the service answers 503 with `Retry-After`), and the pool reconnects
///   by itself once the server is back.
public final class PostgresPulseStore: PulseServiceStore, @unchecked Sendable {
    public let rules: PulseRules
    /// Where the store connects, without the password (for messages).
    public let location: String
    /// Where it connects, password included (`diagnose`).
    private let parsedLocation: Location
    private let client: PostgresClient
    private let clock: @Sendable () -> Date
    private let runner: Task<Void, Never>?
    private let logger: Logger
    /// This store's `application_name` on its connections: PostgreSQL's own list of sessions
    /// (`pg_stat_activity`) tells this instance's pool from the others' (`poolUse`).
    let applicationName: String
    /// The most connections the pool opens.
    public let maxConnections: Int

    static let shards = 16
    /// How long a call waits for a connection before it says the database is unreachable.
    public static let connectTimeout: Duration = .seconds(2)

    /// A `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]` URL.
    public struct Location: Equatable, Sendable {
        public var user: String
        public var password: String?
        public var host: String
        public var port: Int
        public var database: String
        public var sslMode: String

        public var shown: String { "postgres://\(user)@\(host):\(port)/\(database)" }

        public static func parse(_ text: String) -> Result<Location, LoadFailure> {
            let usage = "as in postgres://docent@127.0.0.1:5432/pulse"
            guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://"), let c = URLComponents(string: text) else {
                return .failure(LoadFailure("not a PostgreSQL URL: '\(text)' (\(usage))"))
            }
            guard let host = c.host, !host.isEmpty else { return .failure(LoadFailure("the PostgreSQL URL names no host (\(usage))")) }
            guard let user = c.user, !user.isEmpty else { return .failure(LoadFailure("the PostgreSQL URL names no user (\(usage))")) }
            let db = String(c.path.drop(while: { $0 == "/" }))
            guard !db.isEmpty, !db.contains("/") else { return .failure(LoadFailure("the PostgreSQL URL names no database (\(usage))")) }
            let port = c.port ?? 5432
            guard (1...65535).contains(port) else { return .failure(LoadFailure("the PostgreSQL URL's port must be 1 to 65535")) }
            let mode = c.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer"
            guard ["disable", "prefer", "require"].contains(mode) else {
                return .failure(LoadFailure("sslmode must be disable, prefer or require, not '\(mode)'"))
            }
            return .success(
                Location(
                    user: user.removingPercentEncoding ?? user, password: c.password?.removingPercentEncoding ?? c.password,
                    host: host, port: port, database: db.removingPercentEncoding ?? db, sslMode: mode))
        }
    }

    /// A store over `client`, which someone else runs (`PostgresPulseDatabase`: the service's
    /// group), or `runner` (`open`: a client of the store's own). Nothing is connected yet.
    init(
        location: Location, client: PostgresClient, runner: Task<Void, Never>?, rules: PulseRules, clock: @escaping @Sendable () -> Date, logger: Logger,
        applicationName: String, maxConnections: Int
    ) {
        self.applicationName = applicationName
        self.maxConnections = maxConnections
        self.location = location.shown
        self.parsedLocation = location
        self.client = client
        self.runner = runner
        self.rules = rules
        self.clock = clock
        self.logger = logger
    }

    /// A client for `location` (not yet running) and its `application_name`.
    static func makeClient(_ location: Location, maxConnections: Int, logger: Logger) -> (PostgresClient, String) {
        let tls: PostgresClient.Configuration.TLS
        switch location.sslMode {
        case "disable": tls = .disable
        case "require": tls = .require(.makeClientConfiguration())
        default: tls = .prefer(.makeClientConfiguration())
        }
        var config = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password, database: location.database, tls: tls)
        config.options.connectTimeout = connectTimeout
        config.options.maximumConnections = max(1, maxConnections)
        // (PostgreSQL keeps 63 bytes of it: "docent-pulse " and 16 hex digits.)
        let name = "docent-pulse " + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        config.options.additionalStartupParameters = [("application_name", name)]
        return (PostgresClient(configuration: config, backgroundLogger: logger), name)
    }

    /// Connects with a client of the store's own, and creates or updates the schema (several
    /// instances starting at once take turns on an advisory lock). Fails with a sentence when
    /// the server cannot be used. For one-shot commands and tests that hold a store across
    /// calls; the service runs one shared client in its group instead (`PostgresPulseDatabase`).
    public static func open(
        _ location: Location, rules: PulseRules = .standard, maxConnections: Int = 20, clock: @escaping @Sendable () -> Date,
        logger: Logger = Logger(label: "docent-pulse.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async -> Result<PostgresPulseStore, LoadFailure> {
        let (client, name) = makeClient(location, maxConnections: maxConnections, logger: logger)
        let runner = Task { await client.run() }
        let store = PostgresPulseStore(
            location: location, client: client, runner: runner, rules: rules, clock: clock, logger: logger, applicationName: name, maxConnections: max(1, maxConnections))
        switch await store.migrate() {
        case .success: return .success(store)
        case .failure(let f):
            runner.cancel()
            return .failure(f)
        }
    }

    /// Stops the store's own client (`open`); a store over a shared client leaves it to its group.
    public func close() {
        runner?.cancel()
    }

    deinit { runner?.cancel() }

    // MARK: Schema

    /// The schema, as numbered steps of statements (never edited once shipped).
    /// Steps after these are described once (`PulseSchema.steps`) and rendered for each store.
    static let migrations: [[String]] =
        [statements(schemaV1), [reactFunction], statements(publicV1), [dropReactFunction]] + PulseSchema.steps.map { PulseSchema.statements($0, .postgres) }

    /// Issue 28: the reaction's rules are `PulseRulesSQL.reaction`'s statements, which the
    /// SQLite store runs too; PostgreSQL runs them in a function made from that text at start
    /// (`ReactionSQL.postgresFunction`, named after its text). The hand-written one goes.
    static let dropReactFunction = "DROP FUNCTION IF EXISTS pulse_react(TEXT, TEXT, TEXT, SMALLINT, DOUBLE PRECISION, INTEGER, INTEGER)"

    /// Pulse in public (issue 32): coalesced plays (one row carries `n` events), curator
    /// picks found without reading every note. (Steps of other branches go after this one.)
    static let publicV1 = """
        ALTER TABLE activity ADD COLUMN n INTEGER NOT NULL DEFAULT 1;
        CREATE INDEX note_author ON note (author, subject)
        """

    static func statements(_ sql: String) -> [String] {
        sql.split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    static let schemaV1 = """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL);
        INSERT INTO meta (key, value) VALUES ('seeded', 0);
        CREATE TABLE version_shard (shard INTEGER PRIMARY KEY, value BIGINT NOT NULL);
        INSERT INTO version_shard (shard, value) SELECT s, 0 FROM generate_series(0, 15) AS s;
        CREATE TABLE visitor (id TEXT PRIMARY KEY, secret TEXT NOT NULL, created DOUBLE PRECISION NOT NULL);
        CREATE TABLE note (
            id TEXT PRIMARY KEY, visitor TEXT NOT NULL, seq BIGINT NOT NULL, subject TEXT NOT NULL,
            language TEXT NOT NULL, text TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,
            author TEXT NOT NULL CHECK (author IN ('visitor', 'curator')),
            reports INTEGER NOT NULL DEFAULT 0, decision TEXT, restored_at DOUBLE PRECISION);
        CREATE INDEX note_subject ON note (subject, created);
        CREATE TABLE reaction (
            subject TEXT NOT NULL, visitor TEXT NOT NULL, value SMALLINT NOT NULL CHECK (value IN (-1, 0, 1)),
            at DOUBLE PRECISION NOT NULL, PRIMARY KEY (subject, visitor));
        CREATE INDEX reaction_visitor ON reaction (visitor);
        CREATE TABLE counts (
            subject TEXT PRIMARY KEY, up INTEGER NOT NULL DEFAULT 0, meh INTEGER NOT NULL DEFAULT 0, down INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE report (note TEXT NOT NULL, visitor TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, PRIMARY KEY (note, visitor));
        CREATE INDEX report_visitor ON report (visitor);
        CREATE TABLE featured (subject TEXT PRIMARY KEY, tier INTEGER NOT NULL, from_at DOUBLE PRECISION, until_at DOUBLE PRECISION);
        CREATE TABLE featured_tagline (subject TEXT NOT NULL, language TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (subject, language));
        CREATE TABLE announcement (
            id TEXT PRIMARY KEY, style TEXT NOT NULL, feeds TEXT NOT NULL, positions TEXT NOT NULL,
            languages TEXT NOT NULL, from_at DOUBLE PRECISION, until_at DOUBLE PRECISION, link TEXT);
        CREATE TABLE announcement_text (id TEXT NOT NULL, language TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (id, language));
        CREATE TABLE activity (subject TEXT NOT NULL, kind TEXT NOT NULL, visitor TEXT, at DOUBLE PRECISION NOT NULL);
        CREATE INDEX activity_at ON activity (at);
        CREATE INDEX activity_visitor ON activity (visitor, kind, at);
        """

    /// Shipped as step 2, dropped by step 4 (`dropReactFunction`): kept as shipped, since an
    /// installed database replays the steps it has not run. A reaction in one statement (one
    /// round trip, atomic as any statement): the same steps as `SQLitePulseStore.react` — the visitor's lock and secret, the note it is about, the
    /// old value (the same again: nothing changes), the rate limit as `PulseRules.check`
    /// computes it, the row, the counts by the difference, the activity, the version — so the
    /// service is not ten round trips per click. Answers (outcome, up, meh, down, wait).
    static let reactFunction = """
        CREATE OR REPLACE FUNCTION pulse_react(
            p_visitor TEXT, p_secret TEXT, p_subject TEXT, p_value SMALLINT, p_now DOUBLE PRECISION, p_limit INTEGER, p_shard INTEGER)
        RETURNS TABLE (outcome TEXT, up INTEGER, meh INTEGER, down INTEGER, wait INTEGER)
        LANGUAGE plpgsql AS $$
        DECLARE
            v_old SMALLINT;
            v_had BOOLEAN;
            v_target TEXT := p_subject;
            v_oldest DOUBLE PRECISION;
            c_up INTEGER; c_meh INTEGER; c_down INTEGER;
        BEGIN
            PERFORM pg_advisory_xact_lock(hashtextextended(p_visitor, 7301));
            PERFORM 1 FROM visitor WHERE id = p_visitor AND secret = p_secret;
            IF NOT FOUND THEN
                RETURN QUERY SELECT 'bad_credentials'::TEXT, 0, 0, 0, 0; RETURN;
            END IF;
            IF p_subject LIKE 'note:%' THEN
                SELECT n.subject INTO v_target FROM note n WHERE n.id = substr(p_subject, 6);
                IF NOT FOUND THEN
                    RETURN QUERY SELECT 'no_such_note'::TEXT, 0, 0, 0, 0; RETURN;
                END IF;
            END IF;
            SELECT r.value INTO v_old FROM reaction r WHERE r.subject = p_subject AND r.visitor = p_visitor;
            v_had := FOUND;
            IF (v_had AND p_value IS NOT DISTINCT FROM v_old) OR (NOT v_had AND p_value IS NULL) THEN
                RETURN QUERY SELECT 'same'::TEXT, COALESCE(c.up, 0), COALESCE(c.meh, 0), COALESCE(c.down, 0), 0
                    FROM (SELECT 1) AS one LEFT JOIN counts c ON c.subject = p_subject;
                RETURN;
            END IF;
            SELECT a.at INTO v_oldest FROM activity a
                WHERE a.visitor = p_visitor AND a.kind IN ('reaction', 'report') AND a.at > p_now - 60 AND a.at <= p_now
                ORDER BY a.at DESC OFFSET GREATEST(p_limit, 1) - 1 LIMIT 1;
            IF FOUND THEN
                RETURN QUERY SELECT 'rate_limited'::TEXT, 0, 0, 0, GREATEST(1, ceil(60 - (p_now - v_oldest))::INTEGER); RETURN;
            END IF;
            IF p_value IS NULL THEN
                DELETE FROM reaction r WHERE r.subject = p_subject AND r.visitor = p_visitor;
            ELSE
                INSERT INTO reaction AS r (subject, visitor, value, at) VALUES (p_subject, p_visitor, p_value, p_now)
                    ON CONFLICT (subject, visitor) DO UPDATE SET value = excluded.value, at = excluded.at;
            END IF;
            INSERT INTO counts AS c (subject, up, meh, down) VALUES (
                p_subject,
                (CASE WHEN p_value = 1 THEN 1 ELSE 0 END) - (CASE WHEN v_had AND v_old = 1 THEN 1 ELSE 0 END),
                (CASE WHEN p_value = 0 THEN 1 ELSE 0 END) - (CASE WHEN v_had AND v_old = 0 THEN 1 ELSE 0 END),
                (CASE WHEN p_value = -1 THEN 1 ELSE 0 END) - (CASE WHEN v_had AND v_old = -1 THEN 1 ELSE 0 END))
                ON CONFLICT (subject) DO UPDATE SET up = c.up + excluded.up, meh = c.meh + excluded.meh, down = c.down + excluded.down
                RETURNING c.up, c.meh, c.down INTO c_up, c_meh, c_down;
            INSERT INTO activity (subject, kind, visitor, at) VALUES (v_target, 'reaction', p_visitor, p_now);
            UPDATE version_shard SET value = value + 1 WHERE shard = p_shard;
            RETURN QUERY SELECT 'changed'::TEXT, c_up, c_meh, c_down, 0;
        END;
        $$
        """

    /// Creates or updates the schema (several instances starting at once take turns on an
    /// advisory lock); when the server cannot be used, a sentence saying so.
    func migrate() async -> Result<Void, LoadFailure> {
        do {
            try await deadline { try await self.migrateNow() }
            return .success(())
        } catch {
            let reason = await Self.diagnose(parsedLocation) ?? Self.describe(error)
            return .failure(LoadFailure("cannot use PostgreSQL at \(location) (\(reason))"))
        }
    }

    /// Why a connection to `location` fails, in PostgreSQL's words when it answered (no such
    /// database, a password refused), from one connection of its own: the pool retries in the
    /// background and only says that no connection came. Nil when one connects.
    static func diagnose(_ location: Location) async -> String? {
        var config = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password, database: location.database, tls: .disable)
        do {
            switch location.sslMode {
            case "disable": break
            case "require": config.tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            default: config.tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            config.options.connectTimeout = .seconds(connectTimeout.components.seconds)
            let connection = try await PostgresConnection.connect(configuration: config, id: 1, logger: Logger(label: "docent-pulse.diagnose", factory: { _ in SwiftLogNoOpLogHandler() }))
            try? await connection.close()
            return nil
        } catch {
            return describe(error)
        }
    }

    private func migrateNow() async throws {
        try await client.withTransaction(logger: logger) { conn in
            // One instance at a time; the others find the schema done.
            try await conn.query("SELECT pg_advisory_xact_lock(7301300)", logger: logger)
            try await conn.query("CREATE TABLE IF NOT EXISTS pulse_schema (step INTEGER PRIMARY KEY)", logger: logger)
            var done = 0
            for try await n in try await conn.query("SELECT COALESCE(MAX(step), 0) FROM pulse_schema", logger: logger).decode(Int.self) { done = n }
            for (i, step) in Self.migrations.enumerated() where i + 1 > done {
                for statement in step {
                    try await conn.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await conn.query("INSERT INTO pulse_schema (step) VALUES (\(i + 1))", logger: logger)
            }
            // The reaction function this build's rules make (a no-op when it exists as is).
            try await conn.query(PostgresQuery(unsafeSQL: Self.reaction.create), logger: logger)
        }
    }

    /// The reaction's function (`PulseRulesSQL.reaction`, rendered once).
    static let reaction = PulseRulesSQL(.standard, .postgres).reaction.postgresFunction
    public static var reactionFunctionName: String { reaction.name }

    // MARK: PulseStore

    public func register(_ credentials: VisitorCredentials) async throws(PulseStoreError) {
        // The museum's namespace (`VisitorID.isReserved`) is nobody's to register.
        guard !credentials.visitor.isReserved else { throw .badCredentials }
        try await write(credentials.visitor) { (conn: PostgresConnection, now: Date, result: inout Void?) in
            result = ()
            let rows = try await conn.query("SELECT secret FROM visitor WHERE id = \(credentials.visitor.rawValue)", logger: self.logger)
            for try await secret in rows.decode(String.self) {
                guard secret == credentials.secret else { throw PulseStoreError.badCredentials }
                return false
            }
            try await conn.query(
                "INSERT INTO visitor (id, secret, created) VALUES (\(credentials.visitor.rawValue), \(credentials.secret), \(now.timeIntervalSince1970))",
                logger: self.logger)
            return false  // nobody sees a new visitor: the version stays
        }
    }

    public func snapshot(viewer: VisitorID?, dayStart: Date, since: PulseVersion?) async throws(PulseStoreError) -> PulseSnapshot? {
        let now = clock()
        let rules = self.rules
        return try await read { conn in
            let version = PulseVersion(try await Self.one(conn.query("SELECT COALESCE(SUM(value), 0)::BIGINT FROM version_shard", logger: self.logger), Int64.self) ?? 0)
            if let since, since == version { return nil }
            var snap = PulseSnapshot(version: version, takenAt: now)
            for try await (key, up, meh, down) in try await conn.query(
                "SELECT subject, up, meh, down FROM counts WHERE up + meh + down > 0 AND subject NOT LIKE 'note:%'", logger: self.logger
            ).decode((String, Int, Int, Int).self) {
                if let s = PulseSubject(key) { snap.counts[s] = PulseCounts(up: up, meh: meh, down: down) }
            }
            if let viewer {
                for try await (key, value) in try await conn.query("SELECT subject, value FROM reaction WHERE visitor = \(viewer.rawValue)", logger: self.logger)
                    .decode((String, Int16).self)
                {
                    if let s = PulseSubject(key), let v = ReactionValue(rawValue: Int(value)) { snap.mine[s] = v }
                }
                snap.myReports = try await self.reports(of: viewer, conn)
            }
            // Counted by the database (`PulseRulesSQL`, the SQLite store's statement): no note is loaded.
            var binds = PostgresBindings()
            Self.bind(&binds, viewer?.rawValue)
            for try await (key, n) in try await conn.query(PostgresQuery(unsafeSQL: PulseRulesSQL(rules, .postgres).noteCounts(now: now), binds: binds), logger: self.logger)
                .decode((String, Int64).self)
            {
                if let s = PulseSubject(key) { snap.noteCounts[s] = Int(n) }
            }
            for try await key in try await conn.query("SELECT DISTINCT subject FROM note WHERE author = 'curator'", logger: self.logger).decode(String.self) {
                if let s = PulseSubject(key) { snap.curatorPicks.insert(s) }
            }
            snap.featured = try await self.featured(conn).filter { $0.isActive(at: now) }
            snap.announcements = try await self.announcements(conn).filter { a in a.until.map { now < $0 } ?? true }
            let hour = now.addingTimeInterval(-rules.recentWindow).timeIntervalSince1970
            let day = dayStart.timeIntervalSince1970
            let from = min(hour, day)
            let to = now.timeIntervalSince1970
            for try await (key, recent, today, last) in try await conn.query(
                """
                SELECT subject, SUM(CASE WHEN at >= \(hour) THEN n ELSE 0 END)::BIGINT AS recent, SUM(CASE WHEN at >= \(day) THEN n ELSE 0 END)::BIGINT AS today, MAX(at)
                FROM activity WHERE kind IN ('play', 'reaction', 'note') AND at >= \(from) AND at <= \(to) GROUP BY subject
                ORDER BY recent DESC, today DESC, subject COLLATE "C" LIMIT \(rules.snapshotActivityLimit)
                """, logger: self.logger
            ).decode((String, Int64, Int64, Double?).self) {
                guard let s = PulseSubject(key) else { continue }
                snap.activity[s] = PulseActivitySummary(
                    recent: PulseBounds.wireCount(Int(recent)), today: PulseBounds.wireCount(Int(today)), last: last.map(PulseBounds.time))
            }
            return snap
        }
    }

    /// The newest page of the notes a viewer sees (`PulseRules.notesPage` of them).
    public func notes(on subject: PulseSubject, viewer: VisitorID?) async throws(PulseStoreError) -> [PulseNote] {
        try await notes(on: subject, viewer: viewer, after: nil, limit: rules.notesPage).notes
    }

    /// One page of the notes a viewer sees, after `cursor` (nil: the newest).
    public func notes(on subject: PulseSubject, viewer: VisitorID?, after cursor: PulseCursor?, limit: Int) async throws(PulseStoreError) -> PulsePage {
        let sql = PulseRulesSQL(rules, .postgres).notesPage(now: clock(), limit: limit + 1)
        return try await read { conn in
            var binds = PostgresBindings()
            Self.bind(&binds, viewer?.rawValue)
            binds.append(subject.key)
            Self.bind(&binds, cursor)
            let notes = try await Self.notes(conn.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: self.logger))
            return SQLitePulseStore.page(notes, limit: limit)
        }
    }

    /// Reported or score-hidden notes awaiting staff, oldest first, one page after `cursor`.
    public func moderationQueue(after cursor: PulseCursor?, limit: Int) async throws(PulseStoreError) -> PulsePage {
        try await page(PulseRulesSQL(rules, .postgres).moderationQueue(limit: limit + 1), after: cursor, limit: limit)
    }

    public func exportNotes(after cursor: PulseCursor?, limit: Int) async throws(PulseStoreError) -> PulsePage {
        try await page(PulseRulesSQL(rules, .postgres).exportNotes(limit: limit + 1), after: cursor, limit: limit)
    }

    /// One page of a query whose parameters 1 to 3 are the cursor (`limit + 1` rows asked).
    private func page(_ sql: String, after cursor: PulseCursor?, limit: Int) async throws(PulseStoreError) -> PulsePage {
        try await read { conn in
            var binds = PostgresBindings()
            Self.bind(&binds, cursor)
            let notes = try await Self.notes(conn.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: self.logger))
            return SQLitePulseStore.page(notes, limit: limit)
        }
    }

    static func bind(_ binds: inout PostgresBindings, _ text: String?) {
        if let text { binds.append(text) } else { binds.appendNull() }
    }

    /// A cursor's three values (created, visitor, sequence), or three NULLs.
    static func bind(_ binds: inout PostgresBindings, _ cursor: PulseCursor?) {
        if let cursor {
            binds.append(cursor.created)
            binds.append(cursor.id.visitor.rawValue)
            binds.append(Int64(bitPattern: cursor.id.sequence))
        } else {
            binds.appendNull()
            binds.appendNull()
            binds.appendNull()
        }
    }

    public func react(_ value: ReactionValue?, on subject: PulseSubject, as credentials: VisitorCredentials) async throws(PulseStoreError) -> PulseCounts {
        let now = clock().timeIntervalSince1970
        let limit = rules.reactionsPerMinute
        let shard = Self.shard(of: credentials.visitor.rawValue)
        let v = value.map { Int16($0.rawValue) }
        let function = Self.reaction.name
        let (outcome, counts, wait): (String, PulseCounts, Int) = try await call { conn in
            var binds = PostgresBindings()
            binds.append(credentials.visitor.rawValue)
            binds.append(credentials.secret)
            binds.append(subject.key)
            if let v { binds.append(v) } else { binds.appendNull() }
            binds.append(now)
            binds.append(Int32(clamping: limit))
            binds.append(Int32(shard))
            let rows = try await conn.query(
                PostgresQuery(
                    unsafeSQL: "SELECT o_outcome, o_up, o_meh, o_down, o_wait FROM \(function)($1, $2, $3, $4::SMALLINT, $5, $6::INTEGER, $7::INTEGER)", binds: binds),
                logger: self.logger)
            for try await (outcome, up, meh, down, wait) in rows.decode((String, Int, Int, Int, Int).self) {
                return (outcome, PulseCounts(up: up, meh: meh, down: down), wait)
            }
            return ("", .zero, 0)
        }
        switch ReactionSQL.Outcome(rawValue: outcome) {
        case .same, .changed: return counts
        case .badCredentials: throw .badCredentials
        case .noSuchNote: throw .noSuchNote(subject.noteID ?? NoteID(visitor: credentials.visitor, sequence: 0))
        case .rateLimited: throw .rateLimited(.reactions(retryAfter: wait))
        case nil: throw .unavailable("the database answered no reaction outcome")
        }
    }

    public func post(_ draft: NoteDraft, as credentials: VisitorCredentials) async throws(PulseStoreError) -> PostOutcome {
        let rules = self.rules
        let text: String
        switch NoteText.clean(draft.text) {
        case .success(let t): text = t
        case .failure(let p): throw .badText(p)
        }
        return try await write(credentials.visitor) { conn, now, result in
            try await self.check(credentials, conn)
            guard draft.id.visitor == credentials.visitor else { throw PulseStoreError.badCredentials }
            for try await (subject, stored) in try await conn.query("SELECT subject, text FROM note WHERE id = \(draft.id.key)", logger: self.logger)
                .decode((String, String).self)
            {
                guard subject == draft.subject.key, stored == text else { throw PulseStoreError.conflict(draft.id) }
                guard let note = try await self.note(conn, id: draft.id) else { throw PulseStoreError.noSuchNote(draft.id) }
                result = .alreadyStored(note)
                return false
            }
            let recent = try await self.times(of: credentials.visitor, kinds: ["note"], since: now.addingTimeInterval(-3600), conn)
            if let wait = PulseRules.check(recent, now: now, limit: rules.notesPerHour, per: 3600) { throw PulseStoreError.rateLimited(.notes(retryAfter: wait)) }
            try await conn.query(
                """
                INSERT INTO note (id, visitor, seq, subject, language, text, created, author)
                VALUES (\(draft.id.key), \(draft.id.visitor.rawValue), \(Int64(bitPattern: draft.id.sequence)), \(draft.subject.key), \(draft.language.code), \(text), \(now.timeIntervalSince1970), 'visitor')
                """, logger: self.logger)
            try await self.activity(draft.subject, .note, credentials.visitor, now, conn)
            guard let note = try await self.note(conn, id: draft.id) else { throw PulseStoreError.noSuchNote(draft.id) }
            result = .created(note)
            return true
        }
    }

    public func deleteOwnNote(_ note: NoteID, as credentials: VisitorCredentials) async throws(PulseStoreError) {
        try await write(credentials.visitor) { (conn: PostgresConnection, _: Date, result: inout Void?) in
            result = ()
            try await self.check(credentials, conn)
            var found = false
            for try await _ in try await conn.query("SELECT 1 FROM note WHERE id = \(note.key) AND author = 'visitor' FOR UPDATE", logger: self.logger).decode(Int32.self) {
                found = true
            }
            guard note.visitor == credentials.visitor, found else { throw PulseStoreError.noSuchNote(note) }
            let s = "note:" + note.key
            try await conn.query("DELETE FROM reaction WHERE subject = \(s)", logger: self.logger)
            try await conn.query("DELETE FROM counts WHERE subject = \(s)", logger: self.logger)
            try await conn.query("DELETE FROM report WHERE note = \(note.key)", logger: self.logger)
            try await conn.query("DELETE FROM note WHERE id = \(note.key)", logger: self.logger)
            return true
        }
    }

    public func report(_ note: NoteID, _ reported: Bool, as credentials: VisitorCredentials) async throws(PulseStoreError) {
        let rules = self.rules
        let v = credentials.visitor.rawValue
        try await write(credentials.visitor) { (conn: PostgresConnection, now: Date, result: inout Void?) in
            result = ()
            try await self.check(credentials, conn)
            // The note's row is locked: staff restoring it and a report are one after the other.
            var restoredAt: Double??
            for try await r in try await conn.query("SELECT restored_at FROM note WHERE id = \(note.key) FOR UPDATE", logger: self.logger).decode(Double?.self) {
                restoredAt = .some(r)
            }
            guard let restoredAt else { throw PulseStoreError.noSuchNote(note) }
            let existing = try await Self.one(conn.query("SELECT at FROM report WHERE note = \(note.key) AND visitor = \(v)", logger: self.logger), Double.self)
            if reported == (existing != nil) { return false }  // a retry
            try await self.limitReactions(credentials.visitor, now: now, rules: rules, conn)
            let at = now.timeIntervalSince1970
            if reported {
                try await conn.query("INSERT INTO report (note, visitor, at) VALUES (\(note.key), \(v), \(at))", logger: self.logger)
                try await conn.query("UPDATE note SET reports = reports + 1 WHERE id = \(note.key)", logger: self.logger)
            } else {
                try await conn.query("DELETE FROM report WHERE note = \(note.key) AND visitor = \(v)", logger: self.logger)
                // A report made before staff restored the note no longer counted.
                if let existing, existing > (restoredAt ?? -Double.infinity) {
                    try await conn.query("UPDATE note SET reports = reports - 1 WHERE id = \(note.key)", logger: self.logger)
                }
            }
            try await conn.query(
                "INSERT INTO activity (subject, kind, visitor, at) VALUES (\(PulseSubject.note(note).key), 'report', \(v), \(at))", logger: self.logger)
            return true
        }
    }

    public func recordPlay(_ subject: PulseSubject) async throws(PulseStoreError) {
        try await recordPlays([subject: 1])
    }

    /// Plays gathered by the service over a few seconds, in one transaction and one version step.
    /// As `SQLitePulseStore.recordPlays`.
    public func recordPlays(_ plays: [PulseSubject: Int], versionStep: Bool = true) async throws(PulseStoreError) {
        guard !plays.isEmpty || versionStep else { return }
        if !versionStep {
            // The service's batches (a play's answer waits for one): one statement, atomic by
            // itself, one round trip instead of a transaction's three and one per subject.
            let counted = plays.filter { $0.value > 0 }
            let keys = counted.map(\.key.key), ns = counted.map { PulseBounds.wireCount($0.value) }
            let now = clock().timeIntervalSince1970
            let _: Void = try await call { conn in
                try await conn.query(
                    "INSERT INTO activity (subject, kind, visitor, at, n) SELECT s, 'play', NULL, \(now), c FROM unnest(\(keys)::text[], \(ns)::int8[]) AS t(s, c)",
                    logger: self.logger)
            }
            return
        }
        try await write(nil) { (conn: PostgresConnection, now: Date, result: inout Void?) in
            result = ()
            for (subject, n) in plays where n > 0 {
                try await conn.query(
                    "INSERT INTO activity (subject, kind, visitor, at, n) VALUES (\(subject.key), 'play', NULL, \(now.timeIntervalSince1970), \(PulseBounds.wireCount(n)))",
                    logger: self.logger)
            }
            return versionStep
        }
    }

    /// The scheduled purge: notes past retention (the rules' SQL), then what `ages` lets go
    /// (activity, reports on decided notes, abandoned visitors), as `SQLitePulseStore` does.
    /// Answers how many notes went.
    public func purgeExpired(_ ages: PulsePurgeAges) async throws(PulseStoreError) -> Int {
        let sql = PulseRulesSQL(rules, .postgres)
        return try await write(nil) { (conn: PostgresConnection, now: Date, result: inout Int?) in
            var gone: [String] = []
            for try await id in try await conn.query(PostgresQuery(unsafeSQL: sql.expired(now: now)), logger: self.logger).decode(String.self) {
                gone.append(id)
            }
            for id in gone {
                let s = "note:" + id
                try await conn.query("DELETE FROM note WHERE id = \(id)", logger: self.logger)
                try await conn.query("DELETE FROM reaction WHERE subject = \(s)", logger: self.logger)
                try await conn.query("DELETE FROM counts WHERE subject = \(s)", logger: self.logger)
                try await conn.query("DELETE FROM report WHERE note = \(id)", logger: self.logger)
            }
            func before(_ age: TimeInterval) -> Double { now.addingTimeInterval(-max(0, age)).timeIntervalSince1970 }
            try await conn.query("DELETE FROM activity WHERE at < \(before(ages.activity))", logger: self.logger)
            // Reports on decided notes past their age (a reporter sees the note again: the
            // version moves), pinned notes' counts following the rows left.
            var bindings = PostgresBindings()
            bindings.append(before(ages.decidedReports))
            let reports = try await conn.query(PostgresQuery(unsafeSQL: sql.decidedReports(limit: 0) + " RETURNING 1", binds: bindings), logger: self.logger)
            var reportsGone = 0
            for try await _ in reports.decode(Int32.self) { reportsGone += 1 }
            if reportsGone > 0 { try await conn.query(PostgresQuery(unsafeSQL: sql.pinnedReportCounts), logger: self.logger) }
            // Abandoned visitors: registered long ago, nothing left of theirs.
            try await conn.query(
                """
                DELETE FROM visitor v WHERE v.created < \(before(ages.abandonedVisitors)) AND NOT EXISTS (SELECT 1 FROM note n WHERE n.visitor = v.id)
                  AND NOT EXISTS (SELECT 1 FROM reaction r WHERE r.visitor = v.id) AND NOT EXISTS (SELECT 1 FROM report p WHERE p.visitor = v.id)
                """, logger: self.logger)
            result = gone.count
            return !gone.isEmpty || reportsGone > 0
        }
    }

    /// How the pool uses its connections, as PostgreSQL sees them (postgres-nio says nothing of
    /// its pool): this instance's sessions, those running a statement and those idle. The
    /// session asking is counted idle (it is the sampler, back in the pool at once).
    public func poolUse() async throws(PulseStoreError) -> DatabasePoolUse {
        let name = applicationName, most = maxConnections
        return try await call { conn in
            let q: PostgresQuery = """
                SELECT (count(*) FILTER (WHERE state = 'idle' OR pid = pg_backend_pid()))::INT,
                       (count(*) FILTER (WHERE state IS DISTINCT FROM 'idle' AND pid <> pg_backend_pid()))::INT
                FROM pg_stat_activity WHERE application_name = \(name)
                """
            for try await (idle, busy) in try await conn.query(q, logger: self.logger).decode((Int32, Int32).self) {
                return DatabasePoolUse(inUse: Int(busy), idle: Int(idle), max: most)
            }
            return DatabasePoolUse(inUse: 0, idle: 0, max: most)
        }
    }

    /// Whether the database answers now (`/readyz`).
    public func ready() async throws(PulseStoreError) {
        let _: Int32? = try await call { conn in try await Self.one(conn.query("SELECT 1", logger: self.logger), Int32.self) }
    }

    public func seedIfEmpty(_ seed: PulseSeed) async throws(PulseStoreError) -> Bool {
        try await write(nil) { conn, now, result in
            // Only the instance whose update finds 0 seeds (two starting at once: one of them).
            guard try await Self.one(conn.query("UPDATE meta SET value = 1 WHERE key = 'seeded' AND value = 0 RETURNING value", logger: self.logger), Int64.self) != nil
            else {
                result = false
                return false
            }
            try await self.insert(seed, conn, now: now)
            result = true
            return true
        }
    }

    /// A seed's featured subjects, curator notes and announcements, each put in or replacing
    /// the one with its subject, sequence or id (a curator note's text is corrected, its votes
    /// and reports kept); what the seed does not name is left as it is.
    private func insert(_ seed: PulseSeed, _ conn: PostgresConnection, now: Date) async throws {
        for f in seed.featured {
            try await conn.query(
                """
                INSERT INTO featured (subject, tier, from_at, until_at) VALUES (\(f.subject.key), \(f.tier), \(f.from?.timeIntervalSince1970), \(f.until?.timeIntervalSince1970))
                ON CONFLICT (subject) DO UPDATE SET tier = excluded.tier, from_at = excluded.from_at, until_at = excluded.until_at
                """, logger: logger)
            try await conn.query("DELETE FROM featured_tagline WHERE subject = \(f.subject.key)", logger: logger)
            for (lang, text) in f.taglines {
                try await conn.query("INSERT INTO featured_tagline (subject, language, text) VALUES (\(f.subject.key), \(lang.code), \(text))", logger: logger)
            }
        }
        for n in seed.notes {
            let id = NoteID(visitor: .curator, sequence: n.sequence)
            try await conn.query(
                """
                INSERT INTO note (id, visitor, seq, subject, language, text, created, author)
                VALUES (\(id.key), \(id.visitor.rawValue), \(Int64(bitPattern: n.sequence)), \(n.subject.key), \(n.language.code), \(n.text), \(now.timeIntervalSince1970), 'curator')
                ON CONFLICT (id) DO UPDATE SET subject = excluded.subject, language = excluded.language, text = excluded.text
                """, logger: logger)
        }
        for a in seed.announcements {
            let feeds = a.feeds.map(\.source).joined(separator: "\n")
            let positions = a.positions.map(String.init).joined(separator: ",")
            let languages = a.languages.map(\.code).joined(separator: ",")
            try await conn.query(
                """
                INSERT INTO announcement (id, style, feeds, positions, languages, from_at, until_at, link)
                VALUES (\(a.id), \(a.style.rawValue), \(feeds), \(positions), \(languages), \(a.from?.timeIntervalSince1970), \(a.until?.timeIntervalSince1970), \(a.link))
                ON CONFLICT (id) DO UPDATE SET style = excluded.style, feeds = excluded.feeds, positions = excluded.positions,
                    languages = excluded.languages, from_at = excluded.from_at, until_at = excluded.until_at, link = excluded.link
                """, logger: logger)
            try await conn.query("DELETE FROM announcement_text WHERE id = \(a.id)", logger: logger)
            for (lang, text) in a.text {
                try await conn.query("INSERT INTO announcement_text (id, language, text) VALUES (\(a.id), \(lang.code), \(text))", logger: logger)
            }
        }
    }

    /// Staff: a seed applied whatever the store holds; every guide sees it at its next check.
    public func apply(_ seed: PulseSeed) async throws(PulseStoreError) {
        let _: Bool = try await write(nil) { conn, now, result in
            try await self.insert(seed, conn, now: now)
            result = true
            return true
        }
    }

    /// Staff: everything the store holds but its visitors.
    public func export(visitorNotes: Bool) async throws(PulseStoreError) -> PulseExport {
        try await read { conn in
            var out = PulseExport(
                version: PulseVersion(try await Self.one(conn.query("SELECT COALESCE(SUM(value), 0)::BIGINT FROM version_shard", logger: self.logger), Int64.self) ?? 0))
            out.featured = try await self.featured(conn)
            out.announcements = try await self.announcements(conn)
            out.notes =
                visitorNotes
                ? try await self.notes(conn, subject: nil)
                : try await Self.notes(conn.query("\(unescaped: Self.noteColumns) WHERE n.author = 'curator'", logger: self.logger))
            for try await (key, up, meh, down) in try await conn.query("SELECT subject, up, meh, down FROM counts WHERE subject NOT LIKE 'note:%'", logger: self.logger)
                .decode((String, Int, Int, Int).self)
            {
                if let s = PulseSubject(key) { out.counts[s] = PulseCounts(up: up, meh: meh, down: down) }
            }
            return out
        }
    }

    // MARK: PulseServiceStore

    public func authenticate(_ credentials: VisitorCredentials) async throws(PulseStoreError) {
        try await read { conn in try await self.check(credentials, conn) }
    }

    public func reaction(of visitor: VisitorID, on subject: PulseSubject) async throws(PulseStoreError) -> ReactionValue? {
        try await read { conn in
            try await Self.one(conn.query("SELECT value FROM reaction WHERE subject = \(subject.key) AND visitor = \(visitor.rawValue)", logger: self.logger), Int16.self)
                .flatMap { ReactionValue(rawValue: Int($0)) }
        }
    }

    public func counts(of subject: PulseSubject) async throws(PulseStoreError) -> PulseCounts {
        try await read { conn in try await self.counts(subject, conn) }
    }

    /// Subjects whose kept counts differ from a recount of the reaction rows (empty: exact),
    /// and notes whose report count differs from their counting reports. Computed by
    /// PostgreSQL in one snapshot, so it is exact even while others write.
    public func recountMismatches() async throws(PulseStoreError) -> [String] {
        try await read { conn in
            var out: [String] = []
            for try await (subject, keptUp, keptMeh, keptDown, up, meh, down) in try await conn.query(
                """
                WITH recount AS (
                    SELECT subject, SUM(CASE WHEN value = 1 THEN 1 ELSE 0 END)::BIGINT AS up,
                           SUM(CASE WHEN value = 0 THEN 1 ELSE 0 END)::BIGINT AS meh,
                           SUM(CASE WHEN value = -1 THEN 1 ELSE 0 END)::BIGINT AS down
                    FROM reaction GROUP BY subject)
                SELECT COALESCE(c.subject, r.subject), COALESCE(c.up, 0)::BIGINT, COALESCE(c.meh, 0)::BIGINT, COALESCE(c.down, 0)::BIGINT,
                       COALESCE(r.up, 0), COALESCE(r.meh, 0), COALESCE(r.down, 0)
                FROM counts c FULL OUTER JOIN recount r ON r.subject = c.subject
                WHERE COALESCE(c.up, 0) <> COALESCE(r.up, 0) OR COALESCE(c.meh, 0) <> COALESCE(r.meh, 0) OR COALESCE(c.down, 0) <> COALESCE(r.down, 0)
                ORDER BY 1
                """, logger: self.logger
            ).decode((String, Int64, Int64, Int64, Int64, Int64, Int64).self) {
                let stored = PulseCounts(up: Int(keptUp), meh: Int(keptMeh), down: Int(keptDown))
                let recount = PulseCounts(up: Int(up), meh: Int(meh), down: Int(down))
                out.append("\(subject): kept \(stored), rows \(recount)")
            }
            for try await id in try await conn.query(
                """
                SELECT n.id FROM note n
                WHERE n.reports <> (SELECT COUNT(*) FROM report r WHERE r.note = n.id AND r.at > COALESCE(n.restored_at, '-Infinity'::DOUBLE PRECISION))
                ORDER BY n.id
                """, logger: self.logger
            ).decode(String.self) {
                out.append("note \(id): reports")
            }
            return out
        }
    }

    public func moderationQueue() async throws(PulseStoreError) -> [PulseNote] {
        try await PulsePage.all { cursor throws(PulseStoreError) in try await moderationQueue(after: cursor, limit: 500) }
    }

    public func decide(_ note: NoteID, _ decision: StaffDecision) async throws(PulseStoreError) -> PulseNote {
        try await write(nil) { (conn: PostgresConnection, now: Date, result: inout PulseNote?) in
            let at = now.timeIntervalSince1970
            let updated: Int32?
            if decision == .restored {
                updated = try await Self.one(
                    conn.query("UPDATE note SET decision = 'restored', reports = 0, restored_at = \(at) WHERE id = \(note.key) RETURNING 1", logger: self.logger), Int32.self)
            } else {
                updated = try await Self.one(conn.query("UPDATE note SET decision = \(decision.rawValue) WHERE id = \(note.key) RETURNING 1", logger: self.logger), Int32.self)
            }
            guard updated != nil, let n = try await self.note(conn, id: note) else { throw PulseStoreError.noSuchNote(note) }
            result = n
            return true
        }
    }

    /// The store's version (tests; the snapshot carries it too).
    public func version() async throws(PulseStoreError) -> PulseVersion {
        try await read { conn in
            PulseVersion(try await Self.one(conn.query("SELECT COALESCE(SUM(value), 0)::BIGINT FROM version_shard", logger: self.logger), Int64.self) ?? 0)
        }
    }

    // MARK: Transactions

    /// One transaction: for a visitor's write, first the visitor's advisory lock. `body` sets
    /// its result and answers whether anything visible changed (then, last, the version grows).
    private func write<T: Sendable>(
        _ visitor: VisitorID?, _ body: @escaping @Sendable (PostgresConnection, Date, inout T?) async throws -> Bool
    ) async throws(PulseStoreError) -> T {
        let now = clock()
        let shard = visitor.map { Self.shard(of: $0.rawValue) } ?? Int.random(in: 0..<Self.shards)
        do {
            let value: T? = try await deadline { try await self.client.withTransaction(logger: self.logger) { conn in
                if let visitor {
                    try await conn.query("SELECT pg_advisory_xact_lock(hashtextextended(\(visitor.rawValue), 7301))", logger: self.logger)
                }
                var result: T?
                if try await body(conn, now, &result) {
                    try await conn.query("UPDATE version_shard SET value = value + 1 WHERE shard = \(shard)", logger: self.logger)
                }
                return result
            } }
            guard let value else { throw PulseStoreError.unavailable("no result") }
            return value
        } catch {
            throw Self.storeError(error)
        }
    }

    /// One statement (atomic by itself) on a pooled connection, with the deadline.
    private func call<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(PulseStoreError) -> T {
        do {
            return try await deadline { try await self.client.withConnection { conn in try await body(conn) } }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// One REPEATABLE READ, read-only transaction: every query sees the same moment.
    private func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(PulseStoreError) -> T {
        do {
            return try await deadline {
                try await self.client.withTransaction(logger: self.logger) { conn in
                    try await conn.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: self.logger)
                    return try await body(conn)
                }
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// How long a call may take before it is `.unavailable`. PostgresNIO's pool keeps a
    /// request waiting while it retries connecting, so a stopped server would hold every
    /// request forever; past this the caller is answered (503 with `Retry-After`) and the
    /// call is cancelled. A write answered so may still land: it was never acknowledged, and
    /// the client's retry carries the same id, so it is not applied twice.
    public static let callDeadline: Duration = .seconds(5)

    /// The call against its deadline: the first to finish answers, and the call is cancelled
    /// if the deadline came first (PostgresNIO then gives up waiting for a connection, or
    /// cancels the query). Not a task group: a group waits for every child before it returns,
    /// and after a PostgreSQL restart a call that did not end on cancellation held its request
    /// (and the service's graceful stop) for ever. The call and the timer are tasks of their
    /// own answering into a stream that keeps the first answer; the caller reads that one,
    /// whatever the call does afterwards. A cancelled caller stops reading, which ends the
    /// stream and cancels the call.
    /// Within a request, the call's deadline is also the request's own (`RequestDeadline`,
    /// issue 44 #9): a request of two calls no longer takes two deadlines to answer 503.
    private func deadline<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let limit = RequestDeadline.remaining.map { max(.milliseconds(100), min($0, Self.callDeadline)) } ?? Self.callDeadline
        let seconds = String(format: "%.1f", limit.seconds)
        let (answers, answer) = AsyncThrowingStream<T, any Error>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let call = Task {
            do { answer.yield(try await operation()) } catch { answer.finish(throwing: error) }
            answer.finish()
        }
        answer.onTermination = { _ in call.cancel() }
        let timer = Task {
            try await Task.sleep(for: limit)
            answer.finish(throwing: PulseStoreError.unavailable("no connection to the database within \(seconds) s"))
        }
        defer { timer.cancel() }
        for try await value in answers { return value }
        throw CancellationError()
    }

    /// A store error as it is, anything else as `.unavailable` with PostgreSQL's own words.
    static func storeError(_ error: any Error) -> PulseStoreError {
        if let e = error as? PulseStoreError { return e }
        if let t = error as? PostgresTransactionError {
            if let e = t.closureError { return storeError(e) }
            if let e = t.beginError ?? t.commitError { return storeError(e) }
        }
        return .unavailable(describe(error))
    }

    /// PostgreSQL's message when it sent one; otherwise what went wrong, in a few words
    /// (never the query, which may carry a visitor's text).
    static func describe(_ error: any Error) -> String {
        if let t = error as? PostgresTransactionError, let e = t.closureError ?? t.beginError ?? t.commitError { return describe(e) }
        if let p = error as? PSQLError {
            if let message = p.serverInfo?[.message] { return message }
            switch p.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection: return "the database cannot be reached"
            case .poolClosed: return "the store is closed"
            default:
                if let u = p.underlying { return "the database cannot be reached: \(String(describing: u))" }
                return "database error \(p.code)"
            }
        }
        let text = String(describing: error)
        if text.localizedCaseInsensitiveContains("timeout") || text.localizedCaseInsensitiveContains("connect") {
            return "the database cannot be reached"
        }
        return text
    }

    static func shard(of visitor: String) -> Int {
        // FNV-1a: stable across processes (Swift's hashValue is seeded per process).
        Int(FNV1a.hash32(visitor.utf8) % UInt32(shards))
    }

    // MARK: Queries

    static func one<T: PostgresDecodable>(_ rows: PostgresRowSequence, _ type: T.Type) async throws -> T? {
        var out: T?
        for try await v in rows.decode(T.self) where out == nil { out = v }
        return out
    }

    private func check(_ c: VisitorCredentials, _ conn: PostgresConnection) async throws {
        let secret = try await Self.one(conn.query("SELECT secret FROM visitor WHERE id = \(c.visitor.rawValue)", logger: logger), String.self)
        guard secret == c.secret else { throw PulseStoreError.badCredentials }
    }

    private func limitReactions(_ v: VisitorID, now: Date, rules: PulseRules, _ conn: PostgresConnection) async throws {
        let recent = try await times(of: v, kinds: ["reaction", "report"], since: now.addingTimeInterval(-60), conn)
        if let wait = PulseRules.check(recent, now: now, limit: rules.reactionsPerMinute, per: 60) { throw PulseStoreError.rateLimited(.reactions(retryAfter: wait)) }
    }

    private func times(of v: VisitorID, kinds: [String], since: Date, _ conn: PostgresConnection) async throws -> [Date] {
        var out: [Date] = []
        for try await at in try await conn.query(
            "SELECT at FROM activity WHERE visitor = \(v.rawValue) AND kind = ANY(\(kinds)) AND at > \(since.timeIntervalSince1970)", logger: logger
        ).decode(Double.self) {
            out.append(Date(timeIntervalSince1970: at))
        }
        return out
    }

    private func activity(_ s: PulseSubject, _ kind: PulseActivity.Kind, _ v: VisitorID?, _ at: Date, _ conn: PostgresConnection) async throws {
        try await conn.query(
            "INSERT INTO activity (subject, kind, visitor, at) VALUES (\(s.key), \(kind.rawValue), \(v?.rawValue), \(at.timeIntervalSince1970))", logger: logger)
    }

    private func counts(_ s: PulseSubject, _ conn: PostgresConnection) async throws -> PulseCounts {
        for try await (up, meh, down) in try await conn.query("SELECT up, meh, down FROM counts WHERE subject = \(s.key)", logger: logger).decode((Int, Int, Int).self) {
            return PulseCounts(up: up, meh: meh, down: down)
        }
        return .zero
    }

    private func noteExists(_ id: NoteID, _ conn: PostgresConnection) async throws -> Bool {
        try await Self.one(conn.query("SELECT 1 FROM note WHERE id = \(id.key)", logger: logger), Int32.self) != nil
    }

    private func noteSubject(_ id: NoteID, _ conn: PostgresConnection) async throws -> PulseSubject? {
        try await Self.one(conn.query("SELECT subject FROM note WHERE id = \(id.key)", logger: logger), String.self).flatMap(PulseSubject.init)
    }

    private func reports(of v: VisitorID, _ conn: PostgresConnection) async throws -> Set<NoteID> {
        var out = Set<NoteID>()
        for try await key in try await conn.query("SELECT note FROM report WHERE visitor = \(v.rawValue)", logger: logger).decode(String.self) {
            if let id = NoteID(key: key) { out.insert(id) }
        }
        return out
    }

    private static let noteColumns = """
        SELECT n.id, n.subject, n.language, n.text, n.created, n.author, n.reports, n.decision,
               COALESCE(c.up, 0), COALESCE(c.meh, 0), COALESCE(c.down, 0)
        FROM note n LEFT JOIN counts c ON c.subject = 'note:' || n.id
        """

    private func notes(_ conn: PostgresConnection, subject: PulseSubject?) async throws -> [PulseNote] {
        let q: PostgresQuery
        if let subject {
            q = "\(unescaped: Self.noteColumns) WHERE n.subject = \(subject.key)"
        } else {
            q = "\(unescaped: Self.noteColumns)"
        }
        return try await Self.notes(conn.query(q, logger: logger))
    }

    private func note(_ conn: PostgresConnection, id: NoteID) async throws -> PulseNote? {
        try await Self.notes(conn.query("\(unescaped: Self.noteColumns) WHERE n.id = \(id.key)", logger: logger)).first
    }

    /// A row that cannot be read as a note is left out, never a crash.
    private static func notes(_ rows: PostgresRowSequence) async throws -> [PulseNote] {
        var out: [PulseNote] = []
        for try await (idKey, subjectKey, lang, text, created, author, reports, decision, up, meh, down) in rows.decode(
            (String, String, String, String, Double, String, Int, String?, Int, Int, Int).self)
        {
            guard let id = NoteID(key: idKey), let subject = PulseSubject(subjectKey), let language = Language.fromTag(lang) else { continue }
            out.append(
                PulseNote(
                    id: id, subject: subject, language: language, text: text, createdAt: Date(timeIntervalSince1970: created),
                    author: author == "curator" ? .curator : .visitor, counts: PulseCounts(up: up, meh: meh, down: down), reports: reports,
                    decision: decision.flatMap(StaffDecision.init(rawValue:))))
        }
        return out
    }

    private func featured(_ conn: PostgresConnection) async throws -> [PulseFeatured] {
        var taglines: [String: [Language: String]] = [:]
        for try await (s, l, t) in try await conn.query("SELECT subject, language, text FROM featured_tagline", logger: logger).decode((String, String, String).self) {
            if let lang = Language.fromTag(l) { taglines[s, default: [:]][lang] = t }
        }
        var out: [PulseFeatured] = []
        for try await (key, tier, from, until) in try await conn.query("SELECT subject, tier, from_at, until_at FROM featured ORDER BY subject", logger: logger)
            .decode((String, Int, Double?, Double?).self)
        {
            guard let s = PulseSubject(key) else { continue }
            out.append(
                PulseFeatured(
                    subject: s, tier: tier, taglines: taglines[key] ?? [:], from: from.map(Date.init(timeIntervalSince1970:)),
                    until: until.map(Date.init(timeIntervalSince1970:))))
        }
        return out
    }

    /// Announcements; one whose patterns no longer compile is left out.
    private func announcements(_ conn: PostgresConnection) async throws -> [PulseAnnouncement] {
        var texts: [String: [Language: String]] = [:]
        for try await (id, l, t) in try await conn.query("SELECT id, language, text FROM announcement_text", logger: logger).decode((String, String, String).self) {
            if let lang = Language.fromTag(l) { texts[id, default: [:]][lang] = t }
        }
        var out: [PulseAnnouncement] = []
        for try await (id, styleText, feedText, positions, languages, from, until, link) in try await conn.query(
            "SELECT id, style, feeds, positions, languages, from_at, until_at, link FROM announcement ORDER BY id", logger: logger
        ).decode((String, String, String, String, String, Double?, Double?, String?).self) {
            guard let style = PulseAnnouncement.Style(rawValue: styleText) else { continue }
            let feeds = feedText.split(separator: "\n").compactMap { PulsePattern(String($0)) }
            guard !feeds.isEmpty else { continue }
            out.append(
                PulseAnnouncement(
                    id: id, feeds: feeds, positions: positions.split(separator: ",").compactMap { Int($0) }, style: style,
                    languages: languages.split(separator: ",").compactMap { Language.fromTag(String($0)) },
                    from: from.map(Date.init(timeIntervalSince1970:)), until: until.map(Date.init(timeIntervalSince1970:)), text: texts[id] ?? [:], link: link))
        }
        return out
    }
}

extension Optional {
    /// `map` for an async transform.
    func asyncMap<U>(_ transform: (Wrapped) async throws -> U) async rethrows -> U? {
        guard let w = self else { return nil }
        return try await transform(w)
    }
}

/// The time a request has left for its database calls: set for each request of the API
/// (`RequestDeadlineMiddleware`), read by `PostgresPulseStore`'s call deadline.
public enum RequestDeadline {
    @TaskLocal static var ends: ContinuousClock.Instant?

    /// Nil outside a request.
    static var remaining: Duration? { ends.map { $0 - .now } }
}

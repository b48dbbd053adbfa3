import DocentText
import DocentJSON
import Foundation

/// `PulseRules` as SQL, generated from the rules' own values (issue 28 item 6, issue 32): the
/// SQLite store (guide and service) and the PostgreSQL store run these same statements, so
/// "who sees a note", "what is kept" and "what waits for staff" are each one `PulseCondition`
/// of `PulseRules` (issue 46), rendered here as SQL and evaluated in Swift by
/// `PulseRules.hidden`/`retained`/`needsReview` (which the guide applies to lists it already
/// holds): equal by construction. `PulseStoreConformanceTests` proves the stores agree, and
/// `PulseRulesSQLTests` still runs both on the same notes (the ranking of highlights is
/// written in each language).
///
/// Nothing here loads every note: the snapshot counts visible notes per subject with one
/// `GROUP BY`, and the notes list is a page (`LIMIT`) in the order the guide shows.
public struct PulseRulesSQL: Sendable {
    public enum Dialect: Sendable { case sqlite, postgres }

    public let rules: PulseRules
    public let dialect: Dialect

    public init(_ rules: PulseRules, _ dialect: Dialect) {
        self.rules = rules
        self.dialect = dialect
    }

    /// A bound parameter: `?n` in SQLite, `$n` in PostgreSQL (n counted from 1; used twice, bound once).
    func param(_ n: Int) -> String { dialect == .sqlite ? "?\(n)" : "$\(n)" }

    /// A text column read whole: SQLite hands it over as bytes (GRDB reads TEXT as a C string,
    /// which a NUL in the file cuts short); PostgreSQL's TEXT cannot hold a NUL.
    func wholeText(_ column: String) -> String { dialect == .sqlite ? "CAST(\(column) AS BLOB)" : column }

    /// Text compared as Swift compares it (byte order), whatever the database's locale.
    func bytes(_ column: String) -> String { dialect == .sqlite ? column : "\(column) COLLATE \"C\"" }

    /// A number as SQL (our own values only: rules and clocks, never client text).
    static func number(_ d: Double) -> String { d.isFinite ? String(format: "%.6f", d) : "0" }

    /// The columns every note query answers, in `PulseNoteRow` order.
    public static let columns = "id, subject, language, text, created, author, reports, decision, up, meh, down"

    /// Every note that is not removed, with its counts and score (`subject`: only that one;
    /// its parameter is number `subjectParam`; `also`: more conditions on the note `n`).
    /// `only`: a query of note keys (column `id`: `rowKey` values) to read instead of every
    /// note; it drives the join (SQLite keeps a CROSS JOIN's order), so only those notes are
    /// looked up.
    func base(subjectParam: Int?, only: String? = nil, onlyKey: String = "id", also: String? = nil) -> String {
        """
        SELECT n.id, n.visitor, n.seq, n.subject, n.language, \(wholeText("n.text")) AS text, n.created, n.author, n.reports, n.decision,
               COALESCE(c.up, 0) AS up, COALESCE(c.meh, 0) AS meh, COALESCE(c.down, 0) AS down,
               COALESCE(c.up, 0) - COALESCE(c.down, 0) AS score
        FROM \(only.map { "(\($0)) AS only_ids CROSS JOIN " } ?? "")note n LEFT JOIN counts c ON c.subject = 'note:' || n.id
        WHERE COALESCE(n.decision, '') <> 'removed'\(subjectParam.map { " AND n.subject = \(param($0))" } ?? "")\(only == nil ? "" : " AND n.\(onlyKey) = only_ids.id")\(also.map { " AND \($0)" } ?? "")
        """
    }

    /// How a note's row is found again cheaply: SQLite's rowid (every index carries it, so a
    /// key list comes from an index alone), PostgreSQL's primary key.
    var rowKey: String { dialect == .sqlite ? "rowid" : "id" }

    /// The store's oldest time still young (`PulseRules.retention`).
    func young(_ now: Date) -> String { Self.number(now.timeIntervalSince1970 - rules.retention) }

    /// Kept whatever its score (`PulseRules.retained`'s first rule): the museum's, pinned, young.
    func keptOutright(now: Date, _ p: String = "") -> String {
        rules.keptOutright(now: now).sql(p)
    }

    /// Older notes that only a highlight's place keeps (the complement of `keptOutright`
    /// among notes that are not removed), written so an index on `created` can find them.
    func olderCandidates(now: Date, _ p: String = "") -> String {
        "\(p)created <= \(young(now)) AND \(p)author <> 'curator' AND COALESCE(\(p)decision, '') <> 'pinned'"
    }

    /// Of the older notes (`older`, rows of `base`), those ranked among their subject's best
    /// `highlightsPerSubject` (score not negative, not hidden by reporters; higher score, then
    /// newer, then the larger id first).
    func highlights(from older: String) -> String {
        """
        SELECT * FROM (
            SELECT o.*, ROW_NUMBER() OVER (PARTITION BY subject ORDER BY score DESC, created DESC, \(bytes("visitor")) DESC, seq DESC) AS rank
            FROM \(older) o
            WHERE \(rules.highlightCandidate.sql())) AS ranked
        WHERE rank <= \(rules.highlightsPerSubject)
        """
    }

    /// `PulseRules.hidden`'s rules after the viewer's own reports, for a row whose score is
    /// `score`: the museum's notes, the viewer's own, and notes neither reported away nor
    /// voted down are shown.
    func shown(score: String, viewerParam: Int, _ p: String = "") -> String {
        """
        (\(p)author = 'curator' OR (\(p)author = 'visitor' AND \(p)visitor = \(param(viewerParam))) OR (
            NOT \(rules.reportedAway.sql(p, score: score)) AND NOT \(rules.votedDown.sql(p, score: score))))
        """
    }

    /// The viewer has not reported note `k` (parameter `viewerParam`).
    func notReportedBy(viewerParam: Int, _ k: String) -> String {
        "NOT EXISTS (SELECT 1 FROM report r WHERE r.note = \(k).id AND r.visitor = \(param(viewerParam)))"
    }

    /// `PulseRules.retained` over `base` (its parameters as `base`'s): kept outright, or a highlight.
    func kept(now: Date, subjectParam: Int?, only: String? = nil, onlyKey: String = "id") -> String {
        """
            base AS (\(base(subjectParam: subjectParam, only: only, onlyKey: onlyKey))),
            kept AS (
                SELECT \(Self.columns), visitor, seq, score FROM base WHERE \(keptOutright(now: now))
                UNION ALL
                SELECT \(Self.columns), visitor, seq, score FROM (\(highlights(from: "(SELECT * FROM base WHERE NOT \(keptOutright(now: now)))"))) AS older)
            """
    }

    /// `PulseRules.hidden` for a viewer (parameter number `viewerParam`; NULL: nobody):
    /// the kept notes the viewer sees.
    func visible(now: Date, viewerParam: Int, subjectParam: Int?, only: String? = nil, onlyKey: String = "id") -> String {
        """
        WITH \(kept(now: now, subjectParam: subjectParam, only: only, onlyKey: onlyKey)),
        visible AS (
            SELECT * FROM kept k WHERE \(notReportedBy(viewerParam: viewerParam, "k")) AND \(shown(score: "score", viewerParam: viewerParam)))
        """
    }

    /// Visible notes per subject for the snapshot: (subject, count). Parameter 1: the viewer.
    ///
    /// A million notes (issue 32) must not be ranked and joined one by one. Most notes are
    /// plain: young, undecided, unreported, never voted on, not reported by this viewer; every
    /// such note is shown (when the score floor is below zero, as it is unless a museum says
    /// otherwise). So the count is the young notes per subject, read from the `(subject,
    /// created)` index alone, corrected by the few that are not plain ("special": voted on,
    /// reported, decided, reported by the viewer, or older), each judged by the full rules.
    public func noteCounts(now: Date) -> String {
        guard rules.scoreFloor < 0 else {
            return visible(now: now, viewerParam: 1, subjectParam: nil) + "\nSELECT subject, COUNT(*) FROM visible GROUP BY subject"
        }
        let k = rowKey
        let bySubject = dialect == .sqlite ? " INDEXED BY note_subject" : ""
        let special = """
            SELECT n.\(k) AS id FROM counts c CROSS JOIN note n WHERE \(noteCountsRows) AND n.id = substr(c.subject, 6)
            UNION SELECT n.\(k) FROM report r CROSS JOIN note n WHERE r.visitor = \(param(1)) AND n.id = r.note
            UNION SELECT \(k) FROM note WHERE decision IS NOT NULL OR reports <> 0
            UNION SELECT \(k) FROM note\(bySubject) WHERE created <= \(young(now))
            """
        let judged = visible(now: now, viewerParam: 1, subjectParam: nil, only: "SELECT id FROM special", onlyKey: k)
        return """
            WITH special(id) AS (\(special)),
            young_notes AS (SELECT subject, COUNT(*) AS n FROM note\(bySubject) WHERE created > \(young(now)) GROUP BY subject),
            young_special AS (SELECT n.subject, COUNT(*) AS n FROM special s CROSS JOIN note n WHERE n.\(k) = s.id AND n.created > \(young(now)) GROUP BY n.subject),
            \(judged.dropFirst("WITH ".count))
            SELECT subject, CAST(SUM(n) AS BIGINT) FROM (
                SELECT subject, n FROM young_notes
                UNION ALL SELECT subject, -n FROM young_special
                UNION ALL SELECT subject, COUNT(*) FROM visible GROUP BY subject) AS parts
            GROUP BY subject HAVING SUM(n) > 0
            """
    }

    /// The counts rows of notes (`c`): a range of the key's index in SQLite; PostgreSQL's
    /// locale would order `;` and `:` its own way, so a pattern there.
    var noteCountsRows: String { dialect == .sqlite ? "c.subject >= 'note:' AND c.subject < 'note;'" : "c.subject LIKE 'note:%'" }

    /// One page of the notes a viewer sees on a subject, newest first (ties: the larger id
    /// first, as `PulseRules.visible`). Parameters: 1 the viewer, 2 the subject, 3 to 5 the
    /// cursor (created, visitor, sequence of the last note of the previous page) or NULLs for
    /// the first page. At most `limit` rows.
    ///
    /// Two parts, merged: the notes kept outright, walked newest first down the `(subject,
    /// created)` index from the cursor and judged one by one until the page is full (a page of
    /// 200,000 notes costs a page, not 200,000); and the subject's older notes, ranked for
    /// their highlight places (few: the purge leaves at most `highlightsPerSubject`).
    public func notesPage(now: Date, limit: Int) -> String {
        let top = dialect == .sqlite ? "9e999" : "'Infinity'::DOUBLE PRECISION"
        let after = """
            n.created <= COALESCE(\(typed(3, "DOUBLE PRECISION")), \(top))
              AND (\(typed(3, "DOUBLE PRECISION")) IS NULL OR (n.created, \(bytes("n.visitor")), n.seq) < (\(param(3)), \(param(4)), \(param(5))))
            """
        let order = "ORDER BY created DESC, \(bytes("visitor")) DESC, seq DESC LIMIT \(max(1, limit))"
        let outright = """
            SELECT \(Self.columns), visitor, seq FROM (\(base(subjectParam: 2, also: "\(keptOutright(now: now, "n.")) AND \(after)"))) AS n
            WHERE \(notReportedBy(viewerParam: 1, "n")) AND \(shown(score: "score", viewerParam: 1, "n."))
            \(order)
            """
        let older = "(\(base(subjectParam: 2, also: olderCandidates(now: now, "n."))))"
        let highlighted = """
            SELECT \(Self.columns), visitor, seq FROM (\(highlights(from: older))) AS n
            WHERE \(after) AND \(notReportedBy(viewerParam: 1, "n")) AND \(shown(score: "score", viewerParam: 1, "n."))
            """
        return """
            SELECT \(Self.columns) FROM (
                SELECT * FROM (\(outright)) AS newest
                UNION ALL SELECT * FROM (\(highlighted)) AS highlights) AS page
            \(order)
            """
    }

    /// A parameter with its type said (PostgreSQL cannot infer it from `IS NULL`).
    func typed(_ n: Int, _ type: String) -> String { dialect == .sqlite ? param(n) : "\(param(n))::\(type)" }

    /// The ids of notes no longer kept (`PulseRules.retained`), for the purge.
    public func expired(now: Date) -> String {
        let older = "(\(base(subjectParam: nil, also: olderCandidates(now: now, "n."))))"
        return """
            WITH older AS \(older),
            highlights AS (\(highlights(from: "older")))
            SELECT id FROM note WHERE decision = 'removed'
            UNION ALL SELECT id FROM older WHERE id NOT IN (SELECT id FROM highlights)
            """
    }

    /// One page of the export's visitor notes (`GET /v1/staff/export`): every visitor note,
    /// removed and hidden ones too (the export is a record), oldest first as the moderation
    /// queue orders them. Parameters 1 to 3: the cursor (created, visitor, sequence of the last
    /// note of the previous page) or NULLs. At most `limit` rows.
    public func exportNotes(limit: Int) -> String {
        """
        SELECT n.id, n.subject, n.language, \(wholeText("n.text")) AS text, n.created, n.author, n.reports, n.decision,
               COALESCE(c.up, 0) AS up, COALESCE(c.meh, 0) AS meh, COALESCE(c.down, 0) AS down
        FROM note n LEFT JOIN counts c ON c.subject = 'note:' || n.id
        WHERE n.author = 'visitor'
          AND (\(typed(1, "DOUBLE PRECISION")) IS NULL OR (n.created, \(bytes("n.visitor")), n.seq) > (\(param(1)), \(param(2)), \(param(3))))
        ORDER BY n.created, \(bytes("n.visitor")), n.seq LIMIT \(max(1, limit))
        """
    }

    /// The purge's reports on decided notes (`PulsePurgeAges.decidedReports`): those made
    /// before parameter 1 (a time) on a pinned note, or on a restored note before its restore
    /// (they stopped counting then; later ones are a new case for staff). SQLite deletes at
    /// most `limit` a statement (the purge's chunks); PostgreSQL all at once.
    public func decidedReports(limit: Int) -> String {
        let which = """
            at < \(param(1)) AND EXISTS (SELECT 1 FROM note n WHERE n.id = report.note
              AND (n.decision = 'pinned' OR (n.decision = 'restored' AND report.at <= n.restored_at)))
            """
        switch dialect {
        case .sqlite: return "DELETE FROM report WHERE rowid IN (SELECT rowid FROM report WHERE \(which) LIMIT \(max(1, limit)))"
        case .postgres: return "DELETE FROM report WHERE \(which)"
        }
    }

    /// After that purge: pinned notes' report counts follow the rows left (a pinned note's
    /// reports still counted; reports before a restore never do).
    public var pinnedReportCounts: String {
        let never = dialect == .sqlite ? "-1e300" : "'-Infinity'::DOUBLE PRECISION"
        return """
            UPDATE note SET reports = (SELECT COUNT(*) FROM report r WHERE r.note = note.id AND r.at > COALESCE(note.restored_at, \(never)))
            WHERE decision = 'pinned'
            """
    }

    /// `PulseRules.needsReview`: visitors' notes with reports or hidden by their score, not
    /// yet decided (or restored and reported again), oldest first. Parameters 1 to 3: the
    /// cursor (created, visitor, sequence of the last note of the previous page) or NULLs.
    /// Only the notes that can be in it are read: those with reports (`reports > 0`) and those
    /// whose counts are at the floor, found from their counts row; the two are the console's
    /// partial and expression indexes' shapes where the service made them. It read every note
    /// (250 ms on 100,000; the metrics upkeep pages through it every tick).
    public func moderationQueue(limit: Int) -> String {
        let candidates = """
            SELECT id FROM note WHERE reports > 0
            UNION SELECT substr(subject, 6) FROM counts WHERE up - down <= \(rules.scoreFloor) AND subject LIKE 'note:%'
            """
        return """
        WITH base AS (\(base(subjectParam: nil, only: candidates)))
        SELECT \(Self.columns) FROM base
        WHERE author = 'visitor' AND (decision IS NULL OR decision = 'restored')
          AND (reports > 0 OR score <= \(rules.scoreFloor))
          AND (\(typed(1, "DOUBLE PRECISION")) IS NULL OR (created, \(bytes("visitor")), seq) > (\(param(1)), \(param(2)), \(param(3))))
        ORDER BY created, \(bytes("visitor")), seq LIMIT \(max(1, limit))
        """
    }

    // MARK: A reaction (issue 28: one implementation for both stores)

    /// A reaction's rules as SQL: the SQLite store runs these statements in its `BEGIN
    /// IMMEDIATE` transaction; the PostgreSQL store runs the same text inside one function of
    /// its own (`ReactionSQL.postgresFunction`: one round trip a reaction), after its
    /// visitor's advisory lock. What stays each store's own is how it serializes writers and
    /// how it bumps its version.
    public var reaction: ReactionSQL { ReactionSQL(dialect: dialect) }
}

/// The reaction (`PulseStore.react`): decide, then, if it changes anything, write.
///
/// Parameters are named: `visitor`, `secret`, `subject`, `value` (-1, 0, 1 or NULL: withdrawn),
/// `now` (seconds since 1970), `limit` (`PulseRules.reactionsPerMinute`); the writes also take
/// `old` and `target` from the decision. SQLite binds them as `:name`; in PostgreSQL they are
/// the function's arguments and variables (`p_name`, `v_old`, `v_target`).
public struct ReactionSQL: Sendable {
    public let dialect: PulseRulesSQL.Dialect

    /// The outcomes `decide` answers.
    public enum Outcome: String, Sendable {
        case badCredentials = "bad_credentials", noSuchNote = "no_such_note", same, rateLimited = "rate_limited", changed
    }

    /// The reaction window of `PulseRules.check` for reactions and reports (seconds).
    public static let window = 60

    func p(_ name: String) -> String {
        switch (dialect, name) {
        case (.sqlite, _): return ":" + name
        case (.postgres, "old"), (.postgres, "target"): return "v_" + name
        case (.postgres, _): return "p_" + name
        }
    }

    /// Equal, NULL equal to NULL.
    func same(_ a: String, _ b: String) -> String { dialect == .sqlite ? "\(a) IS \(b)" : "\(a) IS NOT DISTINCT FROM \(b)" }

    /// The larger of two numbers.
    func greatest(_ a: String, _ b: String) -> String { dialect == .sqlite ? "max(\(a), \(b))" : "GREATEST(\(a), \(b))" }

    /// A positive number rounded up, as an integer (SQLite's `ceil` is an optional extension).
    func ceiling(_ x: String) -> String {
        dialect == .sqlite ? "(CAST(\(x) AS INTEGER) + ((\(x)) > CAST(\(x) AS INTEGER)))" : "CAST(ceil(\(x)) AS INTEGER)"
    }

    /// `subject` names a note (`note:ID`).
    var isNote: String { "substr(\(p("subject")), 1, 5) = 'note:'" }

    /// One row: `outcome` (an `Outcome`), `old` (the visitor's reaction before, or NULL),
    /// `wait` (seconds, when rate-limited) and `target` (what the activity is about: a note's
    /// artwork, or the subject itself). The rules, in order: the visitor and secret; a note
    /// that exists; the same reaction again (a retry) changes nothing and is never limited;
    /// `PulseRules.check` over the visitor's reactions and reports of the last minute (the
    /// `limit`-th most recent still in it: allowed again when it leaves, at least 1 s).
    public var decide: String {
        let w = Self.window
        let recent = """
            SELECT at FROM activity WHERE visitor = \(p("visitor")) AND kind IN ('reaction', 'report')
              AND at > \(p("now")) - \(w) AND at <= \(p("now"))
            ORDER BY at DESC LIMIT 1 OFFSET \(greatest(p("limit"), "1")) - 1
            """
        return """
            SELECT
              CASE
                WHEN NOT EXISTS (SELECT 1 FROM visitor WHERE id = \(p("visitor")) AND secret = \(p("secret"))) THEN 'bad_credentials'
                WHEN \(isNote) AND NOT EXISTS (SELECT 1 FROM note WHERE id = substr(\(p("subject")), 6)) THEN 'no_such_note'
                WHEN \(same("mine.value", p("value"))) THEN 'same'
                WHEN \(p("limit")) <= 0 OR recent.at IS NOT NULL THEN 'rate_limited'
                ELSE 'changed' END AS outcome,
              mine.value AS old,
              CASE WHEN \(p("limit")) <= 0 THEN \(w) WHEN recent.at IS NULL THEN 0
                ELSE \(greatest("1", ceiling("\(w) - (\(p("now")) - recent.at)"))) END AS wait,
              COALESCE((SELECT n.subject FROM note n WHERE \(isNote) AND n.id = substr(\(p("subject")), 6)), \(p("subject"))) AS target
            FROM (SELECT 1 AS one) AS one
              LEFT JOIN (SELECT value FROM reaction WHERE subject = \(p("subject")) AND visitor = \(p("visitor"))) AS mine ON 1 = 1
              LEFT JOIN (\(recent)) AS recent ON 1 = 1
            """
    }

    /// After `changed`, in order: the row (withdrawn: deleted; else written with its time), the
    /// counts by the difference (`PulseCounts.changed(from:to:)`), the activity.
    public var write: [String] {
        func delta(_ v: Int) -> String {
            "(CASE WHEN \(p("value")) = \(v) THEN 1 ELSE 0 END) - (CASE WHEN \(p("old")) = \(v) THEN 1 ELSE 0 END)"
        }
        return [
            "DELETE FROM reaction WHERE \(p("value")) IS NULL AND subject = \(p("subject")) AND visitor = \(p("visitor"))",
            """
            INSERT INTO reaction (subject, visitor, value, at) SELECT \(p("subject")), \(p("visitor")), \(p("value")), \(p("now")) WHERE \(p("value")) IS NOT NULL
            ON CONFLICT (subject, visitor) DO UPDATE SET value = excluded.value, at = excluded.at
            """,
            """
            INSERT INTO counts (subject, up, meh, down) VALUES (\(p("subject")), \(delta(1)), \(delta(0)), \(delta(-1)))
            ON CONFLICT (subject) DO UPDATE SET up = counts.up + excluded.up, meh = counts.meh + excluded.meh, down = counts.down + excluded.down
            """,
            "INSERT INTO activity (subject, kind, visitor, at) VALUES (\(p("target")), 'reaction', \(p("visitor")), \(p("now")))",
        ]
    }

    /// The subject's counts now (zeros when it has no row): one row `up`, `meh`, `down`.
    public var counts: String {
        "SELECT COALESCE(MAX(up), 0) AS up, COALESCE(MAX(meh), 0) AS meh, COALESCE(MAX(down), 0) AS down FROM counts WHERE subject = \(p("subject"))"
    }

    /// PostgreSQL: the statements above in one PL/pgSQL function, after the visitor's advisory
    /// lock (so one visitor's reactions are serial), bumping version shard `p_shard` when it
    /// changed something. Named after its own text (`pulse_react_` and its FNV-1a hash), so an
    /// instance always calls the function its own rules made, whichever version of the service
    /// created the others. Answers one row: outcome, up, meh, down, wait.
    public var postgresFunction: (name: String, create: String) {
        let body = """
            (p_visitor TEXT, p_secret TEXT, p_subject TEXT, p_value SMALLINT, p_now DOUBLE PRECISION, p_limit INTEGER, p_shard INTEGER)
            RETURNS TABLE (o_outcome TEXT, o_up INTEGER, o_meh INTEGER, o_down INTEGER, o_wait INTEGER)
            LANGUAGE plpgsql AS $$
            DECLARE
                v_outcome TEXT; v_old SMALLINT; v_wait INTEGER; v_target TEXT;
            BEGIN
                PERFORM pg_advisory_xact_lock(hashtextextended(p_visitor, 7301));
                SELECT d.outcome, d.old, d.wait, d.target INTO v_outcome, v_old, v_wait, v_target FROM (
            \(decide)
                ) AS d;
                IF v_outcome = 'changed' THEN
            \(write.map { $0 + ";" }.joined(separator: "\n"))
                    UPDATE version_shard SET value = value + 1 WHERE shard = p_shard;
                END IF;
                RETURN QUERY SELECT v_outcome, c.up, c.meh, c.down, v_wait FROM (\(counts)) AS c;
            END;
            $$
            """
        let name = "pulse_react_" + String(FNV1a.hash32(body.utf8), radix: 16)
        return (name, "CREATE OR REPLACE FUNCTION \(name)" + body)
    }
}


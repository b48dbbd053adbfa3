import DocentCore
import Foundation

/// `PulseRules` as SQL, generated from the rules' own values (issue 28 item 6, issue 32): the
/// SQLite store (guide and service) and the PostgreSQL store run these same statements, so
/// "who sees a note", "what is kept" and "what waits for staff" are written once here and
/// once in Swift (`PulseRules.hidden`/`retained`/`needsReview`, which the guide applies to
/// lists it already holds); `PulseStoreConformanceTests` proves the stores agree, and
/// `PulseRulesSQLTests` that the SQL agrees with the Swift functions on the same notes.
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
    /// its parameter is number `subjectParam`).
    /// `only`: a query of note ids (column `id`) to read instead of every note; it drives the
    /// join (SQLite keeps a CROSS JOIN's order), so only those notes are looked up.
    func base(subjectParam: Int?, only: String? = nil) -> String {
        """
        SELECT n.id, n.visitor, n.seq, n.subject, n.language, \(wholeText("n.text")) AS text, n.created, n.author, n.reports, n.decision,
               COALESCE(c.up, 0) AS up, COALESCE(c.meh, 0) AS meh, COALESCE(c.down, 0) AS down,
               COALESCE(c.up, 0) - COALESCE(c.down, 0) AS score
        FROM \(only.map { "(\($0)) AS only_ids CROSS JOIN " } ?? "")note n LEFT JOIN counts c ON c.subject = 'note:' || n.id
        WHERE COALESCE(n.decision, '') <> 'removed'\(subjectParam.map { " AND n.subject = \(param($0))" } ?? "")\(only == nil ? "" : " AND n.id = only_ids.id")
        """
    }

    /// `PulseRules.retained`: young, the museum's and pinned notes; per subject the best
    /// `highlightsPerSubject` older ones whose score is not negative and that reporters have
    /// not hidden (higher score, then newer, then the larger id first).
    func kept(now: Date, subjectParam: Int?) -> String {
        let young = Self.number(now.timeIntervalSince1970 - rules.retention)
        let keptOutright = "author = 'curator' OR COALESCE(decision, '') = 'pinned' OR created > \(young)"
        return """
            base AS (\(base(subjectParam: subjectParam))),
            kept AS (
                SELECT \(Self.columns), visitor, seq, score FROM base WHERE \(keptOutright)
                UNION ALL
                SELECT \(Self.columns), visitor, seq, score FROM (
                    SELECT b.*, ROW_NUMBER() OVER (PARTITION BY subject ORDER BY score DESC, created DESC, \(bytes("visitor")) DESC, seq DESC) AS rank
                    FROM base b
                    WHERE NOT (\(keptOutright)) AND score >= 0
                      AND NOT (reports >= \(rules.reportThreshold) AND COALESCE(decision, '') <> 'restored')) AS older
                WHERE rank <= \(rules.highlightsPerSubject))
            """
    }

    /// `PulseRules.hidden` for a viewer (parameter number `viewerParam`; NULL: nobody):
    /// the kept notes the viewer sees.
    func visible(now: Date, viewerParam: Int, subjectParam: Int?) -> String {
        """
        WITH \(kept(now: now, subjectParam: subjectParam)),
        visible AS (
            SELECT * FROM kept k
            WHERE NOT EXISTS (SELECT 1 FROM report r WHERE r.note = k.id AND r.visitor = \(param(viewerParam)))
              AND (author = 'curator' OR (author = 'visitor' AND visitor = \(param(viewerParam))) OR (
                    NOT (COALESCE(decision, '') NOT IN ('restored', 'pinned') AND reports >= \(rules.reportThreshold))
                AND NOT (COALESCE(decision, '') <> 'pinned' AND score <= \(rules.scoreFloor)))))
        """
    }

    /// Visible notes per subject for the snapshot: (subject, count). Parameter 1: the viewer.
    public func noteCounts(now: Date) -> String {
        visible(now: now, viewerParam: 1, subjectParam: nil) + "\nSELECT subject, COUNT(*) FROM visible GROUP BY subject"
    }

    /// One page of the notes a viewer sees on a subject, newest first (ties: the larger id
    /// first, as `PulseRules.visible`). Parameters: 1 the viewer, 2 the subject, 3 to 5 the
    /// cursor (created, visitor, sequence of the last note of the previous page) or NULLs for
    /// the first page. At most `limit` rows.
    public func notesPage(now: Date, limit: Int) -> String {
        visible(now: now, viewerParam: 1, subjectParam: 2)
            + """

            SELECT \(Self.columns) FROM visible
            WHERE \(typed(3, "DOUBLE PRECISION")) IS NULL OR (created, \(bytes("visitor")), seq) < (\(param(3)), \(param(4)), \(param(5)))
            ORDER BY created DESC, \(bytes("visitor")) DESC, seq DESC LIMIT \(max(1, limit))
            """
    }

    /// A parameter with its type said (PostgreSQL cannot infer it from `IS NULL`).
    func typed(_ n: Int, _ type: String) -> String { dialect == .sqlite ? param(n) : "\(param(n))::\(type)" }

    /// The ids of notes no longer kept (`PulseRules.retained`), for the purge.
    public func expired(now: Date) -> String {
        "WITH \(kept(now: now, subjectParam: nil))\nSELECT n.id FROM note n WHERE n.id NOT IN (SELECT id FROM kept)"
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
}

import PulseKit
import Foundation
import StoreSupport
import GRDB

/// The guide's Pulse outbox in the state database (`pulse_outbox`, made by `PulseStorage`'s
/// migration): a write made while the Pulse service cannot be reached is on disk before the
/// visitor is answered, and is sent by the next guide that runs with this state database, so
/// nothing acknowledged is lost to a quit, a crash or a reboot.
public final class SQLitePulseOutbox: PulseOutbox, Sendable {
    public let path: String
    private let dbQueue: DatabaseQueue

    private init(path: String, dbQueue: DatabaseQueue) {
        self.path = path
        self.dbQueue = dbQueue
    }

    /// The table, as the state database's migration `v6-pulse-outbox` made it (never edited
    /// once shipped) and as a file of its own makes it (`openFile`).
    package static let tableDefinition = """
        pulse_outbox (
            key TEXT PRIMARY KEY, sequence INTEGER NOT NULL, kind TEXT NOT NULL, subject TEXT, value INTEGER, note TEXT,
            language TEXT, text TEXT, reported INTEGER, visitor TEXT NOT NULL, secret TEXT NOT NULL, queued_at REAL NOT NULL);
        """

    /// A note's pass through the posting gate (issue 32), as `v8-pulse-outbox-pass` adds it to
    /// the table (and a file of its own gets it on opening): a note waiting for the service
    /// keeps its visit code or member card, else it would be refused once sent.
    package static func addPassColumn(_ db: Database) throws {
        guard try !db.columns(in: "pulse_outbox").contains(where: { $0.name == "pass" }) else { return }
        try db.execute(sql: "ALTER TABLE pulse_outbox ADD COLUMN pass TEXT")
    }

    /// `visit-code:CODE` or `member-card:NUMBER`.
    static func passText(_ p: PostingPass?) -> String? {
        switch p {
        case .visitCode(let c)?: return "visit-code:" + c
        case .memberCard(let c)?: return "member-card:" + c
        case nil: return nil
        }
    }

    static func pass(_ text: String?) -> PostingPass? {
        guard let text else { return nil }
        if text.hasPrefix("visit-code:") { return .visitCode(String(text.dropFirst("visit-code:".count))) }
        if text.hasPrefix("member-card:") { return .memberCard(String(text.dropFirst("member-card:".count))) }
        return nil
    }

    /// Where writes wait when the state database cannot keep them (a directory in its place,
    /// a damaged or read-only file): a file of its own under `$XDG_STATE_HOME/docent`, so a note
    /// the guide calls saved is on disk whatever became of the state database.
    public static func fallbackPath(environment: [String: String]) -> String {
        Support.xdgPath("XDG_STATE_HOME", fallback: ".local/state", file: "pulse-outbox.sqlite", environment: environment)
    }

    /// The outbox in a file of its own (created with its directories if needed).
    public static func openFile(path: String) -> Result<SQLitePulseOutbox, LoadFailure> {
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(Support.busyTimeout)
        config.label = "docent.outbox-file"
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let q = try DatabaseQueue(path: path, configuration: config)
            try q.write { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS " + tableDefinition)
                try addPassColumn(db)
            }
            return .success(SQLitePulseOutbox(path: path, dbQueue: q))
        } catch {
            return .failure(LoadFailure("cannot keep Pulse writes in \(path) (\(Support.describe(error)))"))
        }
    }

    /// Moves every write waiting in `other` into this outbox, oldest first (a write kept in
    /// the fallback file while the state database was broken, once it works again).
    public func takeOver(_ other: SQLitePulseOutbox) {
        guard let entries = try? other.pending() else { return }
        for e in entries {
            guard (try? put(e.write, as: e.credentials, at: e.queuedAt)) != nil else { return }
            try? other.remove(e)
        }
    }

    /// Opens the state database the settings store has already created and migrated.
    public static func open(path: String) -> Result<SQLitePulseOutbox, LoadFailure> {
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(Support.busyTimeout)
        config.label = "docent.outbox"
        do {
            let q = try DatabaseQueue(path: path, configuration: config)
            guard try q.read({ db in try db.tableExists("pulse_outbox") }) else {
                return .failure(LoadFailure("the state database \(path) has no Pulse outbox yet (it could not be upgraded)"))
            }
            return .success(SQLitePulseOutbox(path: path, dbQueue: q))
        } catch {
            return .failure(Support.failure(error, path: path, doing: "open"))
        }
    }

    public func put(_ write: PulseWrite, as credentials: VisitorCredentials, at: Date) throws(PulseStoreError) -> PulseOutboxEntry {
        try run("keep a Pulse write in") { db in
            let sequence = (try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(sequence), 0) + 1 FROM pulse_outbox")) ?? 1
            var subject: String?, value: Int?, note: String?, language: String?, text: String?, reported: Bool?, pass: String?
            let kind: String
            switch write {
            case .react(let v, let s):
                kind = "react"
                subject = s.key
                value = v?.rawValue
            case .post(let d):
                kind = "post"
                subject = d.subject.key
                note = d.id.key
                language = d.language.code
                text = d.text
                pass = Self.passText(d.pass)
            case .report(let n, let on):
                kind = "report"
                note = n.key
                reported = on
            }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO pulse_outbox (key, sequence, kind, subject, value, note, language, text, reported, visitor, secret, queued_at, pass)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    write.key, sequence, kind, subject, value, note, language, text, reported, credentials.visitor.rawValue, credentials.secret,
                    at.timeIntervalSince1970, pass,
                ])
            return PulseOutboxEntry(sequence: sequence, write: write, credentials: credentials, queuedAt: at)
        }
    }

    public func pending() throws(PulseStoreError) -> [PulseOutboxEntry] {
        try run("read the Pulse writes waiting in") { db in
            // A row that cannot be read (written by a newer guide, or damaged) is skipped, not
            // fatal: the others still go.
            try GRDB.Row.fetchAll(db, sql: "SELECT * FROM pulse_outbox ORDER BY sequence").compactMap(Self.entry)
        }
    }

    public func remove(_ entry: PulseOutboxEntry) throws(PulseStoreError) {
        try run("remove a sent Pulse write from") { db in
            try db.execute(sql: "DELETE FROM pulse_outbox WHERE key = ? AND sequence = ?", arguments: [entry.write.key, entry.sequence])
        }
    }

    static func entry(_ row: GRDB.Row) -> PulseOutboxEntry? {
        guard let sequence = row.decoded("sequence", as: Int64.self), let kind = row.decoded("kind", as: String.self),
            let visitor = row.decoded("visitor", as: String.self).flatMap(VisitorID.init), let secret = row.decoded("secret", as: String.self),
            let at = row.decoded("queued_at", as: Double.self)
        else { return nil }
        let subject = row.decoded("subject", as: String.self).flatMap(PulseSubject.init)
        let note = row.decoded("note", as: String.self).flatMap { NoteID(key: $0) }
        let write: PulseWrite
        switch kind {
        case "react":
            guard let subject else { return nil }
            let raw = row.decoded("value", as: Int.self)
            let value = raw.flatMap(ReactionValue.init(rawValue:))
            if raw != nil && value == nil { return nil }
            write = .react(value, subject)
        case "post":
            guard let subject, let note, let language = row.decoded("language", as: String.self).flatMap(Language.fromTag),
                let text = row.decoded("text", as: String.self)
            else { return nil }
            write = .post(NoteDraft(id: note, subject: subject, language: language, text: text, pass: Self.pass(row.decoded("pass", as: String.self))))
        case "report":
            guard let note, let on = row.decoded("reported", as: Bool.self) else { return nil }
            write = .report(note, on)
        default: return nil
        }
        return PulseOutboxEntry(
            sequence: sequence, write: write, credentials: VisitorCredentials(visitor: visitor, secret: secret), queuedAt: Date(timeIntervalSince1970: at))
    }

    private func run<T>(_ doing: String, _ body: (Database) throws -> T) throws(PulseStoreError) -> T {
        do {
            return try dbQueue.write(body)
        } catch {
            throw .unavailable("cannot \(doing) \(path) (\(Support.describe(error)))")
        }
    }
}

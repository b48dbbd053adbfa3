import DocentText
import DocentJSON
import Foundation

/// The Pulse schema described once, rendered to SQLite's and PostgreSQL's SQL (issue 28).
///
/// The steps already shipped stay as they were written (`SQLitePulseStore.migrator`,
/// `PostgresPulseStore.migrations`): installed databases replay from where they stopped, so a
/// shipped step's text never changes. `current` describes what those steps leave, table by
/// table; `PulseSchemaTests` checks that both stores' migrated databases are exactly it
/// (tables, columns with their types mapped, nullability, defaults, primary keys, indexes),
/// and that `current` rendered to each dialect makes the same database. A new step is written
/// here (`steps`) and rendered to both stores' migration lists, and `current` grows with it.
public enum PulseSchema {
    /// A column's type, and how each dialect writes it.
    public enum ColumnType: Sendable, Equatable {
        case text, integer, bigint, smallint, real

        public func sql(_ dialect: PulseRulesSQL.Dialect) -> String {
            switch (self, dialect) {
            case (.text, _): return "TEXT"
            case (.integer, _): return "INTEGER"
            case (.bigint, .sqlite), (.smallint, .sqlite): return "INTEGER"
            case (.bigint, .postgres): return "BIGINT"
            case (.smallint, .postgres): return "SMALLINT"
            case (.real, .sqlite): return "REAL"
            case (.real, .postgres): return "DOUBLE PRECISION"
            }
        }
    }

    public struct Column: Sendable, Equatable {
        public var name: String
        public var type: ColumnType
        public var notNull: Bool
        /// A literal (our own text, never a client's).
        public var defaultValue: String?
        /// A CHECK on the column (our own text).
        public var check: String?

        public init(_ name: String, _ type: ColumnType, notNull: Bool = true, default defaultValue: String? = nil, check: String? = nil) {
            self.name = name
            self.type = type
            self.notNull = notNull
            self.defaultValue = defaultValue
            self.check = check
        }

        func sql(_ dialect: PulseRulesSQL.Dialect) -> String {
            var s = "\(name) \(type.sql(dialect))"
            if notNull { s += " NOT NULL" }
            if let defaultValue { s += " DEFAULT \(defaultValue)" }
            if let check { s += " CHECK (\(check))" }
            return s
        }
    }

    public struct Table: Sendable, Equatable {
        public var name: String
        public var columns: [Column]
        public var primaryKey: [String]
        /// A table only one store has (PostgreSQL's sharded version; SQLite keeps one in `meta`).
        public var only: PulseRulesSQL.Dialect?

        public init(_ name: String, _ columns: [Column], primaryKey: [String] = [], only: PulseRulesSQL.Dialect? = nil) {
            self.name = name
            self.columns = columns
            self.primaryKey = primaryKey
            self.only = only
        }
    }

    public struct Index: Sendable, Equatable {
        public var name: String
        public var table: String
        public var columns: [String]

        public init(_ name: String, on table: String, _ columns: [String]) {
            self.name = name
            self.table = table
            self.columns = columns
        }
    }

    /// One change of a step.
    public enum Change: Sendable, Equatable {
        case createTable(Table)
        case addColumn(table: String, Column)
        case createIndex(Index)

        /// The statement in `dialect` (nil: the table is the other store's only).
        public func sql(_ dialect: PulseRulesSQL.Dialect) -> String? {
            switch self {
            case .createTable(let t):
                if let only = t.only, only != dialect { return nil }
                var parts = t.columns.map { $0.sql(dialect) }
                if !t.primaryKey.isEmpty { parts.append("PRIMARY KEY (\(t.primaryKey.joined(separator: ", ")))") }
                return "CREATE TABLE \(t.name) (\(parts.joined(separator: ", ")))"
            case .addColumn(let table, let c):
                return "ALTER TABLE \(table) ADD COLUMN \(c.sql(dialect))"
            case .createIndex(let i):
                return "CREATE INDEX \(i.name) ON \(i.table) (\(i.columns.joined(separator: ", ")))"
            }
        }
    }

    /// Steps after the shipped ones, in order (none yet): each is appended, rendered, to both
    /// stores' migrations (`sqlite(step:)`, `postgres(step:)`).
    public static let steps: [[Change]] = []

    public static func statements(_ step: [Change], _ dialect: PulseRulesSQL.Dialect) -> [String] {
        step.compactMap { $0.sql(dialect) }
    }

    /// The schema the shipped steps leave (and `steps` after them), tables then indexes.
    public static let tables: [Table] = [
        Table("meta", [Column("key", .text), Column("value", .bigint)], primaryKey: ["key"]),
        Table("version_shard", [Column("shard", .integer), Column("value", .bigint)], primaryKey: ["shard"], only: .postgres),
        Table("visitor", [Column("id", .text), Column("secret", .text), Column("created", .real)], primaryKey: ["id"]),
        Table(
            "note",
            [
                Column("id", .text), Column("visitor", .text), Column("seq", .bigint), Column("subject", .text), Column("language", .text),
                Column("text", .text), Column("created", .real), Column("author", .text, check: "author IN ('visitor', 'curator')"),
                Column("reports", .integer, default: "0"), Column("decision", .text, notNull: false), Column("restored_at", .real, notNull: false),
            ], primaryKey: ["id"]),
        Table(
            "reaction",
            [Column("subject", .text), Column("visitor", .text), Column("value", .smallint, check: "value IN (-1, 0, 1)"), Column("at", .real)],
            primaryKey: ["subject", "visitor"]),
        Table(
            "counts", [Column("subject", .text), Column("up", .integer, default: "0"), Column("meh", .integer, default: "0"), Column("down", .integer, default: "0")],
            primaryKey: ["subject"]),
        Table("report", [Column("note", .text), Column("visitor", .text), Column("at", .real)], primaryKey: ["note", "visitor"]),
        Table(
            "featured", [Column("subject", .text), Column("tier", .integer), Column("from_at", .real, notNull: false), Column("until_at", .real, notNull: false)],
            primaryKey: ["subject"]),
        Table("featured_tagline", [Column("subject", .text), Column("language", .text), Column("text", .text)], primaryKey: ["subject", "language"]),
        Table(
            "announcement",
            [
                Column("id", .text), Column("style", .text), Column("feeds", .text), Column("positions", .text), Column("languages", .text),
                Column("from_at", .real, notNull: false), Column("until_at", .real, notNull: false), Column("link", .text, notNull: false),
            ], primaryKey: ["id"]),
        Table("announcement_text", [Column("id", .text), Column("language", .text), Column("text", .text)], primaryKey: ["id", "language"]),
        Table(
            "activity",
            [Column("subject", .text), Column("kind", .text), Column("visitor", .text, notNull: false), Column("at", .real), Column("n", .integer, default: "1")]),
    ]

    public static let indexes: [Index] = [
        Index("note_subject", on: "note", ["subject", "created"]),
        Index("reaction_visitor", on: "reaction", ["visitor"]),
        Index("report_visitor", on: "report", ["visitor"]),
        Index("activity_at", on: "activity", ["at"]),
        Index("activity_visitor", on: "activity", ["visitor", "kind", "at"]),
        Index("note_author", on: "note", ["author", "subject"]),
    ]

    /// `tables` and `indexes` as statements that make an empty database of `dialect` (tests
    /// compare it with what the shipped steps made).
    public static func creating(_ dialect: PulseRulesSQL.Dialect) -> [String] {
        statements(tables.map(Change.createTable) + indexes.map(Change.createIndex), dialect)
    }
}

import DocentCore
import Foundation
import GRDB
import PulseService
import StateStore
import XCTest

/// The Pulse schema, written twice by the shipped steps (SQLite's `pulse-v1`…, PostgreSQL's
/// numbered steps), against its one description (`PulseSchema`): the databases both stores'
/// migrations make are the description, table by table (columns with their types mapped,
/// nullability, defaults, primary keys) and index by index; the description rendered
/// to each dialect makes the same database; and a new step's `ADD COLUMN` renders as the
/// shipped one did.
final class PulseSchemaTests: PostgresTestCase {




    /// A schema as read back from a database: one line a column, a primary key, an index.
    typealias Shape = [String]

    /// What the description says, with `dialect`'s type names.
    static func described(_ dialect: PulseRulesSQL.Dialect) -> Shape {
        var out: Shape = []
        for t in PulseSchema.tables where t.only == nil || t.only == dialect {
            for c in t.columns {
                out.append("\(t.name).\(c.name) \(c.type.sql(dialect))\(c.notNull ? " NOT NULL" : "")\(c.defaultValue.map { " DEFAULT \($0)" } ?? "")")
            }
            if !t.primaryKey.isEmpty { out.append("\(t.name) PRIMARY KEY (\(t.primaryKey.joined(separator: ", ")))") }
        }
        for i in PulseSchema.indexes { out.append("INDEX \(i.name) ON \(i.table) (\(i.columns.joined(separator: ", ")))") }
        return out.sorted()
    }

    /// An SQLite file's schema (GRDB's bookkeeping left out). A primary key's columns count as
    /// NOT NULL: PostgreSQL makes them so, while SQLite (a legacy of its own) lets a TEXT key
    /// hold NULL unless the column says NOT NULL, which the shipped steps did not; the stores
    /// never write one. CHECKs are not compared (each database words them its own way).
    static func sqliteShape(_ path: String) throws -> Shape {
        let q = try DatabaseQueue(path: path)
        return try q.read { db in
            var out: Shape = []
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'")
            for t in tables {
                var pk: [(Int, String)] = []
                for row in try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", arguments: [t]) {
                    let name: String = row["name"], type: String = row["type"], notNull: Bool = row["notnull"], dflt: String? = row["dflt_value"], k: Int = row["pk"]
                    out.append("\(t).\(name) \(type)\(notNull || k > 0 ? " NOT NULL" : "")\(dflt.map { " DEFAULT \($0)" } ?? "")")
                    if k > 0 { pk.append((k, name)) }
                }
                if !pk.isEmpty { out.append("\(t) PRIMARY KEY (\(pk.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: ", ")))") }
                for index in try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?) WHERE origin = 'c'", arguments: [t]) {
                    let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index])
                    out.append("INDEX \(index) ON \(t) (\(columns.joined(separator: ", ")))")
                }
            }
            return out.sorted()
        }
    }

    /// A PostgreSQL database's schema (the steps' own bookkeeping left out).
    static func postgresShape(_ pg: PostgresServer, _ database: String) throws -> Shape {
        var out: Shape = []
        let columns = try pg.psql(
            database,
            """
            SELECT c.table_name || '.' || c.column_name || ' ' || upper(c.data_type)
                || CASE WHEN c.is_nullable = 'NO' THEN ' NOT NULL' ELSE '' END
                || COALESCE(' DEFAULT ' || c.column_default, '')
            FROM information_schema.columns c
            WHERE c.table_schema = 'public' AND c.table_name NOT IN ('pulse_schema')
            """)
        out += columns.split(separator: "\n").map(String.init)
        let keys = try pg.psql(
            database,
            """
            SELECT tc.table_name || ' PRIMARY KEY (' || string_agg(k.column_name, ', ' ORDER BY k.ordinal_position) || ')'
            FROM information_schema.table_constraints tc
            JOIN information_schema.key_column_usage k ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema
            WHERE tc.table_schema = 'public' AND tc.constraint_type = 'PRIMARY KEY' AND tc.table_name NOT IN ('pulse_schema')
            GROUP BY tc.table_name
            """)
        out += keys.split(separator: "\n").map(String.init)
        let indexes = try pg.psql(
            database,
            """
            SELECT 'INDEX ' || i.relname || ' ON ' || t.relname || ' ('
                || string_agg(a.attname, ', ' ORDER BY array_position(ix.indkey::int2[], a.attnum)) || ')'
            FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
            JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY(ix.indkey)
            WHERE n.nspname = 'public' AND NOT ix.indisprimary
            GROUP BY i.relname, t.relname
            """)
        out += indexes.split(separator: "\n").map(String.init)
        return out.filter { !$0.isEmpty }.sorted()
    }

    func testBothStoresShippedStepsMakeTheDescribedSchema() async throws {
        let path = tempDir + "/pulse.sqlite"
        _ = try SQLitePulseStore.open(path: path, clock: { Date() }).get()
        XCTAssertEqual(try Self.sqliteShape(path), Self.described(.sqlite))

        let pg = try server()
        let database = try pg.createDatabase()
        let store = try await PostgresPulseStore.open(try PostgresPulseStore.Location.parse(pg.url(database)).get(), clock: { Date() }).get()
        store.close()
        XCTAssertEqual(try Self.postgresShape(pg, database), Self.described(.postgres))
    }

    /// The description rendered to each dialect makes what the shipped steps made.
    func testTheDescriptionRenderedMakesTheSameDatabases() throws {
        let path = tempDir + "/rendered.sqlite"
        let q = try DatabaseQueue(path: path)
        try q.write { db in for s in PulseSchema.creating(.sqlite) { try db.execute(sql: s) } }
        XCTAssertEqual(try Self.sqliteShape(path), Self.described(.sqlite))

        let pg = try server()
        let database = try pg.createDatabase()
        for s in PulseSchema.creating(.postgres) { try pg.psql(database, s) }
        XCTAssertEqual(try Self.postgresShape(pg, database), Self.described(.postgres))
    }

    /// A later step's `ADD COLUMN` (the form `pulse-public-v1` / step 3 wrote by hand) renders
    /// to what those steps wrote.
    func testAnAddedColumnRendersAsTheShippedStepWroteIt() {
        let n = PulseSchema.Change.addColumn(table: "activity", PulseSchema.Column("n", .integer, default: "1"))
        XCTAssertEqual(n.sql(.sqlite), "ALTER TABLE activity ADD COLUMN n INTEGER NOT NULL DEFAULT 1")
        XCTAssertEqual(n.sql(.postgres), "ALTER TABLE activity ADD COLUMN n INTEGER NOT NULL DEFAULT 1")
        let shard = PulseSchema.Change.createTable(PulseSchema.tables.first { $0.name == "version_shard" }!)
        XCTAssertNil(shard.sql(.sqlite), "PostgreSQL's own table is not made in SQLite")
        XCTAssertEqual(shard.sql(.postgres), "CREATE TABLE version_shard (shard INTEGER NOT NULL, value BIGINT NOT NULL, PRIMARY KEY (shard))")
    }
}

import DocentCore
import Foundation
import StoreSupport
import GRDB

/// The user's settings in an SQLite database (WAL mode), via GRDB.
///
/// Schema changes are named, additive migrations run by `open`; a failure of any kind becomes a
/// `LoadFailure` sentence naming the database, never a crash.
public final class SQLiteSettingsStore: SettingsStoring, Sendable {
    /// The database file.
    public let path: String
    /// Whether the database was opened read-only (every `save` then fails).
    public let readOnly: Bool
    private let dbQueue: DatabaseQueue
    /// The features' own tables.
    private let features: [any FeatureStorage]

    /// How long a statement waits for another program's lock before giving up.
    public static let busyTimeout: TimeInterval = Support.busyTimeout

    private init(path: String, readOnly: Bool, dbQueue: DatabaseQueue, features: [any FeatureStorage]) {
        self.features = features
        self.path = path
        self.readOnly = readOnly
        self.dbQueue = dbQueue
    }

    /// `$XDG_DATA_HOME/docent/state.sqlite`, or `$HOME/.local/share/docent/state.sqlite`.
    public static func defaultPath(environment: [String: String]) -> String {
        Support.xdgPath("XDG_DATA_HOME", fallback: ".local/share", file: "state.sqlite", environment: environment)
    }

    /// Opens (creating it and its parent directories if needed) and migrates the database.
    ///
    /// With `readOnly`, the file must exist and be fully migrated; nothing is written to it, and
    /// `save` reports a failure.
    /// `features`: each feature's own tables (their migrations run after the store's own).
    public static func open(path: String, readOnly: Bool = false, features: [any FeatureStorage] = []) -> Result<SQLiteSettingsStore, LoadFailure> {
        if !readOnly {
            let dir = Support.directory(of: path)
            if !dir.isEmpty {
                do {
                    try Support.makeDirectory(dir)
                } catch {
                    return .failure(LoadFailure("cannot create the directory \(dir) for the state database (\(Support.describe(error)))"))
                }
            }
        }
        var config = Configuration()
        config.readonly = readOnly
        config.journalMode = .wal  // ignored by GRDB when read-only
        config.busyMode = .timeout(busyTimeout)
        config.label = "docent.state"
        let dbQueue: DatabaseQueue
        do {
            dbQueue = try DatabaseQueue(path: path, configuration: config)
        } catch {
            return .failure(failure(error, path: path, doing: "open"))
        }
        do {
            if readOnly {
                let complete = try dbQueue.read { db in try migrator(features).hasCompletedMigrations(db) }
                guard complete else {
                    return .failure(LoadFailure("the state database \(path) was opened read-only but needs an upgrade this program cannot write"))
                }
            } else {
                try migrator(features).migrate(dbQueue)
            }
        } catch {
            return .failure(failure(error, path: path, doing: "prepare"))
        }
        return .success(SQLiteSettingsStore(path: path, readOnly: readOnly, dbQueue: dbQueue, features: features))
    }

    /// The schema, as named migrations. Never edit a shipped migration: append a new one
    /// (a feature's in its storage, as tours' "v2-tour-progress") so existing databases upgrade
    /// in place.
    static func migrator(_ features: [any FeatureStorage]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE seen_message (id INTEGER PRIMARY KEY);
                """)
        }
        // Then each feature's own tables, in registry order.
        for storage in features {
            for m in storage.migrations { migrator.registerMigration(m.name, migrate: m.body) }
        }
        return migrator
    }

    /// The names of the migrations applied to the database, oldest first.
    public func appliedMigrations() -> Result<[String], LoadFailure> {
        run(doing: "read") { db in try Self.migrator(features).appliedMigrations(db) }
    }

    /// The database's journal mode as SQLite reports it ("wal" once opened for writing).
    public func journalMode() -> Result<String, LoadFailure> {
        run(doing: "read") { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "unknown" }
    }

    // MARK: SettingsStoring

    private enum Key {
        static let language = "language"
        static let lastTab = "last_tab"
        static let locationEnabled = "location_enabled"
        static let introSeen = "intro_seen"
    }

    public func load() -> Result<PersistedSettings?, LoadFailure> {
        run(doing: "read settings from") { db in
            ReadProblems.count = 0
            var values: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, value FROM settings") {
                if let key = row.decoded("key", as: String.self), let value = row.decoded("value", as: String.self) { values[key] = value }
            }
            // Nothing saved yet: a first run.
            guard !values.isEmpty else { return nil }
            let seen = try Row.fetchAll(db, sql: "SELECT id FROM seen_message").compactMap { $0.decoded("id", as: Int.self) }
            var settings = PersistedSettings()
            // Unreadable values fall back to the defaults: settings are a convenience, not data.
            settings.language = values[Key.language].flatMap(Language.fromTag)
            settings.lastTab = values[Key.lastTab].flatMap(Tab.init(rawValue:)) ?? settings.lastTab
            settings.locationEnabled = values[Key.locationEnabled].flatMap(Self.bool) ?? settings.locationEnabled
            settings.introSeen = values[Key.introSeen].flatMap(Self.bool) ?? settings.introSeen
            settings.seenMessageIDs = Set(seen)
            for storage in features {
                if let value = try storage.loadValue(db) { settings.saves.values[storage.feature] = value }
            }
            settings.skippedValues = ReadProblems.count
            return settings
        }
    }

    public func save(_ settings: PersistedSettings) -> Result<Void, LoadFailure> {
        if readOnly {
            return .failure(LoadFailure("cannot save settings: the state database \(path) is read-only"))
        }
        return write(doing: "save settings to") { db in
            var values: [String: String] = [
                Key.lastTab: settings.lastTab.rawValue,
                Key.locationEnabled: settings.locationEnabled ? "1" : "0",
                Key.introSeen: settings.introSeen ? "1" : "0",
            ]
            if let language = settings.language { values[Key.language] = language.code }
            try db.execute(sql: "DELETE FROM settings")
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "INSERT INTO settings (key, value) VALUES (?, ?)", arguments: [key, value])
            }
            try db.execute(sql: "DELETE FROM seen_message")
            for id in settings.seenMessageIDs.sorted() {
                try db.execute(sql: "INSERT INTO seen_message (id) VALUES (?)", arguments: [id])
            }
            for storage in features { try storage.saveValue(settings.saves.values[storage.feature], db) }
        }
    }

    // MARK: Helpers

    private static func bool(_ text: String) -> Bool? {
        switch text {
        case "1", "true": return true
        case "0", "false": return false
        default: return nil
        }
    }

    private func run<T>(doing: String, _ body: (Database) throws -> T) -> Result<T, LoadFailure> {
        do {
            return .success(try dbQueue.read(body))
        } catch {
            return .failure(Self.failure(error, path: path, doing: doing))
        }
    }

    /// One immediate transaction: a lock held by another program is met at `BEGIN` (after the
    /// busy timeout), not halfway through.
    private func write(doing: String, _ body: (Database) throws -> Void) -> Result<Void, LoadFailure> {
        do {
            try dbQueue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try body(db)
                    return .commit
                }
            }
            return .success(())
        } catch {
            return .failure(Self.failure(error, path: path, doing: doing))
        }
    }

    /// Turns a GRDB or file-system error into one sentence about the state database.
    static func failure(_ error: any Error, path: String, doing: String) -> LoadFailure {
        Support.failure(error, path: path, doing: doing)
    }
}

import DocentCore
import GRDB

/// One feature's own part of the state database: its tables (as named migrations, run after
/// the store's own, never edited once shipped) and how its saved value is read and written.
/// Reads and writes happen in the store's transaction, so a save is all or nothing.
public protocol FeatureStorage: Sendable {
    associatedtype Core: Feature
    /// Its schema, oldest first.
    var migrations: [FeatureMigration] { get }
    /// Its saved value, nil when there is none (or it cannot be read: a bad row is missing,
    /// never a crash).
    func load(_ db: Database) throws -> Core.Saved?
    /// Saves its value; nil forgets it.
    func save(_ value: Core.Saved?, _ db: Database) throws
}

/// A feature that keeps something in the state database: the conformance, beside its storage
/// in the feature's `Storage` folder, is its registration (the shell finds it in the registry,
/// `Runners.storages`), so no list names the features that save.
public protocol SavesInDatabase: Feature {
    associatedtype Storage: FeatureStorage where Storage.Core == Self
    static var storage: Storage { get }
}

extension FeatureSet {
    /// The storages of the registered features that save (`SavesInDatabase`), in the registry's
    /// order; the state database runs their migrations after its own. The order between two
    /// features' migrations decides nothing: each migrates its own tables, GRDB applies whichever
    /// are not applied yet, and a database is complete when all are (`hasCompletedMigrations`
    /// reads the applied set in the registered order), so a feature added to or moved in the
    /// registry migrates an existing database as it does a new one (`StateStoreTests`).
    public var storages: [any FeatureStorage] {
        all.compactMap { f in (f.type as? any SavesInDatabase.Type).map { Self.storage($0) } }
    }

    private static func storage<F: SavesInDatabase>(_: F.Type) -> any FeatureStorage { F.storage }
}

/// A named schema change.
public struct FeatureMigration: Sendable {
    public let name: String
    public let body: @Sendable (Database) throws -> Void
    public init(_ name: String, _ body: @escaping @Sendable (Database) throws -> Void) {
        self.name = name
        self.body = body
    }
}

extension FeatureStorage {
    var feature: FeatureID { Core.id }

    func loadValue(_ db: Database) throws -> FeatureValue? {
        try load(db).map { FeatureValue(Core.id, $0) }
    }

    func saveValue(_ value: FeatureValue?, _ db: Database) throws {
        try save(value?.as(Core.Saved.self), db)
    }
}

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

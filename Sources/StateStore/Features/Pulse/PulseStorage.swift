import DocentCore
import Foundation
import GRDB

/// The visitor's Pulse identity in the state database: id, secret and the next note sequence
/// (one row; the shared Pulse file holds no one's settings).
public struct PulseStorage: FeatureStorage {
    public typealias Core = PulseFeature
    public init() {}

    public var migrations: [FeatureMigration] {
        [
            FeatureMigration("v4-pulse-identity") { db in
                try db.execute(sql: """
                    CREATE TABLE pulse_identity (
                        id INTEGER PRIMARY KEY CHECK (id = 1), visitor TEXT NOT NULL, secret TEXT NOT NULL, next_sequence INTEGER NOT NULL);
                    """)
            }
        ]
    }

    public func load(_ db: Database) throws -> PulseIdentity? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM pulse_identity WHERE id = 1"),
            let visitor = row.decoded("visitor", as: String.self).flatMap(VisitorID.init), let secret = row.decoded("secret", as: String.self),
            let next = row.decoded("next_sequence", as: Int64.self)
        else { return nil }
        return PulseIdentity(credentials: VisitorCredentials(visitor: visitor, secret: secret), nextSequence: UInt64(bitPattern: next))
    }

    public func save(_ identity: PulseIdentity?, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM pulse_identity")
        guard let i = identity else { return }
        try db.execute(
            sql: "INSERT INTO pulse_identity (id, visitor, secret, next_sequence) VALUES (1, ?, ?, ?)",
            arguments: [i.credentials.visitor.rawValue, i.credentials.secret, Int64(bitPattern: i.nextSequence)])
    }
}

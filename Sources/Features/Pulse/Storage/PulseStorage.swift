import DocentCore
import Foundation
import StoreSupport
import GRDB

/// The visitor's Pulse identity in the state database: id, secret and the next note sequence
/// (one row), and the visitors whose notes this one hides (the shared Pulse file holds no
/// one's settings); and the outbox of writes waiting for the Pulse service (`SQLitePulseOutbox`).
public struct PulseStorage: FeatureStorage {
    /// The largest note sequence read back (the guide takes milliseconds since 1970, at most
    /// 9e15, as the next one).
    static let maxSequence: UInt64 = 9_000_000_000_000_000
    public typealias Core = PulseFeature
    public init() {}

    public var migrations: [FeatureMigration] {
        [
            FeatureMigration("v4-pulse-identity") { db in
                try db.execute(sql: """
                    CREATE TABLE pulse_identity (
                        id INTEGER PRIMARY KEY CHECK (id = 1), visitor TEXT NOT NULL, secret TEXT NOT NULL, next_sequence INTEGER NOT NULL);
                    """)
            },
            FeatureMigration("v5-pulse-hidden") { db in
                try db.execute(sql: """
                    CREATE TABLE pulse_hidden (position INTEGER PRIMARY KEY, visitor TEXT NOT NULL UNIQUE, sample TEXT NOT NULL);
                    """)
            },
            // Writes waiting for the Pulse service (`SQLitePulseOutbox`), one per key.
            FeatureMigration("v6-pulse-outbox") { db in
                try db.execute(sql: "CREATE TABLE " + SQLitePulseOutbox.tableDefinition)
            },
            // A waiting note's visit code or member card (the posting gate, issue 32).
            FeatureMigration("v8-pulse-outbox-pass") { db in try SQLitePulseOutbox.addPassColumn(db) },
        ]
    }

    public func load(_ db: Database) throws -> PulseIdentity? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM pulse_identity WHERE id = 1"),
            let visitor = row.decoded("visitor", as: String.self).flatMap(VisitorID.init), let secret = row.decoded("secret", as: String.self),
            let next = row.decoded("next_sequence", as: Int64.self)
        else { return nil }
        // A hidden visitor that cannot be read is left out (the rest still count).
        let hidden = try Row.fetchAll(db, sql: "SELECT visitor, sample FROM pulse_hidden ORDER BY position").compactMap { r -> HiddenWriter? in
            guard let v = r.decoded("visitor", as: String.self).flatMap(VisitorID.init), let sample = r.decoded("sample", as: String.self) else { return nil }
            return HiddenWriter(visitor: v, sample: sample)
        }
        // A damaged sequence (negative, or past any clock in milliseconds) is read as 0: the
        // next note then takes the clock's milliseconds (issue 45: -1 became UInt64.max, whose
        // next sequence trapped).
        let sequence = (0...Int64(PulseStorage.maxSequence)).contains(next) ? UInt64(next) : 0
        return PulseIdentity(credentials: VisitorCredentials(visitor: visitor, secret: secret), nextSequence: sequence, hidden: hidden)
    }

    public func save(_ identity: PulseIdentity?, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM pulse_identity")
        try db.execute(sql: "DELETE FROM pulse_hidden")
        guard let i = identity else { return }
        for (k, h) in i.hidden.enumerated() {
            try db.execute(sql: "INSERT OR IGNORE INTO pulse_hidden (position, visitor, sample) VALUES (?, ?, ?)", arguments: [k, h.visitor.rawValue, h.sample])
        }
        try db.execute(
            sql: "INSERT INTO pulse_identity (id, visitor, secret, next_sequence) VALUES (1, ?, ?, ?)",
            arguments: [i.credentials.visitor.rawValue, i.credentials.secret, Int64(bitPattern: i.nextSequence)])
    }
}

/// Its registration: the shell opens the state database with the storages of the registered
/// features that conform.
extension PulseFeature: SavesInDatabase {
    public static let storage = PulseStorage()
}

import DocentCore
import Foundation
import StoreSupport
import GRDB

/// The member card's table: the whole card, so it shows offline (no row when signed out).
public struct MemberStorage: FeatureStorage {
    public typealias Core = MemberFeature
    public init() {}

    public var migrations: [FeatureMigration] {
        [
            FeatureMigration("v3-member-card") { db in
                try db.execute(sql: """
                    CREATE TABLE member_card (
                        id INTEGER PRIMARY KEY CHECK (id = 1), member_id TEXT NOT NULL, zip TEXT NOT NULL,
                        level TEXT NOT NULL, expiration REAL NOT NULL, holder1 TEXT NOT NULL, holder2 TEXT,
                        holder_index INTEGER NOT NULL, checked_at REAL NOT NULL);
                    """)
            }
        ]
    }

    /// The member card, whole, so it shows offline (nil when signed out).
    public func load(_ db: Database) throws -> MemberCard? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM member_card WHERE id = 1"),
            let id = row.decoded("member_id", as: String.self), let zip = row.decoded("zip", as: String.self), let level = row.decoded("level", as: String.self),
            let expiration = row.decoded("expiration", as: Double.self), let first = row.decoded("holder1", as: String.self),
            let index = row.decoded("holder_index", as: Int.self), let checked = row.decoded("checked_at", as: Double.self)
        else { return nil }
        let holders = [first] + ((row.decoded("holder2", as: String.self)).map { [$0] } ?? [])
        return MemberCard(
            memberID: id, zip: zip, level: level, expiration: Date(timeIntervalSince1970: expiration), holders: holders,
            holderIndex: min(max(index, 0), holders.count - 1), checkedAt: Date(timeIntervalSince1970: checked))
    }

    public func save(_ card: MemberCard?, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM member_card")
        guard let c = card, let first = c.holders.first else { return }
        try db.execute(
            sql: """
                INSERT INTO member_card (id, member_id, zip, level, expiration, holder1, holder2, holder_index, checked_at)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [c.memberID, c.zip, c.level, c.expiration.timeIntervalSince1970, first, c.holders.dropFirst().first, c.holderIndex, c.checkedAt.timeIntervalSince1970])
    }

}

/// Its registration: the shell opens the state database with the storages of the registered
/// features that conform.
extension MemberFeature: SavesInDatabase {
    public static let storage = MemberStorage()
}

import DocentCore
import Foundation
import GRDB

/// The player's settings kept between runs: the volume (a wrongly typed value is missing).
public struct PlayerStorage: FeatureStorage {
    public typealias Core = PlayerFeature
    public init() {}

    public var migrations: [FeatureMigration] {
        [
            FeatureMigration("v4-player-settings") { db in
                try db.execute(sql: "CREATE TABLE player_settings (id INTEGER PRIMARY KEY CHECK (id = 1), volume REAL NOT NULL)")
            }
        ]
    }

    public func load(_ db: Database) throws -> Double? {
        guard let row = try Row.fetchOne(db, sql: "SELECT volume FROM player_settings WHERE id = 1"),
            let v = row.decoded("volume", as: Double.self), v.isFinite
        else { return nil }
        return min(1, max(0, v))
    }

    public func save(_ volume: Double?, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM player_settings")
        guard let volume else { return }
        try db.execute(sql: "INSERT INTO player_settings (id, volume) VALUES (1, ?)", arguments: [volume])
    }
}

import DocentCore
import Foundation
import StoreSupport
import GRDB

/// The player's settings kept between runs: the volume and the playback speed (a wrongly
/// typed value is missing; a database from before the speed plays at 1×).
public struct PlayerStorage: FeatureStorage {
    public typealias Core = PlayerFeature
    public init() {}

    public var migrations: [FeatureMigration] {
        [
            FeatureMigration("v4-player-settings") { db in
                try db.execute(sql: "CREATE TABLE player_settings (id INTEGER PRIMARY KEY CHECK (id = 1), volume REAL NOT NULL)")
            },
            FeatureMigration("v7-player-speed") { db in
                try db.execute(sql: "ALTER TABLE player_settings ADD COLUMN speed REAL")
            },
        ]
    }

    public func load(_ db: Database) throws -> PlayerSettings? {
        guard let row = try Row.fetchOne(db, sql: "SELECT volume, speed FROM player_settings WHERE id = 1") else { return nil }
        let volume = row.decoded("volume", as: Double.self).flatMap { $0.isFinite ? min(1, max(0, $0)) : nil }
        let speed = row.decoded("speed", as: Double.self).flatMap { $0.isFinite ? PlayerFeature.nearestSpeed($0) : nil }
        guard volume != nil || speed != nil else { return nil }
        return PlayerSettings(volume: volume ?? PlayerSettings().volume, speed: speed ?? 1)
    }

    public func save(_ settings: PlayerSettings?, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM player_settings")
        guard let settings else { return }
        try db.execute(
            sql: "INSERT INTO player_settings (id, volume, speed) VALUES (1, ?, ?)", arguments: [settings.volume, settings.speed])
    }
}

/// Its registration: the shell opens the state database with the storages of the registered
/// features that conform.
extension PlayerFeature: SavesInDatabase {
    public static let storage = PlayerStorage()
}

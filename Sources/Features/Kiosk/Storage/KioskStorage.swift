import DocentCore
import Foundation
import StoreSupport
import GRDB

/// Kiosk mode's wrong staff codes in a row, kept between runs (issue 45 #8): a restart of the
/// guide must not give a script trying codes its free tries back. No row: none wrong.
public struct KioskStorage: FeatureStorage {
    public typealias Core = KioskFeature
    public init() {}

    public var migrations: [FeatureMigration] {
        [
            FeatureMigration("v9-kiosk-codes") { db in
                try db.execute(sql: "CREATE TABLE kiosk_codes (id INTEGER PRIMARY KEY CHECK (id = 1), wrong_in_a_row INTEGER NOT NULL)")
            }
        ]
    }

    /// A damaged number is brought into 0…`KioskFeature.mostWrongCodes` (a negative one is
    /// none wrong; a huge one the most).
    public func load(_ db: Database) throws -> KioskSaved? {
        guard let row = try Row.fetchOne(db, sql: "SELECT wrong_in_a_row FROM kiosk_codes WHERE id = 1"),
            let wrong = row.decoded("wrong_in_a_row", as: Int64.self)
        else { return nil }
        let bounded = Int(min(Int64(KioskFeature.mostWrongCodes), max(0, wrong)))
        return bounded > 0 ? KioskSaved(wrongCodes: bounded) : nil
    }

    public func save(_ value: KioskSaved?, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM kiosk_codes")
        guard let value, value.wrongCodes > 0 else { return }
        try db.execute(sql: "INSERT INTO kiosk_codes (id, wrong_in_a_row) VALUES (1, ?)", arguments: [value.wrongCodes])
    }
}

/// Its registration: the shell opens the state database with the storages of the registered
/// features that conform.
extension KioskFeature: SavesInDatabase {
    public static let storage = KioskStorage()
}

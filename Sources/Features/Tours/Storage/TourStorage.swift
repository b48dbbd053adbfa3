import DocentCore
import Foundation
import StoreSupport
import GRDB

/// Tours' tables: where the visitor was in a tour, the stops and artworks heard, the tours
/// started and finished. A row that cannot be read (a wrong type written by hand or by another
/// program) is skipped as if missing, never a crash.
public struct TourStorage: FeatureStorage {
    public typealias Core = TourFeature
    public init() {}

    public var migrations: [FeatureMigration] {
        [
            // Shipped in the store's own list before tours had a storage of their own; the name
            // and the tables are unchanged, so existing databases see nothing new.
            FeatureMigration("v2-tour-progress") { db in
                try db.execute(sql: """
                    CREATE TABLE tour_position (
                        id INTEGER PRIMARY KEY CHECK (id = 1), tour_id INTEGER NOT NULL, stop_index INTEGER,
                        seconds REAL NOT NULL, language TEXT NOT NULL, mode TEXT NOT NULL);
                    CREATE TABLE listened_stop (tour_id INTEGER NOT NULL, stop_index INTEGER NOT NULL,
                        PRIMARY KEY (tour_id, stop_index));
                    CREATE TABLE listened_artwork (artwork_id INTEGER PRIMARY KEY);
                    CREATE TABLE tour_status (tour_id INTEGER PRIMARY KEY, started INTEGER NOT NULL, finished INTEGER NOT NULL);
                    """)
            },
            // The part of the stop (its commentary, the walk to it, waiting there), so a guide
            // stopped during walking directions resumes at them.
            FeatureMigration("v5-tour-position-part") { db in
                try db.execute(sql: "ALTER TABLE tour_position ADD COLUMN part TEXT NOT NULL DEFAULT 'stop'")
            }
        ]
    }

    /// A stop's index as stored, if it can be one (issue 45: Int.max crashed every start where
    /// the page showed "stop n"). Out of range: counted as a value that could not be read.
    static func stop(_ k: Int) -> Int? {
        guard (0..<100_000).contains(k) else {
            ReadProblems.count += 1
            return nil
        }
        return k
    }

    public func load(_ db: Database) throws -> ListeningProgress? {
        var p = ListeningProgress()
        if let row = try Row.fetchOne(db, sql: "SELECT tour_id, stop_index, seconds, language, mode, part FROM tour_position WHERE id = 1"),
            let tour = row.decoded("tour_id", as: Int.self), let seconds = row.decoded("seconds", as: Double.self),
            seconds.isFinite, seconds >= 0,
            let lang = row.decoded("language", as: String.self).flatMap(Language.fromTag),
            let mode = row.decoded("mode", as: String.self).flatMap(TourMode.init(rawValue:))
        {
            p.current = TourProgress(
                tourID: tour, stopIndex: row.decoded("stop_index", as: Int.self).flatMap(Self.stop), seconds: seconds, language: lang, mode: mode,
                part: row.decoded("part", as: String.self).flatMap(TourPart.init(rawValue:)) ?? .stop)
        }
        for row in try Row.fetchAll(db, sql: "SELECT tour_id, stop_index FROM listened_stop") {
            if let t = row.decoded("tour_id", as: Int.self), let k = row.decoded("stop_index", as: Int.self).flatMap(Self.stop) { p.listenedStops[t, default: []].insert(k) }
        }
        for row in try Row.fetchAll(db, sql: "SELECT artwork_id FROM listened_artwork") {
            if let a = row.decoded("artwork_id", as: Int.self) { p.listenedArtworks.insert(a) }
        }
        for row in try Row.fetchAll(db, sql: "SELECT tour_id, started, finished FROM tour_status") {
            guard let t = row.decoded("tour_id", as: Int.self) else { continue }
            if row.decoded("started", as: Int.self) == 1 { p.started.insert(t) }
            if row.decoded("finished", as: Int.self) == 1 { p.finished.insert(t) }
        }
        return p == ListeningProgress() ? nil : p
    }

    public func save(_ value: ListeningProgress?, _ db: Database) throws {
        let p = value ?? ListeningProgress()
        try db.execute(sql: "DELETE FROM tour_position")
        if let c = p.current {
            try db.execute(
                sql: "INSERT INTO tour_position (id, tour_id, stop_index, seconds, language, mode, part) VALUES (1, ?, ?, ?, ?, ?, ?)",
                arguments: [c.tourID, c.stopIndex, c.seconds, c.language.code, c.mode.rawValue, c.part.rawValue])
        }
        try db.execute(sql: "DELETE FROM listened_stop")
        for (t, stops) in p.listenedStops.sorted(by: { $0.key < $1.key }) {
            for k in stops.sorted() {
                try db.execute(sql: "INSERT INTO listened_stop (tour_id, stop_index) VALUES (?, ?)", arguments: [t, k])
            }
        }
        try db.execute(sql: "DELETE FROM listened_artwork")
        for a in p.listenedArtworks.sorted() {
            try db.execute(sql: "INSERT INTO listened_artwork (artwork_id) VALUES (?)", arguments: [a])
        }
        try db.execute(sql: "DELETE FROM tour_status")
        for t in p.started.union(p.finished).sorted() {
            try db.execute(
                sql: "INSERT INTO tour_status (tour_id, started, finished) VALUES (?, ?, ?)",
                arguments: [t, p.started.contains(t) ? 1 : 0, p.finished.contains(t) ? 1 : 0])
        }
    }
}

/// Its registration: the shell opens the state database with the storages of the registered
/// features that conform.
extension TourFeature: SavesInDatabase {
    public static let storage = TourStorage()
}

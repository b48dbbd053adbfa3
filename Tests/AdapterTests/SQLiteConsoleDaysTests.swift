import Foundation
import GRDB
import PulseKit
import PulseKitSQLite
@testable import PulseService
import XCTest

/// The Pulse page's counts on the SQLite store, read while another connection holds the
/// file's write lock (as the upkeep's purge does for each chunk it deletes, and as a busy
/// service's writes do): once the past days are counted into the day table, the page's
/// reads take no write lock, so they neither wait for it nor fail with "database is locked"
/// after the busy timeout.
final class SQLiteConsoleDaysTests: XCTestCase {
    func testCountedDaysAreReadWhileAnotherConnectionHoldsTheWriteLock() async throws {
        let dir = NSTemporaryDirectory() + "docent-console-days-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/pulse.sqlite"
        let pulse = try SQLitePulseStore.open(path: path, clock: { Date() }).get()
        // The console two days on: today's plays are a past day there, counted into the day table.
        let console = try SQLiteConsoleStore.open(path: path, clock: { Date().addingTimeInterval(2 * 86400) }).get()
        for _ in 0..<3 { try await pulse.recordPlay(.artwork(1101)) }
        try await pulse.recordPlay(.stop(tour: 4002, sort: 1))
        let today = Int(floor(Date().timeIntervalSince1970 / 86400))
        let from = Date(timeIntervalSince1970: Double(today - 1) * 86400)
        let played = ActivityDay(plays: 4, reactions: 0, notes: 0, reports: 0)
        // The first look counts the missing days (a write).
        let first = try await console.activityPerDay(from: from, offset: 0)
        XCTAssertEqual(first[today], played)

        // Another connection takes the write lock and keeps it while the console reads.
        var lockHolder = Configuration()
        lockHolder.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: path, configuration: lockHolder)
        try other.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        do {
            let days = try await console.activityPerDay(from: from, offset: 0)
            XCTAssertEqual(days, first, "the same counts, from the day table")
            let top = try await console.top(kind: "play", since: from, offset: 0, limit: 5)
            XCTAssertEqual(top.map(\.subject), [.artwork(1101), .stop(tour: 4002, sort: 1)])
            XCTAssertEqual(top.map(\.count), [3, 1])
            let stops = try await console.stopPlays(since: from, offset: 0)
            XCTAssertEqual(stops.map(\.subject), [.stop(tour: 4002, sort: 1)])
            XCTAssertEqual(stops.map(\.count), [1])
        } catch {
            XCTFail("the counted days could not be read while another connection writes: \(error)")
        }
        try other.inDatabase { db in try db.execute(sql: "ROLLBACK") }

        // A day not counted yet is still counted first (a write), with the lock free again.
        let earlier = Date(timeIntervalSince1970: Double(today - 3) * 86400)
        let wider = try await console.activityPerDay(from: earlier, offset: 0)
        XCTAssertEqual(wider[today], played)
        XCTAssertNil(wider[today - 2])
    }
}

/// A console store made before the day table's indexes (`staff-v5-day-kind`,
/// `staff-v6-day-totals`) opens with them added and its counted days, sessions and audit lines
/// as they were.
final class SQLiteConsoleMigrationTests: XCTestCase {
    func testAStoreFromBeforeTheKindIndexKeepsItsDays() async throws {
        let dir = NSTemporaryDirectory() + "docent-console-migration-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/pulse.sqlite"
        _ = try SQLitePulseStore.open(path: path, clock: { Date() }).get()
        let today = Int(floor(Date().timeIntervalSince1970 / 86400))
        do {
            let old = try DatabaseQueue(path: path)
            try SQLiteConsoleStore.migrator.migrate(old, upTo: "staff-v4-account-role")
            try await old.write { db in
                for day in (today - 3)..<today {
                    try db.execute(sql: "INSERT INTO staff_day_done (zone_offset, day) VALUES (0, ?)", arguments: [day])
                    try db.execute(
                        sql: "INSERT INTO staff_day (zone_offset, day, kind, subject, n) VALUES (0, ?, 'play', 'artwork:1101', ?), (0, ?, 'play', 'stop:4002/1', 2), (0, ?, 'reaction', 'artwork:1101', 1)",
                        arguments: [day, day - today + 10, day, day])
                }
                try db.execute(sql: "INSERT INTO staff_audit (at, staff, action, target, before, after) VALUES (1, 'ana', 'ban', 'visitor:v1', 'allowed', 'banned')")
            }
            try old.close()
        }
        let console = try SQLiteConsoleStore.open(path: path, clock: { Date() }).get()
        let from = Date(timeIntervalSince1970: Double(today - 3) * 86400)
        let days = try await console.activityPerDay(from: from, offset: 0)
        XCTAssertEqual(days[today - 3], ActivityDay(plays: 9, reactions: 1))
        XCTAssertEqual(days[today - 1], ActivityDay(plays: 11, reactions: 1))
        let top = try await console.top(kind: "play", since: from, offset: 0, limit: 5)
        XCTAssertEqual(top.map(\.count), [7 + 8 + 9, 6])
        let stops = try await console.stopPlays(since: from, offset: 0)
        XCTAssertEqual(stops.map(\.subject), [.stop(tour: 4002, sort: 1)])
        let audit = try await console.auditLog(AuditFilter(limit: 10))
        XCTAssertEqual(audit.map(\.target), ["visitor:v1"])
        let check = try DatabaseQueue(path: path)
        let indexes = try await check.read { db in try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('staff_day')") }
        XCTAssertTrue(indexes.contains("staff_day_kind") && indexes.contains("staff_day_totals"), "\(indexes)")
        let applied = try await check.read { db in try SQLiteConsoleStore.migrator.appliedIdentifiers(db) }
        XCTAssertTrue(applied.isSuperset(of: ["staff-v5-day-kind", "staff-v6-day-totals"]), "\(applied)")
        // The Pulse page's queries search those indexes, holding what they read.
        let plans = try await check.read { db in
            [
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT day, kind, SUM(n) FROM staff_day WHERE zone_offset = 0 AND day >= 1 AND day < 9 GROUP BY day, kind"),
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT subject, SUM(n) FROM staff_day WHERE zone_offset = 0 AND kind = 'play' AND subject >= 'stop:' AND subject < 'stop;' AND day >= 1 AND day < 9 GROUP BY subject"),
            ].map { rows in rows.map { $0["detail"] as String? ?? "" }.joined(separator: "; ") }
        }
        XCTAssertTrue(plans[0].contains("COVERING INDEX staff_day_totals"), plans[0])
        XCTAssertTrue(plans[1].contains("COVERING INDEX staff_day_kind (zone_offset=? AND kind=? AND subject>? AND subject<?)"), plans[1])
    }
}

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

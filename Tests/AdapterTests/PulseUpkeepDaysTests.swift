import Foundation
import GRDB
import PulseKit
import PulseKitSQLite
@testable import PulseService
import XCTest

/// The upkeep's purge lets activity older than 48 h go; the staff console's charts count it
/// into the day table, but only when someone opened the Pulse page. A day nobody looked at
/// before the purge came was lost to the charts for good. The upkeep now has the console count
/// the past days first (`ConsoleStore.countPastDays`).
final class PulseUpkeepDaysTests: XCTestCase {
    func testThePurgeCountsThePastDaysBeforeLettingTheirActivityGo() async throws {
        let dir = NSTemporaryDirectory() + "docent-upkeep-days-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/pulse.sqlite"
        let threeDaysAgo = Date().addingTimeInterval(-3 * 86400)
        do {
            let then = try SQLitePulseStore.open(path: path, clock: { threeDaysAgo }).get()
            for _ in 0..<3 { try await then.recordPlay(.artwork(1101)) }
            try await then.recordPlay(.stop(tour: 4002, sort: 1))
        }
        let check = try DatabaseQueue(path: path)
        func activity() throws -> Int { try check.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM activity") ?? -1 } }
        XCTAssertEqual(try activity(), 4, "the plays of three days ago are in the store")

        let service = try PulseServiceProcess(["--store", "sqlite:" + path, "--purge-every", "1", "--time-zone", "UTC"])
        // The purge runs as soon as the service is ready; its end is what is waited for.
        let deadline = Date().addingTimeInterval(30)
        while try activity() > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        service.stop()
        XCTAssertEqual(try activity(), 0, "the purge let the old activity go:\n\(service.standardError())")

        let console = try SQLiteConsoleStore.open(path: path, clock: { Date() }).get()
        let day = Int(floor(threeDaysAgo.timeIntervalSince1970 / 86400))
        let days = try await console.activityPerDay(from: Date(timeIntervalSince1970: Double(day) * 86400), offset: 0)
        XCTAssertEqual(days[day], ActivityDay(plays: 4), "the day's plays were counted before they went: \(days)")
        let top = try await console.top(kind: "play", since: Date(timeIntervalSince1970: Double(day) * 86400), offset: 0, limit: 5)
        XCTAssertEqual(top.map(\.count), [3, 1])
    }
}

import Foundation
import XCTest

/// The staff console in a real browser (issue 29): `Tests/Browser/console_test.py` drives the
/// real `docent-pulse` in headless Chromium through selenium, once over SQLite and once over
/// PostgreSQL, and runs axe-core on every page. Screenshots go to `.test-run/console/STORE/`
/// (kept after the run, for a person to look at). The script bounds itself (a deadline of its
/// own), and this test bounds the script.
final class StaffConsoleBrowserTests: XCTestCase {
    private static let script = AudioTestSupport.repoRoot.appendingPathComponent("Tests/Browser/console_test.py").path
    private static let appData = AudioTestSupport.repoRoot.appendingPathComponent("SampleData/appData.json").path
    private static let seed = AudioTestSupport.repoRoot.appendingPathComponent("SampleData/pulse/seed.json").path

    private func binary() throws -> String {
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        let b = exe.deletingLastPathComponent().appendingPathComponent("docent-pulse").path
        guard FileManager.default.isExecutableFile(atPath: b) else {
            throw NSError(domain: "StaffConsoleBrowserTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "no docent-pulse next to the tests at \(b): run `swift build` first"])
        }
        return b
    }

    private func runConsoleChecks(database: String, store: String) throws {
        let out = AudioTestSupport.repoRoot.appendingPathComponent(".test-run/console/\(store)").path
        try? FileManager.default.removeItem(atPath: out)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let result = AudioTestSupport.run(
            "/usr/bin/env",
            ["SE_AVOID_STATS=true", "python3", Self.script, "--binary", try binary(), "--database", database, "--out", out, "--data", Self.appData, "--seed", Self.seed, "--deadline", "420"],
            timeout: 480)
        // One message with the script's tail, which ends with why each failed check failed.
        if result.status != 0 || !result.output.contains("15 of 15 console checks passed") {
            XCTFail("console checks on \(store) failed (exit \(result.status)):\n\(result.output.suffix(8000))")
        }
        let shots = (try? FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }) ?? []
        XCTAssertGreaterThanOrEqual(shots.count, 15, "too few screenshots in \(out): \(shots)")
    }

    func testTheConsoleInChromiumOverSQLite() throws {
        let dir = NSTemporaryDirectory() + "docent-console-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try runConsoleChecks(database: "sqlite:" + dir + "/pulse.sqlite", store: "sqlite")
    }

    func testTheConsoleInChromiumOverPostgreSQL() throws {
        let pg = try PostgresServer()
        defer { pg.destroy() }
        try runConsoleChecks(database: pg.url(try pg.createDatabase()), store: "postgres")
    }
}

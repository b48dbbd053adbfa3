import Foundation
import XCTest

/// The state database as a museum's IT person meets it on a bad day.
final class StateDatabaseTests: EndToEndTestCase {
    /// A database whose settings cannot be read is reported and left exactly as it was: the
    /// guide runs on defaults and never saves over it, even when the visitor changes settings
    /// and quits.
    func testAStateDatabaseItCannotReadIsNeverWritten() throws {
        let home = try makeTemporaryDirectory()
        let db = home.appendingPathComponent("damaged.sqlite")
        // The migration records of this program, but a settings table it cannot read:
        // opening succeeds, loading fails.
        let sql = """
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations VALUES ('v1'), ('v2-tour-progress'), ('v3-member-card');
            CREATE TABLE settings (something_else TEXT);
            CREATE TABLE seen_message (id INTEGER PRIMARY KEY);
            """
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["python3", "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()", db.path, sql]
        try make.run()
        make.waitUntilExit()
        XCTAssertEqual(make.terminationStatus, 0, "python3's sqlite3 made the test database")
        let before = try Data(contentsOf: db)

        let s = try start(command: TmuxSession.guideCommand(extra: ["--state", db.path]), home: home)
        try dismissFirstRun(s)
        try s.waitFor(try UIStrings.prefix("en", "banner.stateNotSaved"))
        // Settings the guide would save: another tab, another language.
        try s.sendKeys("F6")
        try s.waitFor("─ \(try UIStrings.get("en", "title.info")) ─")
        try s.sendKeys("L")
        try s.waitFor("○ Español")
        try s.sendKeys("Down", "Enter")
        try s.waitFor("─ \(try UIStrings.get("es", "title.info")) ─")
        try s.sendKeys("q")
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        XCTAssertEqual(try Data(contentsOf: db), before, "the unreadable database was written to")
        let wal = (try? FileManager.default.attributesOfItem(atPath: db.path + "-wal")[.size] as? Int) ?? nil
        XCTAssertEqual(wal ?? 0, 0, "nothing written to its WAL either")
    }
}

import Foundation
import XCTest

/// Bad data and unusable terminals: a message, a clean exit, never a crash.
final class BadInputTests: EndToEndTestCase {
    /// Starts on `data` and returns the error screen: the first-run welcome does not hide it
    /// (issue 17 #13).
    private func errorScreen(data: String) throws -> TmuxSession {
        let s = try start(command: TmuxSession.guideCommand(data: data))
        let errorStart = try UIStrings.prefix("en", "error.document")
        let banner = try UIStrings.get("en", "banner.documentFailed")
        let screen = try s.waitUntil("the data error and its banner") { s in
            ScreenText.flattened(s).contains(ScreenText.flattened(errorStart))
                && ScreenText.trimmed(ScreenText.lines(s)[23]) == banner
        }
        // The advice after {reason} is there too.
        let advice = try UIStrings.get("en", "error.document").components(separatedBy: "{reason}").last ?? ""
        XCTAssertTrue(
            ScreenText.flattened(screen).contains(ScreenText.flattened(advice)), "advice \(advice.debugDescription):\n\(screen)")
        XCTAssertTrue(ScreenText.hasTabBar(screen, "en"), "tab bar above the error:\n\(screen)")
        XCTAssertFalse(screen.contains(try UIStrings.get("en", "help.welcomeTitle")), "the welcome is closed:\n\(screen)")
        XCTAssertTrue(ScreenText.flattened(screen).contains(ScreenText.flattened(data)), "the file is named:\n\(screen)")
        return s
    }

    private func quitCleanly(_ s: TmuxSession, file: StaticString = #filePath, line: UInt = #line) throws {
        try s.sendKeys("q")
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after, file: file, line: line)
        assertTerminalRestored(exit.after, file: file, line: line)
    }

    func testMissingDataFileShowsErrorAndQuits() throws {
        let missing = "/nonexistent/appData.json"
        let s = try errorScreen(data: missing)
        let screen = try s.screen()
        XCTAssertTrue(screen.contains(missing), "the missing path is named:\n\(screen)")
        // The tabs still work on a guide without data, and nothing crashes.
        try s.sendKeys("F6")
        try s.waitFor("─ \(try UIStrings.get("en", "title.info")) ─")
        try s.sendKeys("Enter")
        try s.sendKeys("F1")
        try s.waitFor("─ \(try UIStrings.get("en", "title.home")) ─")
        try quitCleanly(s)
    }

    func testTruncatedDataShowsErrorAndQuits() throws {
        let dir = try makeTemporaryDirectory()
        let full = try Data(contentsOf: URL(fileURLWithPath: Repo.sampleData))
        let half = dir.appendingPathComponent("appData.json")
        try full.prefix(full.count / 2).write(to: half)
        let s = try errorScreen(data: half.path)
        try quitCleanly(s)
    }

    func testStdinNotATerminalExitsWithMessage() throws {
        try Repo.requireDocent()
        let home = try makeTemporaryDirectory()
        var env = Shell.baseEnvironment()
        env["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        env["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        env["TERM"] = "xterm-256color"
        env["SWIFT_BACKTRACE"] = "interactive=no"
        // `echo | docent --data …`: stdin is a pipe (stdout and stderr are files here).
        let r = try Shell.run([Repo.docent, "--data", Repo.sampleData], environment: env, stdin: Data("\n".utf8))
        XCTAssertEqual(r.status, 1, "exit status; stderr: \(r.stderr)")
        XCTAssertTrue(r.stderr.lowercased().contains("terminal"), "the message mentions a terminal: \(r.stderr.debugDescription)")
        XCTAssertFalse(r.stdout.contains("\u{1B}"), "escape sequences written to a non-terminal: \(r.stdout.debugDescription)")
        XCTAssertFalse(r.stderr.contains("Fatal error"), r.stderr)
    }

    func testUnknownTermExitsWithMessage() throws {
        let s = try start(command: "TERM=nosuchterm " + TmuxSession.guideCommand())
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 1, exit.after)
        let all = try s.history()
        XCTAssertTrue(all.contains("\"nosuchterm\""), "the message names the terminal type:\n\(all)")
        XCTAssertTrue(all.contains("TERM"), "the message names TERM:\n\(all)")
        XCTAssertFalse(all.contains(try UIStrings.get("en", "help.welcomeTitle")), "the guide drew anyway:\n\(all)")
        assertTerminalRestored(exit.after)
    }

    func testUnsetTermExitsWithMessage() throws {
        let s = try start(command: "env -u TERM " + TmuxSession.guideCommand())
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 1, exit.after)
        let all = try s.history()
        XCTAssertTrue(all.contains("TERM is not set"), "the message says TERM is unset:\n\(all)")
        assertTerminalRestored(exit.after)
    }
}

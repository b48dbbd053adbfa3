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

    /// Exhibitions that cannot be fetched: a plain sentence on Home (no path, no libcurl words),
    /// the detail in the log file, and `r` fetches them again once they are there.
    func testHomeSaysPlainlyWhatFailedLogsTheDetailAndRTriesAgain() throws {
        let copy = try makeTemporaryDirectory().appendingPathComponent("museum")
        try FileManager.default.copyItem(at: Repo.root.appendingPathComponent("SampleData"), to: copy)
        let endpoint = copy.appendingPathComponent("search/exhibitions.json")
        let kept = copy.appendingPathComponent("exhibitions.kept")
        try FileManager.default.moveItem(at: endpoint, to: kept)
        let home = try makeTemporaryDirectory()
        let s = try start(command: TmuxSession.guideCommand(data: copy.appendingPathComponent("appData.json").path), home: home)
        let dismiss = try UIStrings.get("en", "overlay.dismiss")
        try s.waitFor(try UIStrings.get("en", "help.welcomeTitle"), dismiss)
        try s.sendKeys("Escape")
        try s.waitFor(try SampleData.launchMessageTitle(), dismiss)
        try s.sendKeys("Escape")
        try s.waitForGone(dismiss)
        let missing = try UIStrings.get("en", "fetch.reason.missing")
        let screen = try s.waitFor(missing)
        XCTAssertFalse(screen.contains("exhibitions.json"), "a path on the visitor's screen:\n\(screen)")
        let log = home.appendingPathComponent("state/docent/docent.log")
        let logged = try String(contentsOf: log, encoding: .utf8)
        XCTAssertTrue(logged.contains("exhibitions: file not found: ") && logged.contains("search/exhibitions.json"), logged)

        try FileManager.default.moveItem(at: kept, to: endpoint)
        try s.sendKeys("r")
        try waitForHome(s, language: "en")
        try s.waitForGone(missing)
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

    /// Issue 45: `TERM=dumb` started and drew only the last line. A terminal type that cannot
    /// move the cursor is refused as an unknown one is, with a message, the terminal as it was.
    func testATerminalThatCannotMoveItsCursorIsRefused() throws {
        let s = try start(command: "TERM=dumb " + TmuxSession.guideCommand())
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 1, exit.after)
        let all = try s.history()
        XCTAssertTrue(all.contains("cannot") && all.contains("\"dumb\""), "the message names the terminal type:\n\(all)")
        XCTAssertFalse(all.contains(try UIStrings.get("en", "help.welcomeTitle")), "the guide drew anyway:\n\(all)")
        assertTerminalRestored(exit.after)
    }

    /// Issue 45: `--data FIFO` and then `q` left a `docent prepare` of the FIFO blocked on it
    /// forever. Only a regular file is handed to `docent prepare`.
    func testQuittingWhileAFIFOIsReadLeavesNoPrepareBehind() throws {
        let dir = try makeTemporaryDirectory()
        let fifo = dir.appendingPathComponent("museum.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let s = try start(command: TmuxSession.guideCommand(data: fifo))
        try s.sendKeys("q")
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        let r = try Shell.run(["pgrep", "-f", "prepare -- \(fifo)"])
        let left = r.stdout.split(whereSeparator: \.isNewline).compactMap { pid_t($0) }
        for pid in left { kill(pid, SIGKILL) }
        XCTAssertEqual(left, [], "a docent prepare of the FIFO was left behind")
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

    /// Issue 33 #21: under `TERM=linux` (the README's kiosk unit on a bare console) the guide
    /// draws what the console font has: no braille dots on the map, `#--` for a heat mark;
    /// the frame and the words as usual.
    func testOnTheLinuxConsoleTheGuideDrawsWhatItsFontHas() throws {
        let s = try start(command: "TERM=linux " + TmuxSession.guideCommand())
        try dismissFirstRun(s)
        let home = try s.screen()
        XCTAssertTrue(home.contains("#--"), "the heat mark as ASCII:\n\(home)")
        XCTAssertFalse(home.contains("▰"), home)
        // Tab, Tab: the map (the console's F-keys are not tmux's).
        try s.sendKeys("Tab")
        try s.sendKeys("Tab")
        try s.waitFor(try UIStrings.get("en", "map.floor"))
        try s.waitForGone(try UIStrings.get("en", "map.loading"))
        let map = try s.waitForGone(try UIStrings.get("en", "map.loadingShort"))
        XCTAssertFalse(map.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }, "braille on the Linux console:\n\(map)")
        XCTAssertGreaterThan(map.filter { $0 == "#" || $0 == ":" }.count, 20, "the plan's walls drawn in ASCII:\n\(map)")
        XCTAssertTrue(map.contains("Home"), map)
    }

    /// Issue 33 #2: a bad `--pulse` ended the guide with its message written on the alternate
    /// screen, which the exit wiped; now it is checked before the terminal is taken over.
    func testABadPulseValueIsReadableAfterTheGuideEnds() throws {
        let s = try start(command: TmuxSession.guideCommand(extra: ["--pulse", "foo:bar"]))
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 1, exit.after)
        let all = try s.history()
        XCTAssertTrue(all.contains("--pulse: 'foo:bar' is not sqlite:PATH or http://HOST:PORT"), "the message is on the terminal after the exit:\n\(all)")
        assertTerminalRestored(exit.after)
    }

    /// Issue 33 #14: a typo in config.toml passed silently. The guide says it on screen,
    /// naming the line, and every warning is in the log.
    func testAConfigurationTypoIsSaidWithItsLine() throws {
        let home = try makeTemporaryDirectory()
        let config = home.appendingPathComponent("typo.toml")
        try Data("# the museum's settings\nbogus = 1\nkiosk_idel_seconds = 5\n".utf8).write(to: config)
        let s = try start(command: TmuxSession.guideCommand(extra: ["--config", config.path]), home: home)
        try s.waitFor("line 2: unknown key 'bogus' ignored (+1)")
        let logFile = home.appendingPathComponent("state/docent/docent.log")
        let log = try String(contentsOf: logFile, encoding: .utf8)
        XCTAssertTrue(log.contains("line 3: unknown key 'kiosk_idel_seconds' ignored; did you mean 'kiosk_idle_seconds'?"), log)
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

import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Kiosk mode on a real terminal (issue 16 #1): q, Ctrl-C, Ctrl-\ and Ctrl-Z do not end or
/// suspend the guide, it starts over for the next visitor after `kiosk_idle_seconds` (2 here)
/// in the default language, and staff leave with Ctrl-X, the code and Enter.
final class KioskTests: EndToEndTestCase {
    func testKioskIgnoresQuitKeysStartsOverWhenIdleAndStaffCanLeave() throws {
        let dir = try makeTemporaryDirectory()
        let config = dir.appendingPathComponent("kiosk.toml")
        try Data("kiosk = true\nkiosk_idle_seconds = 2\nkiosk_pin = \"2468\"\n".utf8).write(to: config)
        let s = try start(command: TmuxSession.guideCommand(extra: ["--config", config.path]))
        let welcome = try UIStrings.get("en", "kiosk.welcome")
        let pressEN = try UIStrings.get("en", "kiosk.pressAnyKey")

        // Nobody there: after the idle time the guide waits for the next visitor.
        try s.waitFor(welcome, pressEN)
        try s.sendKeys("Enter")
        // The next visitor gets the welcome, as at a first start (issue 33 #3).
        try s.waitFor(try UIStrings.get("en", "help.welcomeTitle"))
        try s.sendKeys("Escape")
        try waitForHome(s, language: "en")

        // The keys that end or suspend a guide do nothing; L still opens the picker after them
        // (keys are read in order, and a wait fails at once if the guide exits).
        try s.sendKeys("q", "C-c", "C-\\", "C-z", "L")
        try s.waitFor("○ Español")
        try s.sendKeys("Down", "Enter")
        try waitForHome(s, language: "es")

        // Idle again: the waiting screen in the default language (English), not the visitor's.
        let screen = try s.waitFor(welcome, pressEN, timeout: 15)
        XCTAssertFalse(ScreenText.hasTabBar(screen, "es"), "the Spanish guide left behind:\n\(screen)")
        try s.sendKeys("x")
        try s.waitFor(try UIStrings.get("en", "help.welcomeTitle"))
        try s.sendKeys("Escape")
        try waitForHome(s, language: "en")

        // Staff: Ctrl-X, the code, Enter.
        try s.sendKeys("C-x", "2", "4", "6", "8", "Enter")
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        assertTerminalRestored(exit.after)
    }

    /// Issue 34: a script found the staff code in 17 s. After three wrong codes even the right
    /// one is refused for a while, and each attempt is in the guide's log (never the code).
    func testWrongStaffCodesLockOutAndAreLogged() throws {
        let dir = try makeTemporaryDirectory()
        let config = dir.appendingPathComponent("kiosk.toml")
        try Data("kiosk = true\nkiosk_idle_seconds = 600\nkiosk_pin = \"2468\"\n".utf8).write(to: config)
        let home = try makeTemporaryDirectory()
        let s = try start(command: TmuxSession.guideCommand(extra: ["--config", config.path]), home: home)
        try dismissFirstRun(s)
        for wrong in ["1111", "1112", "1113"] {
            try s.sendKeys("C-x")
            for digit in wrong { try s.sendKeys(String(digit)) }
            try s.sendKeys("Enter")
        }
        // The right code now: refused (the lockout), the guide still up; L proves it reads keys.
        try s.sendKeys("C-x", "2", "4", "6", "8", "Enter", "L")
        try s.waitFor("○ Español")
        try s.sendKeys("Escape")
        // The log is written off the loop thread: wait for its four lines.
        let log = home.appendingPathComponent("state/docent/docent.log")
        func kioskLines() -> [Substring] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.contains("kiosk:") }
        }
        let deadline = Date().addingTimeInterval(TmuxSession.defaultTimeout)
        while kioskLines().count < 4, Date() < deadline { usleep(50_000) }
        let lines = kioskLines()
        XCTAssertEqual(lines.count, 4, lines.joined(separator: "\n"))
        XCTAssertTrue(lines[2].contains("wrong staff code (3 in a row); codes refused until"), String(lines[2]))
        XCTAssertFalse(lines.contains { $0.contains("2468") || $0.contains("1111") }, "a code in the log")
    }

    /// `kill -INT` and `kill -QUIT` are ignored too; SIGTERM (systemctl stop) still ends it
    /// cleanly.
    func testKioskIgnoresSigintButStopsOnSigterm() throws {
        let dir = try makeTemporaryDirectory()
        let config = dir.appendingPathComponent("kiosk.toml")
        try Data("kiosk = true\n".utf8).write(to: config)
        let s = try start(command: TmuxSession.guideCommand(extra: ["--config", config.path]))
        try s.waitFor(try UIStrings.get("en", "help.welcomeTitle"))
        let pid = try s.guidePID()
        XCTAssertEqual(kill(pid, SIGINT), 0)
        XCTAssertEqual(kill(pid, SIGQUIT), 0)
        // L opens the picker over the welcome.
        try s.sendKeys("L")
        try s.waitFor("○ Español")
        XCTAssertEqual(kill(pid, SIGTERM), 0)
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        assertTerminalRestored(exit.after)
    }

    /// Issue 45: a kiosk that crashed showed Swift's backtrace and its "Press space to
    /// interact" prompt to the visitor for 30 s. The guide ends with the signal instead, the
    /// terminal restored, with no report on the screen (whatever SWIFT_BACKTRACE says).
    func testAKioskCrashShowsNoBacktrace() throws {
        let dir = try makeTemporaryDirectory()
        let config = dir.appendingPathComponent("kiosk.toml")
        try Data("kiosk = true\n".utf8).write(to: config)
        // The backtracer as on a real kiosk: on, and interactive on a terminal.
        let command = "env -u SWIFT_BACKTRACE " + TmuxSession.guideCommand(extra: ["--config", config.path])
        let s = try start(command: command)
        try s.waitFor(try UIStrings.get("en", "help.welcomeTitle"))
        XCTAssertEqual(kill(try s.guidePID(), SIGSEGV), 0)
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 128 + Int(SIGSEGV), exit.after)
        let screen = try s.screen() + (try s.history())
        XCTAssertFalse(screen.contains("Program crashed"), screen)
        XCTAssertFalse(screen.contains("Press space to interact"), screen)
        assertTerminalRestored(exit.after)
    }
}

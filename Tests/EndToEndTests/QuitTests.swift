import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every way out ends with status 0 and a cooked terminal (the wrapper runs `stty -a` after).
final class QuitTests: EndToEndTestCase {
    func testQuitWithQRestoresTerminal() throws {
        let s = try startAndDismissOverlays()
        try s.sendKeys("q")
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        assertTerminalRestored(exit.after)
        let screen = try s.screen()
        XCTAssertFalse(ScreenText.hasTabBar(screen, "en"), "the guide's screen left behind:\n\(screen)")
    }

    func testQuitWithCtrlCRestoresTerminalAndSavesTheTab() throws {
        let home = try makeTemporaryDirectory()
        let s = try startAndDismissOverlays(home: home)
        let infoTitle = "─ \(try UIStrings.get("en", "title.info")) ─"
        try s.sendKeys("F6")
        try s.waitFor(infoTitle)
        try s.sendKeys("C-c")
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        assertTerminalRestored(exit.after)

        // Started again, the guide opens on the tab it was left on, with no overlays.
        let again = try start(home: home)
        let screen = try again.waitFor(infoTitle, try UIStrings.get("en", "info.settings"))
        XCTAssertFalse(screen.contains(try UIStrings.get("en", "overlay.dismiss")), "an overlay on the second start:\n\(screen)")
        try again.sendKeys("C-c")
        XCTAssertEqual(try again.waitForExit().status, 0)
    }

    func testSigtermExitsCleanly() throws {
        let s = try startAndDismissOverlays()
        let pid = try s.guidePID()
        let comm = try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
        XCTAssertEqual(comm.trimmingCharacters(in: .whitespacesAndNewlines), "docent")
        XCTAssertEqual(kill(pid, SIGTERM), 0, "kill -TERM \(pid)")
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        assertTerminalRestored(exit.after)
        XCTAssertNotEqual(kill(pid, 0), 0, "docent \(pid) still running after SIGTERM")
    }

    /// Ctrl-\ (SIGQUIT) ends the guide like SIGTERM: saved, status 0, the terminal cooked, and
    /// no runtime crash report written over the screen.
    func testCtrlBackslashQuitsLikeSigterm() throws {
        let home = try makeTemporaryDirectory()
        let s = try startAndDismissOverlays(home: home)
        let infoTitle = "─ \(try UIStrings.get("en", "title.info")) ─"
        try s.sendKeys("F6")
        try s.waitFor(infoTitle)
        try s.sendKeys("C-\\")
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        assertTerminalRestored(exit.after)
        let history = try s.history()
        XCTAssertFalse(history.contains("Quit") || history.contains("core dumped") || history.contains("Fatal"), history)
        // It saved like any quit: the next start opens on Info.
        let again = try start(home: home)
        try again.waitFor(infoTitle)
        try again.sendKeys("q")
        XCTAssertEqual(try again.waitForExit().status, 0)
    }

    /// Ctrl-S is not terminal flow control while the guide runs (it froze every key until
    /// Ctrl-Q); the shell gets its flow control back at exit (checked by `ixon` above).
    func testCtrlSDoesNotFreezeTheGuide() throws {
        let s = try startAndDismissOverlays()
        try s.sendKeys("C-s")
        try s.sendKeys("F6")
        try s.waitFor("─ \(try UIStrings.get("en", "title.info")) ─")
        try s.sendKeys("q")
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        assertTerminalRestored(exit.after)
    }

    func testQuitFromOverlaysAndDetailPage() throws {
        // q works on the first-run welcome overlay, before anything else.
        let s = try start()
        try s.waitFor(try UIStrings.get("en", "help.welcomeTitle"))
        try s.sendKeys("q")
        var exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        assertTerminalRestored(exit.after)

        // And on a tour's detail page.
        let t = try startAndDismissOverlays()
        let stops = try UIStrings.get("en", "tour.stopsHeading")
        try t.sendKeys("Enter")
        try t.waitUntil("the tour detail page") { ScreenText.lineIndex(of: stops, in: $0) != nil }
        try t.sendKeys("q")
        exit = try t.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        assertTerminalRestored(exit.after)
    }
}

import Foundation
import XCTest

/// A frame reaches the terminal in one write. ncurses flushed after every cursor move until
/// told its screen was running (`cs_newterm`): a frame of the playing clock went out in four
/// writes, a press of ↓ on Home in as many as the rows it changed (issue 48).
final class FrameWritesTests: EndToEndTestCase {
    func testAPressOfDownIsOneWrite() throws {
        let dir = try makeTemporaryDirectory()
        let trace = dir.appendingPathComponent("writes.txt").path
        // strace writes a line per write(2) to the terminal (fd 1) as it returns.
        let command = "strace -qq -e trace=write -e signal=none -o \(Shell.quote(trace)) " + TmuxSession.guideCommand()
        let s = try start(command: command, home: dir)
        try dismissFirstRun(s)
        let first = try XCTUnwrap(ScreenText.selectedRow(try s.screen()), "no selected row on Home")
        func writes() -> Int {
            ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("write(1,") }.count
        }
        let before = writes()
        try s.sendKeys("Down")
        // The frame is on the screen, so its write has returned and is in the trace.
        try s.waitUntil("the selection one row down") { ScreenText.selectedRow($0)?.text != first.text }
        XCTAssertEqual(writes() - before, 1, "writes for one frame:\n\((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "")".suffix(2000).description)
    }
}

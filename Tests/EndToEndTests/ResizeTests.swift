import Foundation
import XCTest

/// Resizing the pane: the smallest usable size, the "too small" screen, and back.
final class ResizeTests: EndToEndTestCase {
    /// The "too small" text for a given size, as the strings file words it.
    private func tooSmall(_ width: Int, _ height: Int) throws -> String {
        try UIStrings.fill("en", "small.text", ["need": "40×12", "have": "\(width)×\(height)"])
    }

    func testResizeToMinimumTooSmallAndBack() throws {
        let s = try startAndDismissOverlays()
        let home = try UIStrings.get("en", "tab.home")
        let featured = try UIStrings.get("en", "home.featuredTours")
        let smallStart = try UIStrings.prefix("en", "small.text").components(separatedBy: ".").first ?? "Window too small"
        XCTAssertFalse(smallStart.isEmpty)

        // 40×12 is the minimum: still the normal layout, squeezed.
        try s.resize(width: 40, height: 12)
        var screen = try s.waitUntil("the 40×12 layout") { s in
            let lines = ScreenText.lines(s)
            // All six tabs, their padding dropped to fit (Home first, Info last).
            return lines.count == 12 && ScreenText.hasTabBar(s, "en") && lines[0].hasPrefix("\(home)│")
                && ((try? UIStrings.showsHints(lines[11], "en", "hints.list")) ?? false)
        }
        var lines = ScreenText.lines(screen)
        XCTAssertFalse(screen.contains(smallStart), "\"too small\" at the minimum size:\n\(screen)")
        XCTAssertTrue(lines[1].contains("─ \(try UIStrings.get("en", "title.home")) ─"), screen)
        // Visitor Pulse's "Popular right now" heads Home's lists (featured tours come below it).
        XCTAssertNotNil(ScreenText.lineIndex(of: try UIStrings.get("en", "pulse.popular.title"), in: screen), screen)
        XCTAssertNotNil(ScreenText.selectedRow(screen), "a selected row at 40×12:\n\(screen)")
        XCTAssertTrue(try UIStrings.showsHints(lines[11], "en", "hints.list"), "key hints on the last line:\n\(screen)")
        for l in lines { XCTAssertLessThanOrEqual(l.count, 40, "line wider than the pane: \(l.debugDescription)") }

        // 30×10: the "too small" screen with both sizes, and nothing else.
        try s.resize(width: 30, height: 10)
        let expected30 = try tooSmall(30, 10)
        screen = try s.waitUntil("the \"too small\" text at 30×10") { ScreenText.flattened($0) == expected30 }
        XCTAssertFalse(screen.contains("\(home)│") || screen.contains(" \(home) │"), "tab bar on the too-small screen:\n\(screen)")

        // One cell short in either direction is too small as well.
        try s.resize(width: 39, height: 24)
        let expected39 = try tooSmall(39, 24)
        try s.waitUntil("the \"too small\" text at 39×24") { ScreenText.flattened($0) == expected39 }
        try s.resize(width: 80, height: 11)
        let expected11 = try tooSmall(80, 11)
        try s.waitUntil("the \"too small\" text at 80×11") { ScreenText.flattened($0) == expected11 }

        // Keys other than q do nothing there: Tab must not switch tabs behind the scenes.
        try s.sendKeys("Tab")

        // Back to 80×24: the normal Home screen again, still on Home. Keys are read in order:
        // once the help that `?` opens is on screen, the Tab before it has been handled.
        try s.resize(width: 80, height: 24)
        try s.waitUntil("Home at 80×24 before the help") { s in
            ScreenText.lines(s).count == 24 && ScreenText.hasTabBar(s, "en")
        }
        try s.sendKeys("?")
        let helpTitle = " \(try UIStrings.get("en", "help.title")) "
        try s.waitFor(helpTitle)
        try s.sendKeys("Escape")
        screen = try s.waitUntil("Home at 80×24") { s in
            ScreenText.lines(s).count == 24 && ScreenText.lineIndex(of: featured, in: s) != nil && !s.contains(helpTitle)
        }
        lines = ScreenText.lines(screen)
        XCTAssertTrue(ScreenText.hasTabBar(screen, "en"), screen)
        XCTAssertTrue(lines[1].contains("─ \(try UIStrings.get("en", "title.home")) ─"), "still on Home:\n\(screen)")
        XCTAssertFalse(screen.contains(smallStart), screen)
        XCTAssertTrue(try UIStrings.showsHints(lines[23], "en", "hints.list"), screen)

        // q quits from the too-small screen.
        try s.resize(width: 30, height: 10)
        try s.waitUntil("the \"too small\" text at 30×10") { ScreenText.flattened($0) == expected30 }
        try s.sendKeys("q")
        let exit = try s.waitForExit()
        XCTAssertEqual(exit.status, 0, exit.after)
        assertTerminalRestored(exit.after)
    }
}

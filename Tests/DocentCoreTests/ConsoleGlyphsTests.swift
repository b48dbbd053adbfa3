import XCTest

@testable import DocentCore

/// Issue 33 #21: on the Linux console (`TERM=linux`) what its font lacks is drawn with what it
/// has, so a kiosk on a bare console shows a readable map and marks, not blots.
final class ConsoleGlyphsTests: XCTestCase {
    func testOnlyTheLinuxConsoleIsTheLinuxConsole() {
        XCTAssertTrue(ConsoleGlyphs.isLinuxConsole(term: "linux"))
        XCTAssertTrue(ConsoleGlyphs.isLinuxConsole(term: "linux-16color"))
        for term in ["xterm-256color", "fbterm", "screen", "tmux-256color", "vt100", ""] {
            XCTAssertFalse(ConsoleGlyphs.isLinuxConsole(term: term), term)
        }
        XCTAssertFalse(ConsoleGlyphs.isLinuxConsole(term: nil))
    }

    func testWhatTheFontHasIsLeftAlone() {
        for text in ["a", "é", "Ł", "─", "┌", "█", "░", "←", "↓", "♪", "•", "…", "€", "–"] {
            XCTAssertNil(ConsoleGlyphs.fallback(text), text)
        }
    }

    func testTheMapsDotsAreDrawnByHowMuchInkTheyHave() {
        XCTAssertEqual(ConsoleGlyphs.fallback("\u{2800}"), " ")
        XCTAssertEqual(ConsoleGlyphs.fallback("⠁"), ".")
        XCTAssertEqual(ConsoleGlyphs.fallback("⠇"), ":")
        XCTAssertEqual(ConsoleGlyphs.fallback("⣿"), "#")
    }

    func testMarksAndScriptsTheFontLacks() {
        XCTAssertEqual(ConsoleGlyphs.fallback("▰"), "#")
        XCTAssertEqual(ConsoleGlyphs.fallback("▱"), "-")
        XCTAssertEqual(ConsoleGlyphs.fallback("★"), "*")
        XCTAssertEqual(ConsoleGlyphs.fallback("☆"), "+")
        XCTAssertEqual(ConsoleGlyphs.fallback("◆"), "♦")
        XCTAssertEqual(ConsoleGlyphs.fallback("▸"), ">")
        XCTAssertEqual(ConsoleGlyphs.fallback("박"), "?")
        XCTAssertEqual(ConsoleGlyphs.fallback("館"), "?")
        XCTAssertEqual(ConsoleGlyphs.fallback("a\u{20DD}"), "a", "a combining mark the font lacks is dropped")
        XCTAssertEqual(ConsoleGlyphs.fallback("e\u{301}"), "é", "the console composes nothing: one character")
        // Every replacement is itself drawable, one column.
        for v in Array(0x2800...0x28FF) + [0x25B0, 0x25B1, 0x2605, 0x2606, 0x25C6, 0x25B8, 0xAC00, 0x4E2D] {
            let text = String(Character(Unicode.Scalar(v)!))
            let shown = ConsoleGlyphs.fallback(text) ?? text
            XCTAssertNil(ConsoleGlyphs.fallback(shown), "\(text) → \(shown)")
            XCTAssertEqual(TextWidth.width(shown), 1, "\(text) → \(shown)")
        }
    }
}

import XCTest

@testable import DocentCore

final class TextCleanerTests: XCTestCase {
    func testEntitiesNamedDecimalHex() {
        XCTAssertEqual(TextCleaner.clean("Rock &amp; Roll &#039;59&#x27; &quot;hi&quot; caf&eacute;"), "Rock & Roll '59' \"hi\" café")
        XCTAssertEqual(TextCleaner.clean("AT&T &unknown; & done"), "AT&T &unknown; & done")
    }

    func testLineBreaksAndTabs() {
        XCTAssertEqual(TextCleaner.clean("Erin Hogan:\tHello\r\nSecond line\rThird  "), "Erin Hogan: Hello\nSecond line\nThird")
        XCTAssertEqual(TextCleaner.clean("a\r\n\r\n\r\n\r\nb"), "a\n\nb")
    }

    func testBarIsALineBreakInTombstones() {
        XCTAssertEqual(TextCleaner.clean("Mara Velden|Dutch, 1871–1934", [.entities, .barIsBreak]), "Mara Velden\nDutch, 1871–1934")
        XCTAssertEqual(TextCleaner.clean("a|b"), "a|b")
    }

    func testHTMLToPlainText() {
        let html = "<p>First&nbsp;para with <b>bold</b>.</p><p>Second<br/>line</p><ul><li>one</li><li>two</li></ul>"
        XCTAssertEqual(TextCleaner.clean(html, .rich), "First para with bold.\n\nSecond\nline\n\n• one\n• two")
    }

    func testControlCharactersNeverSurvive() {
        let hostile = "Title\u{1B}[2J\u{1B}]0;pwned\u{07} end\u{9B}31m\u{7F}\u{0}"
        let cleaned = TextCleaner.clean(hostile)
        XCTAssertFalse(cleaned.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || ($0.value >= 0x7F && $0.value < 0xA0) })
        XCTAssertEqual(cleaned, "Title[2J]0;pwned end31m")
        // Also through an entity.
        XCTAssertFalse(TextCleaner.clean("a&#27;[31mb").contains("\u{1B}"))
    }

    func testTitlesAreOneLine() {
        XCTAssertEqual(TextCleaner.clean("Chicago\r\nStock Exchange\r\nTrading Room", .title), "Chicago Stock Exchange Trading Room")
    }

    func testUntouchedStringsAreReturnedAsIs() {
        let s = "Plain title 中文"
        XCTAssertEqual(TextCleaner.clean(s), s)
    }
}

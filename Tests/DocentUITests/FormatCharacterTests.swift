import XCTest

@testable import DocentCore
@testable import DocentUI

/// Joiners, bidi marks, overrides and isolates from content never reach the terminal: they are
/// dropped in one place (`TerminalText`) before text is measured, drawn or reported.
final class FormatCharacterTests: XCTestCase {
    func testDrawnCellsHoldNoFormatCharacters() {
        var screen = Screen(width: 30, height: 2)
        let w = screen.put("a\u{200D}b\u{2066}c\u{2069}\u{202E}d\u{200F}e\u{061C}f", x: 0, y: 0)
        XCTAssertEqual(w, 6)
        XCTAssertEqual(screen.row(0).trimmingCharacters(in: .whitespaces), "abcdef")
        // A family emoji joined by U+200D: three emoji of two cells each, as measured.
        let family = "👨\u{200D}👩\u{200D}👧"
        XCTAssertEqual(TextWidth.width(family), 6)
        XCTAssertEqual(screen.put(family, x: 0, y: 1), 6)
        for y in 0..<2 {
            for x in 0..<30 {
                XCTAssertFalse(screen[x, y].text.unicodeScalars.contains(where: TerminalText.isFormat), "cell \(x),\(y): \(screen[x, y].text.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
    }

    /// The fast path of `isFormat` (no lookup below U+00AD or in U+3000…U+FEFE) agrees with
    /// the Unicode property on every code point.
    func testFormatTestAgreesWithTheUnicodeProperty() {
        var disagree: [UInt32] = []
        for v in UInt32(0)...0x10FFFF {
            guard let s = Unicode.Scalar(v) else { continue }
            if TerminalText.isFormat(s) != (s.properties.generalCategory == .format) { disagree.append(v) }
        }
        XCTAssertEqual(disagree, [])
    }

    func testTextWithoutFormatCharactersIsUntouched() {
        for t in ["plain", "Café ☕︎", "港務長", "e\u{301}", "🇪🇸"] {
            XCTAssertEqual(TerminalText.visible(t), t)
        }
        XCTAssertEqual(TerminalText.visible("\u{AD}soft\u{FEFF}"), "soft")
    }

    func testValidateTextReportHasNoOverride() throws {
        let url = UIFixtures.repoRoot.appendingPathComponent("SampleData/appData.json")
        var json = try String(contentsOf: url, encoding: .utf8)
        let first = try XCTUnwrap(json.range(of: #""location": "41.8800878615,-87.6237267588""#))
        json.replaceSubrange(first, with: "\"location\": \"41.88\u{202E}evil,-87.62\"")
        guard case .success(let app) = AppDataReader.read(Array(json.utf8), source: url.path) else { return XCTFail("reads") }
        XCTAssertTrue(app.diagnostics.contains { $0.message.contains("\u{202E}") }, "the reason quotes the value as it was")
        let text = ValidationReport(app: app).text(verbose: true)
        XCTAssertTrue(text.contains("41.88evil"), text)
        XCTAssertFalse(text.unicodeScalars.contains("\u{202E}"))
    }
}

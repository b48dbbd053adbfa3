import Foundation
import XCTest

@testable import DocentCore
@testable import DocentReading

/// Issue 17 #18: the JSON report is written as it goes, parses, and says what the text says.
final class ValidateJSONTests: XCTestCase {
    /// The reader rules' museum, plus a record with awkward text and `extra` records it drops.
    func report(extra: Int) throws -> ValidationReport {
        var objects = #""999": {"nid": 999, "title": "Lamp \"A\"\u0001\u2028 ☃ \u202Eevil", "gallery_location": "Gallery 77", "location": "41.88, -87.62"}, "#
        for i in 0..<extra { objects += #""x\#(i)": {"nid": "x\#(i)"}, "# }
        let json = ReaderRulesTests.base.replacingOccurrences(of: #""objects": {"#, with: #""objects": {"# + objects)
        return ValidationReport(app: try Fixtures.app(json))
    }

    /// Issue 33 #16: `--check-urls` checks pictures too, so a missing one is reported.
    func testTheURLsToCheckIncludeTheArtworksPictures() throws {
        let json = ReaderRulesTests.base.replacingOccurrences(
            of: #""objects": {"#,
            with: #""objects": {"998": {"nid": 998, "title": "Jar", "gallery_location": "Gallery 1", "location": "41.88, -87.62", "large_image_full_path": "images/missing.png"}, "#)
        let app = try Fixtures.app(json)
        XCTAssertTrue(ValidationReport.urls(in: app).contains { $0.hasSuffix("images/missing.png") }, "\(ValidationReport.urls(in: app))")
    }

    func testTheJSONParsesAndMatchesTheReport() throws {
        let r = try report(extra: 3)
        let text = r.json()
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(o["usable"] as? Bool, true)
        XCTAssertEqual((o["dropped"] as? [[String: Any]])?.count, r.diagnostics.filter { $0.severity == .dropped }.count)
        XCTAssertEqual((o["counts"] as? [String: Any])?["artworks"] as? Int, r.counts.artworks)
        XCTAssertEqual(Array(o.keys).sorted(), [
            "counts", "dropped", "format", "missing_translations", "notes", "shared_keypad_numbers", "source",
            "stops_without_bumper", "unreachable", "usable", "warnings",
        ])
        XCTAssertTrue(text.hasSuffix("}\n"))
    }

    /// Issue 33 #16: the JSON of an unusable document wrote its path as `\/museum\/appData.json`.
    func testPathsAreWrittenWithPlainSlashes() throws {
        let text = ValidationReport.failureJSON(source: "/museum/appData.json", reason: "not JSON: http://example.org/x")
        XCTAssertFalse(text.contains("\\/"), text)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(o["source"] as? String, "/museum/appData.json")
        XCTAssertFalse(try report(extra: 0).json().contains("\\/"))
    }

    func testEveryAwkwardCharacterIsEscaped() throws {
        for s in ["plain", "quote \" and \\ backslash", "line\nbreak\ttab\r", "\u{01}\u{1F}\u{7F}\u{85}", "\u{2028}\u{2029}", "☃ 港務長 🧑‍🎨", ""] {
            let quoted = JSONStreamWriter.quoted(s)
            let back = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
            XCTAssertEqual(back, [s], quoted)
            XCTAssertFalse(quoted.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) }, quoted)
        }
    }

    func testALargeReportIsHandedOnInPieces() throws {
        let r = try report(extra: 20_000)
        var pieces: [Int] = []
        var whole = ""
        r.writeJSON { pieces.append($0.utf8.count); whole += $0 }
        XCTAssertGreaterThan(pieces.count, 10, "written as it goes, not as one string")
        XCTAssertLessThan(pieces.max() ?? 0, 70_000)
        XCTAssertEqual(whole, r.json())
        let o = try JSONSerialization.jsonObject(with: Data(whole.utf8)) as? [String: Any]
        XCTAssertGreaterThanOrEqual((o?["dropped"] as? [Any])?.count ?? 0, 20_000)
    }
}

import Foundation
import XCTest

@testable import DocentCore

/// The UI is complete in English, Spanish and Chinese, and every key the code uses exists.
final class StringsTests: XCTestCase {
    func placeholders(_ s: String) -> Set<String> {
        var out: Set<String> = []
        var rest = Substring(s)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out.insert(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return out
    }

    func testEveryLanguageHasEveryKeyWithTheSamePlaceholders() throws {
        let tables = UIFixtures.catalog.tables
        let en = try XCTUnwrap(tables[.english])
        XCTAssertEqual(Set(tables.keys), Set(Language.uiLanguages), "the six interface languages")
        for (lang, table) in tables where lang != .english {
            XCTAssertEqual(Set(table.keys).subtracting(en.keys), [], "\(lang) has keys English lacks")
            for (k, v) in en {
                guard let t = table[k] else {
                    XCTFail("\(lang.code) lacks \(k)")
                    continue
                }
                XCTAssertFalse(t.isEmpty, "\(lang.code) \(k) is empty")
                XCTAssertEqual(placeholders(t), placeholders(v), "\(lang.code) \(k) placeholders")
            }
        }
    }

    func testEveryKeyUsedInTheSourcesExists() throws {
        let en = try XCTUnwrap(UIFixtures.catalog.tables[.english])
        let sources = UIFixtures.repoRoot.appendingPathComponent("Sources")
        let e = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var used: Set<String> = []
        let pattern = try NSRegularExpression(pattern: #"\b(?:s|strings|state\.strings)\("([a-zA-Z]+\.[a-zA-Z.]+)""#)
        while let u = e?.nextObject() as? URL {
            guard u.pathExtension == "swift", let text = try? String(contentsOf: u, encoding: .utf8) else { continue }
            for m in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let r = Range(m.range(at: 1), in: text) { used.insert(String(text[r])) }
            }
        }
        XCTAssertGreaterThan(used.count, 30, "the scan should find the keys the screens use")
        XCTAssertEqual(used.subtracting(en.keys).sorted(), [])
        for t in Tab.allCases { XCTAssertNotNil(en[t.titleKey], t.titleKey) }
    }

    func testMissingKeyShowsTheKeyAndFallsBackToEnglish() {
        let c = StringCatalog(tables: [.english: ["a.b": "Hello {name}"], .spanish: [:]])
        XCTAssertEqual(c.strings(for: .spanish)("a.b", ["name": "Ana"]), "Hello Ana")
        XCTAssertEqual(c.strings(for: .spanish)("x.y"), "x.y")
    }

    func testPlaceholdersAreFilledInOnePass() {
        let s = StringCatalog(tables: [.english: [
            "two": "{a} and {b}, {a} again", "odd": "{{a}} {missing} {a", "unicode": "¿{name}? ✓ {name}", "none": "{a}",
        ]]).strings(for: .english)
        XCTAssertEqual(s("two", ["a": "A", "b": "B"]), "A and B, A again")
        XCTAssertEqual(s("two", ["a": "{b}", "b": "B"]), "{b} and B, {b} again", "a value is not read for names")
        XCTAssertEqual(s("odd", ["a": "1"]), "{1} {missing} {a", "no argument, no closing brace: left as written")
        XCTAssertEqual(s("unicode", ["name": "Ana"]), "¿Ana? ✓ Ana")
        XCTAssertEqual(s("none"), "{a}")
    }

    func testThePlayersClock() {
        XCTAssertEqual(PlayerFeature.clock(0), "0:00")
        XCTAssertEqual(PlayerFeature.clock(65.9), "1:05")
        XCTAssertEqual(PlayerFeature.clock(600), "10:00")
        XCTAssertEqual(PlayerFeature.clock(3_723), "1:02:03")
        XCTAssertEqual(PlayerFeature.clock(-4), "0:00")
        XCTAssertEqual(PlayerFeature.clock(.nan), "0:00")
        XCTAssertEqual(PlayerFeature.clock(1e12), "99:59:59")
    }
}

import Foundation
import XCTest

@testable import DocentCore

/// The UI is complete in every interface language, and its texts fill their placeholders.
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

    func testMissingKeyShowsTheKeyAndFallsBackToEnglish() {
        let c = StringCatalog(tables: [.english: [StringKey.tabHome.rawValue: "Hello {name}"], .spanish: [:]])
        XCTAssertEqual(c.strings(for: .spanish)(.tabHome, ["name": "Ana"]), "Hello Ana")
        XCTAssertEqual(c.strings(for: .spanish)(.tabMap), StringKey.tabMap.rawValue, "no table has it: the key itself")
    }

    func testPlaceholdersAreFilledInOnePass() {
        XCTAssertEqual(Strings.fill("{a} and {b}, {a} again", ["a": "A", "b": "B"]), "A and B, A again")
        XCTAssertEqual(Strings.fill("{a} and {b}, {a} again", ["a": "{b}", "b": "B"]), "{b} and B, {b} again", "a value is not read for names")
        XCTAssertEqual(Strings.fill("{{a}} {missing} {a", ["a": "1"]), "{1} {missing} {a", "no argument, no closing brace: left as written")
        XCTAssertEqual(Strings.fill("¿{name}? ✓ {name}", ["name": "Ana"]), "¿Ana? ✓ Ana")
        let s = StringCatalog(tables: [.english: [StringKey.tabHome.rawValue: "{a}"]]).strings(for: .english)
        XCTAssertEqual(s(.tabHome), "{a}", "no arguments: the text as written")
        XCTAssertEqual(s(.tabHome, ["a": "A"]), "A")
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

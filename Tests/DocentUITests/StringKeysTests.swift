import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// The compiler checks every key the sources use: `Strings` and `Phrase.key` take a
/// `StringKey`, generated from `Resources/strings/en.json` by `scripts/gen-string-keys.py`, and
/// keys once built at run time are `switch`es returning its cases. What is left to check here:
/// that the generated type is en.json's keys (not a stale copy), that every language has every
/// one, and that en.json holds no key the guide never shows.
final class StringKeysTests: XCTestCase {
    /// en.json's keys in the file's order (the generator keeps it; JSONSerialization does not).
    static func englishKeysInOrder() throws -> [String] {
        let url = UIFixtures.repoRoot.appendingPathComponent("Resources/strings/en.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let re = try NSRegularExpression(pattern: #"^\s*"([^"]+)"\s*:"#, options: .anchorsMatchLines)
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// A key added to, renamed in or removed from en.json without running the generator fails
    /// here (and in `make check-strings`, which compares the whole file).
    func testStringKeyIsExactlyEnglishsKeysInOrder() throws {
        let file = try Self.englishKeysInOrder()
        XCTAssertEqual(Set(file), Set(try XCTUnwrap(UIFixtures.catalog.tables[.english]).keys), "the line scan reads every key")
        XCTAssertEqual(StringKey.allCases.map(\.rawValue), file, "run `make strings` after changing en.json's keys")
    }

    func testEveryLanguageHasEveryKey() {
        for language in Language.uiLanguages {
            let table = UIFixtures.catalog.tables[language] ?? [:]
            XCTAssertEqual(StringKey.allCases.filter { table[$0.rawValue] == nil }.map(\.rawValue), [], "keys missing in \(language.code)")
        }
    }

    /// Every case is named somewhere in the sources (`.pulseBoxTitle`): a key no code uses is
    /// text no visitor sees, and translators keep paying for it.
    func testNoKeyIsUnused() throws {
        let sources = UIFixtures.repoRoot.appendingPathComponent("Sources")
        let e = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        let member = try NSRegularExpression(pattern: #"\.`?([A-Za-z_][A-Za-z0-9_]*)"#)
        var named: Set<String> = []
        var files = 0
        while let u = e?.nextObject() as? URL {
            guard u.pathExtension == "swift", u.lastPathComponent != "StringKey.swift",
                let text = try? String(contentsOf: u, encoding: .utf8)
            else { continue }
            files += 1
            for m in member.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let r = Range(m.range(at: 1), in: text) { named.insert(String(text[r])) }
            }
        }
        XCTAssertGreaterThan(files, 100, "the scan reads the sources")
        let unused = StringKey.allCases.filter { !named.contains("\($0)") }.map(\.rawValue)
        XCTAssertEqual(unused, [], "keys in en.json that no source uses: remove them from every language, then `make strings`")
    }

    /// The one key chosen by a value from outside: a CMS banner word we translate.
    func testTheTranslatedTourBannersAreTheirKeys() {
        let s = UIFixtures.catalog.strings(for: .spanish)
        XCTAssertEqual(TourFeature.tourBanner("Featured", s), s(.bannerFeatured))
        XCTAssertEqual(TourFeature.tourBanner("NEW", s), s(.bannerNew))
        XCTAssertEqual(TourFeature.tourBanner("Members only", s), "Members only", "the museum's own word, as written")
    }
}

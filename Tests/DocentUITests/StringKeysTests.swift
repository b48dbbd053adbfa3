import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Every localisation key the sources use, written out or built at run time, exists in every
/// language. A literal is a key when its first part is one of the catalogue's namespaces
/// (`home.…`, `member.…`), wherever it stands (a ternary, a `Phrase.key`, a table); a key built
/// with interpolation must be listed below with every value it can take, or the test fails.
final class StringKeysTests: XCTestCase {
    /// Keys built at run time: the literal's text before `\(` → every value it can end with.
    static let builtKeys: [String: [String]] = [
        "home.loading.": ["exhibitions", "events"],
        "home.none.": ["exhibitions", "events"],
        "home.unavailable.": ["exhibitions", "events"],
        "home.notPublished.": ["exhibitions", "events"],
        "banner.": TourFeature.tourBanners,
        "tour.mode.": TourMode.allCases.map(\.rawValue),
        "title.": Tab.allCases.map(\.rawValue),
        "tab.": Tab.allCases.map(\.rawValue),
        "player.status.": PlaybackStatus.allCases.map(\.rawValue),
    ]

    struct Scan {
        var literal: Set<String> = []
        var built: Set<String> = []
    }

    static func scan(namespaces: Set<String>) throws -> Scan {
        let sources = UIFixtures.repoRoot.appendingPathComponent("Sources")
        let e = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        let literal = try NSRegularExpression(pattern: #""([a-z][a-zA-Z]*(?:\.[a-zA-Z0-9]+)+)""#)
        let built = try NSRegularExpression(pattern: #""([a-z][a-zA-Z]*(?:\.[a-zA-Z0-9]+)*\.)\\\("#)
        var out = Scan()
        while let u = e?.nextObject() as? URL {
            guard u.pathExtension == "swift", let text = try? String(contentsOf: u, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let l = String(line)
                for (re, isBuilt) in [(literal, false), (built, true)] {
                    for m in re.matches(in: l, range: NSRange(l.startIndex..., in: l)) {
                        guard let r = Range(m.range(at: 1), in: l) else { continue }
                        let key = String(l[r])
                        guard let ns = key.split(separator: ".").first, namespaces.contains(String(ns)) else { continue }
                        if isBuilt { out.built.insert(key) } else { out.literal.insert(key) }
                    }
                }
            }
        }
        return out
    }

    func testEveryKeyUsedAnywhereIsInEveryLanguage() throws {
        let tables = UIFixtures.catalog.tables
        let en = try XCTUnwrap(tables[.english])
        let namespaces = Set(en.keys.compactMap { $0.split(separator: ".").first.map(String.init) })
        let found = try Self.scan(namespaces: namespaces)
        XCTAssertGreaterThan(found.literal.count, 100, "the scan should find the keys the screens use")
        // Every built key is declared with its values; none is left unexplained.
        XCTAssertEqual(found.built.subtracting(Self.builtKeys.keys).sorted(), [], "keys built at run time that this test does not know")
        var used = found.literal
        for prefix in found.built { for v in Self.builtKeys[prefix] ?? [] { used.insert(prefix + v) } }
        for (language, table) in tables {
            XCTAssertEqual(used.subtracting(table.keys).sorted(), [], "keys missing in \(language.code)")
        }
    }

    /// The scan itself finds what it must: a key in a ternary, one inside `Phrase.key`, and
    /// a built key (so a missing one cannot pass unseen).
    func testTheScanSeesTernariesPhrasesAndBuiltKeys() throws {
        let found = try Self.scan(namespaces: ["member", "banner", "home"])
        XCTAssertTrue(found.literal.contains("member.formSubmit"), "ternary in MemberView")
        XCTAssertTrue(found.literal.contains("member.signedOut"), "Phrase.key in MemberFeature")
        XCTAssertTrue(found.built.contains("home.loading."))
    }
}

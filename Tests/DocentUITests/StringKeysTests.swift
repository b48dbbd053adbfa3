import Foundation
import StringFiles
import XCTest

@testable import DocentCore
@testable import DocentUI

/// The compiler checks every key the sources use: `Strings` and `Phrase.key` take a
/// `StringKey`, whose members are generated from the English tables by
/// `scripts/gen-string-keys.py` (the shared `Resources/strings/en.json` and each feature's
/// `Sources/Features/<Name>/Strings/en.json`, issue 46), and keys once built at run time are
/// `switch`es returning its members. What is left to check here: that the generated members are
/// the tables' keys (not a stale copy), that every language has every one, that no key is unused,
/// and that a key has one home.
final class StringKeysTests: XCTestCase {
    /// The English tables, the shared one first, then the features' by name.
    static func englishTables() throws -> [URL] {
        let features = UIFixtures.repoRoot.appendingPathComponent("Sources/Features")
        let names = try FileManager.default.contentsOfDirectory(atPath: features.path).sorted()
        return [UIFixtures.repoRoot.appendingPathComponent("Resources/strings/en.json")]
            + names.map { features.appendingPathComponent("\($0)/Strings/en.json") }.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// A table's keys in the file's order (the generator keeps it; JSONSerialization does not).
    static func keysInOrder(_ url: URL) throws -> [String] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let re = try NSRegularExpression(pattern: #"^\s*"([^"]+)"\s*:"#, options: .anchorsMatchLines)
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The generated members, (name, key), from StringKey.swift and every `<Name>StringKeys.swift`.
    static func generatedMembers() throws -> [(name: String, key: String)] {
        let core = UIFixtures.repoRoot.appendingPathComponent("Sources/DocentCore/Store/StringKey.swift")
        let features = UIFixtures.repoRoot.appendingPathComponent("Sources/Features")
        let names = try FileManager.default.contentsOfDirectory(atPath: features.path).sorted()
        let files = [core] + names.map { features.appendingPathComponent("\($0)/Core/\($0)StringKeys.swift") }.filter { FileManager.default.fileExists(atPath: $0.path) }
        let re = try NSRegularExpression(pattern: #"static let `?([A-Za-z0-9_]+)`? = StringKey\("([^"]+)"\)"#)
        return try files.flatMap { url -> [(name: String, key: String)] in
            let text = try String(contentsOf: url, encoding: .utf8)
            return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { m in
                guard let n = Range(m.range(at: 1), in: text), let k = Range(m.range(at: 2), in: text) else { return nil }
                return (String(text[n]), String(text[k]))
            }
        }
    }

    /// A key added to, renamed in or removed from an en.json without running the generator fails
    /// here (and in `make check-strings`, which compares the whole files).
    func testTheGeneratedKeysAreExactlyTheEnglishTablesKeysInOrder() throws {
        let tables = try Self.englishTables()
        XCTAssertGreaterThan(tables.count, 10, "the shared table and the features' are found")
        let file = try tables.flatMap { try Self.keysInOrder($0) }
        XCTAssertEqual(Set(file), Set(try XCTUnwrap(UIFixtures.catalog.tables[.english]).keys), "the line scan reads every key the guide loads")
        XCTAssertEqual(try Self.generatedMembers().map(\.key), file, "run `make strings` after changing an en.json's keys")
        XCTAssertEqual(StringKey.keypadGo.rawValue, "keypad.go", "a feature's member is its table's key")
    }

    func testEveryLanguageHasEveryKey() throws {
        let english = try XCTUnwrap(UIFixtures.catalog.tables[.english])
        for language in Language.uiLanguages {
            let table = UIFixtures.catalog.tables[language] ?? [:]
            XCTAssertEqual(english.keys.filter { table[$0] == nil }.sorted(), [], "keys missing in \(language.code)")
        }
    }

    /// Every member is named somewhere in the sources (`.pulseBoxTitle`): a key no code uses is
    /// text no visitor sees, and translators keep paying for it.
    func testNoKeyIsUnused() throws {
        let sources = UIFixtures.repoRoot.appendingPathComponent("Sources")
        let e = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        let member = try NSRegularExpression(pattern: #"\.`?([A-Za-z_][A-Za-z0-9_]*)"#)
        var named: Set<String> = []
        var files = 0
        while let u = e?.nextObject() as? URL {
            guard u.pathExtension == "swift", u.lastPathComponent != "StringKey.swift", !u.lastPathComponent.hasSuffix("StringKeys.swift"),
                let text = try? String(contentsOf: u, encoding: .utf8)
            else { continue }
            files += 1
            for m in member.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let r = Range(m.range(at: 1), in: text) { named.insert(String(text[r])) }
            }
        }
        XCTAssertGreaterThan(files, 100, "the scan reads the sources")
        let unused = try Self.generatedMembers().filter { !named.contains($0.name) }.map(\.key)
        XCTAssertEqual(unused, [], "keys in an en.json that no source uses: remove them from every language, then `make strings`")
    }

    /// A key has one home: the same key in the shared table and a feature's (or two features')
    /// is refused with both files named, not one text quietly winning.
    func testAKeyInTwoTablesIsRefusedNamingBoth() throws {
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("docent-strings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let shared = root.appendingPathComponent("Resources/strings")
        let feature = root.appendingPathComponent("Sources/Features/Map/Strings")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: feature, withIntermediateDirectories: true)
        try Data(#"{"tab.home": "Home", "map.title": "Map"}"#.utf8).write(to: shared.appendingPathComponent("en.json"))
        try Data(#"{"map.title": "Plan"}"#.utf8).write(to: feature.appendingPathComponent("en.json"))
        switch StringFiles.load(shared) {
        case .success: XCTFail("a key in two tables was taken")
        case .failure(let failure):
            XCTAssertTrue(failure.description.contains("map.title"), failure.description)
            XCTAssertTrue(failure.description.contains("Resources/strings/en.json") && failure.description.contains("Map/Strings/en.json"), failure.description)
        }
        // Apart, both are read: the shared table and the feature's make one.
        try Data(#"{"map.legend": "Plan"}"#.utf8).write(to: feature.appendingPathComponent("en.json"))
        XCTAssertEqual(try StringFiles.load(shared).get()["en"], ["tab.home": "Home", "map.title": "Map", "map.legend": "Plan"])
        // Installed (`scripts/install.sh`): the features' tables in folders of the strings folder.
        let installed = root.appendingPathComponent("share/docent/strings")
        try FileManager.default.createDirectory(at: installed.appendingPathComponent("Map"), withIntermediateDirectories: true)
        try Data(#"{"tab.home": "Inicio"}"#.utf8).write(to: installed.appendingPathComponent("es.json"))
        try Data(#"{"tab.home": "Home"}"#.utf8).write(to: installed.appendingPathComponent("en.json"))
        try Data(#"{"map.legend": "Leyenda"}"#.utf8).write(to: installed.appendingPathComponent("Map/es.json"))
        XCTAssertEqual(try StringFiles.load(installed).get()["es"], ["tab.home": "Inicio", "map.legend": "Leyenda"])
    }

    /// A key written twice in one table is refused too (JSONSerialization kept the last one
    /// silently; the tables are read with DocentJSON since issue 48).
    func testAKeyTwiceInOneTableIsRefused() throws {
        let shared = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("docent-strings-\(UUID().uuidString)/Resources/strings")
        defer { try? FileManager.default.removeItem(at: shared.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try Data(#"{"tab.home": "Home", "tab.home": "Start"}"#.utf8).write(to: shared.appendingPathComponent("en.json"))
        switch StringFiles.load(shared) {
        case .success(let t): XCTFail("a key twice in one table was taken: \(t)")
        case .failure(let failure): XCTAssertTrue(failure.description.contains("tab.home is twice in") && failure.description.contains("en.json"), failure.description)
        }
        try Data(#"{"tab.home": "Home", "tab.map": 3}"#.utf8).write(to: shared.appendingPathComponent("en.json"))
        XCTAssertThrowsError(try StringFiles.load(shared).get(), "a value that is not a string")
    }

    /// The one key chosen by a value from outside: a CMS banner word we translate.
    func testTheTranslatedTourBannersAreTheirKeys() {
        let s = UIFixtures.catalog.strings(for: .spanish)
        XCTAssertEqual(TourFeature.tourBanner("Featured", s), s(.bannerFeatured))
        XCTAssertEqual(TourFeature.tourBanner("NEW", s), s(.bannerNew))
        XCTAssertEqual(TourFeature.tourBanner("Members only", s), "Members only", "the museum's own word, as written")
    }
}

import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// The six interface languages (issue 16 #2): Home and its tab bar in each, and tab bars that
/// keep every name whole at 80 columns and the current one at 40, wide characters included.
final class InterfaceLanguagesTests: XCTestCase {
    let big = Size(width: 80, height: 24)
    let small = RootView.minimumSize

    static let names: [Language: String] = [
        .english: "en", .spanish: "es", .french: "fr", .korean: "ko", .chinese: "zh", .traditionalChinese: "zh-hant",
    ]

    func testHomeInEveryLanguage() {
        for lang in Language.uiLanguages {
            let name = Self.names[lang] ?? lang.code
            // English and Simplified Chinese at 80×24 are ScreenSnapshotTests' home-80x24 and home-zh-80x24.
            if lang == .english || lang == .chinese { continue }
            assertSnapshot(RootView.render(UIFixtures.loadedState(language: lang, size: big), size: big), named: "home-\(name)-80x24")
        }
        assertSnapshot(RootView.render(UIFixtures.loadedState(language: .korean, size: small), size: small), named: "home-ko-40x12")
        assertSnapshot(RootView.render(UIFixtures.loadedState(language: .traditionalChinese, size: small), size: small), named: "home-zh-hant-40x12")
    }

    /// At 80 columns every tab name of every language shows whole, whichever tab is current;
    /// at 40 the current one does, and nothing wide is cut in half (checked by assertSnapshot
    /// above and here by the row's width).
    func testTabBarsFitAt80And40() {
        for lang in Language.uiLanguages {
            var s = UIFixtures.loadedState(language: lang, size: big)
            let names = s.tabs.map { s.strings($0.titleKey) }
            for tab in s.tabs {
                prepare(&s, .selectTab(tab))
                let wide = RootView.render(s, size: big)
                for n in names { XCTAssertTrue(wide.row(0).contains(n), "\(lang.code) at 80, \(tab): \(n) missing in \(wide.row(0))") }
                XCTAssertTrue(wide.splitWideCells().isEmpty, "\(lang.code) \(tab)")
                let narrow = RootView.render(s, size: small)
                XCTAssertTrue(narrow.row(0).contains(s.strings(tab.titleKey)), "\(lang.code) at 40, \(tab): \(narrow.row(0))")
                XCTAssertLessThanOrEqual(TextWidth.width(narrow.row(0)), small.width)
            }
        }
    }

    /// The key hints at the bottom of the list screens keep whole keys at both widths (a hint
    /// that does not fit is dropped, never cut), in every language.
    func testHintsKeepWholeKeysInEveryLanguage() {
        for lang in Language.uiLanguages {
            for size in [big, small] {
                let s = UIFixtures.loadedState(language: lang, size: size)
                let last = RootView.render(s, size: size).row(size.height - 1).trimmingCharacters(in: .whitespaces)
                // The list's hints, and Pulse's `f notes (N)` (made room for, issue 47 #11).
                let hints = s.strings(.hintsList).components(separatedBy: " · ") + [PulseView.anywhereHint(s)].compactMap { $0 }
                // A line that left hints out ends in " …" after the last whole one.
                let shown = last.components(separatedBy: " · ").map { $0.hasSuffix(" …") ? String($0.dropLast(2)) : $0 }.filter { !$0.isEmpty }
                XCTAssertFalse(shown.isEmpty, "\(lang.code) \(size): no hints")
                for h in shown { XCTAssertTrue(hints.contains(h), "\(lang.code) \(size.width): \"\(h)\" is not a whole hint of \(hints)") }
            }
        }
    }

    /// Two Chinese tables side by side in the picker: named so a reader tells them apart.
    func testThePickerNamesBothChineseScripts() {
        var s = UIFixtures.loadedState(language: .traditionalChinese, size: big)
        prepare(&s, .openLanguagePicker)
        let screen = RootView.render(s, size: big)
        let text = (0..<big.height).map { screen.row($0) }.joined(separator: "\n")
        for n in ["English", "Español", "Français", "한국어", "○ 简体中文", "● 繁體中文"] { XCTAssertTrue(text.contains(n), "\(n) in\n\(text)") }
        XCTAssertEqual(s.catalog.languages, Language.uiLanguages, "picker order")
    }

    /// Issue 17 #5: generated Chinese reads naturally: a numbered gallery with a name is
    /// "104号展厅（Lantern Court）", not "104 (Lantern Court)号展厅", with full-width brackets, and an
    /// artwork's title is set off with 《》.
    func testGeneratedChineseSentencesReadNaturally() {
        let zh = UIFixtures.catalog.strings(for: .chinese)
        let hant = UIFixtures.catalog.strings(for: .traditionalChinese)
        let en = UIFixtures.catalog.strings(for: .english)
        XCTAssertEqual(PageBuilder.galleryLabel("104 (Lantern Court)", zh), "104号展厅（Lantern Court）")
        XCTAssertEqual(PageBuilder.galleryLabel("104 (Lantern Court)", hant), "104 號展間（Lantern Court）")
        XCTAssertEqual(PageBuilder.galleryLabel("104 (Lantern Court)", en), "Gallery 104 (Lantern Court)")
        XCTAssertEqual(PageBuilder.galleryLabel("201", zh), "201号展厅")
        XCTAssertEqual(PageBuilder.galleryLabel("Ostrander Photography Hall", zh), "Ostrander Photography Hall")
        let arrive = zh(.tourArrive, ["gallery": PageBuilder.galleryLabel("104 (Lantern Court)", zh), "title": "Sleeping Lion"])
        XCTAssertEqual(arrive, "到达104号展厅（Lantern Court）的《Sleeping Lion》后，请按 Enter。")
        XCTAssertFalse(arrive.contains("(") || arrive.contains(","), "half-width punctuation in a Chinese sentence: \(arrive)")
    }
}

import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Chinese content in the reader's script (issue 16 #2), drawn by `RootView` through tables the
/// shell builds (here a few characters by hand; the real ICU tables are tested in AdapterTests).
final class ScriptsTests: XCTestCase {
    let big = Size(width: 80, height: 24)
    let small = RootView.minimumSize
    // The fixture's Chinese tour title is Simplified: 一小时精华.
    let tables = ChineseScriptTables(
        traditional: ["时": "時", "华": "華", "馆": "館"], simplified: ChineseVariants(simplified: ["時": "时", "華": "华", "館": "馆"]))

    func text(_ screen: Screen) -> String { (0..<screen.height).map(screen.row).joined(separator: "\n") }

    /// Asked for once, when the reader's language is first Chinese (at start or on `L`).
    func testTheTablesAreAskedForOnceForAChineseReader() {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        var effects = prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        XCTAssertFalse(effects.contains(ScriptsFeature.effect(.build)), "an English reader needs none")
        effects = prepare(&s, .setLanguage(.traditionalChinese))
        XCTAssertTrue(effects.contains(ScriptsFeature.effect(.build)), "\(effects)")
        XCTAssertFalse(prepare(&s, .setLanguage(.chinese)).contains(ScriptsFeature.effect(.build)), "once")
        send(&s, ScriptsFeature.action(.built(tables))) { $0[ScriptsFeature.self].tables = self.tables }
        var zh = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, language: .chinese, now: UIFixtures.now, features: Registry.features)
        XCTAssertTrue(prepare(&zh, .launched(restored: PersistedSettings(introSeen: true), languageOverride: .chinese)).contains(ScriptsFeature.effect(.build)))
    }

    func testContentIsDrawnInTheReadersScript() {
        var s = UIFixtures.loadedState(language: .traditionalChinese)
        prepare(&s, .selectTab(.tours))
        XCTAssertTrue(text(RootView.render(s, size: big)).contains("一小时精华"), "before the tables: as written")
        prepare(&s, ScriptsFeature.action(.built(tables)))
        let hant = RootView.render(s, size: big)
        XCTAssertTrue(text(hant).contains("一小時精華"), text(hant))
        assertSnapshot(hant, named: "tours-zh-hant-readers-script-80x24")
        assertSnapshot(RootView.render(s, size: small), named: "tours-zh-hant-readers-script-40x12")
        // A Simplified reader sees it as written; an English one too (and click targets and
        // widths do not move: one character for one).
        s.language = .chinese
        XCTAssertTrue(text(RootView.render(s, size: big)).contains("一小时精华"))
        s.language = .english
        XCTAssertEqual(RootView.render(s, size: big), {
            var plain = s
            plain[ScriptsFeature.self].tables = nil
            return RootView.render(plain, size: big)
        }())
    }
}

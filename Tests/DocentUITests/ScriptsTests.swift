import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Chinese content in the reader's script (issue 16 #2, issue 33 #1), drawn by `RootView`
/// through the conversion the shell opens (here a few characters by hand, or a converter that
/// reads words; the real OpenCC is tested in AdapterTests).
final class ScriptsTests: XCTestCase {
    let big = Size(width: 80, height: 24)
    let small = RootView.minimumSize
    // The fixture's Chinese tour title is Simplified: 一小时精华.
    let tables = ReadersScript.characters(traditional: ["时": "時", "华": "華", "馆": "館"], simplified: ["時": "时", "華": "华", "館": "馆"])

    func text(_ screen: Screen) -> String { (0..<screen.height).map(screen.row).joined(separator: "\n") }

    /// Asked for once, when the reader's language is first Chinese (at start or on `L`).
    func testTheTablesAreAskedForOnceForAChineseReader() {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        var effects = prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        XCTAssertFalse(effects.contains(ScriptsFeature.effect(.build)), "an English reader needs none")
        effects = prepare(&s, .setLanguage(.traditionalChinese))
        XCTAssertTrue(effects.contains(ScriptsFeature.effect(.build)), "\(effects)")
        XCTAssertFalse(prepare(&s, .setLanguage(.chinese)).contains(ScriptsFeature.effect(.build)), "once")
        send(&s, ScriptsFeature.action(.built(tables))) { $0[ScriptsFeature.self].script = self.tables }
        var zh = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, language: .chinese, now: UIFixtures.now, features: Registry.features)
        XCTAssertTrue(prepare(&zh, .launched(restored: PersistedSettings(introSeen: true), languageOverride: .chinese)).contains(ScriptsFeature.effect(.build)))
    }

    /// Scoped (issue 28): the feature's own state and effect, and nothing asked of the shared
    /// UI, stated exactly.
    func testScopedItAsksForTheTablesOnceAndKeepsThem() {
        let en = UIFixtures.loadedState()
        let zh = UIFixtures.loadedState(language: .chinese)
        var st = ScriptsFeature.State()
        reactScoped(ScriptsFeature.self, &st, .launched, FeatureContext(en))
        reactScoped(ScriptsFeature.self, &st, .languageChanged, FeatureContext(zh), effects: [ScriptsFeature.effect(.build)]) { $0.requested = true }
        reactScoped(ScriptsFeature.self, &st, .languageChanged, FeatureContext(zh))
        sendScoped(ScriptsFeature.self, &st, .built(tables), FeatureContext(zh)) { $0.script = self.tables }
        sendScoped(ScriptsFeature.self, &st, .built(nil), FeatureContext(zh)) { $0.script = nil }
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
            plain[ScriptsFeature.self].script = nil
            return RootView.render(plain, size: big)
        }())
    }

    /// A converter that reads words as OpenCC does (头发 is 頭髮, 发 alone is 發), and that damages
    /// Traditional text it is given (彷 → 徬, 范 → 範), as OpenCC's s2t does: what decides is
    /// which stretches are given to it.
    static let words = ReadersScript(
        name: "words",
        toTraditional: { text in
            var t = text.replacingOccurrences(of: "头发", with: "頭髮")
            for (a, b) in [("发", "發"), ("随", "隨"), ("线", "線"), ("彷", "徬"), ("范", "範"), ("张", "張"), ("三", "三")] { t = t.replacingOccurrences(of: a, with: b) }
            return t.replacingOccurrences(of: "长", with: "長長")  // one character for two: not used
        },
        toSimplified: { text in
            var t = text
            for (a, b) in [("頭", "头"), ("髮", "发"), ("隨", "随"), ("線", "线"), ("卻", "却"), ("勞", "劳"), ("爾", "尔"), ("藝", "艺"), ("術", "术"), ("張", "张")] { t = t.replacingOccurrences(of: a, with: b) }
            return t
        },
        simplifiedOnly: Set("头发随线张长".unicodeScalars.map(\.value)),
        traditionalOnly: Set("頭髮隨線卻勞爾藝術張".unicodeScalars.map(\.value)))

    /// Issue 33 #1: text already in the reader's script is never converted again.
    func testOnlyTextInTheOtherScriptIsConverted() {
        let w = Self.words
        // Already Traditional (卻, 勞 and 爾 are Traditional only): as written, though the
        // converter would damage it.
        XCTAssertEqual(w.convert("天空卻彷彿", for: .traditionalChinese), "天空卻彷彿")
        XCTAssertEqual(w.convert("赫特勞德·范·阿塞爾", for: .traditionalChinese), "赫特勞德·范·阿塞爾")
        // Simplified: converted, by words.
        XCTAssertEqual(w.convert("本季新推出：追随光线", for: .traditionalChinese), "本季新推出：追隨光線")
        XCTAssertEqual(w.convert("头发", for: .traditionalChinese), "頭髮")
        // Nothing of one script only (范 is written as itself in both): as written.
        XCTAssertEqual(w.convert("范三", for: .traditionalChinese), "范三")
        // A Traditional label before Simplified content: each side of the full-width colon alone.
        XCTAssertEqual(w.convert("藝術家：张三", for: .traditionalChinese), "藝術家：張三")
        // Both scripts with nothing between them: as written.
        XCTAssertEqual(w.convert("藝术", for: .traditionalChinese), "藝术")
        // A conversion that changes the number of characters is not used.
        XCTAssertEqual(w.convert("长", for: .traditionalChinese), "长")
        // Stretches end at Latin text, digits and spaces; Korean and kana are not Chinese.
        XCTAssertEqual(w.convert("101 头发 Gallery 卻彷 한국어 かな", for: .traditionalChinese), "101 頭髮 Gallery 卻彷 한국어 かな")
        // The other way round for a Simplified reader; other readers see the text as written.
        XCTAssertEqual(w.convert("頭髮 天空卻彷彿", for: .chinese), "头发 天空却彷彿")
        XCTAssertEqual(w.convert("头发", for: .chinese), "头发")
        XCTAssertEqual(w.convert("头发", for: .english), "头发")
    }

    /// The frame is converted a row at a time, so the converter sees words whole (a cell at a
    /// time, 发 would be 發 in 頭髮), and the cells keep their places and styles.
    func testTheFrameIsConvertedARowAtATime() {
        var screen = Screen(width: 20, height: 2)
        screen.put("头", x: 0, y: 0, style: Style(role: .title))
        screen.put("发 ok", x: 2, y: 0)
        screen.put("卻彷", x: 0, y: 1)
        screen.mapText { Self.words.convert($0, for: .traditionalChinese) }
        XCTAssertEqual(screen.row(0).trimmingCharacters(in: .whitespaces), "頭髮 ok")
        XCTAssertEqual(screen[0, 0].style, Style(role: .title))
        XCTAssertTrue(screen[1, 0].continuation)
        XCTAssertEqual(screen.row(1).trimmingCharacters(in: .whitespaces), "卻彷")
    }
}

import DocentTestSupport
import XCTest

@testable import DocentCore

/// The first language from the environment's locale (issue 16 #2), read from the variables
/// only (the executable passes them in), so an uninstalled locale still counts.
final class LocaleLanguageTests: XCTestCase {
    let catalog = StringCatalog(tables: [.english: [StringKey.tabHome.rawValue: "Home"], .spanish: [StringKey.tabHome.rawValue: "Inicio"], .chinese: [StringKey.tabHome.rawValue: "首页"]])

    func testLanguagePartOfTheLocale() {
        XCTAssertEqual(catalog.language(fromLocale: ["LANG": "es_ES.UTF-8"]), .spanish)
        XCTAssertEqual(catalog.language(fromLocale: ["LANG": "es_MX"]), .spanish)
        XCTAssertEqual(catalog.language(fromLocale: ["LANG": "es.UTF-8@euro"]), .spanish)
        XCTAssertEqual(catalog.language(fromLocale: ["LANG": "zh_TW.UTF-8"]), .chinese)
        XCTAssertEqual(catalog.language(fromLocale: ["LANG": "en_GB.UTF-8"]), .english)
    }

    /// With the six shipped tables: Chinese by region or script (issue 16 #2), French, Korean.
    func testChineseScriptFrenchAndKoreanFromTheLocale() {
        let six = UIFixtures.catalog
        XCTAssertEqual(six.language(fromLocale: ["LANG": "zh_CN.UTF-8"]), .chinese)
        XCTAssertEqual(six.language(fromLocale: ["LANG": "zh_SG.UTF-8"]), .chinese)
        XCTAssertEqual(six.language(fromLocale: ["LANG": "zh_TW.UTF-8"]), .traditionalChinese)
        XCTAssertEqual(six.language(fromLocale: ["LANG": "zh_HK.UTF-8"]), .traditionalChinese)
        XCTAssertEqual(six.language(fromLocale: ["LANG": "zh_MO"]), .traditionalChinese)
        XCTAssertEqual(six.language(fromLocale: ["LC_ALL": "zh_Hant_TW.UTF-8"]), .traditionalChinese)
        XCTAssertEqual(six.language(fromLocale: ["LANG": "zh"]), .chinese, "plain zh is Simplified")
        XCTAssertEqual(six.language(fromLocale: ["LANG": "fr_CA.UTF-8"]), .french)
        XCTAssertEqual(six.language(fromLocale: ["LANG": "ko_KR.UTF-8"]), .korean)
    }

    func testLcAllThenLcMessagesThenLang() {
        XCTAssertEqual(catalog.language(fromLocale: ["LC_ALL": "zh_CN.UTF-8", "LC_MESSAGES": "es_ES", "LANG": "en_US"]), .chinese)
        XCTAssertEqual(catalog.language(fromLocale: ["LC_MESSAGES": "es_ES", "LANG": "zh_CN"]), .spanish)
        XCTAssertEqual(catalog.language(fromLocale: ["LC_ALL": "", "LANG": "es_ES.UTF-8"]), .spanish, "an empty variable does not count")
        // The first one set decides, even for a language without a table (no falling through).
        XCTAssertNil(catalog.language(fromLocale: ["LC_ALL": "fr_FR.UTF-8", "LANG": "es_ES.UTF-8"]))
    }

    func testNoPreference() {
        for value in ["C", "POSIX", "C.UTF-8", "C.utf8", "fr_FR.UTF-8", "", "1234", "_"] {
            XCTAssertNil(catalog.language(fromLocale: ["LANG": value]), value)
        }
        XCTAssertNil(catalog.language(fromLocale: [:]))
    }

    /// The locale's language is where the guide starts when nothing was saved; a saved choice
    /// wins, and only a choice is saved.
    func testLocaleLanguageUntilTheVisitorChooses() {
        var s = AppState(source: "/m/appData.json", catalog: catalog, language: .spanish, now: Date(timeIntervalSince1970: 0), features: .none)
        send(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil), effects: [.loadDocument(source: "/m/appData.json")]) {
            $0.introSeen = true
        }
        XCTAssertEqual(s.language, .spanish)
        XCTAssertNil(s.settings.language, "not chosen: not saved, so another locale next time is followed")
        send(&s, .setLanguage(.chinese), effects: [.persist(PersistedSettings(language: .chinese, introSeen: true))]) {
            $0.language = .chinese
            $0.chosenLanguage = .chinese
        }

        var again = AppState(source: "/m/appData.json", catalog: catalog, language: .spanish, now: Date(timeIntervalSince1970: 0), features: .none)
        send(&again, .launched(restored: PersistedSettings(language: .chinese, introSeen: true), languageOverride: nil), effects: [.loadDocument(source: "/m/appData.json")]) {
            $0.introSeen = true
            $0.language = .chinese
            $0.chosenLanguage = .chinese
        }
        XCTAssertEqual(again.defaultLanguage, .spanish, "starting over returns to the locale's")
    }
}

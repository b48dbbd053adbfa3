import DocentCore
import Foundation
import ScriptConversion
import XCTest

/// The Traditional → Simplified table from ICU's Hant-Hans transform, and the museum's index
/// folded with it (SampleData's Chinese is Traditional; visitors may type either script).
final class ChineseScriptsTests: XCTestCase {
    func testTheTableIsICUsHantHans() {
        let v = ChineseScripts.variants
        XCTAssertGreaterThan(v.count, 2000, "the whole table, not a few characters")
        for (t, s) in [("親", "亲"), ("導", "导"), ("覽", "览"), ("務", "务"), ("長", "长"), ("後", "后"), ("髮", "发"), ("間", "间")] {
            XCTAssertEqual(v.simplified(t.unicodeScalars.first!), s.unicodeScalars.first!, t)
        }
        // Simplified, shared and non-Chinese characters stay as they are.
        for c in ["亲", "子", "港", "a", "é", "の"] {
            XCTAssertEqual(v.simplified(c.unicodeScalars.first!), c.unicodeScalars.first!, c)
        }
    }

    func testSampleDataFindsTraditionalTitlesFromSimplifiedQueries() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleData/appData.json")
        let app = try AppDataReader.read([UInt8](Data(contentsOf: url)), source: url.path).get()
        let index = SearchIndex(app: app, variants: ChineseScripts.variants)
        func hits(_ q: String, _ kind: SearchKind) -> [SearchTarget] {
            index.results(index.matches(index.fold(q)), cap: 50).hits(kind).map(\.target)
        }
        let family = try XCTUnwrap(app.tours.first { $0.translations.values.contains { $0.title == "親子導覽：尋找動物" } })
        XCTAssertEqual(hits("亲子", .tour), [.tour(family.id)])
        XCTAssertEqual(hits("親子", .tour), [.tour(family.id)])
        XCTAssertEqual(hits("亲子导览", .tour), [.tour(family.id)])
        let portraits = Set(app.artworks.values.filter { $0.title.hasPrefix("Portrait of the Harbourmaster") }.map { SearchTarget.artwork($0.id) })
        XCTAssertEqual(portraits.count, 2)
        XCTAssertEqual(Set(hits("港务长", .artwork)), portraits)
        XCTAssertEqual(Set(hits("港務長", .artwork)), portraits)
        XCTAssertFalse(hits("洗手間", .place).isEmpty)
        XCTAssertFalse(hits("洗手间", .place).isEmpty)
    }

    /// The runner asks for the table only when the museum has Chinese text (issue 14: the
    /// table costs ICU's data in memory), and such a museum's index folds with it exactly as
    /// one given the table outright.
    func testTheTableIsAskedForOnlyWhenTheMuseumHasChineseText() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleData/appData.json")
        let sample = try AppDataReader.read([UInt8](Data(contentsOf: url)), source: url.path).get()
        var asked = 0
        let chinese = SearchIndex(app: sample, variantsWhenChinese: {
            asked += 1
            return ChineseScripts.variants
        })
        XCTAssertEqual(asked, 1, "SampleData has Chinese tours")
        XCTAssertNotNil(chinese.variants)
        let given = SearchIndex(app: sample, variants: ChineseScripts.variants)
        for q in ["親子", "亲子导览", "港務長", "harbour"] {
            XCTAssertEqual(chinese.results(chinese.matches(chinese.fold(q)), cap: 50), given.results(given.matches(given.fold(q)), cap: 50), q)
        }
        let english = """
            {"galleries": {"1": {"nid": "1", "title": "Gallery 1", "floor": "1", "location": "41.88,-87.62"}},
             "objects": {"7": {"nid": "7", "title": "Water Lilies (Nymphéas)", "gallery_location": "Gallery 1"}},
             "tours": [{"nid": 1, "title": "Monet ＆ friends — 한국어", "tour_stops": [{"object": "7", "sort": 0}]}]}
            """
        let app = try AppDataReader.read(Array(english.utf8), source: "/m/appData.json").get()
        let plain = SearchIndex(app: app, variantsWhenChinese: {
            asked += 1
            return ChineseScripts.variants
        })
        XCTAssertEqual(asked, 1, "no Chinese characters (Korean, full-width and accented ones are not): not asked")
        XCTAssertNil(plain.variants)
        XCTAssertFalse(plain.results(plain.matches(plain.fold("nympheas")), cap: 5).hits(.artwork).isEmpty)
    }

    /// Drawing in the reader's script (issue 16 #2): Simplified content for a Traditional reader
    /// and the other way round, characters with more than one Traditional form left as written,
    /// and our own interface tables untouched in their own language. (A character with one
    /// Traditional form that is also used as itself follows ICU: 皇后 comes out 皇後; see
    /// DECISIONS.)
    func testContentIsDrawnInTheReadersScript() throws {
        let t = ChineseScripts.scripts
        XCTAssertGreaterThan(t.traditionalCount, 1500, "a whole table")
        XCTAssertEqual(t.convert("亲子导览：寻找动物", for: .traditionalChinese), "親子導覽：尋找動物")
        XCTAssertEqual(t.convert("港务长肖像", for: .traditionalChinese), "港務長肖像")
        XCTAssertEqual(t.convert("親子導覽：尋找動物", for: .chinese), "亲子导览：寻找动物")
        // 发 (發 and 髮), 干 (乾, 幹): more than one Traditional form, not guessed.
        XCTAssertEqual(t.convert("头发", for: .traditionalChinese), "頭发")
        XCTAssertEqual(t.convert("干", for: .traditionalChinese), "干")
        XCTAssertEqual(t.convert("Harbour 港口 2026", for: .english), "Harbour 港口 2026")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for (file, lang) in [("zh-Hant.json", Language.traditionalChinese), ("zh.json", .chinese)] {
            let json = try JSONParser.parse([UInt8](Data(contentsOf: root.appendingPathComponent("Resources/strings/" + file))), maxDepth: 4)
            for (key, value) in json.objectValue?.fields ?? [] {
                guard let text = value.stringValue else { continue }
                XCTAssertEqual(t.convert(text, for: lang), text, "\(file) \(key) would be drawn differently")
            }
        }
    }
}

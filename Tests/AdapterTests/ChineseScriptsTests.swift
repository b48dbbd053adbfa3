import DocentCore
import Foundation
import StringFiles
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

    /// Drawing in the reader's script (issue 16 #2, issue 33 #1) with OpenCC: Simplified
    /// content converted by words for a Traditional reader, text already Traditional left as
    /// written (the cases from keypad 201, 306 and Home), and our own interface tables
    /// untouched in their own language.
    func testContentIsDrawnInTheReadersScript() throws {
        let (opened, problem) = OpenCCScripts.open()
        let t = try XCTUnwrap(opened, problem ?? "")
        XCTAssertEqual(t.convert("天空卻彷彿", for: .traditionalChinese), "天空卻彷彿")
        XCTAssertEqual(t.convert("赫特勞德·范·阿塞爾", for: .traditionalChinese), "赫特勞德·范·阿塞爾")
        XCTAssertEqual(t.convert("本季新推出：追随光线", for: .traditionalChinese), "本季新推出：追隨光線")
        XCTAssertEqual(t.convert("亲子导览：寻找动物", for: .traditionalChinese), "親子導覽：尋找動物")
        XCTAssertEqual(t.convert("港务长肖像", for: .traditionalChinese), "港務長肖像")
        // By words: 发 is 髮 in 头发 and 發 in 出发; 后 is 后 in 皇后 and 後 in 以后.
        XCTAssertEqual(t.convert("头发", for: .traditionalChinese), "頭髮")
        XCTAssertEqual(t.convert("出发", for: .traditionalChinese), "出發")
        XCTAssertEqual(t.convert("皇后的画像", for: .traditionalChinese), "皇后的畫像")
        XCTAssertEqual(t.convert("以后再来", for: .traditionalChinese), "以後再來")
        // The other way round for a Simplified reader; Simplified left alone.
        XCTAssertEqual(t.convert("親子導覽：尋找動物", for: .chinese), "亲子导览：寻找动物")
        XCTAssertEqual(t.convert("头发", for: .chinese), "头发")
        XCTAssertEqual(t.convert("Harbour 港口 2026", for: .english), "Harbour 港口 2026")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let tables = try StringFiles.load(root.appendingPathComponent("Resources/strings")).get()
        for (file, lang) in [("zh-Hant", Language.traditionalChinese), ("zh", .chinese)] {
            XCTAssertGreaterThan(tables[file]?.count ?? 0, 300, "the shared and the features' tables are read")
            for (key, text) in tables[file] ?? [:] {
                XCTAssertEqual(t.convert(text, for: lang), text, "\(file) \(key) would be drawn differently")
            }
        }
    }

    /// The characters OpenCC lists among their own candidates (范 → 範 范) are read from its
    /// dictionaries by a script; the table in the sources is what the script gives on this
    /// machine now.
    func testTheOwnCandidatesAreOpenCCsOnThisMachine() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let fresh = NSTemporaryDirectory() + "opencc-own-\(UUID().uuidString).swift"
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        let result = AudioTestSupport.run("/bin/bash", [root.appendingPathComponent("scripts/gen-opencc-own-candidates.sh").path, fresh], timeout: 60)
        XCTAssertEqual(result.status, 0, result.output)
        let kept = try String(contentsOf: root.appendingPathComponent("Sources/Features/Scripts/ScriptConversion/OpenCCOwnCandidates.swift"), encoding: .utf8)
        XCTAssertEqual(try String(contentsOfFile: fresh, encoding: .utf8), kept)
        XCTAssertTrue(kept.contains("范"), "范 is written as itself in Traditional text too")
    }
}

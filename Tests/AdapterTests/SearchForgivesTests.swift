import Foundation
import ScriptConversion
import SnowballStemming
import XCTest

@testable import DocentCore

/// Search that forgives (issue 31), with the real Snowball stemmers and ICU's Chinese table:
/// plurals and other endings, typos as Meilisearch and Typesense count them, British and
/// American spellings, every language's titles and transcripts, Korean syllable prefixes,
/// "did you mean", and the ranking between them: as typed, then by stem, then with a typo.
final class SearchForgivesTests: XCTestCase {
    static let stemmer = SnowballStemmer()

    static let sample: AppData = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleData/appData.json")
        guard let data = FileManager.default.contents(atPath: url.path), case .success(let app) = AppDataReader.read([UInt8](data), source: url.path) else {
            fatalError("SampleData does not read")
        }
        return app
    }()

    static let sampleIndex = SearchIndex(app: sample, variants: ChineseScripts.variants, stemmer: stemmer)

    func hits(_ q: String, _ index: SearchIndex = SearchForgivesTests.sampleIndex, _ kind: SearchKind = .artwork) -> [SearchHit] {
        index.results(index.matches(index.fold(q)), cap: 50).hits(kind)
    }

    func title(_ hit: SearchHit) -> String {
        if case .artwork(let id) = hit.target { return Self.sample.artworks[id]?.title ?? "?" }
        if case .tour(let id) = hit.target { return Self.sample.tour(id)?.english.title ?? "?" }
        return "\(hit.target)"
    }

    // MARK: The stemmer itself

    func testSnowballStemsTheMuseumsLanguagesAndNotChineseOrKorean() {
        let s = Self.stemmer
        func stem(_ w: String, _ l: Language) -> String? { s.stem(Array(w.utf8)[...], l).map { String(decoding: $0, as: UTF8.self) } }
        XCTAssertEqual(stem("teapots", .english), "teapot")
        XCTAssertEqual(stem("harbourmasters", .english), stem("harbourmaster", .english))
        XCTAssertEqual(stem("lighthouses", .english), stem("lighthouse", .english))
        XCTAssertEqual(stem("teteras", .spanish), stem("tetera", .spanish), "Spanish is stemmed")
        XCTAssertEqual(stem("tisserands", .french), stem("tisserand", .french))
        XCTAssertTrue(s.stems(.english) && s.stems(.spanish) && s.stems(.french))
        XCTAssertFalse(s.stems(.chinese))
        XCTAssertFalse(s.stems(.traditionalChinese))
        XCTAssertFalse(s.stems(.korean))
        XCTAssertNil(stem("항구에서", .korean))
        XCTAssertNil(stem("words", Language(code: "xx")), "a language Snowball does not have: no stem, no crash")
    }

    // MARK: The queries, on SampleData

    /// Each query of the issue, the work it must find, how (its tier), and the language that
    /// matched when it is not what the result shows.
    func testTheQueriesThatFoundNothingFindTheirWorks() {
        let table: [(query: String, title: String, tier: UInt8, language: Language?)] = [
            ("teapots", "Teapot in the Form of a Fish", SearchTier.stemName, nil),
            ("lighthouses", "Sampler with Lighthouse", SearchTier.stemName, nil),
            ("lighthose", "Sampler with Lighthouse", SearchTier.typoName, nil),
            ("harbourmasters", "Portrait of the Harbourmaster", SearchTier.stemName, nil),
            ("harbourmaser", "Portrait of the Harbourmaster", SearchTier.typoName, nil),
            ("portriat", "Portrait of the Harbourmaster", SearchTier.typoName, nil),
            ("harbor", "Harbour at First Light", SearchTier.stemName, nil),
            ("theater", "Model for a Floating Theatre", SearchTier.stemName, nil),
            ("washerwoman", "Washerwomen at the River", SearchTier.typoName, nil),
            ("tapiz", "The Hunt of the White Stag", SearchTier.words, .spanish),
            ("tapiz", "Garden of the Months", SearchTier.words, .spanish),
            // Spelling variants under five letters (no typo allowed there): the table.
            ("grey", "Gray Field No. 7", SearchTier.stemName, nil),
            ("gray", "Gray Field No. 7", SearchTier.titlePrefix, nil),
        ]
        for c in table {
            let found = hits(c.query)
            guard let hit = found.first(where: { title($0) == c.title }) else {
                XCTFail("\(c.query): \(c.title) not found in \(found.map(title))")
                continue
            }
            XCTAssertEqual(hit.tier, c.tier, "\(c.query) → \(c.title)")
            XCTAssertEqual(hit.language, c.language, "\(c.query) → \(c.title)")
        }
        // Before the change every one of these answered "Nothing matches".
        let plain = SearchIndex(documents: SearchIndex.documents(app: Self.sample), variants: ChineseScripts.variants, words: false)
        for q in ["teapots", "lighthouses", "lighthose", "harbourmasters", "harbourmaser", "portriat", "harbor", "theater", "washerwoman", "tapiz"] {
            XCTAssertEqual(plain.matches(plain.fold(q)).entries, [], q)
        }
    }

    func testAPhraseTypedWithAPluralAndATypoStillFindsTheWork() {
        XCTAssertEqual(hits("portriat harbourmasters").map(title).first, "Portrait of the Harbourmaster")
        XCTAssertEqual(hits("teapots fish").map(title), ["Teapot in the Form of a Fish"])
        // Every word must still be there, somehow.
        XCTAssertEqual(hits("teapots zebra"), [])
    }

    // MARK: The rules

    func testTyposFollowTheAnchorsRules() {
        func finds(_ q: String, _ t: String) -> Bool { hits(q).contains { title($0) == t } }
        // Never on the first letter.
        XCTAssertFalse(finds("bortrait", "Portrait of the Harbourmaster"))
        XCTAssertTrue(finds("pirtrait", "Portrait of the Harbourmaster"), "the second letter may be wrong")
        // Under five letters, none: "moom" is not Moon Jar.
        XCTAssertFalse(finds("moom", "Moon Jar"))
        // Five to eight letters: one edit (an insertion here), not two.
        XCTAssertTrue(finds("lemns", "Still Life with Lemons and a Lute"))
        XCTAssertFalse(finds("lenoms", "Still Life with Lemons and a Lute"), "two substitutions in six letters")
        // A transposition is one edit.
        XCTAssertTrue(finds("lmeons", "Still Life with Lemons and a Lute"))
        // Nine letters and more: two edits, not three.
        XCTAssertTrue(finds("lihgthose", "Sampler with Lighthouse"), "a transposition and a deletion")
        XCTAssertFalse(finds("lihgthosx", "Sampler with Lighthouse"), "three edits")
        // Numbers are never fuzzy: 18712 is not 1871 (Mara Velden's birth year), 3011 not 301.
        XCTAssertEqual(hits("18712"), [])
        XCTAssertEqual(hits("3011"), [])
        XCTAssertEqual(hits("3o1").count, 0, "a digit in the word: no typo")
    }

    /// As typed (exact and prefix) before stems before typos; names before other texts within
    /// each; a word found only in a transcript after every way it is found in a name as typed.
    func testRankingAsTypedThenStemThenTypo() {
        let docs = [
            SearchDocument(.artwork(1), primary: ["Teapoys on a Shelf"]),
            SearchDocument(.artwork(2), primary: ["Teapot"]),
            SearchDocument(.artwork(3), primary: ["Teapots"]),
            SearchDocument(.artwork(4), primary: ["Kettle"], transcripts: [AudioVersion(language: .english, url: "", transcript: "Two teapots stand beside it.", trackTitle: "")]),
            SearchDocument(.artwork(5), primary: ["Cup"], transcripts: [AudioVersion(language: .english, url: "", transcript: "Made like a teapot.", trackTitle: "")]),
            SearchDocument(.artwork(6), primary: ["Bowl"], transcripts: [AudioVersion(language: .english, url: "", transcript: "Not teapoys at all.", trackTitle: "")]),
            SearchDocument(.artwork(7), primary: ["Jug"], secondary: ["Teapots"]),
        ]
        let index = SearchIndex(documents: docs, stemmer: Self.stemmer)
        let found = hits("teapots", index)
        XCTAssertEqual(found.map(\.target), [.artwork(3), .artwork(7), .artwork(4), .artwork(2), .artwork(5), .artwork(1), .artwork(6)])
        XCTAssertEqual(
            found.map(\.tier), [SearchTier.exactTitle, SearchTier.exactOther, SearchTier.words, SearchTier.stemName, SearchTier.stem, SearchTier.typoName, SearchTier.typo])
    }

    func testEveryLanguageTheMuseumWroteIn() {
        let docs = [
            SearchDocument(
                .artwork(1), primary: ["Harbour View", "Vista del puerto"], primaryLanguages: [nil, .spanish],
                transcripts: [
                    AudioVersion(language: .french, url: "", transcript: "Le tisserand du port.", trackTitle: ""),
                    AudioVersion(language: .korean, url: "", transcript: "항구에서 본 등대입니다.", trackTitle: ""),
                    AudioVersion(language: .chinese, url: "", transcript: "港口的燈籠在霧中。", trackTitle: ""),
                ]),
            SearchDocument(.artwork(2), primary: ["Quiet Room"]),
        ]
        let index = SearchIndex(documents: docs, variants: ChineseScripts.variants, stemmer: Self.stemmer)
        func first(_ q: String) -> SearchHit? { hits(q, index).first }
        // A translated title: said to be Spanish (the result shows the English title).
        XCTAssertEqual(first("puerto")?.language, .spanish)
        XCTAssertEqual(first("harbour")?.language, nil, "what the row shows")
        // French, by its stem.
        XCTAssertEqual(first("tisserands")?.target, .artwork(1))
        XCTAssertEqual(first("tisserands")?.tier, SearchTier.stem)
        XCTAssertEqual(first("tisserands")?.language, .french)
        // Korean: the noun finds the word with its particle (syllable prefixes), any word.
        XCTAssertEqual(first("항구")?.target, .artwork(1))
        XCTAssertEqual(first("항구")?.language, .korean)
        XCTAssertEqual(first("등대")?.target, .artwork(1))
        XCTAssertEqual(hits("항구를", index), [], "not stemmed: another particle is another word")
        // Chinese, character by character, in either script.
        XCTAssertEqual(first("燈籠")?.target, .artwork(1))
        XCTAssertEqual(first("灯笼")?.target, .artwork(1))
        XCTAssertEqual(first("灯笼")?.language, .chinese)
    }

    // MARK: Did you mean

    func testDidYouMeanOffersTheClosestIndexedWordThatMatches() {
        let index = Self.sampleIndex
        XCTAssertEqual(index.matches(index.fold("xarbour")).entries, [], "a first letter wrong is not a typo")
        XCTAssertEqual(index.suggestion(for: index.fold("xarbour")), "harbour")
        XCTAssertEqual(index.suggestion(for: index.fold("teapot xish")), "teapot fish")
        XCTAssertNil(index.suggestion(for: index.fold("zzqx")), "nothing near")
        XCTAssertNil(index.suggestion(for: index.fold("harbour")), "it matches: nothing to suggest")
        if let s = index.suggestion(for: index.fold("mxon jar")) {
            XCTAssertFalse(index.matches(index.fold(s)).entries.isEmpty, "a suggestion always finds something")
        }
    }

    // MARK: A generated museum

    /// A museum of 3,000 works built from word lists (names, titles and Spanish and French
    /// transcripts): the index's word matches agree with a plain scan of every document that
    /// applies the rules one by one.
    func testGeneratedMuseumAgreesWithAPlainScan() {
        let en = ["harbour", "lantern", "teapot", "portrait", "weaver", "morning", "storm", "fisherman", "mother", "garden", "lighthouse", "window", "heron", "blue"]
        let es = ["puerto", "farol", "tetera", "retrato", "tejedor", "mañana", "tormenta", "pescador", "madre", "jardín", "faro", "ventana", "tapiz", "tapices"]
        let fr = ["port", "lanterne", "théière", "portrait", "tisserand", "matin", "tempête", "pêcheur", "mère", "jardin", "phare", "fenêtre", "tapisseries"]
        var seed: UInt64 = 31
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33) % n
        }
        func pick(_ words: [String], _ n: Int) -> [String] { (0..<n).map { _ in words[next(words.count)] } }
        func plural(_ w: String) -> String { next(3) == 0 ? w + "s" : w }
        var docs: [SearchDocument] = []
        for i in 0..<3000 {
            let title = pick(en, 1 + next(3)).map(plural).joined(separator: " ").capitalized
            let transcripts = [
                AudioVersion(language: .spanish, url: "", transcript: pick(es, 4).joined(separator: " "), trackTitle: ""),
                AudioVersion(language: .french, url: "", transcript: pick(fr, 4).joined(separator: " "), trackTitle: ""),
            ]
            docs.append(SearchDocument(.artwork(i), primary: [title, String(100 + i)], secondary: ["Artist \(next(50))"], transcripts: transcripts))
        }
        let index = SearchIndex(documents: docs, stemmer: Self.stemmer)
        let plain = SearchIndex(documents: docs, words: false)
        // The rules, applied to each document's words one by one.
        struct Word {
            var bytes: [UInt8]
            var language: Language
            var inName: Bool
        }
        func words(_ text: String, _ l: Language, _ inName: Bool) -> [Word] {
            var out: [Word] = []
            SearchWords.tokens(SearchText.fold(text)) { out.append(Word(bytes: Array($0), language: l, inName: inName)) }
            return out
        }
        let documentWords: [[Word]] = docs.map { d in
            d.primary.flatMap { words($0, .english, true) } + d.secondary.flatMap { words($0, .english, false) }
                + d.transcripts.flatMap { words($0.transcript, $0.language, false) }
        }
        var stems: [String: [UInt8]] = [:]
        func stem(_ w: [UInt8], _ l: Language) -> [UInt8]? {
            let key = l.code + ":" + String(decoding: w, as: UTF8.self)
            if let s = stems[key] { return s }
            let s = Self.stemmer.stem(w[...], l)
            stems[key] = s
            return s
        }
        func kind(_ q: [UInt8], last: Bool, in w: Word) -> SearchWords.Kind? {
            if w.bytes == q || (last && q.count >= 3 && w.bytes.starts(with: q)) { return .typed }
            let info = SearchWords.describe(q[...])
            guard info.flags == 0, info.letters >= 3 else { return nil }
            let wInfo = SearchWords.describe(w.bytes[...])
            guard wInfo.flags == 0 else { return nil }
            if wInfo.letters >= 3, let a = stem(q, w.language), a == stem(w.bytes, w.language) { return .stem }
            let k = SearchWords.typos(letters: info.letters)
            var r0: [Int] = [], r1: [Int] = [], r2: [Int] = []
            if k > 0, w.bytes.first == q.first,
                SearchWords.distance(SearchWords.scalars(q[...]), SearchWords.scalars(w.bytes[...]), atMost: k, &r0, &r1, &r2) <= k
            {
                return .typo
            }
            return nil
        }
        func expectedTier(_ ws: [Word], _ query: [[UInt8]]) -> UInt8? {
            var allTyped = true, allStemName = true, allStem = true, allName = true
            for (i, q) in query.enumerated() {
                let last = i == query.count - 1
                var bestName: SearchWords.Kind?
                var best: SearchWords.Kind?
                for w in ws {
                    guard let k = kind(q, last: last, in: w) else { continue }
                    best = min(best ?? k, k)
                    if w.inName { bestName = min(bestName ?? k, k) }
                }
                guard let b = best else { return nil }
                if b != .typed { allTyped = false }
                if b > .stem { allStem = false }
                if (bestName ?? .typo) > .stem || bestName == nil { allStemName = false }
                if bestName == nil { allName = false }
            }
            if allTyped { return SearchTier.words }
            if allStemName { return SearchTier.stemName }
            if allStem { return SearchTier.stem }
            return allName ? SearchTier.typoName : SearchTier.typo
        }
        let numbers = Dictionary(uniqueKeysWithValues: plain.targets.enumerated().map { ($1, $0) })
        let queries = ["harbours", "lanterns", "portriat", "fishermen", "fisherman", "lighthose", "tetera", "teteras", "tapiz", "tisserands", "tapisserie", "morning garden", "weavers tapices", "stomr", "herons", "windwo", "102", "1020"]
        for query in queries {
            let f = SearchText.fold(query)
            var qwords: [[UInt8]] = []
            SearchWords.tokens(f) { qwords.append(Array($0)) }
            let substring = Dictionary(uniqueKeysWithValues: plain.matches(f).entries.map { (Int($0 >> SearchIndex.tierBits), UInt8($0 & 15)) })
            var expected: [SearchTarget: UInt8] = [:]
            for (i, d) in docs.enumerated() {
                let n = numbers[d.target]!
                let w = SearchIndex.wantsWords(f) ? expectedTier(documentWords[i], qwords) : nil
                if let t = [substring[n], w].compactMap({ $0 }).min() { expected[d.target] = t }
            }
            var got: [SearchTarget: UInt8] = [:]
            for e in index.matches(f).entries { got[index.targets[Int(e >> SearchIndex.tierBits)]] = UInt8(e & 15) }
            XCTAssertEqual(got.count, expected.count, query)
            XCTAssertEqual(got, expected, query)
            XCTAssertFalse(got.isEmpty, "\(query) finds something")
            // Typed letter by letter, refining the last matches, the index comes to the same.
            var m = SearchMatches()
            for k in 1...f.count { m = index.matches(Array(f.prefix(k)), refining: m) }
            XCTAssertEqual(m.entries, index.matches(f).entries, query)
        }
    }
}

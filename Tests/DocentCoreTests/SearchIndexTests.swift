import Foundation
import XCTest

@testable import DocentCore
import TwoCores

/// Matching and ranking of the local search index: folding, prefixes, substrings, CJK,
/// keypad numbers, amenity names in every UI language, and the fast paths agreeing with a
/// plain scan.
final class SearchIndexTests: XCTestCase {
    static let docs: [SearchDocument] = [
        SearchDocument(.artwork(1), primary: ["Café on the Quay"], secondary: ["Ines Carvalhal", "Portuguese, 1880–1951", "Gallery 10", "101"]),
        SearchDocument(.artwork(2), primary: ["Harbour at First Light"], secondary: ["Mara Velden", "Dutch, 1871–1934", "Gallery 101", "101"]),
        SearchDocument(.artwork(3), primary: ["The Lighthouse Keeper's Daughter"], secondary: ["Mara Velden", "Gallery 101", "1010"]),
        SearchDocument(.artwork(4), primary: ["Harbour"], secondary: ["Unknown maker", "Gallery 11", "102"]),
        SearchDocument(.artwork(5), primary: ["Harbour Crane"], secondary: ["Tomasz Orlik", "Gallery 12"]),
        SearchDocument(.artwork(6), primary: ["Portrait of the Harbourmaster"], secondary: ["Hollis Brandt", "Gallery 12"]),
        SearchDocument(.artwork(7), primary: ["Niño con perro"], secondary: ["Basilio Ferrante", "Gallery 12"]),
        SearchDocument(.artwork(8), primary: ["A"], secondary: ["Gallery 12"]),
        SearchDocument(.tour(500), primary: ["Highlights in an Hour", "一小時精華", "Lo esencial en una hora"], secondary: ["900"], sortTitle: "Highlights in an Hour"),
        SearchDocument(.gallery(1), primary: ["Gallery 101", "101"]),
        SearchDocument(.annotation(77), primary: AmenityNames.allNames(.womensRoom), sortTitle: "Women's Room"),
        SearchDocument(.annotation(78), primary: AmenityNames.allNames(.elevator), sortTitle: "Elevator"),
    ]

    func index(grams: Bool? = nil) -> SearchIndex { SearchIndex(documents: Self.docs, grams: grams) }

    func search(_ q: String, _ index: SearchIndex? = nil) -> SearchResults {
        let i = index ?? self.index()
        return i.results(i.matches(SearchText.fold(q)), cap: 50)
    }

    func targets(_ q: String, _ kind: SearchKind, _ index: SearchIndex? = nil) -> [SearchTarget] {
        search(q, index).hits(kind).map(\.target)
    }

    // MARK: Folding

    func testFoldingIgnoresCaseAccentsWidthAndQuotes() {
        XCTAssertEqual(SearchText.foldedString("  Baños   PÚBLICOS "), "banos publicos")
        XCTAssertEqual(SearchText.foldedString("ＡＢＣ１２"), "abc12")
        XCTAssertEqual(SearchText.foldedString("Keeper’s — “Daughter”"), "keeper's - \"daughter\"")
        XCTAssertEqual(SearchText.foldedString("洗手间"), "洗手间")
        XCTAssertEqual(SearchText.fold("Harbour"), Array("harbour".utf8))
    }

    // MARK: Matching

    func testAccentsAndCaseMatchBothWays() {
        XCTAssertEqual(targets("cafe", .artwork), [.artwork(1)])
        XCTAssertEqual(targets("CAFÉ ON", .artwork), [.artwork(1)])
        XCTAssertEqual(targets("nino", .artwork), [.artwork(7)])
        XCTAssertEqual(targets("Niño", .artwork), [.artwork(7)])
    }

    func testAmenitiesAreFoundInEveryUILanguage() {
        for q in ["restroom", "baños", "banos", "aseos", "洗手间", "洗手間", "women", "toilet"] {
            XCTAssertEqual(targets(q, .place), [.annotation(77)], q)
        }
        for q in ["elevator", "lift", "ascensor", "电梯", "電梯"] {
            XCTAssertEqual(targets(q, .place), [.annotation(78)], q)
        }
    }

    func testChineseSubstringsMatch() {
        // Every CJK character starts a "word": a substring is a word prefix.
        let hits = search("精華").hits(.tour)
        XCTAssertEqual(hits.map(\.target), [.tour(500)])
        XCTAssertEqual(hits.first?.tier, SearchTier.titleWordPrefix)
        XCTAssertEqual(targets("小時", .tour), [.tour(500)])
        XCTAssertEqual(targets("一", .tour), [.tour(500)])
        XCTAssertEqual(targets("手", .place), [.annotation(77)])
        XCTAssertEqual(targets("精华", .tour), [], "simplified does not match traditional tour titles")
    }

    /// A few pairs of the real table (the adapter's tests check the table itself).
    static let variants = ChineseVariants(simplified: ["時": "时", "華": "华", "間": "间", "親": "亲", "導": "导"])

    func testTraditionalAndSimplifiedMatchAsOneWithAVariantsTable() {
        let index = SearchIndex(documents: Self.docs, variants: Self.variants)
        func tours(_ q: String) -> [SearchHit] { index.results(index.matches(index.fold(q)), cap: 50).hits(.tour) }
        for q in ["精华", "精華", "一小时", "小時精华"] {
            XCTAssertEqual(tours(q).map(\.target), [.tour(500)], q)
        }
        XCTAssertEqual(tours("精华").first?.tier, SearchTier.titleWordPrefix, "ranked as the same text")
        XCTAssertEqual(index.results(index.matches(index.fold("洗手間")), cap: 5).hits(.place).map(\.target), [.annotation(77)])
        XCTAssertEqual(SearchText.foldedString("親子導覽", variants: Self.variants), "亲子导覽", "only the table's characters change")
        // The table changes what is compared, not how: grams, refinement and a scan agree.
        let scan = SearchIndex(documents: Self.docs, grams: false, variants: Self.variants)
        let grams = SearchIndex(documents: Self.docs, grams: true, variants: Self.variants)
        for q in ["精", "精华", "一小时精華", "时", "時 hour"] {
            let f = grams.fold(q)
            XCTAssertEqual(grams.matches(f).entries, scan.matches(f).entries, q)
            var previous = SearchMatches()
            for n in 1...f.count { previous = grams.matches(Array(f.prefix(n)), refining: previous) }
            XCTAssertEqual(previous.entries, grams.matches(f).entries, q)
        }
    }

    func testToursMatchInEveryLanguage() {
        XCTAssertEqual(targets("esencial", .tour), [.tour(500)])
        XCTAssertEqual(targets("highlights", .tour), [.tour(500)])
        XCTAssertEqual(search("900").hits(.tour).first?.tier, SearchTier.exactOther)
    }

    func testSharedKeypadNumbersGiveEveryArtworkThenLongerNumbers() {
        let hits = search("101").hits(.artwork)
        // Both artworks labelled 101 are exact matches (shorter title first), then 1010, then
        // the artworks in Gallery 101 by prefix.
        XCTAssertEqual(hits.map(\.target), [.artwork(1), .artwork(2), .artwork(3)])
        XCTAssertEqual(hits.map(\.tier), [SearchTier.exactOther, SearchTier.exactOther, SearchTier.otherPrefix])
        // The gallery named 101 is an exact title match in "On the map".
        XCTAssertEqual(search("101").hits(.place).map(\.target), [.gallery(1)])
        XCTAssertEqual(search("101").hits(.place).first?.tier, SearchTier.exactTitle)
    }

    func testRankingExactThenPrefixThenWordThenSubstringShorterFirst() {
        let hits = search("harbour").hits(.artwork)
        XCTAssertEqual(hits.map(\.target), [.artwork(4), .artwork(5), .artwork(2), .artwork(6)])
        XCTAssertEqual(hits.map(\.tier), [SearchTier.exactTitle, SearchTier.titlePrefix, SearchTier.titlePrefix, SearchTier.titleWordPrefix])
        // Inside a word: a substring.
        XCTAssertEqual(search("bour").hits(.artwork).first?.tier, SearchTier.titleSubstring)
        // "velden": artist matches come after title matches of any kind, shorter title first.
        XCTAssertEqual(targets("velden", .artwork), [.artwork(2), .artwork(3)])
    }

    func testSeveralWordsMatchAsAPhraseFirstThenAllWordsAnywhere() {
        // "harbour light": no title has the phrase; Harbour at First Light has both words.
        let hits = search("harbour light").hits(.artwork)
        XCTAssertEqual(hits.map(\.target), [.artwork(2)])
        XCTAssertEqual(hits.map(\.tier), [SearchTier.allWords])
        // Words may come from different texts and in any order: title and artist.
        XCTAssertEqual(targets("velden harbour", .artwork), [.artwork(2)])
        XCTAssertEqual(targets("keeper mara", .artwork), [.artwork(3)])
        // A phrase match ranks above an all-words match.
        let phrase = search("mara v").hits(.artwork)
        XCTAssertEqual(phrase.map(\.tier), [SearchTier.otherPrefix, SearchTier.otherPrefix])
        XCTAssertEqual(search("harbour crane").hits(.artwork).map(\.target), [.artwork(5)])
        XCTAssertEqual(search("crane harbour").hits(.artwork).map(\.tier), [SearchTier.allWords])
        // Every word must be there.
        XCTAssertEqual(search("harbour zebra").total, 0)
        // Across languages of one tour (its titles are all primary texts).
        XCTAssertEqual(targets("hour 精華", .tour), [.tour(500)])
        XCTAssertEqual(targets("hour 精華", .tour, index(grams: false)), [.tour(500)])
    }

    func testOneTextMatcherAgreesWithTheIndex() {
        let texts = [SearchText.fold("Harbour at First Light"), SearchText.fold("Mara Velden")]
        XCTAssertTrue(SearchText.matches(texts, SearchText.fold("first light")))
        XCTAssertTrue(SearchText.matches(texts, SearchText.fold("light velden")))
        XCTAssertFalse(SearchText.matches(texts, SearchText.fold("light zebra")))
        XCTAssertFalse(SearchText.matches(texts, SearchText.fold("zebra")))
        XCTAssertEqual(SearchText.words(SearchText.fold("  a  bc ")).map { Array($0) }, [[0x61], [0x62, 0x63]])
    }

    func testEmptyQueryMatchesNothing() {
        let i = index()
        XCTAssertEqual(i.matches([]).entries, [])
        XCTAssertEqual(search("   ").total, 0)
    }

    func testOneLetterQueries() {
        let r = search("a")
        // Exact "A" first, then titles starting with a, then words starting with a, then the rest.
        let hits = r.hits(.artwork)
        XCTAssertEqual(hits.first?.target, .artwork(8))
        XCTAssertEqual(hits.first?.tier, SearchTier.exactTitle)
        XCTAssertEqual(hits.map(\.tier), hits.map(\.tier).sorted(), "tiers never go back up")
        XCTAssertEqual(hits[1].target, .artwork(2), "Harbour *a*t First Light: word prefix")
        // Every artwork contains an a somewhere.
        XCTAssertEqual(r.count(.artwork), 8)
        XCTAssertEqual(search("z").count(.artwork), 1, "Tomasz")
        XCTAssertEqual(search("q").hits(.artwork).map(\.target), [.artwork(1)])
    }

    func testCountsAreUncappedAndHitsCapped() {
        let i = index()
        let r = i.results(i.matches(SearchText.fold("a")), cap: 2)
        XCTAssertEqual(r.hits(.artwork).count, 2)
        XCTAssertEqual(r.count(.artwork), 8)
    }

    // MARK: Fast paths agree with a plain scan

    /// Grams, refinement of the previous matches and a full scan give the same matches.
    func testGramsRefinementAndScanAgree() {
        let withGrams = index(grams: true)
        let scan = index(grams: false)
        let queries = ["h", "ha", "har", "harb", "harbour", "harbour ", "a", "ar", "101", "10", "1", "洗", "洗手", "洗手间", "ve", "vel", "mara v", "bañ", "ba", "b", "zzz", "'s", "s d", "一小", "el", "harbour light", "light harbour", "v m", "hour 精華", "a b c"]
        for q in queries {
            let f = SearchText.fold(q)
            let fresh = withGrams.matches(f)
            XCTAssertEqual(fresh.entries, scan.matches(f).entries, "grams vs scan: \(q)")
            var previous = SearchMatches()
            for n in 1...max(1, f.count) {
                let prefix = Array(f.prefix(n))
                previous = withGrams.matches(prefix, refining: previous)
            }
            XCTAssertEqual(previous.entries, fresh.entries, "refined vs fresh: \(q)")
        }
    }

    func testLargeGeneratedCorpusFastPathsAgree() {
        // Enough documents for grams by default, with repeated words and accents.
        let words = ["harbour", "light", "café", "niño", "港口", "光線", "gull", "rope", "anchor", "field"]
        var docs: [SearchDocument] = []
        var seed: UInt64 = 42
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33)
        }
        for i in 0..<300 {
            let title = (0..<(1 + next() % 4)).map { _ in words[next() % words.count] }.joined(separator: " ")
            docs.append(SearchDocument(.artwork(i), primary: [title], secondary: ["Gallery \(next() % 20)", String(100 + next() % 50)]))
        }
        let a = SearchIndex(documents: docs)
        let b = SearchIndex(documents: docs, grams: false)
        for q in ["h", "ha", "har", "harbour l", "cafe", "nin", "港", "港口光", "12", "123", "gallery 1", "o", "r ", "t c", "light harbour", "港口 gull", "g 1", "anchor rope field"] {
            let f = SearchText.fold(q)
            XCTAssertEqual(a.matches(f).entries, b.matches(f).entries, q)
            XCTAssertEqual(a.results(a.matches(f), cap: 5), b.results(b.matches(f), cap: 5), q)
        }
    }

    // MARK: Words: typos, variants, transcripts (the stemmer's part is in AdapterTests)

    func testEditDistanceCountsTranspositionsAsOneAndStopsEarly() {
        var a: [Int] = [], b: [Int] = [], c: [Int] = []
        func d(_ x: String, _ y: String, _ k: Int = 3) -> Int {
            SearchWords.distance(SearchWords.scalars(Array(x.utf8)[...]), SearchWords.scalars(Array(y.utf8)[...]), atMost: k, &a, &b, &c)
        }
        XCTAssertEqual(d("portriat", "portrait"), 1)
        XCTAssertEqual(d("lighthose", "lighthouse"), 1)
        XCTAssertEqual(d("theater", "theatre"), 1)
        XCTAssertEqual(d("lenoms", "lemons"), 2)
        XCTAssertEqual(d("café", "cafe"), 1, "letters, not bytes")
        XCTAssertEqual(d("abcdefgh", "zzzzzzzz", 1), 2, "more than k: k + 1")
        XCTAssertEqual(SearchWords.typos(letters: 4), 0)
        XCTAssertEqual(SearchWords.typos(letters: 5), 1)
        XCTAssertEqual(SearchWords.typos(letters: 8), 1)
        XCTAssertEqual(SearchWords.typos(letters: 9), 2)
    }

    func testWordsOfATextCJKOneCharacterEachKoreanWhole() {
        var out: [String] = []
        SearchWords.tokens(SearchText.fold("The Keeper’s «Daughter» — 港口的燈 항구에서 1871–1934")) { out.append(String(decoding: $0, as: UTF8.self)) }
        XCTAssertEqual(out, ["the", "keeper", "s", "daughter", "港", "口", "的", "燈", "항구에서", "1871", "1934"])
    }

    /// The builder reads a text a byte at a time with its own tables (ASCII runs at once, each
    /// other scalar folded once, a Chinese character's word number remembered): its words are
    /// the words of the folded text, however often a text and its characters come back.
    func testBuilderNumbersTheWordsOfTheFoldedText() {
        let texts = [
            "The Keeper’s «Daughter» — 港口的燈 항구에서 1871–1934",
            "CAFÉ naïve Ångström STRASSE Straße ﬁre Ｆｕｌｌ 時間 華 時 親導 x²",
            "café\r\nNAÏVE\t時間 — ångström 港口 the keeper",
            "",
            "  ...  ",
        ]
        var b = SearchWords.Builder(variants: Self.variants)
        var expected: [String] = []
        var pairs: [(word: String, doc: Int)] = []
        for (d, text) in (texts + texts.reversed()).enumerated() {
            b.startDocument(d)
            var seen = Set<String>()
            SearchWords.tokens(SearchText.fold(text, variants: Self.variants)) { w in
                let word = String(decoding: w, as: UTF8.self)
                if !expected.contains(word) { expected.append(word) }
                if seen.insert(word).inserted { pairs.append((word, d)) }
            }
            b.add(text, slot: 0, inName: false)
        }
        let numbered = (0..<b.wordCount).map { String(decoding: b.word($0), as: UTF8.self) }
        XCTAssertEqual(numbered, expected)
        XCTAssertEqual(b.pairs.all.map { Int($0.post >> 1) }, pairs.map(\.doc))
        XCTAssertEqual(b.pairs.all.map { numbered[Int(b.entryWord[Int($0.entry)])] }, pairs.map(\.word))
    }

    /// The builder's pairs, in chunks: every pair kept in order with its document and name
    /// flag across chunks, and another's pairs joined after a partly filled chunk, renumbered.
    func testPairsKeepTheirOrderAcrossChunksAndJoins() {
        var a = Pairs()
        var b = Pairs()
        var expected: [(entry: Int32, post: UInt32)] = []
        let n = Pairs.chunkSize + 5
        for i in 0..<n {
            let doc = Int32(i / 7)
            a.append(entry: Int32(i), doc: doc, inName: i % 3 == 0)
            expected.append((Int32(i), UInt32(doc) << 1 | (i % 3 == 0 ? 1 : 0)))
        }
        for i in 0..<(2 * Pairs.chunkSize + 3) {
            let doc = Int32(n / 7 + 1 + i / 1000)
            b.append(entry: Int32(i), doc: doc, inName: i % 5 == 0)
            expected.append((Int32(i) + 3, UInt32(doc) << 1 | (i % 5 == 0 ? 1 : 0)))
        }
        XCTAssertEqual(b.count, 2 * Pairs.chunkSize + 3)
        a.append(&b) { $0 + 3 }
        XCTAssertEqual(b.count, 0, "taken")
        let all = a.all
        XCTAssertEqual(a.count, expected.count)
        XCTAssertEqual(all.map(\.entry), expected.map(\.entry))
        XCTAssertEqual(all.map(\.post), expected.map(\.post))
        a.append(entry: 9, doc: Int32.max >> 1, inName: true)
        XCTAssertEqual(a.all.last?.entry, 9, "appending goes on after the joined pairs")
        XCTAssertEqual(a.all.last?.post, UInt32(Int32.max >> 1) << 1 | 1)
    }

    /// A frequent word becomes a bitmap while the words are added (the builder knows the
    /// documents' count), not only when the index is built: the index is the same, and the
    /// frequent words' pairs stop at the threshold; with two halves, a word that is frequent
    /// only in both together becomes one when the index is built.
    func testFrequentWordsBecomeBitmapsAsTheyAreAddedAndTheIndexIsTheSame() {
        let n = 128
        func text(_ d: Int) -> (name: String, body: String) {
            var body = "word\(d)"
            if d % 10 == 0 { body += " often" }
            if d % 14 == 3 { body += " crossing" }  // 9 documents: 9 × 16 > 128, 4 and 5 in the halves
            if d % 50 == 1 { body += " rare" }
            if d % 26 == 7 { body += " between" }  // 5 documents, in no name
            return ((d % 3 == 0 ? "often named" : "work") + (d % 26 == 8 ? " harbour" : ""), body)
        }
        func words(known: Bool, split: Int?) -> (SearchWords, Int) {
            var a = SearchWords.Builder(variants: nil)
            if known { a.documentCount = n }
            var b = SearchWords.Builder(variants: nil)
            if known { b.documentCount = n }
            for d in 0..<n {
                let t = text(d)
                if let split, d >= split {
                    b.startDocument(d)
                    b.add(t.name, slot: 0, inName: true)
                    b.add(t.body, slot: 0, inName: false)
                } else {
                    a.startDocument(d)
                    a.add(t.name, slot: 0, inName: true)
                    a.add(t.body, slot: 0, inName: false)
                }
            }
            if split != nil { a.append(&b) }
            let pairs = a.pairs.count
            return (a.build(count: n, stemmer: nil), pairs)
        }
        let (plain, plainPairs) = words(known: false, split: nil)
        let (onTheFly, fewerPairs) = words(known: true, split: nil)
        let (halves, _) = words(known: true, split: n / 2)
        XCTAssertGreaterThan(plain.bits.count, 0, "some words are bitmaps")
        XCTAssertLessThan(fewerPairs, plainPairs - 2 * (n / 3), "'often' and 'named' stopped adding pairs")
        for w in [onTheFly, halves] {
            Self.assertSameWords(plain, w)
        }
        func isBitmap(_ word: String) -> Bool? {
            guard let w = (0..<(plain.vocabStarts.count - 1)).first(where: { Array(plain.word($0)) == Array(word.utf8) }) else { return nil }
            return plain.entryBits[Int(plain.wordEntries[w])] >= 0
        }
        XCTAssertEqual(isBitmap("crossing"), true, "frequent only in both halves together")
        XCTAssertEqual(isBitmap("often"), true)
        XCTAssertEqual(isBitmap("rare"), false)
        // A bitmap of the documents with the word in a name only when there is one: a word of
        // the texts alone has one bitmap, so it is one from 1 document in 32 (its list's size).
        func packed(_ word: String) -> Int32? {
            guard let w = (0..<(plain.vocabStarts.count - 1)).first(where: { Array(plain.word($0)) == Array(word.utf8) }) else { return nil }
            return plain.entryBits[Int(plain.wordEntries[w])]
        }
        XCTAssertEqual(packed("often").map { $0 & 1 }, 1, "in names too: two bitmaps")
        XCTAssertEqual(packed("crossing").map { $0 & 1 }, 0, "in no name: one bitmap")
        XCTAssertEqual(isBitmap("between"), true, "5 in 128, in no name")
        XCTAssertEqual(isBitmap("harbour"), false, "5 in 128 in names: two bitmaps would be larger than its list")
        for (word, docs) in [("between", [7, 33, 59, 85, 111]), ("harbour", [8, 34, 60, 86, 112]), ("crossing", Array(stride(from: 3, to: n, by: 14)))] {
            guard let w = (0..<(plain.vocabStarts.count - 1)).first(where: { Array(plain.word($0)) == Array(word.utf8) }) else { return XCTFail(word) }
            let e = Int(plain.wordEntries[w])
            XCTAssertEqual((0..<n).filter { plain.entry(e, has: $0) }, docs, word)
            var any = [UInt64](repeating: 0, count: plain.bitWords)
            var name = any
            plain.or(entry: e, into: &any, &name)
            XCTAssertEqual((0..<n).filter { any[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }, docs, word)
            XCTAssertEqual((0..<n).filter { name[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }, word == "harbour" ? docs : [], word)
        }
    }

    /// Two builds made the very same words: every array the queries read.
    static func assertSameWords(_ a: SearchWords, _ b: SearchWords, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.vocab, b.vocab, file: file, line: line)
        XCTAssertEqual(a.vocabStarts, b.vocabStarts, file: file, line: line)
        XCTAssertEqual(a.wordEntries, b.wordEntries, file: file, line: line)
        XCTAssertEqual(a.entrySlot, b.entrySlot, file: file, line: line)
        XCTAssertEqual(a.entryPosts, b.entryPosts, file: file, line: line)
        XCTAssertEqual(a.entryBits, b.entryBits, file: file, line: line)
        XCTAssertEqual(a.posts, b.posts, file: file, line: line)
        XCTAssertEqual(a.bits, b.bits, file: file, line: line)
        XCTAssertEqual(a.slotLanguages, b.slotLanguages, file: file, line: line)
        XCTAssertEqual(a.stemKeys, b.stemKeys, file: file, line: line)
        XCTAssertEqual(a.stemWords, b.stemWords, file: file, line: line)
    }

    /// Enough documents for the transcripts' words to go on two cores, each with one to three
    /// commentaries in four languages; with `namedInSpanish`, every fifth has a Spanish name too
    /// (a field slot numbered before the transcripts').
    static func manyTranscriptDocuments(namedInSpanish: Bool = false) -> [SearchDocument] {
        let languages: [Language] = [.spanish, .english, Language(code: "fr"), Language(code: "zh-hant")]
        let texts = ["Este tapiz fue tejido en Flandes", "The harbour at first light", "Le port au petit matin", "港口的燈 時間"]
        return (0..<(SearchIndex.wordsOnTwoCores + 40)).map { n -> SearchDocument in
            let v = (0..<(1 + n % 3)).map { k -> AudioVersion in
                let l = (n + k) % languages.count
                return AudioVersion(language: languages[l], url: "", transcript: texts[l] + " word\(n % 37) w\(n)", trackTitle: "")
            }
            if namedInSpanish, n % 5 == 0 {
                return SearchDocument(
                    .artwork(n), primary: ["Lighthouse \(n % 50)", "Faro \(n % 50)"], secondary: ["Room \(n % 7)"], primaryLanguages: [.english, .spanish],
                    transcripts: v)
            }
            return SearchDocument(.artwork(n), primary: ["Work \(n % 50) \(texts[n % 4].prefix(8))"], secondary: ["Room \(n % 7)"], transcripts: v)
        }
    }

    /// The transcripts' words read on two cores make the very index one core makes: the second
    /// half's words follow the first's, with the same languages' slots.
    func testWordsOnTwoCoresAreTheWordsOnOne() {
        let docs = Self.manyTranscriptDocuments()
        let one = SearchIndex(documents: docs, variants: Self.variants).words
        let sequential: ReadOptions.Both = { first, second in
            first()
            second()
        }
        let two = SearchIndex(documents: docs, variants: Self.variants, both: sequential).words
        XCTAssertGreaterThan(one.vocab.count, 0)
        Self.assertSameWords(one, two)
        // And on two threads, as the guide builds it.
        let twoThreads = SearchIndex(documents: docs, variants: Self.variants, both: TwoCores.both).words
        Self.assertSameWords(one, twoThreads)
    }

    /// The guide builds in two halves: usable with the names' words, then the transcripts'
    /// words added. The first half finds names forgivingly but no transcript word; the second is
    /// the very index one build makes (same digest), on one core or two.
    func testTheTwoHalvesMakeTheIndexOneBuildMakes() {
        let docs = Self.manyTranscriptDocuments(namedInSpanish: true)
        let one = SearchIndex(documents: docs, variants: Self.variants)
        let names = SearchIndex(documents: docs, variants: Self.variants, transcripts: false)
        XCTAssertTrue(one.transcriptsIndexed)
        XCTAssertFalse(names.transcriptsIndexed)
        XCTAssertNotEqual(names.digest, one.digest)
        func first(_ i: SearchIndex, _ q: String) -> SearchHit? { i.results(i.matches(SearchText.fold(q)), cap: 5).hits(.artwork).first }
        // Names are forgiving already (a typo in a title); transcripts' words are not in yet.
        XCTAssertEqual(first(names, "lighthuose")?.tier, SearchTier.typoName)
        XCTAssertNil(first(names, "tejido"))
        XCTAssertEqual(first(one, "tejido")?.tier, SearchTier.words)
        let sequential: ReadOptions.Both = { first, second in
            first()
            second()
        }
        for both in [nil, sequential, TwoCores.both] as [ReadOptions.Both?] {
            let whole = names.addingTranscriptWords(stemmer: nil, both: both)
            XCTAssertTrue(whole.transcriptsIndexed)
            XCTAssertEqual(whole.digest, one.digest)
            XCTAssertEqual(whole.words.slotLanguages, one.words.slotLanguages)
            XCTAssertEqual(first(whole, "tejido")?.target, first(one, "tejido")?.target)
            XCTAssertEqual(first(whole, "tejido")?.language, .spanish)
            // Once in, there is nothing more to add.
            XCTAssertTrue(whole.addingTranscriptWords(stemmer: nil) === whole)
        }
    }

    func testTyposAndTranscriptsWithoutAStemmer() {
        let docs = Self.docs + [
            SearchDocument(
                .artwork(9), primary: ["Tapestry"],
                transcripts: [AudioVersion(language: .spanish, url: "", transcript: "Este tapiz fue tejido en Flandes.", trackTitle: "El tapiz")])
        ]
        let index = SearchIndex(documents: docs)
        func first(_ q: String) -> SearchHit? { index.results(index.matches(SearchText.fold(q)), cap: 5).hits(.artwork).first }
        XCTAssertEqual(first("portriat")?.target, .artwork(6))
        XCTAssertEqual(first("portriat")?.tier, SearchTier.typoName)
        XCTAssertEqual(first("tapiz")?.target, .artwork(9))
        XCTAssertEqual(first("tapiz")?.tier, SearchTier.words)
        XCTAssertEqual(first("tapiz")?.language, .spanish)
        XCTAssertEqual(first("flandes")?.language, .spanish)
        // A spelling variant needs no stemmer: harbor finds harbour, in names.
        XCTAssertEqual(first("harbor")?.target, .artwork(4))
        XCTAssertEqual(first("harbor")?.tier, SearchTier.stemName)
        // Without words the index is as it was: none of these.
        let plain = SearchIndex(documents: docs, words: false)
        for q in ["portriat", "tapiz", "harbor"] { XCTAssertEqual(plain.matches(SearchText.fold(q)).entries, [], q) }
    }

    // MARK: The museum's documents

    func testSampleDataIsIndexed() throws {
        let app = try sampleApp()
        let index = SearchIndex(app: app)
        func first(_ q: String, _ kind: SearchKind) -> SearchTarget? {
            index.results(index.matches(SearchText.fold(q)), cap: 5).hits(kind).first?.target
        }
        XCTAssertEqual(first("cafe on", .artwork).flatMap { if case .artwork(let id) = $0 { app.artworks[id]?.title } else { nil } }, "Café on the Quay")
        XCTAssertEqual(first("wrenfield", .tour), .tour(4001))
        XCTAssertNotNil(first("baños", .place))
        XCTAssertNotNil(first("洗手间", .place))
        XCTAssertNotNil(first("ascensor", .place))
        // Keypad numbers: 301 is shared by two artworks.
        XCTAssertEqual(index.results(index.matches(SearchText.fold("301")), cap: 5).hits(.artwork).prefix(2).map(\.tier), [SearchTier.exactTitle, SearchTier.exactTitle])
    }

    /// A number lists the works with that keypad number before the works hanging in the gallery
    /// of that number (SampleData: two works labelled 301 in Gallery 201, four in Gallery 301).
    func testKeypadNumberRanksBeforeGalleryNumber() throws {
        let app = try sampleApp()
        let index = SearchIndex(app: app)
        let labelled = Set(app.artworks.values.filter { $0.selectorNumbers.contains(301) }.map { SearchTarget.artwork($0.id) })
        XCTAssertEqual(labelled.count, 2)
        let hits = index.results(index.matches(SearchText.fold("301")), cap: 50).hits(.artwork)
        XCTAssertEqual(hits.count, 6)
        XCTAssertEqual(Set(hits.prefix(2).map(\.target)), labelled, "\(hits)")
        // Typed digit by digit (the reducer refines the previous matches): the same order.
        var m = SearchMatches()
        for n in 1...3 { m = index.matches(Array("301".utf8.prefix(n)), refining: m) }
        XCTAssertEqual(index.results(m, cap: 50).hits(.artwork), hits)
    }

    func sampleApp() throws -> AppData {
        let url = Fixtures.repoRoot.appendingPathComponent("SampleData/appData.json")
        switch AppDataReader.read(try Fixtures.bytes(url), source: url.path) {
        case .success(let a): return a
        case .failure(let e): throw e
        }
    }
}

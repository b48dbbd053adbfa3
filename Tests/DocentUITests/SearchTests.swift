import DocentTestSupport
import Foundation
import XCTest
import DocentTestSupport

@testable import DocentCore
@testable import DocentUI

/// The Search tab on the SampleData museum: keys, the reducer's debounce and cancellation
/// (the timer effects are the fake clock: assert the timer, then send the action it carries),
/// merging live answers, acting on results, and snapshots.
final class SearchTests: XCTestCase {
    static let sampleURL = UIFixtures.repoRoot.appendingPathComponent("SampleData/appData.json")

    static func sampleBytes(_ name: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: UIFixtures.repoRoot.appendingPathComponent("SampleData/search/\(name)")))) ?? []
    }

    /// SampleData, with its search endpoints as files, or on an http server when `api` is set.
    static func museum(api: String? = nil) -> Museum {
        var text = String(decoding: (try? Data(contentsOf: sampleURL)) ?? Data(), as: UTF8.self)
        if let api {
            text = text.replacingOccurrences(of: #""data_api_url": """#, with: #""data_api_url": "\#(api)""#)
            text = text.replacingOccurrences(of: #""autocomplete_endpoint": "search/autocomplete.json""#, with: #""autocomplete_endpoint": "/api/v1/autocomplete""#)
            text = text.replacingOccurrences(of: #""multisearch_endpoint": "search/msearch.json""#, with: #""multisearch_endpoint": "/api/v1/msearch""#)
        }
        switch AppDataReader.read(Array(text.utf8), source: sampleURL.path) {
        case .success(let a): return Museum(a)
        case .failure(let e): fatalError("SampleData does not read: \(e)")
        }
    }

    static let fileMuseum = museum()
    static let httpMuseum = museum(api: "https://api.example.org")

    /// The sample museum loaded, exhibitions fetched, on the Search tab.
    func loaded(_ museum: Museum = SearchTests.fileMuseum, language: Language = .english, size: Size = Size(width: 80, height: 24)) -> AppState {
        var s = AppState(source: Self.sampleURL.path, catalog: UIFixtures.catalog, language: language, now: UIFixtures.now, features: Registry.features)
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        UIFixtures.settle(&s, prepare(&s, .documentLoaded(.success(museum), note: nil)))
        let vp = RootView.viewport(for: size)
        prepare(
            &s, .fetched(.exhibitions, .success(Self.sampleBytes("exhibitions.json"))), .fetched(.events, .failure(.unreachable(url: "https://api.example/events", reason: "offline"))),
            .viewportChanged(rows: vp.rows, width: vp.width))
        s.overlay = nil
        s.messageQueue = []
        prepare(&s, .search(.open))
        return s
    }

    /// Local results for `query` from scratch, as the index and the exhibitions on view give
    /// them (the reducer refines the last matches as the visitor types: it must come to the same).
    func localResults(_ s: AppState, _ query: String, index: SearchIndex? = nil) -> SearchResults {
        let q = SearchText.fold(query)
        var r = (index ?? s.search.index).map { $0.results($0.matches(q), cap: SearchState.groupCap) } ?? SearchResults()
        if let ex = s.search.exhibitionIndex {
            let x = ex.results(ex.matches(q), cap: SearchState.groupCap)
            for k in [SearchKind.exhibition.rawValue, SearchKind.event.rawValue] {
                r.counts[k] = x.counts[k]
                r.hits[k] = x.hits[k]
            }
        }
        return r
    }

    /// A new query: no live answers yet, a new token (late answers are ignored).
    func resetLive(_ e: inout AppState) {
        e.search.live.token += 1
        e.search.live.suggestions = []
        e.search.live.extra = LiveSearchResults()
        e.search.live.extraBelow = false
        if e.search.live.status != .off { e.search.live.status = .idle }
    }

    /// What the query becoming `q` must do from `s`: local results at once, the first row that
    /// can be chosen selected, live search waiting for its debounce (when the museum has it).
    /// An empty query shows the suggestions again; the same meaning (a trailing space) keeps
    /// everything.
    func querying(_ q: String, from s: AppState, resetFilter: Bool = false) -> (effects: [Effect], change: (inout AppState) -> Void) {
        let folded = SearchText.fold(q)
        if folded.isEmpty {
            let had = s.search.results != nil
            return ([], { e in
                e.search.query = q
                e.search.results = nil
                e.search.didYouMean = nil
                e.search.moved = false
                e.search.filter = .all
                self.resetLive(&e)
                if had { e.search.selection = SearchPage.firstSelectable(e.search, FeatureContext(e)) }
            })
        }
        if s.search.results != nil, folded == SearchText.fold(s.search.query), !resetFilter {
            return ([], { e in
                e.search.query = q
                e.search.moved = false
            })
        }
        let live = s.search.live.status != .off
        let results = localResults(s, q)
        // Nothing matches: "did you mean" after a pause, not now.
        let later: [Effect] =
            results.total == 0 && s.search.index != nil
            ? [.timer(.searchDidYouMean, milliseconds: SearchState.didYouMeanDelayMs, action: .search(.suggestDue(SearchText.fold(q, variants: s.search.variants))))] : []
        return ((live ? [debounce(s.search.live.token + 1)] : []) + later, { e in
            e.search.query = q
            e.search.didYouMean = nil
            e.search.moved = false
            if resetFilter { e.search.filter = .all }
            e.search.results = results
            self.resetLive(&e)
            if live { e.search.live.status = .waiting }
            e.search.selection = SearchPage.firstSelectable(e.search, FeatureContext(e))
        })
    }

    /// Types `text` a character at a time, each stating what it does; returns the last effects.
    @discardableResult
    func type(_ s: inout AppState, _ text: String, file: StaticString = #filePath, line: UInt = #line) -> [Effect] {
        var last: [Effect] = []
        for c in text {
            let q = querying(s.search.query + String(c), from: s)
            last = send(&s, .search(.typed(String(c))), effects: q.effects, file: file, line: line, q.change)
        }
        return last
    }

    /// Backspace, stating what it does.
    func deleteBackward(_ s: inout AppState, file: StaticString = #filePath, line: UInt = #line) {
        let q = querying(String(s.search.query.dropLast()), from: s)
        send(&s, .search(.deleteBackward), effects: q.effects, file: file, line: line, q.change)
    }

    /// A filter chosen: its first row that can be chosen is selected.
    func filter(_ f: SearchFilter) -> (inout AppState) -> Void {
        { e in
            e.search.filter = f
            e.search.selection = SearchPage.firstSelectable(e.search, FeatureContext(e))
        }
    }

    /// Rows appearing above keep the selected row selected.
    func keepingSelection(_ before: AppState, _ change: @escaping (inout AppState) -> Void) -> (inout AppState) -> Void {
        let selected = SearchPage.selectedAction(before.search, FeatureContext(before))
        return { e in
            change(&e)
            if let i = SearchPage.rows(e.search, FeatureContext(e)).firstIndex(where: { $0.action == selected && $0.row.isSelectable }) { e.search.selection = i }
        }
    }

    /// Both live requests sent for the current query (token `token`): autocomplete, then
    /// multisearch after its own delay.
    func sendLiveRequests(_ s: inout AppState, file: StaticString = #filePath, line: UInt = #line) {
        let token = s.search.live.token
        let q = s.search.query.trimmingCharacters(in: .whitespaces)
        guard let app = s.museum, let ac = LiveSearch.autocompleteRequest(q, app: app), let ms = LiveSearch.multisearchRequest(q, app: app) else {
            return XCTFail("the museum has live search", file: file, line: line)
        }
        send(&s, .search(.liveDue(token: token, .autocomplete)), effects: [
            .search(.autocomplete(token: token, ac)),
            .timer(.searchDebounce, milliseconds: 200, action: .search(.liveDue(token: token, .multisearch))),
        ], file: file, line: line)
        send(&s, .search(.liveDue(token: token, .multisearch)), effects: [.search(.multisearch(token: token, ms))], file: file, line: line) {
            $0.search.live.status = .loading
        }
    }

    /// What playing artwork `id`'s first commentary does from `s` (the player's own tests pin
    /// it), with the full player over the search.
    func playing(_ s: AppState, _ id: Int) throws -> (effects: [Effect], state: AppState) {
        let a = try XCTUnwrap(s.museum?.artworks[id])
        let c = try XCTUnwrap(a.commentaries.first)
        var e = s
        let effects = PlayerFeature.play(&e, audioID: c.audioID, artworkID: id, tourID: nil, language: e.language)
        e.stacks[.search]?.append(Page(.player))
        return (effects, e)
    }

    /// The first row of `route` that can be chosen, as a page opened from a list selects it.
    func firstSelectable(_ route: Route, _ s: AppState) -> Int {
        guard case .list(_, let rows) = PageBuilder.content(route, s) else { return 0 }
        return rows.firstIndex(where: \.isSelectable) ?? 0
    }

    func rows(_ s: AppState) -> [SearchRow] { SearchPage.rows(s.search, FeatureContext(s)) }

    func texts(_ s: AppState) -> [String] { rows(s).map(\.row.text) }

    func debounce(_ token: Int) -> Effect {
        .timer(.searchDebounce, milliseconds: 300, action: .search(.liveDue(token: token, .autocomplete)))
    }

    // MARK: Keys

    func testSlashFromAnyTabOpensSearchAndEscGoesBack() {
        var s = loaded()
        send(&s, .selectTab(.info), effects: { [.persist($0.settings)] }) { $0.tab = .info }
        XCTAssertEqual(KeyMap.action(for: .char("/"), in: s), .search(.open))
        send(&s, .search(.open), effects: { [.persist($0.settings)] }) {
            $0.tab = .search
            $0.search.returnTab = .info
        }
        XCTAssertEqual(s.page.route, .search)
        type(&s, "ab")
        // The first Esc clears.
        let cleared = querying("", from: s)
        send(&s, .search(.escape), effects: cleared.effects, cleared.change)
        // The second leaves.
        send(&s, .search(.escape), effects: { [.persist($0.settings)] }) {
            $0.search.returnTab = nil
            $0.tab = .info
        }
    }

    /// Issue 33 #7: Esc on an empty Search goes back to the tab the visitor came from, however
    /// they came (F5, Tab, a click), not to Home.
    func testEscGoesBackToTheTabSearchWasOpenedFromByAnyKey() {
        var s = loaded()
        send(&s, .selectTab(.tours), effects: { [.persist($0.settings)] }) { $0.tab = .tours }
        send(&s, .selectTab(.search), effects: { [.persist($0.settings)] }) {
            $0.tab = .search
            $0.search.returnTab = .tours
        }
        send(&s, .search(.escape), effects: { [.persist($0.settings)] }) {
            $0.search.returnTab = nil
            $0.tab = .tours
        }
        // Shift-Tab from Info lands on Search: Esc returns to Info.
        send(&s, .selectTab(.info), effects: { [.persist($0.settings)] }) { $0.tab = .info }
        send(&s, .previousTab, effects: { [.persist($0.settings)] }) {
            $0.tab = .search
            $0.search.returnTab = .info
        }
        send(&s, .search(.escape), effects: { [.persist($0.settings)] }) {
            $0.search.returnTab = nil
            $0.tab = .info
        }
    }

    func testSlashFromAnotherTabStartsANewQuery() {
        var s = loaded()
        type(&s, "harbour")
        XCTAssertNotNil(s.search.results)
        prepare(&s, .selectTab(.info))
        var after = s
        after.tab = .search
        send(&s, .search(.open), effects: [.persist(after.settings)]) {
            $0.tab = .search
            $0.search.returnTab = .info
            $0.search.query = ""
            $0.search.results = nil
            $0.search.live.token += 1
            $0.search.live.status = .idle
            $0.search.selection = 1
        }
        type(&s, "moon")
        XCTAssertEqual(s.search.query, "moon", "typing starts afresh")
        // Tab back to Search (not `/`) keeps the query and its results.
        prepare(&s, .selectTab(.info))
        prepare(&s, .selectTab(.search))
        XCTAssertEqual(s.search.query, "moon")
        // `/` on the Search tab itself is typed into the query.
        XCTAssertEqual(KeyMap.action(for: .char("/"), in: s), .search(.typed("/")))
    }

    func testTypedKeysGoToTheQuery() {
        let s = loaded()
        XCTAssertEqual(KeyMap.action(for: .char("1"), in: s), .search(.typed("1")))
        XCTAssertEqual(KeyMap.action(for: .char("q"), in: s), .search(.typed("q")))
        XCTAssertEqual(KeyMap.action(for: .char(" "), in: s), .search(.typed(" ")))
        XCTAssertEqual(KeyMap.action(for: .char("/"), in: s), .search(.typed("/")))
        XCTAssertEqual(KeyMap.action(for: .backspace, in: s), .search(.deleteBackward))
        XCTAssertEqual(KeyMap.action(for: .enter, in: s), .search(.activate))
        XCTAssertEqual(KeyMap.action(for: .down, in: s), .search(.move(1)))
        XCTAssertEqual(KeyMap.action(for: .right, in: s), .search(.nextFilter))
        XCTAssertEqual(KeyMap.action(for: .ctrl("o"), in: s), .search(.showSelectionOnMap))
        XCTAssertEqual(KeyMap.action(for: .tab, in: s), .nextTab)
        XCTAssertEqual(KeyMap.action(for: .ctrl("c"), in: s), .quit)
    }

    // MARK: Before typing

    func testBeforeTypingSuggestionsAndOnTheMap() {
        let s = loaded()
        let app = Self.fileMuseum.data
        let t = texts(s)
        XCTAssertEqual(t.first, "Suggested searches")
        XCTAssertEqual(Array(t[1...app.search.strings.count]), app.search.strings)
        let onMap = try? XCTUnwrap(t.firstIndex(of: "On the map"))
        let objects = app.search.artworkIDs.compactMap { app.artworks[$0]?.title }
        XCTAssertEqual(objects.count, 5)
        XCTAssertEqual(Array(t[(onMap ?? 0) + 1...(onMap ?? 0) + 5]), objects)
        XCTAssertEqual(Array(t.suffix(4)), ["Dining", "Members Lounge", "Gift Shops", "Restrooms"])
        XCTAssertEqual(SearchPage.selectedAction(s.search, FeatureContext(s)), .query(app.search.strings[0]))
        // A suggestion searches for it.
        var u = s
        let q = querying(app.search.strings[0], from: u, resetFilter: true)
        send(&u, .search(.activate), effects: q.effects, q.change)
        XCTAssertNotNil(u.search.results)
    }

    // MARK: The index, built off the loop thread

    func testQueryTypedBeforeTheIndexArrivesIsAnsweredWhenItDoes() throws {
        var s = AppState(source: Self.sampleURL.path, catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        let m = Self.fileMuseum
        let ex = try XCTUnwrap(DataAggregator.exhibitionsRequest(app: m.data, now: UIFixtures.now))
        let ev = try XCTUnwrap(DataAggregator.eventsRequest(app: m.data, now: UIFixtures.now))
        send(&s, .documentLoaded(.success(m), note: nil), effects: [.fetch(.exhibitions, ex), .fetch(.events, ev), .search(.buildIndex(m))]) {
            $0.document = .ready(m)
            $0.overlay = .message(id: 6001)
            $0.exhibitions = .loading
            $0.events = .loading
            $0.search.live.status = .idle
        }
        XCTAssertNil(s.search.index, "not built on the loop thread")
        s.overlay = nil
        send(&s, .search(.open), effects: { [.persist($0.settings)] }) {
            $0.tab = .search
            $0.search.returnTab = .home
            $0.stacks[.search] = [Page(.search)]
        }
        type(&s, "harbour")
        XCTAssertTrue(texts(s).allSatisfy { !$0.contains("Harbo") }, "nothing to match yet")
        // An index of another museum (a reload raced it) is dropped.
        let stale = BuiltIndex(SearchIndex(app: m.data, source: Museum(m.data)))
        send(&s, .search(.indexBuilt(stale)))
        XCTAssertNil(s.search.index)
        // The real one: the query typed meanwhile is answered.
        let built = BuiltIndex(SearchIndex(app: m.data, source: m))
        let answered = localResults(s, "harbour", index: built.index)
        send(&s, .search(.indexBuilt(built))) {
            $0.search.results = answered
            $0.search.selection = SearchPage.firstSelectable($0.search, FeatureContext($0))
        }
        XCTAssertTrue(s.search.index === built.index)
        XCTAssertTrue(texts(s).contains { $0.contains("Harbo") }, "\(texts(s))")
    }

    /// The guide's index comes in two halves (issue 31): usable with the names' words, then the
    /// transcripts' words. The second half replaces the results only while the visitor has not
    /// moved in them; after that, what is drawn stays and the next keystroke uses it.
    func testTheTranscriptsWordsReplaceTheResultsOnlyBeforeTheVisitorMoves() {
        let m = Self.fileMuseum
        let names = BuiltIndex(SearchIndex(documents: SearchIndex.documents(app: m.data), source: m, transcripts: false))
        let whole = BuiltIndex(names.index.addingTranscriptWords(stemmer: nil))
        var s = loaded()
        prepare(&s, .search(.indexBuilt(names)))
        type(&s, "harbour")
        let first = localResults(s, "harbour", index: names.index)
        XCTAssertEqual(s.search.results, first)
        // Three works say "harbour" only in their commentaries.
        let answered = localResults(s, "harbour", index: whole.index)
        XCTAssertEqual(answered.count(.artwork), first.count(.artwork) + 3)
        XCTAssertEqual(Array(answered.hits(.artwork).prefix(first.hits(.artwork).count)), first.hits(.artwork), "the names' works first")
        // Not moved yet: searched again at once.
        var t = s
        send(&t, .search(.indexBuilt(whole))) { $0.search.results = answered }
        XCTAssertTrue(t.search.index === whole.index)
        // Moved: nothing changes under the cursor, no effect.
        prepare(&s, .search(.move(1)))
        let drawn = texts(s)
        send(&s, .search(.indexBuilt(whole)))
        XCTAssertEqual(texts(s), drawn)
        XCTAssertTrue(s.search.index === whole.index)
        // The next keystroke searches the whole index (not only the matches of the first half).
        type(&s, "s")
        XCTAssertEqual(s.search.results?.count(.artwork), localResults(s, "harbours", index: whole.index).count(.artwork))
        XCTAssertGreaterThan(s.search.results?.count(.artwork) ?? 0, first.count(.artwork))
    }

    // MARK: Local results

    func testResultsAreGroupedAndFiltered() {
        var s = loaded()
        type(&s, "harbour")
        let r = try? XCTUnwrap(s.search.results)
        XCTAssertGreaterThan(r?.count(.artwork) ?? 0, 3)
        let t = texts(s)
        XCTAssertTrue(t.contains { $0.hasPrefix("Artworks (") })
        XCTAssertTrue(t.contains { $0.hasPrefix("Exhibitions (1)") })
        XCTAssertEqual(t.filter { $0.hasPrefix("See all") }.count, 1)
        XCTAssertEqual(SearchPage.selectedAction(s.search, FeatureContext(s)).flatMap { a -> String? in
            if case .open(.artwork(let id)) = a { return Self.fileMuseum.data.artworks[id]?.title }
            return nil
        }, "Harbour Crane", "the best hit is selected: title prefix, shortest")
        send(&s, .search(.nextFilter), filter(.artworks))
        XCTAssertEqual(rows(s).filter { $0.row.isSelectable }.count, r?.count(.artwork))
        send(&s, .search(.previousFilter), filter(.all))
        send(&s, .search(.previousFilter), filter(.onMap))
        XCTAssertEqual(texts(s), ["On the map (1)", "Harbour Café (Dining)"])
        // Tours are found by their stops too (issue 47 #8): both have Harbour at First Light.
        send(&s, .search(.setFilter(.tours)), filter(.tours))
        XCTAssertEqual(texts(s), ["Tours (2)", "Water and Light", "Highlights of the Wrenfield"])
        send(&s, .search(.setFilter(.events)), filter(.events))
        XCTAssertEqual(texts(s).last, "Nothing here matches “harbour”.")
    }

    func testNothingMatches() {
        var s = loaded()
        type(&s, "zzqx")
        XCTAssertEqual(texts(s), ["Nothing matches “zzqx”."])
        XCTAssertNil(SearchPage.selectedAction(s.search, FeatureContext(s)))
        send(&s, .search(.activate))
    }

    /// Nothing matches: the closest word the museum has, one key (Enter) to search it; never a
    /// suggestion that itself finds nothing.
    func testDidYouMeanWhenNothingMatches() {
        var s = loaded()
        type(&s, "xarbour")
        // Not on the keystroke: after a pause (the timer `type` saw asked for).
        XCTAssertNil(s.search.didYouMean)
        send(&s, .search(.suggestDue(Array("xarbour".utf8)))) { e in
            e.search.didYouMean = "harbour"
            e.search.selection = 1
        }
        // A pause on a query that is no longer the one typed says nothing.
        send(&s, .search(.suggestDue(Array("xarbou".utf8))))
        XCTAssertEqual(texts(s), ["Nothing matches “xarbour”.", "Did you mean “harbour”? Enter searches it."])
        XCTAssertEqual(SearchPage.selectedAction(s.search, FeatureContext(s)), .query("harbour"), "selected: Enter is the one key")
        let q = querying("harbour", from: s)
        send(&s, .search(.activate), effects: q.effects, q.change)
        XCTAssertEqual(s.search.query, "harbour")
        XCTAssertGreaterThan(s.search.results?.total ?? 0, 0)
        // Nothing near: no suggestion.
        type(&s, " zzqx")
        send(&s, .search(.suggestDue(Array("harbour zzqx".utf8))))
        XCTAssertNil(s.search.didYouMean)
    }

    func testSnapshotDidYouMeanAndTheLanguageThatMatched() {
        var s = loaded()
        type(&s, "xarbour")
        _ = Reducer.reduce(&s, .search(.suggestDue(Array("xarbour".utf8))))
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "search-did-you-mean-80x24")
        // tapiz: two tapestries through their Spanish commentaries, said so in English.
        var t = loaded()
        type(&t, "tapiz")
        XCTAssertTrue(texts(t).contains("The Hunt of the White Stag"))
        XCTAssertTrue(rows(t).contains { $0.matchedIn == "in Spanish" }, "\(rows(t).map(\.row.detail))")
        assertSnapshot(RootView.render(t, size: Size(width: 80, height: 24)), named: "search-tapiz-80x24")
        assertSnapshot(RootView.render(t, size: Size(width: 40, height: 12)), named: "search-tapiz-40x12")
        // In Spanish, nothing to say.
        var u = loaded(language: .spanish)
        type(&u, "tapiz")
        XCTAssertFalse(rows(u).contains { $0.matchedIn != nil })
    }

    /// Issue 33 item 7: suggestions arriving about 300 ms after typing go below the results
    /// (the rows shown keep their places), and live results that arrive after the visitor moved
    /// go below everything shown.
    func testWhatArrivesLaterNeverMovesTheRowsShown() throws {
        var s = loaded(Self.httpMuseum)
        type(&s, "harbour")
        let token = s.search.live.token
        let before = rows(s)
        send(&s, .search(.autocompleteLoaded(token: token, .success(Array(#"["Harbour at First Light", "Harbour Sketchbook"]"#.utf8)))), keepingSelection(s) {
            // Harbour Sketchbook would answer "Nothing matches": not offered.
            $0.search.live.suggestions = ["Harbour at First Light"]
        })
        XCTAssertEqual(Array(rows(s).prefix(before.count)), before, "the results keep their rows")
        XCTAssertEqual(texts(s).suffix(2), ["Suggestions", "Harbour at First Light"])
        // The visitor moves; then the live results arrive: below, the rows above unchanged.
        let listed = rows(s)
        let second = listed.indices.filter { listed[$0].row.isSelectable }[1]
        send(&s, .search(.move(1))) {
            $0.search.selection = second
            $0.search.moved = true
        }
        let shown = rows(s)
        let selected = SearchPage.selectedAction(s.search, FeatureContext(s))
        let moon = try XCTUnwrap(Self.httpMuseum.data.artworks.values.first { $0.collectionID == 87005 })
        let json = #"[{"data": [{"id": 87005, "is_on_view": true, "title": "Moon Jar", "artist_display": "Yun Seo-ha", "gallery_id": 24011}]}, {"data": []}, {"data": []}]"#
        sendLiveRequests(&s)
        prepare(&s, .search(.multisearchLoaded(token: token, .success(Array(json.utf8)))))
        XCTAssertEqual(s.search.live.extra.artworks, [moon.id])
        XCTAssertTrue(s.search.live.extraBelow)
        XCTAssertEqual(Array(rows(s).prefix(shown.count)), shown, "nothing moved")
        XCTAssertEqual(SearchPage.selectedAction(s.search, FeatureContext(s)), selected)
        XCTAssertEqual(rows(s).suffix(2).map(\.action), [nil, .open(.artwork(moon.id))])
    }

    func testMovingSkipsHeadersAndClamps() {
        var s = loaded()
        type(&s, "harbour")
        let selectable = rows(s).indices.filter { rows(s)[$0].row.isSelectable }
        XCTAssertEqual(s.search.selection, selectable[0])
        send(&s, .search(.move(1))) {
            $0.search.selection = selectable[1]
            $0.search.moved = true
        }
        send(&s, .search(.moveToEnd)) { $0.search.selection = selectable[selectable.count - 1] }
        send(&s, .search(.move(-1000))) { $0.search.selection = selectable[0] }
    }

    // MARK: Debounce and cancellation (the timer effects are the clock)

    func testTypingDebouncesAutocompleteThenMultisearch() {
        var s = loaded(Self.httpMuseum)
        XCTAssertEqual(s.search.live.status, .idle)
        let t0 = s.search.live.token
        XCTAssertEqual(type(&s, "h"), [debounce(t0 + 1)])
        XCTAssertEqual(s.search.live.status, .waiting)
        XCTAssertEqual(type(&s, "a"), [debounce(t0 + 2)], "a keystroke replaces the pending timer")
        let token = t0 + 2
        // The first timer was replaced; had it fired anyway, its token is stale.
        send(&s, .search(.liveDue(token: t0 + 1, .autocomplete)))
        let app = Self.httpMuseum.data
        let ac = LiveSearch.autocompleteRequest("ha", app: app)
        XCTAssertEqual(ac?.url, "https://api.example.org/api/v1/autocomplete?q=ha&resources=artworks,tours,exhibitions,artists")
        send(&s, .search(.liveDue(token: token, .autocomplete)), effects: [
            .search(.autocomplete(token: token, ac ?? FetchRequest(url: ""))),
            .timer(.searchDebounce, milliseconds: 200, action: .search(.liveDue(token: token, .multisearch))),
        ])
        let ms = LiveSearch.multisearchRequest("ha", app: app)
        send(&s, .search(.liveDue(token: token, .multisearch)), effects: [.search(.multisearch(token: token, ms ?? FetchRequest(url: "")))]) {
            $0.search.live.status = .loading
        }
        XCTAssertEqual(ms?.method, .post)
    }

    func testAnswersToAnOlderQueryAreIgnored() {
        var s = loaded(Self.httpMuseum)
        type(&s, "ha")
        let old = s.search.live.token
        sendLiveRequests(&s)
        XCTAssertEqual(type(&s, "r"), [debounce(old + 1)])
        send(&s, .search(.multisearchLoaded(token: old, .success(Self.sampleBytes("msearch.json")))))
        send(&s, .search(.autocompleteLoaded(token: old, .success(Array(#"["Harbour Crane"]"#.utf8)))))
        XCTAssertEqual(s.search.live.status, .waiting)
        // Backspace to an empty query cancels everything.
        for _ in 0..<3 { deleteBackward(&s) }
        XCTAssertNil(s.search.results)
        send(&s, .search(.liveDue(token: old + 1, .autocomplete)))
    }

    func testSameMeaningKeepsTheLiveRequest() {
        var s = loaded(Self.httpMuseum)
        type(&s, "harbour")
        let token = s.search.live.token
        XCTAssertEqual(type(&s, " "), [], "a trailing space changes nothing")
        XCTAssertEqual(s.search.live.token, token)
    }

    func testNoLiveSearchWithoutEndpoints() {
        var s = UIFixtures.loadedState()
        send(&s, .search(.open), effects: { [.persist($0.settings)] }) {
            $0.tab = .search
            $0.search.returnTab = .home
            $0.stacks[.search] = [Page(.search)]
        }
        XCTAssertEqual(s.search.live.status, .off)
        XCTAssertEqual(type(&s, "har"), [])
        XCTAssertEqual(s.search.results?.count(.artwork), 1)
    }

    // MARK: Merging live answers

    func testLiveResultsMergeWithoutDuplicates() throws {
        var s = loaded(Self.httpMuseum)
        type(&s, "harbour at")
        let token = s.search.live.token
        let app = Self.httpMuseum.data
        let local = try XCTUnwrap(app.artworks.values.first { $0.collectionID == 87013 })  // Harbour at First Light
        let moon = try XCTUnwrap(app.artworks.values.first { $0.collectionID == 87005 })  // Moon Jar: no local match
        let json = """
            [{"data": [
               {"id": 87013, "is_on_view": true, "title": "Harbour at First Light", "artist_display": "Mara Velden", "gallery_id": 24101},
               {"id": 87005, "is_on_view": true, "title": "Moon Jar", "artist_display": "Yun Seo-ha", "gallery_id": 24011},
               {"id": 5, "is_on_view": true, "title": "Harbour at Night (loan)", "artist_display": "Someone", "gallery_id": 24010}
             ]},
             {"data": [{"id": 4002}]},
             {"data": []}]
            """
        sendLiveRequests(&s)
        // What the answer says (its reading is pinned by the live search tests), less what the
        // local results already have: Harbour at First Light, and the tour Water and Light (one
        // of its stops is Harbour at First Light).
        let answer = try LiveSearch.results(from: Array(json.utf8), query: "harbour at", app: app, now: s.now).get()
        XCTAssertEqual(answer.liveArtworks.map(\.id), [5])
        send(&s, .search(.multisearchLoaded(token: token, .success(Array(json.utf8)))), keepingSelection(s) {
            $0.search.live.extra = LiveSearchResults(artworks: [moon.id], liveArtworks: answer.liveArtworks, tours: [])
            $0.search.live.status = .done
        })
        // The query itself is not suggested, nor what finds nothing here (Harbour Atlas).
        send(&s, .search(.autocompleteLoaded(token: token, .success(Array(#"["Harbour at First Light", "harbour at", "Harbour Atlas"]"#.utf8)))), keepingSelection(s) {
            $0.search.live.suggestions = ["Harbour at First Light"]
        })
        send(&s, .search(.setFilter(.artworks)), filter(.artworks))
        let actions = rows(s).compactMap(\.action)
        XCTAssertEqual(actions.filter { $0 == .open(.artwork(local.id)) }.count, 1, "no duplicate of a local hit")
        XCTAssertTrue(actions.contains(.open(.artwork(moon.id))))
        XCTAssertTrue(actions.contains { if case .openLiveArtwork(let a) = $0 { return a.id == 5 } else { return false } })
        XCTAssertEqual(SearchPage.count(.artworks, s.search, FeatureContext(s)), (s.search.results?.count(.artwork) ?? 0) + 2)
    }

    /// An artwork only the live search knows opens a card (what it is, where it hangs), not a
    /// bare gallery label on the map; `v` on the card shows the map.
    func testLiveOnlyArtworkOpensItsCardThenVShowsTheMap() throws {
        var s = loaded(Self.httpMuseum)
        s.tabs = [.home, .audioGuide, .map, .tours, .search, .info]
        type(&s, "harbour at")
        let token = s.search.live.token
        let json = """
            [{"data": [{"id": 5, "is_on_view": true, "title": "Harbour at Night (loan)", "artist_display": "Someone\nDutch, 1850–1920", "gallery_id": 24010}]},
             {"data": []}, {"data": []}]
            """
        prepare(&s, .search(.multisearchLoaded(token: token, .success(Array(json.utf8)))))
        let live = try XCTUnwrap(s.search.live.extra.liveArtworks.first)
        prepare(&s, .search(.setFilter(.artworks)))
        let row = try XCTUnwrap(rows(s).firstIndex { $0.action == .openLiveArtwork(live) })
        s.search.selection = row
        var stack = s.stacks[.search] ?? []
        stack.append(Page(.liveArtwork(live)))
        send(&s, .search(.activate)) { $0.stacks[.search] = stack }
        XCTAssertEqual(s.tab, .search)
        guard case .text(let page) = PageBuilder.content(s.page.route, s) else { return XCTFail("no card") }
        XCTAssertEqual(page.title, "Harbour at Night (loan)")
        XCTAssertEqual(page.facts, ["Someone", "Dutch, 1850–1920", "Gallery 10, Floor LL"])
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "search-live-artwork-80x24")
        // Letters are not typed into the query here; `v` shows the gallery on the map.
        XCTAssertEqual(KeyMap.action(for: .char("v"), in: s), .search(.showOnMap(.liveArtwork(live))))
        XCTAssertEqual(KeyMap.action(for: .escape, in: s), .back)
        prepare(&s, .search(.showOnMap(.liveArtwork(live))))
        XCTAssertEqual(s.tab, .map)
        XCTAssertEqual(s.map.highlight, .gallery(live.galleryID))
    }

    func testFailingLiveSearchKeepsLocalResultsWithAQuietNote() {
        var s = loaded(Self.httpMuseum)
        type(&s, "harbour")
        let results = s.search.results
        let token = s.search.live.token
        sendLiveRequests(&s)
        send(&s, .search(.autocompleteLoaded(token: token, .failure(LoadFailure("cannot reach api.example.org")))))
        send(&s, .search(.multisearchLoaded(token: token, .failure(LoadFailure("timed out fetching https://api.example.org/api/v1/msearch"))))) {
            $0.search.live.status = .unavailable("timed out fetching https://api.example.org/api/v1/msearch")
        }
        XCTAssertEqual(s.search.results, results)
        XCTAssertNil(s.banner, "quiet: no banner")
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        XCTAssertTrue(screen.row(2).contains("Live results unavailable"), screen.row(2))
    }

    func testFileEndpointsGiveTheWholeFlowOffline() throws {
        var s = loaded()
        XCTAssertEqual(s.search.live.status, .idle)
        type(&s, "harb")
        let token = s.search.live.token
        let app = Self.fileMuseum.data
        let ac = try XCTUnwrap(LiveSearch.autocompleteRequest("harb", app: app))
        XCTAssertTrue(ac.url.hasSuffix("search/autocomplete.json"))
        send(&s, .search(.liveDue(token: token, .autocomplete)), effects: [
            .search(.autocomplete(token: token, ac)),
            .timer(.searchDebounce, milliseconds: 200, action: .search(.liveDue(token: token, .multisearch))),
        ])
        // The file lists every title: those that match, three at most, and only those that lead
        // somewhere here (Harbour Sketchbook would answer "Nothing matches": issue 33 item 7).
        send(&s, .search(.autocompleteLoaded(token: token, .success(Self.sampleBytes("autocomplete.json")))), keepingSelection(s) {
            $0.search.live.suggestions = ["Harbour at First Light", "Harbour Crane", "Tidewater: Painting the Working Harbour"]
        })
        XCTAssertFalse(Reducer.leadsSomewhere("Harbour Sketchbook", s.search))
        let ms = try XCTUnwrap(LiveSearch.multisearchRequest("harb", app: app))
        send(&s, .search(.liveDue(token: token, .multisearch)), effects: [.search(.multisearch(token: token, ms))]) { $0.search.live.status = .loading }
        // Everything the file answers for harb is already found locally.
        send(&s, .search(.multisearchLoaded(token: token, .success(Self.sampleBytes("msearch.json"))))) { $0.search.live.status = .done }
    }

    /// The reducer folds the query as the museum's index was folded (the runner builds it with
    /// ICU's table; here a few of its pairs), the exhibitions too.
    func testChineseInEitherScriptFindsBoth() throws {
        var s = loaded(language: .chinese)
        let table = ChineseVariants(simplified: ["親": "亲", "導": "导", "覽": "览", "務": "务", "長": "长"])
        let museum = Self.fileMuseum
        prepare(&s, .search(.indexBuilt(BuiltIndex(SearchIndex(app: museum.data, source: museum, variants: table)))))
        type(&s, "亲子")
        let tour = try XCTUnwrap(museum.data.tours.first { $0.translations.values.contains { $0.title.contains("親子導覽") } })
        XCTAssertEqual(s.search.results?.hits(.tour).map(\.target), [.tour(tour.id)])
        prepare(&s, .search(.clear))
        type(&s, "港务长")
        let portraits = museum.data.artworks.values.filter { $0.title.hasPrefix("Portrait of the Harbourmaster") }.map { SearchTarget.artwork($0.id) }
        XCTAssertEqual(portraits.count, 2)
        XCTAssertEqual(Set(s.search.results?.hits(.artwork).map(\.target) ?? []), Set(portraits))
    }

    // MARK: Acting on a result

    /// Scoped (issue 28): Search changes only its own state; the tab, the player, the pages
    /// and the map it asks of the root, stated exactly (a change of its state also asks the
    /// pictures to look again at the page).
    func testScopedOpenEscAndTheMapAreAskedOfTheRoot() {
        var s = loaded()
        XCTAssertEqual(s.search.returnTab, .home)
        var q = s.search
        sendScoped(SearchFeature.self, &q, .escape, FeatureContext(s), requests: [.send(.selectTab(.home)), .broadcast(.pageChanged, unheard: nil)]) {
            $0.returnTab = nil
        }
        prepare(&s, .selectTab(.info))
        q = s.search
        sendScoped(SearchFeature.self, &q, .open, FeatureContext(s), requests: [.select(.search), .persist, .resetTab(.search), .broadcast(.pageChanged, unheard: nil)]) {
            $0.returnTab = .info
        }
        // No map in this guide: a notice; with one, the map's own action.
        q = s.search
        s.tabs = [.home, .audioGuide, .tours, .search, .info]
        sendScoped(SearchFeature.self, &q, .showOnMap(.gallery(1)), FeatureContext(s), requests: [.banner(Banner(.key(.searchNoMap)))])
        s.tabs = [.home, .audioGuide, .map, .tours, .search, .info]
        sendScoped(SearchFeature.self, &q, .showOnMap(.gallery(1)), FeatureContext(s), requests: [.send(.map(.show(.gallery(1))))])
    }

    /// Enter on an artwork asks the root to play it, then (once it plays) for the full player.
    func testScopedEnterOnAnArtworkAsksToPlayThenForThePlayer() throws {
        var s = loaded()
        type(&s, "harbour at first")
        let a = try XCTUnwrap(Self.fileMuseum.data.artworks.values.first { $0.title == "Harbour at First Light" })
        let c = try XCTUnwrap(a.commentaries.first)
        var q = s.search
        sendScoped(
            SearchFeature.self, &q, .activate, FeatureContext(s),
            requests: [.send(.play(audioID: c.audioID, artworkID: a.id, tourID: nil)), .send(.search(.playing(artworkID: a.id)))])
        // Nothing playing: no player; playing it: the player, pushed.
        sendScoped(SearchFeature.self, &q, .playing(artworkID: a.id), FeatureContext(s))
        prepare(&s, .play(audioID: c.audioID, artworkID: a.id, tourID: nil))
        sendScoped(SearchFeature.self, &q, .playing(artworkID: a.id), FeatureContext(s), requests: [.push(.player)])
    }

    func testArtworkPlaysItsCommentaryAndShowsThePlayer() throws {
        var s = loaded()
        type(&s, "harbour at first")
        let a = try XCTUnwrap(Self.fileMuseum.data.artworks.values.first { $0.title == "Harbour at First Light" })
        XCTAssertEqual(SearchPage.selectedAction(s.search, FeatureContext(s)), .open(.artwork(a.id)))
        let play = try playing(s, a.id)
        XCTAssertTrue(play.effects.contains { if case .audio(.play) = $0 { return true } else { return false } })
        send(&s, .search(.activate), effects: play.effects) { $0 = play.state }
        XCTAssertEqual(s.player.track?.artworkID, a.id)
        XCTAssertEqual(s.tab, .search)
        XCTAssertEqual(s.page.route, .player)
        // The search is still there.
        send(&s, .back) { $0.stacks[.search]?.removeLast() }
        XCTAssertEqual(s.page.route, .search)
    }

    func testTourOpensItsDetail() {
        var s = loaded()
        type(&s, "wrenfield")
        send(&s, .search(.setFilter(.tours)), filter(.tours))
        let first = firstSelectable(.tourDetail(4001), s)
        send(&s, .search(.activate)) { $0.stacks[.search]?.append(Page(.tourDetail(4001), selection: first)) }
        XCTAssertEqual(s.tab, .search)
    }

    func testExhibitionOpensItsDetail() {
        var s = loaded()
        type(&s, "tidewater")
        send(&s, .search(.setFilter(.exhibitions)), filter(.exhibitions))
        send(&s, .search(.activate)) { $0.stacks[.search]?.append(Page(.exhibitionDetail(7101))) }
        guard case .text = PageBuilder.content(s.page.route, s) else { return XCTFail("no detail") }
    }

    func testLiveOnlyExhibitionJoinsTheListToOpen() {
        var s = loaded()
        let e = Exhibition(id: 99, title: "Pop-up", shortDescription: "", imageURL: nil, galleryID: nil, webURL: nil, startAt: UIFixtures.now, endAt: UIFixtures.now.addingTimeInterval(86400))
        var expected = s
        expected.exhibitions = .loaded((s.exhibitions.value ?? []) + [e])
        expected.stacks[.search]?.append(Page(.exhibitionDetail(99)))
        XCTAssertEqual(Reducer.performSearch(&s, .openExhibition(e)), [])
        XCTAssertEqual(s, expected)
        guard case .text = PageBuilder.content(s.page.route, s) else { return XCTFail("no detail") }
    }

    func testAmenityShowsTheMapOnItsFloor() throws {
        var s = loaded()
        s.tabs = [.home, .audioGuide, .map, .tours, .search, .info]
        type(&s, "baños")
        send(&s, .search(.setFilter(.onMap)), filter(.onMap))
        guard case .open(.annotation(let id))? = SearchPage.selectedAction(s.search, FeatureContext(s)) else { return XCTFail("no amenity selected") }
        let app = Self.fileMuseum.data
        let n = try XCTUnwrap(app.annotations.first { $0.id == id })
        let floor = try XCTUnwrap(n.floor)
        let item = try XCTUnwrap(MapContent.items(app, floor: floor).first { $0.id == .annotation(id) })
        let plan = try XCTUnwrap(MapContent.mapFloor(app, floor)).planURL
        // The map on the amenity's floor, centred on it, marked and selected; its plan asked for.
        send(&s, .search(.activate), effects: { [.map(.loadPlan(floor: floor, url: plan, pixelsPerPoint: MapState.rasterScale)), .persist($0.settings)] }) {
            $0.tab = .map
            $0.stacks[.map] = [Page(.map)]
            $0.map.floor = floor
            $0.map.highlight = .annotation(id)
            $0.map.selection = .annotation(id)
            $0.map.zoom = 1
            $0.map.centre = item.point
            $0.map.plans[floor] = .loading(url: plan)
        }
        XCTAssertEqual(s.page.route, .map)
    }

    func testWithoutAMapTabSearchSaysSo() {
        var s = loaded()
        s.tabs = s.tabs.filter { $0 != .map }
        type(&s, "ascensor")
        send(&s, .search(.setFilter(.onMap)), filter(.onMap))
        send(&s, .search(.activate)) { $0.banner = Banner(.key(.searchNoMap)) }
        XCTAssertEqual(s.banner?.text(s.strings), "The map is not available in this guide yet.")
    }

    func testClicksOnRowsAndFilters() throws {
        var s = loaded()
        type(&s, "harbour")
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        let filter = screen.hitRegions.first { $0.action == .search(.setFilter(.artworks)) }
        XCTAssertNotNil(filter)
        if let f = filter { send(&s, KeyMap.click(x: f.rect.x, y: f.rect.y, on: screen) ?? .quit, self.filter(.artworks)) }
        let screen2 = RootView.render(s, size: Size(width: 80, height: 24))
        let row = screen2.hitRegions.last {
            if case .feature(let v) = $0.action, case .clickRow? = v.as(SearchAction.self) { return true }
            return false
        }
        XCTAssertNotNil(row)
        guard let r = row, case .feature(let v) = r.action, case .clickRow(let i)? = v.as(SearchAction.self),
            case .open(.artwork(let id))? = rows(s)[i].action
        else { return XCTFail("the last row is an artwork") }
        var chosen = s
        chosen.search.selection = i
        chosen.search.moved = true
        let play = try playing(chosen, id)
        send(&s, KeyMap.click(x: r.rect.x, y: r.rect.y, on: screen2) ?? .quit, effects: play.effects) { $0 = play.state }
        XCTAssertEqual(s.page.route, .player)
    }

    // MARK: Snapshots

    func testSnapshotBeforeTyping() {
        let s = loaded()
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "search-empty-80x24")
    }

    func testSnapshotHarbour() {
        var s = loaded()
        type(&s, "harbour")
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "search-harbour-80x24")
        var small = loaded(size: Size(width: 40, height: 12))
        type(&small, "harbour")
        assertSnapshot(RootView.render(small, size: Size(width: 40, height: 12)), named: "search-harbour-40x12")
        send(&small, .search(.nextFilter), filter(.artworks))
        assertSnapshot(RootView.render(small, size: Size(width: 40, height: 12)), named: "search-artworks-40x12")
    }

    func testSnapshotChinese() {
        var s = loaded(Self.httpMuseum, language: .chinese)
        type(&s, "洗手间")
        let token = s.search.live.token
        sendLiveRequests(&s)
        send(&s, .search(.multisearchLoaded(token: token, .failure(LoadFailure("offline"))))) { $0.search.live.status = .unavailable("offline") }
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "search-zh-80x24")
    }
}

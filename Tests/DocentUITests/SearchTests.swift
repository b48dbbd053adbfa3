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
        _ = Reducer.reduce(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        UIFixtures.settle(&s, Reducer.reduce(&s, .documentLoaded(.success(museum), note: nil)))
        _ = Reducer.reduce(&s, .fetched(.exhibitions, .success(Self.sampleBytes("exhibitions.json"))))
        _ = Reducer.reduce(&s, .fetched(.events, .failure(LoadFailure("offline"))))
        let vp = RootView.viewport(for: size)
        _ = Reducer.reduce(&s, .viewportChanged(rows: vp.rows, width: vp.width))
        s.overlay = nil
        s.messageQueue = []
        _ = Reducer.reduce(&s, .search(.open))
        return s
    }

    @discardableResult
    func type(_ s: inout AppState, _ text: String) -> [Effect] {
        var last: [Effect] = []
        for c in text { last = Reducer.reduce(&s, .search(.typed(String(c)))) }
        return last
    }

    func rows(_ s: AppState) -> [SearchRow] { SearchPage.rows(s) }

    func texts(_ s: AppState) -> [String] { rows(s).map(\.row.text) }

    func debounce(_ token: Int) -> Effect {
        .timer(.searchDebounce, milliseconds: 300, action: .search(.liveDue(token: token, .autocomplete)))
    }

    // MARK: Keys

    func testSlashFromAnyTabOpensSearchAndEscGoesBack() {
        var s = loaded()
        _ = Reducer.reduce(&s, .selectTab(.info))
        XCTAssertEqual(KeyMap.action(for: .char("/"), in: s), .search(.open))
        let e = Reducer.reduce(&s, .search(.open))
        XCTAssertEqual(s.tab, .search)
        XCTAssertEqual(s.page.route, .search)
        XCTAssertEqual(s.search.returnTab, .info)
        XCTAssertEqual(e, [.persist(s.settings)])
        type(&s, "ab")
        _ = Reducer.reduce(&s, .search(.escape))
        XCTAssertEqual(s.search.query, "")
        XCTAssertEqual(s.tab, .search, "the first Esc clears")
        _ = Reducer.reduce(&s, .search(.escape))
        XCTAssertEqual(s.tab, .info, "the second leaves")
    }

    func testSlashFromAnotherTabStartsANewQuery() {
        var s = loaded()
        type(&s, "harbour")
        XCTAssertNotNil(s.search.results)
        _ = Reducer.reduce(&s, .selectTab(.info))
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
        _ = Reducer.reduce(&s, .selectTab(.info))
        _ = Reducer.reduce(&s, .selectTab(.search))
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
        XCTAssertEqual(SearchPage.selectedAction(s), .query(app.search.strings[0]))
        // A suggestion searches for it.
        var u = s
        _ = Reducer.reduce(&u, .search(.activate))
        XCTAssertEqual(u.search.query, app.search.strings[0])
        XCTAssertNotNil(u.search.results)
    }

    // MARK: The index, built off the loop thread

    func testQueryTypedBeforeTheIndexArrivesIsAnsweredWhenItDoes() throws {
        var s = AppState(source: Self.sampleURL.path, catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        _ = Reducer.reduce(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        let m = Self.fileMuseum
        let effects = Reducer.reduce(&s, .documentLoaded(.success(m), note: nil))
        XCTAssertTrue(effects.contains(.search(.buildIndex(m))), "\(effects)")
        XCTAssertNil(s.search.index, "not built on the loop thread")
        s.overlay = nil
        _ = Reducer.reduce(&s, .search(.open))
        type(&s, "harbour")
        XCTAssertTrue(texts(s).allSatisfy { !$0.contains("Harbo") }, "nothing to match yet")
        // An index of another museum (a reload raced it) is dropped.
        let stale = BuiltIndex(SearchIndex(app: m.data, source: Museum(m.data)))
        XCTAssertEqual(Reducer.reduce(&s, .search(.indexBuilt(stale))), [])
        XCTAssertNil(s.search.index)
        // The real one: the query typed meanwhile is answered.
        let built = BuiltIndex(SearchIndex(app: m.data, source: m))
        _ = Reducer.reduce(&s, .search(.indexBuilt(built)))
        XCTAssertTrue(s.search.index === built.index)
        XCTAssertTrue(texts(s).contains { $0.contains("Harbo") }, "\(texts(s))")
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
        XCTAssertEqual(SearchPage.selectedAction(s).flatMap { a -> String? in
            if case .open(.artwork(let id)) = a { return Self.fileMuseum.data.artworks[id]?.title }
            return nil
        }, "Harbour Crane", "the best hit is selected: title prefix, shortest")
        _ = Reducer.reduce(&s, .search(.nextFilter))
        XCTAssertEqual(s.search.filter, .artworks)
        XCTAssertEqual(rows(s).filter { $0.row.isSelectable }.count, r?.count(.artwork))
        _ = Reducer.reduce(&s, .search(.previousFilter))
        _ = Reducer.reduce(&s, .search(.previousFilter))
        XCTAssertEqual(s.search.filter, .onMap)
        XCTAssertEqual(texts(s), ["On the map (1)", "Harbour Café (Dining)"])
        _ = Reducer.reduce(&s, .search(.setFilter(.tours)))
        XCTAssertEqual(texts(s).last, "Nothing here matches “harbour”.")
    }

    func testNothingMatches() {
        var s = loaded()
        type(&s, "zzqx")
        XCTAssertEqual(texts(s), ["Nothing matches “zzqx”."])
        XCTAssertNil(SearchPage.selectedAction(s))
        XCTAssertEqual(Reducer.reduce(&s, .search(.activate)), [])
    }

    func testMovingSkipsHeadersAndClamps() {
        var s = loaded()
        type(&s, "harbour")
        let selectable = rows(s).indices.filter { rows(s)[$0].row.isSelectable }
        XCTAssertEqual(s.search.selection, selectable[0])
        _ = Reducer.reduce(&s, .search(.move(1)))
        XCTAssertEqual(s.search.selection, selectable[1])
        _ = Reducer.reduce(&s, .search(.moveToEnd))
        XCTAssertEqual(s.search.selection, selectable.last)
        _ = Reducer.reduce(&s, .search(.move(-1000)))
        XCTAssertEqual(s.search.selection, selectable[0])
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
        XCTAssertEqual(Reducer.reduce(&s, .search(.liveDue(token: t0 + 1, .autocomplete))), [])
        let app = Self.httpMuseum.data
        let ac = LiveSearch.autocompleteRequest("ha", app: app)
        XCTAssertEqual(ac?.url, "https://api.example.org/api/v1/autocomplete?q=ha&resources=artworks,tours,exhibitions,artists")
        XCTAssertEqual(Reducer.reduce(&s, .search(.liveDue(token: token, .autocomplete))), [
            .search(.autocomplete(token: token, ac ?? FetchRequest(url: ""))),
            .timer(.searchDebounce, milliseconds: 200, action: .search(.liveDue(token: token, .multisearch))),
        ])
        let ms = LiveSearch.multisearchRequest("ha", app: app)
        XCTAssertEqual(Reducer.reduce(&s, .search(.liveDue(token: token, .multisearch))), [.search(.multisearch(token: token, ms ?? FetchRequest(url: "")))])
        XCTAssertEqual(s.search.live.status, .loading)
        XCTAssertEqual(ms?.method, .post)
    }

    func testAnswersToAnOlderQueryAreIgnored() {
        var s = loaded(Self.httpMuseum)
        type(&s, "ha")
        let old = s.search.live.token
        _ = Reducer.reduce(&s, .search(.liveDue(token: old, .autocomplete)))
        _ = Reducer.reduce(&s, .search(.liveDue(token: old, .multisearch)))
        XCTAssertEqual(type(&s, "r"), [debounce(old + 1)])
        let before = s
        XCTAssertEqual(Reducer.reduce(&s, .search(.multisearchLoaded(token: old, .success(Self.sampleBytes("msearch.json"))))), [])
        XCTAssertEqual(Reducer.reduce(&s, .search(.autocompleteLoaded(token: old, .success(Array(#"["Harbour Crane"]"#.utf8))))), [])
        XCTAssertEqual(s, before)
        XCTAssertEqual(s.search.live.status, .waiting)
        // Backspace to an empty query cancels everything.
        for _ in 0..<3 { _ = Reducer.reduce(&s, .search(.deleteBackward)) }
        XCTAssertNil(s.search.results)
        XCTAssertEqual(Reducer.reduce(&s, .search(.liveDue(token: old + 1, .autocomplete))), [])
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
        _ = Reducer.reduce(&s, .search(.open))
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
        _ = Reducer.reduce(&s, .search(.liveDue(token: token, .autocomplete)))
        _ = Reducer.reduce(&s, .search(.liveDue(token: token, .multisearch)))
        _ = Reducer.reduce(&s, .search(.multisearchLoaded(token: token, .success(Array(json.utf8)))))
        _ = Reducer.reduce(&s, .search(.autocompleteLoaded(token: token, .success(Array(#"["Harbour at First Light", "harbour at", "Harbour Atlas"]"#.utf8)))))
        XCTAssertEqual(s.search.live.status, .done)
        XCTAssertEqual(s.search.live.suggestions, ["Harbour at First Light", "Harbour Atlas"], "the query itself is not suggested")
        XCTAssertEqual(s.search.live.extra.artworks, [moon.id])
        XCTAssertEqual(s.search.live.extra.liveArtworks.map(\.id), [5])
        XCTAssertEqual(s.search.live.extra.tours, [4002])
        _ = Reducer.reduce(&s, .search(.setFilter(.artworks)))
        let actions = rows(s).compactMap(\.action)
        XCTAssertEqual(actions.filter { $0 == .open(.artwork(local.id)) }.count, 1, "no duplicate of a local hit")
        XCTAssertTrue(actions.contains(.open(.artwork(moon.id))))
        XCTAssertTrue(actions.contains { if case .openLiveArtwork(let a) = $0 { return a.id == 5 } else { return false } })
        XCTAssertEqual(SearchPage.count(.artworks, s), (s.search.results?.count(.artwork) ?? 0) + 2)
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
        _ = Reducer.reduce(&s, .search(.multisearchLoaded(token: token, .success(Array(json.utf8)))))
        let live = try XCTUnwrap(s.search.live.extra.liveArtworks.first)
        _ = Reducer.reduce(&s, .search(.setFilter(.artworks)))
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
        _ = Reducer.reduce(&s, .search(.showOnMap(.liveArtwork(live))))
        XCTAssertEqual(s.tab, .map)
        XCTAssertEqual(s.map.highlight, .gallery(live.galleryID))
    }

    func testFailingLiveSearchKeepsLocalResultsWithAQuietNote() {
        var s = loaded(Self.httpMuseum)
        type(&s, "harbour")
        let results = s.search.results
        let token = s.search.live.token
        _ = Reducer.reduce(&s, .search(.liveDue(token: token, .autocomplete)))
        _ = Reducer.reduce(&s, .search(.liveDue(token: token, .multisearch)))
        _ = Reducer.reduce(&s, .search(.autocompleteLoaded(token: token, .failure(LoadFailure("cannot reach api.example.org")))))
        _ = Reducer.reduce(&s, .search(.multisearchLoaded(token: token, .failure(LoadFailure("timed out fetching https://api.example.org/api/v1/msearch")))))
        XCTAssertEqual(s.search.results, results)
        XCTAssertEqual(s.search.live.status, .unavailable("timed out fetching https://api.example.org/api/v1/msearch"))
        XCTAssertNil(s.banner, "quiet: no banner")
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        XCTAssertTrue(screen.row(2).contains("Live results unavailable"), screen.row(2))
    }

    func testFileEndpointsGiveTheWholeFlowOffline() {
        var s = loaded()
        XCTAssertEqual(s.search.live.status, .idle)
        type(&s, "harb")
        let token = s.search.live.token
        let e = Reducer.reduce(&s, .search(.liveDue(token: token, .autocomplete)))
        guard case .feature(let v)? = e.first, case .autocomplete(_, let ac)? = v.as(SearchEffect.self) else { return XCTFail("\(e)") }
        XCTAssertTrue(ac.url.hasSuffix("search/autocomplete.json"))
        _ = Reducer.reduce(&s, .search(.autocompleteLoaded(token: token, .success(Self.sampleBytes("autocomplete.json")))))
        XCTAssertEqual(s.search.live.suggestions.count, 3)
        _ = Reducer.reduce(&s, .search(.liveDue(token: token, .multisearch)))
        _ = Reducer.reduce(&s, .search(.multisearchLoaded(token: token, .success(Self.sampleBytes("msearch.json")))))
        XCTAssertEqual(s.search.live.status, .done)
        XCTAssertTrue(s.search.live.extra.isEmpty, "everything the file answers for harb is already found locally")
    }

    /// The reducer folds the query as the museum's index was folded (the runner builds it with
    /// ICU's table; here a few of its pairs), the exhibitions too.
    func testChineseInEitherScriptFindsBoth() throws {
        var s = loaded(language: .chinese)
        let table = ChineseVariants(simplified: ["親": "亲", "導": "导", "覽": "览", "務": "务", "長": "长"])
        let museum = Self.fileMuseum
        _ = Reducer.reduce(&s, .search(.indexBuilt(BuiltIndex(SearchIndex(app: museum.data, source: museum, variants: table)))))
        type(&s, "亲子")
        let tour = try XCTUnwrap(museum.data.tours.first { $0.translations.values.contains { $0.title.contains("親子導覽") } })
        XCTAssertEqual(s.search.results?.hits(.tour).map(\.target), [.tour(tour.id)])
        _ = Reducer.reduce(&s, .search(.clear))
        type(&s, "港务长")
        let portraits = museum.data.artworks.values.filter { $0.title.hasPrefix("Portrait of the Harbourmaster") }.map { SearchTarget.artwork($0.id) }
        XCTAssertEqual(portraits.count, 2)
        XCTAssertEqual(Set(s.search.results?.hits(.artwork).map(\.target) ?? []), Set(portraits))
    }

    // MARK: Acting on a result

    func testArtworkPlaysItsCommentaryAndShowsThePlayer() throws {
        var s = loaded()
        type(&s, "harbour at first")
        let a = try XCTUnwrap(Self.fileMuseum.data.artworks.values.first { $0.title == "Harbour at First Light" })
        XCTAssertEqual(SearchPage.selectedAction(s), .open(.artwork(a.id)))
        let e = Reducer.reduce(&s, .search(.activate))
        XCTAssertEqual(s.player.track?.artworkID, a.id)
        XCTAssertEqual(s.player.track?.audioID, a.commentaries.first?.audioID)
        XCTAssertTrue(e.contains { if case .audio(.play) = $0 { return true } else { return false } })
        XCTAssertEqual(s.tab, .search)
        XCTAssertEqual(s.page.route, .player)
        _ = Reducer.reduce(&s, .back)
        XCTAssertEqual(s.page.route, .search)
        XCTAssertEqual(s.search.query, "harbour at first", "the search is still there")
    }

    func testTourOpensItsDetail() {
        var s = loaded()
        type(&s, "wrenfield")
        _ = Reducer.reduce(&s, .search(.setFilter(.tours)))
        _ = Reducer.reduce(&s, .search(.activate))
        XCTAssertEqual(s.page.route, .tourDetail(4001))
        XCTAssertEqual(s.tab, .search)
    }

    func testExhibitionOpensItsDetail() {
        var s = loaded()
        type(&s, "tidewater")
        _ = Reducer.reduce(&s, .search(.setFilter(.exhibitions)))
        _ = Reducer.reduce(&s, .search(.activate))
        XCTAssertEqual(s.page.route, .exhibitionDetail(7101))
        guard case .text = PageBuilder.content(s.page.route, s) else { return XCTFail("no detail") }
    }

    func testLiveOnlyExhibitionJoinsTheListToOpen() {
        var s = loaded()
        let e = Exhibition(id: 99, title: "Pop-up", shortDescription: "", imageURL: nil, galleryID: nil, webURL: nil, startAt: UIFixtures.now, endAt: UIFixtures.now.addingTimeInterval(86400))
        _ = Reducer.performSearch(&s, .openExhibition(e))
        XCTAssertEqual(s.page.route, .exhibitionDetail(99))
        guard case .text = PageBuilder.content(s.page.route, s) else { return XCTFail("no detail") }
    }

    func testAmenityShowsTheMapOnItsFloor() throws {
        var s = loaded()
        s.tabs = [.home, .audioGuide, .map, .tours, .search, .info]
        type(&s, "baños")
        _ = Reducer.reduce(&s, .search(.setFilter(.onMap)))
        guard case .open(.annotation(let id))? = SearchPage.selectedAction(s) else { return XCTFail("no amenity selected") }
        let n = try XCTUnwrap(Self.fileMuseum.data.annotations.first { $0.id == id })
        _ = Reducer.reduce(&s, .search(.activate))
        XCTAssertEqual(s.tab, .map)
        XCTAssertEqual(s.page.route, .map)
        XCTAssertEqual(s.map.floor, n.floor)
    }

    func testWithoutAMapTabSearchSaysSo() {
        var s = loaded()
        s.tabs = s.tabs.filter { $0 != .map }
        type(&s, "ascensor")
        _ = Reducer.reduce(&s, .search(.setFilter(.onMap)))
        _ = Reducer.reduce(&s, .search(.activate))
        XCTAssertEqual(s.tab, .search)
        XCTAssertEqual(s.banner?.text(s.strings), "The map is not available in this guide yet.")
    }

    func testClicksOnRowsAndFilters() {
        var s = loaded()
        type(&s, "harbour")
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        let filter = screen.hitRegions.first { $0.action == .search(.setFilter(.artworks)) }
        XCTAssertNotNil(filter)
        if let f = filter { _ = Reducer.reduce(&s, KeyMap.click(x: f.rect.x, y: f.rect.y, on: screen) ?? .quit) }
        XCTAssertEqual(s.search.filter, .artworks)
        let screen2 = RootView.render(s, size: Size(width: 80, height: 24))
        let row = screen2.hitRegions.last {
            if case .feature(let v) = $0.action, case .clickRow? = v.as(SearchAction.self) { return true }
            return false
        }
        XCTAssertNotNil(row)
        if let r = row { _ = Reducer.reduce(&s, KeyMap.click(x: r.rect.x, y: r.rect.y, on: screen2) ?? .quit) }
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
        _ = Reducer.reduce(&small, .search(.nextFilter))
        assertSnapshot(RootView.render(small, size: Size(width: 40, height: 12)), named: "search-artworks-40x12")
    }

    func testSnapshotChinese() {
        var s = loaded(Self.httpMuseum, language: .chinese)
        type(&s, "洗手间")
        let token = s.search.live.token
        _ = Reducer.reduce(&s, .search(.liveDue(token: token, .autocomplete)))
        _ = Reducer.reduce(&s, .search(.liveDue(token: token, .multisearch)))
        _ = Reducer.reduce(&s, .search(.multisearchLoaded(token: token, .failure(LoadFailure("offline")))))
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "search-zh-80x24")
    }
}

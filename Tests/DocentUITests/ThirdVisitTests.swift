import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// What a third visit got wrong (issue 47), on the SampleData museum: messages that go away
/// and stay readable, keypad numbers wherever a work is listed, a keypad that is never a dead
/// end, and search that knows tours, exhibitions and events by name.
final class ThirdVisitTests: XCTestCase {
    /// SampleData loaded with its exhibitions and events, on Home.
    func loaded(_ language: Language = .english, size: Size = Size(width: 80, height: 24)) -> AppState {
        var s = AppState(source: SearchTests.sampleURL.path, catalog: UIFixtures.catalog, language: language, now: UIFixtures.now, features: Registry.features)
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        UIFixtures.settle(&s, prepare(&s, .documentLoaded(.success(SearchTests.fileMuseum), note: nil)))
        let vp = RootView.viewport(for: size)
        prepare(
            &s, .fetched(.exhibitions, .success(SearchTests.sampleBytes("exhibitions.json"))), .fetched(.events, .success(SearchTests.sampleBytes("events.json"))),
            .viewportChanged(rows: vp.rows, width: vp.width))
        s.overlay = nil
        s.messageQueue = []
        return s
    }

    func search(_ s: inout AppState, _ query: String) {
        prepare(&s, .search(.open), .search(.setQuery(query)))
    }

    func screenText(_ s: AppState, _ size: Size = Size(width: 80, height: 24)) -> [String] {
        let screen = RootView.render(s, size: size)
        return (0..<size.height).map { screen.row($0) }
    }

    // MARK: #1 Messages go away, and stay readable in help

    func testABannerShownJoinsRecentMessagesAndSetsItsTimeToGo() {
        var s = loaded()
        let link = Banner(.key(.bannerLink, ["url": .verbatim("https://example.org/tickets")]))
        s.banner = link
        send(&s, .bannerShown(link), effects: [.timer(.banner, milliseconds: 10_000, action: .bannerExpired(link))]) {
            $0.recentBanners = [link]
        }
        let warning = Banner(.key(.bannerStateNotSaved, ["reason": .verbatim("disk full")]), level: .warning)
        s.banner = warning
        send(&s, .bannerShown(warning), effects: [.timer(.banner, milliseconds: 20_000, action: .bannerExpired(warning))]) {
            $0.recentBanners = [warning, link]
        }
        // The first one's time is up, but it is no longer on the bottom line: nothing changes.
        send(&s, .bannerExpired(link))
        send(&s, .bannerExpired(warning)) { $0.banner = nil }
        // The same words again go to the top, once.
        send(&s, .bannerShown(link), effects: [.timer(.banner, milliseconds: 10_000, action: .bannerExpired(link))]) {
            $0.recentBanners = [link, warning]
        }
    }

    func testRecentMessagesAreKeptToTheirLimitAndForgottenAtStartOver() {
        var s = loaded()
        for i in 0..<(AppState.recentBannerLimit + 3) {
            prepare(&s, .bannerShown(Banner(.verbatim("message \(i)"))))
        }
        XCTAssertEqual(s.recentBanners.count, AppState.recentBannerLimit)
        XCTAssertEqual(s.recentBanners.first, Banner(.verbatim("message \(AppState.recentBannerLimit + 2)")))
        prepare(&s, .startOver)
        XCTAssertEqual(s.recentBanners, [], "the next visitor does not read this one's messages")
    }

    func testErrorsStayLongerThanWarningsAndWarningsLongerThanNotes() {
        let info = Banner(.verbatim("x")).lifetimeMilliseconds
        let warning = Banner(.verbatim("x"), level: .warning).lifetimeMilliseconds
        let error = Banner(.verbatim("x"), level: .error).lifetimeMilliseconds
        XCTAssertLessThan(info, warning)
        XCTAssertLessThan(warning, error)
        XCTAssertLessThanOrEqual(info, 12_000, "the key hints are back 12 s after Info › Tickets")
    }

    func testHelpShowsTheRecentMessagesWholeNewestFirst() {
        var s = loaded(size: Size(width: 60, height: 24))
        let url = "https://example.org/tickets?utm_source=docent"
        prepare(&s, .bannerShown(Banner(.key(.bannerLink, ["url": .verbatim(url)]))), .bannerShown(Banner(.verbatim("Your note was sent."))))
        s.banner = nil
        prepare(&s, .showHelp)
        let text = screenText(s, Size(width: 60, height: 24)).joined(separator: "\n")
        XCTAssertTrue(text.contains("Recent messages"), text)
        let sent = text.range(of: "Your note was sent.")
        let visit = text.range(of: "To visit")
        XCTAssertNotNil(sent, text)
        XCTAssertNotNil(visit, text)
        if let sent, let visit { XCTAssertLessThan(sent.lowerBound, visit.lowerBound, "newest first") }
        XCTAssertTrue(text.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " │", with: "").contains("example.org/tickets"), text)
        assertSnapshot(RootView.render(s, size: Size(width: 60, height: 24)), named: "help-recent-messages-60x24")
    }

    // MARK: #4 Keypad numbers wherever a work is listed

    func testSearchResultsShowTheKeypadNumber() {
        var s = loaded()
        search(&s, "moon jar")
        let row = SearchPage.rows(s.search, FeatureContext(s)).first { $0.row.text == "Moon Jar" }
        XCTAssertEqual(row?.row.number, "105")
        let lines = screenText(s)
        XCTAssertTrue(lines.contains { $0.contains("105 Moon Jar") }, lines.joined(separator: "\n"))
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "search-moon-jar-numbers-80x24")
    }

    func testTourStopsAndTheMapCardShowTheKeypadNumber() throws {
        let s = loaded()
        let app = SearchTests.fileMuseum.data
        let tour = try XCTUnwrap(app.tours.first { $0.english.title == "Threads and Clay" })
        let rows = TourFeature.tourRows(tour, app, s[TourFeature.self], FeatureContext(s))
        XCTAssertTrue(rows.contains { $0.text.hasSuffix("Moon Jar") && $0.number == "105" }, "\(rows.map { ($0.text, $0.number) })")
        let jar = try XCTUnwrap(app.artworks.values.first { $0.title == "Moon Jar" })
        XCTAssertEqual(jar.keypadLabel, "105")
    }

    func testTheKeypadNamesTheWorkAsTheNumberIsTyped() {
        var s = loaded()
        prepare(&s, .keypadDigit("1"), .keypadDigit("0"))
        XCTAssertNil(KeypadView.preview(s.keypad, FeatureContext(s)), "no work is 10")
        prepare(&s, .keypadDigit("5"))
        XCTAssertEqual(KeypadView.preview(s.keypad, FeatureContext(s)), "Moon Jar")
        let lines = screenText(s)
        XCTAssertTrue(lines.contains { $0.contains("Moon Jar") }, lines.joined(separator: "\n"))
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "keypad-preview-105-80x24")
        assertSnapshot(RootView.render(s, size: Size(width: 40, height: 12)), named: "keypad-preview-105-40x12")
    }

    // MARK: #2 The Audio Guide is never a dead end

    func testStoppingTakesThePlayerOffEveryTabItWasOn() {
        var s = loaded()
        prepare(&s, .keypadDigit("1"), .keypadDigit("0"), .keypadDigit("5"), .keypadGo)
        XCTAssertEqual(s.stacks[.audioGuide]?.last?.route, .player, "GO opened the player on the Audio Guide")
        prepare(&s, .selectTab(.home))
        let effects = prepare(&s, .player(.stop))
        XCTAssertTrue(effects.contains(.audio(.stop)))
        XCTAssertEqual(s.stacks[.audioGuide]?.last?.route, .keypad, "the keypad, not \"Nothing is playing\"")
        prepare(&s, .selectTab(.audioGuide))
        let lines = screenText(s)
        XCTAssertFalse(lines.contains { $0.contains("Nothing is playing") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.contains("_ _ _ _ _") }, lines.joined(separator: "\n"))
    }

    func testStoppingOnThePlayerItselfGoesBackToTheKeypad() {
        var s = loaded()
        prepare(&s, .keypadDigit("1"), .keypadDigit("0"), .keypadDigit("5"), .keypadGo)
        prepare(&s, .player(.stop))
        XCTAssertEqual(s.page.route, .keypad)
        XCTAssertEqual(s.tab, .audioGuide)
    }

    // MARK: #8 Search knows tours, exhibitions and events

    func testTheWordTourListsEveryTourWithoutDidYouMean() {
        var s = loaded()
        search(&s, "tour")
        let results = s.search.results
        XCTAssertEqual(results?.count(.tour), SearchTests.fileMuseum.data.tours.count)
        XCTAssertNil(s.search.didYouMean)
        let lines = screenText(s)
        XCTAssertTrue(lines.contains { $0.contains("Water and Light") }, lines.joined(separator: "\n"))
        // In Korean, and the English word in the Spanish guide.
        var ko = loaded(.korean)
        search(&ko, "투어")
        XCTAssertEqual(ko.search.results?.count(.tour), SearchTests.fileMuseum.data.tours.count)
        var es = loaded(.spanish)
        search(&es, "Tours")
        XCTAssertEqual(es.search.results?.count(.tour), SearchTests.fileMuseum.data.tours.count)
    }

    func testExhibitionsAndEventsAreListedByTheirKindsName() {
        var s = loaded()
        search(&s, "exhibitions")
        XCTAssertEqual(s.search.results?.count(.exhibition), s.exhibitions.value?.count)
        XCTAssertGreaterThan(s.search.results?.count(.exhibition) ?? 0, 0)
        search(&s, "events")
        XCTAssertGreaterThan(s.search.results?.count(.event) ?? 0, 0)
    }

    func testATourIsFoundByTheWordsOfItsStops() throws {
        var s = loaded()
        search(&s, "estuary")
        let water = try XCTUnwrap(SearchTests.fileMuseum.data.tours.first { $0.english.title == "Water and Light" })
        XCTAssertTrue(s.search.results?.hits(.tour).contains { $0.target == .tour(water.id) } ?? false, "Rain on the Estuary is one of its stops")
    }

    func testAnEventIsFoundByAWordOfItsTitleAndOpens() throws {
        var s = loaded()
        search(&s, "sketching")
        let hits = try XCTUnwrap(s.search.results?.hits(.event))
        XCTAssertFalse(hits.isEmpty)
        let rows = SearchPage.rows(s.search, FeatureContext(s))
        let i = try XCTUnwrap(rows.firstIndex { $0.row.text == "Evening Sketching in the Galleries" })
        XCTAssertTrue(screenText(s).contains { $0.contains("Evening Sketching") })
        s.search.selection = i
        prepare(&s, .search(.activate))
        guard case .open(.event(let id))? = rows[i].action else { return XCTFail("\(String(describing: rows[i].action))") }
        XCTAssertEqual(s.page.route, .eventDetail(id))
    }
}

extension ThirdVisitTests {
    /// Issue 47 #9: a Traditional Chinese reader's *Popular right now* names a work by its
    /// Chinese title, as a Simplified reader's does (it showed the English one): the museum's
    /// Chinese is one content language, drawn in the reader's script.
    func testATraditionalReaderSeesAWorksChineseTitleInPulse() throws {
        let m = try XCTUnwrap(MapScreenTests.museum, "SampleData reads")
        var s = AppState(source: MapScreenTests.sampleSource, catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        prepare(&s, .documentLoaded(.success(m), note: nil))
        s.language = .chinese
        XCTAssertEqual(PulseFeature.title(.artwork(1118), FeatureContext(s)), "河口的雨")
        s.language = .traditionalChinese
        XCTAssertEqual(PulseFeature.title(.artwork(1118), FeatureContext(s)), "河口的雨")
        s.language = .korean
        XCTAssertEqual(PulseFeature.title(.artwork(1118), FeatureContext(s)), "Rain on the Estuary", "no Korean title: the work's own")
    }
}

extension ThirdVisitTests {
    /// Issue 47 #9: when a title in English is cut, the title gives up its end and the
    /// "(en inglés)" marker stays (the marker went first).
    func testTheInEnglishMarkerStaysWhenATitleIsCut() {
        let s = UIFixtures.catalog.strings(for: .spanish)
        let marker = s(.contentInEnglishShort)
        var screen = Screen(width: 40, height: 3)
        let rows = [
            Row(.item, "Tidewater: Painting the Working Harbour and the Estuary", detail: "40 min", fellBack: true),
            Row(.item, "Short", fellBack: true),
        ]
        ListView.render(&screen, Rect(x: 0, y: 0, width: 40, height: 3), rows: rows, selection: 1, strings: s)
        let cut = screen.row(0).trimmingCharacters(in: .whitespaces)
        XCTAssertTrue(cut.contains("… " + marker) || cut.contains("…" + marker), cut)
        XCTAssertTrue(cut.hasPrefix("Tidewater"), cut)
        XCTAssertTrue(cut.hasSuffix("40 min"), cut)
        XCTAssertTrue(screen.row(1).contains("Short " + marker), screen.row(1))
    }
}

extension ThirdVisitTests {
    /// Issue 47 #9: a language is named in the interface's language ("오디오: 영어", not
    /// "오디오: English"), by ICU's names.
    func testALanguageIsNamedInTheInterfacesLanguage() {
        XCTAssertEqual(Language.english.name(in: .korean), "영어")
        XCTAssertEqual(Language.english.name(in: .spanish), "inglés")
        XCTAssertEqual(Language.spanish.name(in: .french), "espagnol")
        XCTAssertEqual(Language.english.name(in: .chinese), "英语")
        XCTAssertEqual(Language.english.name(in: .traditionalChinese), "英文")
        XCTAssertEqual(Language.korean.name(in: .english), "Korean")
        XCTAssertEqual(Language(code: "xx").name(in: .english), Language(code: "xx").nativeName, "no ICU name: its code")
    }
}


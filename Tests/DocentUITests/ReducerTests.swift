import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// TCA-style: every action states the exact change to the state and the exact effects.
final class ReducerTests: XCTestCase {
    /// Sends `action`; `expect` describes the change by mutating a copy of the old state.
    func fresh() -> AppState {
        AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
    }

    func testFirstLaunchShowsIntroAndLoads() {
        var s = fresh()
        send(&s, .launched(restored: nil, languageOverride: nil), effects: [.loadDocument(source: "/museum/appData.json"), .pulse(.open(.defaultFile, identity: nil, seed: "/museum/pulse/seed.json"))]) {
            $0.overlay = .help(firstRun: true)
        }
    }

    func testRestoredSettingsAndLanguageOverride() {
        var s = fresh()
        let saved = PersistedSettings(language: .spanish, lastTab: .info, seenMessageIDs: [7], locationEnabled: false, introSeen: true)
        // A Chinese reader: the script tables are asked for too (content in the reader's script).
        send(
            &s, .launched(restored: saved, languageOverride: .chinese),
            effects: [.loadDocument(source: "/museum/appData.json"), .pulse(.open(.defaultFile, identity: nil, seed: "/museum/pulse/seed.json")), ScriptsFeature.effect(.build)]
        ) {
            $0.language = .chinese
            $0[ScriptsFeature.self].requested = true
            // --lang is for this run: the visitor's saved choice is still the one saved.
            $0.chosenLanguage = .spanish
            $0.tab = .info
            $0.seenMessageIDs = [7]
            $0.locationEnabled = false
            $0.introSeen = true
        }
        // A language without UI strings is ignored.
        var t = fresh()
        send(&t, .launched(restored: PersistedSettings(language: Language(code: "de"), introSeen: true), languageOverride: nil), effects: [.loadDocument(source: "/museum/appData.json"), .pulse(.open(.defaultFile, identity: nil, seed: "/museum/pulse/seed.json"))]) {
            $0.introSeen = true
        }
        // Saved values that could not be read are said, not silently dropped (issue 17 #0).
        var u = fresh()
        var damaged = PersistedSettings(introSeen: true)
        damaged.skippedValues = 2
        send(&u, .launched(restored: damaged, languageOverride: nil), effects: [.loadDocument(source: "/museum/appData.json"), .pulse(.open(.defaultFile, identity: nil, seed: "/museum/pulse/seed.json"))]) {
            $0.introSeen = true
            $0.banner = Banner(.key(.bannerStateValuesSkipped, ["count": .verbatim("2")]), level: .warning)
        }
        XCTAssertEqual(u.banner?.text(u.strings), "2 saved values could not be read and were left out; the rest of your settings are restored.")
    }

    func testDocumentLoadedQueuesUnseenLaunchMessageAndFetches() throws {
        var s = fresh()
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        let m = UIFixtures.museum()
        let ex = try XCTUnwrap(DataAggregator.exhibitionsRequest(app: m.data, now: UIFixtures.now))
        let ev = try XCTUnwrap(DataAggregator.eventsRequest(app: m.data, now: UIFixtures.now))
        XCTAssertEqual(ex.url, "/museum/search/exhibitions.json", "file endpoints are read, not POSTed")
        XCTAssertEqual(ex.method, .get)
        // The search index is built off the loop thread: asked for, not built here.
        send(&s, .documentLoaded(.success(m), note: nil), effects: [.fetch(.exhibitions, ex), .fetch(.events, ev), .search(.buildIndex(m))]) {
            $0.document = .ready(m)
            $0.overlay = .message(id: 7)
            $0.exhibitions = .loading
            $0.events = .loading
        }
        send(&s, .dismissOverlay, effects: [.persist(PersistedSettings(lastTab: .home, seenMessageIDs: [7], introSeen: true))]) {
            $0.overlay = nil
            $0.seenMessageIDs = [7]
        }
        // Seen: not shown again on the next start.
        var again = fresh()
        prepare(&again, .launched(restored: PersistedSettings(seenMessageIDs: [7], introSeen: true), languageOverride: nil))
        send(&again, .documentLoaded(.success(m), note: nil), effects: [.fetch(.exhibitions, ex), .fetch(.events, ev), .search(.buildIndex(m))]) {
            $0.document = .ready(m)
            $0.exhibitions = .loading
            $0.events = .loading
        }
        XCTAssertNil(again.overlay)
    }

    func testDocumentFailureAndOfflineNote() throws {
        var s = fresh()
        send(&s, .documentLoaded(.failure(LoadFailure("file not found: /x")), note: nil)) {
            $0.document = .failed("file not found: /x")
            $0.banner = Banner(.key(.bannerDocumentFailed), level: .error)
        }
        var o = fresh()
        o.introSeen = true
        let m = UIFixtures.museum()
        let note = Phrase.key(.bannerOfflineCopy, ["date": .verbatim("2026-11-20 10:00"), "reason": .verbatim("cannot reach x")])
        let ex = try XCTUnwrap(DataAggregator.exhibitionsRequest(app: m.data, now: UIFixtures.now))
        let ev = try XCTUnwrap(DataAggregator.eventsRequest(app: m.data, now: UIFixtures.now))
        // Exhibitions, events, the search index; the note as a warning banner.
        send(&o, .documentLoaded(.success(m), note: note), effects: [.fetch(.exhibitions, ex), .fetch(.events, ev), .search(.buildIndex(m))]) {
            $0.document = .ready(m)
            $0.documentNote = note
            $0.banner = Banner(note, level: .warning)
            $0.overlay = .message(id: 7)
            $0.exhibitions = .loading
            $0.events = .loading
        }
        XCTAssertEqual(o.banner?.text(o.strings), "Offline: using the copy saved 2026-11-20 10:00 (cannot reach x)")
        // Drawn in the language on screen, even for a banner shown before the switch.
        o.language = .spanish
        XCTAssertEqual(o.banner?.text(o.strings), "Sin conexión: se usa la copia guardada el 2026-11-20 10:00 (cannot reach x)")
        // A request that fails leaves it; one that succeeds (the servers are back) clears the
        // banner, while Info still says which copy is in use.
        send(&o, .fetched(.events, .failure(.timedOut(url: "https://api.example/events")))) {
            $0.events = .failed("timed out fetching https://api.example/events")
            $0.home.problems[.events] = .timedOut
        }
        XCTAssertNotNil(o.banner)
        let onView = try DataAggregator.exhibitions(from: UIFixtures.bytes("exhibitions.json"), app: m.data, now: o.now).get()
        send(&o, .fetched(.exhibitions, .success(UIFixtures.bytes("exhibitions.json")))) {
            $0.exhibitions = .loaded(onView)
            $0.banner = nil
        }
        XCTAssertEqual(o.documentNote, note)
    }

    /// A failure stays in its section, with the detail kept (for the log) and a plain reason
    /// for the visitor; `r` on Home asks again for the failed sections only.
    func testFetchResultsFailuresStayInTheirSectionAndRRetries() throws {
        var s = UIFixtures.loadedState()
        send(&s, .fetched(.exhibitions, .failure(.http(status: 500, url: "https://api.example/exhibitions")))) {
            $0.exhibitions = .failed("HTTP 500 from https://api.example/exhibitions")
            $0.home.problems[.exhibitions] = .http(500)
        }
        send(&s, .fetched(.events, .success(Array("not json".utf8)))) {
            $0.events = .failed("the response is not JSON (unexpected 'o' at line 1, column 2)")
            $0.home.problems[.events] = .unreadable
        }
        let text = Reducer.rows(s)?.map(\.text) ?? []
        XCTAssertTrue(text.contains(s.strings(.homeUnavailableExhibitions, ["reason": s.strings(.fetchReasonHttp, ["status": "500"])])), "\(text)")
        XCTAssertTrue(text.contains(s.strings(.homeUnavailableEvents, ["reason": s.strings(.fetchReasonUnreadable)])), "\(text)")
        XCTAssertFalse(text.joined().contains("api.example"), "no URL or libcurl words on screen")

        XCTAssertEqual(KeyMap.action(for: .char("r"), in: s), HomeFeature.action(.retry))
        let app = try XCTUnwrap(s.museum)
        let exhibitions = try XCTUnwrap(DataAggregator.exhibitionsRequest(app: app, now: s.now))
        let events = try XCTUnwrap(DataAggregator.eventsRequest(app: app, now: s.now))
        send(&s, HomeFeature.action(.retry), effects: [.fetch(.exhibitions, exhibitions), .fetch(.events, events)]) {
            $0.exhibitions = .loading
            $0.events = .loading
            $0.home.problems = [:]
        }
        // Only what failed is asked again; with nothing failed, r is not Home's.
        let onView = try DataAggregator.exhibitions(from: UIFixtures.bytes("exhibitions.json"), app: app, now: s.now).get()
        send(&s, .fetched(.exhibitions, .success(UIFixtures.bytes("exhibitions.json")))) { $0.exhibitions = .loaded(onView) }
        send(&s, .fetched(.events, .failure(.unreachable(url: "https://api.example/events", reason: "Couldn't connect to server")))) {
            $0.events = .failed("cannot reach https://api.example/events: Couldn't connect to server")
            $0.home.problems[.events] = .unreachable
        }
        send(&s, HomeFeature.action(.retry), effects: [.fetch(.events, events)]) {
            $0.events = .loading
            $0.home.problems = [:]
        }
        XCTAssertNil(KeyMap.action(for: .char("r"), in: s))
        // Not on another tab.
        send(&s, .fetched(.events, .failure(.timedOut(url: "https://api.example/events")))) {
            $0.events = .failed("timed out fetching https://api.example/events")
            $0.home.problems[.events] = .timedOut
        }
        prepare(&s, .selectTab(.info))
        XCTAssertNotEqual(KeyMap.action(for: .char("r"), in: s), HomeFeature.action(.retry))
    }

    func testTabsCycleAndPersist() {
        var s = UIFixtures.loadedState()
        func saved(_ t: Tab) -> [Effect] { [.persist(PersistedSettings(lastTab: t, introSeen: true))] }
        let tabs = s.tabs
        XCTAssertEqual(tabs.first, .home)
        XCTAssertEqual(tabs.last, .info)
        XCTAssertEqual(tabs, Tab.allCases.filter(tabs.contains), "tabs keep the product order")
        var from = Tab.home
        for t in tabs.dropFirst() + [.home] {
            send(&s, .nextTab, effects: saved(t)) {
                $0.tab = t
                // Search keeps where the visitor came from (Esc returns there).
                if t == .search { $0.search.returnTab = from }
            }
            from = t
        }
        send(&s, .previousTab, effects: saved(.info)) { $0.tab = .info }
        send(&s, .selectTab(.info))
        if !tabs.contains(.search) { send(&s, .selectTab(.search)) }  // not available: nothing happens
        send(&s, .selectTab(.home), effects: saved(.home)) { $0.tab = .home }
    }

    func testMoveSkipsHeadersAndClamps() {
        var s = UIFixtures.loadedState()
        // Rows: note, header, tour 500, tour 501, see all, header, exhibition, header, event.
        send(&s, .move(1)) { $0.page.selection = 3 }
        send(&s, .move(1)) { $0.page.selection = 4 }
        send(&s, .move(1)) { $0.page.selection = 6 }
        send(&s, .move(10)) { $0.page.selection = 8 }
        send(&s, .move(-100)) { $0.page.selection = 2 }
        send(&s, .moveToEnd) { $0.page.selection = 8 }
        send(&s, .moveToStart) { $0.page.selection = 2 }
    }

    func testOpenAndBack() {
        var s = UIFixtures.loadedState()
        // The tour page is a list: title, facts, texts, "start", then one row per stop.
        send(&s, .activate) { $0.stacks[.home] = [Page(.home), Page(.tourDetail(500), selection: 4)] }
        send(&s, .move(1)) { $0.page.selection = 6 }
        send(&s, .activate) { $0.overlay = .tourLanguage(tourID: 500, stop: 0, selection: 0) }
        send(&s, .back) { $0.overlay = nil }
        send(&s, .back) { $0.stacks[.home] = [Page(.home)] }
        send(&s, .back)
        // See-all opens with the first selectable row selected.
        send(&s, .move(2)) { $0.page.selection = 4 }
        send(&s, .activate) { $0.stacks[.home] = [Page(.home, selection: 4), Page(.allTours, selection: 0)] }
        send(&s, .clickRow(1)) {
            $0.stacks[.home] = [Page(.home, selection: 4), Page(.allTours, selection: 1), Page(.tourDetail(501), selection: 3)]
        }
    }

    func testTextPagesScrollWithinTheirLength() {
        var s = UIFixtures.loadedState()
        prepare(&s, .viewportChanged(rows: 4, width: 30), .move(3), .activate)
        guard case .text(let page) = PageBuilder.content(s.page.route, s) else { return XCTFail("not a text page") }
        let lines = page.lines(width: 30, strings: s.strings).count
        send(&s, .page(1)) { $0.page.scroll = 3 }
        send(&s, .moveToEnd) { $0.page.scroll = lines - 4 }
        send(&s, .move(5))
        send(&s, .moveToStart) { $0.page.scroll = 0 }
    }

    func testLanguagePickerAndSwitch() {
        var s = UIFixtures.loadedState()
        send(&s, .openLanguagePicker) { $0.overlay = .languagePicker(selection: 0) }
        send(&s, .move(1)) { $0.overlay = .languagePicker(selection: 1) }
        // en, es, zh, zh-hant, ko, fr: the last is 5.
        send(&s, .move(5)) { $0.overlay = .languagePicker(selection: 5) }
        send(&s, .move(-2)) { $0.overlay = .languagePicker(selection: 3) }
        send(&s, .activate, effects: [ScriptsFeature.effect(.build), .persist(PersistedSettings(language: .traditionalChinese, lastTab: .home, introSeen: true))]) {
            $0.language = .traditionalChinese
            $0.chosenLanguage = .traditionalChinese
            $0.overlay = nil
            $0[ScriptsFeature.self].requested = true
        }
        send(&s, .setLanguage(Language(code: "de")))
        send(&s, .setLanguage(.spanish), effects: [.persist(PersistedSettings(language: .spanish, lastTab: .home, introSeen: true))]) {
            $0.language = .spanish
            $0.chosenLanguage = .spanish
        }
    }

    func testInfoActions() {
        var s = UIFixtures.loadedState()
        send(&s, .selectTab(.info), effects: [.persist(PersistedSettings(lastTab: .info, introSeen: true))]) { $0.tab = .info }
        // Rows: note, header, hours, tickets, website, header, language, location, header, about.
        send(&s, .move(4)) { $0.page.selection = 7 }
        send(&s, .activate, effects: [.persist(PersistedSettings(lastTab: .info, locationEnabled: false, introSeen: true))]) {
            $0.locationEnabled = false
        }
        send(&s, .move(-1)) { $0.page.selection = 6 }
        send(&s, .activate) { $0.overlay = .languagePicker(selection: 0) }
        send(&s, .back) { $0.overlay = nil }
    }

    func testFirstRunIntroIsRememberedOnce() {
        var s = fresh()
        prepare(&s, .launched(restored: nil, languageOverride: nil))
        send(&s, .dismissOverlay, effects: [.persist(PersistedSettings(lastTab: .home, introSeen: true))]) {
            $0.overlay = nil
            $0.introSeen = true
        }
        send(&s, .showHelp) { $0.overlay = .help(firstRun: false) }
        send(&s, .selectTab(.info), effects: [.persist(PersistedSettings(lastTab: .info, introSeen: true))]) {
            $0.overlay = nil
            $0.tab = .info
        }
    }

    func testQuitPersistsFirst() {
        var s = UIFixtures.loadedState()
        send(&s, .quit, effects: [.persist(s.settings), .quit]) { $0.quitting = true }
    }

    func testPersistenceFailureIsABanner() {
        var s = UIFixtures.loadedState()
        send(&s, .persistenceFailed("database is locked")) {
            $0.banner = Banner(.key(.bannerStateNotSaved, ["reason": .verbatim("database is locked")]), level: .warning)
        }
    }

    func testKeyMap() {
        let s = UIFixtures.loadedState()
        XCTAssertEqual(KeyMap.action(for: .tab, in: s), .nextTab)
        XCTAssertEqual(KeyMap.action(for: .function(6), in: s), .selectTab(.info))
        XCTAssertEqual(KeyMap.action(for: .alt("1"), in: s), .selectTab(.home))
        XCTAssertEqual(KeyMap.action(for: .char("5"), in: s), .keypadDigit("5"), "digits belong to the keypad")
        XCTAssertEqual(KeyMap.action(for: .char("j"), in: s), .move(1))
        XCTAssertEqual(KeyMap.action(for: .escape, in: s), .back)
        XCTAssertEqual(KeyMap.action(for: .ctrl("c"), in: s), .quit)
        var o = s
        o.overlay = .help(firstRun: false)
        XCTAssertEqual(KeyMap.action(for: .escape, in: o), .dismissOverlay)
        XCTAssertEqual(KeyMap.action(for: .tab, in: o), .nextTab, "the help closes on the tab keys it teaches (WelcomeTests)")
        o.overlay = .message(id: 7)
        XCTAssertNil(KeyMap.action(for: .tab, in: o), "a museum's message is read before moving on")
    }
}

import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// The rest of issue 47 (a third visit): the kiosk's welcome and staff code, the loading
/// screen's progress, Pulse's visit code, the player's bar, glyphs, Home's selection, the map's
/// labels and plurals.
final class ThirdVisitRestTests: XCTestCase {
    // MARK: #12 Kiosk: the museum's name in every language, and a wrong code said

    func kiosk(_ extra: [String: String] = [:], size: Size = Size(width: 80, height: 24)) -> AppState {
        UIFixtures.loadedState(size: size, config: KioskTests.config.merging(extra) { $1 })
    }

    @discardableResult
    func keys(_ s: inout AppState, _ keys: [Key]) -> [Effect] {
        var effects: [Effect] = []
        for k in keys { effects += pressKey(&s, k, asVisitor: true) }
        return effects
    }

    func screenText(_ s: AppState, _ size: Size) -> [String] {
        let screen = RootView.render(s, size: size)
        return (0..<size.height).map { screen.row($0) }
    }

    func testTheWaitingScreenWelcomesToTheMuseumByNameInEveryLanguage() {
        let size = Size(width: 80, height: 24)
        var s = kiosk(["museum_name": "  Velden Museum of Art "], size: size)
        XCTAssertEqual(s.kiosk.museumName, "Velden Museum of Art")
        prepare(&s, .kiosk(.idle))
        let text = screenText(s, size).joined(separator: "\n")
        for language in s.catalog.languages {
            let strings = s.catalog.strings(for: language)
            XCTAssertTrue(text.contains(strings(.kioskWelcomeMuseum, ["museum": "Velden Museum of Art"])), "\(language.code):\n\(text)")
            XCTAssertTrue(text.contains(strings(.kioskPressAnyKey)), language.code)
        }
        assertSnapshot(RootView.render(s, size: size), named: "kiosk-waiting-named-80x24")
        // Without a name, the welcome is still in every language.
        var plain = kiosk(size: size)
        prepare(&plain, .kiosk(.idle))
        let plainText = screenText(plain, size).joined(separator: "\n")
        for language in plain.catalog.languages {
            XCTAssertTrue(plainText.contains(plain.catalog.strings(for: language)(.kioskWelcome)), language.code)
        }
    }

    func testAWrongStaffCodeIsSaidAndTheLockStillHolds() {
        var s = kiosk()
        func code(_ c: String) {
            keys(&s, [.ctrl("x")] + c.map { Key.char($0) } + [.enter])
        }
        code("1111")
        XCTAssertEqual(s.banner, Banner(.key(.kioskWrongCode), level: .warning))
        XCTAssertTrue(screenText(s, Size(width: 80, height: 24)).contains { $0.contains("Wrong staff code.") })
        code("1112")
        code("1113")
        XCTAssertEqual(s.banner, Banner(.key(.kioskWrongCodeLocked, ["seconds": .verbatim("30")]), level: .warning))
        XCTAssertTrue(s.kiosk.locked)
        code("2468")
        XCTAssertEqual(s.banner, Banner(.key(.kioskCodesRefused), level: .warning))
        XCTAssertFalse(s.kiosk.unlocked, "the right code during the lock is not looked at")
        prepare(&s, .kiosk(.lockOver))
        code("2468")
        XCTAssertTrue(s.kiosk.unlocked)
    }
}

extension ThirdVisitRestTests {
    // MARK: #7 A source that accepts and never answers

    func testTheLoadingPageSaysHowLongItHasWaitedForWhatAndTheWayOut() {
        let size = Size(width: 80, height: 24)
        var s = AppState(source: "http://museum.example/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        s.introSeen = true
        prepare(&s, .viewportChanged(rows: RootView.viewport(for: size).rows, width: size.width))
        XCTAssertFalse(screenText(s, size).contains { $0.contains(" s") && $0.contains("Loading") }, "no count before a second")
        prepare(&s, .tick(UIFixtures.now.addingTimeInterval(12)))
        let text = screenText(s, size).joined(separator: "\n")
        XCTAssertTrue(text.contains("Loading the museum guide… 12 s"), text)
        XCTAssertTrue(text.contains("Waiting for http://museum.example/appData.json to answer. Press q to quit."), text)
        XCTAssertEqual(KeyMap.action(for: .char("q"), in: s), .quit)
        assertSnapshot(RootView.render(s, size: size), named: "loading-waited-80x24")
        var ko = s
        ko.language = .korean
        assertSnapshot(RootView.render(ko, size: Size(width: 40, height: 12)), named: "loading-waited-ko-40x12")
        // On a museum's kiosk q does not quit, so the page does not say it does.
        var kiosk = s
        kiosk.config["kiosk"] = "true"
        let kioskText = screenText(kiosk, size).joined(separator: "\n")
        XCTAssertTrue(kioskText.contains("Waiting for http://museum.example/appData.json to answer."), kioskText)
        XCTAssertFalse(kioskText.contains("Press q"), kioskText)
    }
}

/// Issue 47 #11, the rest: the visit code box refuses what cannot be a code as it is typed and
/// clears at one key; `f notes (N)` fits the 80-column Home; a list of the museum's notes in
/// other languages says why.
final class ThirdVisitPulseTests: XCTestCase {
    let creds = VisitorCredentials(visitor: VisitorID("visitor01")!, secret: "s")

    func ready(_ gate: PostingGate, _ language: Language = .english, size: Size = Size(width: 80, height: 24)) -> AppState {
        var s = UIFixtures.loadedState(language: language, size: size)
        prepare(&s, .pulse(.opened(.success(creds))))
        prepare(&s, .pulse(.checked(.success(PulseSnapshot(version: PulseVersion(3), noteCounts: [.museum: 2], takenAt: s.now, posting: gate)))))
        s.tab = .info
        return s
    }

    func testAVisitCodeOfAnImpossibleFormIsRefusedAsItIsTyped() {
        var s = ready(.visitCode)
        prepare(&s, .pulse(.open), .pulse(.choose(4)))
        XCTAssertEqual(s.overlay, PulseFeature.show(.visitCode(.museum, thenSend: false)))
        // O is in no code (nor 0, 1, I): not taken, and said at once.
        for k: Key in [.char("k"), .char("7"), .char("o")] { _ = pressKey(&s, k) }
        XCTAssertEqual(s.pulse.codeField, "K7")
        XCTAssertEqual(s.pulse.codeProblem, .notInCodes("o"))
        let size = Size(width: 80, height: 24)
        let screen = RootView.render(s, size: size)
        XCTAssertTrue((0..<size.height).contains { screen.row($0).contains("Visit codes have no “o”") })
        assertSnapshot(screen, named: "pulse-visit-code-refused-80x24")
        // A right character clears the complaint; no more than six are taken.
        for k: Key in [.char("q"), .char("m"), .char("2"), .char("p"), .char("z")] { _ = pressKey(&s, k) }
        XCTAssertEqual(s.pulse.codeField, "K7QM2P")
        XCTAssertNil(s.pulse.codeProblem)
        // Ctrl-U empties the field at once.
        _ = pressKey(&s, .ctrl("u"))
        XCTAssertEqual(s.pulse.codeField, "")
        // Too short: said, not sent, the box stays.
        for k: Key in [.char("k"), .char("7"), .char("q"), .enter] { _ = pressKey(&s, k) }
        XCTAssertEqual(s.pulse.codeProblem, .length)
        XCTAssertNil(s.pulse.visitCode)
        XCTAssertEqual(s.overlay, PulseFeature.show(.visitCode(.museum, thenSend: false)))
        var ko = s
        ko.language = .korean
        assertSnapshot(RootView.render(ko, size: Size(width: 40, height: 12)), named: "pulse-visit-code-short-ko-40x12")
    }

    func testTheNotesHintFitsThe80ColumnHome() throws {
        var s = UIFixtures.loadedState(size: Size(width: 80, height: 24))
        let subject = try XCTUnwrap(PulseFeature.currentSubject(FeatureContext(s)), "Home's selected row is a work, a tour or an exhibition")
        prepare(&s, .pulse(.opened(.success(creds))))
        prepare(&s, .pulse(.checked(.success(PulseSnapshot(version: PulseVersion(3), noteCounts: [subject: 3], takenAt: s.now)))))
        s.banner = nil
        let size = Size(width: 80, height: 24)
        let bottom = RootView.render(s, size: size).row(size.height - 1)
        XCTAssertTrue(bottom.contains("f notes (3)"), bottom)
        XCTAssertTrue(bottom.contains("? help") && bottom.contains("q quit"), bottom)
    }

    func testAListOfTheMuseumsNotesInOtherLanguagesSaysWhy() {
        var s = ready(.open)
        prepare(&s, .pulse(.open), .pulse(.choose(5)))
        let fr = PulseNote(id: NoteID(visitor: VisitorID("curator01")!, sequence: 1), subject: .museum, language: .french, text: "Le bleu change", createdAt: s.now, author: .curator, counts: PulseCounts())
        let es = PulseNote(id: NoteID(visitor: VisitorID("curator01")!, sequence: 2), subject: .museum, language: .spanish, text: "El azul cambia", createdAt: s.now, author: .curator, counts: PulseCounts())
        prepare(&s, .pulse(.notesLoaded(.museum, .success([fr, es]))))
        XCTAssertEqual(s.pulse.notes.count, 2)
        let size = Size(width: 80, height: 24)
        let text = (0..<size.height).map { RootView.render(s, size: size).row($0) }.joined(separator: "\n")
        XCTAssertTrue(text.contains("The museum wrote no note here in your language"), text)
        // With one in English, the English one alone, and nothing to explain.
        let en = PulseNote(id: NoteID(visitor: VisitorID("curator01")!, sequence: 3), subject: .museum, language: .english, text: "The blue shifts", createdAt: s.now, author: .curator, counts: PulseCounts())
        prepare(&s, .pulse(.notesLoaded(.museum, .success([fr, es, en]))))
        XCTAssertEqual(s.pulse.notes.map(\.id), [en.id])
        let after = (0..<size.height).map { RootView.render(s, size: size).row($0) }.joined(separator: "\n")
        XCTAssertFalse(after.contains("The museum wrote no note here"), after)
    }
}

extension ThirdVisitRestTests {
    // MARK: #14 The player: a click on the bar seeks, one bar on the full player

    func playing(_ size: Size) -> AppState {
        var s = UIFixtures.loadedState(size: size)
        let id = s.museum?.audioFiles.keys.sorted().first ?? 0
        _ = PlayerFeature.play(&s, audioID: id, artworkID: nil, tourID: nil, language: .english)
        s.player.snapshot.status = .playing
        s.player.snapshot.duration = 200
        s.player.snapshot.position = 50
        return s
    }

    func testAClickOnTheProgressBarSeeksAndTheFullPlayerShowsOneBar() throws {
        let size = Size(width: 80, height: 24)
        var s = playing(size)
        // Under a tab, the mini player's bar opens the full player.
        let mini = RootView.render(s, size: size)
        let miniRow = try XCTUnwrap((0..<size.height).first { mini.row($0).contains("━") })
        XCTAssertEqual(mini.hitAction(x: size.width / 2, y: miniRow), .openPlayer)
        // The full player: one bar, and a click on its middle seeks to the middle.
        prepare(&s, .openPlayer)
        XCTAssertEqual(s.page.route, .player)
        let full = RootView.render(s, size: size)
        let bars = (0..<size.height).filter { full.row($0).contains("━━") }
        XCTAssertEqual(bars.count, 1, (0..<size.height).map { full.row($0) }.joined(separator: "\n"))
        let y = try XCTUnwrap(bars.first)
        let action = try XCTUnwrap(full.hitAction(x: size.width / 2, y: y))
        guard case .feature(let fv) = action, case .seekTo(let middle)? = fv.as(PlayerAction.self) else { return XCTFail("\(action)") }
        XCTAssertEqual(middle, 0.5, accuracy: 0.05)
        let effects = prepare(&s, action)
        XCTAssertEqual(effects, [.audio(.seek(200 * middle))])
        XCTAssertEqual(s.player.snapshot.position, 200 * middle)
        assertSnapshot(full, named: "player-one-bar-80x24")
        // Finished: the status apart from the title.
        s.player.snapshot.status = .ended
        prepare(&s, .back)
        let done = RootView.render(s, size: size)
        XCTAssertTrue((0..<size.height).contains { done.row($0).contains("✓ ") && done.row($0).contains(" · Finished") })
    }
}

extension ThirdVisitRestTests {
    // MARK: #18 Home: the selection stays, and a small Home opens at its top

    func testTheSelectionStaysOnItsRowWhenPopularRightNowArrives() throws {
        var s = UIFixtures.loadedState()
        let creds = VisitorCredentials(visitor: VisitorID("visitor01")!, secret: "s")
        prepare(&s, .pulse(.opened(.success(creds))))
        // The visitor chose the second row.
        prepare(&s, .move(1))
        func selected() -> RowAction? {
            guard case .list(_, let rows) = PageBuilder.content(s.page.route, s), let i = Row.effectiveSelection(rows, s.page.selection) else { return nil }
            return rows[i].action
        }
        let before = try XCTUnwrap(selected())
        let activity: [PulseSubject: PulseActivitySummary] = [.tour(500): PulseActivitySummary(recent: 7, today: 9, last: s.now.addingTimeInterval(-240))]
        prepare(&s, .pulse(.checked(.success(PulseSnapshot(version: PulseVersion(7), activity: activity, takenAt: s.now)))))
        guard case .list(_, let rows) = PageBuilder.content(s.page.route, s) else { return XCTFail("Home is a list") }
        XCTAssertTrue(rows.contains { $0.kind == .header && $0.text == s.strings(.pulsePopularTitle) }, "Popular right now arrived above")
        XCTAssertEqual(selected(), before, "the selection stayed on its row")
    }

    func testASmallHomeOpensAtItsTopNotMidSentence() {
        let size = Size(width: 40, height: 12)
        var s = AppState(source: SearchTests.sampleURL.path, catalog: UIFixtures.catalog, language: .english, now: UIFixtures.now, features: Registry.features)
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        UIFixtures.settle(&s, prepare(&s, .documentLoaded(.success(SearchTests.fileMuseum), note: nil)))
        let vp = RootView.viewport(for: size)
        prepare(&s, .viewportChanged(rows: vp.rows, width: vp.width))
        s.overlay = nil
        s.messageQueue = []
        let screen = RootView.render(s, size: size)
        let intro = SearchTests.fileMuseum.data.generalInfo.text("home_member_prompt_text", .english)?.text ?? ""
        let firstWords = String(intro.prefix(12))
        XCTAssertFalse(firstWords.isEmpty)
        XCTAssertTrue(screen.row(2).contains(firstWords), (0..<size.height).map { screen.row($0) }.joined(separator: "\n"))
        assertSnapshot(screen, named: "home-sample-40x12")
    }
}

extension ThirdVisitRestTests {
    // MARK: #9 Plurals and numbers by the language's rules

    func testPluralCategoriesFollowCLDRForEveryInterfaceLanguage() {
        let one: [Language: [Int]] = [.english: [1], .spanish: [1], .french: [0, 1], .korean: [], .chinese: [], .traditionalChinese: []]
        for (language, ones) in one {
            for n in [0, 1, 2, 5, 11, 21, 101, 1_000_000] {
                XCTAssertEqual(Plural.category(n, language), ones.contains(n) ? .one : .other, "\(language.code) \(n)")
            }
        }
    }

    func testNumbersAreWrittenAsTheLanguageWritesThem() {
        XCTAssertEqual(Plural.number(12_345, .english), "12,345")
        XCTAssertEqual(Plural.number(1_234, .english), "1,234")
        XCTAssertEqual(Plural.number(999, .english), "999")
        XCTAssertEqual(Plural.number(1_234, .spanish), "1234", "Spanish groups from five digits")
        XCTAssertEqual(Plural.number(12_345, .spanish), "12.345")
        XCTAssertEqual(Plural.number(1_234_567, .french), "1\u{202F}234\u{202F}567")
        XCTAssertEqual(Plural.number(12_345, .korean), "12,345")
        XCTAssertEqual(Plural.number(12_345, .traditionalChinese), "12,345")
        XCTAssertEqual(Plural.number(-1_234, .english), "-1,234")
    }

    func testStopsAreCountedByTheLanguagesRule() {
        func stops(_ n: Int, _ l: Language) -> String { TourFeature.stopsText(n, UIFixtures.catalog.strings(for: l)) }
        XCTAssertEqual(stops(1, .english), "1 stop")
        XCTAssertEqual(stops(2, .english), "2 stops")
        XCTAssertEqual(stops(0, .english), "0 stops")
        XCTAssertEqual(stops(0, .french), "0 étape", "French counts 0 as one")
        XCTAssertEqual(stops(1, .french), "1 étape")
        XCTAssertEqual(stops(2, .french), "2 étapes")
        XCTAssertEqual(stops(6, .korean), "6개 지점")
        XCTAssertEqual(stops(1, .korean), "1개 지점")
        XCTAssertEqual(stops(1_200, .english), "1,200 stops")
    }
}

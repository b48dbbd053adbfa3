import Foundation
import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import PulseKit
@testable import DocentUI

/// What Pulse adds to the shared lists: "Popular right now" and featured rows on Home,
/// announcement cards and banners, the key help over its boxes, hidden visitors under Info.
final class PulseHomeTests: XCTestCase {
    let big = Size(width: 80, height: 24)
    let small = RootView.minimumSize
    let creds = VisitorCredentials(visitor: VisitorID("visitor01")!, secret: "s")
    let other = VisitorID("other0001")!

    func pattern(_ p: String) -> PulsePattern { PulsePattern(p)! }

    /// A store's answer: tour 501 featured (tier 2) and warm, the exhibition featured (tier 1),
    /// tour 500 hot but its featuring expired; a card for gallery 2 (Blue Hours is there), a
    /// banner on Home; an expired banner and a card that starts in an hour.
    func snapshot(_ now: Date) -> PulseSnapshot {
        PulseSnapshot(
            version: PulseVersion(7),
            featured: [
                PulseFeatured(subject: .tour(501), tier: 2, taglines: [.english: "Ceramics in twenty minutes", .spanish: "La cerámica en veinte minutos", .chinese: "二十分钟看陶瓷"]),
                PulseFeatured(subject: .exhibition(1), tier: 1, taglines: [.english: "Members' evening Friday"]),
                PulseFeatured(subject: .tour(500), tier: 3, taglines: [.english: "Gone"], until: now.addingTimeInterval(-60)),
            ],
            announcements: [
                PulseAnnouncement(id: "floor2", feeds: [pattern(#"gallery:\d"#)], positions: [1], style: .card, text: [.english: "Gallery 201 closes at 4 today.", .spanish: "La sala 201 cierra a las 4 hoy.", .chinese: "201 展厅今天 4 点关闭。"]),
                PulseAnnouncement(id: "later", feeds: [pattern("tab:home")], positions: [0], style: .card, from: now.addingTimeInterval(3600), text: [.english: "Not yet"]),
                PulseAnnouncement(id: "a-old", feeds: [pattern("tab:home")], style: .banner, until: now.addingTimeInterval(-1), text: [.english: "Expired banner"]),
                PulseAnnouncement(id: "late", feeds: [pattern("tab:(home|tours)")], style: .banner, text: [.english: "Open late on Thursdays until 20:00", .spanish: "Los jueves abrimos hasta las 20:00", .chinese: "每周四延长开放至 20:00"]),
            ],
            activity: [
                .tour(500): PulseActivitySummary(recent: 7, today: 9, last: now.addingTimeInterval(-4 * 60)),
                .tour(501): PulseActivitySummary(recent: 2, today: 2, last: now.addingTimeInterval(-12 * 60)),
            ],
            curatorPicks: [.artwork(100)], takenAt: now)
    }

    func ready(_ language: Language = .english, size: Size? = nil, snap: ((Date) -> PulseSnapshot)? = nil) -> AppState {
        var s = UIFixtures.loadedState(language: language, size: size ?? big)
        prepare(&s, .pulse(.opened(.success(creds))))
        prepare(&s, .pulse(.checked(.success((snap ?? snapshot)(s.now)))))
        return s
    }

    /// Issue 33 #9: a tour staff feature with `docent-pulse feature` is on Home's "Featured
    /// tours", starred, even when the museum's data features others.
    func testATourStaffFeatureIsAmongHomesFeaturedTours() throws {
        var app = try AppDataReader.read(UIFixtures.bytes("museum.json"), source: "/museum/appData.json").get()
        app.featuredTourIDs = [500]
        var s = UIFixtures.loadedState()
        prepare(&s, .documentLoaded(.success(Museum(app)), note: nil))
        prepare(&s, .pulse(.opened(.success(creds))))
        func featuredTours() -> [Row] {
            guard case .list(_, let rows) = PageBuilder.content(s.page.route, s) else { return [] }
            let start = try! XCTUnwrap(rows.firstIndex { $0.kind == .header && $0.text == s.strings(.homeFeaturedTours) })
            return Array(rows[(start + 1)...].prefix { $0.kind != .header }.filter { $0.kind == .item && $0.action != .push(.allTours) })
        }
        XCTAssertEqual(featuredTours().map(\.text), ["Highlights in an Hour [FEATURED]"], "the museum's own feature only, before Pulse answers")
        prepare(&s, .pulse(.checked(.success(PulseSnapshot(
            version: PulseVersion(3), featured: [PulseFeatured(subject: .tour(501), tier: 2, taglines: [:])], takenAt: s.now)))))
        let rows = featuredTours()
        XCTAssertEqual(rows.map(\.text), ["Clay and Fire", "Highlights in an Hour [FEATURED]"], "staff's tier-2 feature first")
        XCTAssertEqual(rows.first?.mark, PulseFeature.featuredMark(tier: 2))
        // Featured by both: listed once.
        prepare(&s, .pulse(.checked(.success(PulseSnapshot(
            version: PulseVersion(4), featured: [PulseFeatured(subject: .tour(500), tier: 2, taglines: [:])], takenAt: s.now)))))
        XCTAssertEqual(featuredTours().map(\.text), ["Highlights in an Hour [FEATURED]"])
    }

    /// Issue 33 #4: nobody found Pulse. Where a tour (or a work) is on screen the hint line says
    /// `f` and how many notes it has, before "? help", in every language; not on Home (the
    /// museum itself), not on the map (where `f` changes floor); the key help lists `f`.
    func testWhereATourIsOnScreenTheHintLineOffersPulseWithItsNotes() {
        let wide = Size(width: 200, height: 30)
        for language in [Language.english, .korean, Language.fromTag("zh-Hant")!] {
            var s = ready(language, size: wide, snap: {
                var p = self.snapshot($0)
                p.noteCounts = [.tour(500): 3]
                return p
            })
            prepare(&s, .selectTab(.tours))
            Reducer.push(&s, Route.tourDetail(500))
            let hint = s.strings(.pulseHint, ["count": "3"])
            let line = RootView.render(s, size: wide).row(wide.height - 1)
            XCTAssertTrue(line.contains(hint), "\(language): \(line)")
            let help = s.strings(.hintsDetail).components(separatedBy: " · ").first { $0.hasPrefix("? ") }!
            XCTAssertLessThan(line.range(of: hint)!.lowerBound, line.range(of: help)!.lowerBound, "\(language): before ? help: \(line)")
            XCTAssertTrue(HelpSection.current(s).flatMap(\.lines).contains { $0.keys == "f" }, "\(language): f in the key help")
            // Home: the highlighted row's (issue 33 #9), here "Popular right now"'s first, tour 500.
            prepare(&s, .selectTab(.home))
            XCTAssertEqual(PulseFeature.currentSubject(FeatureContext(s)), .tour(500))
            XCTAssertTrue(RootView.render(s, size: wide).row(wide.height - 1).contains(hint), "\(language): on Home")
            // Info: the museum, whose notes the hint does not count (nothing on screen to react to).
            prepare(&s, .selectTab(.info))
            XCTAssertFalse(RootView.render(s, size: wide).row(wide.height - 1).contains("f "), "\(language): on Info")
            // The map: f changes floor there.
            prepare(&s, .selectTab(.map))
            XCTAssertFalse(RootView.render(s, size: wide).row(wide.height - 1).contains(hint), "\(language): on the map")
        }
    }

    /// Issue 33 #2: `pulse = "foo:bar"` in config.toml gave a banner cut before the value.
    /// At 80 columns the banner now shows the value and what is accepted.
    func testABadPulseValueInTheConfigurationIsABannerThatKeepsTheUsefulPart() {
        var s = UIFixtures.loadedState(size: big, config: [PulseFeature.configKey: "foo:bar"])
        s.banner = nil
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        let line = RootView.render(s, size: big).row(big.height - 1)
        XCTAssertTrue(line.contains("'foo:bar' is not sqlite:PATH or http://HOST:PORT"), line)
    }

    func rows(_ s: AppState) -> [Row] {
        guard case .list(_, let rows) = PageBuilder.content(s.page.route, s) else { return [] }
        return rows
    }

    func key(_ s: inout AppState, _ k: Key) -> [Effect] {
        pressKey(&s, k)
    }

    // MARK: Home

    /// Issue 33 #9: by what visitors did (the hour, then today), then the featured tier.
    func testPopularRightNowRanksByActivityThenTierWithAThreeLevelMarker() {
        let s = ready()
        let r = rows(s)
        guard let h = r.firstIndex(where: { $0.kind == .header && $0.text == "Popular right now" }) else { return XCTFail("no section: \(r.map(\.text))") }
        let popular = Array(r[(h + 1)...(h + 3)])
        XCTAssertEqual(popular.map(\.text), ["Highlights in an Hour", "Clay and Fire", "Blue Hours: Night Paintings"])
        XCTAssertEqual(popular.map(\.mark?.symbol), ["▰▰▰", "▰▰▱", "▰▱▱"])
        XCTAssertEqual(popular.map(\.detail), ["last activity 4 min ago", "last activity 12 min ago", "featured"])
        XCTAssertEqual(popular[0].action, .push(.tourDetail(500)))
        XCTAssertEqual(popular[2].action, .push(.exhibitionDetail(1)))
        // It comes before the featured tours.
        XCTAssertLessThan(h, r.firstIndex { $0.text == "Featured tours" } ?? -1)
    }

    func testColdStartShowsTheCuratorsPicksAndAPickPlaysItsCommentary() {
        let s = ready(snap: { PulseSnapshot(version: PulseVersion(1), curatorPicks: [.artwork(100)], takenAt: $0) })
        let r = rows(s)
        let h = r.firstIndex { $0.text == "Popular right now" } ?? -1
        XCTAssertEqual(r[h + 1].text, "Harbor at Dawn")
        XCTAssertEqual(r[h + 1].detail, "curators' pick")
        XCTAssertEqual(r[h + 1].mark, PulseFeature.heatMark(.cold))
        XCTAssertEqual(r[h + 1].action, .send(.play(audioID: 11, artworkID: 100, tourID: nil)))
        XCTAssertEqual(r[h + 2].text, "Featured tours", "one pick, nothing else")
    }

    func testNothingFromPulseBeforeTheStoreAnswers() {
        let before = UIFixtures.loadedState()
        var s = before
        prepare(&s, .pulse(.opened(.success(creds))))
        XCTAssertEqual(rows(s), rows(before))
        XCTAssertEqual(RootView.render(s, size: big), RootView.render(before, size: big))
    }

    func testFeaturedRowsAreMarkedShowTheirTaglineAndComeFirstByTier() {
        let s = ready()
        let r = rows(s)
        let f = (r.firstIndex { $0.text == "Featured tours" } ?? -1) + 1
        XCTAssertEqual(r[f].text, "Clay and Fire")
        XCTAssertEqual(r[f].mark, Row.Mark("★", .warning))
        XCTAssertEqual(r[f + 1], Row(.note, "Ceramics in twenty minutes"))
        // The expired featuring of tour 500 gives it no mark and no tagline.
        XCTAssertEqual(r[f + 2].text, "Highlights in an Hour [FEATURED]")
        XCTAssertNil(r[f + 2].mark)
        XCTAssertEqual(r[f + 3].kind, .item, "no tagline under an expired featuring")
        let ex = r.firstIndex { $0.text == "Blue Hours: Night Paintings" && $0.mark != nil && $0.detail?.hasPrefix("Through") == true } ?? -1
        XCTAssertEqual(r[ex].mark, Row.Mark("☆", .warning))
        XCTAssertEqual(r[ex + 1], Row(.note, "Members' evening Friday"))
        // Spanish falls back to English when a tagline has no Spanish, marked so (issue 33
        // #18), and uses its own when it has.
        let es = rows(ready(.spanish))
        XCTAssertTrue(es.contains(Row(.note, "La cerámica en veinte minutos")))
        XCTAssertTrue(es.contains(Row(.note, "Members' evening Friday", fellBack: true)))
    }

    func testEnterOnAReorderedRowOpensWhatIsDrawn() {
        var s = ready()
        let r = rows(s)
        s.page.selection = (r.firstIndex { $0.text == "Featured tours" } ?? -1) + 1
        _ = key(&s, .enter)
        XCTAssertEqual(s.page.route, .tourDetail(501))
    }

    // MARK: Announcements

    func testCardsShowAtTheirPositionInListsWhoseSubjectsMatchAndNeverWhenOutOfTime() {
        let s = ready()
        let home = rows(s)
        // Home lists Blue Hours, which is in gallery 2: the card is its second row.
        XCTAssertEqual(home[1], Row(.note, "Gallery 201 closes at 4 today.", mark: PulseFeature.cardMark))
        XCTAssertFalse(home.contains { $0.text == "Not yet" }, "a card from the future")
        XCTAssertEqual(home.filter { $0.mark == PulseFeature.cardMark }.count, 1)
        // A tour whose stops are in gallery 2: on its page too.
        var t = s
        t.tab = .tours
        t.stacks[.tours] = [Page(.allTours), Page(.tourDetail(501))]
        XCTAssertEqual(rows(t)[1].text, "Gallery 201 closes at 4 today.")
        // The list of all tours names no gallery: no card.
        t.stacks[.tours] = [Page(.allTours)]
        XCTAssertFalse(rows(t).contains { $0.mark == PulseFeature.cardMark })
        // An hour later the future card shows, at its position.
        var later = s
        later.now = s.now.addingTimeInterval(3600)
        XCTAssertEqual(rows(later)[0].text, "Not yet")
    }

    func testALinkCardIsARowToOpen() {
        let s = ready(snap: { now in
            PulseSnapshot(
                version: PulseVersion(2),
                announcements: [PulseAnnouncement(id: "tix", feeds: [self.pattern("tab:home")], positions: [0], style: .card, text: [.english: "Tickets for the late opening"], link: "https://example.org/late")],
                takenAt: now)
        })
        XCTAssertEqual(rows(s)[0], Row(.link(url: "https://example.org/late"), "Tickets for the late opening", detail: "https://example.org/late", mark: PulseFeature.cardMark))
    }

    func testBannerIsOneLineAboveTheStatusLineOnMatchingScreensOnly() {
        var s = ready()
        XCTAssertEqual(PulseFeature.rows(for: .aboveStatus, s).map(\.text), ["Open late on Thursdays until 20:00"], "the expired one never shows")
        let screen = RootView.render(s, size: big)
        XCTAssertTrue(screen.dump().contains("◆ Open late on Thursdays until 20:00"))
        s.tab = .info
        XCTAssertEqual(PulseFeature.rows(for: .aboveStatus, s), [])
        s.tab = .home
        s.now = s.now.addingTimeInterval(-86400 * 400)
        XCTAssertEqual(PulseFeature.rows(for: .aboveStatus, s).map(\.text), ["Expired banner"], "before its end it showed (the first by id)")
    }

    func testAHostilePatternDoesNotStallAFrame() {
        // Refused when saved, so it never reaches a guide; the worst pattern accepted is cheap.
        XCTAssertNil(PulsePattern("(a*)*b" + String(repeating: "(", count: 10)))
        let worst = String(repeating: "(a|aa)*", count: 12)
        XCTAssertNotNil(PulsePattern(worst), "the worst pattern still accepted")
        let s = ready(snap: { now in
            PulseSnapshot(
                version: PulseVersion(3),
                announcements: (0..<20).compactMap { i in PulsePattern(worst).map { PulseAnnouncement(id: "h\(i)", feeds: [$0], style: i % 2 == 0 ? .card : .banner, text: [.english: "x"]) } },
                takenAt: now)
        })
        // The work is bounded by the automaton, not timed: each state once per character.
        let p = PulsePattern(worst)!
        for input in [String(repeating: "a", count: PulsePattern.maxInput - 1) + "b", String(repeating: "a", count: PulsePattern.maxInput)] {
            XCTAssertLessThanOrEqual(p.steps(input), p.program.count * (input.unicodeScalars.count + 1))
            XCTAssertGreaterThan(p.steps(input), input.unicodeScalars.count, "it did look at every character")
        }
        XCTAssertTrue(RootView.render(s, size: big).dump().contains("Featured tours"), "the frame is drawn")
    }

    // MARK: Keys

    func testQuestionMarkListsThePulseKeysOverTheBoxAndEscReturnsToIt() {
        var s = ready()
        s.tab = .info
        _ = key(&s, .char("f"))
        XCTAssertEqual(KeyMap.action(for: .char("?"), in: s), .pulse(.showKeys))
        send(&s, .pulse(.showKeys)) { $0.overlay = PulseFeature.show(.keys(.box(.museum))) }
        XCTAssertEqual(HelpSection.current(s).first?.title, "Pulse")
        XCTAssertEqual(KeyMap.action(for: .escape, in: s), .dismissOverlay)
        send(&s, .dismissOverlay) { $0.overlay = PulseFeature.show(.box(.museum)) }
        // In the notes list too; in the editor ? is text.
        _ = key(&s, .char("5"))
        XCTAssertEqual(KeyMap.action(for: .char("?"), in: s), .pulse(.showKeys))
        prepare(&s, .dismissOverlay)
        _ = key(&s, .char("f"))
        _ = key(&s, .char("4"))
        XCTAssertEqual(KeyMap.action(for: .char("?"), in: s), .pulse(.typed("?")))
        XCTAssertEqual(HelpSection.current(s).first?.title, "Pulse", "the editor's keys are listed while it is open")
        // Without a Pulse box, no Pulse section.
        prepare(&s, .dismissOverlay)
        XCTAssertNotEqual(HelpSection.current(s).first?.title, "Pulse")
    }

    // MARK: Hiding a visitor

    func note(_ seq: UInt64, by v: VisitorID, _ text: String, _ s: AppState, author: NoteAuthor = .visitor) -> PulseNote {
        PulseNote(id: NoteID(visitor: v, sequence: seq), subject: .museum, language: .english, text: text, createdAt: s.now.addingTimeInterval(-Double(seq) * 60), author: author)
    }

    func testHideAVisitorThenShowThemAgainFromInfo() {
        var s = ready()
        s.tab = .info
        _ = key(&s, .char("f"))
        _ = key(&s, .char("5"))
        let third = VisitorID("third0001")!
        let notes = [note(1, by: other, "Loud and rude", s), note(2, by: third, "Lovely", s), note(3, by: other, "Again", s), note(4, by: .curator, "Curator", s, author: .curator)]
        prepare(&s, .pulse(.notesLoaded(.museum, .success(notes))))
        XCTAssertEqual(KeyMap.action(for: .char("H"), in: s), .pulse(.hideWriter))
        // `h` is back, here as everywhere (issue 47 #10).
        XCTAssertNotEqual(KeyMap.action(for: .char("h"), in: s), .pulse(.hideWriter))
        let hidden = HiddenWriter(visitor: other, sample: "Loud and rude")
        var after = s
        after.pulse.identity?.hidden = [hidden]
        send(&s, .pulse(.hideWriter), effects: [.persist(after.settings)]) {
            $0.pulse.identity?.hidden = [hidden]
            $0.pulse.notes = [notes[1], notes[3]]
            $0.banner = Banner(.key(.pulseHiddenDone))
        }
        // The museum's own notes are not a visitor's.
        s.pulse.noteSelection = 1
        send(&s, .pulse(.hideWriter)) { $0.banner = Banner(.key(.pulseHiddenCannot), level: .warning) }
        // A reload keeps them hidden.
        prepare(&s, .pulse(.notesLoaded(.museum, .success(notes))))
        XCTAssertEqual(s.pulse.notes, [notes[1], notes[3]])
        // Info lists them; Enter shows them again.
        prepare(&s, .dismissOverlay)
        s.tab = .info
        let info = rows(s)
        guard let i = info.firstIndex(where: { $0.text == "Hidden visitors" }) else { return XCTFail("no row under Info") }
        XCTAssertEqual(info[i].detail, "1")
        s.page.selection = i
        _ = key(&s, .enter)
        XCTAssertEqual(s.page.route, PulseFeature.route(.hidden))
        let list = rows(s)
        XCTAssertEqual(list.last?.text, "“Loud and rude”")
        XCTAssertEqual(list.last?.action, .send(.pulse(.unhide(other))))
        var shown = s
        shown.pulse.identity?.hidden = []
        send(&s, .pulse(.unhide(other)), effects: [.persist(shown.settings)]) {
            $0.pulse.identity?.hidden = []
            $0.banner = Banner(.key(.pulseHiddenUndone))
        }
        XCTAssertEqual(rows(s).last, Row(.note, "No visitor is hidden."))
    }

    // MARK: Screens

    func testHomeSnapshots() {
        for (lang, size, name) in [
            (Language.english, big, "pulse-home-80x24"), (.english, small, "pulse-home-40x12"), (.chinese, big, "pulse-home-zh-80x24"), (.spanish, small, "pulse-home-es-40x12"),
        ] {
            assertSnapshot(RootView.render(ready(lang, size: size), size: size), named: name)
        }
    }

    func testTourPageCardSnapshot() {
        var s = ready()
        s.tab = .tours
        s.stacks[.tours] = [Page(.allTours), Page(.tourDetail(500))]
        assertSnapshot(RootView.render(s, size: big), named: "pulse-tour-card-80x24")
    }

    func testKeysSnapshots() {
        for (lang, size, name) in [(Language.english, big, "pulse-keys-80x24"), (.english, small, "pulse-keys-40x12"), (.chinese, big, "pulse-keys-zh-80x24")] {
            var s = ready(lang, size: size)
            s.tab = .info
            _ = key(&s, .char("f"))
            _ = key(&s, .char("?"))
            assertSnapshot(RootView.render(s, size: size), named: name)
        }
    }

    func testHiddenVisitorsSnapshots() {
        for (lang, size, name) in [(Language.english, big, "pulse-hidden-80x24"), (.english, small, "pulse-hidden-40x12"), (.spanish, big, "pulse-hidden-es-80x24")] {
            var s = ready(lang, size: size)
            s.pulse.identity?.hidden = [HiddenWriter(visitor: other, sample: "Loud and rude, and a much longer note than fits"), HiddenWriter(visitor: VisitorID("third0001")!, sample: "画画画")]
            s.tab = .info
            s.stacks[.info] = [Page(.info), Page(PulseFeature.route(.hidden))]
            assertSnapshot(RootView.render(s, size: size), named: name)
        }
    }
}

import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Tours through the reducer: language choice, clips in order via player snapshots, failures,
/// leaving, progress and resume.
final class TourReducerTests: XCTestCase {
    /// The test museum plus a tour-exit message for tour 500 and Chinese audio for stop 1.
    static let museum: Museum = {
        var json = String(decoding: UIFixtures.bytes("museum.json"), as: UTF8.self)
        json = json.replacingOccurrences(
            of: #""messages": {"#,
            with: #""messages": {"8": {"message_type": "tour_exit", "tour_exit": "500", "persistent": true, "title": "Thanks for touring", "message": "Tell us how it went."}, "#)
        json = json.replacingOccurrences(
            of: #""audio_transcript": "A quiet harbor.", "translations": []"#,
            with: #""audio_transcript": "A quiet harbor.", "translations": [{"language": "zh-hant", "audio_file_url": "audio/11-zh.mp3", "audio_transcript": "宁静的港口。"}]"#)
        switch AppDataReader.read(Array(json.utf8), source: "/museum/appData.json") {
        case .success(let a): return Museum(a)
        case .failure(let e): fatalError("\(e)")
        }
    }()

    func loaded(_ lang: Language = .english) -> AppState {
        var s = UIFixtures.loadedState(language: lang)
        s.document = .ready(Self.museum)
        return s
    }

    func tour() throws -> Tour { try XCTUnwrap(Self.museum.data.tour(500)) }

    /// The engine asked to play a recording of the test museum.
    func play(_ token: Int, _ file: String, _ title: String, at seconds: Double = 0) -> Effect {
        .audio(.play(AudioRequest(token: token, url: "/museum/audio/\(file).mp3", title: title, startAt: seconds)))
    }

    /// The tour's clip loaded: the player as `PlayerFeature.play` leaves it (its own tests pin
    /// that), and the session waiting for that clip's token.
    func clipLoaded(_ s: inout AppState, _ audioID: Int, artwork: Int?, at seconds: Double = 0) {
        let language = s.tour?.language ?? .english
        _ = PlayerFeature.play(&s, audioID: audioID, artworkID: artwork, tourID: 500, language: language, at: seconds)
        let token = s.player.snapshot.token
        s.tour?.clipToken = token
        s.tour?.savedAt = seconds
        s.tour?.failed = false
    }

    /// Where the tour is, as saved.
    func place(_ stop: Int?, seconds: Double = 0, language: Language = .english, mode: TourMode = .guided, part: TourPart = .stop) -> TourProgress {
        TourProgress(tourID: 500, stopIndex: stop, seconds: seconds, language: language, mode: mode, part: part)
    }

    /// Plays the current clip to its end through player snapshots: the tour's machine hears
    /// the clip end (its own tests pin what it does then); `expect` is the rest of the change.
    func finishClip(
        _ s: inout AppState, effects: [Effect] = [], file: StaticString = #filePath, line: UInt = #line, _ expect: (inout AppState) -> Void
    ) {
        let token = s.player.snapshot.token
        let playing = PlayerSnapshot(token: token, status: .playing, position: 1, duration: 3, volume: 0.8)
        send(&s, .playerSnapshot(playing), file: file, line: line) { $0.player.snapshot = playing }
        let ended = PlayerSnapshot(token: token, status: .ended, position: 3, duration: 3, volume: 0.8)
        send(&s, .playerSnapshot(ended), effects: { effects + [.persist($0.settings)] }, file: file, line: line) {
            $0.player.snapshot = ended
            $0.tour?.machine.handle(.clipEnded)
            expect(&$0)
        }
    }

    /// The intro ends; stop 1 has no bumper: guided waits there, silent.
    func introEnds(_ s: inout AppState, file: StaticString = #filePath, line: UInt = #line) {
        finishClip(&s, file: file, line: line) {
            $0.tour?.clipToken = nil
            $0.progress.current = self.place(0, part: .waiting)
        }
        XCTAssertEqual(s.tour?.machine.position, .waiting(at: 0), file: file, line: line)
    }

    /// Stop 1 ends: the bumper to stop 2 plays (token `token`).
    func stopOneEnds(_ s: inout AppState, token: Int, mode: TourMode = .guided, file: StaticString = #filePath, line: UInt = #line) {
        finishClip(&s, effects: [play(token, "10", "Welcome")], file: file, line: line) {
            $0.progress.listenedArtworks.insert(100)
            $0.progress.listenedStops[500] = [0]
            self.clipLoaded(&$0, 10, artwork: nil)
            $0.progress.current = self.place(1, mode: mode, part: .walk)
        }
        XCTAssertEqual(s.tour?.machine.position, .bumper(to: 1), file: file, line: line)
    }

    /// The tour's language box for `stop`, moved to `language` (an index of the audio languages).
    func chooseLanguage(_ s: inout AppState, stop: Int? = nil, language: Int = 0, file: StaticString = #filePath, line: UInt = #line) {
        let current = s.audioLanguages.firstIndex(of: s.language) ?? 0
        send(&s, .tour(.start(tourID: 500, stop: stop)), file: file, line: line) {
            $0.overlay = .tourLanguage(tourID: 500, stop: stop, selection: current)
        }
        send(&s, .move(language - current), file: file, line: line) { $0.overlay = .tourLanguage(tourID: 500, stop: stop, selection: language) }
    }

    /// A tour started (what starting does is pinned by the tests that send it).
    func started(_ s: inout AppState, stop: Int? = nil, file: StaticString = #filePath, line: UInt = #line) {
        chooseLanguage(&s, stop: stop, file: file, line: line)
        prepare(&s, .activate)
    }

    func testStartAsksForTheLanguageThenPlaysTheIntro() throws {
        var s = loaded()
        let tour = try tour()
        chooseLanguage(&s)
        send(&s, .activate, effects: { [self.play(1, "10", "Welcome"), .persist($0.settings)] }) {
            $0.overlay = nil
            $0.tour = TourSession(machine: TourMachine(tour: tour), language: .english)
            $0.progress.started = [500]
            $0.progress.current = self.place(nil)
            $0.stacks[.home] = [Page(.home), Page(.player)]
            self.clipLoaded(&$0, 10, artwork: nil)
        }
        XCTAssertEqual(s.tour?.machine.position, .intro)
        XCTAssertEqual(s.page.route, .player)
    }

    func testGuidedSequenceThroughSnapshots() {
        var s = loaded()
        started(&s)
        introEnds(&s)
        XCTAssertTrue(TourFeature.tourStatus(s[TourFeature.self], FeatureContext(s)).contains { $0.contains("Press Enter when you reach Harbor at Dawn, Gallery 101") })
        // Issue 33 #5: Space is the player's ("Space play again" on its line), not "arrived".
        XCTAssertEqual(KeyMap.action(for: .char(" "), in: s), .togglePause)
        XCTAssertEqual(s.page.route, .player)
        XCTAssertEqual(KeyMap.action(for: .enter, in: s), .tour(.event(.arrived)), "Enter on the player: arrived")
        // The saved place says which part of the stop: waiting there, the commentary, the walk.
        send(&s, .tour(.event(.arrived)), effects: { [self.play(2, "11", "Harbor at Dawn"), .persist($0.settings)] }) {
            $0.tour?.machine.handle(.arrived)
            self.clipLoaded(&$0, 11, artwork: 100)
            $0.progress.current?.part = .stop
        }
        // Stop 1 ends: the bumper to stop 2 plays, then guided waits.
        stopOneEnds(&s, token: 3)
        finishClip(&s) {
            $0.tour?.clipToken = nil
            $0.progress.current?.part = .waiting
        }
        XCTAssertEqual(s.tour?.machine.position, .waiting(at: 1))
        send(&s, .tour(.event(.arrived)), effects: { [self.play(4, "12", "Clay Vessel"), .persist($0.settings)] }) {
            $0.tour?.machine.handle(.arrived)
            self.clipLoaded(&$0, 12, artwork: 101)
            $0.progress.current?.part = .stop
        }
        // The last stop ends: the tour is complete, nothing more plays, no place is kept.
        finishClip(&s) {
            $0.tour?.clipToken = nil
            $0.progress.listenedArtworks.insert(101)
            $0.progress.listenedStops[500] = [0, 1]
            $0.progress.finished = [500]
            $0.progress.current = nil
        }
        XCTAssertEqual(s.tour?.machine.position, .complete)
    }

    func testContinuousPlaysOnAndModeSwitch() {
        var s = loaded()
        started(&s)
        send(&s, .tour(.toggleMode), effects: { [.persist($0.settings)] }) {
            $0.tour?.machine.handle(.setMode(.continuous))
            $0.progress.current = self.place(nil, mode: .continuous)
        }
        XCTAssertEqual(s.tour?.machine.mode, .continuous)
        finishClip(&s, effects: [play(2, "11", "Harbor at Dawn")]) {
            self.clipLoaded(&$0, 11, artwork: 100)
            $0.progress.current = self.place(0, mode: .continuous)
        }
        stopOneEnds(&s, token: 3, mode: .continuous)
        finishClip(&s, effects: [play(4, "12", "Clay Vessel")]) {
            self.clipLoaded(&$0, 12, artwork: 101)
            $0.progress.current?.part = .stop
        }
    }

    func testLanguageFallbackPerClip() throws {
        var s = loaded(.chinese)
        let tour = try tour()
        chooseLanguage(&s, stop: 0, language: 2)
        XCTAssertEqual(s.audioLanguages[2], .chinese)
        send(&s, .activate, effects: { [self.play(1, "11-zh", "Harbor at Dawn"), .persist($0.settings)] }) {
            $0.overlay = nil
            $0.tour = TourSession(machine: TourMachine(tour: tour, start: .stop(0)), language: .chinese)
            $0.progress.started = [500]
            $0.progress.current = self.place(0, language: .chinese)
            $0.stacks[.home] = [Page(.home), Page(.player)]
            self.clipLoaded(&$0, 11, artwork: 100)
        }
        XCTAssertEqual(s.player.track?.url, "/museum/audio/11-zh.mp3")
        XCTAssertEqual(s.player.track?.transcript, "宁静的港口。")
        XCTAssertFalse(s.player.track?.fellBack ?? true)
        // No Chinese audio for stop 2: English, marked.
        send(&s, .tour(.event(.next)), effects: { [self.play(2, "12", "Clay Vessel"), .persist($0.settings)] }) {
            $0.tour?.machine.handle(.next)
            self.clipLoaded(&$0, 12, artwork: 101)
            $0.progress.current = self.place(1, language: .chinese)
        }
        XCTAssertEqual(s.player.track?.url, "/museum/audio/12.mp3")
        XCTAssertEqual(s.player.track?.fellBack, true)
    }

    func testFailedStopOffersRetryAndSkip() {
        var s = loaded()
        started(&s, stop: 0)
        let failed = PlayerSnapshot(token: s.player.snapshot.token, status: .failed, volume: 0.8, failure: .http(status: 404))
        send(&s, .playerSnapshot(failed)) {
            $0.player.snapshot = failed
            $0.tour?.failed = true
        }
        XCTAssertTrue(TourFeature.tourStatus(s[TourFeature.self], FeatureContext(s)).contains { $0.contains("r to retry") })
        XCTAssertEqual(KeyMap.action(for: .char("r"), in: s), .tour(.event(.retry)))
        send(&s, .tour(.event(.retry)), effects: { [self.play(2, "11", "Harbor at Dawn"), .persist($0.settings)] }) {
            self.clipLoaded(&$0, 11, artwork: 100)
        }
        // Skip: the tour goes on.
        send(&s, .tour(.event(.next)), effects: { [self.play(3, "12", "Clay Vessel"), .persist($0.settings)] }) {
            $0.tour?.machine.handle(.next)
            self.clipLoaded(&$0, 12, artwork: 101)
            $0.progress.current = self.place(1)
        }
    }

    func testLeavingMidBumperAsksAndShowsTheExitMessage() {
        var s = loaded()
        started(&s, stop: 0)
        stopOneEnds(&s, token: 2)
        send(&s, .tour(.askLeave)) { $0.overlay = .leaveTour }
        // Esc: stay.
        send(&s, .back) { $0.overlay = nil }
        send(&s, .tour(.askLeave)) { $0.overlay = .leaveTour }
        // Leaving stops the sound and shows the tour's exit message; the place is kept (on the
        // walk to stop 2) for "Resume at stop 2" on the tour's page (issue 17 #7).
        send(&s, .activate, effects: { [.audio(.stop), .persist($0.settings)] }) {
            $0.tour = nil
            $0[TourFeature.self].resumeOffered = true
            $0.player.track = nil
            $0.player.snapshot = PlayerSnapshot(token: 2, volume: 0.8)
            $0.overlay = .message(id: 8)
            // The full player goes with the sound (issue 47 #2): the tour's page again.
            $0.stacks = $0.stacks.mapValues { st in st.count > 1 && st.last?.route == .player ? Array(st.dropLast()) : st }
        }
        XCTAssertEqual(s.progress.listenedStops[500], [0])
    }

    func testProgressIsSavedEveryFiveSecondsOfListening() {
        var s = loaded()
        started(&s, stop: 1)
        let token = s.player.snapshot.token
        let early = PlayerSnapshot(token: token, status: .playing, position: 3, duration: 30, volume: 0.8)
        send(&s, .playerSnapshot(early)) { $0.player.snapshot = early }
        let five = PlayerSnapshot(token: token, status: .playing, position: 5.2, duration: 30, volume: 0.8)
        send(&s, .playerSnapshot(five), effects: { [.persist($0.settings)] }) {
            $0.player.snapshot = five
            $0.tour?.savedAt = 5.2
            $0.progress.current = self.place(1, seconds: 5.2)
        }
        let seven = PlayerSnapshot(token: token, status: .playing, position: 7, duration: 30, volume: 0.8)
        send(&s, .playerSnapshot(seven)) { $0.player.snapshot = seven }
    }

    /// Issue 33 #13: the introduction's place is saved like a stop's, and resuming plays it
    /// from there (it started again at 0:00).
    func testTheIntroductionResumesWhereItWasLeft() throws {
        var s = loaded()
        started(&s)
        let token = s.player.snapshot.token
        let fifteen = PlayerSnapshot(token: token, status: .playing, position: 15, duration: 60, volume: 0.8)
        prepare(&s, .playerSnapshot(fifteen))
        XCTAssertEqual(s.progress.current, place(nil, seconds: 15))
        s.tour = nil
        let effects = prepare(&s, .tour(.resume))
        XCTAssertTrue(effects.contains(play(token + 1, "10", "Welcome", at: 15)), "\(effects)")
    }

    func testResumeOfferAtStart() throws {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        var saved = PersistedSettings(seenMessageIDs: [7], introSeen: true)
        saved.progress.current = TourProgress(tourID: 500, stopIndex: 1, seconds: 12.4, language: .spanish, mode: .continuous)
        prepare(&s, .launched(restored: saved, languageOverride: nil))
        let m = Self.museum
        let ex = try XCTUnwrap(DataAggregator.exhibitionsRequest(app: m.data, now: UIFixtures.now))
        let ev = try XCTUnwrap(DataAggregator.eventsRequest(app: m.data, now: UIFixtures.now))
        // No launch message left to show: the offer to resume, once.
        send(&s, .documentLoaded(.success(m), note: nil), effects: [.fetch(.exhibitions, ex), .fetch(.events, ev), .search(.buildIndex(m))]) {
            $0.document = .ready(m)
            $0.exhibitions = .loading
            $0.events = .loading
            $0.overlay = .resumeTour
            $0[TourFeature.self].resumeOffered = true
        }
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        XCTAssertTrue((0..<24).contains { screen.row($0).contains("Welcome back: Highlights in an Hour") })
        XCTAssertTrue((0..<24).contains { screen.row($0).contains("Resume at stop 2 (0:12)") })
        // Accepted: stop 2, 12.4 s in, in Spanish (its clip is English only), continuous; saved
        // once, with that mode (it used to save guided first).
        let tour = try tour()
        send(&s, .activate, effects: { [self.play(1, "12", "Clay Vessel", at: 12.4), .persist($0.settings)] }) {
            $0.overlay = nil
            $0.tour = TourSession(machine: TourMachine(tour: tour, mode: .continuous, start: .stop(1)), language: .spanish)
            $0.progress.started = [500]
            $0.stacks[.home] = [Page(.home), Page(.player)]
            self.clipLoaded(&$0, 12, artwork: 101, at: 12.4)
        }
        XCTAssertEqual(s.progress.current, saved.progress.current)
        // "Not now" (Esc) keeps the place and the marks; TourPlaceTests pin forgetting it.
        var d = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        saved.progress.listenedStops = [500: [0]]
        prepare(&d, .launched(restored: saved, languageOverride: nil), .documentLoaded(.success(m), note: nil))
        XCTAssertEqual(d.overlay, .resumeTour)
        send(&d, .back) {
            $0.overlay = nil
        }
        XCTAssertEqual(d.progress.current, saved.progress.current)
        XCTAssertEqual(d.progress.listenedStops, [500: [0]])
    }

    /// `kill -9` during walking directions (issue 17 #19): the place saved is those directions,
    /// so resuming plays them again where they were, not the next stop's commentary.
    func testResumeDuringWalkingDirectionsPlaysThoseDirections() throws {
        var s = loaded()
        let tour = try tour()
        started(&s, stop: 0)
        stopOneEnds(&s, token: 2)
        let at2 = PlayerSnapshot(token: 2, status: .playing, position: 2, duration: 9, volume: 0.8)
        prepare(&s, .playerSnapshot(at2))
        // Saved as it plays (a kill -9 loses at most 5 s), with the part: the walk to stop 2.
        let at65 = PlayerSnapshot(token: 2, status: .playing, position: 6.5, duration: 9, volume: 0.8)
        send(&s, .playerSnapshot(at65), effects: { [.persist($0.settings)] }) {
            $0.player.snapshot = at65
            $0.progress.current = self.place(1, seconds: 6.5, part: .walk)
            $0.tour?.savedAt = 6.5
        }

        // The next run (nothing else survives a kill -9 but what was saved).
        var r = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        var restored = PersistedSettings(seenMessageIDs: [7], introSeen: true)
        restored.progress = s.progress
        prepare(&r, .launched(restored: restored, languageOverride: nil), .documentLoaded(.success(Self.museum), note: nil))
        XCTAssertEqual(r.overlay, .resumeTour)
        let screen = RootView.render(r, size: Size(width: 80, height: 24))
        XCTAssertTrue((0..<24).contains { screen.row($0).contains("Resume on the way to stop 2 (0:06)") }, screen.dump())
        send(&r, .activate, effects: { [self.play(1, "10", "Welcome", at: 6.5), .persist($0.settings)] }) {
            $0.overlay = nil
            $0.tour = TourSession(machine: TourMachine(tour: tour, start: .bumper(to: 1), listened: [0]), language: .english)
            $0.stacks[.home] = [Page(.home), Page(.player)]
            self.clipLoaded(&$0, 10, artwork: nil, at: 6.5)
        }
        // The directions end: guided waits for the visitor at stop 2, as before the kill.
        finishClip(&r) {
            $0.tour?.clipToken = nil
            $0.progress.current = self.place(1, part: .waiting)
        }
        XCTAssertEqual(r.tour?.machine.position, .waiting(at: 1))

        // Killed while waiting to arrive: the resume waits there again, silent.
        var w = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        restored.progress = r.progress
        prepare(&w, .launched(restored: restored, languageOverride: nil), .documentLoaded(.success(Self.museum), note: nil))
        send(&w, .activate, effects: { [.persist($0.settings)] }) {
            $0.overlay = nil
            $0.tour = TourSession(machine: TourMachine(tour: tour, start: .waiting(at: 1), listened: [0]), language: .english)
            $0.stacks[.home] = [Page(.home), Page(.player)]
        }
    }

    /// The sound server went away mid-stop and came back (issue 17 #19): the stop goes on where
    /// it was, as the tour's clip (its end still moves the tour on).
    func testTourClipGoesOnWhereItWasWhenTheSoundServerReturns() {
        var s = loaded()
        started(&s, stop: 0)
        let lost = PlayerSnapshot(token: 1, status: .failed, position: 4.4, duration: 9, volume: 0.8, failure: .soundServerLost("Connection terminated"), outputAvailable: false)
        // Nothing to retry by hand: the tour is not marked failed.
        send(&s, .playerSnapshot(lost)) { $0.player.snapshot = lost }
        var back = lost
        back.outputAvailable = true
        send(&s, .playerSnapshot(back), effects: [play(2, "11", "Harbor at Dawn", at: 4.4)]) {
            $0.player.snapshot = back
            self.clipLoaded(&$0, 11, artwork: 100, at: 4.4)
        }
        // Its end moves the tour on: the directions to stop 2.
        stopOneEnds(&s, token: 3)
    }

    func testToursTabAndDetail() {
        var s = loaded()
        send(&s, .selectTab(.tours), effects: { [.persist($0.settings)] }) { $0.tab = .tours }
        XCTAssertEqual(s.page.route, .allTours)
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "tours-80x24")
        guard case .list(_, let rows) = PageBuilder.content(.tourDetail(500), s), let first = rows.firstIndex(where: \.isSelectable) else {
            return XCTFail("the tour's page is a list with something to choose")
        }
        XCTAssertEqual(rows[first].action, .send(.tour(.start(tourID: 500, stop: nil))), "Start is chosen first")
        send(&s, .activate) { $0.stacks[.tours] = [Page(.allTours), Page(.tourDetail(500), selection: first)] }
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "tour-detail-rows-80x24")
        assertSnapshot(RootView.render(s, size: RootView.minimumSize), named: "tour-detail-rows-40x12")
        started(&s)
        introEnds(&s)
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "tour-waiting-80x24")
        var zh = loaded(.chinese)
        send(&zh, .selectTab(.tours), effects: { [.persist($0.settings)] }) { $0.tab = .tours }
        assertSnapshot(RootView.render(zh, size: Size(width: 80, height: 24)), named: "tours-zh-80x24")
    }
}

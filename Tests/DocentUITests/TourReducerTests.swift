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

    /// Plays the current clip to its end through a player snapshot.
    @discardableResult
    func finishClip(_ s: inout AppState) -> [Effect] {
        let token = s.player.snapshot.token
        _ = Reducer.reduce(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 1, duration: 3, volume: 0.8)))
        return Reducer.reduce(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .ended, position: 3, duration: 3, volume: 0.8)))
    }

    func playedURLs(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .audio(.play(let r)) = $0 { return r.url } else { return nil } }
    }

    func start(_ s: inout AppState, stop: Int? = nil, language: Int = 0) -> [Effect] {
        _ = Reducer.reduce(&s, .tour(.start(tourID: 500, stop: stop)))
        XCTAssertEqual(s.overlay, .tourLanguage(tourID: 500, stop: stop, selection: s.audioLanguages.firstIndex(of: s.language) ?? 0))
        _ = Reducer.reduce(&s, .move(language - (s.audioLanguages.firstIndex(of: s.language) ?? 0)))
        return Reducer.reduce(&s, .activate)
    }

    func testStartAsksForTheLanguageThenPlaysTheIntro() {
        var s = loaded()
        let e = start(&s)
        XCTAssertEqual(playedURLs(e), ["/museum/audio/10.mp3"])
        XCTAssertTrue(e.contains { if case .persist(let p) = $0 { return p.progress.current?.tourID == 500 } else { return false } })
        XCTAssertEqual(s.tour?.machine.position, .intro)
        XCTAssertEqual(s.page.route, .player)
        XCTAssertEqual(s.progress.started, [500])
    }

    func testGuidedSequenceThroughSnapshots() {
        var s = loaded()
        _ = start(&s)
        // Intro ends; stop 1 has no bumper: guided waits there.
        XCTAssertEqual(playedURLs(finishClip(&s)), [])
        XCTAssertEqual(s.tour?.machine.position, .waiting(at: 0))
        XCTAssertTrue(TourFeature.tourStatus(s).contains { $0.contains("Press Enter when you reach Harbor at Dawn, Gallery 101") })
        XCTAssertEqual(KeyMap.action(for: .char(" "), in: s), .tour(.event(.arrived)))
        XCTAssertEqual(s.page.route, .player)
        XCTAssertEqual(KeyMap.action(for: .enter, in: s), .tour(.event(.arrived)), "Enter on the player: arrived")
        XCTAssertEqual(playedURLs(Reducer.reduce(&s, .tour(.event(.arrived)))), ["/museum/audio/11.mp3"])
        // Stop 1 ends: the bumper to stop 2 plays, then guided waits.
        XCTAssertEqual(playedURLs(finishClip(&s)), ["/museum/audio/10.mp3"])
        XCTAssertEqual(s.tour?.machine.position, .bumper(to: 1))
        XCTAssertEqual(s.progress.listenedStops[500], [0])
        XCTAssertEqual(s.progress.listenedArtworks, [100])
        _ = finishClip(&s)
        XCTAssertEqual(s.tour?.machine.position, .waiting(at: 1))
        _ = Reducer.reduce(&s, .tour(.event(.arrived)))
        let end = finishClip(&s)
        XCTAssertEqual(playedURLs(end), [])
        XCTAssertEqual(s.tour?.machine.position, .complete)
        XCTAssertEqual(s.progress.finished, [500])
        XCTAssertNil(s.progress.current)
    }

    func testContinuousPlaysOnAndModeSwitch() {
        var s = loaded()
        _ = start(&s)
        _ = Reducer.reduce(&s, .tour(.toggleMode))
        XCTAssertEqual(s.tour?.machine.mode, .continuous)
        XCTAssertEqual(playedURLs(finishClip(&s)), ["/museum/audio/11.mp3"])
        XCTAssertEqual(playedURLs(finishClip(&s)), ["/museum/audio/10.mp3"])
        XCTAssertEqual(playedURLs(finishClip(&s)), ["/museum/audio/12.mp3"])
    }

    func testLanguageFallbackPerClip() {
        var s = loaded(.chinese)
        _ = start(&s, stop: 0, language: 2)
        XCTAssertEqual(s.tour?.language, .chinese)
        XCTAssertEqual(s.player.track?.url, "/museum/audio/11-zh.mp3")
        XCTAssertEqual(s.player.track?.transcript, "宁静的港口。")
        XCTAssertFalse(s.player.track?.fellBack ?? true)
        _ = Reducer.reduce(&s, .tour(.event(.next)))
        XCTAssertEqual(s.player.track?.url, "/museum/audio/12.mp3", "no Chinese audio: English, marked")
        XCTAssertEqual(s.player.track?.fellBack, true)
    }

    func testFailedStopOffersRetryAndSkip() {
        var s = loaded()
        _ = start(&s, stop: 0)
        let token = s.player.snapshot.token
        _ = Reducer.reduce(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .failed, volume: 0.8, failure: .http(status: 404))))
        XCTAssertEqual(s.tour?.failed, true)
        XCTAssertTrue(TourFeature.tourStatus(s).contains { $0.contains("r to retry") })
        XCTAssertEqual(KeyMap.action(for: .char("r"), in: s), .tour(.event(.retry)))
        XCTAssertEqual(playedURLs(Reducer.reduce(&s, .tour(.event(.retry)))), ["/museum/audio/11.mp3"])
        XCTAssertEqual(s.tour?.failed, false)
        XCTAssertEqual(playedURLs(Reducer.reduce(&s, .tour(.event(.next)))), ["/museum/audio/12.mp3"], "skip: the tour goes on")
    }

    func testLeavingMidBumperAsksAndShowsTheExitMessage() {
        var s = loaded()
        _ = start(&s, stop: 0)
        _ = finishClip(&s)
        XCTAssertEqual(s.tour?.machine.position, .bumper(to: 1))
        _ = Reducer.reduce(&s, .tour(.askLeave))
        XCTAssertEqual(s.overlay, .leaveTour)
        _ = Reducer.reduce(&s, .back)
        XCTAssertNotNil(s.tour, "Esc: stay")
        _ = Reducer.reduce(&s, .tour(.askLeave))
        let e = Reducer.reduce(&s, .activate)
        XCTAssertTrue(e.contains(.audio(.stop)))
        XCTAssertNil(s.tour)
        XCTAssertNil(s.player.track)
        XCTAssertEqual(s.overlay, .message(id: 8))
        XCTAssertEqual(s.progress.listenedStops[500], [0], "marks stay")
    }

    func testProgressIsSavedEveryFiveSecondsOfListening() {
        var s = loaded()
        _ = start(&s, stop: 1)
        let token = s.player.snapshot.token
        XCTAssertEqual(Reducer.reduce(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 3, duration: 30, volume: 0.8))), [])
        let e = Reducer.reduce(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 5.2, duration: 30, volume: 0.8)))
        XCTAssertEqual(e, [.persist(s.settings)])
        XCTAssertEqual(s.progress.current, TourProgress(tourID: 500, stopIndex: 1, seconds: 5.2, language: .english, mode: .guided))
        XCTAssertEqual(Reducer.reduce(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 7, duration: 30, volume: 0.8))), [])
    }

    func testResumeOfferAtStart() {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        var saved = PersistedSettings(seenMessageIDs: [7], introSeen: true)
        saved.progress.current = TourProgress(tourID: 500, stopIndex: 1, seconds: 12.4, language: .spanish, mode: .continuous)
        _ = Reducer.reduce(&s, .launched(restored: saved, languageOverride: nil))
        _ = Reducer.reduce(&s, .documentLoaded(.success(Self.museum), note: nil))
        XCTAssertEqual(s.overlay, .resumeTour)
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        XCTAssertTrue((0..<24).contains { screen.row($0).contains("Resume Highlights in an Hour at stop 2 (0:12)?") })
        let e = Reducer.reduce(&s, .activate)
        XCTAssertEqual(e.compactMap { if case .audio(.play(let r)) = $0 { return r } else { return nil } },
                       [AudioRequest(token: 1, url: "/museum/audio/12.mp3", title: "Clay Vessel", startAt: 12.4)])
        XCTAssertEqual(s.tour?.machine.mode, .continuous)
        XCTAssertEqual(s.tour?.language, .spanish)
        // Declining forgets the place but keeps the marks.
        var d = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        saved.progress.listenedStops = [500: [0]]
        _ = Reducer.reduce(&d, .launched(restored: saved, languageOverride: nil))
        _ = Reducer.reduce(&d, .documentLoaded(.success(Self.museum), note: nil))
        _ = Reducer.reduce(&d, .back)
        XCTAssertNil(d.progress.current)
        XCTAssertEqual(d.progress.listenedStops, [500: [0]])
    }

    /// `kill -9` during walking directions (issue 17 #19): the place saved is those directions,
    /// so resuming plays them again where they were, not the next stop's commentary.
    func testResumeDuringWalkingDirectionsPlaysThoseDirections() {
        var s = loaded()
        _ = start(&s, stop: 0)
        _ = finishClip(&s)
        XCTAssertEqual(s.tour?.machine.position, .bumper(to: 1))
        let token = s.player.snapshot.token
        _ = Reducer.reduce(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 2, duration: 9, volume: 0.8)))
        let e = Reducer.reduce(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 6.5, duration: 9, volume: 0.8)))
        let saved = TourProgress(tourID: 500, stopIndex: 1, seconds: 6.5, language: .english, mode: .guided, part: .walking)
        XCTAssertEqual(s.progress.current, saved)
        XCTAssertEqual(e, [.persist(s.settings)], "saved as it plays: a kill -9 loses at most 5 s")

        // The next run (nothing else survives a kill -9 but what was saved).
        var r = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        var restored = PersistedSettings(seenMessageIDs: [7], introSeen: true)
        restored.progress = s.progress
        _ = Reducer.reduce(&r, .launched(restored: restored, languageOverride: nil))
        _ = Reducer.reduce(&r, .documentLoaded(.success(Self.museum), note: nil))
        XCTAssertEqual(r.overlay, .resumeTour)
        let screen = RootView.render(r, size: Size(width: 80, height: 24))
        XCTAssertTrue((0..<24).contains { screen.row($0).contains("Resume Highlights in an Hour on the way to stop 2?") })
        let resumed = Reducer.reduce(&r, .activate)
        XCTAssertEqual(resumed.compactMap { if case .audio(.play(let q)) = $0 { return q } else { return nil } },
                       [AudioRequest(token: 1, url: "/museum/audio/10.mp3", title: "Welcome", startAt: 6.5)])
        XCTAssertEqual(r.tour?.machine.position, .bumper(to: 1))
        // The directions end: guided waits for the visitor at stop 2, as before the kill.
        _ = finishClip(&r)
        XCTAssertEqual(r.tour?.machine.position, .waiting(at: 1))

        // Killed while waiting to arrive: the resume waits there again, silent.
        var w = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        restored.progress = r.progress
        XCTAssertEqual(restored.progress.current?.part, .arriving)
        _ = Reducer.reduce(&w, .launched(restored: restored, languageOverride: nil))
        _ = Reducer.reduce(&w, .documentLoaded(.success(Self.museum), note: nil))
        XCTAssertEqual(playedURLs(Reducer.reduce(&w, .activate)), [])
        XCTAssertEqual(w.tour?.machine.position, .waiting(at: 1))
    }

    /// The sound server went away mid-stop and came back (issue 17 #19): the stop goes on where
    /// it was, as the tour's clip (its end still moves the tour on).
    func testTourClipGoesOnWhereItWasWhenTheSoundServerReturns() {
        var s = loaded()
        _ = start(&s, stop: 0)
        let token = s.player.snapshot.token
        let lost = PlayerSnapshot(token: token, status: .failed, position: 4.4, duration: 9, volume: 0.8, failure: .soundServerLost("Connection terminated"), outputAvailable: false)
        XCTAssertEqual(Reducer.reduce(&s, .playerSnapshot(lost)), [])
        XCTAssertEqual(s.tour?.failed, false, "nothing to retry by hand: it goes on by itself")
        var back = lost
        back.outputAvailable = true
        let e = Reducer.reduce(&s, .playerSnapshot(back))
        XCTAssertEqual(e.compactMap { if case .audio(.play(let q)) = $0 { return q } else { return nil } },
                       [AudioRequest(token: token + 1, url: "/museum/audio/11.mp3", title: "Harbor at Dawn", startAt: 4.4)])
        XCTAssertEqual(s.tour?.clipToken, token + 1)
        XCTAssertEqual(playedURLs(finishClip(&s)), ["/museum/audio/10.mp3"], "its end moves the tour on: the directions to stop 2")
        XCTAssertEqual(s.tour?.machine.position, .bumper(to: 1))
    }

    func testToursTabAndDetail() {
        var s = loaded()
        _ = Reducer.reduce(&s, .selectTab(.tours))
        XCTAssertEqual(s.page.route, .allTours)
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "tours-80x24")
        _ = Reducer.reduce(&s, .activate)
        XCTAssertEqual(s.page.route, .tourDetail(500))
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "tour-detail-rows-80x24")
        assertSnapshot(RootView.render(s, size: RootView.minimumSize), named: "tour-detail-rows-40x12")
        _ = start(&s)
        _ = finishClip(&s)
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "tour-waiting-80x24")
        var zh = loaded(.chinese)
        _ = Reducer.reduce(&zh, .selectTab(.tours))
        assertSnapshot(RootView.render(zh, size: Size(width: 80, height: 24)), named: "tours-zh-80x24")
    }
}

import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 17 #7 and #17: a tour's place is kept after `x` and after "not now", offered on the
/// tour's page and at the next start, and forgotten only when the visitor says so.
final class TourPlaceTests: XCTestCase {
    func loaded() -> AppState {
        var s = UIFixtures.loadedState()
        s.document = .ready(TourReducerTests.museum)
        return s
    }

    /// Tour 500 started at stop 2 (index 1) in English, 14 s into its clip.
    func listening(_ s: inout AppState) {
        prepare(&s, .tour(.start(tourID: 500, stop: 1)))
        prepare(&s, .activate)
        let token = s.player.snapshot.token
        prepare(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 14, duration: 30, volume: 0.8)))
    }

    static let place = TourProgress(tourID: 500, stopIndex: 1, seconds: 14, language: .english, mode: .guided)

    func rows(_ s: AppState) -> [Row] {
        guard case .list(_, let rows) = TourFeature.content(.detail(500), s) else { return [] }
        return rows
    }

    func testLeavingKeepsThePlaceAndTheTourPageOffersIt() {
        var s = loaded()
        listening(&s)
        XCTAssertEqual(KeyMap.action(for: .char("x"), in: s), .tour(.askLeave))
        send(&s, .tour(.askLeave)) { $0.overlay = .leaveTour }
        var after = s
        after.tour = nil
        after[TourFeature.self].resumeOffered = true  // no "welcome back" to the tour just left
        after.progress.current = Self.place
        _ = PlayerFeature.stop(&after)
        after.stacks = after.stacks.mapValues { st in st.count > 1 && st.last?.route == .player ? Array(st.dropLast()) : st }  // the full player goes with the sound (issue 47 #2)
        after.overlay = .message(id: 8)  // the museum's tour-exit message
        send(&s, .activate, effects: [.audio(.stop), .persist(after.settings)]) { $0 = after }
        // The tour's page: resume there first, then start from the intro.
        let items = rows(s).filter { $0.kind == .item }.map(\.text)
        XCTAssertEqual(Array(items.prefix(2)), ["▶ Resume at stop 2 (0:14)", "▶ Start the tour (intro)"])
        XCTAssertEqual(rows(s).first { $0.text == "▶ Resume at stop 2 (0:14)" }?.action, .send(.tour(.resume)))
        // And the next start offers it.
        var next = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        var restored = s.settings
        restored.seenMessageIDs.formUnion([7, 8])
        prepare(&next, .launched(restored: restored, languageOverride: nil))
        prepare(&next, .documentLoaded(.success(TourReducerTests.museum), note: nil))
        XCTAssertEqual(next.overlay, .resumeTour)
    }

    func testNotNowKeepsThePlaceAndForgetForgetsIt() {
        var saved = PersistedSettings(seenMessageIDs: [7], introSeen: true)
        saved.progress.current = Self.place
        saved.progress.listenedStops = [500: [0]]
        func welcomed() -> AppState {
            var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
            prepare(&s, .launched(restored: saved, languageOverride: nil))
            prepare(&s, .documentLoaded(.success(TourReducerTests.museum), note: nil))
            XCTAssertEqual(s.overlay, .resumeTour)
            return s
        }
        // Esc: not now, nothing saved or forgotten.
        var s = welcomed()
        send(&s, .back) { $0.overlay = nil }
        XCTAssertEqual(s.progress.current, Self.place)
        // The second choice says the same in words.
        s = welcomed()
        send(&s, .move(1)) { $0.overlay = TourFeature.show(.resume(selection: 1)) }
        send(&s, .activate) { $0.overlay = nil }
        // The third forgets the place; the stops heard stay marked.
        s = welcomed()
        var after = s
        after.overlay = nil
        after.progress.current = nil
        send(&s, .clickChoice(2), effects: [.persist(after.settings)]) { $0 = after }
        XCTAssertEqual(s.progress.listenedStops, [500: [0]])
        XCTAssertEqual(rows(s).filter { $0.kind == .item }.first?.text, "▶ Start the tour (intro)")
    }

    func testWelcomeBackBoxSnapshot() {
        var s = loaded()
        s.progress.current = Self.place
        s.overlay = .resumeTour
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "tour-resume-80x24")
        s.overlay = TourFeature.show(.resume(selection: 2))
        assertSnapshot(RootView.render(s, size: Size(width: 40, height: 12)), named: "tour-resume-forget-40x12")
    }

    /// Issue 17 #19: a guide stopped during walking directions (kill -9, q) resumes at those
    /// directions, where they were, not at the next stop's artwork.
    func testAPlaceDuringWalkingDirectionsResumesThere() throws {
        var s = loaded()
        prepare(&s, .tour(.start(tourID: 500, stop: 0)))
        prepare(&s, .activate)
        // Stop 1 ends: the bumper walking to stop 2 plays.
        var token = s.player.snapshot.token
        prepare(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 1, duration: 3, volume: 0.8)))
        prepare(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .ended, position: 3, duration: 3, volume: 0.8)))
        XCTAssertEqual(s.tour?.machine.position, .bumper(to: 1))
        token = s.player.snapshot.token
        prepare(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 6, duration: 20, volume: 0.8)))
        XCTAssertEqual(s.progress.current, TourProgress(tourID: 500, stopIndex: 1, seconds: 6, language: .english, mode: .guided, part: .walk))
        // The next start (after kill -9: what was saved is all there is).
        var next = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        var restored = s.settings
        restored.seenMessageIDs.formUnion([7, 8])
        prepare(&next, .launched(restored: restored, languageOverride: nil))
        prepare(&next, .documentLoaded(.success(TourReducerTests.museum), note: nil))
        XCTAssertEqual(next.overlay, .resumeTour)
        // The bumper (audio 10) again from 0:06.
        let tour = try XCTUnwrap(TourReducerTests.museum.data.tour(500))
        send(&next, .activate, effects: { [.audio(.play(AudioRequest(token: 1, url: "/museum/audio/10.mp3", title: "Welcome", startAt: 6))), .persist($0.settings)] }) {
            $0.overlay = nil
            $0.tour = TourSession(machine: TourMachine(tour: tour, start: .bumper(to: 1), listened: restored.progress.listenedStops[500] ?? []), language: .english)
            $0.stacks[.home] = [Page(.home), Page(.player)]
            _ = PlayerFeature.play(&$0, audioID: 10, artworkID: nil, tourID: 500, language: .english, at: 6)
            $0.tour?.clipToken = 1
            $0.tour?.savedAt = 6
        }
        XCTAssertEqual(next.tour?.machine.position, .bumper(to: 1))
    }
}

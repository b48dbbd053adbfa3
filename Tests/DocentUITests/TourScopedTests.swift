import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Tours as a scoped feature (issue 28): the reducer changes only the tours' state, and what
/// it wants of the shared UI (its boxes, the full player, the playing, the museum's messages
/// after a tour, saving) it returns as requests, stated here exactly. `TourReducerTests`
/// drive the same through the root and check what the root made of them.
final class TourScopedTests: XCTestCase {
    func context(_ s: AppState) -> FeatureContext { FeatureContext(s) }

    /// The tour tests' museum: tour 500 (intro: recording 10), with an exit message (8).
    func loaded() -> AppState {
        var s = UIFixtures.loadedState()
        s.document = .ready(TourReducerTests.museum)
        return s
    }

    func tour() throws -> Tour { try XCTUnwrap(TourReducerTests.museum.data.tour(500)) }

    func testStartAsksForItsLanguageBox() {
        let s = loaded()
        var t = s[TourFeature.self]
        let english = s.audioLanguages.firstIndex(of: .english) ?? -1
        sendScoped(TourFeature.self, &t, .start(tourID: 500, stop: 1), context(s), requests: [.show(.tourLanguage(tourID: 500, stop: 1, selection: english))])
        // A tour the museum does not have: nothing.
        sendScoped(TourFeature.self, &t, .start(tourID: 9, stop: nil), context(s))
    }

    /// Beginning: its box closed, the full player shown, the intro asked of the player in the
    /// tour's language; the session knows its clip by the token the player will give it, and
    /// the place is saved.
    func testBeginAsksThePlayerForTheIntroAndKnowsItsToken() throws {
        var s = loaded()
        s.player.nextToken = 4
        let tour = try tour()
        var t = s[TourFeature.self]
        sendScoped(
            TourFeature.self, &t, .begin(tourID: 500, stop: nil, language: .english, seconds: 2), context(s),
            requests: [.close, .push(.player), PlayerFeature.play(audioID: 10, artworkID: nil, tourID: 500, language: .english, at: 2), .persist]
        ) {
            var session = TourSession(machine: TourMachine(tour: tour), language: .english)
            session.clipToken = 4
            session.savedAt = 2
            $0.session = session
            $0.progress.started = [500]
            $0.progress.current = TourProgress(tourID: 500, stopIndex: nil, seconds: 2, language: .english, mode: .guided)
        }
    }

    /// Leaving: the place kept, its box closed, the tour's sound stopped, the exit message
    /// queued, and saved.
    func testLeaveAsksToStopItsSoundAndShowTheExitMessage() throws {
        var s = loaded()
        let tour = try tour()
        s[TourFeature.self].session = TourSession(machine: TourMachine(tour: tour), language: .english)
        _ = PlayerFeature.play(&s, audioID: 10, artworkID: nil, tourID: 500, language: .english)
        s.overlay = .leaveTour
        var t = s[TourFeature.self]
        sendScoped(
            TourFeature.self, &t, .leave, context(s), requests: [.close, .send(.player(.stop)), .messages([8]), .persist]
        ) {
            $0.session = nil
            $0.progress.current = TourProgress(tourID: 500, stopIndex: nil, seconds: 0, language: .english, mode: .guided)
            $0.resumeOffered = true
        }
        // Once the exit message is read and the guide settles, no "welcome back" to the tour
        // just left (its place is still kept, on the tour's page and at the next start).
        s.overlay = nil
        reactScoped(TourFeature.self, &t, .settled, context(s))
    }

    /// Once start-up settles, a saved place is offered once, as a request for its box.
    func testSettledOffersToResumeOnce() {
        var s = loaded()
        s[TourFeature.self].progress.current = TourProgress(tourID: 500, stopIndex: 1, seconds: 3, language: .english, mode: .guided)
        var t = s[TourFeature.self]
        reactScoped(TourFeature.self, &t, .settled, context(s), requests: [.show(.resumeTour)]) { $0.resumeOffered = true }
        reactScoped(TourFeature.self, &t, .settled, context(s))
        // "Forget it": closed and saved without the place.
        let forgot = TourFeature.overlay(.activate, .resume(selection: 2), &t, context(s))
        XCTAssertEqual(forgot, Outcome(requests: [.close, .persist]))
        XCTAssertNil(t.progress.current)
    }

    /// The intro ends in a guided tour: the tour waits at the first stop and asks the player to
    /// fall silent (the player leaves an ended clip alone), and saves the place.
    func testAClipEndingIntoAWaitAsksThePlayerToHush() throws {
        var s = loaded()
        let tour = try tour()
        _ = PlayerFeature.play(&s, audioID: 10, artworkID: nil, tourID: 500, language: .english)
        var session = TourSession(machine: TourMachine(tour: tour), language: .english)
        session.clipToken = s.player.snapshot.token
        s[TourFeature.self].session = session
        let before = s.player.snapshot
        s.player.snapshot = PlayerSnapshot(token: before.token, status: .ended, position: 3, duration: 3, volume: 0.8)
        var t = s[TourFeature.self]
        reactScoped(TourFeature.self, &t, .playerChanged(before: before), context(s), requests: [.send(.player(.hush)), .persist]) {
            $0.session?.machine.handle(.clipEnded)
            $0.session?.clipToken = nil
            $0.progress.current = TourProgress(tourID: 500, stopIndex: 0, seconds: 0, language: .english, mode: .guided, part: .waiting)
        }
    }
}

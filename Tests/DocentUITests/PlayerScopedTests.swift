import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// The player as a scoped feature (issue 28): its reducer changes only `PlayerState`, and
/// what it wants of the shared UI (its page, its box, saving, telling the others about a new
/// report) it returns as requests, stated here exactly. `KeypadPlayerTests` and
/// `PlayerTickTests` drive the same through the root.
final class PlayerScopedTests: XCTestCase {
    func context(_ s: AppState) -> FeatureContext { FeatureContext(s) }

    func request(_ token: Int, _ url: String, _ title: String, at start: Double = 0) -> Effect {
        .audio(.play(AudioRequest(token: token, url: url, title: title, startAt: start)))
    }

    /// Clay Vessel (artwork 101, recording 12) loaded, token 1.
    func playing(_ status: PlaybackStatus = .playing) -> AppState {
        var s = UIFixtures.loadedState()
        _ = PlayerFeature.play(&s, audioID: 12, artworkID: 101, tourID: nil, language: .english)
        s.player.snapshot.status = status
        return s
    }

    func testAnotherFeaturesRecordingLoadsInItsLanguageFromItsPosition() {
        let s = UIFixtures.loadedState()
        var p = s.player
        sendScoped(
            PlayerFeature.self, &p, .playFor(audioID: 12, artworkID: 101, tourID: 500, language: .english, at: 4), context(s),
            effects: [request(1, "/museum/audio/12.mp3", "Clay Vessel", at: 4)]
        ) {
            $0.track = Track(
                audioID: 12, artworkID: 101, tourID: 500, language: .english, requested: .english, title: "Clay Vessel", url: "/museum/audio/12.mp3",
                transcript: "Made of river clay.")
            $0.nextToken = 2
            $0.snapshot = PlayerSnapshot(token: 1, status: .loading, position: 4, volume: $0.volume)
        }
        // What other features ask is that action, sent through the root.
        XCTAssertEqual(
            PlayerFeature.play(audioID: 12, artworkID: 101, tourID: 500, language: .english, at: 4),
            .send(.player(.playFor(audioID: 12, artworkID: 101, tourID: 500, language: .english, at: 4))))
    }

    func testVolumeAndSpeedAskToBeSaved() {
        let s = playing()
        var p = s.player
        sendScoped(PlayerFeature.self, &p, .volumeBy(0.05), context(s), effects: [.audio(.volume(0.85))], requests: [.persist]) {
            $0.volume = 0.85
            $0.snapshot.volume = 0.85
        }
        sendScoped(PlayerFeature.self, &p, .speedStep(1), context(s), effects: [.audio(.speed(1.25))], requests: [.persist]) { $0.speed = 1.25 }
        // At the ends nothing changes and nothing is saved.
        p.volume = 1
        sendScoped(PlayerFeature.self, &p, .volumeBy(0.05), context(s))
    }

    /// Its page goes on top of the tab once; its box asks for the language playing.
    func testItsPageAndItsBoxAreRequests() {
        var s = playing()
        var p = s.player
        sendScoped(PlayerFeature.self, &p, .open, context(s), requests: [.push(.player)])
        sendScoped(PlayerFeature.self, &p, .openLanguages, context(s), requests: [.show(.audioLanguage(selection: 0))])
        PlayerFeature.showPlayer(&s)
        sendScoped(PlayerFeature.self, &p, .open, context(s))
        // Over another box: nothing.
        s.overlay = .help(firstRun: false)
        sendScoped(PlayerFeature.self, &p, .open, context(s))
        sendScoped(PlayerFeature.self, &p, .openLanguages, context(s))
    }

    func testChoosingALanguageClosesTheBoxAndPlaysTheTrackInIt() {
        var s = playing()
        s.overlay = .audioLanguage(selection: 0)
        var p = s.player
        let spanish = s.audioLanguages.firstIndex(of: .spanish) ?? -1
        XCTAssertGreaterThanOrEqual(spanish, 0, "the fixture's catalog offers Spanish")
        let got = PlayerFeature.overlay(.choose(spanish), .language(selection: 0), &p, context(s))
        XCTAssertEqual(
            got,
            Outcome(effects: [request(2, "/museum/audio/12.mp3", "Clay Vessel")], requests: [.show(.audioLanguage(selection: spanish)), .close]))
        XCTAssertEqual(p.track?.requested, .spanish)
        XCTAssertEqual(p.snapshot, PlayerSnapshot(token: 2, status: .loading, volume: p.volume))
    }

    /// A new report is the player's to keep; telling the others is a request, with the
    /// player's own way on after an outage for when none of them takes it up.
    func testAReportIsKeptAndBroadcast() {
        let s = playing()
        var p = s.player
        let before = p.snapshot
        let moved = PlayerSnapshot(token: 1, status: .playing, position: 2, duration: 9, volume: 0.8)
        sendScoped(PlayerFeature.self, &p, .snapshot(moved), context(s), requests: [.broadcast(.playerChanged(before: before), unheard: nil)]) {
            $0.snapshot = moved
        }
        // Another token's report is old news.
        sendScoped(PlayerFeature.self, &p, .snapshot(PlayerSnapshot(token: 7, status: .ended)), context(s))

        let lost = PlayerSnapshot(token: 1, status: .failed, position: 7.5, duration: 9, volume: 0.8, failure: .soundServerLost("gone"), outputAvailable: false)
        sendScoped(PlayerFeature.self, &p, .snapshot(lost), context(s), requests: [.broadcast(.playerChanged(before: moved), unheard: nil)]) {
            $0.snapshot = lost
        }
        var back = lost
        back.outputAvailable = true
        sendScoped(
            PlayerFeature.self, &p, .snapshot(back), context(s), requests: [.broadcast(.playerChanged(before: lost), unheard: .player(.replay(from: 7.5)))]
        ) {
            $0.snapshot = back
        }
    }

    /// A guided tour's silence: the engine stops, the track stays (idle); an ended one is left.
    func testHushStopsTheEngineButKeepsTheTrack() {
        let s = playing()
        var p = s.player
        sendScoped(PlayerFeature.self, &p, .hush, context(s), effects: [.audio(.stop)]) { $0.snapshot.status = .idle }
        sendScoped(PlayerFeature.self, &p, .hush, context(s))
        p.snapshot.status = .ended
        sendScoped(PlayerFeature.self, &p, .hush, context(s))
    }

    func testStartingOverSilencesAndResetsOnlyItsOwnState() {
        let s = playing()
        var p = s.player
        p.volume = 0.5
        p.speed = 1.5
        reactScoped(
            PlayerFeature.self, &p, .startOver, context(s), effects: [.audio(.stop), .audio(.volume(0.8)), .audio(.speed(1))]
        ) {
            $0 = PlayerState()
            $0.nextToken = 2
            $0.snapshot = PlayerSnapshot(token: 1, volume: 0.8)
        }
    }

    /// The wheel on the full player (issue 46 #4: `move` scoped): the player says how far its
    /// text may scroll, the root keeps the page's scroll within that; the player's own state
    /// is not the scroll and does not change.
    func testTheWheelOnTheFullPlayerAsksTheRootToScrollWithinItsText() {
        var s = playing()
        s.player.track?.transcript = Array(repeating: "Made of river clay, fired twice.", count: 40).joined(separator: " ")
        s.viewportRows = 10
        s.viewportWidth = 40
        prepare(&s, .openPlayer)
        XCTAssertEqual(s.page.route, .player)
        var p = s.player
        let asked = PlayerFeature.move(3, &p, context(s))
        XCTAssertEqual(p, s.player)
        XCTAssertEqual(asked.effects, [])
        guard asked.requests.count == 1, case .scrollPage(3, let most) = asked.requests[0] else { return XCTFail("\(asked)") }
        XCTAssertGreaterThan(most, 3, "a long text under the controls scrolls")
        send(&s, .move(3)) { $0.page.scroll = 3 }
        send(&s, .move(1_000_000)) { $0.page.scroll = most }
        send(&s, .move(-1_000_000)) { $0.page.scroll = 0 }
        // Nothing playing and no page: nothing to scroll, nothing asked.
        var none = PlayerState()
        XCTAssertEqual(PlayerFeature.move(3, &none, context(UIFixtures.loadedState())), .none)
    }
}

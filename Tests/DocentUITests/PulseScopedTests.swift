import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Visitor Pulse as a scoped feature (issue 28): its reducer changes only `PulseState`, and
/// what it wants of the shared UI (its boxes, banners, the keys box's scroll, saving) it
/// returns as requests, stated here exactly. `PulseTests`, `PulseGateTests` and
/// `PulseHomeTests` drive the same through the root.
final class PulseScopedTests: XCTestCase {
    let creds = VisitorCredentials(visitor: VisitorID("visitor01")!, secret: "s")

    func context(_ s: AppState) -> FeatureContext { FeatureContext(s) }

    /// Opened and checked, on Info (where `f` is about the museum).
    func ready() -> AppState {
        var s = UIFixtures.loadedState()
        prepare(&s, .pulse(.opened(.success(creds))))
        prepare(&s, .pulse(.checked(.success(PulseSnapshot(version: PulseVersion(3), counts: [.museum: PulseCounts(up: 4, down: 9)], takenAt: s.now)))))
        s.tab = .info
        return s
    }

    func testOpeningOnASubjectAsksForItsBox() {
        let s = ready()
        var p = s.pulse
        p.boxSelection = 2
        sendScoped(PulseFeature.self, &p, .openOn(.museum), context(s), requests: [.show(PulseFeature.show(.box(.museum)))]) { $0.boxSelection = 0 }
    }

    /// `f` in the scoped reducer (issue 46 #4: the whole-state `reduce` that read the subject
    /// off the page is gone): the subject is the context's page, here a tour's; on Info, the
    /// museum; with no museum, nothing.
    func testFOpensTheBoxOnThePagesSubjectFromTheContext() {
        var s = ready()
        prepare(&s, .selectTab(.tours))
        Reducer.push(&s, Route.tourDetail(500))
        var p = s.pulse
        p.boxSelection = 2
        sendScoped(PulseFeature.self, &p, .open, context(s), requests: [.show(PulseFeature.show(.box(.tour(500))))]) { $0.boxSelection = 0 }
        let info = ready()
        p = info.pulse
        sendScoped(PulseFeature.self, &p, .open, context(info), requests: [.show(PulseFeature.show(.box(.museum)))])
        var none = info
        none.document = .loading(source: info.source)
        p = none.pulse
        sendScoped(PulseFeature.self, &p, .open, context(none))
    }

    /// A reaction: shown at once in its own state, the store told, the visitor told by a banner.
    func testAReactionIsItsOwnStateAndABanner() {
        var s = ready()
        s.overlay = PulseFeature.show(.box(.museum))
        var p = s.pulse
        sendScoped(
            PulseFeature.self, &p, .choose(1), context(s), effects: [.pulse(.react(.up, .museum, creds))],
            requests: [.banner(Banner(.key(.pulseReacted)))]
        ) {
            $0.snapshot?.mine[.museum] = .up
            $0.snapshot?.counts[.museum] = PulseCounts(up: 5, down: 9)
        }
        // Not ready: only the banner.
        p.ready = false
        sendScoped(PulseFeature.self, &p, .choose(2), context(s), requests: [.banner(Banner(.key(.pulseNotReady), level: .warning))]) {
            $0.boxSelection = 1
        }
    }

    /// The store opened again after a failure: the failure's banner, if it still shows, is
    /// asked off; a new identity is saved after the check starts.
    func testOpenedClearsItsOwnFailureBannerAndAsksToSave() {
        var s = UIFixtures.loadedState()
        let locked = PulseStoreError.unavailable("locked")
        prepare(&s, .pulse(.opened(.failure(locked))))
        var p = s.pulse
        let today = PulseFeature.dayStart(FeatureContext(s))
        sendScoped(
            PulseFeature.self, &p, .opened(.success(creds)), context(s),
            effects: [
                .pulse(.check(viewer: creds.visitor, dayStart: today, since: nil)),
                .timer(PulseFeature.checkTimer, milliseconds: 5000, action: .pulse(.check)),
            ],
            requests: [.clearBanner, .persist]
        ) {
            $0.ready = true
            $0.openFailure = nil
            $0.openAttempts = 0
            $0.identity = PulseIdentity(credentials: self.creds, nextSequence: 0)
            $0.checking = true
        }
    }

    /// The keys box over its box: scrolled through a request, closed back to the box.
    func testTheKeysBoxScrollsAndReturnsThroughRequests() {
        var s = ready()
        let keys = PulseFeature.Overlay.keys(.box(.museum))
        s.overlay = PulseFeature.show(.box(.museum))
        var p = s.pulse
        sendScoped(PulseFeature.self, &p, .showKeys, context(s), requests: [.show(PulseFeature.show(keys))])
        s.overlay = PulseFeature.show(keys)
        XCTAssertEqual(PulseFeature.overlay(.move(3), keys, &p, context(s)), Outcome(requests: [.scrollBox(3)]))
        XCTAssertEqual(PulseFeature.overlay(.activate, keys, &p, context(s)), Outcome(requests: [.show(PulseFeature.show(.box(.museum)))]))
        XCTAssertEqual(p, s.pulse)
    }

    func testStartingOverForgetsTheVisitorAndAsksToSave() {
        let s = ready()
        var p = s.pulse
        p.draft = "half a note"
        reactScoped(
            PulseFeature.self, &p, .startOver, context(s), effects: [.pulse(.open(.defaultFile, identity: nil, seed: PulseFeature.seedPath(FeatureContext(s))))],
            requests: [.persist]
        ) {
            $0.draft = ""
            $0.identity = nil
            $0.ready = false
            $0.snapshot?.mine = [:]
            $0.snapshot?.myReports = []
        }
    }
}

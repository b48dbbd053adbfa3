import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Kiosk mode as a scoped feature (issue 28): its reducer changes only `KioskState`, and what
/// it wants of the shared UI (start over, quit, its screen, banners) it returns as requests,
/// stated here exactly. `KioskTests` drive the same through the root and check what the root
/// made of them.
final class KioskScopedTests: XCTestCase {
    static let idleTimer = Effect.timer(.kioskIdle, milliseconds: 2000, action: .kiosk(.idle))

    func context(_ s: AppState) -> FeatureContext { FeatureContext(s) }

    func kiosk() -> AppState { UIFixtures.loadedState(size: Size(width: 80, height: 24), config: KioskTests.config) }

    func testIdleAsksTheRootToStartOverAndShowTheWaitingScreen() {
        let s = kiosk()
        var k = s.kiosk
        k.typed = "24"
        sendScoped(KioskFeature.self, &k, .idle, context(s), requests: [.send(.startOver), .show(KioskFeature.show(.waiting))]) {
            $0.typed = nil
        }
    }

    func testIdleWithAReloadDueAlsoReloads() {
        let s = kiosk()
        var k = s.kiosk
        k.reloadDue = true
        sendScoped(
            KioskFeature.self, &k, .idle, context(s), effects: [.loadDocument(source: s.source)],
            requests: [.send(.startOver), .show(KioskFeature.show(.waiting))]
        ) {
            $0.reloadDue = false
        }
    }

    func testTheRightCodeAsksToQuitTheWrongOneDoesNot() {
        let s = kiosk()
        var k = s.kiosk
        k.typed = "2468"
        sendScoped(
            KioskFeature.self, &k, .pinEnter, context(s), effects: [KioskFeature.effect(.logCode(accepted: true, wrongInARow: 0, lockSeconds: nil))],
            requests: [.send(.quit)]
        ) {
            $0.typed = nil
            $0.unlocked = true
        }
        k = s.kiosk
        k.typed = "1111"
        sendScoped(
            KioskFeature.self, &k, .pinEnter, context(s), effects: [KioskFeature.effect(.logCode(accepted: false, wrongInARow: 1, lockSeconds: nil))],
            requests: [.persist, .banner(Banner(.key(.kioskWrongCode), level: .warning))]
        ) {
            $0.typed = nil
            $0.wrongCodes = 1
        }
    }

    /// Waking replaces only its own screen, with the welcome a first start shows (issue 33 #3).
    func testWakeClosesOnlyItsOwnScreen() {
        var s = kiosk()
        var k = s.kiosk
        sendScoped(KioskFeature.self, &k, .wake, context(s))
        s.overlay = KioskFeature.show(.waiting)
        sendScoped(KioskFeature.self, &k, .wake, context(s), requests: [.show(.help(firstRun: true))])
    }

    func testAConfigurationItCannotUseIsSaidAsBanners() {
        var s = UIFixtures.loadedState()
        s.config = ["kiosk": "yes", "kiosk_idle_seconds": "soon", "kiosk_reload_at": "noon"]
        var k = KioskState()
        reactScoped(
            KioskFeature.self, &k, .launched, context(s),
            requests: [
                .banner(Banner(.key(.bannerKioskFlagInvalid, ["value": .verbatim("yes")]), level: .warning)),
                .banner(Banner(.key(.bannerKioskIdleInvalid, ["value": .verbatim("soon"), "default": .verbatim("180")]), level: .warning)),
                .banner(Banner(.key(.bannerKioskReloadInvalid, ["value": .verbatim("noon")]), level: .warning)),
            ])
        s.config = KioskTests.config
        reactScoped(KioskFeature.self, &k, .launched, context(s), effects: [Self.idleTimer]) {
            $0.enabled = true
            $0.idleSeconds = 2
            $0.pin = "2468"
            $0.reloadCheckedAt = s.now
        }
    }

    /// The configuration is decoded once, by one function, for the feature and the terminal.
    func testTheKioskFlagIsDecodedOnce() {
        XCTAssertTrue(KioskConfig.decode(["kiosk": " TRUE "]).enabled)
        XCTAssertFalse(KioskConfig.decode(["kiosk": "yes"]).enabled)
        XCTAssertEqual(KioskConfig.decode(["kiosk": "yes"]).problems.count, 1)
        XCTAssertEqual(RenderOptions.decode(["kiosk": "true"]).terminalMode, .raw)
        XCTAssertEqual(RenderOptions.decode([:]).terminalMode, .cbreak)
    }
}

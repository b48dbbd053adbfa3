import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// The keypad as a scoped feature (issue 28): its reducer changes only `KeypadState`, and
/// what it wants of the shared UI (its tab forward, the keypad on top, its box, the player
/// playing and showing) it returns as requests, stated here exactly. `KeypadPlayerTests`
/// drive the same through the root and check what the root made of them.
final class KeypadScopedTests: XCTestCase {
    static let flash: Effect = .timer(.keypadFlash, milliseconds: 150, action: .keypadFlashEnded)

    func context(_ s: AppState) -> FeatureContext { FeatureContext(s) }

    /// The keypad tests' museum: 101 is shared by two things, 102 is Clay Vessel's, 900 a tour's.
    func loaded() -> AppState {
        var s = UIFixtures.loadedState()
        s.document = .ready(KeypadPlayerTests.museum)
        return s
    }

    /// From another tab a digit asks for the Audio Guide (the root saves the tab) and for its
    /// first page; on it, only for its first page (the root leaves it if it is on top).
    func testADigitAsksForTheAudioGuideAndItsKeypad() {
        var s = loaded()
        var k = s.keypad
        sendScoped(KeypadFeature.self, &k, .digit("1"), context(s), effects: [Self.flash], requests: [.send(.selectTab(.audioGuide)), .root(.audioGuide)]) {
            $0.input = "1"
            $0.pressed = "1"
        }
        s.tab = .audioGuide
        sendScoped(KeypadFeature.self, &k, .digit("0"), context(s), effects: [Self.flash], requests: [.root(.audioGuide)]) {
            $0.input = "10"
            $0.pressed = "0"
        }
        // Over a box, and for what is not a digit: nothing.
        sendScoped(KeypadFeature.self, &k, .digit("x"), context(s))
        s.overlay = .help(firstRun: false)
        sendScoped(KeypadFeature.self, &k, .digit("2"), context(s))
    }

    /// GO on one artwork's number: its own state cleared, then the player asked to play it
    /// in the visitor's language and to show itself.
    func testGoOnAHitAsksThePlayerToPlayAndShow() {
        var s = loaded()
        s.tab = .audioGuide
        var k = s.keypad
        k.input = "102"
        sendScoped(
            KeypadFeature.self, &k, .go, context(s), effects: [Self.flash],
            requests: [.close, PlayerFeature.play(audioID: 12, artworkID: 101, tourID: nil, language: .english), .push(.player)]
        ) {
            $0.input = ""
            $0.pressed = "go"
        }
        // A tour's number plays its intro.
        k.input = "900"
        sendScoped(
            KeypadFeature.self, &k, .go, context(s), effects: [Self.flash],
            requests: [.close, PlayerFeature.play(audioID: 10, artworkID: nil, tourID: 501, language: .english), .push(.player)]
        ) {
            $0.input = ""
        }
    }

    func testGoOnASharedNumberAsksForItsChooserAndOnNothingSaysSo() {
        let s = loaded()
        var k = s.keypad
        k.input = "101"
        sendScoped(KeypadFeature.self, &k, .go, context(s), effects: [Self.flash], requests: [.show(.keypadChooser(number: "101", selection: 0))]) {
            $0.pressed = "go"
        }
        k.input = "777"
        sendScoped(KeypadFeature.self, &k, .go, context(s), effects: [Self.flash]) { $0.notice = .unknown("777") }
    }

    func testTheChooserMovesAndChoosesThroughRequests() {
        var s = loaded()
        s.overlay = .keypadChooser(number: "101", selection: 0)
        var k = s.keypad
        let box = KeypadFeature.Overlay.chooser(number: "101", selection: 0)
        let moved = KeypadFeature.overlay(.move(1), box, &k, context(s))
        XCTAssertEqual(moved, Outcome(requests: [.show(.keypadChooser(number: "101", selection: 1))]))
        let chosen = KeypadFeature.overlay(.choose(1), box, &k, context(s))
        XCTAssertEqual(
            chosen,
            Outcome(requests: [
                .show(.keypadChooser(number: "101", selection: 1)), .close, PlayerFeature.play(audioID: 10, artworkID: 101, tourID: nil, language: .english),
                .push(.player),
            ]))
        XCTAssertEqual(k, KeypadState())
    }

    func testLeavingTheAudioGuideAndStartingOverForgetTheNumber() {
        var s = loaded()
        s.tab = .tours
        var k = s.keypad
        k.input = "99"
        k.notice = .unknown("99")
        reactScoped(KeypadFeature.self, &k, .navigated(from: .audioGuide), context(s)) {
            $0.input = ""
            $0.notice = nil
        }
        k.input = "4"
        k.pressed = "4"
        reactScoped(KeypadFeature.self, &k, .startOver, context(s)) { $0 = KeypadState() }
    }
}

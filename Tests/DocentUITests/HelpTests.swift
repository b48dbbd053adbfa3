import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 17 #9: `?` shows the keys of what is on screen (the tour's while one runs, the
/// player's with a recording loaded), aligned; hints never offer a key that does nothing.
final class HelpTests: XCTestCase {
    func loaded() -> AppState {
        var s = UIFixtures.loadedState()
        s.document = .ready(TourReducerTests.museum)
        return s
    }

    func helpText(_ s: AppState, size: Size = Size(width: 80, height: 60)) -> String {
        var h = s
        h.overlay = .help(firstRun: false)
        let screen = RootView.render(h, size: size)
        return (0..<screen.height).map(screen.row).joined(separator: "\n")
    }

    /// Tour 500 in English from stop `stop`, guided.
    func touring(_ s: inout AppState, stop: Int? = nil) {
        prepare(&s, .tour(.start(tourID: 500, stop: stop)))
        prepare(&s, .activate)
    }

    func testHelpFollowsWhatIsOnScreen() {
        var s = loaded()
        var text = helpText(s)
        XCTAssertFalse(text.contains("During the tour"), text)
        XCTAssertFalse(text.contains("pause / play"), "no recording: no player keys\n\(text)")
        XCTAssertTrue(text.contains("audio keypad: number, then GO"), text)
        touring(&s)
        text = helpText(s)
        XCTAssertTrue(text.contains("During the tour"), text)
        XCTAssertTrue(text.contains("I have arrived (on the player, when the tour waits)"), "guided: arrived is a key\n\(text)")
        XCTAssertFalse(text.contains("try the stop that failed again"), "nothing failed\n\(text)")
        XCTAssertTrue(text.contains("While something is playing"), text)
        XCTAssertTrue(text.contains("pause / play"), text)
        // The tour's keys come before the player's, both before the general ones.
        let order = ["During the tour", "While something is playing", "Everywhere"].compactMap { text.range(of: $0)?.lowerBound }
        XCTAssertEqual(order.count, 3)
        XCTAssertEqual(order, order.sorted())
        // Continuous: nothing to say "arrived" to.
        prepare(&s, .tour(.toggleMode))
        XCTAssertFalse(helpText(s).contains("I have arrived"))
    }

    /// The meanings start in one column in every section, measured in cells (Chinese too).
    func testKeysAreAlignedInEveryLanguage() {
        for lang in Language.uiLanguages {
            var s = loaded()
            s.language = lang
            touring(&s)
            let sections = HelpSection.current(s)
            XCTAssertEqual(sections.count, 3, "\(lang)")
            let lines = HelpSection.text(sections).split(separator: "\n").map(String.init)
            let pairs = sections.flatMap(\.lines)
            var columns = Set<Int>()
            for p in pairs {
                guard let line = lines.first(where: { $0.hasPrefix(p.keys) && $0.hasSuffix(p.meaning) }) else {
                    XCTFail("\(lang): no line for \(p.keys)"); continue
                }
                columns.insert(TextWidth.width(line) - TextWidth.width(p.meaning))
            }
            XCTAssertEqual(columns.count, 1, "\(lang): meanings start at columns \(columns.sorted())")
        }
    }

    /// Every language's tables have the same lines (the tour's are picked by position).
    func testHelpTablesHaveTheSameShapeInEveryLanguage() {
        for key in [StringKey.helpKeys, StringKey.helpTourKeys, StringKey.helpPlayerKeys] {
            let counts = Language.uiLanguages.map { lang -> Int in
                let s = AppState(source: "", catalog: UIFixtures.catalog, language: lang, now: UIFixtures.now, features: Registry.features)
                let section = HelpSection(title: "", table: s.strings(key))
                XCTAssertTrue(section.lines.allSatisfy { !$0.keys.isEmpty }, "\(lang) \(key): a line without keys")
                return section.lines.count
            }
            XCTAssertEqual(Set(counts).count, 1, "\(key): \(counts)")
        }
    }

    func testTourHintsOfferOnlyWhatWorks() {
        var s = loaded()
        touring(&s, stop: 0)
        var hints = TourFeature.tourStatus(s[TourFeature.self], FeatureContext(s)).last ?? ""
        XCTAssertFalse(hints.contains("Enter arrived"), "playing a stop, nothing to arrive at: \(hints)")
        XCTAssertTrue(hints.contains("> next") && hints.contains("x leave"), hints)
        // Let stop 1's clip end: the bumper plays, then a guided tour waits.
        func finish() {
            let token = s.player.snapshot.token
            prepare(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 1, duration: 3, volume: 0.8)))
            prepare(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .ended, position: 3, duration: 3, volume: 0.8)))
        }
        finish()
        if case .bumper = s.tour?.machine.position { finish() }
        guard case .waiting? = s.tour?.machine.position else { return XCTFail("not waiting: \(String(describing: s.tour?.machine.position))") }
        hints = TourFeature.tourStatus(s[TourFeature.self], FeatureContext(s)).last ?? ""
        XCTAssertTrue(hints.hasPrefix("Enter arrived"), hints)
        prepare(&s, .tour(.toggleMode))
        hints = TourFeature.tourStatus(s[TourFeature.self], FeatureContext(s)).last ?? ""
        XCTAssertFalse(hints.contains("arrived"), "continuous: \(hints)")
    }

    func testPlayerHintsSayWhatSpaceDoes() {
        var s = loaded()
        prepare(&s, .play(audioID: 11, artworkID: 100, tourID: nil))
        let token = s.player.snapshot.token
        prepare(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 1, duration: 3, volume: 0.8)))
        XCTAssertTrue(PlayerView.keyHints(s.player, FeatureContext(s)).hasPrefix("Space pause · ←→ 10 s"), PlayerView.keyHints(s.player, FeatureContext(s)))
        prepare(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .ended, position: 3, duration: 3, volume: 0.8)))
        let ended = PlayerView.keyHints(s.player, FeatureContext(s))
        XCTAssertTrue(ended.hasPrefix("Space play again"), ended)
        XCTAssertFalse(ended.contains("10 s"), "nothing to seek in after the end: \(ended)")
    }

    /// Issue 33 #19: the key help scrolled only with ↑↓; PgDn, PgUp, End and Home page it too.
    func testTheKeyHelpPagesWithPgDnEndAndHome() {
        var s = loaded()
        s.overlay = .help(firstRun: false)
        let rows = s.viewportRows
        XCTAssertGreaterThan(rows, 1)
        XCTAssertEqual(KeyMap.action(for: .pageDown, in: s), .page(1))
        send(&s, .page(1)) { $0.overlayScroll = rows - 1 }
        XCTAssertEqual(KeyMap.action(for: .end, in: s), .moveToEnd)
        send(&s, .moveToEnd) { $0.overlayScroll = 60 }
        XCTAssertEqual(KeyMap.action(for: .pageUp, in: s), .page(-1))
        XCTAssertEqual(KeyMap.action(for: .home, in: s), .moveToStart)
        send(&s, .moveToStart) { $0.overlayScroll = 0 }
    }

    /// At 40 columns a pair that does not fit puts its meaning on its own indented line, never
    /// half under the keys' column.
    func testNarrowHelpStacksWhatDoesNotFit() {
        var s = loaded()
        s.language = .chinese
        let text = HelpSection.text(HelpSection.current(s), width: 34)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("Tab / Shift-Tab"), text)
        XCTAssertTrue(lines.contains("\u{00A0}\u{00A0}\u{00A0}\u{00A0}下一个 / 上一个标签页"), text)
        XCTAssertTrue(lines.allSatisfy { TextWidth.width($0) <= 34 }, text)
        s.overlay = .help(firstRun: false)
        assertSnapshot(RootView.render(s, size: Size(width: 40, height: 12)), named: "help-zh-40x12")
    }

    /// A meaning too long for the room beside the indent (Korean at 40 columns) is wrapped with
    /// the indent on each of its lines, not only the first (issue 47).
    func testAMeaningWrappedTwiceKeepsItsIndentOnEveryLine() {
        let section = HelpSection(title: "K", table: "Shift-Tab\t이전 탭으로 돌아가고 목록의 맨 처음으로 이동합니다")
        let text = HelpSection.text([section], width: 20)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Shift-Tab", text)
        XCTAssertGreaterThan(lines.count, 3, text)
        for l in lines.dropFirst() {
            XCTAssertTrue(l.hasPrefix("\u{00A0}\u{00A0}\u{00A0}\u{00A0}"), "every line of the meaning indented:\n\(text)")
            XCTAssertLessThanOrEqual(TextWidth.width(l), 20, text)
        }
        XCTAssertEqual(lines.dropFirst().map { $0.dropFirst(4) }.joined(separator: " "), "이전 탭으로 돌아가고 목록의 맨 처음으로 이동합니다", "nothing lost")
    }
}

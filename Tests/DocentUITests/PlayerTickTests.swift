import DocentCoreTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// A new position drawn over the last frame (`RootView.redrawPosition`, what the loop does
/// once a second while a recording plays) gives the very frame a whole render gives.
final class PlayerTickTests: XCTestCase {
    /// A state playing the fixture's recording for 102 at `position` (of 3,700 s, so the clock
    /// goes past ten minutes and an hour), on the full player.
    func playing(size: Size, language: Language = .english) -> AppState {
        var s = UIFixtures.loadedState(language: language, size: size)
        _ = prepare(&s, .keypadDigit("1"), .keypadDigit("0"), .keypadDigit("2"), .keypadGo)
        XCTAssertNotNil(s.player.track)
        XCTAssertEqual(s.page.route, .player)
        return s
    }

    func at(_ state: AppState, _ position: Double, status: PlaybackStatus = .playing) -> AppState {
        var s = state
        _ = prepare(&s, .playerSnapshot(PlayerSnapshot(token: s.player.snapshot.token, status: status, position: position, duration: 3_700, volume: s.player.volume)))
        XCTAssertEqual(s.player.snapshot.position, position)
        return s
    }

    func assertTicks(_ state: AppState, size: Size, file: StaticString = #filePath, line: UInt = #line) {
        for (from, to) in [(0.0, 1.0), (9.5, 10.2), (59.9, 61.0), (599.0, 600.0), (3_599.0, 3_600.5), (3_000.0, 12.0)] {
            let before = at(state, from), after = at(state, to)
            var screen = RootView.render(before, size: size)
            let rows = RootView.redrawPosition(&screen, after)
            XCTAssertNotNil(rows, "\(from) → \(to)", file: file, line: line)
            let whole = RootView.render(after, size: size)
            XCTAssertEqual(screen.dump(), whole.dump(), "\(from) → \(to)", file: file, line: line)
            XCTAssertTrue(screen == whole, "\(from) → \(to): the same links and click regions too", file: file, line: line)
            let first = RootView.render(before, size: size)
            let differing = (0..<size.height).filter { y in (0..<size.width).contains { first[$0, y] != whole[$0, y] } }
            XCTAssertTrue(Set(differing).isSubset(of: Set(rows ?? [])), "\(from) → \(to): rows \(differing) changed, \(rows ?? []) said", file: file, line: line)
        }
    }

    func testOnTheFullPlayerTheControlsAndTheMiniPlayerTick() {
        for size in [Size(width: 80, height: 24), Size(width: 40, height: 12), Size(width: 132, height: 40)] {
            assertTicks(playing(size: size), size: size)
        }
        let size = Size(width: 80, height: 24)
        let s = at(playing(size: size), 61)
        XCTAssertTrue((0..<size.height).contains { RootView.render(s, size: size).row($0).contains("1:01 / 1:01:40") }, "the clock is there to tick")
    }

    func testOnAnotherTabTheMiniPlayerTicks() {
        let size = Size(width: 80, height: 24)
        var s = playing(size: size)
        _ = prepare(&s, .selectTab(.home))
        XCTAssertEqual(s.tab, .home)
        assertTicks(s, size: size)
        _ = prepare(&s, .selectTab(.map))
        assertTicks(s, size: size)
    }

    /// Issue 28: the reader's script is a transform over the frame that the partial redraw
    /// applies to the rows it draws again (it used to draw the whole frame for Chinese readers).
    func testInTheReadersChineseScriptToo() {
        let size = Size(width: 80, height: 24)
        for language in [Language.traditionalChinese, .chinese] {
            var s = playing(size: size, language: language)
            // A conversion as the shell would open (OpenCC through ScriptConversion), by characters.
            s[ScriptsFeature.self].script = ReadersScript.characters(traditional: ["时": "時", "华": "華", "间": "間"], simplified: ["時": "时", "華": "华", "間": "间"])
            assertTicks(s, size: size)
        }
    }

    func testInSpanishToo() {
        let size = Size(width: 80, height: 24)
        assertTicks(playing(size: size, language: .spanish), size: size)
    }

    func testWhereItCannotBeExactTheWholeFrameIsDrawn() {
        let size = Size(width: 80, height: 24)
        var boxed = at(playing(size: size), 5)
        _ = prepare(&boxed, .showHelp)
        XCTAssertNotNil(boxed.overlay)
        var screen = RootView.render(boxed, size: size)
        XCTAssertNil(RootView.redrawPosition(&screen, boxed), "a box over the page")
        var reader = at(playing(size: size), 5)
        reader.config["screen_reader"] = "true"
        screen = RootView.render(reader, size: size)
        XCTAssertNil(RootView.redrawPosition(&screen, reader), "a screen reader's frame")
        let small = Size(width: 39, height: 12)
        screen = RootView.render(at(playing(size: small), 5), size: small)
        XCTAssertNil(RootView.redrawPosition(&screen, at(playing(size: small), 6)), "too small")
    }

    /// What the terminal keeps of a frame whose player lines alone were drawn again
    /// (`Screen.adopt`): the frame kept becomes the new one, links and click regions
    /// included, by taking those rows; a frame of another size is not taken.
    func testTheFrameKeptTakesTheRowsDrawnAgain() {
        let size = Size(width: 80, height: 24)
        let before = at(playing(size: size), 9.5), after = at(playing(size: size), 71)
        var kept = RootView.render(before, size: size)
        var drawn = kept
        guard let rows = RootView.redrawPosition(&drawn, after) else { return XCTFail("the clock could not be drawn alone") }
        XCTAssertNotEqual(kept.dump(), drawn.dump(), "the clock moved")
        XCTAssertTrue(kept.adopt(drawn, changedRows: rows))
        XCTAssertTrue(kept == drawn)
        XCTAssertEqual(kept.dump(), RootView.render(after, size: size).dump())
        let other = RootView.render(after, size: Size(width: 40, height: 12))
        XCTAssertFalse(kept.adopt(other, changedRows: [0]))
        XCTAssertTrue(kept == drawn, "nothing taken from a frame of another size")
    }
}

import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Screen-reader mode (issue 16 #3): the frame's focus (where the terminal's cursor goes), a
/// player whose time stands still while it plays, the map opening as its list.
final class ScreenReaderTests: XCTestCase {
    let big = Size(width: 80, height: 24)
    let small = RootView.minimumSize
    static let config = ["screen_reader": "true"]

    func selectedLine(_ screen: Screen) -> Int? {
        (0..<screen.height).first { screen.row($0).hasPrefix(" ▸") || screen.row($0).hasPrefix("▸") }
    }

    /// Issue 47 #5: a box has no borders for a screen reader, so its rows are its own: no line
    /// mixes the page behind with the box's words ("  Pop  Info. Digits are kept…").
    func testABoxTakesItsRowsWholeAndDecorativeMarksAreNotRead() {
        var s = UIFixtures.loadedState(config: Self.config)
        let behind = RootView.render(s, size: Size(width: 80, height: 24))
        s.overlay = .help(firstRun: true)
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        // From the box's title to its footer.
        let first = (0..<24).first { screen.row($0).contains("Welcome to Docent") } ?? 0
        let last = (0..<24).last { screen.row($0).contains("Enter or Esc to close") } ?? 0
        let boxRows = Array(first...max(first, last))
        for y in boxRows {
            // The page's text on the same row is gone: the row is the box's alone.
            let page = behind.row(y).trimmingCharacters(in: .whitespaces)
            // (The box's title row says "Welcome" as Home's heading behind it does.)
            guard !page.isEmpty, !screen.row(y).contains("Welcome to Docent") else { continue }
            XCTAssertFalse(screen.row(y).contains(page), "row \(y): \(screen.row(y))")
        }
        XCTAssertGreaterThan(boxRows.count, 3, "the box spans rows \(first)…\(last)")
        // Popularity bars are pictures of the list's order: not read out.
        for y in 0..<24 { XCTAssertFalse(behind.row(y).contains("▰"), behind.row(y)) }
        assertSnapshot(screen, named: "screen-reader-welcome-box-80x24")
    }

    func testTheFocusIsTheSelectedRowOrTheBoxsChoice() {
        var s = UIFixtures.loadedState(config: Self.config)
        XCTAssertTrue(s.screenReader)
        var screen = RootView.render(s, size: big)
        XCTAssertEqual(screen.focus?.y, selectedLine(screen))
        XCTAssertNotNil(screen.focus)
        let first = screen.focus?.y ?? -1
        prepare(&s, .move(1))
        screen = RootView.render(s, size: big)
        XCTAssertEqual(screen.focus?.y, selectedLine(screen))
        XCTAssertGreaterThan(screen.focus?.y ?? -1, first)
        // The language box: on its chosen line; the help box: on its title.
        prepare(&s, .openLanguagePicker)
        screen = RootView.render(s, size: big)
        let y = screen.focus?.y ?? -1
        XCTAssertTrue(screen.row(y).contains("● English"), screen.row(y))
        prepare(&s, .dismissOverlay, .showHelp)
        screen = RootView.render(s, size: small)
        XCTAssertTrue(screen.row(screen.focus?.y ?? -1).contains(s.strings(.helpTitle)), screen.row(screen.focus?.y ?? -1))
    }

    func testWhilePlayingTheTimeStandsStillAndPausingShowsIt() {
        for size in [big, small] {
            var s = UIFixtures.loadedState(size: size, config: Self.config)
            prepare(&s, .play(audioID: 12, artworkID: 101, tourID: nil))
            var snap = s.player.snapshot
            snap.status = .playing
            snap.duration = 90
            snap.position = 3
            prepare(&s, .playerSnapshot(snap))
            let at3 = RootView.render(s, size: size)
            snap.position = 41.5
            prepare(&s, .playerSnapshot(snap))
            XCTAssertEqual(RootView.render(s, size: size), at3, "a tick changes nothing on screen: nothing is written")
            assertSnapshot(at3, named: "screen-reader-playing-\(size.width)x\(size.height)")
            snap.status = .paused
            prepare(&s, .playerSnapshot(snap))
            let paused = RootView.render(s, size: size)
            XCTAssertTrue((0..<paused.height).contains { paused.row($0).contains("0:41") }, "paused: where it is")
            // Without the mode the same tick is drawn.
            var plain = UIFixtures.loadedState(size: size)
            prepare(&plain, .play(audioID: 12, artworkID: 101, tourID: nil))
            snap.status = .playing
            snap.position = 3
            prepare(&plain, .playerSnapshot(snap))
            let before = RootView.render(plain, size: size)
            snap.position = 41.5
            prepare(&plain, .playerSnapshot(snap))
            XCTAssertNotEqual(RootView.render(plain, size: size), before)
        }
    }

    /// Headings are words, boxes have no borders, a banner is a plain line: nothing of box
    /// drawing for a screen reader to spell out.
    func testHeadingsBoxesAndBannersArePlain() {
        let boxDrawing = CharacterSet(charactersIn: "─│┌┐└┘")
        func drawn(_ screen: Screen) -> String { (0..<screen.height).map(screen.row).joined(separator: "\n") }
        for (lang, size, name) in [(Language.english, big, "screen-reader-language-80x24"), (.chinese, small, "screen-reader-language-zh-40x12")] {
            var s = UIFixtures.loadedState(language: lang, size: size, config: Self.config)
            s.banner = Banner(.key(.bannerReloadFailed, ["reason": .verbatim("x")]), level: .warning)
            prepare(&s, .openLanguagePicker)
            let screen = RootView.render(s, size: size)
            XCTAssertNil(drawn(screen).unicodeScalars.first { boxDrawing.contains($0) }, drawn(screen))
            XCTAssertTrue(drawn(screen).contains(s.strings(.languageTitle)))
            XCTAssertFalse(screen[1, size.height - 1].style.reverse, "the banner is not a reversed bar")
            assertSnapshot(screen, named: name)
        }
        // Without the mode, as before.
        var plain = UIFixtures.loadedState()
        prepare(&plain, .openLanguagePicker)
        XCTAssertNotNil(drawn(RootView.render(plain, size: big)).unicodeScalars.first { boxDrawing.contains($0) })
    }

    /// Issue 33 #11: a page with no highlighted row (the full player) still has a focus, its
    /// first line; before, the cursor stayed where the last cell was written, the status line,
    /// and went back there with every frame drawn while a recording played.
    func testAPageWithNothingHighlightedHasItsFirstLineAsTheFocus() {
        var s = UIFixtures.loadedState(config: Self.config)
        prepare(&s, .play(audioID: 12, artworkID: 101, tourID: nil), .openPlayer)
        var snap = s.player.snapshot
        snap.status = .playing
        prepare(&s, .playerSnapshot(snap))
        let screen = RootView.render(s, size: big)
        XCTAssertEqual(screen.focus, Rect(x: 1, y: 2, width: 1, height: 1), "the page's first line: the player's")
        XCTAssertTrue(screen.row(2).contains(s.strings(.playerStatusPlaying)), screen.row(2))
        // A box over it still takes the focus.
        prepare(&s, .openLanguagePicker)
        let boxed = RootView.render(s, size: big)
        XCTAssertTrue(boxed.row(boxed.focus?.y ?? -1).contains("● English"), boxed.row(boxed.focus?.y ?? -1))
    }

    /// Issue 33 #11: for a screen reader the artwork's picture is said, not drawn as symbols
    /// (nothing is fetched), on every page that has one.
    /// The test museum with a picture and an artist on "Harbor at Dawn" (artwork 100, audio 11).
    static let museum: Museum = {
        var json = String(decoding: UIFixtures.bytes("museum.json"), as: UTF8.self)
        json = json.replacingOccurrences(
            of: #""100": {"nid": 100, "title": "Harbor at Dawn","#,
            with: #""100": {"nid": 100, "title": "Harbor at Dawn", "image_url": "images/harbor.jpg", "artist_culture_place_delim": "Ada Brandt|German, 1801–1870","#)
        switch AppDataReader.read(Array(json.utf8), source: "/museum/appData.json") {
        case .success(let a): return Museum(a)
        case .failure(let e): fatalError("\(e)")
        }
    }()

    func testAPictureIsSaidInWords() {
        var s = UIFixtures.loadedState(config: Self.config)
        s.document = .ready(Self.museum)
        send(&s, .pictures(.modeResolved(.symbols(.truecolor)))) { $0.pictures.mode = .symbols(.truecolor) }
        prepare(&s, .play(audioID: 11, artworkID: 100, tourID: nil))
        send(&s, .openPlayer) { PlayerFeature.showPlayer(&$0) }
        XCTAssertEqual(FeatureContext(s).figure(.player), .note(.key(.picturesDescribed, ["what": .verbatim("Harbor at Dawn, Ada Brandt")])))
        let screen = RootView.render(s, size: big)
        assertSnapshot(screen, named: "screen-reader-picture-80x24")
        let text = (0..<screen.height).map(screen.row).joined(separator: "\n")
        XCTAssertTrue(text.contains("Picture: Harbor at Dawn, Ada Brandt"), text)
        XCTAssertFalse(text.contains("▀"), "no picture drawn")
        // Without the mode the same steps fetch the picture.
        var plain = UIFixtures.loadedState()
        plain.document = .ready(Self.museum)
        prepare(&plain, .pictures(.modeResolved(.symbols(.truecolor))), .play(audioID: 11, artworkID: 100, tourID: nil))
        let effects = prepare(&plain, .openPlayer)
        XCTAssertEqual(effects.count, 1, "the picture is fetched: \(effects)")
    }

    func testTheMapOpensAsItsList() {
        XCTAssertTrue(UIFixtures.loadedState(config: Self.config).map.textMode)
        XCTAssertFalse(UIFixtures.loadedState().map.textMode)
        XCTAssertFalse(UIFixtures.loadedState(config: ["screen_reader": "no"]).map.textMode)
    }
}

import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 17 #15: text that does not fit is shortened where a reader expects a break, and a
/// named hall is not called "Gallery …".
final class TextFitTests: XCTestCase {
    func testHintsDropWholeKeysAndKeepHelp() {
        let hints = "Tab/F1–F6 tabs · ↑↓ move · Enter open · 0–9 keypad · ? help · q quit"
        XCTAssertEqual(TextWidth.fitHints(hints, to: 80), hints)
        XCTAssertEqual(TextWidth.fitHints(hints, to: 38), "Tab/F1–F6 tabs … · ? help · q quit", "help and quit outlast the rest")
        XCTAssertEqual(TextWidth.fitHints(hints, to: 20), "… · ? help · q quit")
        XCTAssertEqual(TextWidth.fitHints("↑↓ choose · Enter select · Esc cancel", to: 30), "Enter select · Esc cancel …")
        // The arrows give way first: Esc back is kept on a detail at 40 columns.
        XCTAssertEqual(
            TextWidth.fitHints("↑↓ scroll · Esc back · Tab tabs · L language · ? help · q quit", to: 38),
            "Esc back … · ? help · q quit")
        // Not even one whole hint: cut by words, then characters.
        XCTAssertEqual(TextWidth.fitHints("Everything you type goes into the search", to: 20), "Everything you type…")
        for width in 1...60 {
            XCTAssertLessThanOrEqual(TextWidth.width(TextWidth.fitHints(hints, to: width)), width, "at \(width)")
        }
    }

    func testWordsAreKeptWhole() {
        XCTAssertEqual(
            TextWidth.fit("Your settings could not be saved (database is locked); the guide keeps running", to: 40),
            "Your settings could not be saved…")
        XCTAssertEqual(TextWidth.fit("您的设置无法保存（数据库被锁定）", to: 11), "您的设置无…")
        XCTAssertEqual(TextWidth.fit("Supercalifragilistic", to: 8), "Superca…")
        XCTAssertEqual(TextWidth.fit("short", to: 5), "short")
        XCTAssertEqual(TextWidth.fit("anything", to: 0), "")
    }

    func testThePlayerDropsTheVolumeBeforeCuttingIt() {
        var s = UIFixtures.loadedState(size: Size(width: 40, height: 12))
        prepare(&s, .play(audioID: 11, artworkID: 100, tourID: nil))
        let token = s.player.snapshot.token
        prepare(&s, .playerSnapshot(PlayerSnapshot(token: token, status: .playing, position: 4, duration: 12, volume: 0.8)))
        let screen = RootView.render(s, size: Size(width: 40, height: 12))
        let text = (0..<12).map(screen.row).joined(separator: "\n")
        XCTAssertTrue(text.contains("0:04 / 0:12"), text)
        XCTAssertFalse(text.contains("Vol 8…"), text)
    }

    func testNamedHallsAreNotCalledGallery() {
        let s = UIFixtures.loadedState()
        XCTAssertEqual(SearchPage.galleryText("Ostrander Photography Hall", s.strings), "Ostrander Photography Hall")
        XCTAssertEqual(SearchPage.galleryText("Gallery 301", s.strings), "Gallery 301")
        XCTAssertEqual(SearchPage.galleryText("301", s.strings), "Gallery 301")
    }

    /// Issue 33 #17: a detail made of parts gives up its last parts before the title is cut.
    func testADetailGivesUpPartsBeforeTheTitleIsCut() {
        var screen = Screen(width: 38, height: 1)
        let area = Rect(x: 0, y: 0, width: 38, height: 1)
        Widgets.line(&screen, area, y: 0, text: "Highlights of the Collection", detail: "30 min · 7 stops", style: .plain, detailStyle: .plain)
        XCTAssertEqual(screen.row(0), "Highlights of the Collection    30 min")
        // Room for both: both.
        var wide = Screen(width: 60, height: 1)
        Widgets.line(&wide, Rect(x: 0, y: 0, width: 60, height: 1), y: 0, text: "Highlights of the Collection", detail: "30 min · 7 stops", style: .plain, detailStyle: .plain)
        XCTAssertEqual(wide.row(0), "Highlights of the Collection                30 min · 7 stops")
    }
}

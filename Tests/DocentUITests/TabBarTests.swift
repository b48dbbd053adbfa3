import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// The tab bar at any width keeps the current tab in view.
final class TabBarTests: XCTestCase {
    func testLayoutPaddedThenTightThenAWindowAroundTheCurrentTab() {
        let widths = [4, 11, 3, 5, 6, 4]  // Home, Audio Guide, Map, Tours, Search, Info
        // 33 cells of names, 5 separators, 12 of padding.
        XCTAssertTrue(TabBar.layout(widths: widths, current: 0, room: 50) == (0..<6, true))
        XCTAssertTrue(TabBar.layout(widths: widths, current: 0, room: 49) == (0..<6, false))
        XCTAssertTrue(TabBar.layout(widths: widths, current: 5, room: 38) == (0..<6, false))
        // 37 cells: not all; from Info leftwards: ‹Audio Guide│Map│Tours│Search│Info.
        XCTAssertTrue(TabBar.layout(widths: widths, current: 5, room: 37) == (1..<6, false))
        // From Home, rightwards first: Home│Audio Guide│Map│Tours│Search›.
        XCTAssertTrue(TabBar.layout(widths: widths, current: 0, room: 37) == (0..<5, false))
        // Around a middle tab, both markers.
        XCTAssertTrue(TabBar.layout(widths: widths, current: 2, room: 16) == (2..<4, false), "\(TabBar.layout(widths: widths, current: 2, room: 16))")
        // Too narrow even for one name: the current one alone (clipped when drawn).
        XCTAssertTrue(TabBar.layout(widths: widths, current: 1, room: 5) == (1..<2, false))
    }

    private func tabBar(_ language: Language, tab: Tab, width: Int) -> String {
        var s = UIFixtures.loadedState(language: language, size: Size(width: width, height: 12))
        prepare(&s, .selectTab(tab))
        return RootView.render(s, size: Size(width: width, height: 12)).row(0)
    }

    func testEveryTabIsVisibleWhenCurrentInEveryLanguageAtTheMinimumWidth() {
        let width = RootView.minimumSize.width
        for language in Language.uiLanguages {
            var s = UIFixtures.loadedState(language: language)
            for tab in s.tabs {
                prepare(&s, .selectTab(tab))
                let screen = RootView.render(s, size: Size(width: width, height: 12))
                let name = s.strings(tab.titleKey)
                XCTAssertTrue(screen.row(0).contains(name), "\(language.code) \(tab): \(screen.row(0))")
                let reversed = (0..<width).filter { screen[$0, 0].style.reverse }
                XCTAssertFalse(reversed.isEmpty, "current tab highlighted")
                // A click on the current tab's name lands on it.
                XCTAssertEqual(reversed.first.flatMap { screen.hitAction(x: $0, y: 0) }, .selectTab(tab))
            }
        }
    }

    func testNarrowBars() {
        XCTAssertEqual(tabBar(.english, tab: .info, width: 40).trimmingCharacters(in: .whitespaces), "Home│Audio Guide│Map│Tours│Search│Info")
        XCTAssertEqual(tabBar(.spanish, tab: .info, width: 40).trimmingCharacters(in: .whitespaces), "‹Mapa│Recorridos│Buscar│Información")
        XCTAssertEqual(tabBar(.spanish, tab: .home, width: 40).trimmingCharacters(in: .whitespaces), "Inicio│Audioguía│Mapa│Recorridos│Buscar›")
        XCTAssertTrue(tabBar(.english, tab: .home, width: 80).hasPrefix(" Home │ Audio Guide │"))
    }
}

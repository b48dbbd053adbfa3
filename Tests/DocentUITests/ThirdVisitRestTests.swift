import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// The rest of issue 47 (a third visit): the kiosk's welcome and staff code, the loading
/// screen's progress, Pulse's visit code, the player's bar, glyphs, Home's selection, the map's
/// labels and plurals.
final class ThirdVisitRestTests: XCTestCase {
    // MARK: #12 Kiosk: the museum's name in every language, and a wrong code said

    func kiosk(_ extra: [String: String] = [:], size: Size = Size(width: 80, height: 24)) -> AppState {
        UIFixtures.loadedState(size: size, config: KioskTests.config.merging(extra) { $1 })
    }

    @discardableResult
    func keys(_ s: inout AppState, _ keys: [Key]) -> [Effect] {
        var effects: [Effect] = []
        for k in keys { effects += pressKey(&s, k, asVisitor: true) }
        return effects
    }

    func screenText(_ s: AppState, _ size: Size) -> [String] {
        let screen = RootView.render(s, size: size)
        return (0..<size.height).map { screen.row($0) }
    }

    func testTheWaitingScreenWelcomesToTheMuseumByNameInEveryLanguage() {
        let size = Size(width: 80, height: 24)
        var s = kiosk(["museum_name": "  Velden Museum of Art "], size: size)
        XCTAssertEqual(s.kiosk.museumName, "Velden Museum of Art")
        prepare(&s, .kiosk(.idle))
        let text = screenText(s, size).joined(separator: "\n")
        for language in s.catalog.languages {
            let strings = s.catalog.strings(for: language)
            XCTAssertTrue(text.contains(strings(.kioskWelcomeMuseum, ["museum": "Velden Museum of Art"])), "\(language.code):\n\(text)")
            XCTAssertTrue(text.contains(strings(.kioskPressAnyKey)), language.code)
        }
        assertSnapshot(RootView.render(s, size: size), named: "kiosk-waiting-named-80x24")
        // Without a name, the welcome is still in every language.
        var plain = kiosk(size: size)
        prepare(&plain, .kiosk(.idle))
        let plainText = screenText(plain, size).joined(separator: "\n")
        for language in plain.catalog.languages {
            XCTAssertTrue(plainText.contains(plain.catalog.strings(for: language)(.kioskWelcome)), language.code)
        }
    }

    func testAWrongStaffCodeIsSaidAndTheLockStillHolds() {
        var s = kiosk()
        func code(_ c: String) {
            keys(&s, [.ctrl("x")] + c.map { Key.char($0) } + [.enter])
        }
        code("1111")
        XCTAssertEqual(s.banner, Banner(.key(.kioskWrongCode), level: .warning))
        XCTAssertTrue(screenText(s, Size(width: 80, height: 24)).contains { $0.contains("Wrong staff code.") })
        code("1112")
        code("1113")
        XCTAssertEqual(s.banner, Banner(.key(.kioskWrongCodeLocked, ["seconds": .verbatim("30")]), level: .warning))
        XCTAssertTrue(s.kiosk.locked)
        code("2468")
        XCTAssertEqual(s.banner, Banner(.key(.kioskCodesRefused), level: .warning))
        XCTAssertFalse(s.kiosk.unlocked, "the right code during the lock is not looked at")
        prepare(&s, .kiosk(.lockOver))
        code("2468")
        XCTAssertTrue(s.kiosk.unlocked)
    }
}

extension ThirdVisitRestTests {
    // MARK: #7 A source that accepts and never answers

    func testTheLoadingPageSaysHowLongItHasWaitedForWhatAndTheWayOut() {
        let size = Size(width: 80, height: 24)
        var s = AppState(source: "http://museum.example/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        s.introSeen = true
        prepare(&s, .viewportChanged(rows: RootView.viewport(for: size).rows, width: size.width))
        XCTAssertFalse(screenText(s, size).contains { $0.contains(" s") && $0.contains("Loading") }, "no count before a second")
        prepare(&s, .tick(UIFixtures.now.addingTimeInterval(12)))
        let text = screenText(s, size).joined(separator: "\n")
        XCTAssertTrue(text.contains("Loading the museum guide… 12 s"), text)
        XCTAssertTrue(text.contains("Waiting for http://museum.example/appData.json to answer. Press q to quit."), text)
        XCTAssertEqual(KeyMap.action(for: .char("q"), in: s), .quit)
        assertSnapshot(RootView.render(s, size: size), named: "loading-waited-80x24")
        var ko = s
        ko.language = .korean
        assertSnapshot(RootView.render(ko, size: Size(width: 40, height: 12)), named: "loading-waited-ko-40x12")
    }
}

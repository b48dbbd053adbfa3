import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 17 #13: the welcome closes on the keys it teaches and performs them; a museum that
/// cannot be loaded is not hidden behind it, and the message names the file.
final class WelcomeTests: XCTestCase {
    func firstStart() -> AppState {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        prepare(&s, .launched(restored: nil, languageOverride: nil))
        XCTAssertEqual(s.overlay, .help(firstRun: true))
        return s
    }

    func testTabKeysCloseTheWelcomeAndSwitch() {
        var s = firstStart()
        prepare(&s, .documentLoaded(.success(UIFixtures.museum()), note: nil))
        XCTAssertEqual(KeyMap.action(for: .tab, in: s), .nextTab)
        XCTAssertEqual(KeyMap.action(for: .function(3), in: s), .selectTab(.map))
        XCTAssertEqual(KeyMap.action(for: .alt("4"), in: s), .selectTab(.tours))
        var after = s
        after.introSeen = true
        after.tab = .audioGuide
        after.overlay = .message(id: 7)  // the museum's launch message, now over the new tab
        after.messageQueue = []
        send(&s, .nextTab, effects: [.persist(after.settings)]) { $0 = after }
        // F3 over the key help (not the welcome): closes it and goes to the Map.
        s.overlay = .help(firstRun: false)
        send(&s, .selectTab(.map), effects: { [.persist($0.settings)] }) {
            $0.overlay = nil
            $0.tab = .map
        }
    }

    func testABadDocumentIsNotHiddenAndIsNamed() {
        var s = firstStart()
        send(&s, .documentLoaded(.failure(LoadFailure("the file does not exist")), note: nil)) {
            $0.document = .failed("the file does not exist")
            $0.banner = Banner(.key(.bannerDocumentFailed), level: .error)
            $0.overlay = nil
        }
        XCTAssertFalse(s.introSeen, "the welcome comes back once the data is right")
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        let text = (0..<24).map(screen.row).joined(separator: " ").split(separator: " ").joined(separator: " ")
        XCTAssertTrue(text.contains("/museum/appData.json"), text)
        XCTAssertTrue(text.contains("the file does not exist"), text)
    }
}

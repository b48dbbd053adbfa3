import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 17 #12: a museum that does not publish exhibitions or events says so plainly, not
/// "unavailable right now (this museum does not publish them)".
final class HomeSectionsTests: XCTestCase {
    func testNotPublishedIsNotUnavailable() {
        for lang in Language.uiLanguages {
            var s = UIFixtures.loadedState(language: lang)
            s.exhibitions = .notPublished
            s.events = .notPublished
            guard case .list(_, let rows) = HomeFeature.content(.home, s) else { return XCTFail("Home is a list") }
            let texts = rows.map(\.text)
            XCTAssertTrue(texts.contains(s.strings(.homeNotPublishedExhibitions)), "\(lang): \(texts)")
            XCTAssertTrue(texts.contains(s.strings(.homeNotPublishedEvents)), "\(lang): \(texts)")
            let unavailable = s.strings(.homeUnavailableEvents, ["reason": ""]).prefix(8)
            XCTAssertFalse(texts.contains { $0.hasPrefix(unavailable) }, "\(lang): \(texts)")
        }
    }
}

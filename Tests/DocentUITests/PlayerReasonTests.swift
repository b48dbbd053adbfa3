import XCTest

@testable import DocentCore
@testable import DocentUI
import DocentTestSupport

/// What the player says when a recording stops.
final class PlayerReasonTests: XCTestCase {
    /// Issue 45: an HTTP 429 (or 500, 503) said "does not have this recording". Only 404 and
    /// 410 say that; other statuses say the server could not send it now.
    func testOnlyAMissingRecordingIsSaidToBeMissing() {
        let s = UIFixtures.catalog.strings(for: .english)
        XCTAssertEqual(PlayerView.reason(.http(status: 404), s), "the museum's server does not have this recording (HTTP 404)")
        XCTAssertEqual(PlayerView.reason(.http(status: 410), s), "the museum's server does not have this recording (HTTP 410)")
        for status in [429, 500, 503] {
            XCTAssertEqual(PlayerView.reason(.http(status: status), s), "the museum's server could not send this recording now (HTTP \(status)); try again later")
        }
    }
}

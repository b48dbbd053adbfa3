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
        XCTAssertEqual(PlayerView.reason(.http(status: 500), s), "the museum's server could not send this recording now (HTTP 500); try again later")
    }

    /// Issue 45 #9: a busy server (429, 503) says it is busy; a redirect loop and headers too
    /// large to read say what happened, not "no connection to the museum's server"; in every
    /// language, each its own sentence.
    func testABusyServerARedirectLoopAndHugeHeadersSayWhatHappened() {
        let s = UIFixtures.catalog.strings(for: .english)
        for status in [429, 503] {
            XCTAssertEqual(PlayerView.reason(.http(status: status), s), "the museum's server is busy (HTTP \(status)); try again in a few minutes")
        }
        XCTAssertEqual(
            PlayerView.reason(.tooManyRedirects, s),
            "the museum's server sends this recording round in circles (too many redirects); staff need to fix its address")
        XCTAssertEqual(
            PlayerView.reason(.headersTooLarge, s), "the museum's server sent an answer too large to read (its headers); staff need to fix the server")
        for language in UIFixtures.catalog.languages {
            let t = UIFixtures.catalog.strings(for: language)
            let said = [PlayerView.reason(.http(status: 429), t), PlayerView.reason(.tooManyRedirects, t), PlayerView.reason(.headersTooLarge, t), PlayerView.reason(.network("x"), t)]
            XCTAssertEqual(Set(said).count, 4, "\(language): \(said)")
            XCTAssertTrue(said[0].contains("429"), "\(language): \(said[0])")
        }
    }
}

import DocentTestSupport
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

    /// Issue 45: 650,000 events (1.6 MB gzipped, under the general 256 MB cap) took 726 MB to
    /// read and 7 s a key on "See all events". The answers are capped at 8 MB and the events
    /// kept at the 2,000 soonest.
    func testTheEventsFeedIsBounded() throws {
        let s = UIFixtures.loadedState()
        let app = try XCTUnwrap(s.museum)
        XCTAssertEqual(try XCTUnwrap(DataAggregator.eventsRequest(app: app, now: s.now)).maxBytes, 8 << 20)
        XCTAssertEqual(try XCTUnwrap(DataAggregator.exhibitionsRequest(app: app, now: s.now)).maxBytes, 8 << 20)
        let f = ISO8601DateFormatter()
        let items = (0..<5000).reversed().map { i in
            #"{"id": \#(i), "title": "Talk \#(i)", "start_at": "\#(f.string(from: s.now.addingTimeInterval(Double(i) * 60)))", "end_at": "\#(f.string(from: s.now.addingTimeInterval(Double(i) * 60 + 3600)))"}"#
        }
        let bytes = Array(#"{"data": [\#(items.joined(separator: ","))]}"#.utf8)
        let events = try DataAggregator.events(from: bytes, now: s.now).get()
        XCTAssertEqual(events.count, DataAggregator.maxEvents)
        XCTAssertEqual(events.first?.title, "Talk 0", "the soonest kept")
        XCTAssertEqual(events.last?.title, "Talk 1999")
    }

    /// Scoped (issue 28): Home changes only its sections, and asks the root to take the
    /// "Offline" notice away when the museum's servers answer again (it never writes the banner).
    func testScopedHomeAsksForItsSectionsAndClearsOnlyTheOfflineNotice() throws {
        var s = UIFixtures.loadedState()
        let app = try XCTUnwrap(s.museum)
        let ex = try XCTUnwrap(DataAggregator.exhibitionsRequest(app: app, now: s.now))
        let ev = try XCTUnwrap(DataAggregator.eventsRequest(app: app, now: s.now))
        var h = HomeFeature.State()
        h.problems[.events] = .timedOut
        reactScoped(HomeFeature.self, &h, .documentLoaded, FeatureContext(s), effects: [.fetch(.exhibitions, ex), .fetch(.events, ev)]) {
            $0.problems = [:]
            $0.exhibitions = .loading
            $0.events = .loading
        }
        // A failure stays in its section; nothing is asked of the shared UI.
        sendScoped(HomeFeature.self, &h, .fetched(.events, .failure(.timedOut(url: "https://api.example/events"))), FeatureContext(s)) {
            $0.events = .failed("timed out fetching https://api.example/events")
            $0.problems[.events] = .timedOut
        }
        let bytes = UIFixtures.bytes("exhibitions.json")
        let onView = try DataAggregator.exhibitions(from: bytes, app: app, now: s.now).get()
        // An answer with another notice on the status bar leaves it.
        s.banner = Banner(.key(.memberSignedOut))
        var other = h
        sendScoped(HomeFeature.self, &other, .fetched(.exhibitions, .success(bytes)), FeatureContext(s)) { $0.exhibitions = .loaded(onView) }
        // With the "Offline" notice: taken away.
        s.banner = Banner(.key(.bannerOfflineCopy, ["date": .verbatim("2026-11-20 10:00"), "reason": .verbatim("cannot reach x")]), level: .warning)
        sendScoped(HomeFeature.self, &h, .fetched(.exhibitions, .success(bytes)), FeatureContext(s), requests: [.clearBanner]) { $0.exhibitions = .loaded(onView) }
        // `r`: only the failed section again.
        sendScoped(HomeFeature.self, &h, .retry, FeatureContext(s), effects: [.fetch(.events, ev)]) {
            $0.events = .loading
            $0.problems[.events] = nil
        }
    }
}

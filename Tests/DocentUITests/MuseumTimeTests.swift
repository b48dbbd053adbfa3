import Foundation
import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 17 #1: Home shows the museum's clock, not the machine's. An event on Thursday Nov 26
/// at 18:00-06:00 reads "Nov 26 … 6:00 PM" whether the machine is in UTC, Shanghai or Los
/// Angeles, and an exhibition "through" a day reads that day.
final class MuseumTimeTests: XCTestCase {
    static let events = """
        {"data": [
          {"id": "sketch", "title": "Evening Sketching", "start_at": "2026-11-26T18:00:00-06:00", "end_at": "2026-11-26T19:30:00-06:00"},
          {"id": "family", "title": "Family Studio", "start_at": "2026-11-28T10:30:00-06:00", "end_at": "2026-11-28T12:00:00-06:00"}
        ]}
        """
    static let exhibitions = """
        {"data": [{"id": 7, "title": "Long Show", "aic_start_at": "2026-01-10T00:00:00-06:00", "aic_end_at": "2035-12-31T00:00:00-06:00"}]}
        """

    /// Home at 80×24 on a machine in `machine`, with the museum's zone configured or not.
    func home(machine: String, museum: TimeZone? = nil) -> Screen {
        var s = UIFixtures.loadedState()
        s.timeZone = TimeZone(identifier: machine)!
        s.museumTimeZone = museum
        prepare(&s, .fetched(.exhibitions, .success(Array(Self.exhibitions.utf8))))
        prepare(&s, .fetched(.events, .success(Array(Self.events.utf8))))
        return RootView.render(s, size: Size(width: 80, height: 24))
    }

    /// The screen's text, ICU's narrow no-break space before AM/PM read as a space.
    func text(_ screen: Screen) -> String { plain((0..<screen.height).map(screen.row).joined(separator: "\n")) }
    func plain(_ s: String) -> String { s.replacingOccurrences(of: "\u{202F}", with: " ") }

    func testTheSameHomeOnEveryMachine() {
        let utc = home(machine: "UTC")
        let page = text(utc)
        XCTAssertTrue(page.contains("Nov 26, 2026 at 6:00 PM"), page)
        XCTAssertTrue(page.contains("Nov 28, 2026 at 10:30 AM"), page)
        XCTAssertTrue(page.contains("Through December 31, 2035"), page)
        for zone in ["Asia/Shanghai", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago"] {
            XCTAssertEqual(home(machine: zone).dump(), utc.dump(), "Home on a machine in \(zone)")
        }
    }

    func testAConfiguredMuseumZoneShowsInstantsThereAndDaysAsWritten() {
        // A museum in Paris whose feed was written in Chicago's offset (a mistake, or a feed
        // shared with a sister museum): instants move to Paris time, the exhibition's last day
        // does not move (it is a date, not an instant).
        let page = text(home(machine: "Asia/Shanghai", museum: TimeZone(identifier: "Europe/Paris")))
        XCTAssertTrue(page.contains("Nov 27, 2026 at 1:00 AM"), page)
        XCTAssertTrue(page.contains("Through December 31, 2035"), page)
        // The museum's own zone, with its daylight saving time, agrees with the offsets.
        XCTAssertEqual(
            home(machine: "Asia/Shanghai", museum: TimeZone(identifier: "America/Chicago")).dump(), home(machine: "UTC").dump())
    }

    func testEventPagesUseTheMuseumClockToo() {
        var s = UIFixtures.loadedState()
        s.timeZone = TimeZone(identifier: "Asia/Shanghai")!
        prepare(&s, .fetched(.events, .success(Array(Self.events.utf8))))
        guard let e = s.events.value?.first(where: { $0.id == "family" }) else { return XCTFail("event not read") }
        XCTAssertEqual(HomeFeature.eventPage(e, FeatureContext(s)).facts.first.map(plain), "Nov 28, 2026 at 10:30 AM – 12:00 PM")
    }

    func testOffsetsAreReadFromTheTimeOnly() {
        XCTAssertEqual(DataAggregator.utcOffset("2026-11-26T18:00:00-06:00"), -21600)
        XCTAssertEqual(DataAggregator.utcOffset("2026-11-26T18:00:00.250+05:30"), 19800)
        XCTAssertEqual(DataAggregator.utcOffset("2026-11-26T18:00:00+0545"), 20700)
        XCTAssertEqual(DataAggregator.utcOffset("2026-11-26T18:00:00Z"), 0)
        XCTAssertEqual(DataAggregator.utcOffset("2026-11-26 18:00:00"), 0)
        XCTAssertEqual(DataAggregator.utcOffset("2026-11-26"), 0)
        // Absurd offsets are not offsets: no zone is made from them.
        XCTAssertEqual(DataAggregator.utcOffset("2026-11-26T18:00:00+99:00"), 0)
        XCTAssertEqual(DataAggregator.utcOffset("2026-11-26T18:00:00-6"), 0)
    }
}

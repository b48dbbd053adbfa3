import XCTest

@testable import AudioPlayback

/// The output side's map from frames written to the server back to the recording's frames:
/// straight at 1×, steeper through a time-stretch, never backwards.
final class SpeedTimelineTests: XCTestCase {
    func testAtOneTimesTheSourceIsTheOutput() {
        var t = SpeedTimeline()
        t.reset(output: 1000, source: 16000)
        t.mark(output: 3000, source: 18000)
        XCTAssertEqual(t.source(atOutput: 500), 16000, "before the run began: its first frame")
        XCTAssertEqual(t.source(atOutput: 2000), 17000)
        XCTAssertEqual(t.source(atOutput: 5000), 18000, "past what was written: the last frame")
        XCTAssertEqual(t.lastSource, 18000)
    }

    func testAChangeOfSpeedBendsTheLineAtThatPoint() {
        var t = SpeedTimeline()
        t.reset(output: 0, source: 0)
        t.mark(output: 1000, source: 1000)  // 1×
        t.mark(output: 2000, source: 2500)  // then 1.5×
        t.mark(output: 3000, source: 4500)  // then 2×
        XCTAssertEqual(t.source(atOutput: 500), 500)
        XCTAssertEqual(t.source(atOutput: 1500), 1750)
        XCTAssertEqual(t.source(atOutput: 2500), 3500)
        XCTAssertEqual(t.points.count, 2, "points before what is heard are dropped")
        XCTAssertEqual(t.source(atOutput: 1000), 2500, "and asking earlier again answers the oldest kept")
    }

    func testItNeverRunsBackwards() {
        var t = SpeedTimeline()
        t.reset(output: 0, source: 100)
        t.mark(output: 10, source: 90)  // an estimate below the last: held
        XCTAssertEqual(t.lastSource, 100)
        t.mark(output: 10, source: 120)  // the same output frame again: moved on
        XCTAssertEqual(t.points.count, 2)
        XCTAssertEqual(t.lastSource, 120)
    }
}

import XCTest

@testable import DocentCore

/// Every transition of the tour machine.
final class TourMachineTests: XCTestCase {
    /// Three stops; stop 1 (second) and 2 (third) have bumpers 91 and 92; stop 0 has bumper 90
    /// unless `firstBumper` is false.
    func tour(firstBumper: Bool = true, bumpers: Bool = true) -> Tour {
        let text = TourText(title: "T", description: "", intro: "", duration: nil)
        let stops = [
            TourStop(sort: 0, artworkID: 100, audioID: 10, bumperID: firstBumper && bumpers ? 90 : nil),
            TourStop(sort: 1, artworkID: 101, audioID: 11, bumperID: bumpers ? 91 : nil),
            TourStop(sort: 2, artworkID: 102, audioID: 12, bumperID: bumpers ? 92 : nil),
        ]
        return Tour(id: 1, english: text, translations: [:], imageURL: nil, introAudioID: 5, weight: 0, location: nil, floor: nil, selectorNumber: nil, category: nil, banner: nil, stops: stops)
    }

    func clips(_ m: inout TourMachine, _ events: [TourEvent]) -> [TourCommand?] {
        events.map { m.handle($0) }
    }

    func testContinuousPlaysEverythingInOrder() {
        var m = TourMachine(tour: tour(), mode: .continuous)
        XCTAssertEqual(m.command, .play(audioID: 5, artworkID: nil, clip: .intro))
        let seq = clips(&m, Array(repeating: .clipEnded, count: 7))
        XCTAssertEqual(seq, [
            .play(audioID: 90, artworkID: nil, clip: .bumper(to: 0)),
            .play(audioID: 10, artworkID: 100, clip: .stop(0)),
            .play(audioID: 91, artworkID: nil, clip: .bumper(to: 1)),
            .play(audioID: 11, artworkID: 101, clip: .stop(1)),
            .play(audioID: 92, artworkID: nil, clip: .bumper(to: 2)),
            .play(audioID: 12, artworkID: 102, clip: .stop(2)),
            .silence,
        ])
        XCTAssertEqual(m.position, .complete)
        XCTAssertEqual(m.listened, [0, 1, 2])
        // Nothing plays after the last stop, ever (no stale bumper).
        XCTAssertNil(m.handle(.clipEnded))
        XCTAssertNil(m.handle(.next))
    }

    func testGuidedWaitsAfterEachBumper() {
        var m = TourMachine(tour: tour(), mode: .guided)
        XCTAssertEqual(m.handle(.clipEnded), .play(audioID: 90, artworkID: nil, clip: .bumper(to: 0)))
        XCTAssertEqual(m.handle(.clipEnded), .silence)
        XCTAssertEqual(m.position, .waiting(at: 0))
        XCTAssertNil(m.handle(.clipEnded), "waiting ignores stray ends")
        XCTAssertEqual(m.handle(.arrived), .play(audioID: 10, artworkID: 100, clip: .stop(0)))
        XCTAssertEqual(m.handle(.clipEnded), .play(audioID: 91, artworkID: nil, clip: .bumper(to: 1)))
        XCTAssertEqual(m.handle(.clipEnded), .silence)
        XCTAssertEqual(m.position, .waiting(at: 1))
        XCTAssertEqual(m.handle(.arrived), .play(audioID: 11, artworkID: 101, clip: .stop(1)))
        XCTAssertNil(m.handle(.arrived), "arriving only means something while waiting")
    }

    func testWithoutBumpers() {
        var m = TourMachine(tour: tour(bumpers: false), mode: .guided)
        XCTAssertEqual(m.handle(.clipEnded), .silence)
        XCTAssertEqual(m.position, .waiting(at: 0))
        var c = TourMachine(tour: tour(bumpers: false), mode: .continuous)
        XCTAssertEqual(c.handle(.clipEnded), .play(audioID: 10, artworkID: 100, clip: .stop(0)))
        XCTAssertEqual(c.handle(.clipEnded), .play(audioID: 11, artworkID: 101, clip: .stop(1)))
    }

    func testFirstStopWithoutBumperAfterIntro() {
        var m = TourMachine(tour: tour(firstBumper: false), mode: .continuous)
        XCTAssertEqual(m.handle(.clipEnded), .play(audioID: 10, artworkID: 100, clip: .stop(0)))
        XCTAssertEqual(m.handle(.clipEnded), .play(audioID: 91, artworkID: nil, clip: .bumper(to: 1)))
    }

    func testNextAndPreviousAtBothEnds() {
        var m = TourMachine(tour: tour(), mode: .guided)
        XCTAssertEqual(m.handle(.previous(secondsIntoClip: 0)), .play(audioID: 5, artworkID: nil, clip: .intro), "previous at the intro restarts it")
        XCTAssertEqual(m.handle(.next), .play(audioID: 10, artworkID: 100, clip: .stop(0)))
        XCTAssertEqual(m.handle(.previous(secondsIntoClip: 2)), .play(audioID: 5, artworkID: nil, clip: .intro), "< early in stop 1 goes to the intro")
        _ = m.handle(.jump(to: 1))
        XCTAssertEqual(m.handle(.previous(secondsIntoClip: 8)), .play(audioID: 11, artworkID: 101, clip: .stop(1)), "more than 5 s in: restart")
        XCTAssertEqual(m.handle(.previous(secondsIntoClip: 1)), .play(audioID: 10, artworkID: 100, clip: .stop(0)))
        _ = m.handle(.jump(to: 2))
        XCTAssertEqual(m.handle(.next), .silence)
        XCTAssertEqual(m.position, .complete)
        XCTAssertEqual(m.handle(.previous(secondsIntoClip: 0)), .play(audioID: 12, artworkID: 102, clip: .stop(2)))
        XCTAssertNil(m.handle(.jump(to: 7)))
    }

    func testNextFromABumperOrWaitingStartsThatStop() {
        var m = TourMachine(tour: tour(), mode: .guided)
        _ = m.handle(.clipEnded)  // bumper 0
        XCTAssertEqual(m.handle(.next), .play(audioID: 10, artworkID: 100, clip: .stop(0)))
        _ = m.handle(.clipEnded)  // bumper 1
        _ = m.handle(.clipEnded)  // waiting 1
        XCTAssertEqual(m.handle(.previous(secondsIntoClip: 0)), .play(audioID: 10, artworkID: 100, clip: .stop(0)), "leaving mid-way back to the previous stop")
    }

    func testModeSwitchMidStopAndWhileWaiting() {
        var m = TourMachine(tour: tour(), mode: .guided, start: .stop(0))
        XCTAssertNil(m.handle(.setMode(.continuous)), "mid-stop: nothing changes now")
        _ = m.handle(.clipEnded)  // bumper 1
        XCTAssertEqual(m.handle(.clipEnded), .play(audioID: 11, artworkID: 101, clip: .stop(1)), "continuous plays on")
        XCTAssertNil(m.handle(.setMode(.guided)))
        _ = m.handle(.clipEnded)  // bumper 2
        XCTAssertEqual(m.handle(.clipEnded), .silence)
        XCTAssertEqual(m.position, .waiting(at: 2))
        XCTAssertEqual(m.handle(.setMode(.continuous)), .play(audioID: 12, artworkID: 102, clip: .stop(2)), "switching while waiting starts the stop")
    }

    func testRetryReplaysTheCurrentClip() {
        var m = TourMachine(tour: tour(), mode: .guided, start: .stop(1))
        XCTAssertEqual(m.handle(.retry), .play(audioID: 11, artworkID: 101, clip: .stop(1)))
        XCTAssertEqual(m.position, .stop(1))
    }

    func testStartAtAStop() {
        let m = TourMachine(tour: tour(), mode: .continuous, start: .stop(2))
        XCTAssertEqual(m.command, .play(audioID: 12, artworkID: 102, clip: .stop(2)))
        XCTAssertEqual(m.currentStop, 2)
    }
}

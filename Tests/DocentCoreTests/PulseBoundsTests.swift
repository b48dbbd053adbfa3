import XCTest

@testable import DocentCore
@testable import PulseKit

/// Issue 32 item 5: the guide trusts no Pulse data. Each of these trapped (exit 132) or took
/// minutes before `PulseBounds`.
final class PulseBoundsTests: XCTestCase {
    func state(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> AppState {
        AppState(source: "/m/appData.json", catalog: StringCatalog(tables: [.english: [:]]), now: now, features: CoreFixtures.features)
    }

    func testHostileTimesAreShownNotTrapped() {
        let s = state()
        for t in [-1e300, 1e300, -Double.greatestFiniteMagnitude, Double.nan, -Double.infinity, 0] {
            _ = PulseFeature.ago(Date(timeIntervalSince1970: t), FeatureContext(s))
        }
        XCTAssertEqual(PulseBounds.whole(1e300, per: 60), 1_000_000_000_000)
        XCTAssertEqual(PulseBounds.whole(-5, per: 60), 0)
        XCTAssertEqual(PulseBounds.whole(.nan, per: 60), 0)
        XCTAssertEqual(PulseBounds.time(-1e300).timeIntervalSince1970, 0)
        XCTAssertEqual(PulseBounds.time(.infinity).timeIntervalSince1970, PulseBounds.latest)
    }

    func testHostileCountsSaturate() {
        let c = PulseCounts(up: Int.max, meh: Int.max, down: Int.min)
        XCTAssertEqual(c.score, 2 * PulseBounds.maxCount)
        XCTAssertEqual(PulseCounts(up: Int.min, down: Int.max).score, -2 * PulseBounds.maxCount)
        XCTAssertEqual(c.changed(from: .down, to: .up).up, PulseBounds.maxCount + 1)
        XCTAssertEqual(PulseCounts.recount([.up, .up, .down]), PulseCounts(up: 2, down: 1))
        XCTAssertEqual(PulseRules().hidden(PulseNote(
            id: NoteID(visitor: VisitorID("alice000")!, sequence: 1), subject: .museum, language: .english, text: "x", createdAt: Date(timeIntervalSince1970: -1e300),
            author: .visitor, counts: PulseCounts(up: Int.max, down: Int.min), reports: Int.max, decision: nil), viewerReported: false), .reported)
    }

    func testAHostileSnapshotIsBoundedOnTheWire() throws {
        let body = """
            {"version": 9223372036854775807, "taken_at": -1e300,
             "counts": {"museum": {"up": 9223372036854775807, "meh": -9223372036854775808, "down": 9223372036854775807}},
             "note_counts": {"museum": 9223372036854775807},
             "activity": {"artwork:1": {"recent": 9223372036854775807, "today": -5, "last": -1e300}},
             "featured": [], "announcements": [], "curator_picks": []}
            """
        let snap = try PulseWire.readSnapshot(Array(body.utf8))
        XCTAssertEqual(snap.counts[.museum], PulseCounts(up: PulseBounds.maxCount, meh: 0, down: PulseBounds.maxCount))
        XCTAssertEqual(snap.noteCounts[.museum], PulseBounds.maxCount)
        XCTAssertEqual(snap.activity[.artwork(1)], PulseActivitySummary(recent: PulseBounds.maxCount, today: 0, last: Date(timeIntervalSince1970: 0)))
        XCTAssertEqual(snap.takenAt, Date(timeIntervalSince1970: 0))
        // What the guide does with it next: one more note on the subject, a reaction.
        var counts = snap.noteCounts
        counts[.museum, default: 0] += 1
        XCTAssertEqual(snap.counts[.museum]?.changed(from: nil, to: .up).up, PulseBounds.maxCount + 1)
    }

    /// 112 KB of combining marks on one letter (one character of 56,000 scalars), and 112 KB
    /// of letters: both cut at once to what a note can hold.
    func testAHugePasteIsCutBeforeAnythingMeasuresIt() {
        let zalgo = "a" + String(repeating: "\u{0301}", count: 56_000)
        XCTAssertEqual(zalgo.utf8.count, 112_001)
        let cut = PulseBounds.input(zalgo)
        XCTAssertEqual(cut.unicodeScalars.count, PulseBounds.maxScalarsPerCharacter)
        let letters = PulseBounds.input(String(repeating: "b", count: 112_000))
        XCTAssertEqual(letters.unicodeScalars.count, PulseBounds.maxInputScalars)
        XCTAssertEqual(PulseBounds.input("héllo wörld"), "héllo wörld", "ordinary text is untouched")
    }
}

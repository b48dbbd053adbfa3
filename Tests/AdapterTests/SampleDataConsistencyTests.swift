import Foundation
import XCTest

/// Issue 33 #20: SampleData contradicted itself (the Thursday hours, a tagline's minutes, an
/// instruction for the phone app's map). The seed and the appData are checked against each
/// other, so a change to one that the other does not follow fails here.
final class SampleDataConsistencyTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleData")

    func json(_ path: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent(path))) as? [String: Any])
    }

    /// Every number before "minutes"/"分钟" in a featured tour's tagline is the tour's own
    /// duration; the late-opening announcement names the hour the museum's hours give.
    func testTheSeedAgreesWithTheAppData() throws {
        let app = try json("appData.json"), seed = try json("pulse/seed.json")
        let tours = try XCTUnwrap(app["tours"] as? [[String: Any]])
        for f in try XCTUnwrap(seed["featured"] as? [[String: Any]]) {
            let subject = try XCTUnwrap(f["subject"] as? String)
            guard subject.hasPrefix("tour:"), let taglines = f["tagline"] as? [String: String] else { continue }
            let tour = try XCTUnwrap(tours.first { "\($0["nid"] ?? "")" == subject.dropFirst(5) }, subject)
            let duration = try XCTUnwrap(tour["tour_duration"] as? String)
            let minutes = duration.prefix { $0.isNumber }
            for (lang, text) in taglines {
                for m in text.matches(of: /(\d+)\s*(minutes|minutos|分钟|分鐘)/) {
                    XCTAssertEqual(String(m.1), String(minutes), "\(subject) \(lang): '\(text)' against the tour's \(duration)")
                }
            }
        }
        let hours = try XCTUnwrap((app["general_info"] as? [String: Any])?["museum_hours"] as? String)
        let late = try XCTUnwrap(hours.firstMatch(of: /Thursdays until (\d+):00 p\.m\./), hours)
        let lateHour = String(Int(late.1)! + 12)
        for a in try XCTUnwrap(seed["announcements"] as? [[String: Any]]) {
            for (lang, text) in (a["text"] as? [String: String]) ?? [:] where text.contains(":00") {
                XCTAssertTrue(text.contains(lateHour + ":00"), "\(lang): '\(text)' against the museum's hours '\(hours)'")
            }
        }
    }

    /// The phone app's "Close to explore the map" means nothing in a terminal.
    func testTheInfoTextsGiveNoPhoneInstructions() throws {
        let text = try String(contentsOf: root.appendingPathComponent("appData.json"), encoding: .utf8)
        for phrase in ["Close to explore", "Cierre para explorar", "關閉此視窗"] {
            XCTAssertFalse(text.contains(phrase), phrase)
        }
    }
}

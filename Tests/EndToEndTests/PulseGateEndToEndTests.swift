import Foundation
import XCTest

/// Issue 32's posting gate with the real guide and the real service: the guide asks for the
/// visit code before the note, a wrong code keeps the note and asks again, and the code
/// `docent-pulse visit-code` prints lets the note through.
final class PulseGateEndToEndTests: EndToEndTestCase {
    func testTheGuideAsksForTheVisitCodeAndANoteGoesWithTodaysCode() throws {
        let dir = try makeTemporaryDirectory()
        let secret = dir.appendingPathComponent("visit-code.secret").path
        try Data("museum-secret-0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: secret))
        let service = try PulseService(
            database: "sqlite:" + dir.appendingPathComponent("service.sqlite").path, extra: ["--posting", "visit-code", "--visit-code-secret-file", secret])
        defer { service.stop() }
        let printed = try Shell.run([Repo.root.appendingPathComponent(".build/debug/docent-pulse").path, "visit-code", "--secret-file", secret], environment: Shell.baseEnvironment(), stdin: Data())
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let today = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(today.count, 6, printed.stdout)

        let s = try startVisitor(pulse: service.url)
        try openBox(s)
        // Asked before the note: the code box, then the editor.
        try s.sendKeys("4")
        try s.waitFor(try UIStrings.fill("en", "pulse.gate.codeTitle", ["title": try UIStrings.get("en", "pulse.museum")]))
        let wrong = today == "ZZZZZZ" ? "YYYYYY" : "ZZZZZZ"
        try s.sendLiteral(wrong.lowercased())
        try s.waitFor(wrong)
        try s.sendKeys("Enter")
        try s.waitFor(try UIStrings.prefix("en", "pulse.editor.title"))
        let note = "Worth the ticket 票"
        try s.sendLiteral(note)
        try s.sendKeys("Enter")
        // Refused: the box again, saying so, with the code given to correct.
        try s.waitFor(String(try UIStrings.get("en", "pulse.gate.codeWrong").prefix(30)), wrong)
        for _ in 0..<6 { try s.sendKeys("BSpace") }
        try s.waitForGone(wrong)
        try s.sendLiteral(today)
        try s.sendKeys("Enter")
        try s.waitFor(try UIStrings.get("en", "pulse.noteSent"))
        // Read back from the service, through the guide.
        try openBox(s)
        try readNotes(s)
        try s.waitFor(note)
    }
}

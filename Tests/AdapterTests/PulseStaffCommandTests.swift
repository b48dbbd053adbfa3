import DocentCore
import Foundation
import NetCurl
import XCTest

/// The staff commands of the real `docent-pulse` binary, against a running service (with the
/// staff token) and against the store's file directly.
final class PulseStaffCommandTests: XCTestCase {
    private var tempDir = ""
    private var service: PulseServiceProcess?
    private let staff = "staff-token-for-tests-0001"
    private let alice = VisitorCredentials(visitor: VisitorID("alice000")!, secret: "aaaaaaaaaaaaaaaa0001")
    private let bob = VisitorCredentials(visitor: VisitorID("bob00000")!, secret: "bbbbbbbbbbbbbbbb0002")

    override func setUpWithError() throws {
        tempDir = NSTemporaryDirectory() + "docent-staff-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tempDir, withIntermediateDirectories: true)
        service = try PulseServiceProcess(["--database", "sqlite:" + tempDir + "/pulse.sqlite"], environment: ["DOCENT_PULSE_STAFF_TOKEN": staff])
    }

    override func tearDownWithError() throws {
        service?.stop()
        try? FileManager.default.removeItem(atPath: tempDir)
    }

    /// Runs the binary; answers its exit status, standard output and standard error.
    private func pulse(_ arguments: [String], token: String? = nil) throws -> (status: Int32, out: String, err: String) {
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        let p = Process()
        p.executableURL = exe.deletingLastPathComponent().appendingPathComponent("docent-pulse")
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["DOCENT_PULSE_STAFF_TOKEN"] = token
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let errData = LockedData()
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: errData.waitForValue(), as: UTF8.self))
    }

    func testQueueDecideAndRecountFromTheCommandLine() async throws {
        let url = try XCTUnwrap(service?.url)
        let a = HTTPPulseStore(baseURL: url)
        try await a.register(alice)
        let b = HTTPPulseStore(baseURL: url)
        try await b.register(bob)
        let rude = NoteID(visitor: alice.visitor, sequence: 1)
        let kind = NoteID(visitor: alice.visitor, sequence: 2)
        _ = try await a.post(NoteDraft(id: rude, subject: .artwork(7), language: .english, text: "rude words"), as: alice)
        _ = try await a.post(NoteDraft(id: kind, subject: .artwork(7), language: .english, text: "kind words"), as: alice)
        try await b.report(rude, true, as: bob)
        try await b.report(kind, true, as: bob)

        let queue = try pulse(["queue", "--server", url], token: staff)
        XCTAssertEqual(queue.status, 0, queue.err)
        XCTAssertEqual(queue.out.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) ?? "" }, [rude.key, kind.key])
        XCTAssertTrue(queue.out.contains("1 report\tartwork:7\t-\trude words"), queue.out)

        let agree = try pulse(["agree", rude.key, "--server", url], token: staff)
        XCTAssertEqual(agree.status, 0, agree.err)
        XCTAssertTrue(agree.out.contains("removed"), agree.out)
        let keep = try pulse(["keep", kind.key, "--database", "sqlite:" + tempDir + "/pulse.sqlite"])
        XCTAssertEqual(keep.status, 0, keep.err)
        XCTAssertTrue(keep.out.contains("pinned"), keep.out)
        let shown = try await b.notes(on: .artwork(7), viewer: nil).map(\.id)
        XCTAssertEqual(shown, [kind], "agreed: gone for everyone; kept: shown")

        let empty = try pulse(["queue", "--database", "sqlite:" + tempDir + "/pulse.sqlite"])
        XCTAssertEqual(empty.status, 0, empty.err)
        XCTAssertEqual(empty.out, "The moderation queue is empty.\n")
        let recount = try pulse(["recount", "--database", "sqlite:" + tempDir + "/pulse.sqlite"])
        XCTAssertEqual(recount.status, 0, recount.err)
        XCTAssertEqual(recount.out, "Every count equals its recount.\n")
    }

    func testMistakesGetOneClearLine() throws {
        let url = try XCTUnwrap(service?.url)
        let noToken = try pulse(["queue", "--server", url])
        XCTAssertNotEqual(noToken.status, 0)
        XCTAssertTrue(noToken.err.contains("staff token"), noToken.err)
        let wrong = try pulse(["queue", "--server", url], token: "not-the-staff-token-at-all")
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.err.contains("refused the staff token"), wrong.err)
        let port = try PostgresServer.freePort()
        let down = try pulse(["queue", "--server", "http://127.0.0.1:\(port)"], token: staff)
        XCTAssertEqual(down.status, 1)
        XCTAssertTrue(down.err.contains("cannot reach the Pulse service"), down.err)
        let missing = try pulse(["agree", "alice000.9", "--server", url], token: staff)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.err.contains("no note alice000.9"), missing.err)
        let badID = try pulse(["disagree", "nonsense", "--database", "sqlite:" + tempDir + "/pulse.sqlite"])
        XCTAssertNotEqual(badID.status, 0)
        XCTAssertTrue(badID.err.contains("not a note id"), badID.err)
        let noFile = try pulse(["queue", "--database", "sqlite:" + tempDir + "/nothing-here.sqlite"])
        XCTAssertEqual(noFile.status, 1)
        XCTAssertTrue(noFile.err.contains("no Pulse store at"), noFile.err)
        let both = try pulse(["queue"])
        XCTAssertNotEqual(both.status, 0)
        XCTAssertTrue(both.err.contains("either --server URL or --database DB"), both.err)
    }
}

import Foundation
import XCTest

/// Issue 17 #14: `docent --help` is the guide's own help, and the exit statuses it lists are
/// the ones the binary gives.
final class CommandLineTests: EndToEndTestCase {
    private func run(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Repo.requireDocent()
        let home = try makeTemporaryDirectory()
        var env = Shell.baseEnvironment()
        env["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        env["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        let r = try Shell.run([Repo.docent] + args, environment: env, stdin: Data())
        return (Int32(r.status), r.stdout, r.stderr)
    }

    func testHelpShowsTheGuidesOptionsAndExitStatuses() throws {
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        for option in ["--data", "--lang", "--config", "--hyperlinks", "--state"] {
            XCTAssertTrue(help.stdout.contains(option), "\(option) in docent --help:\n\(help.stdout)")
        }
        for status in ["0   after quitting", "1   the guide cannot start", "64  bad usage"] {
            XCTAssertTrue(help.stdout.contains(status), "\(status) in docent --help:\n\(help.stdout)")
        }
        // Every option the guide takes is in that list (the guide's own help is the reference).
        let guide = try run(["help", "guide"])
        let taken = Set(guide.stdout.split(whereSeparator: { $0.isWhitespace }).filter { $0.hasPrefix("--") && $0 != "--help" && $0 != "--version" }.map { String($0) })
        XCTAssertFalse(taken.isEmpty, guide.stdout)
        for option in taken { XCTAssertTrue(help.stdout.contains(option), "\(option) of the guide missing from docent --help") }
    }

    func testExitStatusesAreTheOnesTheHelpLists() throws {
        XCTAssertEqual(try run(["--no-such-option"]).status, 64)
        XCTAssertEqual(try run(["validate"]).status, 64, "no source")
        XCTAssertEqual(try run(["--lang"]).status, 64, "a missing value")
        let language = try run(["--lang", "xx"])
        XCTAssertEqual(language.status, 1)
        XCTAssertTrue(language.stderr.contains("--lang: unknown language 'xx'"), language.stderr)
        // From the configuration: the file is named (issue 47 #17).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("docent-klingon-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("config.toml")
        try Data(#"language = "klingon""#.utf8).write(to: file)
        let configured = try run(["--config", file.path])
        XCTAssertEqual(configured.status, 1)
        XCTAssertTrue(configured.stderr.contains("language in \(file.path): unknown language 'klingon'"), configured.stderr)
        XCTAssertEqual(try run(["validate", "/nonexistent/appData.json"]).status, 1)
        // Issue 33 #18: the path once ("cannot read X: X: is a directory" said it twice).
        let directory = try run(["validate", "/tmp"])
        XCTAssertEqual(directory.status, 1)
        XCTAssertEqual(directory.stderr.components(separatedBy: "/tmp").count - 1, 1, directory.stderr)
        XCTAssertTrue(directory.stderr.contains("is a directory"), directory.stderr)
        XCTAssertEqual(try run(["validate", Repo.sampleData]).status, 0)
        XCTAssertTrue(try run(["validate", "--help"]).stdout.contains("64  bad usage"))
    }
}

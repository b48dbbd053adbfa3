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

    /// Issue 47 #7: against a server that accepts the connection and never answers (a socket
    /// that listens and is never read: the kernel completes the handshake), `docent validate`
    /// says on stderr what it waits for while it still waits, then gives up at its timeout
    /// with a message that says so.
    func testValidateSaysWhatItWaitsForAndGivesUpAtItsTimeout() throws {
        try Repo.requireDocent()
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(listener, 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(listener, 8), 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/appData.json"

        // The command, its stderr on a pipe read as it comes.
        var pipeEnds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeEnds), 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        let args: [String] = [Repo.docent, "validate", "--timeout", "3", url]
        let argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = Shell.baseEnvironment().map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        XCTAssertEqual(posix_spawn(&pid, Repo.docent, &actions, nil, argv, envp), 0)
        close(pipeEnds[1])
        let reader = FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true)
        var seen = Data()
        while !seen.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        let firstLine = String(decoding: seen, as: UTF8.self)
        var status: Int32 = 0
        XCTAssertEqual(waitpid(pid, &status, WNOHANG), 0, "still waiting when it said so: \(firstLine)")
        XCTAssertTrue(firstLine.contains("waiting for \(url)"), firstLine)
        XCTAssertTrue(firstLine.contains("giving up after 3 s"), firstLine)
        seen += reader.readDataToEndOfFile()
        XCTAssertEqual(waitpid(pid, &status, 0), pid)
        let all = String(decoding: seen, as: UTF8.self)
        XCTAssertEqual((status >> 8) & 0xff, 1, all)
        XCTAssertTrue(all.contains("\(url) did not send it within 3 s; gave up"), all)
    }

    /// Without its interface's text the guide stops with status 1 and says where it looked,
    /// though the strings are now read on a thread of their own while the museum loads
    /// (issue 48): the message and the status are those of before, and nothing crashes.
    func testWithoutItsStringsTheGuideSaysWhereItLookedAndStops() throws {
        try Repo.requireDocent()
        let dir = try makeTemporaryDirectory()
        let bin = dir.appendingPathComponent("bin/docent")
        try FileManager.default.createDirectory(at: bin.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repo.docent, toPath: bin.path)
        var env = Shell.baseEnvironment()
        env["XDG_DATA_HOME"] = dir.appendingPathComponent("data").path
        env["XDG_CACHE_HOME"] = dir.appendingPathComponent("cache").path
        env["DOCENT_RESOURCES"] = nil
        for _ in 0..<3 {
            let r = try Shell.run([bin.path, "--data", Repo.sampleData], environment: env, stdin: Data(), timeout: 30)
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("cannot find the UI strings: looked in"), r.stderr)
        }
    }
}

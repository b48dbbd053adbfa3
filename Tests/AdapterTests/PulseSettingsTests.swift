import ChildProcessSupport
import Foundation
import XCTest

/// `docent-pulse`'s settings from flags, the environment and a TOML file (issue 43 #5), and the
/// metrics a Prometheus reads (#6), on the real binary.
final class PulseSettingsTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "pulse-settings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private var binary: String {
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return exe.deletingLastPathComponent().appendingPathComponent("docent-pulse").path
    }

    /// The environment the binary is started with: none of this machine's DOCENT_PULSE_*
    /// (a museum's, or CI's), plus `extra`.
    private func environment(_ extra: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DOCENT_PULSE_") }.merging(extra) { $1 }
    }

    private func write(_ name: String, _ text: String) -> String {
        let path = "\(dir)/\(name)"
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// Runs a command that ends by itself: its status and standard error.
    private func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = arguments
        p.environment = environment(extra)
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        let outPath = "\(dir)/out-\(UUID().uuidString)"
        let errPath = "\(dir)/err-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: outPath, contents: nil)
        FileManager.default.createFile(atPath: errPath, contents: nil)
        p.standardOutput = FileHandle(forWritingAtPath: outPath)
        p.standardError = FileHandle(forWritingAtPath: errPath)
        try p.run()
        guard p.waitForEnd(within: 30) else {
            p.stopWithin(2)
            XCTFail("docent-pulse \(arguments) did not end within 30 s")
            return (-1, "", "")
        }
        let read = { (path: String) in String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        // `exitCode`: the status `waitForEnd` reaped (Foundation's `terminationStatus` is 0 when it did
        // not see the end itself: a refused file then read as a clean exit, once in a fresh run).
        return (p.exitCode, read(outPath), read(errPath))
    }

    /// The service started with exactly `arguments` and this test's environment (PulseServiceTests').
    private func service(_ arguments: [String], environment extra: [String: String] = [:]) throws -> PulseServiceProcess {
        try PulseServiceProcess(arguments, environment: environment(extra), errorLog: "\(dir)/service-err-\(UUID().uuidString)", asGiven: true)
    }

    // MARK: - Where settings come from

    func testTheEnvironmentAloneStartsTheService() throws {
        let s = try service(["serve"], environment: ["DOCENT_PULSE_DATABASE": "sqlite:\(dir)/pulse.sqlite", "DOCENT_PULSE_LISTEN": "127.0.0.1:0"])
        defer { s.stop() }
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/healthz").status, 200)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(dir)/pulse.sqlite"), "the store is where DOCENT_PULSE_DATABASE says")
    }

    func testAFlagWinsOverTheEnvironmentAndTheEnvironmentOverTheFile() throws {
        // The file's database and port cannot be used; the environment's database can, but its
        // port cannot; the flag's port can. The file alone sets the log level: its request lines
        // show it was read.
        let config = write(
            "pulse.toml",
            """
            # the museum's settings
            database = "sqlite:\(dir)/no-such-folder/pulse.sqlite"
            listen = "127.0.0.1:1"
            log_level = "info"
            """)
        let s = try service(
            ["serve", "--config", config, "--listen", "127.0.0.1:0"],
            environment: ["DOCENT_PULSE_DATABASE": "sqlite:\(dir)/env.sqlite", "DOCENT_PULSE_LISTEN": "127.0.0.1:2"])
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/healthz").status, 200)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(dir)/env.sqlite"), "the environment's database, not the file's")
        s.stop()
        XCTAssertTrue(s.standardError().contains("route=/healthz"), "the file's log_level = info was applied: \(s.standardError())")
    }

    func testDocentPulseConfigNamesTheFileAndAListComesFromTheEnvironment() throws {
        let config = write("pulse.toml", "database = \"sqlite:\(dir)/file.sqlite\"\nlisten = \"127.0.0.1:0\"\n")
        let s = try service(["serve"], environment: ["DOCENT_PULSE_CONFIG": config, "DOCENT_PULSE_TRUSTED_PROXY": "127.0.0.1, ::1"])
        defer { s.stop() }
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/healthz").status, 200)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(dir)/file.sqlite"))
        // A bad item of that list is refused and named with the variable.
        let r = try run(["serve", "--config", config], environment: ["DOCENT_PULSE_TRUSTED_PROXY": "127.0.0.1,proxy.local"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.err.contains("--trusted-proxy must be an IP address, not 'proxy.local'"), r.err)
        XCTAssertTrue(r.err.contains("the environment's DOCENT_PULSE_TRUSTED_PROXY"), r.err)
    }

    // MARK: - Refusals name the file, the line and what was expected

    func testAnUnknownKeyIsRefusedWithTheFileTheLineAndTheKeyMeant() throws {
        let config = write("pulse.toml", "database = \"sqlite:\(dir)/p.sqlite\"\n\nmax_conections = 5\n")
        let r = try run(["serve", "--config", config])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.err.contains("\(config) line 3: max_conections: unknown setting; did you mean 'max_connections'?"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(dir)/p.sqlite"), "nothing starts on a refused file")
    }

    func testAValueOfTheWrongTypeIsRefusedWithItsLineAndWhatWasExpected() throws {
        let config = write("pulse.toml", "database = \"sqlite:\(dir)/p.sqlite\"\nmax_connections = \"many\"\n")
        let r = try run(["serve", "--config", config])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.err.contains("'many'"), r.err)
        XCTAssertTrue(r.err.contains("\(config) line 2: max_connections"), r.err)
        XCTAssertTrue(r.err.contains("expected a whole number"), r.err)
        // A decimal option says so.
        let decimal = try run(["serve", "--config", write("p2.toml", "database = \"sqlite:\(dir)/p.sqlite\"\nplay_flush = \"soon\"\n")])
        XCTAssertEqual(decimal.status, 64)
        XCTAssertTrue(decimal.err.contains("line 2: play_flush") && decimal.err.contains("expected a number"), decimal.err)
    }

    func testAValueOutOfRangeIsRefusedWithWhereItCameFrom() throws {
        let config = write("pulse.toml", "database = \"sqlite:\(dir)/p.sqlite\"\nmax_connections = 0\n")
        let fromFile = try run(["serve", "--config", config])
        XCTAssertEqual(fromFile.status, 64)
        XCTAssertTrue(fromFile.err.contains("--max-connections and --max-connections-per-address must be at least 1 (from \(config) line 2: max_connections)"), fromFile.err)
        let fromEnvironment = try run(["serve", "--database", "sqlite:\(dir)/p.sqlite"], environment: ["DOCENT_PULSE_MAX_CONNECTIONS": "-1"])
        XCTAssertEqual(fromEnvironment.status, 64)
        XCTAssertTrue(fromEnvironment.err.contains("(from the environment's DOCENT_PULSE_MAX_CONNECTIONS)"), fromEnvironment.err)
    }

    func testAListWhereOneValueIsExpectedAndATableAreRefused() throws {
        let list = try run(["serve", "--config", write("a.toml", "database = [\"sqlite:a\", \"sqlite:b\"]\n")])
        XCTAssertEqual(list.status, 64)
        XCTAssertTrue(list.err.contains("line 1: database: expected one value, not a list"), list.err)
        let table = try run(["serve", "--config", write("b.toml", "database = \"sqlite:\(dir)/p.sqlite\"\n[limits]\nmax = 3\n")])
        XCTAssertEqual(table.status, 64)
        XCTAssertTrue(table.err.contains("limits"), table.err)
        let broken = try run(["serve", "--config", write("c.toml", "database = \"sqlite:\n")])
        XCTAssertEqual(broken.status, 64)
        XCTAssertTrue(broken.err.contains("line 1") && broken.err.contains("not valid TOML"), broken.err)
        let missing = try run(["serve", "--config", "\(dir)/none.toml"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.err.contains("\(dir)/none.toml does not exist"), missing.err)
    }

    func testAMistypedVariableIsSaidAndTheServiceStartsAnyway() throws {
        let s = try service(["serve"], environment: ["DOCENT_PULSE_DATABASE": "sqlite:\(dir)/p.sqlite", "DOCENT_PULSE_LISTEN": "127.0.0.1:0", "DOCENT_PULSE_LOG_LEVL": "info"])
        s.stop()
        XCTAssertTrue(s.standardError().contains("DOCENT_PULSE_LOG_LEVL is not a setting of serve and is ignored; did you mean DOCENT_PULSE_LOG_LEVEL?"), s.standardError())
    }

    // MARK: - The staff commands take the store from the environment or the file

    func testTheStaffCommandsTakeTheDatabaseFromTheEnvironmentOrTheFile() throws {
        let store = "sqlite:\(dir)/pulse.sqlite"
        let s = try service(["serve", "--database", store, "--listen", "127.0.0.1:0"])
        s.stop()
        let fromEnvironment = try run(["queue"], environment: ["DOCENT_PULSE_DATABASE": store])
        XCTAssertEqual(fromEnvironment.status, 0, fromEnvironment.err)
        XCTAssertTrue(fromEnvironment.out.contains("The moderation queue is empty."), fromEnvironment.out)
        // The service's file (its other keys are serve's and do not matter here).
        let config = write("pulse.toml", "database = \"\(store)\"\nmax_connections = 3500\n")
        let fromFile = try run(["staff", "list", "--config", config])
        XCTAssertEqual(fromFile.status, 0, fromFile.err)
        let none = try run(["queue"])
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.err.contains("--database"), none.err)
        // --server is another target: the environment's store is not added to it.
        let server = try run(["staff", "list", "--server", "http://127.0.0.1:9"], environment: ["DOCENT_PULSE_DATABASE": store])
        XCTAssertFalse(server.err.contains("give either --server URL or --database DB"), server.err)
    }

    // MARK: - Metrics

    func testMetricsAreTypedAsTheirNamesSay() throws {
        let s = try service(["serve", "--database", "sqlite:\(dir)/p.sqlite", "--listen", "127.0.0.1:0", "--play-flush", "3600"])
        defer { s.stop() }
        for subject in ["artwork:1", "artwork:1", "artwork:2"] {
            XCTAssertEqual(try RawHTTP.request(port: s.port, "POST", "/v1/plays/\(subject)").status, 204)
        }
        let text = String(decoding: try RawHTTP.request(port: s.port, "GET", "/metrics").body, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        // A play is answered once written (issue 44 #8), so none of the three still waits.
        XCTAssertTrue(lines.contains("pulse_plays_pending 0.0") || lines.contains("pulse_plays_pending 0"), "plays answered are written:\n\(text)")
        XCTAssertTrue(lines.contains("# TYPE pulse_connections_refused_total counter"), text)
        XCTAssertTrue(lines.contains("# TYPE pulse_connections_evicted_total counter"), text)
        XCTAssertTrue(lines.contains("# TYPE process_cpu_seconds_total counter"), text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("pulse_build_info{version=\"") && ($0.hasSuffix(" 1.0") || $0.hasSuffix(" 1")) }, text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("process_resident_memory_bytes ") }, text)
        // Every `_total` is a counter (promtool's rule; `make test-packages` runs promtool itself).
        for line in lines where line.hasPrefix("# TYPE ") {
            let parts = line.split(separator: " ")
            if parts[2].hasSuffix("_total") { XCTAssertEqual(parts[3], "counter", line) }
        }
    }
}

import Foundation
import XCTest

/// Real components for the audio integration tests: a private PulseAudio with a null sink
/// (scripts/test-pulse.sh), nginx (scripts/test-nginx.sh), a small Python server that
/// misbehaves on purpose, and parec recording the sink's monitor. Every wait has a deadline.
enum AudioTestSupport {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static var repoRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var sampleAudio: URL { repoRoot.appendingPathComponent("SampleData/audio") }

    static func uniqueTemp(_ prefix: String) -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    /// Runs a command to completion with a deadline; output goes through a file, never a pipe,
    /// so a daemon that inherits it cannot hang the wait.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 20) -> (status: Int32, output: String) {
        let logURL = uniqueTemp("docent-audio-cmd").appendingPathExtension("log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil),
            let log = try? FileHandle(forWritingTo: logURL)
        else { return (-1, "cannot create \(logURL.path)") }
        defer {
            try? log.close()
            try? FileManager.default.removeItem(at: logURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do { try process.run() } catch { return (-1, "cannot run \(executable): \(error)") }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = done.wait(timeout: .now() + 2)
            return (-1, "\(executable) \(arguments.joined(separator: " ")) did not finish in \(Int(timeout)) s")
        }
        return (process.terminationStatus, (try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
    }

    /// Polls `condition` every 20 ms until it holds or `timeout` passes.
    @discardableResult
    static func waitUntil(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Root mean square of s16 samples, as a fraction of full scale.
    static func rms(_ samples: [Int16]) -> Double {
        guard !samples.isEmpty else { return 0 }
        var sum = 0.0
        for s in samples { sum += Double(s) * Double(s) }
        return (sum / Double(samples.count)).squareRoot() / 32768
    }
}

/// A private PulseAudio daemon (scripts/test-pulse.sh) with the `docent_null` sink.
final class TestPulse {
    let dir: URL
    var server: String { "unix:\(dir.path)/pulse/native" }

    init(dir: URL = AudioTestSupport.uniqueTemp("docent-pulse")) { self.dir = dir }

    private func script(_ command: String) -> (status: Int32, output: String) {
        AudioTestSupport.run("/bin/bash", [AudioTestSupport.repoRoot.appendingPathComponent("scripts/test-pulse.sh").path, command, dir.path], timeout: 15)
    }

    func start() throws {
        let result = script("start")
        guard result.status == 0 else {
            throw AudioTestSupport.Failure(description: "test-pulse.sh start failed (\(result.status)): \(result.output)")
        }
    }

    /// SIGKILL, as a crash.
    func kill() { _ = script("kill") }

    func stop() { _ = script("stop") }

    /// `pactl` against this daemon.
    func pactl(_ arguments: [String]) -> String {
        AudioTestSupport.run("pactl", arguments, environment: ["PULSE_SERVER": server], timeout: 5).output
    }

    /// The sink inputs' properties, one dictionary per stream.
    func sinkInputs() -> [[String: String]] {
        var streams: [[String: String]] = []
        for line in pactl(["list", "sink-inputs"]).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("Sink Input #") {
                streams.append([:])
            } else if !streams.isEmpty, let eq = text.range(of: " = ") {
                let key = String(text[..<eq.lowerBound])
                let value = text[eq.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                streams[streams.count - 1][key] = value
            } else if !streams.isEmpty, let colon = text.firstIndex(of: ":") {
                let key = String(text[..<colon])
                streams[streams.count - 1][key] = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return streams
    }
}

/// parec on the null sink's monitor, into a raw file (s16le, 22,050 Hz, mono).
final class MonitorRecorder {
    static let rate = 22_050
    private let process = Process()
    private let file: URL
    private let done = DispatchSemaphore(value: 0)

    init(server: String) throws {
        file = AudioTestSupport.uniqueTemp("docent-rec").appendingPathExtension("raw")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "parec", "-d", "docent_null.monitor", "--format=s16le", "--rate=\(Self.rate)", "--channels=1",
            "--raw", "--latency-msec=50", file.path,
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["PULSE_SERVER": server]) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { [done] _ in done.signal() }
        try process.run()
        // Recording has begun once parec wrote its first samples: the record stream is up and
        // the monitor delivers (silence until something plays). Creating the file is not enough.
        AudioTestSupport.waitUntil(5) { self.recordedBytes > 0 }
    }

    /// Bytes parec has written so far (2 per sample).
    var recordedBytes: Int {
        ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size]) as? NSNumber)?.intValue ?? 0
    }

    /// Waits until the recording holds `seconds` more audio than when called, or `timeout`
    /// passes. The monitor reaches parec with a delay; measuring in the recording's own time
    /// (its samples) rather than the wall clock means the tail of what just played has been
    /// written even when a loaded machine slows parec down.
    @discardableResult
    func waitForMore(seconds: Double, timeout: Double = 5) -> Bool {
        let target = recordedBytes + Int(seconds * Double(Self.rate)) * 2
        return AudioTestSupport.waitUntil(timeout) { self.recordedBytes >= target }
    }

    /// Stops parec and returns the samples.
    func stop() -> [Int16] {
        if process.isRunning {
            process.interrupt()
            if done.wait(timeout: .now() + 3) == .timedOut {
                process.terminate()
                _ = done.wait(timeout: .now() + 2)
            }
        }
        defer { try? FileManager.default.removeItem(at: file) }
        guard let data = try? Data(contentsOf: file) else { return [] }
        return data.withUnsafeBytes { raw in Array(raw.bindMemory(to: Int16.self)) }
    }

    deinit { _ = stop() }
}

/// nginx on a directory (scripts/test-nginx.sh): Range, `/norange/`, `/slow/`, and its access log.
final class TestNginx {
    let root: URL
    private let portFile: URL
    private(set) var port = 0
    var base: String { "http://127.0.0.1:\(port)" }

    init(root: URL) {
        self.root = root
        portFile = root.appendingPathComponent("nginx.port")
    }

    func start() throws {
        let result = AudioTestSupport.run("/bin/bash", [AudioTestSupport.repoRoot.appendingPathComponent("scripts/test-nginx.sh").path, "start", root.path, portFile.path], timeout: 30)
        guard result.status == 0, let text = try? String(contentsOf: portFile, encoding: .utf8),
            let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw AudioTestSupport.Failure(description: "test-nginx.sh start failed (\(result.status)): \(result.output)")
        }
        self.port = port
    }

    func stop() {
        AudioTestSupport.run("/bin/bash", [AudioTestSupport.repoRoot.appendingPathComponent("scripts/test-nginx.sh").path, "stop", portFile.path], timeout: 30)
    }

    /// Access log lines so far.
    func accessLog() -> [String] {
        guard let dir = try? String(contentsOf: URL(fileURLWithPath: portFile.path + ".nginx-dir"), encoding: .utf8),
            let text = try? String(contentsOfFile: dir.trimmingCharacters(in: .whitespacesAndNewlines) + "/access.log", encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").map(String.init)
    }
}

/// A Python HTTP server that misbehaves: `/drop/NAME` announces the full Content-Length, sends
/// half and closes; `/stall/NAME` sends half and then nothing; `/stallonce/NAME` does that on
/// the first request for NAME only and then serves it properly (Range included);
/// `/norange416/NAME` answers every Range request with 416 and plain requests with the file;
/// `/shortlength/NAME` announces a quarter of the file's length and sends all of it;
/// `/loop/…` redirects to itself; `/busy/…` answers 429; `/bigheaders/…` sends 300 KB of
/// header lines; `/endless/NAME` sends NAME again and again, chunked, with no length.
/// `requests()` lists what it was asked (mode, name, Range header).
final class MisbehavingServer {
    private let process = Process()
    private let dir: URL
    private(set) var port = 0
    private let done = DispatchSemaphore(value: 0)
    var base: String { "http://127.0.0.1:\(port)" }

    private static let script = #"""
        import http.server, os, re, sys, threading, time
        root, port_file = sys.argv[1], sys.argv[2]
        seen = set()
        lock = threading.Lock()
        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            def do_GET(self):
                mode, _, name = self.path.lstrip("/").partition("/")
                path = os.path.join(root, os.path.basename(name))
                rng = self.headers.get("Range") or "-"
                with lock:
                    with open(port_file + ".requests", "a") as log: log.write(f"{mode} {name} {rng}\n")
                    first = (mode, name) not in seen
                    seen.add((mode, name))
                if mode == "loop":
                    self.send_response(302)
                    self.send_header("Location", self.path)
                    self.send_header("Content-Length", "0")
                    self.end_headers(); return
                if mode == "busy":
                    self.send_response(429)
                    self.send_header("Retry-After", "120")
                    self.send_header("Content-Length", "0")
                    self.end_headers(); return
                if mode == "bigheaders":
                    self.send_response(200)
                    self.send_header("Content-Type", "audio/mpeg")
                    for i in range(3000): self.send_header(f"X-Filler-{i}", "x" * 100)
                    self.send_header("Content-Length", "0")
                    self.end_headers(); return
                if mode == "endless" and os.path.isfile(path):
                    data = open(path, "rb").read()
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: audio/mpeg\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
                    try:
                        while True:
                            for k in range(0, len(data), 4096):
                                piece = data[k:k + 4096]
                                self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
                            self.wfile.flush()
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                    self.close_connection = True
                    return
                if mode not in ("drop", "stall", "stallonce", "norange416", "shortlength") or not os.path.isfile(path):
                    self.send_error(404); return
                data = open(path, "rb").read()
                if mode == "norange416" and rng != "-":
                    self.send_error(416); return
                if mode == "shortlength":
                    self.send_response(200)
                    self.send_header("Content-Type", "audio/mpeg")
                    self.send_header("Content-Length", str(len(data) // 4))
                    self.end_headers()
                    self.wfile.write(data); self.wfile.flush()
                    self.close_connection = True
                    return
                if mode in ("stallonce", "norange416") and not (mode == "stallonce" and first):
                    m = re.match(r"bytes=(\d+)-$", rng)
                    start = int(m.group(1)) if m else 0
                    self.send_response(206 if m else 200)
                    self.send_header("Content-Type", "audio/mpeg")
                    self.send_header("Content-Length", str(len(data) - start))
                    if m: self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                    self.end_headers()
                    self.wfile.write(data[start:]); self.wfile.flush()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "audio/mpeg")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data[: len(data) // 2]); self.wfile.flush()
                if mode in ("stall", "stallonce"): time.sleep(60)
                else: time.sleep(0.1)
                self.close_connection = True
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        with open(port_file + ".tmp", "w") as f: f.write(str(server.server_address[1]))
        os.rename(port_file + ".tmp", port_file)
        server.serve_forever()
        """#

    init(root: URL) throws {
        dir = AudioTestSupport.uniqueTemp("docent-pyserver")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let scriptURL = dir.appendingPathComponent("server.py")
        let portFile = dir.appendingPathComponent("port")
        try Data(Self.script.utf8).write(to: scriptURL)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL.path, root.path, portFile.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { [done] _ in done.signal() }
        try process.run()
        AudioTestSupport.waitUntil(10) { FileManager.default.fileExists(atPath: portFile.path) }
        guard let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) else {
            stop()
            throw AudioTestSupport.Failure(description: "the Python test server did not start")
        }
        self.port = port
        requestsFile = URL(fileURLWithPath: portFile.path + ".requests")
    }

    private var requestsFile: URL?

    /// "mode name range" for every request so far ("-" without a Range header).
    func requests() -> [String] {
        guard let requestsFile, let text = try? String(contentsOf: requestsFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            if done.wait(timeout: .now() + 3) == .timedOut { kill(process.processIdentifier, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: dir)
    }
}

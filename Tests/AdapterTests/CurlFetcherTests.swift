import DocentCore
import Foundation
import NetCurl
import XCTest

/// `CurlFetcher` against a real nginx (scripts/test-nginx.sh), started once for the class.
final class CurlFetcherTests: XCTestCase {
    private struct Server {
        var root: URL
        var portFile: URL
        var port: Int
        var base: String { "http://127.0.0.1:\(port)" }
    }

    private struct SetupFailure: Error, CustomStringConvertible {
        var description: String
    }

    nonisolated(unsafe) private static var server: Server?
    nonisolated(unsafe) private static var setupProblem: String?

    private static let json = Array(#"{"title":"Nachtwacht","year":1642,"tags":["paint","oil"]}"#.utf8)
    private static let bigSize = 64 * 1024

    private static var repoRoot: URL {
        // Tests/AdapterTests/CurlFetcherTests.swift → repo root
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs scripts/test-nginx.sh. Output goes to a file, not a pipe, and the wait has a
    /// deadline: a daemon holding an inherited descriptor must not hang the suite.
    private static func runScript(_ arguments: [String], timeout: Double = 30) -> (status: Int32, output: String) {
        let logURL = FileManager.default.temporaryDirectory.appendingPathComponent("docent-test-nginx-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil),
            let log = try? FileHandle(forWritingTo: logURL)
        else {
            return (-1, "cannot create \(logURL.path)")
        }
        defer {
            try? log.close()
            try? FileManager.default.removeItem(at: logURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [repoRoot.appendingPathComponent("scripts/test-nginx.sh").path] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do {
            try process.run()
        } catch {
            return (-1, "cannot run scripts/test-nginx.sh: \(error)")
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            return (-1, "scripts/test-nginx.sh \(arguments.first ?? "") did not finish in \(Int(timeout)) s")
        }
        let output = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return (process.terminationStatus, output)
    }

    override class func setUp() {
        super.setUp()
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("docent-curl-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try fm.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
            try Data(json).write(to: root.appendingPathComponent("object.json"))
            var big = [UInt8](repeating: 0, count: bigSize)
            for i in big.indices { big[i] = UInt8(truncatingIfNeeded: i &* 31 &+ 7) }
            try Data(big).write(to: root.appendingPathComponent("big.bin"))
            try Data("<p>index</p>".utf8).write(to: root.appendingPathComponent("sub/index.html"))
            try Data("with space".utf8).write(to: root.appendingPathComponent("a file #1.txt"))
            // What a hostile or broken Pulse service may answer to a note (served with 429).
            for (dir, wait) in [("pulse-max", "9223372036854775807"), ("pulse-negative", "-5")] {
                try fm.createDirectory(at: root.appendingPathComponent("\(dir)/v1"), withIntermediateDirectories: true)
                let body = #"{"error":"too many notes","code":"rate_limited_notes","retry_after":"# + wait + "}"
                try Data(body.utf8).write(to: root.appendingPathComponent("\(dir)/v1/notes"))
            }
            // A hostile Pulse service's notes: 500 of them, one of a megabyte (issue 45).
            try fm.createDirectory(at: root.appendingPathComponent("pulse-hostile/v1"), withIntermediateDirectories: true)
            let notes = (0..<500).map { i in
                let text = i == 7 ? String(repeating: "long ", count: 200_000) : "note \(i)"
                return #"{"id":"alice000.\#(i + 1)","subject":"artwork:101","language":"en","text":"\#(text)","created_at":\#(1_800_000_000 + i),"up":0,"meh":0,"down":0}"#
            }
            try Data(#"{"notes":[\#(notes.joined(separator: ","))],"next":null}"#.utf8).write(to: root.appendingPathComponent("pulse-hostile/v1/notes"))
        } catch {
            setupProblem = "cannot create the test root \(root.path): \(error)"
            return
        }
        let portFile = root.appendingPathComponent("nginx.port")
        let result = runScript(["start", root.path, portFile.path])
        guard result.status == 0 else {
            setupProblem = "test-nginx.sh start failed (\(result.status)): \(result.output)"
            return
        }
        guard let text = try? String(contentsOf: portFile, encoding: .utf8),
            let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            setupProblem = "test-nginx.sh wrote no port to \(portFile.path)"
            return
        }
        server = Server(root: root, portFile: portFile, port: port)
    }

    override class func tearDown() {
        if let server {
            _ = runScript(["stop", server.portFile.path])
            try? FileManager.default.removeItem(at: server.root)
        }
        server = nil
        super.tearDown()
    }

    private var server: Server {
        get throws {
            guard let server = Self.server else {
                throw SetupFailure(description: Self.setupProblem ?? "nginx is not running")
            }
            return server
        }
    }

    private let fetcher = CurlFetcher()

    private func ok(_ result: Result<FetchResponse, FetchError>, file: StaticString = #filePath, line: UInt = #line) throws -> FetchResponse {
        switch result {
        case .success(let response): return response
        case .failure(let error):
            XCTFail("unexpected error: \(error)", file: file, line: line)
            throw error
        }
    }

    private func failure(_ result: Result<FetchResponse, FetchError>, file: StaticString = #filePath, line: UInt = #line) -> FetchError? {
        switch result {
        case .success(let response):
            XCTFail("expected an error, got status \(response.status) with \(response.body.count) bytes", file: file, line: line)
            return nil
        case .failure(let error): return error
        }
    }

    // MARK: - HTTP

    func testGetReturnsBodyAndValidators() throws {
        let response = try ok(fetcher.fetch(FetchRequest(url: "\(try server.base)/object.json")))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Self.json)
        XCTAssertEqual(response.contentType, "application/json")
        XCTAssertNotNil(response.etag)
        XCTAssertNotNil(response.lastModified)
    }

    func testPostToStaticJSONReturnsTheFile() throws {
        let query = Array(#"{"query":{"match_all":{}}}"#.utf8)
        let request = FetchRequest(url: "\(try server.base)/object.json", method: .post, body: query)
        let response = try ok(fetcher.fetch(request))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Self.json)
    }

    func testErrorBodiesAreHandedBackOnlyWhenAsked() throws {
        // nginx's /status500/ answers a POST with the file and status 500, as SOAP faults come.
        var request = FetchRequest(url: "\(try server.base)/status500/object.json", method: .post, body: Array("<x/>".utf8))
        XCTAssertEqual(failure(fetcher.fetch(request)), .http(status: 500, url: "\(try server.base)/status500/object.json"))
        request.errorBodies = true
        let response = try ok(fetcher.fetch(request))
        XCTAssertEqual(response.status, 500)
        XCTAssertEqual(response.body, Self.json)
        // A 404 too: the caller reads the status.
        let missing = try ok(fetcher.fetch(FetchRequest(url: "\(try server.base)/nope.json", errorBodies: true)))
        XCTAssertEqual(missing.status, 404)
    }

    /// A 429 whose `retry_after` is `Int.max` trapped the guide (issue 34: `(s + 59) / 60`);
    /// -5 said "please wait -5 s". The real HTTP store reads it bounded: a day at most, 1 s at least.
    func testARateLimitsWaitFromTheWireIsBoundedBeforeAnyArithmetic() async throws {
        guard let creds = VisitorCredentials.make(random: Array(repeating: 7, count: 26)),
            let subject = PulseSubject("artwork:101")
        else { return XCTFail("test credentials") }
        let draft = NoteDraft(id: NoteID(visitor: creds.visitor, sequence: 1), subject: subject, language: .english, text: "hello")
        for (dir, wait, minutes) in [("pulse-max", 86_400, "1440"), ("pulse-negative", 1, "1")] {
            let store = HTTPPulseStore(baseURL: "\(try server.base)/status429/\(dir)")
            do {
                _ = try await store.post(draft, as: creds)
                XCTFail("\(dir): a 429 is a refusal")
            } catch {
                XCTAssertEqual(error, .rateLimited(.notes(retryAfter: wait)), dir)
                XCTAssertEqual(error.phrase, .key(.pulseErrorNotesLimit, ["minutes": .verbatim(minutes)]), dir)
            }
        }
    }

    /// Issue 45: a hostile service's 24,000 notes were all listed and a 7.8 MB note shown
    /// whole. The guide keeps the newest 100, each at most 280 cells.
    func testAHostileServicesNotesAreCappedAsTheGuideShowsThem() async throws {
        let subject = try XCTUnwrap(PulseSubject("artwork:101"))
        let store = HTTPPulseStore(baseURL: "\(try server.base)/pulse-hostile")
        let notes = try await store.notes(on: subject, viewer: nil)
        XCTAssertEqual(notes.count, HTTPPulseStore.maxNotes)
        XCTAssertEqual(Set(notes.map(\.id.sequence)), Set(401...500), "the newest")
        XCTAssertLessThanOrEqual(notes.map { TextWidth.width($0.text) }.max() ?? 0, NoteText.maxCells)
        let long = HTTPPulseStore.capped([PulseNote(
            id: try XCTUnwrap(NoteID(key: "alice000.1")), subject: subject, language: .english,
            text: String(repeating: "long ", count: 200_000), createdAt: Date(timeIntervalSince1970: 1_800_000_000))])
        XCTAssertEqual(TextWidth.width(long[0].text), NoteText.maxCells)
        XCTAssertTrue(long[0].text.hasSuffix("long…"), long[0].text)
    }

    func testHeadReturnsNoBody() throws {
        let response = try ok(fetcher.fetch(FetchRequest(url: "\(try server.base)/big.bin", method: .head)))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, [])
        XCTAssertNotNil(response.etag)
    }

    func testMissingURLIsHTTP404() throws {
        let url = "\(try server.base)/missing.json"
        XCTAssertEqual(failure(fetcher.fetch(FetchRequest(url: url))), .http(status: 404, url: url))
        let post = FetchRequest(url: url, method: .post, body: Array("{}".utf8))
        XCTAssertEqual(failure(fetcher.fetch(post)), .http(status: 404, url: url))
    }

    func testETagRevalidationGives304() throws {
        let url = "\(try server.base)/object.json"
        let first = try ok(fetcher.fetch(FetchRequest(url: url)))
        let etag = try XCTUnwrap(first.etag)
        let second = try ok(fetcher.fetch(FetchRequest(url: url, etag: etag)))
        XCTAssertEqual(second.status, 304)
        XCTAssertEqual(second.body, [])
        XCTAssertEqual(second.etag, etag)
        // A stale validator gets the full body again.
        let third = try ok(fetcher.fetch(FetchRequest(url: url, etag: "\"stale\"")))
        XCTAssertEqual(third.status, 200)
        XCTAssertEqual(third.body, Self.json)
    }

    func testLastModifiedRevalidationGives304() throws {
        let url = "\(try server.base)/object.json"
        let first = try ok(fetcher.fetch(FetchRequest(url: url)))
        let lastModified = try XCTUnwrap(first.lastModified)
        let second = try ok(fetcher.fetch(FetchRequest(url: url, lastModified: lastModified)))
        XCTAssertEqual(second.status, 304)
        XCTAssertEqual(second.body, [])
    }

    // MARK: - Downloads written to a file as they arrive (issue 30)

    private func downloadPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("docent-download-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    }

    /// The body is in the file, whole and in order, its length and FNV-1a said; nothing of it
    /// in the answer.
    func testADownloadGoesToTheFileAsItArrives() throws {
        let path = downloadPath()
        defer { unlink(path) }
        let url = "\(try server.base)/big.bin"
        let response = try ok(try XCTUnwrap(fetcher.download(FetchRequest(url: url), to: path)))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, [], "nothing held in memory")
        let written = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertEqual(written.count, Self.bigSize)
        XCTAssertEqual(response.saved, SavedBody(bytes: written.count, fnv1a64: FNV1a.hash64(written)))
        let whole = try ok(fetcher.fetch(FetchRequest(url: url)))
        XCTAssertEqual([UInt8](written), whole.body)
        XCTAssertEqual(response.etag, whole.etag)
    }

    /// A 304, a 404, a body over the limit and a refused connection leave no file; a file
    /// path is not downloaded this way (nil: the caller fetches).
    func testAFailedOrUnchangedDownloadLeavesNoFile() throws {
        let base = try server.base
        let path = downloadPath()
        defer { unlink(path) }
        let etag = try XCTUnwrap(try ok(fetcher.fetch(FetchRequest(url: "\(base)/object.json"))).etag)
        let unchanged = try ok(try XCTUnwrap(fetcher.download(FetchRequest(url: "\(base)/object.json", etag: etag), to: path)))
        XCTAssertEqual(unchanged.status, 304)
        XCTAssertNil(unchanged.saved)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "a 304")
        XCTAssertEqual(failure(try XCTUnwrap(fetcher.download(FetchRequest(url: "\(base)/missing.json"), to: path))), .http(status: 404, url: "\(base)/missing.json"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "a 404")
        let big = "\(base)/big.bin"
        XCTAssertEqual(failure(try XCTUnwrap(fetcher.download(FetchRequest(url: big, maxBytes: 1000), to: path))), .tooLarge(url: big, limit: 1000))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "over the limit")
        let refused = "http://127.0.0.1:\(try Self.unusedPort())/object.json"
        XCTAssertNotNil(failure(try XCTUnwrap(fetcher.download(FetchRequest(url: refused, timeoutSeconds: 5), to: path))))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "no answer")
        XCTAssertNil(fetcher.download(FetchRequest(url: "/etc/hostname"), to: path))
    }

    func testFollowsRedirect() throws {
        // nginx answers /sub with 301 → /sub/, which serves index.html.
        let response = try ok(fetcher.fetch(FetchRequest(url: "\(try server.base)/sub")))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Array("<p>index</p>".utf8))
    }

    func testConnectionRefusedIsUnreachable() throws {
        let port = try Self.unusedPort()
        let url = "http://127.0.0.1:\(port)/object.json"
        guard case .unreachable(let failedURL, let reason)? = failure(fetcher.fetch(FetchRequest(url: url, timeoutSeconds: 5))) else {
            return XCTFail("expected .unreachable")
        }
        XCTAssertEqual(failedURL, url)
        // One cause, said once (issue 33 #18: "Couldn't connect to server (… Couldn't connect
        // to server)"), and the detail that says where.
        XCTAssertTrue(reason.hasPrefix("Couldn't connect to server"), reason)
        XCTAssertEqual(reason.components(separatedBy: "onnect to server").count, 2, reason)
        XCTAssertTrue(reason.contains("port \(port)"), reason)
    }

    func testMaxBytesFromContentLengthIsTooLarge() throws {
        let url = "\(try server.base)/big.bin"
        XCTAssertEqual(failure(fetcher.fetch(FetchRequest(url: url, maxBytes: 1000))), .tooLarge(url: url, limit: 1000))
        // Exactly at the limit is fine.
        let response = try ok(fetcher.fetch(FetchRequest(url: url, maxBytes: Self.bigSize)))
        XCTAssertEqual(response.body.count, Self.bigSize)
    }

    func testSlowServerTimesOut() throws {
        let url = "\(try server.base)/slow/big.bin"
        let start = Date()
        XCTAssertEqual(failure(fetcher.fetch(FetchRequest(url: url, timeoutSeconds: 1))), .timedOut(url: url))
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testNoRangeLocationServesWholeFile() throws {
        let response = try ok(fetcher.fetch(FetchRequest(url: "\(try server.base)/norange/big.bin", headers: ["Range": "bytes=0-9"])))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body.count, Self.bigSize)
        let ranged = try ok(fetcher.fetch(FetchRequest(url: "\(try server.base)/big.bin", headers: ["Range": "bytes=0-9"])))
        XCTAssertEqual(ranged.status, 206)
        XCTAssertEqual(ranged.body.count, 10)
    }

    // MARK: - Files

    func testPlainPathAndFileURL() throws {
        let path = try server.root.appendingPathComponent("object.json").path
        let plain = try ok(fetcher.fetch(FetchRequest(url: path)))
        XCTAssertEqual(plain.status, 200)
        XCTAssertEqual(plain.body, Self.json)
        let viaURL = try ok(fetcher.fetch(FetchRequest(url: "file://" + path)))
        XCTAssertEqual(viaURL.status, 200)
        XCTAssertEqual(viaURL.body, Self.json)
    }

    func testPathNeedingPercentEncoding() throws {
        let path = try server.root.appendingPathComponent("a file #1.txt").path
        XCTAssertEqual(try ok(fetcher.fetch(FetchRequest(url: path))).body, Array("with space".utf8))
        let encoded = "file://" + path.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "#", with: "%23")
        XCTAssertEqual(try ok(fetcher.fetch(FetchRequest(url: encoded))).body, Array("with space".utf8))
    }

    func testMissingFileIsFileNotFound() throws {
        let path = try server.root.appendingPathComponent("nope.json").path
        XCTAssertEqual(failure(fetcher.fetch(FetchRequest(url: path))), .fileNotFound(path))
        XCTAssertEqual(failure(fetcher.fetch(FetchRequest(url: "file://" + path))), .fileNotFound(path))
    }

    func testDirectoryIsAClearError() throws {
        let path = try server.root.appendingPathComponent("sub").path
        guard case .other(_, let reason)? = failure(fetcher.fetch(FetchRequest(url: path))) else {
            return XCTFail("expected .other")
        }
        XCTAssertTrue(reason.contains("directory"), reason)
    }

    /// A large file is read in two halves side by side: every byte where it belongs, also at
    /// an odd size and across the middle.
    func testALargeFileIsReadWholeAndInOrder() throws {
        let dir = NSTemporaryDirectory() + "docent-curl-large-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let size = (16 << 20) + 12_345
        var state: UInt64 = 0x1234_5678_9ABC_DEF0
        let bytes = (0..<size).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let path = dir + "/big.json"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let got = try ok(fetcher.fetch(FetchRequest(url: path, maxBytes: 64 << 20)))
        XCTAssertEqual(got.body.count, size)
        XCTAssertTrue(got.body == bytes, "the bytes differ")
    }

    func testFileLargerThanMaxBytesIsTooLarge() throws {
        let path = try server.root.appendingPathComponent("big.bin").path
        XCTAssertEqual(failure(fetcher.fetch(FetchRequest(url: path, maxBytes: 100))), .tooLarge(url: path, limit: 100))
    }

    func testUnsupportedScheme() {
        guard case .other(_, let reason)? = failure(fetcher.fetch(FetchRequest(url: "ftp://example.org/x.json"))) else {
            return XCTFail("expected .other")
        }
        XCTAssertTrue(reason.contains("ftp"), reason)
    }

    // MARK: - Helpers

    /// A TCP port on 127.0.0.1 that nothing listens on (bound, then closed).
    private static func unusedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SetupFailure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else { throw SetupFailure(description: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

import DocentCore
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 32's attacks on the real `docent-pulse` binary, over SQLite and over PostgreSQL:
/// what one visitor with a laptop could do to a museum's Pulse, each bounded in time and
/// count, each against 127.0.0.0/8 only (127.0.0.2 plays the attacker where the bystander's
/// address must differ).
final class PulsePublicTests: PostgresTestCase {
    private let staffToken = "staff-token-0123456789abcdef"
    private static let seed = AudioTestSupport.repoRoot.appendingPathComponent("SampleData/pulse/seed.json").path



    private func start(_ store: Store, _ extra: [String] = [], descriptorLimit: Int? = nil) throws -> PulseServiceProcess {
        let s = try PulseServiceProcess(
            ["--database", try database(store)] + extra, environment: ["DOCENT_PULSE_STAFF_TOKEN": staffToken], descriptorLimit: descriptorLimit,
            errorLog: tempDir + "/service-\(services.count).log")
        services.append(s)
        return s
    }

    private func register(_ port: Int, _ visitor: String, from source: String = "127.0.0.1") throws -> (status: Int, token: String) {
        let body = Array(#"{"visitor":"\#(visitor)","secret":"secret-\#(visitor)-0123456789"}"#.utf8)
        let r = try RawHTTP.request(port: port, "POST", "/v1/visitors", body: body, headers: ["Content-Type": "application/json"], from: source)
        return (r.status, "\(visitor).secret-\(visitor)-0123456789")
    }

    // MARK: The curator's id

    func testTheMuseumsIdsCannotBeRegisteredSQLite() throws { try museumIDs(.sqlite) }
    func testTheMuseumsIdsCannotBeRegisteredPostgreSQL() throws { try museumIDs(.postgres) }

    private func museumIDs(_ store: Store) throws {
        let s = try start(store)
        for id in ["curator0", "curator123", "staff0001", "museum001"] {
            let r = try register(s.port, id)
            XCTAssertEqual(r.status, 403, "\(id) is the museum's")
        }
        XCTAssertEqual(try register(s.port, "visitor1").status, 201)
    }

    // MARK: A registration flood from one address

    func testARegistrationFloodFromOneAddressIsLimitedSQLite() throws { try registrationFlood(.sqlite) }
    func testARegistrationFloodFromOneAddressIsLimitedPostgreSQL() throws { try registrationFlood(.postgres) }

    private func registrationFlood(_ store: Store) throws {
        let s = try start(store, ["--registration-burst", "10", "--registrations-per-minute", "6"])
        var statuses: [Int] = []
        var retryAfter: String?
        for i in 0..<40 {
            let body = Array(#"{"visitor":"flood\#(1000 + i)","secret":"0123456789abcdef\#(i)"}"#.utf8)
            let r = try RawHTTP.request(port: s.port, "POST", "/v1/visitors", body: body, from: "127.0.0.2")
            statuses.append(r.status)
            if r.status == 429 { retryAfter = retryAfter ?? r.headers["retry-after"] }
        }
        XCTAssertEqual(statuses.filter { $0 == 201 }.count, 10, "the burst, then nothing: \(statuses)")
        XCTAssertEqual(statuses.filter { $0 == 429 }.count, 30)
        XCTAssertNotNil(retryAfter.flatMap(Int.init), "a 429 says when to come back")
        // Another address is not held back by the flood…
        XCTAssertEqual(try register(s.port, "bystander1").status, 201)
        // …nor can the flooder pass for it: X-Forwarded-For from an untrusted peer is ignored.
        let spoofed = try RawHTTP.request(
            port: s.port, "POST", "/v1/visitors", body: Array(#"{"visitor":"spoofer01","secret":"0123456789abcdefgh"}"#.utf8),
            headers: ["X-Forwarded-For": "198.51.100.7"], from: "127.0.0.2")
        XCTAssertEqual(spoofed.status, 429)
    }

    // MARK: Hiding a note unseen

    func testFreshIdentitiesCannotHideANoteWithoutStaffSeeingItSQLite() throws { try hidingIsSeen(.sqlite) }
    func testFreshIdentitiesCannotHideANoteWithoutStaffSeeingItPostgreSQL() throws { try hidingIsSeen(.postgres) }

    private func hidingIsSeen(_ store: Store) throws {
        let s = try start(store, ["--client-limits", "off"])
        let author = try register(s.port, "author01")
        for seq in [1, 2] {
            let note = Array(#"{"id":"author01.\#(seq)","subject":"artwork:1101","language":"en","text":"A fine vessel \#(seq)"}"#.utf8)
            XCTAssertEqual(try RawHTTP.request(port: s.port, "POST", "/v1/notes", body: note, headers: ["Authorization": "Bearer \(author.token)"]).status, 201)
        }
        // Three throwaway identities report note 1; six throwaway down-votes sink note 2.
        for i in 0..<3 {
            let t = try register(s.port, "throwaway\(i)").token
            XCTAssertEqual(try RawHTTP.request(port: s.port, "PUT", "/v1/reports/author01.1", headers: ["Authorization": "Bearer \(t)"]).status, 200)
        }
        for i in 0..<6 {
            let t = try register(s.port, "downvoter\(i)").token
            let r = try RawHTTP.request(port: s.port, "PUT", "/v1/reactions/note:author01.2", body: Array(#"{"value":-1}"#.utf8), headers: ["Authorization": "Bearer \(t)"])
            XCTAssertEqual(r.status, 200, r.text)
        }
        let shown = try RawHTTP.request(port: s.port, "GET", "/v1/notes?subject=artwork:1101")
        XCTAssertFalse(shown.text.contains("author01.1") || shown.text.contains("author01.2"), "both hidden for visitors: \(shown.text)")
        let queue = try RawHTTP.request(port: s.port, "GET", "/v1/moderation/queue", headers: ["Authorization": "Bearer \(staffToken)"])
        XCTAssertEqual(queue.status, 200)
        XCTAssertTrue(queue.text.contains("author01.1"), "hidden by reports: staff see it")
        XCTAssertTrue(queue.text.contains("author01.2"), "hidden by score: staff see it too \(queue.text)")
    }

    // MARK: A play flood

    func testAPlayFloodLeavesTheSnapshotBoundedAndHealthzQuickSQLite() throws { try playFlood(.sqlite) }
    func testAPlayFloodLeavesTheSnapshotBoundedAndHealthzQuickPostgreSQL() throws { try playFlood(.postgres) }

    /// Four flooders send plays on random subjects for five seconds (every play allowed: the
    /// per-address limit is lifted here to test what is behind it); meanwhile `/healthz` is
    /// timed, and afterwards the snapshot is measured.
    private func playFlood(_ store: Store) throws {
        let s = try start(store, ["--plays-per-minute", "10000000", "--play-flush", "1", "--snapshot-subjects", "200"])
        let port = s.port
        let stopAt = Date().addingTimeInterval(5)
        let sent = NSLock()
        nonisolated(unsafe) var plays = 0
        let group = DispatchGroup()
        // Eight senders on threads of their own, two per address: a play is answered once
        // written (issue 44), so one sender waits for each write, and a flood is many senders.
        for w in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var n = 0
                var rng = SystemRandomNumberGenerator()
                while Date() < stopAt && n < 20_000 {
                    let subject = "artwork:\(UInt32.random(in: 1...1_000_000, using: &rng))"
                    if (try? RawHTTP.request(port: port, "POST", "/v1/plays/\(subject)", from: "127.0.0.\(3 + w % 4)").status) == 204 { n += 1 }
                }
                sent.lock()
                plays += n
                sent.unlock()
            }
        }
        var health: [Double] = []
        while Date() < stopAt && health.count < 2_000 {
            let t0 = Date()
            let r = try RawHTTP.request(port: port, "GET", "/healthz")
            XCTAssertEqual(r.status, 200)
            health.append(Date().timeIntervalSince(t0) * 1000)
        }
        group.wait()
        let p99 = RawHTTP.percentile(health, 0.99)
        let snap = try RawHTTP.request(port: port, "GET", "/v1/snapshot?day_start=0")
        let json = try JSONParser.parse(snap.body)
        let activity = json["activity"]?.objectValue?.fields.count ?? -1
        print("play flood (\(store)): \(plays) plays in 5 s; /healthz p99 \(String(format: "%.1f", p99)) ms over \(health.count); snapshot \(snap.body.count) bytes, \(activity) subjects")
        XCTAssertGreaterThan(plays, 1000, "the flood ran")
        XCTAssertLessThanOrEqual(activity, 200, "the snapshot carries the busiest 200 subjects at most")
        XCTAssertLessThan(snap.body.count, 64 * 1024)
        // Starved, the health check waits seconds (issue 44 measured a visitor's p99 at 2.3 s
        // behind a sign-in flood); 100 ms was the noise of two cores shared with the audio lane
        // (104.8 ms once). Speed itself is `make bench`'s to measure.
        XCTAssertLessThan(p99, 500, "/healthz p99 under the flood")
    }

    // MARK: The version moves once per flush

    func testPlaysMoveTheSnapshotOncePerFlushSQLite() throws {
        let s = try start(.sqlite, ["--play-flush", "2", "--plays-per-minute", "100000"])
        let first = try RawHTTP.request(port: s.port, "GET", "/v1/snapshot?day_start=0")
        let etag = try XCTUnwrap(first.headers["etag"])
        for i in 0..<200 { _ = try RawHTTP.request(port: s.port, "POST", "/v1/plays/artwork:\(i)") }
        let soon = try RawHTTP.request(port: s.port, "GET", "/v1/snapshot?day_start=0", headers: ["If-None-Match": etag])
        // 200 plays in well under the two seconds: at most one flush between them.
        let later = try RawHTTP.request(port: s.port, "GET", "/v1/snapshot?day_start=0")
        let v0 = Int(etag.filter(\.isNumber)) ?? -1, v1 = Int((later.headers["etag"] ?? "").filter(\.isNumber)) ?? -1
        XCTAssertLessThanOrEqual(v1 - v0, 2, "200 plays moved the version \(v1 - v0) times (soon: \(soon.status))")
    }

    // MARK: Slow connections

    /// `n` connections (the i-th from address `from(i)`) that send half a request head and
    /// never the rest; those that could be made.
    private func silentConnections(_ n: Int, to port: Int, from: (Int) -> String) -> [Int32] {
        var fds: [Int32] = []
        for i in 0..<n {
            guard let fd = try? RawHTTP.connect(port: port, from: from(i), timeoutSeconds: 2) else { continue }
            RawHTTP.send(fd, Array("GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8))  // and never the end of the head
            fds.append(fd)
        }
        return fds
    }

    func testElevenHundredSlowConnectionsDoNotStopOtherClients() throws {
        RawHTTP.raiseDescriptorLimit(to: 4096)
        let s = try start(.sqlite, ["--header-timeout", "30"], descriptorLimit: 1024)
        let slow = silentConnections(1100, to: s.port) { _ in "127.0.0.2" }
        defer { for fd in slow { close(fd) } }
        XCTAssertGreaterThan(slow.count, 1000, "the slow connections were made")
        var times: [Double] = []
        for _ in 0..<100 {
            let t0 = Date()
            let r = try RawHTTP.request(port: s.port, "GET", "/healthz")
            XCTAssertEqual(r.status, 200)
            times.append(Date().timeIntervalSince(t0) * 1000)
        }
        let p99 = RawHTTP.percentile(times, 0.99)
        print("1,100 slow connections: other clients' p99 \(String(format: "%.1f", p99)) ms")
        XCTAssertLessThan(p99, 1000)
    }

    /// The same from eleven addresses (100 each, under the per-address cap): they fill the
    /// connection cap, and each newcomer takes the place of the one that waited longest for
    /// its request head.
    func testElevenHundredSlowConnectionsFromManyAddressesDoNotStopOtherClientsSQLite() throws { try slowFromManyAddresses(.sqlite) }
    func testElevenHundredSlowConnectionsFromManyAddressesDoNotStopOtherClientsPostgreSQL() throws { try slowFromManyAddresses(.postgres) }

    func slowFromManyAddresses(_ kind: Store) throws {
        RawHTTP.raiseDescriptorLimit(to: 4096)
        let s = try start(kind, ["--header-timeout", "30"], descriptorLimit: 1024)
        let slow = silentConnections(1100, to: s.port) { i in "127.0.0.\(2 + i % 11)" }
        defer { for fd in slow { close(fd) } }
        XCTAssertGreaterThan(slow.count, 1000, "the slow connections were made")
        var times: [Double] = []
        var statuses: [Int: Int] = [:]
        for _ in 0..<100 {
            let t0 = Date()
            let r = try RawHTTP.request(port: s.port, "GET", "/healthz")
            statuses[r.status, default: 0] += 1
            times.append(Date().timeIntervalSince(t0) * 1000)
        }
        let p99 = RawHTTP.percentile(times, 0.99)
        print("1,100 slow connections from 11 addresses (\(kind)): other clients' p99 \(String(format: "%.1f", p99)) ms, answers \(statuses)")
        XCTAssertEqual(statuses, [200: 100], "every other client answered")
        XCTAssertLessThan(p99, 1000)
        let metrics = String(decoding: try RawHTTP.request(port: s.port, "GET", "/metrics").body, as: UTF8.self)
        let evicted = metrics.split(separator: "\n").first { $0.hasPrefix("pulse_connections_evicted_total ") }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        XCTAssertGreaterThan(evicted, 0, "newcomers took slow connections' places")
    }

    func testAHalfSentHeadIsClosedAtTheHeaderDeadline() throws {
        let s = try start(.sqlite, ["--header-timeout", "1"])
        let fd = try RawHTTP.connect(port: s.port, timeoutSeconds: 10)
        defer { close(fd) }
        RawHTTP.send(fd, Array("GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8))
        let t0 = Date()
        let rest = RawHTTP.readToEnd(fd)
        XCTAssertEqual(rest, [], "closed, nothing answered")
        XCTAssertLessThan(Date().timeIntervalSince(t0), 5, "closed by the deadline, not the client's timeout")
    }

    // MARK: A body too large for a client that does not read

    func testATenMegabyteBodyIsAnsweredAndClosedForAClientThatDoesNotReadSQLite() throws { try tenMegabytes(.sqlite) }
    func testATenMegabyteBodyIsAnsweredAndClosedForAClientThatDoesNotReadPostgreSQL() throws { try tenMegabytes(.postgres) }

    func tenMegabytes(_ kind: Store) throws {
        let s = try start(kind)
        let fd = try RawHTTP.connect(port: s.port, timeoutSeconds: 10)
        defer { close(fd) }
        let size = 10 * 1024 * 1024
        let head = "POST /v1/notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(size)\r\n\r\n"
        let t0 = Date()
        // Sends everything before reading anything (as Python's urllib does).
        let allSent = RawHTTP.send(fd, Array(head.utf8) + [UInt8](repeating: 0x20, count: size))
        let answer = RawHTTP.readToEnd(fd)
        let elapsed = Date().timeIntervalSince(t0)
        XCTAssertTrue(allSent, "the service read (and dropped) the body instead of leaving the client blocked")
        XCTAssertEqual(try RawHTTP.parse(answer).status, 413)
        XCTAssertEqual(try RawHTTP.parse(answer).headers["connection"], "close")
        XCTAssertLessThan(elapsed, 8, "answered and closed, not held until a timeout")
    }

    func testADeclaredGigabyteIsAnsweredAtOnce() throws {
        let s = try start(.sqlite)
        let fd = try RawHTTP.connect(port: s.port, timeoutSeconds: 10)
        defer { close(fd) }
        RawHTTP.send(fd, Array("POST /v1/notes HTTP/1.1\r\nHost: x\r\nContent-Length: 1073741824\r\n\r\n".utf8))
        let t0 = Date()
        let answer = RawHTTP.readToEnd(fd)
        XCTAssertEqual(try RawHTTP.parse(answer).status, 413)
        XCTAssertLessThan(Date().timeIntervalSince(t0), 8, "closed after the linger, not kept forever")
    }

    // MARK: Connection cap

    func testPastTheConnectionCapASilentConnectionGivesWay() throws {
        let s = try start(.sqlite, ["--max-connections", "4", "--max-connections-per-address", "100"])
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        // Silent connections give way to a newcomer whose whole head came, however young they
        // are (issue 44 #5: they were protected for 250 ms, and right after a burst of them
        // the first honest request got 503 with Retry-After: 5). (The 503 itself, when every
        // connection is busy with a request, is not provoked here: no route is slow enough to
        // hold four connections busy without racing the newcomer.)
        for _ in 0..<4 { held.append(try RawHTTP.connect(port: s.port)) }
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/healthz").status, 200, "a silent connection gave way")
        // One of them was closed by the service (at most two seconds to see its end).
        var ended = 0
        let until = Date().addingTimeInterval(2)
        while ended == 0 && Date() < until {
            var fds = held.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 100)
            ended = fds.filter { $0.revents != 0 }.count
        }
        XCTAssertEqual(ended, 1, "the oldest silent connection was closed for the newcomer")
        for fd in held { close(fd) }
        held = []
        // Once they are gone, the cap lets the next one in (the service counts closes).
        var status = 0
        for _ in 0..<50 where status != 200 {
            status = try RawHTTP.request(port: s.port, "GET", "/healthz").status
        }
        XCTAssertEqual(status, 200)
    }

    // MARK: Observability

    func testReadyzMetricsAndOneLogLinePerRequestWithoutTokens() throws {
        let s = try start(.sqlite, ["--log-level", "info"])
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/readyz").status, 200)
        let t = try register(s.port, "logged01").token
        _ = try RawHTTP.request(port: s.port, "PUT", "/v1/reactions/artwork:1", body: Array(#"{"value":1}"#.utf8), headers: ["Authorization": "Bearer \(t)"])
        _ = try RawHTTP.request(port: s.port, "GET", "/v1/moderation/queue", headers: ["Authorization": "Bearer wrong-token-0123456789"])
        let metrics = try RawHTTP.request(port: s.port, "GET", "/metrics")
        XCTAssertEqual(metrics.status, 200)
        for name in ["pulse_requests_total", "pulse_request_duration_seconds_bucket", "pulse_requests_in_flight", "pulse_connections_open", "pulse_moderation_queue_length", "pulse_hidden_notes", "pulse_store_up", "pulse_purge_last_seconds"] {
            XCTAssertTrue(metrics.text.contains(name), "\(name) in /metrics")
        }
        // The upkeep's first round runs at the start: once over, the counter says so.
        var rounds = 0.0
        for _ in 0..<200 where rounds < 1 {
            let text = try RawHTTP.request(port: s.port, "GET", "/metrics").text
            rounds = text.split(separator: "\n").first { $0.hasPrefix("pulse_purge_rounds_total ") }.flatMap { Double($0.split(separator: " ")[1]) } ?? 0
            if rounds < 1 { usleep(50_000) }  // polling the service's own count, with a deadline (200 looks)
        }
        XCTAssertEqual(rounds, 1, "one upkeep round at the start, counted once over")
        s.stop()
        let log = s.standardError()
        let requests = log.split(separator: "\n").filter { $0.contains("request") && $0.contains("route=") }
        XCTAssertGreaterThanOrEqual(requests.count, 5, log)
        XCTAssertTrue(log.contains("failed staff sign-in"), log)
        XCTAssertFalse(log.contains("secret-logged01") || log.contains("wrong-token"), "no token in the log")
    }

    // MARK: The export, in pages

    func testTheStaffExportIsPagedWithACursorSQLite() throws { try pagedExport(.sqlite) }
    func testTheStaffExportIsPagedWithACursorPostgreSQL() throws { try pagedExport(.postgres) }

    /// `GET /v1/staff/export` pages its visitor notes as `/v1/notes` does (`limit`, `after`,
    /// `next`): the first page has the museum's content and the counts, the next ones only
    /// notes, together every visitor note once, oldest first; a bad cursor or limit is a 400.
    /// `docent-pulse export --server` follows the pages (205 notes: two of its pages of 200)
    /// and writes what `--database` writes.
    private func pagedExport(_ store: Store) throws {
        let db = try database(store)
        let s = try PulseServiceProcess(
            ["--database", db, "--client-limits", "off", "--notes-per-hour", "1000", "--seed", Self.seed], environment: ["DOCENT_PULSE_STAFF_TOKEN": staffToken],
            errorLog: tempDir + "/service-\(services.count).log")
        services.append(s)
        let author = try register(s.port, "author01")
        let ids = (0..<205).map { "author01.\($0)" }
        for id in ids {
            let note = Array(#"{"id":"\#(id)","subject":"artwork:1101","language":"en","text":"Note \#(id)"}"#.utf8)
            XCTAssertEqual(try RawHTTP.request(port: s.port, "POST", "/v1/notes", body: note, headers: ["Authorization": "Bearer \(author.token)"]).status, 201)
        }
        let staff = ["Authorization": "Bearer \(staffToken)"]
        var seen: [String] = []
        var after: String?
        var pages = 0
        repeat {
            let r = try RawHTTP.request(port: s.port, "GET", "/v1/staff/export?limit=50" + (after.map { "&after=" + $0 } ?? ""), headers: staff)
            XCTAssertEqual(r.status, 200, r.text)
            let page = try JSONParser.parse(r.body, maxDepth: 16)
            let notes = try XCTUnwrap(page["visitor_notes"]?.arrayValue, r.text)
            XCTAssertLessThanOrEqual(notes.count, 50)
            seen += notes.compactMap { $0["id"]?.stringValue }
            XCTAssertEqual(page["featured"] != nil, pages == 0, "the museum's content comes with the first page only")
            XCTAssertEqual(page["counts"] != nil, pages == 0)
            after = page["next"]?.stringValue
            XCTAssertNotNil(page["next"], "every page says where the next starts (null at the end)")
            pages += 1
        } while after != nil && pages < 10
        XCTAssertEqual(pages, 5, "205 notes in pages of 50")
        XCTAssertEqual(seen, ids, "every visitor note once, oldest first")

        for (query, code) in [("after=nonsense", "bad_cursor"), ("limit=0", "bad_limit"), ("limit=201", "bad_limit")] {
            let r = try RawHTTP.request(port: s.port, "GET", "/v1/staff/export?" + query, headers: staff)
            XCTAssertEqual(r.status, 400, query)
            XCTAssertTrue(r.text.contains(code), "\(query): \(r.text)")
        }

        let overHTTP = try runDocentPulse(["export", "--server", s.url], token: staffToken)
        XCTAssertEqual(overHTTP.status, 0, overHTTP.err)
        let direct = try runDocentPulse(["export", "--database", db])
        XCTAssertEqual(direct.status, 0, direct.err)
        let a = try JSONParser.parse(Array(overHTTP.out.utf8), maxDepth: 16), b = try JSONParser.parse(Array(direct.out.utf8), maxDepth: 16)
        XCTAssertEqual(a["visitor_notes"]?.arrayValue?.count, 205)
        XCTAssertNil(a["next"], "the pages put together: no cursor left")
        XCTAssertEqual(a.objectValue?.fields.map(\.key), b.objectValue?.fields.map(\.key))
        for key in ["version", "featured", "announcements", "notes", "visitor_notes", "counts"] {
            XCTAssertEqual(a[key], b[key], "\(key): over HTTP as from the database")
        }
    }

    func testMetricsSayHowTheDatabasePoolIsUsedSQLite() throws { try poolMetrics(.sqlite, most: 1) }
    func testMetricsSayHowTheDatabasePoolIsUsedPostgreSQL() throws { try poolMetrics(.postgres, most: 20) }

    /// `/metrics` has the Pulse store's connections in use and idle and its most: SQLite's one
    /// connection, PostgreSQL's pool of 20 as the server lists this instance's sessions. The
    /// gauges are refreshed as the service starts and every 10 s: the test reads `/metrics`
    /// until the first refresh shows (bounded), then holds the figures to each other.
    private func poolMetrics(_ store: Store, most: Int) throws {
        let s = try start(store)
        let t = try register(s.port, "pooled01").token
        XCTAssertEqual(try RawHTTP.request(port: s.port, "PUT", "/v1/reactions/artwork:1", body: Array(#"{"value":1}"#.utf8), headers: ["Authorization": "Bearer \(t)"]).status, 200)
        func gauge(_ text: String, _ name: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        let giveUp = Date().addingTimeInterval(15)
        var text = ""
        var reads = 0
        repeat {
            text = try RawHTTP.request(port: s.port, "GET", "/metrics").text
            reads += 1
        } while (gauge(text, "pulse_db_connections_max") ?? 0) == 0 && Date() < giveUp
        XCTAssertEqual(gauge(text, "pulse_db_connections_max"), Double(most), "after \(reads) reads: \(text)")
        let inUse = try XCTUnwrap(gauge(text, #"pulse_db_connections{state="in_use"}"#), text)
        let idle = try XCTUnwrap(gauge(text, #"pulse_db_connections{state="idle"}"#), text)
        XCTAssertGreaterThanOrEqual(inUse, 0)
        // A connection is open: idle, or in use when the refresh met the start's purge (a
        // run on a busy machine saw in_use 1, idle 0).
        XCTAssertGreaterThanOrEqual(idle, 0)
        XCTAssertGreaterThanOrEqual(inUse + idle, 1, "a connection is open")
        XCTAssertLessThanOrEqual(inUse + idle, Double(most))
        XCTAssertTrue(text.contains("# HELP pulse_db_connections "), "described for whoever reads it")
    }

    func testReadyzSaysWhenTheDatabaseIsGone() throws {
        let pg = try server()
        let s = try start(.postgres)
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/readyz").status, 200)
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/healthz").status, 200)
        try pg.stop()
        defer { try? pg.start() }
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/readyz").status, 503)
        XCTAssertEqual(try RawHTTP.request(port: s.port, "GET", "/healthz").status, 200, "alive, though not ready")
    }
}

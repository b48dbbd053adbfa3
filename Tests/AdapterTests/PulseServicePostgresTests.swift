import ChildProcessSupport
import DocentCore
import Foundation
import NetCurl
import PulseService
import StateStore
import XCTest

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a storm's clients were told: the writes acknowledged, and the ones in flight when
/// something failed (they may or may not have landed; nothing else may be in the store).
actor StormLedger {
    struct Key: Hashable {
        let visitor: VisitorID
        let subject: PulseSubject
    }
    /// The last acknowledged reaction per visitor and subject (`.some(nil)`: withdrawn).
    private(set) var acked: [Key: ReactionValue?] = [:]
    /// A reaction sent but not acknowledged (a failure in flight): either outcome is right.
    private(set) var uncertain: [Key: [ReactionValue?]] = [:]
    private(set) var notes: Set<NoteID> = []
    private(set) var noteSubjects: [NoteID: PulseSubject] = [:]
    private(set) var acks = 0
    private(set) var failures = 0
    private var waiters: [(id: Int, count: Int, failures: Bool, done: CheckedContinuation<Bool, Never>)] = []
    private var nextWaiter = 0
    /// Until released, the clients go on writing past their steps: a fault injected mid-storm
    /// always meets writes in flight, however fast the machine (on CI the storm used to end
    /// before PostgreSQL stopped, and the wait for failures never returned).
    private(set) var released = false

    func release() { released = true }

    func reacted(_ v: VisitorID, _ s: PulseSubject, _ value: ReactionValue?) {
        let k = Key(visitor: v, subject: s)
        acked[k] = .some(value)
        uncertain[k] = nil
        acked(1)
    }

    func reactionFailed(_ v: VisitorID, _ s: PulseSubject, _ value: ReactionValue?) {
        uncertain[Key(visitor: v, subject: s), default: []].append(value)
        failed()
    }

    func posted(_ id: NoteID, _ s: PulseSubject) {
        notes.insert(id)
        noteSubjects[id] = s
        acked(1)
    }

    func acked(_ n: Int) {
        acks += n
        resume()
    }

    func failed() {
        failures += 1
        resume()
    }

    /// True once `count` writes were acknowledged (or, with `failures`, failed); false when
    /// that has not happened within `seconds` (a bound: the test fails instead of hanging).
    func wait(for count: Int, failures: Bool = false, within seconds: Double = 120) async -> Bool {
        if (failures ? self.failures : acks) >= count { return true }
        nextWaiter += 1
        let id = nextWaiter
        return await withCheckedContinuation { done in
            waiters.append((id, count, failures, done))
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                self.expire(id)
            }
        }
    }

    private func expire(_ id: Int) {
        guard let i = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: i).done.resume(returning: false)
    }

    private func resume() {
        waiters.removeAll { w in
            guard (w.failures ? failures : acks) >= w.count else { return false }
            w.done.resume(returning: true)
            return true
        }
    }
}

/// The service over PostgreSQL under load and faults: a 64-client storm, `kill -9` of the
/// service mid-storm, PostgreSQL restarted mid-storm, and two instances behind nginx.
final class PulseServicePostgresTests: PostgresTestCase {




    private func start(_ database: String, errorLog: String? = nil) throws -> PulseServiceProcess {
        let s = try PulseServiceProcess(["--database", database, "--client-limits", "off"], errorLog: errorLog)
        services.append(s)
        return s
    }

    private func direct(_ database: String) async throws -> PostgresPulseStore {
        try await PostgresPulseStore.open(try PostgresPulseStore.Location.parse(database).get(), clock: { Date() }).get()
    }

    static func visitor(_ i: Int) -> VisitorCredentials {
        VisitorCredentials(visitor: VisitorID(String(format: "gust%04d", i))!, secret: String(format: "stormstormstorm%05d", i))
    }

    static let subjects: [PulseSubject] = [.artwork(1101), .artwork(1102), .tour(2), .stop(tour: 2, sort: 3), .exhibition(7), .museum]

    /// One client of a storm: registers, then writes through its own HTTP store: reactions
    /// set, changed and withdrawn, notes (every other one sent twice, as a retry), and a report
    /// on its neighbour's first note, taken back later. With `stopOnFailure` the client ends at
    /// its first failure; otherwise it retries (after a short back-off, as the guide does). It
    /// ends once `steps` writes were acknowledged and the ledger is released, or after 180 s.
    static func client(_ i: Int, url: String, steps: Int, ledger: StormLedger, stopOnFailure: Bool) async throws {
        let me = visitor(i)
        let store = HTTPPulseStore(baseURL: url, timeoutSeconds: 15)
        var tries = 0
        while true {
            do {
                try await store.register(me)
                break
            } catch {
                tries += 1
                if stopOnFailure || tries > steps * 20 { return }
                await ledger.failed()
                try? await Task.sleep(nanoseconds: 50_000_000)  // a retry's back-off
            }
        }
        var done = 0
        var step = 0
        // A bound, not a pacing: a broken service fails the test in minutes instead of hanging it.
        let giveUp = Date().addingTimeInterval(180)
        while Date() < giveUp {
            if done >= steps, await ledger.released { break }
            let subject = subjects[(i + step) % subjects.count]
            var failure: PulseStoreError?
            switch step % 6 {
            case 0, 3:
                let id = NoteID(visitor: me.visitor, sequence: UInt64(step))
                let draft = NoteDraft(id: id, subject: subject, language: .english, text: "note \(step) from visitor \(i)")
                do {
                    _ = try await store.post(draft, as: me)
                    await ledger.posted(id, subject)
                    if step % 12 == 0 {
                        let again = try await store.post(draft, as: me)
                        if case .created = again { XCTFail("visitor \(i): a retried note was stored twice") }
                    }
                } catch {
                    failure = error
                    await ledger.failed()
                }
            case 4:
                // The neighbour's first note (it may not exist yet: then nothing to report).
                let note = NoteID(visitor: visitor((i + 1) % 64).visitor, sequence: 0)
                do {
                    try await store.report(note, step % 12 == 4, as: me)
                    await ledger.acked(1)
                } catch {
                    if case .noSuchNote = error {
                        await ledger.acked(1)
                    } else {
                        failure = error
                        await ledger.failed()
                    }
                }
            default:
                let values: [ReactionValue?] = [.up, .meh, .down, nil, .up]
                let value = values[(i + step) % values.count]
                do {
                    _ = try await store.react(value, on: subject, as: me)
                    await ledger.reacted(me.visitor, subject, value)
                } catch {
                    failure = error
                    await ledger.reactionFailed(me.visitor, subject, value)
                }
            }
            if let failure {
                // Only the fault under test is expected: anything else fails the test.
                guard case .unavailable = failure else { throw failure }
                if stopOnFailure { return }
                try? await Task.sleep(nanoseconds: 50_000_000)  // a retry's back-off, not a wait for anything
                continue
            }
            done += 1
            step += 1
        }
    }

    /// Every acknowledged write is in the store (and nothing that was never sent), counts
    /// equal a recount of the rows, and each note is listed once.
    private func verify(_ store: some PulseServiceStore, _ ledger: StormLedger, file: StaticString = #filePath, line: UInt = #line) async throws {
        let acked = await ledger.acked
        let uncertain = await ledger.uncertain
        for key in Set(acked.keys).union(uncertain.keys) {
            let stored = try await store.reaction(of: key.visitor, on: key.subject)
            var allowed: [ReactionValue?] = uncertain[key] ?? []
            if let a = acked[key] { allowed.append(a) }
            if acked[key] == nil { allowed.append(nil) }  // only attempts in flight: maybe none landed
            XCTAssertTrue(allowed.contains(stored), "\(key.visitor.rawValue) on \(key.subject.key): stored \(String(describing: stored)), acknowledged \(String(describing: acked[key]))", file: file, line: line)
        }
        let mismatches = try await store.recountMismatches()
        XCTAssertEqual(mismatches, [], file: file, line: line)
        let notes = await ledger.notes
        let subjects = await ledger.noteSubjects
        for subject in Self.subjects {
            let listed = try await store.notes(on: subject, viewer: nil).map(\.id)
            XCTAssertEqual(listed.count, Set(listed).count, "\(subject.key): a note listed twice", file: file, line: line)
            let expected = notes.filter { subjects[$0] == subject }
            XCTAssertTrue(expected.isSubset(of: Set(listed)), "\(subject.key): acknowledged notes missing: \(expected.subtracting(listed).map(\.key).sorted())", file: file, line: line)
        }
    }

    /// 64 clients at once through the service on PostgreSQL.
    func testStormOfSixtyFourClientsKeepsCountsExactAndNotesOnce() async throws {
        let pg = try server()
        let db = pg.url(try pg.createDatabase())
        let service = try start(db)
        let ledger = StormLedger()
        await ledger.release()
        let url = service.url
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<64 { group.addTask { try await Self.client(i, url: url, steps: 12, ledger: ledger, stopOnFailure: true) } }
            try await group.waitForAll()
        }
        let failures = await ledger.failures
        XCTAssertEqual(failures, 0, "writes failed without a fault")
        let acks = await ledger.acks
        XCTAssertEqual(acks, 64 * 12)
        let store = try await direct(db)
        defer { store.close() }
        try await verify(store, ledger)
        // The counts the guides read are the same as the recount.
        let acked = await ledger.acked
        let snap = try await HTTPPulseStore(baseURL: url).snapshot(viewer: nil, dayStart: Date(), since: nil)
        for subject in Self.subjects {
            let expected = PulseCounts.recount(acked.filter { $0.key.subject == subject }.compactMap { $0.value })
            XCTAssertEqual(snap?.counts[subject] ?? .zero, expected, subject.key)
        }
    }

    /// `kill -9` of the service mid-storm, then a new service on the same database: every
    /// acknowledged write is there. Over PostgreSQL and over SQLite.
    func testKillNineMidStormLosesNoAcknowledgedWrite() async throws {
        let pg = try server()
        for database in [pg.url(try pg.createDatabase()), "sqlite:" + tempDir + "/pulse.sqlite"] {
            let service = try start(database)
            let ledger = StormLedger()
            let url = service.url
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<32 { group.addTask { try await Self.client(i, url: url, steps: 20, ledger: ledger, stopOnFailure: true) } }
                // Never released: the clients write until the kill stops them.
                let reached = await ledger.wait(for: 150)
                XCTAssertTrue(reached, "\(database): 150 writes were not acknowledged within 2 minutes")
                XCTAssertEqual(kill(service.process.processIdentifier, SIGKILL), 0)
                try await group.waitForAll()
            }
            XCTAssertTrue(service.process.waitForEnd(within: 10), "\(database): the killed service did not end")
            XCTAssertTrue(service.process.endedBySignal, database)
            let failures = await ledger.failures
            XCTAssertGreaterThan(failures, 0, "\(database): the kill came after the storm")
            // Started again on the same database: everything acknowledged before the kill.
            let again = try start(database)
            XCTAssertNotEqual(again.port, 0)
            if database.hasPrefix("sqlite:") {
                try await verify(try SQLitePulseStore.open(path: String(database.dropFirst(7)), clock: { Date() }).get(), ledger)
            } else {
                let store = try await direct(database)
                defer { store.close() }
                try await verify(store, ledger)
            }
        }
    }

    /// PostgreSQL stopped mid-storm: the service answers 503 with Retry-After and stays up;
    /// PostgreSQL back: the clients finish, nothing acknowledged lost, counts exact.
    func testPostgreSQLRestartMidStormAnswers503ThenRecovers() async throws {
        let pg = try server()
        let db = pg.url(try pg.createDatabase())
        let service = try start(db, errorLog: tempDir + "/service.log")
        let ledger = StormLedger()
        let url = service.url
        var status503: (Int, String?)?
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<16 { group.addTask { try await Self.client(i, url: url, steps: 15, ledger: ledger, stopOnFailure: false) } }
            // Not released until PostgreSQL is back: the clients are still writing when it stops.
            defer { Task { await ledger.release() } }
            let started = await ledger.wait(for: 40)
            XCTAssertTrue(started, "40 writes were not acknowledged within 2 minutes")
            try pg.stop()
            let failing = await ledger.wait(for: 3, failures: true, within: 60)
            XCTAssertTrue(failing, "no write failed within a minute of PostgreSQL stopping")
            let (_, response) = try await URLSession.shared.data(from: URL(string: url + "/v1/subjects/museum")!)
            let http = try XCTUnwrap(response as? HTTPURLResponse)
            status503 = (http.statusCode, http.value(forHTTPHeaderField: "Retry-After"))
            XCTAssertTrue(service.process.isRunning, "the service died with its database")
            try pg.start()
            let ackedAtRestart = await ledger.acks
            let recovered = await ledger.wait(for: ackedAtRestart + 32, within: 120)
            XCTAssertTrue(recovered, "writes did not go through again within 2 minutes of PostgreSQL's return")
            await ledger.release()
            try await group.waitForAll()
        }
        XCTAssertEqual(status503?.0, 503)
        XCTAssertNotNil(status503?.1, "503 without Retry-After")
        XCTAssertTrue(service.process.isRunning)
        // Every client got at least its 15 writes through once PostgreSQL was back.
        let acks = await ledger.acks
        XCTAssertGreaterThanOrEqual(acks, 16 * 15)
        let store = try await direct(db)
        defer { store.close() }
        try await verify(store, ledger)
        // After the restart no request stays stuck on the database (a call's deadline held it
        // for ever when the call did not end on cancellation), so SIGTERM is a graceful stop:
        // not ended by the 15 s StopDeadline, and never the crash of ServiceLifecycle's own
        // bound, whose backtracer hung the suite on CI.
        kill(service.process.processIdentifier, SIGTERM)
        XCTAssertTrue(service.process.waitForEnd(within: 25), "the service did not end within 25 s of SIGTERM")
        XCTAssertFalse(service.process.endedBySignal, "the service crashed on SIGTERM")
        XCTAssertEqual(service.process.exitCode, 0)
        XCTAssertFalse(service.standardError().contains("graceful stop took longer"), "a request stayed stuck after the restart:\n\(service.standardError().suffix(2000))")
    }

    /// Two instances behind nginx over one PostgreSQL: a storm through nginx reaches both, and
    /// counts stay exact (the instances keep no state of their own).
    func testTwoInstancesBehindNginxShareOnePostgreSQL() async throws {
        let pg = try server()
        let db = pg.url(try pg.createDatabase())
        let a = try start(db)
        let b = try start(db)
        let proxy = try NginxProxy(upstreams: [a.port, b.port], dir: tempDir)
        defer { proxy.stop() }
        let ledger = StormLedger()
        await ledger.release()
        let url = proxy.url
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<24 { group.addTask { try await Self.client(i, url: url, steps: 10, ledger: ledger, stopOnFailure: true) } }
            try await group.waitForAll()
        }
        let failures = await ledger.failures
        XCTAssertEqual(failures, 0)
        let upstreams = try proxy.upstreamsSeen()
        XCTAssertEqual(upstreams, ["127.0.0.1:\(a.port)", "127.0.0.1:\(b.port)"].sorted(), "nginx did not spread the storm over both instances")
        let store = try await direct(db)
        defer { store.close() }
        try await verify(store, ledger)
        // A note written through one instance is read through the other at once.
        let viaA = HTTPPulseStore(baseURL: a.url)
        let viaB = HTTPPulseStore(baseURL: b.url)
        let c = Self.visitor(900)
        try await viaA.register(c)
        _ = try await viaA.post(NoteDraft(id: NoteID(visitor: c.visitor, sequence: 1), subject: .gallery(12), language: .english, text: "seen from b"), as: c)
        let fromB = try await viaB.notes(on: .gallery(12), viewer: nil).map(\.text)
        XCTAssertEqual(fromB, ["seen from b"])
    }

    /// The curators' commands against PostgreSQL: what they set reaches the guides, and an
    /// export seeded into another database gives the same curated content.
    func testFeatureAnnounceSeedAndExportAgainstPostgreSQL() async throws {
        let pg = try server()
        let db = pg.url(try pg.createDatabase())
        let copy = pg.url(try pg.createDatabase())
        let store = try await direct(db)
        defer { store.close() }
        let before = try await store.version()
        try await checkCuration(["--database", db], token: nil, copy: ["--database", copy], dir: tempDir) {
            try await store.snapshot(viewer: nil, dayStart: Date(timeIntervalSince1970: 0), since: nil)
        }
        let after = try await store.version()
        XCTAssertGreaterThan(after, before, "guides polling with the old version would not see the change")
        try checkCurationAudit(database: db, who: "command-line")
    }

    /// A database that is down or wrong: one sentence naming it and why, exit status 1, and
    /// the service never says it listens (its pool runs in the service's group; the schema is
    /// made before it listens).
    func testUnreachableDatabaseIsAClearStartupError() throws {
        let port = try PostgresServer.freePort()
        let down = try runDocentPulse(["serve", "--database", "postgres://docent@127.0.0.1:\(port)/pulse?sslmode=disable", "--listen", "127.0.0.1:0"])
        XCTAssertEqual(down.status, 1, down.err)
        XCTAssertTrue(down.err.contains("docent-pulse: cannot use PostgreSQL at postgres://docent@127.0.0.1:\(port)/pulse ("), down.err)
        XCTAssertTrue(down.err.contains("cannot be reached"), down.err)
        XCTAssertFalse(down.out.contains("listening"), down.out)
        // A server that answers, with no such database.
        let pg = try server()
        let wrong = try runDocentPulse(["serve", "--database", pg.url("no_such_database"), "--listen", "127.0.0.1:0"])
        XCTAssertEqual(wrong.status, 1, wrong.err)
        XCTAssertTrue(wrong.err.contains("cannot use PostgreSQL at ") && wrong.err.contains("no_such_database"), wrong.err)
        XCTAssertTrue(wrong.err.contains("does not exist"), wrong.err)
        XCTAssertFalse(wrong.out.contains("listening"), wrong.out)
        XCTAssertThrowsError(try PulseServiceProcess(["--database", "postgres://127.0.0.1/pulse"]))
    }
}

/// nginx as a load balancer over the given local ports (round robin), logging which
/// upstream served each request.
final class NginxProxy {
    let dir: String
    let port: Int
    var url: String { "http://127.0.0.1:\(port)" }

    init(upstreams: [Int], dir parent: String) throws {
        dir = parent + "/nginx"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        port = try PostgresServer.freePort()
        let servers = upstreams.map { "server 127.0.0.1:\($0);" }.joined(separator: " ")
        let conf = """
            \(getuid() == 0 ? "user root;" : "")
            daemon on;
            worker_processes 1;
            pid \(dir)/nginx.pid;
            error_log \(dir)/error.log warn;
            events { worker_connections 512; }
            http {
                log_format up '$upstream_addr $status';
                access_log \(dir)/upstream.log up;
                client_body_temp_path \(dir)/body;
                proxy_temp_path \(dir)/proxy;
                fastcgi_temp_path \(dir)/fastcgi;
                uwsgi_temp_path \(dir)/uwsgi;
                scgi_temp_path \(dir)/scgi;
                upstream pulse { \(servers) keepalive 16; }
                server {
                    listen 127.0.0.1:\(port);
                    location / {
                        proxy_pass http://pulse;
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                    }
                }
            }
            """
        try conf.write(toFile: dir + "/nginx.conf", atomically: true, encoding: .utf8)
        let nginx = ["/usr/sbin/nginx", "/usr/local/sbin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let nginx else { throw PostgresServer.Failure(description: "nginx is not installed (Debian's nginx-light): `make test` installs it") }
        try Self.run(["/bin/bash", "-c", PostgresServer.closeAndExec, "bash", nginx, "-p", dir, "-e", dir + "/error.log", "-c", dir + "/nginx.conf"])
    }

    /// The upstreams that served requests, sorted, without repeats.
    func upstreamsSeen() throws -> [String] {
        let log = try String(contentsOfFile: dir + "/upstream.log", encoding: .utf8)
        return Set(log.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }).sorted()
    }

    func stop() {
        if let pid = (try? String(contentsOfFile: dir + "/nginx.pid", encoding: .utf8)).flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(pid, SIGTERM)
        }
    }

    private static func run(_ command: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: command[0])
        p.arguments = Array(command.dropFirst())
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw PostgresServer.Failure(description: "nginx did not start (\(p.terminationStatus))") }
    }
}

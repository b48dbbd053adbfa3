import ArgumentParser
import PulseKit
import Foundation
import PulseService
import PulseKitSQLite

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a staff command acts: a running service (with the staff token) or the store itself.
struct StaffTarget: ParsableArguments {
    @Option(help: "The service, as http://HOST:PORT (the staff token from DOCENT_PULSE_STAFF_TOKEN or --staff-token-file).")
    var server: String?

    @Option(help: "Or the store itself: sqlite:PATH or postgres://USER@HOST:PORT/DB (default: DOCENT_PULSE_DATABASE, else the `database` of the --config file).")
    var database: String?

    @Option(help: "The service's configuration file (as serve's; DOCENT_PULSE_CONFIG also names it): its `database` is used when neither --server nor --database is given.")
    var config: String?

    @Option(help: "A file holding the staff token (for --server).")
    var staffTokenFile: String?

    @Option(name: .customLong("as"), help: "Who the audit log names for this action (default: command-line with --database, staff-token with --server).")
    var staff: String?

    func validate() throws {
        guard (server == nil) != (database == nil) else { throw ValidationError("give either --server URL or --database DB (or set DOCENT_PULSE_DATABASE, or name the service's configuration file with --config or DOCENT_PULSE_CONFIG)") }
    }

    /// The staff's view of Pulse, from the service or the store.
    func connect() async throws -> any StaffConnection {
        if let server {
            var token = ProcessInfo.processInfo.environment["DOCENT_PULSE_STAFF_TOKEN"] ?? ""
            if let staffTokenFile {
                guard let data = FileManager.default.contents(atPath: staffTokenFile) else { throw ValidationError("--staff-token-file: cannot read \(staffTokenFile)") }
                token = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            }
            guard !token.isEmpty else { throw ValidationError("--server needs the staff token: DOCENT_PULSE_STAFF_TOKEN or --staff-token-file") }
            var base = server
            while base.hasSuffix("/") { base.removeLast() }
            return HTTPStaff(base: base, token: token, staff: staff)
        }
        // A change made on the store itself is logged in its audit log as the console's are.
        let who = staff ?? "command-line"
        switch PulseServer.Database.parse(database ?? "") {
        case .failure(let f): throw ValidationError(f.message)
        case .success(.sqlite(let path)):
            guard FileManager.default.fileExists(atPath: path) else { throw StaffFailure("no Pulse store at \(path)") }
            switch (SQLitePulseStore.open(path: path, clock: { Date() }), SQLiteConsoleStore.open(path: path, clock: { Date() })) {
            case (.success(let s), .success(let c)): return StoreStaff(store: s, audit: c, staff: who, closeStore: {})
            case (.failure(let f), _), (_, .failure(let f)): throw StaffFailure(f.message)
            }
        case .success(.postgres(let location)):
            switch await PostgresPulseStore.open(location, clock: { Date() }) {
            case .success(let s):
                switch await PostgresConsoleStore.open(location, clock: { Date() }) {
                case .success(let c): return StoreStaff(store: s, audit: c, staff: who, closeStore: { c.close(); s.close() })
                case .failure(let f):
                    s.close()
                    throw StaffFailure(f.message)
                }
            case .failure(let f): throw StaffFailure(f.message)
            }
        }
    }
}

/// A one-line reason a staff command failed (exit status 1).
struct StaffFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

protocol StaffConnection: Sendable {
    func queue() async throws -> [PulseNote]
    func decide(_ note: NoteID, _ decision: StaffDecision) async throws -> PulseNote
    func recount() async throws -> [String]
    /// Applies a seed (`bytes` as read, `seed` as this command understood it); answers the
    /// entries left out and why.
    func apply(_ seed: PulseSeed, bytes: [UInt8]) async throws -> [String]
    /// The export as JSON.
    func export() async throws -> [UInt8]
    func close()
}

struct StoreStaff: StaffConnection {
    let store: any PulseServiceStore
    /// The audit log every change goes to, naming `staff`.
    let audit: any ConsoleStore
    let staff: String
    let closeStore: @Sendable () -> Void
    func queue() async throws -> [PulseNote] { try await store.moderationQueue() }
    func decide(_ note: NoteID, _ decision: StaffDecision) async throws -> PulseNote {
        let before = try await audit.note(note)
        let after = try await store.decide(note, decision)
        try await audit.audit(StaffAudit.decision(note, before: before, after: after, staff: staff, at: Date()))
        return after
    }
    func recount() async throws -> [String] { try await store.recountMismatches() }
    func apply(_ seed: PulseSeed, bytes: [UInt8]) async throws -> [String] {
        let store = self.store
        try await StaffAudit.applySeed(seed, console: audit, staff: staff, at: { Date() }) { try await store.apply(seed) }
        return seed.problems
    }
    func export() async throws -> [UInt8] { PulseWire.encode(try await store.export().json(at: Date())) }
    func close() { closeStore() }
}

/// The service's staff routes over HTTP.
struct HTTPStaff: StaffConnection {
    let base: String
    let token: String
    /// Sent as `Docent-Staff` so the service's audit log names the person (`--as`).
    let staff: String?

    func queue() async throws -> [PulseNote] {
        try PulseWire.readNotes(try await call("GET", "/v1/moderation/queue", body: nil))
    }

    func decide(_ note: NoteID, _ decision: StaffDecision) async throws -> PulseNote {
        let body = PulseWire.encode(PulseWire.fields([("decision", .string(decision.rawValue))]))
        return try PulseWire.readNote(try JSONParser.parse(try await call("PUT", "/v1/moderation/notes/\(note.key)", body: body), maxDepth: 8))
    }

    func recount() async throws -> [String] {
        throw StaffFailure("recount runs against the store: use --database (it reads every row)")
    }

    func apply(_ seed: PulseSeed, bytes: [UInt8]) async throws -> [String] {
        let answer = try JSONParser.parse(try await call("POST", "/v1/staff/seed", body: bytes), maxDepth: 4)
        guard let problems = answer["problems"]?.arrayValue else { throw PulseWire.Problem("no 'problems' in the answer") }
        return problems.compactMap(\.stringValue)
    }

    /// Every page of `GET /v1/staff/export` (the visitor notes come a page at a time), put
    /// together into one export, as `--database` writes it.
    func export() async throws -> [UInt8] {
        let first = try JSONParser.parse(try await call("GET", "/v1/staff/export?limit=200", body: nil), maxDepth: 16)
        guard var whole = first.objectValue, var notes = first["visitor_notes"]?.arrayValue else { throw StaffFailure("the service's export has no visitor_notes") }
        var next = first["next"]?.stringValue
        while let cursor = next {
            let query = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
            let page = try JSONParser.parse(try await call("GET", "/v1/staff/export?limit=200&after=\(query)", body: nil), maxDepth: 16)
            guard let more = page["visitor_notes"]?.arrayValue else { throw StaffFailure("a page of the service's export has no visitor_notes") }
            notes += more
            // A service that answers the same cursor again would keep this going for ever.
            let following = page["next"]?.stringValue
            guard following != cursor else { throw StaffFailure("the service's export pages do not advance (next is \(cursor) again)") }
            next = following
        }
        whole.fields = whole.fields.filter { $0.key != "next" }.map { f in f.key == "visitor_notes" ? (key: f.key, value: .array(notes)) : f }
        return PulseWire.encode(.object(whole))
    }

    func close() {}

    private func call(_ method: String, _ path: String, body: [UInt8]?) async throws -> [UInt8] {
        guard let url = URL(string: base + path) else { throw StaffFailure("not a URL: \(base)") }
        var request = URLRequest(url: url, timeoutInterval: 15)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let staff { request.setValue(staff, forHTTPHeaderField: "Docent-Staff") }
        if let body {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw StaffFailure("cannot reach the Pulse service at \(base) (\(error.localizedDescription))")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            let said = (try? JSONParser.parse([UInt8](data), maxDepth: 4))?["error"]?.stringValue ?? "HTTP \(status)"
            switch status {
            case 401, 403: throw StaffFailure("the service refused the staff token (\(said))")
            default: throw StaffFailure(said)
            }
        }
        return [UInt8](data)
    }
}

/// Runs a staff command's body, turning a failure into one line on standard error and exit 1.
func staffRun(_ target: StaffTarget, _ body: (any StaffConnection) async throws -> Void) async throws {
    let connection: any StaffConnection
    do {
        connection = try await target.connect()
    } catch let e as StaffFailure {
        FileHandle.standardError.write(Data("docent-pulse: \(e.description)\n".utf8))
        throw ExitCode(1)
    }
    defer { connection.close() }
    do {
        try await body(connection)
    } catch let e as StaffFailure {
        FileHandle.standardError.write(Data("docent-pulse: \(e.description)\n".utf8))
        throw ExitCode(1)
    } catch let e as PulseStoreError {
        FileHandle.standardError.write(Data("docent-pulse: \(PulseWire.error(e).body["error"]?.stringValue ?? "\(e)")\n".utf8))
        throw ExitCode(1)
    } catch let e as PulseWire.Problem {
        FileHandle.standardError.write(Data("docent-pulse: the service answered something unreadable (\(e.message))\n".utf8))
        throw ExitCode(1)
    }
}

/// One line per note: id, reports, subject, decision, then the text (printable only).
func describe(_ n: PulseNote) -> String {
    let text = String(n.text.unicodeScalars.map { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) ? "?" : Character($0) })
    return "\(n.id.key)\t\(n.reports) report\(n.reports == 1 ? "" : "s")\t\(n.subject.key)\t\(n.decision?.rawValue ?? "-")\t\(text)"
}

struct Queue: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List reported notes awaiting a decision, oldest first.")
    @OptionGroup var target: StaffTarget

    func run() async throws {
        try await staffRun(target) { c in
            let notes = try await c.queue()
            if notes.isEmpty { print("The moderation queue is empty.") }
            for n in notes { print(describe(n)) }
        }
    }
}

/// agree / disagree / keep: one decision on one note.
protocol DecisionCommand: AsyncParsableCommand {
    static var decision: StaffDecision { get }
    var target: StaffTarget { get }
    var note: String { get }
}

extension DecisionCommand {
    func run() async throws {
        guard let id = NoteID(key: note) else { throw ValidationError("not a note id: '\(note)' (VISITOR.SEQ, as `queue` lists them)") }
        try await staffRun(target) { c in
            print(describe(try await c.decide(id, Self.decision)))
        }
    }
}

struct Agree: DecisionCommand {
    static let configuration = CommandConfiguration(abstract: "Agree with the reporters: the note is removed for everyone.")
    static let decision = StaffDecision.removed
    @OptionGroup var target: StaffTarget
    @Argument(help: "The note's id (VISITOR.SEQ).") var note: String
}

struct Disagree: DecisionCommand {
    static let configuration = CommandConfiguration(abstract: "Disagree: the note is shown again and its reports so far stop counting.")
    static let decision = StaffDecision.restored
    @OptionGroup var target: StaffTarget
    @Argument(help: "The note's id (VISITOR.SEQ).") var note: String
}

struct Keep: DecisionCommand {
    static let configuration = CommandConfiguration(abstract: "Keep the note shown whatever reports and votes it gets.")
    static let decision = StaffDecision.pinned
    @OptionGroup var target: StaffTarget
    @Argument(help: "The note's id (VISITOR.SEQ).") var note: String
}

struct Recount: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recompute every count from the rows and say where a kept count differs (exit 1 if any does).")
    @OptionGroup var target: StaffTarget

    func run() async throws {
        try await staffRun(target) { c in
            let mismatches = try await c.recount()
            if mismatches.isEmpty {
                print("Every count equals its recount.")
                return
            }
            for m in mismatches { print(m) }
            throw StaffFailure("\(mismatches.count) count\(mismatches.count == 1 ? "" : "s") differ from the rows")
        }
    }
}

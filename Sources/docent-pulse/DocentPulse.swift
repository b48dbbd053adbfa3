import ArgumentParser
import DocentCore
import Foundation
import Logging
import PulseService
import StateStore

/// `docent-pulse`: the Visitor Pulse service shared by every guide of a museum (issue 13).
@main
struct DocentPulse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docent-pulse",
        abstract: "The Visitor Pulse service: notes, reactions and reports shared by every Docent guide of a museum.",
        subcommands: [Serve.self, Queue.self, Agree.self, Disagree.self, Keep.self, Feature.self, Announce.self, Seed.self, Export.self, Recount.self,
            StaffAccounts.self, Ban.self, Erase.self, Audit.self])
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the Pulse API over HTTP (see docs/pulse-openapi.yaml).")

    @Option(name: [.customLong("database"), .customLong("store")], help: "Where Pulse lives: sqlite:PATH or postgres://USER[:PASSWORD]@HOST:PORT/DB[?sslmode=disable|prefer|require].")
    var database: String

    @Option(help: "HOST:PORT to listen on (port 0: any free port, printed once listening).")
    var listen: String = "127.0.0.1:8080"

    @Option(help: "What the service logs on standard error: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "warning"

    @Option(help: "A file holding the staff token (moderation routes); DOCENT_PULSE_STAFF_TOKEN in the environment also works.")
    var staffTokenFile: String?

    @Option(help: "Reactions and reports one visitor may make per minute (beyond: 429 with Retry-After).")
    var reactionsPerMinute: Int = PulseRules.standard.reactionsPerMinute

    @Option(help: "Notes one visitor may post per hour (beyond: 429 with Retry-After).")
    var notesPerHour: Int = PulseRules.standard.notesPerHour

    @Option(help: "A seed file (as SampleData/pulse/seed.json) loaded once into an empty store.")
    var seed: String?

    @Option(help: "The museum's appData (a file): the staff console shows titles and matches announcement patterns against its pages.")
    var data: String?

    @Option(help: "The museum's time zone (as Europe/Paris): the staff console's days and times. Default: the machine's.")
    var timeZone: String?

    func run() async throws {
        let db: PulseServer.Database
        switch PulseServer.Database.parse(database) {
        case .success(let d): db = d
        case .failure(let f): throw ValidationError(f.message)
        }
        let address: (host: String, port: Int)
        switch PulseServer.parseListen(listen) {
        case .success(let a): address = a
        case .failure(let f): throw ValidationError(f.message)
        }
        // A service logs on standard error: standard output carries only the "listening" line
        // (whoever started the service may stop reading it after that line).
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical") }
        guard reactionsPerMinute > 0, notesPerHour > 0 else { throw ValidationError("--reactions-per-minute and --notes-per-hour must be at least 1") }
        var rules = PulseRules.standard
        rules.reactionsPerMinute = reactionsPerMinute
        rules.notesPerHour = notesPerHour
        switch db {
        case .sqlite(let path):
            let store: SQLitePulseStore
            switch SQLitePulseStore.open(path: path, rules: rules, clock: { Date() }) {
            case .success(let s): store = s
            case .failure(let f):
                FileHandle.standardError.write(Data("docent-pulse: \(f.message)\n".utf8))
                throw ExitCode(1)
            }
            let console: SQLiteConsoleStore
            switch SQLiteConsoleStore.open(path: path, clock: { Date() }) {
            case .success(let s): console = s
            case .failure(let f):
                FileHandle.standardError.write(Data("docent-pulse: \(f.message)\n".utf8))
                throw ExitCode(1)
            }
            try await serve(store, console, address, rules)
        case .postgres(let location):
            let store: PostgresPulseStore
            switch await PostgresPulseStore.open(location, rules: rules, clock: { Date() }) {
            case .success(let s): store = s
            case .failure(let f):
                FileHandle.standardError.write(Data("docent-pulse: \(f.message)\n".utf8))
                throw ExitCode(1)
            }
            defer { store.close() }
            let console: PostgresConsoleStore
            switch await PostgresConsoleStore.open(location, clock: { Date() }) {
            case .success(let s): console = s
            case .failure(let f):
                FileHandle.standardError.write(Data("docent-pulse: \(f.message)\n".utf8))
                throw ExitCode(1)
            }
            defer { console.close() }
            try await serve(store, console, address, rules)
        }
    }

    private func serve(_ store: some PulseServiceStore, _ console: any ConsoleStore, _ address: (host: String, port: Int), _ rules: PulseRules) async throws {
        var logger = Logger(label: "docent-pulse")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .warning
        if let seed { try await Self.load(seed: seed, into: store) }
        let token = try staffToken()
        var consoleConfig = ConsoleConfiguration(staffToken: token, rules: rules)
        if let timeZone {
            guard let tz = TimeZone(identifier: timeZone) else { throw ValidationError("--time-zone: unknown time zone '\(timeZone)' (as Europe/Paris)") }
            consoleConfig.timeZone = tz
        }
        if let data {
            switch ConsoleCatalogue.load(path: data) {
            case .success(let c): consoleConfig.catalogue = c
            case .failure(let f): throw ValidationError(f.message)
            }
        }
        try await PulseServer.run(
            store: store, staffToken: token, console: console, consoleConfiguration: consoleConfig, host: address.host, port: address.port, logger: logger
        ) { port in
            // Written unbuffered: whoever started the service (a test, a script) waits for it.
            FileHandle.standardOutput.write(Data("docent-pulse listening on \(address.host):\(port)\n".utf8))
        }
    }

    /// The staff token: the file's first line, else the environment; at least 16 characters.
    private func staffToken() throws -> String? {
        var token: String?
        if let staffTokenFile {
            guard let data = FileManager.default.contents(atPath: staffTokenFile) else { throw ValidationError("--staff-token-file: cannot read \(staffTokenFile)") }
            token = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if token?.isEmpty ?? true { throw ValidationError("--staff-token-file: \(staffTokenFile) is empty") }
        } else if let env = ProcessInfo.processInfo.environment["DOCENT_PULSE_STAFF_TOKEN"], !env.isEmpty {
            token = env
        }
        if let t = token, t.utf8.count < 16 { throw ValidationError("the staff token must be at least 16 characters") }
        return token
    }

    static func load(seed path: String, into store: some PulseStore) async throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--seed: cannot read \(path)") }
        switch PulseSeed.read([UInt8](data)) {
        case .failure(let f): throw ValidationError("--seed: \(f.message)")
        case .success(let s):
            for p in s.problems { FileHandle.standardError.write(Data("docent-pulse: seed: \(p)\n".utf8)) }
            _ = try await store.seedIfEmpty(s)
        }
    }
}

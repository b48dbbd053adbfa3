import ArgumentParser
import PulseKit
import Foundation
import Logging
import PulseService
import PulseKitSQLite

/// `docent-pulse`: the Visitor Pulse service shared by every guide of a museum (issue 13).
@main
struct DocentPulse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docent-pulse",
        abstract: "The Visitor Pulse service: notes, reactions and reports shared by every Docent guide of a museum.",
        version: DocentVersion.string,
        subcommands: [Serve.self, VisitCodeCommand.self, Queue.self, Agree.self, Disagree.self, Keep.self, Feature.self, Announce.self, Seed.self, Export.self, Recount.self,
            StaffAccounts.self, Ban.self, Erase.self, Audit.self])

    /// As ArgumentParser's own, but a value a command refuses once it runs is reported with
    /// that command's name and help, not the whole service's usage (issue 33 #15: a wrong
    /// `announce` printed `Usage: docent-pulse <subcommand>`).
    static func main() async {
        // Flags, then the environment, then the configuration file (issue 43 #5).
        let settings: SettingsSources
        do {
            settings = try SettingsSources.resolve(
                Array(CommandLine.arguments.dropFirst()), root: DocentPulse.self, serve: Serve.self, environment: ProcessInfo.processInfo.environment)
        } catch let f as SettingsFailure {
            FileHandle.standardError.write(Data("docent-pulse: \(f.description)\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        } catch {
            exit(withError: error)
        }
        for w in settings.warnings { FileHandle.standardError.write(Data("docent-pulse: \(w)\n".utf8)) }
        let command: ParsableCommand
        do {
            command = try parseAsRoot(settings.arguments)
        } catch {
            // A value from the file or the environment that the parser refused: said with its
            // place and what the option takes.
            let message = self.message(for: error)
            if !settings.sources.isEmpty, exitCode(for: error) == .validationFailure, settings.explain(message) != message {
                let name = (["docent-pulse"] + Array(settings.arguments.prefix(settings.commandPath))).joined(separator: " ")
                FileHandle.standardError.write(
                    Data("docent-pulse: \(settings.explain(message))\(expected(in: message, settings))\nSee '\(name) --help' for more information.\n".utf8))
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch let refused as ValidationError {
            let name = (["docent-pulse"] + (path(to: type(of: command)) ?? [])).joined(separator: " ")
            FileHandle.standardError.write(Data("Error: \(settings.explain(refused.message))\nSee '\(name) --help' for more information.\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        } catch {
            exit(withError: error)
        }
    }

    /// What an option refused with a value from the file or the environment takes, found by
    /// trying a whole number and a decimal in its place (the parser says only "invalid").
    static func expected(in message: String, _ settings: SettingsSources) -> String {
        guard message.contains("is invalid for") else { return "" }
        for (name, _) in settings.sources where message.contains("'--\(name) ") || message.contains("'--\(name)'") {
            guard let at = settings.arguments.firstIndex(of: "--\(name)"), at + 1 < settings.arguments.count else { continue }
            func accepts(_ value: String) -> Bool {
                var args = settings.arguments
                args[at + 1] = value
                return (try? parseAsRoot(args)) != nil
            }
            if accepts("1") { return accepts("0.5") ? "; expected a number" : "; expected a whole number" }
            return ""
        }
        return ""
    }

    /// The subcommand names that lead from the root to `command` (nil: not one of ours).
    static func path(to command: ParsableCommand.Type, from root: ParsableCommand.Type = DocentPulse.self) -> [String]? {
        for sub in root.configuration.subcommands {
            let name = sub.configuration.commandName ?? sub._commandName
            if sub == command { return [name] }
            if let rest = path(to: command, from: sub) { return [name] + rest }
        }
        return nil
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the Pulse API over HTTP (described by pulse-openapi.yaml in share/docent, Resources/ in the source tree).")

    @Option(name: [.customLong("database"), .customLong("store")], help: "Where Pulse lives: sqlite:PATH or postgres://USER[:PASSWORD]@HOST:PORT/DB[?sslmode=disable|prefer|require].")
    var database: String

    @Option(help: "A TOML file of these settings (as /etc/docent/pulse.toml: `max_connections = 3500`); DOCENT_PULSE_CONFIG also names it. Every option can also be set as DOCENT_PULSE_<OPTION> in the environment (DOCENT_PULSE_MAX_CONNECTIONS). Flags win over the environment, the environment over the file.")
    var config: String?

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

    @Option(help: "Distinct visitors' reports that hide a note (it then waits for staff).")
    var reportThreshold: Int = PulseRules.standard.reportThreshold

    @Option(help: "A note whose score (likes − dislikes) falls to this is hidden and waits for staff.")
    var scoreFloor: Int = PulseRules.standard.scoreFloor

    @Option(help: "Subjects a snapshot carries activity for (the busiest).")
    var snapshotSubjects: Int = PulseRules.standard.snapshotActivityLimit

    @Option(help: "Per-address limits on registrations, plays, reactions, notes and reports: on or off.")
    var clientLimits: String = "on"

    @Option(help: "Registrations one client address may make per minute (after a burst of --registration-burst).")
    var registrationsPerMinute: Double = ClientRateLimits().registrations.perMinute

    @Option(help: "Registrations one client address may make at once.")
    var registrationBurst: Double = ClientRateLimits().registrations.burst

    @Option(help: "Plays one client address may send per minute.")
    var playsPerMinute: Double = ClientRateLimits().plays.perMinute

    @Option(name: .customLong("trusted-proxy"), help: "A proxy (IP address) whose X-Forwarded-For names the client; repeatable (nginx on the same machine: 127.0.0.1).")
    var trustedProxies: [String] = []

    @Option(help: "Open connections at most (past it: 503 and closed). Keep it under the descriptor limit (LimitNOFILE).")
    var maxConnections: Int = ConnectionLimits.Settings().maxConnections

    @Option(help: "Open connections from one client address at most (past it: closed at once; trusted proxies are exempt).")
    var maxConnectionsPerAddress: Int = ConnectionLimits.Settings().maxConnectionsPerAddress

    @Option(help: "Seconds a client has to send a whole request head.")
    var headerTimeout: Int = 10

    @Option(help: "Seconds a client has to send a whole body once its head is in.")
    var bodyTimeout: Int = 30

    @Option(help: "Seconds a connection may stay idle between requests.")
    var idleTimeout: Int = 60

    @Option(help: "Seconds between writes of gathered plays (0: every play written at once).")
    var playFlush: Double = 5

    @Option(help: "Seconds between purges of what retention lets go.")
    var purgeEvery: Int = 600

    @Option(help: "Hours activity (plays, reactions, notes as counted for \"popular right now\") is kept (above 1, at most 87600).")
    var activityRetentionHours: Double = PulsePurgeAges.standard.activity / 3600

    @Option(help: "Days after which a visitor with nothing left (no note, reaction or report) is forgotten (1 to 3650).")
    var abandonedVisitorDays: Double = PulsePurgeAges.standard.abandonedVisitors / 86400

    @Option(help: "Days a report is kept once staff have decided its note (pinned; restored: the reports before the restore) (0 to 3650).")
    var decidedReportDays: Double = PulsePurgeAges.standard.decidedReports / 86400

    @Option(help: "The museum's appData (a file): the staff console shows titles and matches announcement patterns against its pages.")
    var data: String?

    @Option(help: "The museum's time zone (as Europe/Paris): the staff console's days and times, the visit code's day. Default: the machine's.")
    var timeZone: String?

    @Option(help: "Who may post notes: open (anyone), visit-code (today's code, printed on tickets: see `docent-pulse visit-code`) or members (a card on --member-cards-file). Reactions and reports stay open.")
    var posting: String = "open"

    @Option(help: "With --posting visit-code: a file whose first line is the museum's secret (16 characters or more) the daily code is made from.")
    var visitCodeSecretFile: String?

    @Option(help: "With --posting members: a file of the member card numbers that may post, one a line (# comments); read again when it changes.")
    var memberCardsFile: String?

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
        // Every message and value escaped and bounded (issue 44 #3: no forged lines).
        LoggingSystem.bootstrap { SafeLogHandler(StreamLogHandler.standardError(label: $0)) }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical") }
        guard reactionsPerMinute > 0, notesPerHour > 0 else { throw ValidationError("--reactions-per-minute and --notes-per-hour must be at least 1") }
        guard reportThreshold >= 1, snapshotSubjects >= 1 else { throw ValidationError("--report-threshold and --snapshot-subjects must be at least 1") }
        guard ["on", "off"].contains(clientLimits) else { throw ValidationError("--client-limits must be on or off") }
        guard registrationsPerMinute > 0, registrationBurst >= 1, playsPerMinute > 0 else {
            throw ValidationError("--registrations-per-minute and --plays-per-minute must be above 0, --registration-burst at least 1")
        }
        guard maxConnections >= 1, maxConnectionsPerAddress >= 1 else { throw ValidationError("--max-connections and --max-connections-per-address must be at least 1") }
        guard headerTimeout >= 1, bodyTimeout >= 1, idleTimeout >= 1, purgeEvery >= 1, playFlush >= 0 else {
            throw ValidationError("the timeouts and --purge-every must be at least 1 s, --play-flush at least 0")
        }
        // Retention: a window "popular right now" still has (an hour), a kiosk's quiet weeks,
        // and no more than ten years (a typo of a few zeros, infinity and NaN are refused).
        guard activityRetentionHours > 1, activityRetentionHours <= 87_600 else {
            throw ValidationError("--activity-retention-hours must be above 1 and at most 87600 (ten years), not \(activityRetentionHours)")
        }
        guard (1...3650).contains(abandonedVisitorDays) else {
            throw ValidationError("--abandoned-visitor-days must be 1 to 3650 (ten years), not \(abandonedVisitorDays)")
        }
        guard (0...3650).contains(decidedReportDays) else {
            throw ValidationError("--decided-report-days must be 0 to 3650 (ten years), not \(decidedReportDays)")
        }
        for p in trustedProxies where !Self.isIPAddress(p) { throw ValidationError("--trusted-proxy must be an IP address, not '\(p)'") }
        // The gate is checked before the store is opened: a typo must not start an open service.
        _ = try postingCheck()
        var rules = PulseRules.standard
        rules.reactionsPerMinute = reactionsPerMinute
        rules.notesPerHour = notesPerHour
        rules.reportThreshold = reportThreshold
        rules.scoreFloor = scoreFloor
        rules.snapshotActivityLimit = snapshotSubjects
        var logger = Logger(label: "docent-pulse")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .warning
        switch db {
        case .sqlite(let path):
            let store: SQLitePulseStore
            // The path was typed: no directories are made up for it (issue 33 #15).
            switch SQLitePulseStore.open(path: path, rules: rules, createDirectory: false, clock: { Date() }) {
            case .success(let s): store = s
            case .failure(let f):
                FileHandle.standardError.write(Data("docent-pulse: \(f.message)\n".utf8))
                throw ExitCode(1)
            }
            let console: SQLiteConsoleStore
            switch SQLiteConsoleStore.open(path: path, createDirectory: false, clock: { Date() }) {
            case .success(let s): console = s
            case .failure(let f):
                FileHandle.standardError.write(Data("docent-pulse: \(f.message)\n".utf8))
                throw ExitCode(1)
            }
            try await serve(store, console, address, rules, logger: logger)
        case .postgres(let location):
            // One pool for both stores, run by the service's group; the schemas are made once it
            // runs, before the service listens (a database down or wrong ends it there, status 1).
            let database = PostgresPulseDatabase(location, rules: rules, clock: { Date() }, logger: logger)
            try await serve(database.pulse, database.console, address, rules, logger: logger, database: database)
        }
    }

    static func isIPAddress(_ s: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, s, &v4) == 1 || inet_pton(AF_INET6, s, &v6) == 1
    }

    private func settings() throws -> PulseServer.Settings {
        var s = PulseServer.Settings()
        s.staffToken = try staffToken()
        if clientLimits == "off" {
            s.clientLimits = nil
        } else {
            var limits = ClientRateLimits()
            limits.registrations = .init(perMinute: registrationsPerMinute, burst: registrationBurst)
            limits.plays = .init(perMinute: playsPerMinute, burst: max(1, playsPerMinute / 4))
            s.clientLimits = limits
        }
        s.trustedProxies = trustedProxies
        s.connections.maxConnections = maxConnections
        s.connections.maxConnectionsPerAddress = maxConnectionsPerAddress
        s.connections.headerTimeout = .seconds(Int64(headerTimeout))
        s.connections.bodyTimeout = .seconds(Int64(bodyTimeout))
        s.connections.idleTimeout = .seconds(Int64(idleTimeout))
        s.playFlush = .milliseconds(Int64(playFlush * 1000))
        s.purgeEvery = .seconds(purgeEvery)
        s.purgeAges = PulsePurgeAges(activity: activityRetentionHours * 3600, abandonedVisitors: abandonedVisitorDays * 86400, decidedReports: decidedReportDays * 86400)
        s.posting = try postingCheck()
        return s
    }

    private func serve<Store: PulseServiceStore>(
        _ store: Store, _ console: any ConsoleStore, _ address: (host: String, port: Int), _ rules: PulseRules, logger: Logger,
        database: PostgresPulseDatabase? = nil
    ) async throws {
        // The seed is read (and a bad one refused) before anything starts; it goes into an
        // empty store once the store is ready.
        let seedToLoad = try seed.map(Self.read(seed:))
        let serverSettings = try self.settings()
        var consoleConfig = ConsoleConfiguration(staffToken: serverSettings.staffToken, rules: rules)
        if case .visitCode(let code) = serverSettings.posting.mode { consoleConfig.visitCode = code }
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
        do {
            try await PulseServer.run(
                store: store, settings: serverSettings, console: console, consoleConfiguration: consoleConfig, host: address.host, port: address.port, logger: logger,
                database: database,
                prepare: {
                    if let seedToLoad { _ = try await store.seedIfEmpty(seedToLoad) }
                }
            ) { port in
                // Written unbuffered: whoever started the service (a test, a script) waits for it.
                FileHandle.standardOutput.write(Data("docent-pulse listening on \(address.host):\(port)\n".utf8))
            }
        } catch let f as LoadFailure {
            // The database cannot be used ("cannot use PostgreSQL at …"): said, status 1.
            FileHandle.standardError.write(Data("docent-pulse: \(f.message)\n".utf8))
            throw ExitCode(1)
        } catch let e as PulseServer.ListenFailure {
            // Not bad usage (no usage text, not 64): the service cannot start here.
            FileHandle.standardError.write(Data("docent-pulse: \(e.message)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// The posting gate `--posting` asks for, with what it needs.
    private func postingCheck() throws -> PostingCheck {
        guard let gate = PostingGate(rawValue: posting) else { throw ValidationError("--posting must be open, visit-code or members, not '\(posting)'") }
        if gate != .visitCode, visitCodeSecretFile != nil { throw ValidationError("--visit-code-secret-file goes with --posting visit-code") }
        if gate != .members, memberCardsFile != nil { throw ValidationError("--member-cards-file goes with --posting members") }
        switch gate {
        case .open: return .open
        case .visitCode:
            guard let path = visitCodeSecretFile else { throw ValidationError("--posting visit-code needs --visit-code-secret-file FILE (its first line: the museum's secret)") }
            switch VisitCode.readSecret(path: path) {
            case .success(let secret): return PostingCheck(.visitCode(VisitCode(secret: secret, timeZone: try Self.zone(timeZone))))
            case .failure(let f): throw ValidationError("--visit-code-secret-file: \(f.message)")
            }
        case .members:
            guard let path = memberCardsFile else { throw ValidationError("--posting members needs --member-cards-file FILE (the card numbers that may post, one a line)") }
            switch MemberList.load(path: path) {
            case .success(let list): return PostingCheck(.members(list))
            case .failure(let f): throw ValidationError("--member-cards-file: \(f.message)")
            }
        }
    }

    /// `--time-zone`, or the machine's.
    static func zone(_ name: String?) throws -> TimeZone {
        guard let name else { return TimeZone.current }
        guard let tz = TimeZone(identifier: name) else { throw ValidationError("--time-zone: unknown time zone '\(name)' (as Europe/Paris)") }
        return tz
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

    /// The `--seed` file, read and checked (its problems said on standard error).
    static func read(seed path: String) throws -> PulseSeed {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--seed: cannot read \(path)") }
        switch PulseSeed.read([UInt8](data)) {
        case .failure(let f): throw ValidationError("--seed: \(f.message)")
        case .success(let s):
            for p in s.problems { FileHandle.standardError.write(Data("docent-pulse: seed: \(p)\n".utf8)) }
            return s
        }
    }
}

/// `docent-pulse visit-code`: the code the service takes today (issue 32), for the front desk
/// to print on tickets; the same secret file and time zone as `serve`.
struct VisitCodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visit-code",
        abstract: "Print today's visit code (or a given day's), which `serve --posting visit-code` takes for posting notes.")

    @Option(help: "The file whose first line is the museum's secret (as given to serve).")
    var secretFile: String

    @Option(help: "The day, as YYYY-MM-DD (default: today in the museum's time zone).")
    var date: String?

    @Option(help: "The museum's time zone (as Europe/Paris), as given to serve. Default: the machine's.")
    var timeZone: String?

    func run() throws {
        let secret: String
        switch VisitCode.readSecret(path: secretFile) {
        case .success(let s): secret = s
        case .failure(let f): throw ValidationError("--secret-file: \(f.message)")
        }
        let code = VisitCode(secret: secret, timeZone: try Serve.zone(timeZone))
        if let date {
            guard VisitCode.isDay(date) else { throw ValidationError("--date must be a day as YYYY-MM-DD, not '\(date)'") }
            print(code.code(on: date))
        } else {
            print(code.code(at: Date()))
        }
    }
}

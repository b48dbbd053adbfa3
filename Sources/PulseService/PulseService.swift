import PulseKit
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import PulseKitSQLite

/// Runs the Pulse service: the API over a store, on one address, until the process is stopped.
public enum PulseServer {
    /// Where the service keeps Pulse: `sqlite:PATH` (one machine, one instance) or
    /// `postgres://USER@HOST:PORT/DB` (several instances behind a load balancer).
    public enum Database: Equatable, Sendable {
        case sqlite(path: String)
        case postgres(PostgresPulseStore.Location)

        public static func parse(_ text: String) -> Result<Database, LoadFailure> {
            if text.hasPrefix("sqlite:") {
                let path = String(text.dropFirst("sqlite:".count))
                guard !path.isEmpty else { return .failure(LoadFailure("--database sqlite: needs a path, as in sqlite:/var/lib/docent/pulse.sqlite")) }
                return .success(.sqlite(path: path))
            }
            if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
                return PostgresPulseStore.Location.parse(text).map { .postgres($0) }
            }
            return .failure(LoadFailure("--database must be sqlite:PATH or postgres://USER@HOST:PORT/DB, not '\(text)'"))
        }
    }

    /// `HOST:PORT` (port 0: any free port, said on standard output once listening).
    public static func parseListen(_ text: String) -> Result<(host: String, port: Int), LoadFailure> {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            return .failure(LoadFailure("--listen must be HOST:PORT, as in 127.0.0.1:8080, not '\(text)'"))
        }
        let host = String(text[..<colon])
        return .success((host.isEmpty ? "127.0.0.1" : host, port))
    }

    /// How the service meets the public (issue 32); every value is a `docent-pulse serve` option.
    public struct Settings: Sendable {
        public var staffToken: String?
        public var connections = ConnectionLimits.Settings()
        /// Per-address limits (nil: none, for tests that play many visitors from one address).
        public var clientLimits: ClientRateLimits? = ClientRateLimits()
        /// Proxies whose `X-Forwarded-For` names the client (nginx: 127.0.0.1).
        public var trustedProxies: [String] = []
        /// Plays are written at most this often (zero: each at once).
        public var playFlush: Duration = .seconds(5)
        public var purgeEvery: Duration = .seconds(600)
        /// How old activity, reports on decided notes and abandoned visitors get before the
        /// purge lets them go.
        public var purgeAges = PulsePurgeAges.standard
        /// Who may post notes (`--posting`): open by default.
        public var posting = PostingCheck.open
        public init() {}
    }

    /// Serves until stopped (SIGTERM or SIGINT: a graceful shutdown); `onListening` gets the
    /// bound port. `database`: PostgreSQL's pool under the stores, a service of the group,
    /// started first and stopped last; its schemas, then `prepare` (a seed), run once it runs
    /// and before the server listens: what they throw (`LoadFailure`: "cannot use PostgreSQL
    /// at …") ends the service before it listens, and is rethrown.
    public static func run<Store: PulseServiceStore>(
        store: Store, settings: Settings, console: (any ConsoleStore)? = nil, consoleConfiguration: ConsoleConfiguration? = nil, host: String, port: Int,
        logger: Logger, database: PostgresPulseDatabase? = nil, prepare: @escaping @Sendable () async throws -> Void = {},
        onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        var connectionSettings = settings.connections
        connectionSettings.maxBody = PulseWire.maxBodyBytes
        connectionSettings.maxBodyByPath = [("/v1/staff/seed", PulseWire.maxSeedBytes)]
        let limits = ConnectionLimits(connectionSettings, exempt: Set(settings.trustedProxies), logger: logger)
        let plays: PlayCoalescer? = settings.playFlush > .zero ? PlayCoalescer() : nil
        let metrics = PulseMetrics(connections: limits, plays: plays)
        let api = PulseAPI(
            store: store, staffToken: settings.staffToken, plays: plays, metrics: metrics, clientLimits: settings.clientLimits,
            trustedProxies: settings.trustedProxies, audit: console, posting: settings.posting, logger: logger)
        let (prepared, preparedDone) = AsyncStream<Void>.makeStream()
        let upkeep = PulseUpkeep(
            store: store, plays: plays ?? PlayCoalescer(maxSubjects: 0), metrics: metrics, logger: logger, playFlush: max(settings.playFlush, .milliseconds(100)),
            purgeEvery: settings.purgeEvery, purgeAges: settings.purgeAges, ready: prepared,
            beforePurge: console.map { console in
                let zone = consoleConfiguration?.timeZone ?? .current
                return { try await console.countPastDays(offset: zone.secondsFromGMT(for: Date())) }
            })
        let router = api.router()
        // The staff console (issue 29), under /staff/.
        if let console {
            var config = consoleConfiguration ?? ConsoleConfiguration(staffToken: settings.staffToken)
            config.trustedProxies = settings.trustedProxies
            StaffConsole(store: store, console: console, config: config, logger: logger).add(to: router)
        }
        var app = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [limits.handler()], idleTimeout: connectionSettings.idleTimeout)),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "docent-pulse", backlog: 1024),
            services: [upkeep],
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? port) },
            logger: logger)
        app.beforeServerStarts {
            try await database?.prepare()
            try await prepare()
            preparedDone.finish()
        }
        // A graceful stop is bounded: a request stuck on a database that went away (a
        // PostgreSQL restart) or a connection that never closes must not keep the service from
        // ending on SIGTERM (a hang seen in PulseServicePostgresTests' tear-down).
        // After 10 s the services are cancelled; 15 s after SIGTERM the process ends anyway
        // (`StopDeadline`, not ServiceLifecycle's `maximumCancellationDuration`, which crashes).
        // Last in the list: the group stops its services in reverse order, so its deadline
        // starts first.
        // The database first: the group stops its services in reverse order, so the pool
        // closes after the server has answered what it was serving.
        let services: [ServiceGroupConfiguration.ServiceConfiguration] = (database.map { [ServiceGroupConfiguration.ServiceConfiguration(service: $0)] } ?? []) + [
            .init(service: app),
            .init(service: StopDeadline(seconds: 15, logger: logger), successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore),
        ]
        var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = .seconds(10)
        do {
            try await ServiceGroup(configuration: group).run()
        } catch let e as IOError where e.errnoCode == EADDRINUSE {
            // NIO says "bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)".
            throw ListenFailure(message: "\(host):\(port) is already in use (another docent-pulse, or another program, listens there); choose another with --listen")
        }
    }

    /// The address to listen on cannot be had; `message` says why in a sentence.
    public struct ListenFailure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}

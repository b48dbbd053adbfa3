import DocentCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import StateStore

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

    /// Serves until stopped; `onListening` gets the bound port.
    public static func run<Store: PulseServiceStore>(
        store: Store, staffToken: String? = nil, console: (any ConsoleStore)? = nil, consoleConfiguration: ConsoleConfiguration? = nil, host: String, port: Int,
        logger: Logger, onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        let router = PulseAPI(store: store, staffToken: staffToken).router()
        // The staff console (issue 29), under /staff/.
        if let console {
            StaffConsole(store: store, console: console, config: consoleConfiguration ?? ConsoleConfiguration(staffToken: staffToken), logger: logger).add(to: router)
        }
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "docent-pulse"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? port) },
            logger: logger)
        try await app.runService()
    }
}

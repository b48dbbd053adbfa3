import PulseKit
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// The service's PostgreSQL: one `PostgresClient` (one pool) under the Pulse store and the
/// console store, run as a `Service` of the application's group (postgres-nio's way: the
/// group starts it, and stops it last, after the server has answered what it was serving).
///
/// Creating it connects nothing. `prepare()` creates or updates both schemas once the client
/// runs (the service calls it before it listens); a database that is down or wrong fails it
/// with one sentence ("cannot use PostgreSQL at …").
public final class PostgresPulseDatabase: Service, Sendable {
    public let client: PostgresClient
    public let pulse: PostgresPulseStore
    public let console: PostgresConsoleStore

    /// `maxConnections`: the pool's size, shared by both stores.
    public init(
        _ location: PostgresPulseStore.Location, rules: PulseRules = .standard, maxConnections: Int = 20, clock: @escaping @Sendable () -> Date, logger: Logger
    ) {
        let (client, name) = PostgresPulseStore.makeClient(location, maxConnections: maxConnections, logger: logger)
        self.client = client
        pulse = PostgresPulseStore(
            location: location, client: client, runner: nil, rules: rules, clock: clock, logger: logger, applicationName: name, maxConnections: max(1, maxConnections))
        console = PostgresConsoleStore(client: client, runner: nil, location: location.shown, clock: clock, logger: logger)
    }

    /// Runs the pool until the group stops (a graceful stop or a cancellation).
    public func run() async throws {
        await client.run()
    }

    /// The Pulse schema, then the console's; a sentence when the server cannot be used.
    public func prepare() async throws {
        if case .failure(let f) = await pulse.migrate() { throw f }
        if case .failure(let f) = await console.migrate() { throw f }
    }
}

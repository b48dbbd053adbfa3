import PulseKit
import Foundation
import Hummingbird
import Logging
import Prometheus
import PulseKitSQLite

/// What `/metrics` shows (Prometheus text format, by swift-prometheus): requests by route
/// and status, their latencies, requests under way, whether the database answers,
/// open and refused connections, client-limit refusals, plays waiting to be written, the
/// moderation queue and hidden notes, the database pool's connections in use, idle and at
/// most, the upkeep's purge rounds finished and how long the last one took. One registry per service (no global bootstrap, so
/// tests may start several).
public final class PulseMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    let inFlight: Gauge
    let connectionsOpen: Gauge
    let connectionsRefused: Counter
    let connectionsEvicted: Counter
    let playsPending: Gauge
    let queueLength: Gauge
    let hiddenNotes: Gauge
    let storeUp: Gauge
    let purgeRounds: Counter
    let purgeSeconds: Gauge
    let poolInUse: Gauge
    let poolIdle: Gauge
    let poolMax: Gauge
    let connections: ConnectionLimits?
    let plays: PlayCoalescer?
    /// The connection counts at the last scrape: the counters move on by what came since.
    private let lastCounts = Locked((refused: 0, evicted: 0))
    private let process = ProcessMetrics()

    public init(connections: ConnectionLimits? = nil, plays: PlayCoalescer? = nil, version: String = DocentVersion.string) {
        self.connections = connections
        self.plays = plays
        // Which build answers (issue 43 #6), as Prometheus' own `*_build_info`: always 1.
        registry.makeGauge(name: "pulse_build_info", labels: [("version", version)], help: "The service's version: always 1.").set(to: 1)
        inFlight = registry.makeGauge(name: "pulse_requests_in_flight", help: "Requests being answered now.")
        connectionsOpen = registry.makeGauge(name: "pulse_connections_open", help: "Open client connections.")
        connectionsRefused = registry.makeCounter(name: "pulse_connections_refused_total", help: "Connections refused (over a cap) since the start.")
        connectionsEvicted = registry.makeCounter(name: "pulse_connections_evicted_total", help: "Connections waiting for a request head, closed at the cap to let a newcomer in, since the start.")
        playsPending = registry.makeGauge(name: "pulse_plays_pending", help: "Plays received and waiting for their write (each is answered once written).")
        queueLength = registry.makeGauge(name: "pulse_moderation_queue_length", help: "Notes awaiting a staff decision (reported or hidden by score).")
        hiddenNotes = registry.makeGauge(name: "pulse_hidden_notes", help: "Notes hidden by reports or score and not yet decided.")
        storeUp = registry.makeGauge(name: "pulse_store_up", help: "1 when the database answered the last check, else 0.")
        purgeRounds = registry.makeCounter(name: "pulse_purge_rounds_total", help: "Upkeep rounds finished since the start (past days counted for the console, then what is past its age purged): one at the start, then one each --purge-every.")
        purgeSeconds = registry.makeGauge(name: "pulse_purge_last_seconds", help: "How long the last finished upkeep round took.")
        let pool = "Database connections of the Pulse store's pool at the last check (SQLite: its one connection), by state."
        poolInUse = registry.makeGauge(name: "pulse_db_connections", labels: [("state", "in_use")], help: pool)
        poolIdle = registry.makeGauge(name: "pulse_db_connections", labels: [("state", "idle")], help: pool)
        poolMax = registry.makeGauge(name: "pulse_db_connections_max", help: "The most database connections the Pulse store's pool opens.")
    }

    /// An upkeep round finished, having taken `took`.
    func purgeRound(took: Duration) {
        purgeSeconds.set(to: took.seconds)
        purgeRounds.increment()
    }

    func pool(_ use: DatabasePoolUse) {
        poolInUse.set(to: Double(use.inUse))
        poolIdle.set(to: Double(use.idle))
        poolMax.set(to: Double(use.max))
    }

    static let buckets: [Duration] = [.milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5)]

    func request(route: String, method: String, status: Int, duration: Duration) {
        let labels = [("route", route), ("method", method), ("status", String(status))]
        registry.makeCounter(name: "pulse_requests_total", labels: labels, help: "Requests answered, by route, method and status.").increment()
        registry.makeDurationHistogram(name: "pulse_request_duration_seconds", labels: [("route", route)], buckets: Self.buckets, help: "Time to answer, by route.")
            .record(duration)
    }

    func limited(_ kind: String) {
        registry.makeCounter(name: "pulse_client_limited_total", labels: [("kind", kind)], help: "Requests refused 429 by the per-address limits.").increment()
    }

    /// The text `/metrics` answers.
    public func text() -> [UInt8] {
        if let c = connections?.counts {
            connectionsOpen.set(to: Double(c.open))
            let (refused, evicted) = lastCounts.with { last in
                defer { last = (c.refused, c.evicted) }
                return (max(0, c.refused - last.refused), max(0, c.evicted - last.evicted))
            }
            connectionsRefused.increment(by: Int64(refused))
            connectionsEvicted.increment(by: Int64(evicted))
        }
        // Read when asked: the count is the truth at this moment, not at the last flush.
        playsPending.set(to: Double(plays?.playCount ?? 0))
        process.update(registry)
        return registry.emitToBuffer()
    }
}

/// One structured line per request (swift-log, level info): method, route, status,
/// milliseconds, client address, request id. Never a header, a token or a body. Feeds the
/// request metrics too.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = PulseRequestContext
    let logger: Logger
    let metrics: PulseMetrics
    let address: ClientAddress

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        metrics.inFlight.increment()
        defer { metrics.inFlight.decrement() }
        let status: Int
        let response: Response
        do {
            response = try await next(request, context)
            status = response.status.code
        } catch let e as any HTTPResponseError {
            log(request, context, status: e.status.code, since: start)
            throw e
        } catch {
            log(request, context, status: 500, since: start)
            throw error
        }
        log(request, context, status: status, since: start)
        return response
    }

    private func log(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let route = context.endpointPath ?? "unmatched"
        metrics.request(route: route, method: request.method.rawValue, status: status, duration: elapsed)
        let ms = elapsed.seconds * 1000
        logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue), "route": .string(route), "status": .stringConvertible(status),
                "ms": .string(String(format: "%.1f", ms)), "client": .string(address.of(peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: .xForwardedFor])),
                "request_id": .string(context.id),
            ])
    }
}

extension Duration {
    /// The duration in seconds, fractions kept (for metrics, logs and messages).
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

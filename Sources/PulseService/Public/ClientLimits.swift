import PulseKit
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The request context of the Pulse service: Hummingbird's core storage and the peer's
/// address (the client, or the proxy in front of it).
public struct PulseRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Which client a request comes from: the peer's address, or, when the peer is one of the
/// trusted proxies (nginx in front), the right-most `X-Forwarded-For` entry that is not a
/// trusted proxy. `X-Forwarded-For` from anyone else is ignored (a client cannot pick its own
/// bucket).
public struct ClientAddress: Sendable {
    public let trustedProxies: Set<String>
    public init(trustedProxies: [String]) { self.trustedProxies = Set(trustedProxies) }

    public func of(peer: String?, forwardedFor: [String]) -> String {
        let peer = peer ?? "unknown"
        guard trustedProxies.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for hop in hops.reversed() where !trustedProxies.contains(hop) { return String(hop.prefix(64)) }
        return peer
    }
}

/// Token buckets per (kind, client address): `burst` requests at once, then `perMinute` a
/// minute. Hand-written (about forty lines; see DECISIONS.md): the offline set has no rate
/// limiter for Hummingbird 2.
public final class TokenBuckets: @unchecked Sendable {
    public struct Rate: Sendable, Equatable {
        public var perMinute: Double
        public var burst: Double
        public init(perMinute: Double, burst: Double) {
            self.perMinute = perMinute
            self.burst = burst
        }
    }

    private struct Bucket {
        var tokens: Double
        var at: Double
    }

    private let lock = NSLock()
    private var buckets: [String: Bucket] = [:]
    private let clock: @Sendable () -> Double
    /// Buckets kept at most; past it, full buckets are dropped (a full bucket is the same as none).
    private let maxBuckets = 200_000

    public init(clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) { self.clock = clock }

    /// Nil when allowed (a token taken), else the seconds to wait (at least 1).
    public func take(_ key: String, _ rate: Rate) -> Int? {
        let now = clock()
        lock.lock()
        defer { lock.unlock() }
        var b = buckets[key] ?? Bucket(tokens: rate.burst, at: now)
        b.tokens = min(rate.burst, b.tokens + max(0, now - b.at) * rate.perMinute / 60)
        b.at = now
        if b.tokens >= 1 {
            b.tokens -= 1
            buckets[key] = b
            if buckets.count > maxBuckets { sweep(now, rate) }
            return nil
        }
        buckets[key] = b
        return max(1, Int(((1 - b.tokens) * 60 / max(rate.perMinute, 0.001)).rounded(.up)))
    }

    /// Nil when a token is there (none taken), else the seconds to wait: a client that used up
    /// its tries is refused before its next try is even looked at.
    public func wait(_ key: String, _ rate: Rate) -> Int? {
        let now = clock()
        lock.lock()
        defer { lock.unlock() }
        guard let b = buckets[key] else { return nil }
        let tokens = min(rate.burst, b.tokens + max(0, now - b.at) * rate.perMinute / 60)
        return tokens >= 1 ? nil : max(1, Int(((1 - tokens) * 60 / max(rate.perMinute, 0.001)).rounded(.up)))
    }

    private func sweep(_ now: Double, _ rate: Rate) {
        buckets = buckets.filter { $0.value.tokens + (now - $0.value.at) * rate.perMinute / 60 < rate.burst }
    }
}

/// Per-address limits on what costs the service (issue 32): registrations, plays,
/// reactions, notes, reports. Per-visitor limits stay in the stores (`PulseRules`); these
/// hold however many identities one client makes.
public struct ClientRateLimits: Sendable, Equatable {
    public var registrations = TokenBuckets.Rate(perMinute: 6, burst: 10)
    public var plays = TokenBuckets.Rate(perMinute: 120, burst: 30)
    public var reactions = TokenBuckets.Rate(perMinute: 120, burst: 60)
    public var notes = TokenBuckets.Rate(perMinute: 20, burst: 20)
    public var reports = TokenBuckets.Rate(perMinute: 30, burst: 20)
    /// Wrong visit codes or member cards (the posting gate): guessing a code of 2^30 at this
    /// pace takes centuries, while a family mistyping on one address gets ten tries.
    public var wrongPasses = TokenBuckets.Rate(perMinute: 2, burst: 10)
    /// Wrong staff tokens on the API's staff routes (issue 44 #4): kept even with
    /// `--client-limits off`, which lifts only the limits above.
    public var wrongStaffTokens = TokenBuckets.Rate(perMinute: 5, burst: 10)
    /// Reads (snapshots, notes, a subject's counts) (issue 44 #12): a guide checks every few
    /// seconds; a client reading as fast as it can is answered 429 cheaply.
    public var reads = TokenBuckets.Rate(perMinute: 300, burst: 100)
    public init() {}
}

/// 429 with `Retry-After` when a client address is over its limit for this kind of request:
/// middleware on the route group of the requests of that kind (`PulseAPI.router`).
struct ClientRateLimitMiddleware: RouterMiddleware {
    typealias Context = PulseRequestContext
    /// Names the bucket (and the metric).
    let kind: String
    let rate: TokenBuckets.Rate
    let buckets: TokenBuckets
    let address: ClientAddress
    let metrics: PulseMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let client = address.of(peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: .xForwardedFor])
        if let wait = buckets.take(kind + " " + client, rate) {
            metrics.limited(kind)
            var r = pulseJSON(
                429, PulseWire.problem("rate_limited_client", "too many \(kind) requests from your address: try again in \(wait) s", [("retry_after", .integer(wait))]))
            r.headers[.retryAfter] = String(wait)
            return r
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    public static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}

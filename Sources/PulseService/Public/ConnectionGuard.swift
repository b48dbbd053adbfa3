import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes

/// What a server on the open internet needs of its connections (issue 32), as NIO channel
/// handlers in Hummingbird's HTTP/1 pipeline (`HTTP1Channel.Configuration.additionalChannelHandlers`):
/// - a cap on open connections: at it, a newcomer takes the place of the connection that has
///   waited longest for a whole request, head and body (at least `evictWaitingAfter`: a slow or
///   silent client, one trickling its body (issue 44 #5), or an idle keep-alive one), so slow
///   sockets from many addresses cannot lock everyone out; a newcomer that found none waiting
///   that long (a burst of slow sockets all younger than that) takes, once its whole request
///   head has come, the place of the connection that has waited longest for a request since
///   before the newcomer came (issue 44 #5: it was answered 503 with Retry-After: 5 and a
///   client honouring it waited 5 s); when every connection is busy, the newcomer's first request is answered 503 and the
///   connection closed; past the cap for one client address, the connection is closed at once
///   (one client holding hundreds of silent sockets frees them as fast as it opens them);
/// - a header deadline (from the connection's start or the previous answer to a complete
///   request head) and a deadline on the whole request (`bodyTimeout` from the same start to
///   the body's end, at least a second after the head): a slow client is closed, whatever it
///   trickles;
/// - a body declared larger than allowed is answered 413 at once, without waiting for it, the
///   rest read and dropped for at most `linger`, then the connection closed (what nginx does:
///   a client that does not read while it sends still gets its answer).
/// Hummingbird's own `idleTimeout` closes connections idle between requests.
public final class ConnectionLimits: @unchecked Sendable {
    public struct Settings: Sendable, Equatable {
        public var maxConnections = 900
        public var maxConnectionsPerAddress = 128
        public var headerTimeout: TimeAmount = .seconds(10)
        public var bodyTimeout: TimeAmount = .seconds(30)
        public var idleTimeout: TimeAmount = .seconds(60)
        public var linger: TimeAmount = .seconds(5)
        /// At the cap, a connection that has waited this long for a request head may be
        /// closed to let a newcomer in (clients send their head within milliseconds).
        public var evictWaitingAfter: TimeAmount = .milliseconds(250)
        /// How long a connection over the cap may take to send the head its 503 answers.
        public var overCapHeaderTimeout: TimeAmount = .seconds(1)
        /// Largest body per path prefix (longest match), else `maxBody`.
        public var maxBody = 16 * 1024
        public var maxBodyByPath: [(String, Int)] = []
        public init() {}
        public static func == (a: Settings, b: Settings) -> Bool {
            a.maxConnections == b.maxConnections && a.maxConnectionsPerAddress == b.maxConnectionsPerAddress && a.headerTimeout == b.headerTimeout
                && a.bodyTimeout == b.bodyTimeout && a.idleTimeout == b.idleTimeout && a.linger == b.linger && a.maxBody == b.maxBody
        }
        func maxBody(for path: Substring) -> Int {
            var best: (Int, Int)?
            for (prefix, n) in maxBodyByPath where path.hasPrefix(prefix) && prefix.count > (best?.0 ?? -1) { best = (prefix.count, n) }
            return best?.1 ?? maxBody
        }
    }

    public let settings: Settings
    let logger: Logger
    private let lock = NSLock()
    private var open = 0
    private var perAddress: [String: Int] = [:]
    private var refused = 0
    private var evicted = 0
    /// Connections waiting for a whole request (new, idle between requests, or a head in and the
    /// body still coming), with since when.
    private var waiting: [ObjectIdentifier: (since: NIODeadline, channel: any Channel)] = [:]

    /// Addresses the per-address cap does not apply to (the trusted proxies: every client
    /// behind nginx shares its address).
    let exempt: Set<String>

    public init(_ settings: Settings, exempt: Set<String> = [], logger: Logger) {
        self.settings = settings
        self.exempt = exempt
        self.logger = logger
    }

    /// Open connections now, how many were turned away since the start, and how many were
    /// closed at the cap to let a newcomer in.
    public var counts: (open: Int, refused: Int, evicted: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (open, refused, evicted)
    }

    enum Admission { case admitted, overTotal, overAddress }

    func opened(_ address: String, _ connection: ObjectIdentifier, _ channel: any Channel) -> Admission {
        var victim: (any Channel)?
        let admission: Admission = lock.withLock {
            open += 1
            let mine = (perAddress[address] ?? 0) + 1
            perAddress[address] = mine
            if mine > settings.maxConnectionsPerAddress && !exempt.contains(address) {
                refused += 1
                return .overAddress
            }
            if open > settings.maxConnections {
                // The longest wait for a head, if long enough: its place is the newcomer's.
                let before = NIODeadline.now() - settings.evictWaitingAfter
                guard let oldest = waiting.min(by: { $0.value.since < $1.value.since }), oldest.value.since <= before else {
                    // Counted as refused when it is (`closed`), unless its head comes first
                    // and it takes a place then (`promote`).
                    return .overTotal
                }
                waiting[oldest.key] = nil
                victim = oldest.value.channel
                evicted += 1
            }
            waiting[connection] = (NIODeadline.now(), channel)
            return .admitted
        }
        victim?.close(promise: nil)
        return admission
    }

    /// The connection waits for a request again (its answer is out) or no longer (its request's
    /// end came); answers since when it waited.
    @discardableResult
    func waitsForRequest(_ connection: ObjectIdentifier, _ channel: any Channel, _ yes: Bool) -> NIODeadline? {
        lock.withLock {
            let since = waiting[connection]?.since
            waiting[connection] = yes ? (NIODeadline.now(), channel) : nil
            return since
        }
    }

    /// Since when the connection has waited for its request (nil: not waiting).
    func waitingSince(_ connection: ObjectIdentifier) -> NIODeadline? {
        lock.withLock { waiting[connection]?.since }
    }

    /// An over-cap connection's whole request head came (so it is no slow client): it takes the
    /// place of the connection that has waited longest for a request, if that one has waited
    /// since before this one opened (it has been slower than this one was to send a whole
    /// head). False: every other connection is busy, or came after it.
    func promote(_ connection: ObjectIdentifier, _ channel: any Channel, openedAt: NIODeadline) -> Bool {
        var victim: (any Channel)?
        let promoted: Bool = lock.withLock {
            guard let oldest = waiting.min(by: { $0.value.since < $1.value.since }), oldest.value.since < openedAt else { return false }
            waiting[oldest.key] = nil
            victim = oldest.value.channel
            evicted += 1
            // Waits for its request's end, as any admitted connection.
            waiting[connection] = (openedAt, channel)
            return true
        }
        victim?.close(promise: nil)
        return promoted
    }

    func closed(_ address: String, _ connection: ObjectIdentifier, refused wasRefused: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        if wasRefused { refused += 1 }
        open -= 1
        waiting[connection] = nil
        let mine = (perAddress[address] ?? 1) - 1
        perAddress[address] = mine > 0 ? mine : nil
    }

    /// A new handler for one connection.
    public func handler() -> any RemovableChannelHandler { ConnectionGuard(self) }
}

final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private var address: String?
    private var admission: ConnectionLimits.Admission = .admitted
    private var openedAt = NIODeadline.now()
    private var deadline: Scheduled<Void>?
    /// Dropping the rest of a refused request's body until its end (then closing).
    private var discarding = false

    init(_ limits: ConnectionLimits) { self.limits = limits }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard address == nil else { return }
        let a = context.channel.remoteAddress?.ipAddress ?? "unknown"
        address = a
        openedAt = .now()
        admission = limits.opened(a, ObjectIdentifier(self), context.channel)
        switch admission {
        case .admitted: arm(context, limits.settings.headerTimeout)
        case .overAddress:
            limits.logger.debug("connection refused: too many from one address", metadata: ["client": .string(a)])
            context.close(promise: nil)
        case .overTotal:
            // Answered 503 at its first request head, or closed soon: over the cap it holds a
            // descriptor nobody else may take.
            arm(context, min(limits.settings.headerTimeout, limits.settings.overCapHeaderTimeout))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        if let a = address { limits.closed(a, ObjectIdentifier(self), refused: admission == .overTotal) }
        address = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    private func arm(_ context: ChannelHandlerContext, _ after: TimeAmount) {
        deadline?.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: after) {
            loopBound.value.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            if discarding { return }
            if admission == .overTotal {
                guard limits.promote(ObjectIdentifier(self), context.channel, openedAt: openedAt) else {
                    reject(context, .serviceUnavailable, "the service has too many connections; try again shortly", retryAfter: 5)
                    return
                }
                admission = .admitted
            }
            let limit = limits.settings.maxBody(for: (head.path ?? "").prefix { $0 != "?" })
            if let declared = head.headerFields[.contentLength].flatMap({ Int($0) }), declared > limit {
                reject(context, .contentTooLarge, "the body is larger than \(limit) bytes")
                return
            }
            // The whole request's deadline, from when it was awaited (the body still coming
            // leaves the connection among those a newcomer may take the place of).
            let since = limits.waitingSince(ObjectIdentifier(self)) ?? .now()
            arm(context, max(.seconds(1), limits.settings.bodyTimeout - (.now() - since)))
            context.fireChannelRead(data)
        case .body:
            if discarding { return }
            context.fireChannelRead(data)
        case .end:
            if discarding {
                context.close(promise: nil)
                return
            }
            deadline?.cancel()
            deadline = nil
            limits.waitsForRequest(ObjectIdentifier(self), context.channel, false)
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The answer to one request is out: the next request head has its own deadline.
        if case .end = unwrapOutboundIn(data), !discarding {
            arm(context, limits.settings.headerTimeout)
            limits.waitsForRequest(ObjectIdentifier(self), context.channel, true)
        }
        context.write(data, promise: promise)
    }

    /// Answers at once (`Connection: close`), drops the rest of the request, and closes at its
    /// end or after `linger`, whichever comes first.
    private func reject(_ context: ChannelHandlerContext, _ status: HTTPResponse.Status, _ message: String, retryAfter: Int? = nil) {
        discarding = true
        var fields = HTTPFields()
        let body = ByteBuffer(string: "{\"error\":\"\(message)\",\"code\":\"\(status == .serviceUnavailable ? "too_many_connections" : "too_large")\"}")
        fields[.contentType] = "application/json"
        fields[.contentLength] = String(body.readableBytes)
        fields[.connection] = "close"
        if let retryAfter { fields[.retryAfter] = String(retryAfter) }
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        arm(context, limits.settings.linger)
    }
}

import Foundation

/// How the core asks for bytes: a file path, a `file://` URL or an `http(s)://` URL.
/// The live implementation is libcurl (`NetCurl`); tests use an in-memory fake.
public protocol Fetching: Sendable {
    /// Performs one request. Blocking: callers run it off the UI thread.
    func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError>
    /// A large local file's bytes mapped rather than read (issue 14: a museum's file is never
    /// whole in memory beside its models); nil when `url` is not such a file, and `fetch`
    /// reads it as always. A failure is the same as `fetch`'s.
    func mapDocument(_ url: String, maxBytes: Int) -> Result<JSONBytes, FetchError>?
    /// An http(s) `request`'s body written to the file at `path` as it arrives, never whole in
    /// memory (issue 30: a 79 MB museum's download held 1.74× its size). The answer's `body` is
    /// empty and `saved` says what the file holds. A 304 or a failure leaves no file at `path`.
    /// nil when this fetcher cannot (the caller uses `fetch`).
    func download(_ request: FetchRequest, to path: String) -> Result<FetchResponse, FetchError>?
}

extension Fetching {
    public func mapDocument(_ url: String, maxBytes: Int) -> Result<JSONBytes, FetchError>? { nil }
    public func download(_ request: FetchRequest, to path: String) -> Result<FetchResponse, FetchError>? { nil }
}

/// A body written to a file rather than kept (`Fetching.download`): its length and its FNV-1a 64.
public struct SavedBody: Hashable, Sendable {
    public var bytes: Int
    public var fnv1a64: UInt64
    public init(bytes: Int, fnv1a64: UInt64) {
        self.bytes = bytes
        self.fnv1a64 = fnv1a64
    }
}

/// A switch that stops transfers in the middle (issue 45 #6: "save for offline" looked at its
/// cancel only between recordings, each up to 300 s). Set from any thread; the fetcher looks
/// at it as bytes arrive and about once a second while none do. Equal only to itself.
public final class FetchCancellation: @unchecked Sendable, Hashable {
    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    public static func == (a: FetchCancellation, b: FetchCancellation) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// One request. `url` is already resolved (see `URLResolver`).
public struct FetchRequest: Hashable, Sendable {
    public enum Method: String, Hashable, Sendable { case get = "GET", post = "POST", head = "HEAD", put = "PUT", delete = "DELETE" }

    public var url: String
    public var method: Method
    /// Request body (POST, PUT, DELETE), e.g. an Elasticsearch-style JSON query.
    public var body: [UInt8]?
    public var headers: [String: String]
    /// Revalidation: sent as If-None-Match / If-Modified-Since.
    public var etag: String?
    public var lastModified: String?
    /// Whole-transfer timeout.
    public var timeoutSeconds: Double
    /// Give up when the body exceeds this many bytes (hostile or wrong URLs).
    public var maxBytes: Int
    /// Hand back the body of an HTTP error answer (status 400 and above) instead of failing:
    /// a SOAP service reports its faults that way.
    public var errorBodies: Bool
    /// Stops the transfer when cancelled, in the middle of it (nil: it runs to its end or
    /// its timeout). The fetcher then fails it (`FetchCancellation.isCancelled` says why).
    public var cancellation: FetchCancellation?

    public init(
        url: String, method: Method = .get, body: [UInt8]? = nil, headers: [String: String] = [:],
        etag: String? = nil, lastModified: String? = nil, timeoutSeconds: Double = 20,
        maxBytes: Int = 256 * 1024 * 1024, errorBodies: Bool = false, cancellation: FetchCancellation? = nil
    ) {
        self.cancellation = cancellation
        self.errorBodies = errorBodies
        self.url = url
        self.method = method
        self.body = body
        self.headers = headers
        self.etag = etag
        self.lastModified = lastModified
        self.timeoutSeconds = timeoutSeconds
        self.maxBytes = maxBytes
    }
}

/// A successful response. `status` is 200 for files; 304 means "not modified" (empty body).
public struct FetchResponse: Hashable, Sendable {
    public var status: Int
    public var body: [UInt8]
    public var etag: String?
    public var lastModified: String?
    public var contentType: String?
    /// Where the body went instead of `body` (`Fetching.download`).
    public var saved: SavedBody?

    public init(
        status: Int, body: [UInt8], etag: String? = nil, lastModified: String? = nil, contentType: String? = nil, saved: SavedBody? = nil
    ) {
        self.status = status
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.saved = saved
    }
}

/// Why a fetch failed, in words a visitor or an IT person can act on.
public enum FetchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case fileNotFound(String)
    /// The server answered with an HTTP error status.
    case http(status: Int, url: String)
    /// DNS, refused connection, TLS: no answer at all.
    case unreachable(url: String, reason: String)
    case timedOut(url: String)
    case tooLarge(url: String, limit: Int)
    /// Anything else libcurl reports.
    case other(url: String, reason: String)

    public var description: String {
        switch self {
        case .fileNotFound(let p): return "file not found: \(p)"
        case .http(let s, let u): return "HTTP \(s) from \(u)"
        case .unreachable(let u, let r): return "cannot reach \(u): \(r)"
        case .timedOut(let u): return "timed out fetching \(u)"
        case .tooLarge(let u, let l): return "\(u) is larger than \(l) bytes"
        case .other(let u, let r): return "\(u): \(r)"
        }
    }
}

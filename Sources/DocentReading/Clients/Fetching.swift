/// How the core asks for bytes: a file path, a `file://` URL or an `http(s)://` URL.
/// The live implementation is libcurl (`NetCurl`); tests use an in-memory fake.
public protocol Fetching: Sendable {
    /// Performs one request. Blocking: callers run it off the UI thread.
    func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError>
    /// A large local file's bytes mapped rather than read (issue 14: a museum's file is never
    /// whole in memory beside its models); nil when `url` is not such a file, and `fetch`
    /// reads it as always. A failure is the same as `fetch`'s.
    func mapDocument(_ url: String, maxBytes: Int) -> Result<JSONBytes, FetchError>?
}

extension Fetching {
    public func mapDocument(_ url: String, maxBytes: Int) -> Result<JSONBytes, FetchError>? { nil }
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

    public init(
        url: String, method: Method = .get, body: [UInt8]? = nil, headers: [String: String] = [:],
        etag: String? = nil, lastModified: String? = nil, timeoutSeconds: Double = 20,
        maxBytes: Int = 256 * 1024 * 1024, errorBodies: Bool = false
    ) {
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

    public init(status: Int, body: [UInt8], etag: String? = nil, lastModified: String? = nil, contentType: String? = nil) {
        self.status = status
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
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

import CCurl
import CLazyLibs
import CShims
import DocentCore
import Foundation
import TwoCores

/// The live `Fetching` implementation: one libcurl easy handle per request.
///
/// - Plain paths (relative to the current directory, `~/` expanded) and `file://` URLs are read
///   as local files; `http://` and `https://` URLs are fetched over the network. Other schemes
///   are refused, and redirects may only lead to `http(s)`.
/// - HTTP statuses of 400 and above become `FetchError.http`; an error page is never returned
///   as a body. A 304 answer to a revalidation (`etag` / `lastModified`) is returned as
///   `FetchResponse(status: 304, body: [])`.
/// - Redirects are followed (at most 5). Compressed responses are decoded, and `maxBytes`
///   counts decoded bytes.
/// - Blocking: call it off the UI thread, and not from a Swift concurrency task (it would hold
///   one of the few cooperative threads for the whole transfer).
public struct CurlFetcher: Fetching {
    /// Upper bound on the time to establish a connection (DNS, TCP, TLS), in seconds. The
    /// request's own `timeoutSeconds` still caps the whole transfer.
    public var connectTimeoutSeconds: Double
    /// Sent as `User-Agent` unless the request sets one.
    public var userAgent: String

    /// - Parameters:
    ///   - connectTimeoutSeconds: see `connectTimeoutSeconds`.
    ///   - userAgent: see `userAgent`.
    public init(connectTimeoutSeconds: Double = 5, userAgent: String = "Docent/0.1 libcurl") {
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.userAgent = userAgent
    }

    /// Performs one request. Blocking.
    public func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError> {
        switch Target(request.url) {
        case .unsupported(let scheme):
            return .failure(.other(url: request.url, reason: "unsupported URL scheme \"\(scheme)\""))
        case .badFileURL:
            return .failure(.other(url: request.url, reason: "not a valid file:// URL"))
        case .file(let path):
            if let problem = Self.checkFile(path) { return .failure(problem) }
            // A regular file is read in one go (a large appData: no copying piece by piece
            // through libcurl's callbacks); anything else, and every failure, goes through
            // libcurl as before, so the messages stay the same.
            // libcurl is opened only here and below: a museum on disk starts without loading
            // it and the thirty libraries under it (whose opening held the dynamic loader's lock
            // while the guide's main thread waited to start a thread, issue 48).
            if request.method == .get, let response = Self.readRegularFile(path, maxBytes: request.maxBytes) { return .success(response) }
            guard CurlGlobal.initialized else { return .failure(Self.curlMissing(request)) }
            return perform(request, curlURL: "file://" + Self.percentEncodePath(path), filePath: path)
        case .http:
            guard CurlGlobal.initialized else { return .failure(Self.curlMissing(request)) }
            return perform(request, curlURL: request.url, filePath: nil)
        }
    }

    private static func curlMissing(_ request: FetchRequest) -> FetchError {
        .other(url: request.url, reason: "libcurl could not be initialised")
    }

    /// http(s) only: the body goes to `path` as it arrives (created at its first byte, removed
    /// unless the transfer succeeds with a body), hashed on the way (FNV-1a 64).
    public func download(_ request: FetchRequest, to path: String) -> Result<FetchResponse, FetchError>? {
        guard CurlGlobal.initialized, case .http = Target(request.url), request.method == .get else { return nil }
        return perform(request, curlURL: request.url, filePath: nil, bodyFile: path)
    }

    public func mapDocument(_ url: String, maxBytes: Int) -> Result<JSONBytes, FetchError>? {
        guard case .file(let path) = Target(url) else { return nil }
        if let problem = Self.checkFile(path) { return .failure(problem) }
        return MappedDocument.open(path, maxBytes: maxBytes)
    }

    /// The absolute path a plain path or `file:` URL reads (nil for http(s) and anything else),
    /// as `fetch` resolves it: what a prepared copy of the museum is checked against.
    public static func localPath(of url: String) -> String? {
        if case .file(let path) = Target(url) { return path }
        return nil
    }

    // MARK: - Transfer

    private func perform(_ request: FetchRequest, curlURL: String, filePath: String?, bodyFile: String? = nil) -> Result<FetchResponse, FetchError> {
        let displayURL = request.url
        guard let curl = curl_easy_init() else {
            return .failure(.other(url: displayURL, reason: "curl_easy_init failed"))
        }
        let state = TransferState(maxBytes: request.maxBytes, file: bodyFile, cancellation: request.cancellation)
        // Whatever happens below, a file that is not handed out as the body is removed.
        var keepFile = false
        defer { state.closeFile(keep: keepFile) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer {
            curl_easy_cleanup(curl)
            curl_slist_free_all(headerList)
            errorBuffer.deallocate()
        }

        var setupFailure: CURLcode?
        func set(_ rc: CURLcode) { if rc != CURLE_OK && setupFailure == nil { setupFailure = rc } }

        set(cs_curl_setopt_str(curl, CURLOPT_URL, curlURL))
        set(cs_curl_setopt_ptr(curl, CURLOPT_ERRORBUFFER, errorBuffer))
        set(cs_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1))
        set(cs_curl_setopt_long(curl, CURLOPT_FAILONERROR, request.errorBodies ? 0 : 1))
        set(cs_curl_setopt_str(curl, CURLOPT_PROTOCOLS_STR, filePath == nil ? "http,https" : "file"))
        set(cs_curl_setopt_str(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        set(cs_curl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 1))
        set(cs_curl_setopt_long(curl, CURLOPT_MAXREDIRS, 5))
        // "" = offer every encoding libcurl can decode; the write callback sees decoded bytes.
        set(cs_curl_setopt_str(curl, CURLOPT_ACCEPT_ENCODING, ""))

        let connectMs = Self.milliseconds(connectTimeoutSeconds)
        let totalMs = Self.milliseconds(request.timeoutSeconds)
        set(cs_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, totalMs > 0 && connectMs > 0 ? min(connectMs, totalMs) : connectMs))
        set(cs_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, totalMs))
        if request.maxBytes > 0 {
            // Refuses early when the server announces a larger Content-Length (CURLE_FILESIZE_EXCEEDED).
            set(cs_curl_setopt_off(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBytes)))
        }

        switch request.method {
        case .get:
            set(cs_curl_setopt_long(curl, CURLOPT_HTTPGET, 1))
        case .head:
            set(cs_curl_setopt_long(curl, CURLOPT_NOBODY, 1))
        case .post where filePath != nil, .put where filePath != nil, .delete where filePath != nil:
            break  // a file is read whatever the method
        case .delete where request.body == nil:
            set(cs_curl_setopt_str(curl, CURLOPT_CUSTOMREQUEST, "DELETE"))
        case .post, .put, .delete:
            let body = request.body ?? []
            set(cs_curl_setopt_long(curl, CURLOPT_POST, 1))
            // PUT and DELETE send their body the way POST does, under their own name.
            if request.method != .post { set(cs_curl_setopt_str(curl, CURLOPT_CUSTOMREQUEST, request.method.rawValue)) }
            set(cs_curl_setopt_off(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            // COPYPOSTFIELDS copies POSTFIELDSIZE bytes now, so the body may contain NULs and
            // need not outlive this call.
            if body.isEmpty {
                set(cs_curl_setopt_str(curl, CURLOPT_COPYPOSTFIELDS, ""))
            } else {
                body.withUnsafeBytes { raw in
                    set(cs_curl_setopt_ptr(curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress)))
                }
            }
        }

        if filePath == nil {
            var lines = ["User-Agent: \(userAgent)"]
            var hasContentType = false
            for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
                let cleanName = Self.headerSafe(name).trimmingCharacters(in: .whitespaces)
                guard !cleanName.isEmpty, !cleanName.contains(":") else { continue }
                if cleanName.lowercased() == "content-type" { hasContentType = true }
                if cleanName.lowercased() == "user-agent" { lines.removeFirst() }
                let cleanValue = Self.headerSafe(value).trimmingCharacters(in: .whitespaces)
                // "Name;" is libcurl's way to send a header with an empty value.
                lines.append(cleanValue.isEmpty ? "\(cleanName);" : "\(cleanName): \(cleanValue)")
            }
            if request.method == .post || request.body != nil {
                // libcurl would default to application/x-www-form-urlencoded, which
                // Elasticsearch-style JSON endpoints refuse (406). The bodies Docent posts are JSON.
                if !hasContentType { lines.append("Content-Type: application/json") }
                lines.append("Expect:")  // no "100-continue" round trip for large bodies
            }
            if let etag = request.etag, !etag.isEmpty {
                lines.append("If-None-Match: \(Self.headerSafe(etag))")
            }
            if let lastModified = request.lastModified, !lastModified.isEmpty {
                lines.append("If-Modified-Since: \(Self.headerSafe(lastModified))")
            }
            for line in lines {
                guard let appended = cs_curl_slist_append(headerList, line) else {
                    return .failure(.other(url: displayURL, reason: "out of memory building request headers"))
                }
                headerList = appended
            }
            set(cs_curl_setopt_slist(curl, CURLOPT_HTTPHEADER, headerList))
        }

        let userdata = Unmanaged.passUnretained(state).toOpaque()
        set(cs_curl_setopt_write_cb(curl, userdata) { pointer, size, count, userdata in
            guard let userdata else { return 0 }
            let state = Unmanaged<TransferState>.fromOpaque(userdata).takeUnretainedValue()
            return state.receiveBody(pointer, size * count)
        })
        set(cs_curl_setopt_header_cb(curl, userdata) { pointer, size, count, userdata in
            guard let userdata else { return 0 }
            let state = Unmanaged<TransferState>.fromOpaque(userdata).takeUnretainedValue()
            return state.receiveHeader(pointer, size * count)
        })

        if request.cancellation != nil {
            // Looked at about once a second even while no byte comes (a stalled server).
            set(cs_curl_setopt_xferinfo_cb(curl, userdata) { userdata, _, _, _, _ in
                guard let userdata else { return 1 }
                return Unmanaged<TransferState>.fromOpaque(userdata).takeUnretainedValue().isCancelled ? 1 : 0
            })
        }

        if let setupFailure {
            return .failure(.other(url: displayURL, reason: "libcurl setup failed: \(Self.describe(setupFailure))"))
        }

        let rc = withExtendedLifetime(state) { curl_easy_perform(curl) }

        var status = 0
        cs_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)

        if rc != CURLE_OK {
            if state.isCancelled { return .failure(.other(url: displayURL, reason: "cancelled")) }
            if let failure = state.fileFailure { return .failure(.other(url: displayURL, reason: "cannot save the download: \(failure)")) }
            return .failure(mapError(rc, status: status, url: displayURL, filePath: filePath, errorBuffer: errorBuffer, state: state))
        }
        if filePath != nil {
            return .success(FetchResponse(status: 200, body: state.body))
        }
        if status >= 400 {
            // Only when asked for (FAILONERROR off): the caller reads the status.
            if request.errorBodies { return .success(FetchResponse(status: status, body: state.body)) }
            return .failure(.http(status: status, url: displayURL))  // never hand out an error page
        }
        var contentType = state.headers["content-type"]
        if contentType == nil {
            var pointer: UnsafePointer<CChar>?
            if cs_curl_getinfo_str(curl, CURLINFO_CONTENT_TYPE, &pointer) == CURLE_OK, let pointer {
                contentType = String(cString: pointer)
            }
        }
        var saved: SavedBody?
        if bodyFile != nil, status != 304 {
            // An empty body still makes a file: the download is what the file holds.
            guard state.finishFile() else {
                return .failure(.other(url: displayURL, reason: "cannot save the download: \(state.fileFailure ?? "write failed")"))
            }
            saved = SavedBody(bytes: state.fileBytes, fnv1a64: state.fileHash)
            keepFile = true
        }
        return .success(
            FetchResponse(
                status: status,
                body: status == 304 ? [] : state.body,
                etag: state.headers["etag"],
                lastModified: state.headers["last-modified"],
                contentType: contentType, saved: saved))
    }

    private func mapError(
        _ rc: CURLcode, status: Int, url: String, filePath: String?,
        errorBuffer: UnsafeMutablePointer<CChar>, state: TransferState
    ) -> FetchError {
        if state.exceededLimit || rc == CURLE_FILESIZE_EXCEEDED {
            return .tooLarge(url: url, limit: state.maxBytes)
        }
        let text = Self.describe(rc)
        // curl's detail often ends with the code's own text ("Failed to connect to … port 9
        // after 0 ms: Couldn't connect to server"): it is said once (issue 33 #18).
        var detail = String(cString: errorBuffer).trimmingCharacters(in: .whitespacesAndNewlines)
        for tail in [": " + text, text] where detail.count > tail.count && detail.lowercased().hasSuffix(tail.lowercased()) {
            detail = String(detail.dropLast(tail.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        let reason = detail.isEmpty || detail.lowercased() == text.lowercased() ? text : "\(text) (\(detail))"
        switch rc {
        case CURLE_HTTP_RETURNED_ERROR:
            return .http(status: status > 0 ? status : Self.statusFromErrorText(detail) ?? 0, url: url)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(url: url)
        case CURLE_FILE_COULDNT_READ_FILE:
            return .fileNotFound(filePath ?? url)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT,
            CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
            CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return .unreachable(url: url, reason: reason)
        default:
            return .other(url: url, reason: reason)
        }
    }

    // MARK: - Helpers

    private static func describe(_ rc: CURLcode) -> String {
        guard let text = curl_easy_strerror(rc) else { return "curl error \(rc.rawValue)" }
        return String(cString: text)
    }

    /// "The requested URL returned error: 404" → 404 (used only if RESPONSE_CODE is missing).
    private static func statusFromErrorText(_ text: String) -> Int? {
        guard let last = text.split(separator: " ").last else { return nil }
        return Int(last)
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }  // 0 = no limit for libcurl
        return max(1, Int((seconds * 1000).rounded(.up).clamped(to: 1...Double(Int32.max))))
    }

    /// Removes CR and LF so a value cannot inject extra header lines.
    private static func headerSafe(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }.map(Character.init))
    }

    /// Percent-encodes every byte of `path` except unreserved characters and `/`, for `file://`.
    static func percentEncodePath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A clear error before libcurl sees the path: libcurl answers a directory with an empty
    /// body and success.
    /// The whole of a regular file no larger than `maxBytes`, read with one allocation; nil
    /// for anything else (a pipe, a device, too large, unreadable), which libcurl then reads.
    private static func readRegularFile(_ path: String, maxBytes: Int) -> FetchResponse? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size >= 0, Int(info.st_size) <= maxBytes else { return nil }
        let size = Int(info.st_size)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            // A large file is read in two halves at once, one on another core: copying a
            // hundred megabytes out of the page cache (and faulting in the pages it lands on)
            // takes tens of milliseconds at the very start of the guide. Anything short of the
            // whole (a file cut meanwhile, an error) is read again from the start, one piece
            // after another, as below.
            if size >= Self.splitReadBytes, let base = buffer.baseAddress, Self.readHalves(fd, base, size) {
                count = size
                return
            }
            while count < size, let base = buffer.baseAddress {
                let n = read(fd, base + count, size - count)
                if n < 0, errno == EINTR { continue }
                if n <= 0 {
                    failed = n < 0
                    break
                }
                count += n
            }
        }
        // Shorter than it said (truncated meanwhile) is what is there; an error is libcurl's to report.
        return failed ? nil : FetchResponse(status: 200, body: bytes)
    }

    static let splitReadBytes = 16 << 20

    /// Reads `size` bytes at offset 0 with two `pread`s side by side; false unless both read all.
    private static func readHalves(_ fd: Int32, _ base: UnsafeMutablePointer<UInt8>, _ size: Int) -> Bool {
        func readAll(_ from: Int, _ to: Int) -> Bool {
            var at = from
            while at < to {
                let n = pread(fd, base + at, to - at, off_t(at))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return false }
                at += n
            }
            return true
        }
        let half = size / 2
        var first = false
        var second = false
        TwoCores.both({ first = readAll(0, half) }, { second = readAll(half, size) })
        return first && second
    }

    private static func checkFile(_ path: String) -> FetchError? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .fileNotFound(path)
        }
        if isDirectory.boolValue {
            return .other(url: path, reason: "is a directory, not a file")
        }
        return nil
    }
}

// MARK: - What a URL string means

private enum Target {
    case file(String)
    case http
    case unsupported(String)
    case badFileURL

    init(_ url: String) {
        let lower = url.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            self = .http
        } else if lower.hasPrefix("file:") {
            // file:///abs/path, file://localhost/abs/path; percent-escapes decoded.
            guard let parsed = URL(string: url), parsed.isFileURL,
                parsed.host == nil || parsed.host == "" || parsed.host == "localhost"
            else {
                self = .badFileURL
                return
            }
            let path = parsed.path
            self = path.isEmpty ? .badFileURL : .file(path)
        } else if let schemeEnd = url.range(of: "://"), Target.looksLikeScheme(url[url.startIndex..<schemeEnd.lowerBound]) {
            self = .unsupported(String(url[url.startIndex..<schemeEnd.lowerBound]))
        } else {
            self = .file(Target.absolutePath(url))
        }
    }

    private static func looksLikeScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    private static func absolutePath(_ path: String) -> String {
        var path = path
        if path == "~" || path.hasPrefix("~/") {
            path = NSString(string: path).expandingTildeInPath
        }
        if !path.hasPrefix("/") {
            let cwd = FileManager.default.currentDirectoryPath
            path = cwd.hasSuffix("/") ? cwd + path : cwd + "/" + path
        }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

// MARK: - Per-transfer state, reached from the C callbacks

/// Lives for one `curl_easy_perform`, on the calling thread only.
private final class TransferState {
    let maxBytes: Int
    var body: [UInt8] = []
    var exceededLimit = false
    /// Where the body goes instead of `body` (`CurlFetcher.download`), opened at its first byte.
    let file: String?
    private var fd: Int32 = -1
    private(set) var fileBytes = 0
    private(set) var fileHash = FNV1a.offset64
    /// Why the file could not be written (the transfer is aborted).
    private(set) var fileFailure: String?
    /// Headers of the last response (lower-cased names), reset at each status line so that
    /// redirects and "100 Continue" do not leak into the final answer.
    var headers: [String: String] = [:]

    /// `FetchRequest.cancellation`.
    let cancellation: FetchCancellation?
    var isCancelled: Bool { cancellation?.isCancelled ?? false }

    init(maxBytes: Int, file: String? = nil, cancellation: FetchCancellation? = nil) {
        self.maxBytes = maxBytes
        self.file = file
        self.cancellation = cancellation
    }

    /// Creates (or empties) the file; false with `fileFailure` set when it cannot.
    private func openFile() -> Bool {
        guard fd < 0, let file else { return fd >= 0 }
        fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { fileFailure = String(cString: strerror(errno)) }
        return fd >= 0
    }

    /// The body's end: the file exists (an empty body makes an empty file) and is closed.
    func finishFile() -> Bool {
        guard fileFailure == nil, openFile() else { return false }
        let ok = close(fd) == 0
        fd = -1
        if !ok { fileFailure = String(cString: strerror(errno)) }
        return ok
    }

    /// Closes the file if open, and removes it unless it is the answer.
    func closeFile(keep: Bool) {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        if !keep, let file { unlink(file) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard openFile(), var at = bytes.baseAddress else { return false }
        var left = bytes.count
        while left > 0 {
            let n = Glibc.write(fd, at, left)
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                fileFailure = n < 0 ? String(cString: strerror(errno)) : "nothing written"
                return false
            }
            at += n
            left -= n
        }
        fileHash = FNV1a.hash64(bytes, continuing: fileHash)
        fileBytes += bytes.count
        return true
    }

    func receiveBody(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard count > 0 else { return 0 }
        guard let pointer, !isCancelled else { return 0 }
        if (file == nil ? body.count : fileBytes) + count > maxBytes {
            exceededLimit = true
            return 0  // abort: CURLE_WRITE_ERROR
        }
        if file != nil {
            // To the file as it comes; nothing of it stays in memory.
            return write(UnsafeRawBufferPointer(start: pointer, count: count)) ? count : 0
        }
        // The announced length at once (within the limit): a large museum's body grown by
        // doubling held up to twice its size while it came (issue 14).
        if body.capacity == 0, let announced = headers["content-length"].flatMap({ Int($0) }), announced > count {
            body.reserveCapacity(min(announced, maxBytes))
        }
        pointer.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        }
        return count
    }

    func receiveHeader(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let pointer, count > 0 else { return count }
        let line = pointer.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return count
        }
        guard let colon = line.firstIndex(of: ":") else { return count }
        let name = line[line.startIndex..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        if !name.isEmpty { headers[name] = value }
        return count
    }
}

// MARK: - Process-wide setup

private enum CurlGlobal {
    /// Swift initialises a global `let` exactly once, thread-safely (swift_once).
    static let initialized: Bool = {
        // libcurl is opened on first use, not at every start (issue 48: a local museum needs none).
        guard docent_lazy_load(DOCENT_LAZY_CURL) != 0 else { return false }
        cs_curl_ignore_sigpipe()  // CURLOPT_NOSIGNAL=1 leaves SIGPIPE to us
        return curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}

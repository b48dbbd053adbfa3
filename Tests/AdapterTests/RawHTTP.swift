import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP/1.1 by hand over a socket, for the attacks a client library will not make: a chosen
/// source address in 127.0.0.0/8 (one attacker, one bystander), half-sent heads, a body sent
/// by a client that does not read. Loopback only; every call has a timeout.
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// A connected socket to 127.0.0.1:`port`, from `source` (an address of 127.0.0.0/8).
    static func connect(port: Int, from source: String = "127.0.0.1", timeoutSeconds: Int = 10) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0 else {
            close(fd)
            throw Failure(description: "bind \(source): errno \(errno)")
        }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect: errno \(errno)")
        }
        return fd
    }

    /// Sends all of `bytes`; false when the peer closed or the send timed out.
    @discardableResult
    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// Everything until the peer closes (or the receive timeout).
    static func readToEnd(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return out
    }

    static func parse(_ bytes: [UInt8]) throws -> Answer {
        guard let end = bytes.indices.first(where: { i in i + 3 < bytes.count && bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 }) else {
            throw Failure(description: "no complete answer (\(bytes.count) bytes)")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = head.first?.split(separator: " ") ?? []
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "not an HTTP answer: \(head.first ?? "")") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return Answer(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
    }

    /// One request on its own connection (`Connection: close`), from `source`.
    static func request(
        port: Int, _ method: String, _ path: String, body: [UInt8] = [], headers: [String: String] = [:], from source: String = "127.0.0.1"
    ) throws -> Answer {
        let fd = try connect(port: port, from: source)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        head += "\r\n"
        guard send(fd, Array(head.utf8) + body) else { throw Failure(description: "the service closed before the request was sent") }
        return try parse(readToEnd(fd))
    }

    /// Raises this process's descriptor limit to `n` (or the hard limit): the tests open
    /// more sockets than the default 1,024.
    static func raiseDescriptorLimit(to n: Int) {
        var l = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &l)
        l.rlim_cur = min(rlim_t(n), l.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &l)
    }

    /// The given fraction (0.99: p99) of `samples`, in the samples' unit.
    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        let s = samples.sorted()
        guard !s.isEmpty else { return .infinity }
        return s[min(s.count - 1, Int((Double(s.count) * p).rounded(.up)) - 1)]
    }
}

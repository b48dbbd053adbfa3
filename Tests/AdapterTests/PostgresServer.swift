import ChildProcessSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL server of the tests' own: Debian's `postgresql` binaries, `initdb` into a
/// temporary directory (as the `postgres` user when the tests run as root, since PostgreSQL
/// refuses root), listening on 127.0.0.1 and a free port only, stopped and removed at the end.
/// `pg_ctl -w` waits for the server itself, so nothing here sleeps.
final class PostgresServer: @unchecked Sendable {
    let dir: String
    let port: Int
    let bin: String
    private var running = false

    var data: String { dir + "/data" }

    /// `postgres://postgres@127.0.0.1:PORT/NAME?sslmode=disable`.
    func url(_ database: String) -> String { "postgres://postgres@127.0.0.1:\(port)/\(database)?sslmode=disable" }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The newest `/usr/lib/postgresql/N/bin` with `initdb` and `pg_ctl`.
    static func binDirectory() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted(by: >)
        return versions.map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") && FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") }
    }

    init() throws {
        guard let bin = Self.binDirectory() else {
            throw Failure(description: "PostgreSQL's server is not installed (Debian's postgresql package): `make test` installs it")
        }
        self.bin = bin
        dir = NSTemporaryDirectory() + "docent-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        port = try Self.freePort()
        if getuid() == 0 {
            guard let pw = getpwnam("postgres") else {
                throw Failure(description: "running as root, but there is no 'postgres' user to run PostgreSQL as (Debian's postgresql package makes it)")
            }
            guard chown(dir, pw.pointee.pw_uid, pw.pointee.pw_gid) == 0 else { throw Failure(description: "cannot give \(dir) to the postgres user") }
        }
        try run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"])
        try start()
    }

    /// Starts (or starts again) the server and waits until it accepts connections.
    func start() throws {
        // fsync off: the tests stop the server cleanly (pg_ctl), and they are faster for it.
        let options = "-h 127.0.0.1 -p \(port) -k \(dir) -c fsync=off -c max_connections=200"
        try run("pg_ctl", ["-D", data, "-l", dir + "/server.log", "-o", options, "-w", "-t", "60", "start"])
        running = true
    }

    /// Stops the server (fast: open transactions are rolled back, connections closed).
    func stop() throws {
        guard running else { return }
        try run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"])
        running = false
    }

    /// A new, empty database.
    func createDatabase() throws -> String {
        let name = "pulse_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name])
        return name
    }

    /// Runs a SQL statement with psql and answers its output (unaligned, tuples only).
    @discardableResult
    func psql(_ database: String, _ sql: String) throws -> String {
        try run("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
    }

    /// Stops the server and removes its files.
    func destroy() {
        try? stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    deinit { destroy() }

    /// Runs one of PostgreSQL's programs (as `postgres` when root) and answers its standard output.
    @discardableResult
    private func run(_ program: String, _ arguments: [String]) throws -> String {
        let p = Process()
        let exe = FileManager.default.isExecutableFile(atPath: bin + "/" + program) ? bin + "/" + program : "/usr/bin/" + program
        let command = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", exe] + arguments : [exe] + arguments
        // Through bash, which closes every descriptor above 2 first: the server pg_ctl starts
        // outlives it, and one that inherited Foundation's descriptors would keep the caller
        // waiting forever (as scripts/test-nginx.sh explains).
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", Self.closeAndExec, "bash"] + command
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        let (output, errBytes) = try runReadingBoth(p)
        let errText = String(decoding: errBytes, as: UTF8.self)
        guard p.exitCode == 0 else {
            let log = (try? String(contentsOfFile: dir + "/server.log", encoding: .utf8)).map { "\nserver log:\n" + $0.suffix(2000) } ?? ""
            throw Failure(description: "\(program) \(arguments.joined(separator: " ")) failed (\(p.exitCode)): \(errText)\(log)")
        }
        return String(decoding: output, as: UTF8.self)
    }

    static let closeAndExec = """
        for fd in /proc/self/fd/*; do fd=${fd##*/}; case "$fd" in ''|*[!0-9]*) continue;; esac; [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null; done; exec "$@"
        """

    /// A port nobody listens on now (the kernel's choice).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0 else { throw Failure(description: "bind() failed") }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

/// Runs `p` to its end with its standard output and error piped, both read to the end before
/// waiting (so a chatty program never blocks on a full pipe); answers them.
func runReadingBoth(_ p: Process) throws -> (out: Data, err: Data) {
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let errData = LockedData()
    let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    if !p.waitForEnd(within: 120) { p.stopWithin(5) }
    return (output, errData.waitForValue())
}

/// Data handed from one thread to another, waited for with a condition (not a sleep).
final class LockedData: @unchecked Sendable {
    private let cond = NSCondition()
    private var value: Data?
    func set(_ d: Data) {
        cond.lock()
        value = d
        cond.broadcast()
        cond.unlock()
    }
    func waitForValue() -> Data {
        cond.lock()
        defer { cond.unlock() }
        while value == nil { cond.wait() }
        return value ?? Data()
    }
}

import Foundation
import XCTest

/// What every test class that runs against PostgreSQL needs, once: a server of its own for the
/// whole class (started before its first test, removed after its last; a test class's server is
/// never another's), a temporary directory per test, and the services and stores a test opened,
/// stopped and closed at its end. A server that could not start fails each test that asks for
/// it, with the reason (`server()`), rather than the whole class.
class PostgresTestCase: XCTestCase {
    /// Per test class (the subclass, `ObjectIdentifier(self)` in a class method): its server, or
    /// why it did not start. Tests of a process run one at a time.
    nonisolated(unsafe) private static var servers: [ObjectIdentifier: Result<PostgresServer, PostgresServer.Failure>] = [:]

    /// This test's directory, made before it and removed after it.
    var tempDir = ""
    /// `docent-pulse` processes this test started: stopped at its end.
    var services: [PulseServiceProcess] = []
    /// Stores and the like this test opened: closed at its end, before the services stop.
    var closers: [() -> Void] = []

    /// Where `database(_:)` puts a test's store.
    enum Store { case sqlite, postgres }

    override class func setUp() {
        super.setUp()
        do {
            servers[ObjectIdentifier(self)] = .success(try PostgresServer())
        } catch {
            servers[ObjectIdentifier(self)] = .failure(PostgresServer.Failure(description: "\(error)"))
        }
    }

    override class func tearDown() {
        if case .success(let pg)? = servers.removeValue(forKey: ObjectIdentifier(self)) { pg.destroy() }
        super.tearDown()
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        tempDir = NSTemporaryDirectory() + "docent-\(String(describing: type(of: self)))-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tempDir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        for c in closers { c() }
        closers = []
        for s in services { s.stop() }
        services = []
        try? FileManager.default.removeItem(atPath: tempDir)
        try super.tearDownWithError()
    }

    /// This class's PostgreSQL server; throws why it did not start.
    func server() throws -> PostgresServer {
        switch Self.servers[ObjectIdentifier(type(of: self))] {
        case .success(let pg)?: return pg
        case .failure(let f)?: throw f
        case nil: throw PostgresServer.Failure(description: "PostgreSQL did not start")
        }
    }

    /// A new, empty store's `--database` value: a SQLite file in this test's directory, or a
    /// new database on this class's server.
    func database(_ store: Store) throws -> String {
        switch store {
        case .sqlite: return "sqlite:" + tempDir + "/pulse-\(UUID().uuidString.prefix(8)).sqlite"
        case .postgres:
            let pg = try server()
            return pg.url(try pg.createDatabase())
        }
    }
}

import DocentCore
import Foundation
import GRDB
import StateStore
import XCTest

/// Settings are saved on the writer's thread: the caller never waits on SQLite, bursts are
/// one write, the last value wins, nothing queued is lost at quit, a failure is said once.
final class PersistenceWriterTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "docent-writer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    /// A store that holds its first save until the test lets it go.
    final class GatedStore: SettingsStoring, @unchecked Sendable {
        let inner: SettingsStoring
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        var first = true
        init(_ inner: SettingsStoring) { self.inner = inner }
        func load() -> Result<PersistedSettings?, LoadFailure> { inner.load() }
        func save(_ settings: PersistedSettings) -> Result<Void, LoadFailure> {
            if first {
                first = false
                entered.signal()
                gate.wait()
            }
            return inner.save(settings)
        }
    }

    func testABurstIsOneWriteAndTheLastValueWins() throws {
        let store = try SQLiteSettingsStore.open(path: dir + "/state.sqlite").get()
        let gated = GatedStore(store)
        let writer = PersistenceWriter(store: gated) { XCTFail("no failure expected: \($0)") }
        writer.save(PersistedSettings(lastTab: .map, introSeen: true))
        XCTAssertEqual(gated.entered.wait(timeout: .now() + 10), .success, "the first save started")
        // While that save is held, fifty more arrive: the caller is never held.
        for i in 0..<50 { writer.save(PersistedSettings(lastTab: i % 2 == 1 ? .tours : .info, seenMessageIDs: [i], introSeen: true)) }
        XCTAssertFalse(writer.flush(timeout: 0.05), "still held: not written yet")
        gated.gate.signal()
        XCTAssertTrue(writer.flush(timeout: 10))
        XCTAssertEqual(writer.writes, 2, "the held one, then only the latest of the burst")
        let saved = try XCTUnwrap(try store.load().get())
        XCTAssertEqual(saved.lastTab, .tours)
        XCTAssertEqual(saved.seenMessageIDs, [49], "the last queued value")
        writer.stop(timeout: 1)
    }

    func testALockedDatabaseDoesNotHoldTheCallerAndNothingIsLost() throws {
        let path = dir + "/state.sqlite"
        let store = try SQLiteSettingsStore.open(path: path).get()
        // Another program holds the database.
        let other = try DatabaseQueue(path: path)
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            try? other.inDatabase { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                locked.signal()
                release.wait()
                try db.execute(sql: "COMMIT")
            }
        }
        holder.start()
        XCTAssertEqual(locked.wait(timeout: .now() + 10), .success)
        let writer = PersistenceWriter(store: store) { XCTFail("the lock is released within the busy timeout: \($0)") }
        writer.save(PersistedSettings(language: .spanish, introSeen: true))  // returns at once
        XCTAssertFalse(writer.flush(timeout: 0.05), "the write waits for the lock, not the caller")
        release.signal()
        XCTAssertTrue(writer.flush(timeout: 10))
        XCTAssertEqual(try store.load().get()?.language, .spanish)
        writer.stop(timeout: 1)
    }

    func testAFailureIsReportedOnce() {
        let store = MemoryStore()
        store.failure = LoadFailure("database is locked")
        let reports = Reports()
        let writer = PersistenceWriter(store: store) { reports.add($0) }
        for _ in 0..<3 {
            writer.save(PersistedSettings())
            XCTAssertTrue(writer.flush(timeout: 10))
        }
        XCTAssertEqual(reports.all, ["database is locked"])
        XCTAssertEqual(writer.writes, 3)
        writer.stop(timeout: 1)
    }

    final class MemoryStore: SettingsStoring, @unchecked Sendable {
        var failure: LoadFailure?
        func load() -> Result<PersistedSettings?, LoadFailure> { .success(nil) }
        func save(_ settings: PersistedSettings) -> Result<Void, LoadFailure> { failure.map { .failure($0) } ?? .success(()) }
    }

    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) {
            lock.lock()
            items.append(s)
            lock.unlock()
        }
        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return items
        }
    }
}

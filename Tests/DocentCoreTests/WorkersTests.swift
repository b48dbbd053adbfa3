import Foundation
import TwoCores
import XCTest

/// The effects' threads (`Workers`): one kept for the next work, a new one only when every
/// thread is busy, and an idle one ending after its time.
final class WorkersTests: XCTestCase {
    /// Waits (polling, bounded) until `condition` holds.
    private func eventually(_ what: String, within seconds: TimeInterval = 10, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return XCTFail("never: \(what)") }
            usleep(2_000)
        }
    }

    func testWorkOneAfterAnotherRunsOnOneThread() {
        let workers = Workers(idleTimeout: 30)
        let threads = Seen()
        for k in 0..<20 {
            // The last work's thread back to waiting (as between two Pulse checks).
            if k > 0 { eventually("the thread idle again") { workers.threadsIdle == 1 } }
            let done = DispatchSemaphore(value: 0)
            workers.run {
                threads.insert("\(pthread_self())")
                done.signal()
            }
            done.wait()
        }
        XCTAssertEqual(workers.threadsMade, 1, "20 works, one after another")
        XCTAssertEqual(threads.count, 1)
        XCTAssertEqual(workers.threadsLive, 1, "kept for the next")
    }

    func testWorkNeverWaitsBehindBusyWork() {
        let workers = Workers(idleTimeout: 30)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        // Three works that block until released: each must be running at once.
        for _ in 0..<3 {
            workers.run {
                started.signal()
                release.wait()
            }
        }
        for k in 0..<3 {
            XCTAssertEqual(started.wait(timeout: .now() + 10), .success, "work \(k + 1) of 3 started while the others block")
        }
        XCTAssertEqual(workers.threadsMade, 3)
        for _ in 0..<3 { release.signal() }
        // Idle again, the three take the next works without a new thread.
        eventually("the three idle") { workers.threadsIdle == 3 }
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<3 { workers.run { done.signal() } }
        for _ in 0..<3 { XCTAssertEqual(done.wait(timeout: .now() + 10), .success) }
        XCTAssertEqual(workers.threadsMade, 3, "no thread made while three waited")
    }

    func testAnIdleThreadEndsAndTheNextWorkMakesOne() {
        let workers = Workers(idleTimeout: 0.05)
        let done = DispatchSemaphore(value: 0)
        workers.run { done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        eventually("the idle thread ended") { workers.threadsLive == 0 && workers.threadsIdle == 0 }
        workers.run { done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(workers.threadsMade, 2)
    }

    private final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var values = Set<String>()
        func insert(_ v: String) { lock.withLock { _ = values.insert(v) } }
        var count: Int { lock.withLock { values.count } }
    }
}

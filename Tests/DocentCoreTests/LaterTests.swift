import Foundation
import Synchronization
import TwoCores
import XCTest

/// `Later`: the work runs on a thread of its own while the caller goes on, and every reader
/// of its value waits for it and gets the same result.
final class LaterTests: XCTestCase {
    func testTheWorkRunsOnAnotherThreadWhileTheCallerGoesOn() {
        let caller = "\(pthread_self())"
        let release = DispatchSemaphore(value: 0)
        let later = Later { () -> String in
            // Held until the caller has gone on: were the work run in `init`, this would
            // never return (the test would hang, not pass).
            release.wait()
            return "\(pthread_self())"
        }
        release.signal()
        XCTAssertNotEqual(later.value, caller)
    }

    func testEveryReaderGetsTheOneResult() {
        let runs = Counter()
        let later = Later { () -> Int in
            runs.add()
            return 42
        }
        let readers = 8
        let got = Counter()
        DispatchQueue.concurrentPerform(iterations: readers) { _ in
            if later.value == 42 { got.add() }
        }
        XCTAssertEqual(later.value, 42)
        XCTAssertEqual(got.count, readers)
        XCTAssertEqual(runs.count, 1, "the work ran once")
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    var count: Int { lock.withLock { n } }
    func add() { lock.withLock { n += 1 } }
}

/// `TwoCores.lowPriority`: the work runs on a thread of its own, at the background priority,
/// and the caller does not wait for it.
final class LowPriorityTests: XCTestCase {
    func testTheWorkRunsOnAThreadOfItsOwnAtTheLowestPriorityUnwaited() {
        let caller = "\(pthread_self())"
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let seen = Mutex<(thread: String, background: Bool)?>(nil)
        TwoCores.lowPriority {
            // Held until the caller has gone on: were it run before `lowPriority` returned,
            // the test would hang, not pass.
            release.wait()
            seen.withLock { $0 = ("\(pthread_self())", Thread.current.qualityOfService == .background) }
            done.signal()
        }
        release.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the work never ran")
        let ran = seen.withLock { $0 }
        XCTAssertNotEqual(ran?.thread, caller)
        XCTAssertEqual(ran?.background, true)
    }
}

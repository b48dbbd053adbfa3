import DocentApp
import DocentCore
import DocentReading
import Foundation
@testable import GuideShell
import NetCurl
import Synchronization
import XCTest

/// What quitting waits for: the work that saves or sends (bounded by the shutdown's 2 s), not
/// the work whose result only a running guide can use (the search index, which took the
/// startup bench's exec → exit from under 70 ms to 136 ms on SampleData).
final class ShutdownTests: XCTestCase {
    private func effects() -> LiveEffects {
        LiveEffects(fetcher: CurlFetcher(), cache: nil, store: nil, options: ReadOptions(), audio: nil, environment: [:], log: GuideLog(path: nil))
    }

    func testQuittingDoesNotWaitForWorkOnlyARunningGuideUses() {
        let effects = effects()
        let release = DispatchSemaphore(value: 0)
        let finished = Atomic<Bool>(false)
        // Ends by itself after a second: a shutdown that waited for it would see it finished.
        effects.background({
            _ = release.wait(timeout: .now() + 1)
            finished.store(true, ordering: .sequentiallyConsistent)
        }, waitedForAtQuit: false)
        effects.shutdown()
        XCTAssertFalse(finished.load(ordering: .sequentiallyConsistent), "quitting waited for the index's work")
        release.signal()
    }

    func testQuittingWaitsForWorkThatSaves() {
        let effects = effects()
        let finished = Atomic<Bool>(false)
        effects.background {
            // Stands for a save that takes a while; it is waited for.
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 0.3)
            finished.store(true, ordering: .sequentiallyConsistent)
        }
        effects.shutdown()
        XCTAssertTrue(finished.load(ordering: .sequentiallyConsistent), "quitting did not wait for a save")
    }

    /// The search runner's index is work of the first kind.
    func testTheSearchIndexIsBuiltAsWorkQuittingDoesNotWaitFor() {
        let waited = Mutex<[Bool]>([])
        let context = RunnerContext(
            fetcher: CurlFetcher(), environment: [:], statePath: nil, log: GuideLog(path: nil), heavyWork: HeavyWork(),
            background: { _ in waited.withLock { $0.append(true) } },
            discardable: { _ in waited.withLock { $0.append(false) } },
            afterFirstFrame: { _ in XCTFail("the index is not work for after the first frame") })
        let app: AppData
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../SampleData/appData.json").standardized
        switch AppDataReader.read([UInt8]((try? Data(contentsOf: sample)) ?? Data()), source: sample.path) {
        case .success(let a): app = a
        case .failure(let e): return XCTFail("the sample museum did not read: \(e)")
        }
        SearchRunner(context: context).run(.buildIndex(Museum(app)), mailbox: Mailbox())
        XCTAssertEqual(waited.withLock { $0 }, [false], "the index went to work quitting waits for")
    }

    /// Work kept for the first frame with the museum (issue 48: the pictures' libraries) runs
    /// once the loop says it is on screen, not before; kept after it, it runs at once.
    func testWorkKeptForTheFirstFrameRunsOnceItIsOnScreen() {
        let effects = effects()
        let ran = DispatchSemaphore(value: 0)
        effects.afterFirstFrame { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 0.3), .timedOut, "it ran before the first frame")
        effects.warmUp()
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, "it never ran after the first frame")
        effects.afterFirstFrame { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, "work kept after the first frame never ran")
    }

    /// The pictures' runner opens its libraries as such work, and only that.
    func testThePicturesLibrariesAreOpenedAfterTheFirstFrame() {
        let kinds = Mutex<[String]>([])
        let context = RunnerContext(
            fetcher: CurlFetcher(), environment: [:], statePath: nil, log: GuideLog(path: nil), heavyWork: HeavyWork(),
            background: { _ in kinds.withLock { $0.append("background") } },
            discardable: { _ in kinds.withLock { $0.append("discardable") } },
            afterFirstFrame: { _ in kinds.withLock { $0.append("afterFirstFrame") } })
        PicturesRunner(context: context).run(.warmUp, mailbox: Mailbox())
        XCTAssertEqual(kinds.withLock { $0 }, ["afterFirstFrame"])
    }
}

import Foundation
import Logging
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// Ends the process a fixed time after a graceful stop began, whatever still runs.
///
/// ServiceLifecycle's own bound (`maximumCancellationDuration`) ends a stop that overruns
/// with `fatalError`: a crash, a core, and a backtracer that on this machine outlived the
/// killed process and held the test runner's output open, so `swift test` never ended (CI's
/// 90 minutes ran out). Here an overrun is an ordinary exit with one log line. Nothing
/// acknowledged can be lost by it: every write is committed before its answer is sent.
struct StopDeadline: Service {
    let seconds: Int
    let logger: Logger

    func run() async throws {
        // Returns when the graceful stop begins; throws when the group is cancelled instead.
        do { try await gracefulShutdown() } catch { return }
        let seconds = seconds
        let logger = logger
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: TimeInterval(seconds))  // a deadline, not a wait for anything
            logger.error("the graceful stop took longer than \(seconds) s (a request or a database connection still open); exiting now")
            fflush(nil)  // every open output stream
            _exit(0)
        }
    }
}

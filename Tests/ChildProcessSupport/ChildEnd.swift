import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Waiting for a child's end without trusting Foundation to notice it.
///
/// On Linux, Foundation's `Process` learns of a child's end through a socket pair watched by
/// a run loop of its own. We saw it miss one: a `docent-pulse` killed in
/// `PulseServicePostgresTests` stayed a zombie, `isRunning` stayed true and `waitUntilExit()`
/// never returned (here once in three runs; on CI it hung the suite until its 90 minutes were
/// up). So the tests ask the kernel: `waitpid` with `WNOHANG`, polled until a deadline.
extension Process {
    /// True once the child has ended (reaped here or by Foundation), false if it is still
    /// running after `seconds`.
    @discardableResult
    public func waitForEnd(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        let pid = processIdentifier
        while true {
            if hasEnded { return true }
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                ChildEnds.shared.record(pid, status)
                return true
            }
            if reaped == -1, errno == ECHILD {
                // Foundation reaped it and is about to say so: its status is read from there.
                let settled = Date().addingTimeInterval(5)
                while isRunning, Date() < settled { usleep(1_000) }
                return true
            }
            if Date() >= deadline { return false }
            usleep(20_000)
        }
    }

    /// SIGTERM, then SIGKILL if the child has not ended `grace` seconds later; returns once
    /// it has ended (or after 10 more seconds, which only a child stuck in the kernel takes).
    public func stopWithin(_ grace: Double) {
        guard !hasEnded else { return }
        kill(processIdentifier, SIGTERM)
        if waitForEnd(within: grace) { return }
        print("\(executableURL?.lastPathComponent ?? "child") did not end \(Int(grace)) s after SIGTERM; killed")
        // Its own children first: a crashing Swift program starts swift-backtrace, which
        // outlives a killed parent and keeps the test runner's output open.
        for child in Self.children(of: processIdentifier) { kill(child, SIGKILL) }
        kill(processIdentifier, SIGKILL)
        waitForEnd(within: 10)
    }

    /// The processes whose parent is `pid` (from /proc).
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let child = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // "pid (comm) state ppid ...": the command may hold spaces and parentheses.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid ? child : nil
        }
    }

    /// Whether the child has ended, as far as anyone here knows (Foundation or `waitForEnd`).
    public var hasEnded: Bool { ChildEnds.shared.status(processIdentifier) != nil || !isRunning }

    /// The child's exit code once it has ended (-1 if a signal ended it).
    public var exitCode: Int32 {
        if let status = ChildEnds.shared.status(processIdentifier) { return status & 0x7f == 0 ? (status >> 8) & 0xff : -1 }
        guard !isRunning else { return -1 }  // Foundation traps on a running child's status
        return terminationReason == .exit ? terminationStatus : -1
    }

    /// Whether the child ended by a signal (after `waitForEnd` returned true).
    public var endedBySignal: Bool {
        if let status = ChildEnds.shared.status(processIdentifier) { return status & 0x7f != 0 && status & 0x7f != 0x7f }
        return !isRunning && terminationReason == .uncaughtSignal
    }
}

/// The wait statuses of children reaped by `waitForEnd` (Foundation never sees those).
final class ChildEnds: @unchecked Sendable {
    static let shared = ChildEnds()
    private let lock = NSLock()
    private var statuses: [Int32: Int32] = [:]
    func record(_ pid: Int32, _ status: Int32) {
        lock.lock()
        statuses[pid] = status
        lock.unlock()
    }
    func status(_ pid: Int32) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        return statuses[pid]
    }
}

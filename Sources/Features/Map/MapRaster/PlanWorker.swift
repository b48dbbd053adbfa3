import DocentCore
import Foundation

/// Rasterises a floor plan in a process of its own (`docent plan-raster`, issue 45), so that a
/// plan poppler cannot finish (a 2.6 KB page whose form draws another form ten times, nine
/// levels deep: 10⁹ paths, an hour of one core) costs a bounded time and memory and stops no
/// other floor: poppler's drawing cannot be interrupted in process, a process can be killed.
///
/// Each plan has a process of its own, so plans are drawn side by side (no lock between
/// them). The worker runs at a lower priority, with a CPU-time and a data-size limit of its
/// own (`serve`), and dies with the guide (`PR_SET_PDEATHSIG`, set by `docent plan-raster`). The guide waits `timeLimit`
/// seconds of wall time and then kills it.
public struct PlanWorker: Sendable {
    /// The subcommand of `docent` that runs `serve`.
    public static let subcommand = "plan-raster"
    /// The worker's exit status when the guide that started it is gone.
    public static let orphaned: Int32 = 3
    /// The worker's own limit on its data (heap and private mappings): a plan needs a few
    /// hundred megabytes at most (a 12-megapixel surface is 48 MB).
    public static let dataLimit = 1024 * 1024 * 1024

    /// The executable that answers to `subcommand` (the guide's own, `/proc/self/exe`).
    public let executable: String
    /// Wall-clock seconds a plan may take before the worker is killed and the plan counts as
    /// one that cannot be drawn.
    public let timeLimit: Double

    public init(executable: String, timeLimit: Double = 20) {
        self.executable = executable
        self.timeLimit = timeLimit
    }

    /// The running program as the worker (nil when it cannot be found).
    public static func current(timeLimit: Double = 20) -> PlanWorker? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return PlanWorker(executable: exe, timeLimit: timeLimit)
    }

    /// Why the worker gave no raster.
    public enum Failure: Error, Equatable, Sendable {
        /// poppler said why (not a PDF, no pages, a page too large…).
        case unreadable(String)
        /// Over the time limit, killed, or out of memory: the plan is too much work to draw.
        case tooMuchWork(String)
        /// The worker could not be started or its answer read (nothing about the plan).
        case notRun(String)

        public var message: String {
            switch self {
            case .unreadable(let m), .tooMuchWork(let m), .notRun(let m): return m
            }
        }
    }

    /// `PopplerRasterizer.rasterise` in a worker process, within `timeLimit`.
    public func rasterise(pdf: [UInt8], pixelsPerPoint: Double, source: String) -> Result<PlanRaster, Failure> {
        let stem = NSTemporaryDirectory() + "docent-plan-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let input = stem + ".pdf", output = stem + ".out"
        defer {
            unlink(input)
            unlink(output)
        }
        guard FileManager.default.createFile(atPath: input, contents: Data(pdf)) else {
            return .failure(.notRun("cannot write the plan for the worker to \(input)"))
        }
        let arguments = [executable, Self.subcommand, "--pixels-per-point", String(pixelsPerPoint), "--source", source, "--parent", String(getpid()), input, output]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard rc == 0 else { return .failure(.notRun("cannot start \(executable) \(Self.subcommand): \(String(cString: strerror(rc)))")) }
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), 10)

        // A thread waits for the worker; this one waits for that thread, at most timeLimit.
        let ended = DispatchSemaphore(value: 0)
        let status = StatusBox()
        let child = pid
        Thread.detachNewThread {
            var s: Int32 = 0
            while waitpid(child, &s, 0) == -1 && errno == EINTR {}
            status.value = s
            ended.signal()
        }
        var killed = false
        if ended.wait(timeout: .now() + timeLimit) == .timedOut {
            kill(pid, SIGKILL)
            killed = true
            ended.wait()
        }
        let s = status.value
        let exited = s & 0x7F == 0
        let signal = s & 0x7F
        if killed {
            return .failure(.tooMuchWork(String(format: "the plan took more than %.0f s to draw, so it is not drawn", timeLimit)))
        }
        let answer = FileManager.default.contents(atPath: output).map { [UInt8]($0) } ?? []
        if exited, (s >> 8) & 0xFF == 0, let raster = PlanCache.decode(answer) { return .success(raster) }
        if exited, (s >> 8) & 0xFF == 1, !answer.isEmpty {
            return .failure(.unreadable(String(decoding: answer.prefix(500), as: UTF8.self)))
        }
        if exited, (s >> 8) & 0xFF == Self.orphaned {
            return .failure(.notRun("the plan's worker could not tell it was started by this guide"))
        }
        if !exited, signal == SIGXCPU || signal == SIGKILL {
            return .failure(.tooMuchWork(String(format: "the plan took more than %.0f s to draw, so it is not drawn", timeLimit)))
        }
        // Out of memory ends in an abort or a fault inside poppler or cairo.
        let how = exited ? "exit status \((s >> 8) & 0xFF)" : "signal \(signal)"
        return .failure(.tooMuchWork("the plan needs more memory than a plan may take to draw (the worker ended with \(how))"))
    }

    private final class StatusBox: @unchecked Sendable {
        var value: Int32 = 0
    }

    /// The worker's side: limits itself, rasterises `input` and writes the raster (the plan
    /// cache's format) to `output`, or the reason to `output` with exit status 1.
    public static func serve(input: String, output: String, pixelsPerPoint: Double, source: String, cpuSeconds: Int = 30) -> Int32 {
        // Never more than this much CPU or memory, whoever started it (the caller makes it
        // die with the guide: `cs_die_with_parent`).
        var cpu = rlimit(rlim_cur: rlim_t(cpuSeconds), rlim_max: rlim_t(cpuSeconds + 1))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
        var data = rlimit(rlim_cur: rlim_t(dataLimit), rlim_max: rlim_t(dataLimit))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &data)
        guard let pdf = FileManager.default.contents(atPath: input) else {
            _ = FileManager.default.createFile(atPath: output, contents: Data("cannot read \(input)".utf8))
            return 1
        }
        switch PopplerRasterizer.rasterise(pdf: [UInt8](pdf), pixelsPerPoint: pixelsPerPoint, source: source) {
        case .success(let raster):
            return FileManager.default.createFile(atPath: output, contents: Data(PlanCache.encode(raster))) ? 0 : 2
        case .failure(let f):
            _ = FileManager.default.createFile(atPath: output, contents: Data(f.message.utf8))
            return 1
        }
    }
}

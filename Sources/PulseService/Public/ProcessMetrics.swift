import Foundation
import Prometheus

/// The standard `process_*` metrics of Prometheus' client libraries (CPU seconds, resident and
/// virtual memory, open and most descriptors, start time), read from `/proc/self` at each
/// scrape. swift-prometheus 2.4.1 offers none (its 1.x had them), so they are written here, with
/// the names and units every Prometheus dashboard already knows (DECISIONS, 2026-11-28).
final class ProcessMetrics: Sendable {
    private let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    private let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
    private let lastCPU = Locked(0.0)

    func update(_ registry: PrometheusCollectorRegistry) {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return }
        // Fields after the command's name (which may hold spaces), from field 3 (state) on.
        let f = stat[stat.index(after: close)...].split(separator: " ")
        guard f.count > 22, let utime = Double(f[11]), let stime = Double(f[12]), let start = Double(f[19]),
            let vsize = Double(f[20]), let rss = Double(f[21])
        else { return }
        // A counter (promtool: a `_total` is one), moved on by what was used since the last scrape.
        let cpu = (utime + stime) / ticksPerSecond
        let more = lastCPU.with { last in
            defer { last = max(last, cpu) }
            return max(0, cpu - last)
        }
        registry.makeCounter(name: "process_cpu_seconds_total", help: "Total user and system CPU time spent in seconds.").increment(by: more)
        registry.makeGauge(name: "process_resident_memory_bytes", help: "Resident memory size in bytes.").set(to: rss * pageSize)
        registry.makeGauge(name: "process_virtual_memory_bytes", help: "Virtual memory size in bytes.").set(to: vsize)
        if let boot = Self.bootTime() {
            registry.makeGauge(name: "process_start_time_seconds", help: "Start time of the process since unix epoch in seconds.")
                .set(to: boot + start / ticksPerSecond)
        }
        if let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            registry.makeGauge(name: "process_open_fds", help: "Number of open file descriptors.").set(to: Double(fds.count))
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            registry.makeGauge(name: "process_max_fds", help: "Maximum number of open file descriptors.").set(to: Double(limit.rlim_cur))
        }
    }

    /// The machine's boot, in seconds since 1970 (`btime` of /proc/stat), for the start time.
    private static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}

/// A value behind a lock (what the metrics keep between scrapes).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func with<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

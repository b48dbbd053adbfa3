// docent-bench: the in-process halves of `make bench` (scripts/bench.sh drives them and
// measures the anchors). Targets are ratios against anchors measured in the same run,
// never absolute times.
//
//   docent-bench load FILE [--repeat N]
//       Reads FILE's bytes and hands them to AppDataReader.read (parse, models, keypad
//       index), as the guide does. Prints one line of `key=value`: `wall` (seconds from
//       reading the file to the finished AppData; the best of N), `read_file` (of that, the
//       reading), `peak_rss` (bytes: VmHWM, else ru_maxrss), `file_size` and record counts.
//   docent-bench split FILE
//       Diagnostic: JSONParser.parse and the model building timed separately.
//   docent-bench tick FILE [--seconds N] [--size WxH] [--keys K] [--cold] [--sleep µs]
//       Diagnostic: the guide's loop turning once a second while a recording plays (Tick.swift).

import DocentCore
import Foundation
import TwoCores

#if canImport(Glibc)
    import Glibc
    private let sysRead = Glibc.read
#elseif canImport(Darwin)
    import Darwin
    private let sysRead = Darwin.read
#endif

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Peak resident set size in bytes: VmHWM from /proc/self/status, else getrusage.
func peakRSSBytes() -> Int {
    let fd = open("/proc/self/status", O_RDONLY)
    if fd >= 0 {
        var buf = [UInt8](repeating: 0, count: 16384)
        let n = sysRead(fd, &buf, buf.count)
        close(fd)
        for line in String(decoding: buf.prefix(max(n, 0)), as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
            if let kb = Int(line.dropFirst(6).filter(\.isNumber)) { return kb * 1024 }
        }
    }
    var ru = rusage()
    #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &ru)
        return Int(ru.ru_maxrss) * 1024  // kilobytes on Linux
    #else
        getrusage(RUSAGE_SELF, &ru)
        return Int(ru.ru_maxrss)  // bytes on macOS
    #endif
}

/// The whole file as bytes, read with plain POSIX calls (no Foundation copy).
func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return nil }
    let size = Int(st.st_size)
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buf, count in
        var done = 0
        while done < size {
            let n = sysRead(fd, buf.baseAddress! + done, size - done)
            if n <= 0 {
                failed = n < 0
                break
            }
            done += n
        }
        count = done
    }
    return failed ? nil : bytes
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("docent-bench: \(message)\n".utf8))
    exit(2)
}

/// Reads the file and the document: the result, the file size and when the reading ended.
@inline(never)
func readOnce(_ path: String) -> (Result<AppData, AppDataError>, Int, Double) {
    guard let bytes = readFile(path) else { fail("cannot read \(path)") }
    let size = bytes.count
    let t1 = monotonicSeconds()
    // Handed over: the reader frees the bytes once they are parsed.
    return (AppDataReader.read(consume bytes, source: path), size, t1)
}

func load(_ args: ArraySlice<String>) {
    var path: String?
    var repeats = 1
    var it = args.makeIterator()
    while let a = it.next() {
        switch a {
        case "--repeat":
            guard let n = it.next().flatMap(Int.init), n > 0 else { fail("--repeat needs a positive number") }
            repeats = n
        default:
            if path != nil { fail("unexpected argument \(a)") }
            path = a
        }
    }
    guard let path else { fail("usage: docent-bench load FILE [--repeat N]") }

    var best = Double.infinity
    var bestRead = 0.0
    var summary = ""
    var fileSize = 0
    var app: AppData?
    for _ in 0..<repeats {
        app = nil
        let t0 = monotonicSeconds()
        let (result, size, t1) = readOnce(path)
        // Taken after `readOnce` has returned: whatever AppDataReader.read allocated and
        // dropped (the bytes, the JSON tree) has been freed by then, even where the compiler
        // inlined the reader here and moved those releases after its return.
        let t2 = monotonicSeconds()
        fileSize = size
        switch result {
        case .success(let a):
            summary = "artworks=\(a.artworks.count) audio=\(a.audioFiles.count) tours=\(a.tours.count) diagnostics=\(a.diagnostics.count)"
            app = a
        case .failure(let e):
            fail("\(path): \(e)")
        }
        if t2 - t0 < best {
            best = t2 - t0
            bestRead = t1 - t0
        }
    }
    let rss = peakRSSBytes()
    print(String(format: "load wall=%.4f read_file=%.4f ", best, bestRead) + "peak_rss=\(rss) file_size=\(fileSize) " + summary)
    // Exit with the museum still loaded, as a program that loads a document and stops does:
    // tearing the models down is not part of loading. (The JSON tree and the bytes are freed
    // before `t2` and timed.)
    withExtendedLifetime(app) {
        fflush(nil)  // every stream: print() writes through stdio
        exit(0)
    }
}

let argv = CommandLine.arguments
switch argv.dropFirst().first {
case "load":
    load(argv.dropFirst(2))
case "tick":
    tick(argv.dropFirst(2))
case "split":
    // Diagnostic: the parse and the model building timed separately.
    guard argv.count > 2, let bytes = readFile(argv[2]) else { fail("usage: docent-bench split FILE") }
    let t0 = monotonicSeconds()
    let json: JSON
    // As the reader parses: transcripts left in the bytes.
    do { json = try JSONParser.parse(JSONBytes(bytes), deferring: ["audio_transcript"]) } catch { fail("\(error)") }
    let t1 = monotonicSeconds()
    let rssParse = peakRSSBytes()
    _ = AppDataReader.read(json, source: argv[2])
    let t2 = monotonicSeconds()
    print(String(format: "parse=%.4f build=%.4f ", t1 - t0, t2 - t1) + "rss_after_parse=\(rssParse) peak_rss=\(peakRSSBytes())")
case "prepared":
    // The prepared copy (issue 14): encode once, then time opening it (the fastest of N
    // decodes of the same bytes, as the guide maps them) against the parse.
    guard argv.count > 2, let bytes = readFile(argv[2]) else { fail("usage: docent-bench prepared FILE [N]") }
    let t0 = monotonicSeconds()
    guard case .success(let app) = AppDataReader.read(bytes, source: argv[2]) else { fail("cannot read \(argv[2])") }
    let t1 = monotonicSeconds()
    let copy = PreparedMuseum.encode(app, identity: "bench")
    let t2 = monotonicSeconds()
    let shared = SharedBytes(copying: copy)
    // Runs alternate between one core and two (as the guide opens it).
    var best = Double.infinity
    var bestTwo = Double.infinity
    var same = false
    for k in 0..<max(1, Int(argv.count > 3 ? argv[3] : "3") ?? 3) {
        let s = monotonicSeconds()
        guard let back = PreparedMuseum.decode(shared, identity: "bench", both: k % 2 == 0 ? nil : TwoCores.both) else {
            fail("the prepared copy did not decode")
        }
        if k % 2 == 0 { best = min(best, monotonicSeconds() - s) } else { bestTwo = min(bestTwo, monotonicSeconds() - s) }
        if k < 2 { same = (k == 0 || same) && back == app }
    }
    print(String(format: "read=%.4f encode=%.4f decode=%.4f decode_two_cores=%.4f ", t1 - t0, t2 - t1, best, bestTwo) + "bytes=\(copy.count) same=\(same)")
default:
    fail("usage: docent-bench load FILE [--repeat N] | split FILE | prepared FILE")
}

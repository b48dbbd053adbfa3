import CShims
import DocentApp
import DocentCore
import Foundation
import GuideShell

// `docent-guide-bench`: the guide itself (`Guide`, the same options as `docent`), with the
// instrumentation `make bench` reads, injected here so that the product holds none. The
// scripts' interface is the environment it always was:
//   DOCENT_BENCH_FIRST_FRAME=1        exit right after the first frame drawn with the museum
//   DOCENT_BENCH_FRAME_TIME=FILE      write the wall clock (as `date +%s%N` reads it) then
//   DOCENT_BENCH_AUDIO_CPU=FILE       note the process's CPU time as the player goes (`BenchAudioCPU`)
// As `docent` does before anything is allocated (the bench measures the guide's peak memory).
cs_tune_malloc()
let env = ProcessInfo.processInfo.environment
let exitAfterFirstFrame = env["DOCENT_BENCH_FIRST_FRAME"] == "1"
let frameTimePath = env["DOCENT_BENCH_FRAME_TIME"]
let cpuPath = env["DOCENT_BENCH_AUDIO_CPU"]

let instrumentation = Instrumentation(
    firstLoadedFrame: {
        if let path = frameTimePath {
            var t = timespec()
            clock_gettime(CLOCK_REALTIME, &t)
            try? Data("\(Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec))\n".utf8).write(to: URL(fileURLWithPath: path))
        }
        return !exitAfterFirstFrame
    },
    audio: { live in cpuPath.flatMap { BenchAudioCPU(live, path: $0) } ?? live })

// `prepare [--rewrite-prefix F=T] [--] SOURCE`: the copy a guide quitting at once hands over
// (`CopyHandOff` starts its own executable's `prepare`). Prepared copies are used only by the
// build that wrote them, so the bench's guide must write its own for its second start.
if CommandLine.arguments.count >= 2, CommandLine.arguments[1] == "prepare" {
    var rest = Array(CommandLine.arguments.dropFirst(2))
    var rewrite: URLResolver.Rewrite?
    var source: String?
    while !rest.isEmpty {
        let a = rest.removeFirst()
        if a == "--rewrite-prefix", !rest.isEmpty {
            let parts = rest.removeFirst().split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { rewrite = URLResolver.Rewrite(from: parts[0], to: parts[1]) }
        } else if a != "--" {
            source = a
        }
    }
    guard let source else { exit(64) }
    exit(CopyPreparation.run(source: source, rewrite: rewrite) == nil ? 0 : 1)
}

do {
    let guide = try Guide.parse(Array(CommandLine.arguments.dropFirst()))
    try guide.run(instrumentation: instrumentation)
} catch {
    Guide.exit(withError: error)
}

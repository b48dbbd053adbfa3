import AudioPlayback
import DocentCore
import Foundation

// Plays one file or URL to the end through the guide's own engine, as `make bench` needs it:
// the same pipeline the guide uses when GO is pressed (curl → mpg123 → PulseAudio).
// Usage: docent-audio-bench FILE-OR-URL [--wait-go]    Exit 0 when it ended, 1 when it failed.
// With --wait-go the engine is set up first and playback starts when a line arrives on stdin:
// the bench times from that line, as the guide's GO happens in a process already running.
let args = CommandLine.arguments
guard args.count == 2 || (args.count == 3 && args[2] == "--wait-go") else {
    FileHandle.standardError.write(Data("usage: docent-audio-bench FILE-OR-URL [--wait-go]\n".utf8))
    exit(2)
}
let engine = LiveAudioEngine()
_ = engine.snapshot()
if args.count == 3 { _ = readLine() }
engine.play(AudioRequest(token: 1, url: args[1], title: "docent-audio-bench"))
while true {
    let s = engine.snapshot()
    if s.status == .ended { exit(0) }
    if s.status == .failed {
        FileHandle.standardError.write(Data("docent-audio-bench: \(s.failure.map { "\($0)" } ?? "failed")\n".utf8))
        exit(1)
    }
    usleep(100_000)  // the guide polls the engine every 100 ms (mini player ticking)
}

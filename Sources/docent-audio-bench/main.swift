import AudioPlayback
import DocentCore
import Foundation

// Plays one file or URL to the end through the guide's own engine, as `make bench` needs it:
// the same pipeline the guide uses when GO is pressed (curl → mpg123 → PulseAudio).
// Usage: docent-audio-bench FILE-OR-URL [--wait-go] [--speed X]
// Exit 0 when it ended, 1 when it failed.
// With --wait-go the engine is set up first and playback starts when a line arrives on stdin:
// the bench times from that line, as the guide's GO happens in a process already running.
// With --speed the recording plays at that speed (SoundTouch, pitch kept), as `]` does.
var args = Array(CommandLine.arguments.dropFirst())
var waitGo = false
var speed = 1.0
if let i = args.firstIndex(of: "--wait-go") {
    waitGo = true
    args.remove(at: i)
}
if let i = args.firstIndex(of: "--speed"), i + 1 < args.count, let x = Double(args[i + 1]), x > 0 {
    speed = x
    args.removeSubrange(i...(i + 1))
}
guard args.count == 1, !args[0].hasPrefix("--") else {
    FileHandle.standardError.write(Data("usage: docent-audio-bench FILE-OR-URL [--wait-go] [--speed X]\n".utf8))
    exit(2)
}
let engine = LiveAudioEngine()
// Ready as the guide's engine is once its first frame is drawn (`AudioEngine.warmUp`).
engine.warmUp()
// Woken as the guide's loop is: by the engine for anything but the position, else once a second
// for the clock (it polled every 100 ms, as the guide did before it waited; DECISIONS.md).
let changed = DispatchSemaphore(value: 0)
let notified = engine.notifiesChanges { changed.signal() }
_ = engine.snapshot()
if speed != 1 { engine.setSpeed(speed) }
if waitGo { _ = readLine() }
engine.play(AudioRequest(token: 1, url: args[0], title: "docent-audio-bench"))
while true {
    let s = engine.snapshot()
    if s.status == .ended { exit(0) }
    if s.status == .failed {
        FileHandle.standardError.write(Data("docent-audio-bench: \(s.failure.map { "\($0)" } ?? "failed")\n".utf8))
        exit(1)
    }
    if notified {
        _ = changed.wait(timeout: .now() + 1)
    } else {
        usleep(100_000)
    }
}

import DocentCore
import Glibc
import Foundation

/// For `make bench` (DOCENT_BENCH_AUDIO_CPU=FILE): the guide's own engine, noting the process's
/// CPU time (every thread, those already gone too: `getrusage`) when a recording is asked for
/// and each time the player's status changes, one line each: `play 0.482113`, `playing
/// 0.490021`, `ended 0.611245`. The bench's "audio CPU with the guide on screen" is the
/// difference between `play` and `ended`, set against `mpg123 -q` playing the same file.
final class BenchAudioCPU: AudioEngine, @unchecked Sendable {
    private let engine: AudioEngine
    private let file: FileHandle
    private var lastStatus: PlaybackStatus?

    init?(_ engine: AudioEngine, path: String) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let file = FileHandle(forWritingAtPath: path)
        else { return nil }
        self.engine = engine
        self.file = file
    }

    private func note(_ what: String) {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        let seconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
        file.write(Data("\(what) \(String(format: "%.6f", seconds))\n".utf8))
    }

    func play(_ request: AudioRequest) {
        note("play")
        engine.play(request)
    }
    func pause() { engine.pause() }
    func resume() { engine.resume() }
    func stop() { engine.stop() }
    func seek(to seconds: Double) { engine.seek(to: seconds) }
    func setVolume(_ volume: Double) { engine.setVolume(volume) }
    func setSpeed(_ speed: Double) { engine.setSpeed(speed) }
    func warmUp() { engine.warmUp() }
    func notifiesChanges(_ wake: @escaping @Sendable () -> Void) -> Bool { engine.notifiesChanges(wake) }
    func snapshot() -> PlayerSnapshot {
        let s = engine.snapshot()
        if s.status != lastStatus {
            lastStatus = s.status
            note(s.status.rawValue)
        }
        return s
    }
}

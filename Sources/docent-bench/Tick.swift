import DocentApp
import DocentCore
import DocentUI
import Foundation
import StringFiles

// `docent-bench tick FILE [--seconds N] [--size WxH] [--keys K] [--cold] [--sleep µs]`: the
// guide's loop, in process, playing a recording for N seconds of a clock moved by hand: each
// turn the engine reports the next whole second, as the live one does while the guide shows
// its clock. Prints the loop's CPU per second of audio (the turn's reduce, state checks and
// the redraw of the player's lines; not the terminal's writing, which is curses'). A
// diagnostic for the audio section of `make bench` ("audio CPU with the guide on screen"),
// run from the project's folder. Hot, a turn is tens of microseconds; after a second idle
// (`--sleep 1000000`, as the guide waits for the next second) the same turn costs about six
// times that here: caches and predictors have gone to other work, so what a turn touches
// counts more than how fast it runs.

final class TickBackend: TerminalBackend {
    var size: Size
    var pending: [InputEvent] = []
    var rowsDrawn = 0
    var fullFrames = 0
    init(size: Size) { self.size = size }
    func readEvents(timeoutMilliseconds: Int) -> [InputEvent] {
        defer { pending = [] }
        return pending
    }
    func draw(_ screen: Screen) { fullFrames += 1 }
    func draw(_ screen: Screen, onlyRows rows: [Int]) { rowsDrawn += rows.count }
    func restore() {}
    let waker = Waker {}
}

final class TickAudio: AudioEngine, @unchecked Sendable {
    var current = PlayerSnapshot()
    func play(_ request: AudioRequest) {
        current = PlayerSnapshot(token: request.token, status: .playing, position: request.startAt, duration: 3600, volume: current.volume)
    }
    func pause() { current.status = .paused }
    func resume() { current.status = .playing }
    func stop() { current.status = .idle }
    func seek(to seconds: Double) { current.position = seconds }
    func setVolume(_ volume: Double) { current.volume = volume }
    func setSpeed(_ speed: Double) {}
    func snapshot() -> PlayerSnapshot { current }
    func notifiesChanges(_ wake: @escaping @Sendable () -> Void) -> Bool { true }
}

/// Runs the audio commands on the engine (as the guide's effects do); counts the rest.
final class NoEffects: EffectHandling {
    let audio: TickAudio
    var run = 0
    init(audio: TickAudio) { self.audio = audio }
    func run(_ effect: Effect, mailbox: Mailbox) {
        run += 1
        if case .audio(let command) = effect { audio.run(command) }
    }
    func shutdown() {}
}

func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func tick(_ args: ArraySlice<String>) {
    var path: String?
    var seconds = 600
    var size = Size(width: 100, height: 30)
    var keys = "101\r"
    // Between turns, other work runs over the caches (the audio threads, the terminal):
    // --cold writes over 32 MB before each turn, untimed.
    var cold = false
    // --sleep µs: or idle that long before each turn, as the guide waits for the next second.
    var sleepMicros: UInt32 = 0
    var it = args.makeIterator()
    while let a = it.next() {
        switch a {
        case "--seconds": seconds = it.next().flatMap(Int.init) ?? seconds
        case "--size":
            let p = (it.next() ?? "").split(separator: "x").compactMap { Int($0) }
            if p.count == 2 { size = Size(width: p[0], height: p[1]) }
        case "--keys": keys = it.next() ?? keys
        case "--cold": cold = true
        case "--sleep": sleepMicros = it.next().flatMap(UInt32.init) ?? 0
        default: path = a
        }
    }
    guard let path, let bytes = readFile(path), case .success(let app) = AppDataReader.read(bytes, source: path) else {
        fail("usage: docent-bench tick FILE [--seconds N] [--size WxH] [--keys K]")
    }
    // The UI strings, as the guide finds them from the project's folder (or DOCENT_RESOURCES).
    let resources = ProcessInfo.processInfo.environment["DOCENT_RESOURCES"] ?? "Resources"
    let dir = URL(fileURLWithPath: resources).appendingPathComponent("strings")
    let tables: [Language: [String: String]]
    switch StringFiles.load(dir) {
    case .success(let t): tables = StringCatalog(tablesByTag: t).tables
    case .failure(let f): fail("no strings: \(f)")
    }
    let backend = TickBackend(size: size)
    let audio = TickAudio()
    let effects = NoEffects(audio: audio)
    var clockNow = Date(timeIntervalSince1970: 1_790_000_000)
    var mono: UInt64 = 1_000_000_000
    let state = AppState(source: path, catalog: StringCatalog(tables: tables), now: clockNow, features: Registry.features)
    let loop = GuideLoop(state: state, backend: backend, effects: effects, audio: audio, clock: { clockNow }, monotonic: { mono })
    loop.send(.launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
    loop.send(.documentLoaded(.success(Museum(app)), note: nil))
    loop.step(timeoutMilliseconds: 0)
    if loop.state.overlay != nil { backend.pending = [.key(.escape)]; loop.step(timeoutMilliseconds: 0) }
    for ch in keys {
        backend.pending = [ch == "\r" ? .key(.enter) : .key(.char(ch))]
        loop.step(timeoutMilliseconds: 0)
    }
    guard loop.state[PlayerFeature.self].track != nil else { fail("the keys \(keys.debugDescription) played nothing") }
    loop.step(timeoutMilliseconds: 0)
    let (full0, effects0) = (backend.fullFrames, effects.run)
    var sweep = [UInt8](repeating: 0, count: cold ? 32 << 20 : 0)
    var cpu = 0.0
    for s in 1...seconds {
        if cold {
            sweep.withUnsafeMutableBytes { b in
                for k in Swift.stride(from: 0, to: b.count, by: 64) { b[k] &+= 1 }
            }
        }
        if sleepMicros > 0 { usleep(sleepMicros) }
        let t0 = threadCPUSeconds()
        audio.current.position = Double(s) + 0.02
        clockNow += 1
        mono &+= 1_000_000_000
        loop.step(timeoutMilliseconds: 0)
        cpu += threadCPUSeconds() - t0
    }
    withExtendedLifetime(sweep) {}
    print(String(format: "tick cpu_per_second=%.1fus seconds=%d ", cpu / Double(seconds) * 1e6, seconds)
        + "full_frames=\(backend.fullFrames - full0) rows_drawn=\(backend.rowsDrawn) effects=\(effects.run - effects0) route=\(loop.state.page.route)")
}

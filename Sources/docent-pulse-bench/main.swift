import DocentCore
import DocentUI
import Foundation
import StringFiles
import StateStore

#if canImport(Glibc)
    import Glibc
#endif

/// `make bench` (issue 12): a reaction stored and reflected on screen, on the embedded store.
///
///   docent-pulse-bench APPDATA STRINGS_DIR DB [N]
///
/// Each round is what the guide does for `1` in the Pulse box: the reducer's action, the
/// runner's `react` on the SQLite store (one immediate transaction, WAL), the answer back into
/// the reducer, and the frame drawn, checked to show the new count. Rounds alternate like and
/// withdraw on the museum, N rounds after 20 warm-up ones; prints `pulse-embedded p50 p99`
/// in microseconds. The anchor (scripts/bench.sh) is the same row's `INSERT … ON CONFLICT`
/// through the `sqlite3` command on the same file, timed by sqlite3 itself.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("docent-pulse-bench: \(message)\n".utf8))
    exit(1)
}

func monotonicNanos() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

let args = CommandLine.arguments

/// `docent-pulse-bench --notes DB SUBJECT` (issue 32, scripts/bench-pulse.py): a store the
/// script filled with a million notes. Prints `pulse-notes OPEN PURGE SNAPSHOT PAGE NEXT` in ms:
/// the store opened, its upkeep (the guide purges on opening), the guide's first snapshot, the
/// notes list's first page, the next page.
if args.count == 4, args[1] == "--notes" {
    let t0 = monotonicNanos()
    guard case .success(let store) = SQLitePulseStore.open(path: args[2], clock: { Date() }), let subject = PulseSubject(args[3]) else { fail("cannot open \(args[2]) or read \(args[3])") }
    let t1 = monotonicNanos()
    guard (try? store.purge()) != nil else { fail("the purge failed") }
    let t2 = monotonicNanos()
    let wait = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var times: [UInt64] = [t0, t1, t2]
    nonisolated(unsafe) var failure: String?
    // Detached: top-level code is the main actor's, which `wait.wait()` holds, so a plain
    // `Task` here never ran and the bench hung (the last stop's 20-minute timeout).
    Task.detached {
        do {
            let snap = try await store.snapshot(viewer: VisitorID("benchviewer1"), dayStart: Date(), since: nil)
            times.append(monotonicNanos())
            let first = try await store.notes(on: subject, viewer: VisitorID("benchviewer1"), after: nil, limit: PulseRules.standard.notesPage)
            times.append(monotonicNanos())
            _ = try await store.notes(on: subject, viewer: VisitorID("benchviewer1"), after: first.next, limit: PulseRules.standard.notesPage)
            times.append(monotonicNanos())
            if (snap?.noteCounts[subject] ?? 0) < 1000 || first.notes.count != PulseRules.standard.notesPage { failure = "the store does not hold the notes it should" }
        } catch {
            failure = "\(error)"
        }
        wait.signal()
    }
    wait.wait()
    if let failure { fail(failure) }
    let ms = (1..<times.count).map { Double(times[$0] - times[$0 - 1]) / 1e6 }
    print("pulse-notes " + ms.map { String(format: "%.1f", $0) }.joined(separator: " "))
    exit(0)
}

guard args.count >= 4 else { fail("usage: docent-pulse-bench APPDATA STRINGS_DIR DB [N] | --notes DB SUBJECT") }
let rounds = args.count > 4 ? Int(args[4]) ?? 500 : 500
guard let data = FileManager.default.contents(atPath: args[1]) else { fail("cannot read \(args[1])") }
let app: AppData
switch AppDataReader.read([UInt8](data), source: args[1]) {
case .success(let a): app = a
case .failure(let e): fail("\(args[1]) does not read: \(e)")
}
var tables: [Language: [String: String]] = [:]
switch StringFiles.load(URL(fileURLWithPath: args[2])) {
case .success(let all): tables[.english] = all["en"]
case .failure(let f): fail("no strings in \(args[2]): \(f)")
}

// The store as the guide opens it, limits lifted (the bench measures the path, not the limiter).
var rules = PulseRules.standard
rules.reactionsPerMinute = 1_000_000
let store: SQLitePulseStore
switch SQLitePulseStore.open(path: args[3], rules: rules, clock: { Date() }) {
case .success(let s): store = s
case .failure(let f): fail(f.message)
}
let creds = VisitorCredentials(visitor: VisitorID("benchvisitor01")!, secret: "bench-secret-0123456789")

/// The runner's way of waiting for an async store call (it runs them off the loop thread too).
func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var out: T?
    Task {
        out = await work()
        done.signal()
    }
    done.wait()
    return out!
}

let size = Size(width: 80, height: 24)
var state = AppState(source: args[1], catalog: StringCatalog(tables: tables), now: Date(), features: Registry.features)
_ = Reducer.reduce(&state, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
_ = Reducer.reduce(&state, .documentLoaded(.success(Museum(app)), note: nil))
let vp = RootView.viewport(for: size)
_ = Reducer.reduce(&state, .viewportChanged(rows: vp.rows, width: vp.width))
state.overlay = nil
state.messageQueue = []
let registered = blocking { () async -> Result<VisitorCredentials, PulseStoreError> in
    do { try await store.register(creds) } catch { return .failure(error as? PulseStoreError ?? .unavailable("\(error)")) }
    return .success(creds)
}
_ = Reducer.reduce(&state, .pulse(.opened(registered)))
let snapshot = blocking { () async -> Result<PulseSnapshot?, PulseStoreError> in
    do { return .success(try await store.snapshot(viewer: creds.visitor, dayStart: Date(), since: nil)) } catch { return .failure(error as? PulseStoreError ?? .unavailable("\(error)")) }
}
_ = Reducer.reduce(&state, .pulse(.checked(snapshot)))
_ = Reducer.reduce(&state, .pulse(.open))
guard case .feature = state.overlay else { fail("the Pulse box did not open on Home") }

var samples: [Double] = []
for round in 0..<(rounds + 20) {
    let start = monotonicNanos()
    let effects = Reducer.reduce(&state, .pulse(.choose(1)))
    var reacted = false
    for e in effects {
        guard case .feature(let v) = e, let p = v.as(PulseEffect.self), case .react(let value, let subject, let c) = p else { continue }
        let answer = blocking { () async -> Result<PulseCounts, PulseStoreError> in
            do { return .success(try await store.react(value, on: subject, as: c)) } catch { return .failure(error as? PulseStoreError ?? .unavailable("\(error)")) }
        }
        guard case .success = answer else { fail("the store refused: \(answer)") }
        _ = Reducer.reduce(&state, .pulse(.reacted(subject, answer)))
        reacted = true
    }
    guard reacted else { fail("choosing 1 in the box did not react (round \(round))") }
    let screen = RootView.render(state, size: size)
    let liked = round % 2 == 0
    let text = (0..<size.height).map(screen.row).joined(separator: "\n")
    let expected = (tables[.english]?[StringKey.pulseLikes.rawValue] ?? "♥ {n}").replacingOccurrences(of: "{n}", with: liked ? "1" : "0")
    if liked, !text.contains(expected) { fail("round \(round): the frame does not show '\(expected)'") }
    let elapsed = Double(monotonicNanos() - start) / 1000
    if round >= 20 { samples.append(elapsed) }
}
samples.sort()
let p50 = samples[samples.count / 2]
let p99 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))]
print(String(format: "pulse-embedded %.1f %.1f", p50, p99))

import DocentCore
import Foundation
import NetCurl
import XCTest

@testable import AudioPlayback

/// `LiveAudioEngine` against real components it starts itself: a headless PulseAudio with a
/// null sink (scripts/test-pulse.sh), nginx (scripts/test-nginx.sh) and a Python server that
/// drops or stalls connections. Sound is proven by recording the sink's monitor with parec.
///
/// Content is SampleData/audio (16 kHz mono narrations). The null sink adds about a second
/// at stream start and the drain half a second, so durations are checked loosely.
final class AudioEngineTests: XCTestCase {
    private struct Environment {
        var pulse: TestPulse
        var nginx: TestNginx
        var misbehaving: MisbehavingServer
        var root: URL
    }

    nonisolated(unsafe) private static var environment: Environment?
    nonisolated(unsafe) private static var setupProblem: String?

    /// 3.0 s, 2.3 s and 12.4 s clips, as mpg123 decodes them (16 kbit/s files have no Info
    /// frame, so other tools' estimates differ by up to 0.1 s).
    static let short = (name: "3208-en.mp3", seconds: 2.988)
    static let shorter = (name: "3215-en.mp3", seconds: 2.340)
    static let long = (name: "2044-zh-hant.mp3", seconds: 12.420)
    static let minutes = (name: "minutes.mp3", seconds: 120.0)

    override class func setUp() {
        super.setUp()
        let fm = FileManager.default
        let root = AudioTestSupport.uniqueTemp("docent-audio-root")
        do {
            try fm.createDirectory(at: root, withIntermediateDirectories: true)
            for name in [short.name, shorter.name, long.name] {
                try fm.copyItem(at: AudioTestSupport.sampleAudio.appendingPathComponent(name), to: root.appendingPathComponent(name))
            }
            // A 2-minute clip made here (SampleData's are short, so saved positions inside a
            // clip were never tried): a sine through sox, encoded by lame at 32 kbit/s.
            let wav = root.appendingPathComponent("minutes.wav").path
            let made = AudioTestSupport.run("sox", ["-n", "-r", "22050", "-c", "1", wav, "synth", "120", "sine", "440", "vol", "0.5"])
            guard made.status == 0 else { throw AudioTestSupport.Failure(description: "sox: \(made.output)") }
            let encoded = AudioTestSupport.run("lame", ["--quiet", "-b", "32", wav, root.appendingPathComponent(Self.minutes.name).path], timeout: 60)
            guard encoded.status == 0 else { throw AudioTestSupport.Failure(description: "lame: \(encoded.output)") }
            try fm.removeItem(atPath: wav)
            let text = String(repeating: "This is a web page, not a recording of anything at all.\n", count: 2000)
            try Data(text.utf8).write(to: root.appendingPathComponent("page.mp3"))
        } catch {
            setupProblem = "cannot create the test root: \(error)"
            return
        }
        let pulse = TestPulse()
        let nginx = TestNginx(root: root)
        do {
            try pulse.start()
            setenv("PULSE_SERVER", pulse.server, 1)
            try nginx.start()
            let misbehaving = try MisbehavingServer(root: root)
            environment = Environment(pulse: pulse, nginx: nginx, misbehaving: misbehaving, root: root)
        } catch {
            setupProblem = "\(error)"
            pulse.stop()
            nginx.stop()
        }
    }

    override class func tearDown() {
        if let env = environment {
            env.misbehaving.stop()
            env.nginx.stop()
            env.pulse.stop()
            try? FileManager.default.removeItem(at: env.root)
        }
        environment = nil
        unsetenv("PULSE_SERVER")
        super.tearDown()
    }

    private var engine: LiveAudioEngine?
    private var playLog: URL?

    private func env() throws -> Environment {
        guard let env = Self.environment else {
            throw AudioTestSupport.Failure(description: Self.setupProblem ?? "test environment missing")
        }
        return env
    }

    private func makeEngine() -> LiveAudioEngine {
        let log = AudioTestSupport.uniqueTemp("docent-playlog").appendingPathExtension("tsv")
        playLog = log
        let engine = LiveAudioEngine(
            configuration: .init(connectTimeout: 3, stallTimeout: 2, probeInterval: 0.5, playLogPath: log.path))
        self.engine = engine
        return engine
    }

    override func tearDown() {
        engine?.stop()
        engine = nil
        if let playLog { try? FileManager.default.removeItem(at: playLog) }
        if let env = Self.environment {
            // A test may have killed or replaced the daemon.
            setenv("PULSE_SERVER", env.pulse.server, 1)
            if env.pulse.pactl(["info"]).isEmpty { try? env.pulse.start() }
        }
        super.tearDown()
    }

    // MARK: - Helpers

    @discardableResult
    private func wait(_ engine: LiveAudioEngine, _ timeout: Double, file: StaticString = #filePath, line: UInt = #line, _ what: String, until condition: (PlayerSnapshot) -> Bool) -> PlayerSnapshot {
        var last = engine.snapshot()
        let ok = AudioTestSupport.waitUntil(timeout) {
            last = engine.snapshot()
            return condition(last)
        }
        if !ok { XCTFail("timed out after \(timeout) s waiting for \(what); last snapshot \(last)", file: file, line: line) }
        return last
    }

    /// The position's pace: seconds of the recording per second of the monotonic clock, from
    /// the first snapshot that meets `from` to the first `over` seconds of the recording later,
    /// each timed when its snapshot was taken. The null sink plays at exactly the clock's pace;
    /// what parec has handed over by then is printed beside it, not used: it lags the sink by
    /// however long a loaded machine keeps parec waiting (two CI runs measured 0.97 and 1.00 at
    /// 0.75× over 3 s of position against it).
    private func pace(
        _ engine: LiveAudioEngine, _ recorder: MonitorRecorder, _ label: String,
        from start: (what: String, timeout: Double, condition: (PlayerSnapshot) -> Bool), over seconds: Double, within timeout: Double,
        file: StaticString = #filePath, line: UInt = #line
    ) -> (rate: Double, last: PlayerSnapshot) {
        var startAt = DispatchTime.now()
        let first = wait(engine, start.timeout, file: file, line: line, start.what) {
            startAt = DispatchTime.now()
            return start.condition($0)
        }
        let heard0 = recorder.recordedBytes
        var lastAt = DispatchTime.now()
        let last = wait(engine, timeout, file: file, line: line, "\(seconds) s of the recording later \(label)") {
            lastAt = DispatchTime.now()
            return $0.position > first.position + seconds
        }
        let sink = Double(recorder.recordedBytes - heard0) / 2 / Double(MonitorRecorder.rate)
        let wall = Double(lastAt.uptimeNanoseconds - startAt.uptimeNanoseconds) / 1e9
        let rate = (last.position - first.position) / wall
        print("audio: \(label) the position moved \(String(format: "%.2f", last.position - first.position)) s in \(String(format: "%.2f", wall)) s (rate \(String(format: "%.2f", rate)); \(String(format: "%.2f", sink)) s of the sink's audio had reached parec)")
        return (rate, last)
    }

    private func logEvents() -> [String] {
        guard let playLog, let text = try? String(contentsOf: playLog, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count > 3 ? "\(fields[1]) \(fields[3])" : String(line)
        }
    }

    /// Seconds between the first and last 20 ms window louder than `threshold`.
    private func audibleSpan(_ samples: [Int16], threshold: Double = 0.01) -> Double {
        let window = MonitorRecorder.rate / 50
        var first: Int?
        var last = 0
        var index = 0
        while index + window <= samples.count {
            if AudioTestSupport.rms(Array(samples[index..<(index + window)])) > threshold {
                if first == nil { first = index }
                last = index + window
            }
            index += window
        }
        guard let first else { return 0 }
        return Double(last - first) / Double(MonitorRecorder.rate)
    }

    // MARK: - Playing

    func testPlaysOverHTTPAndTheSoundReachesTheSink() throws {
        let env = try env()
        let engine = makeEngine()
        let recorder = try MonitorRecorder(server: env.pulse.server)
        let title = "Nachtwacht — 3208"
        engine.play(AudioRequest(token: 7, url: "\(env.nginx.base)/\(Self.short.name)", title: title))
        XCTAssertEqual(engine.snapshot().status, .loading)
        XCTAssertEqual(engine.snapshot().token, 7)

        let playing = wait(engine, 3, "playing") { $0.status == .playing }
        let duration = try XCTUnwrap(playing.duration)
        XCTAssertEqual(duration, Self.short.seconds, accuracy: 0.04)
        if let startup = engine.startupLatency { print("audio: play → first PCM write \(Int(startup * 1000)) ms (http)") }

        // The stream is named for the visitor's sound settings.
        var streams: [[String: String]] = []
        AudioTestSupport.waitUntil(2) {
            streams = env.pulse.sinkInputs().filter { $0["application.name"] == "docent" }
            return !streams.isEmpty
        }
        XCTAssertEqual(streams.count, 1)
        XCTAssertEqual(streams.first?["media.name"], title)

        var cpuStart = rusage()
        getrusage(RUSAGE_SELF.rawValue, &cpuStart)
        let wallStart = Date()
        let ended = wait(engine, 8, "ended") { $0.status == .ended }
        var cpuEnd = rusage()
        getrusage(RUSAGE_SELF.rawValue, &cpuEnd)
        let cpu = Double(cpuEnd.ru_utime.tv_sec - cpuStart.ru_utime.tv_sec + cpuEnd.ru_stime.tv_sec - cpuStart.ru_stime.tv_sec)
            + Double(cpuEnd.ru_utime.tv_usec - cpuStart.ru_utime.tv_usec + cpuEnd.ru_stime.tv_usec - cpuStart.ru_stime.tv_usec) / 1e6
        print("audio: CPU while playing \(String(format: "%.1f", 100 * cpu / max(0.1, Date().timeIntervalSince(wallStart))))% of one core (test process, includes polling)")
        XCTAssertEqual(ended.token, 7)
        XCTAssertEqual(ended.position, duration, accuracy: 0.01)
        XCTAssertNil(ended.failure)
        XCTAssertTrue(recorder.waitForMore(seconds: 0.3), "the recording goes on past the end")
        let samples = recorder.stop()
        let rms = AudioTestSupport.rms(samples)
        let span = audibleSpan(samples)
        print("audio: recorded \(samples.count) samples, RMS \(String(format: "%.3f", rms)), audible span \(String(format: "%.2f", span)) s")
        XCTAssertGreaterThan(rms, 0.01, "the sink heard silence")
        XCTAssertGreaterThan(Double(samples.count) / Double(MonitorRecorder.rate), Self.short.seconds)
        XCTAssertGreaterThan(span, Self.short.seconds * 0.6)
        XCTAssertLessThan(span, Self.short.seconds + 1.5)
        XCTAssertTrue(AudioTestSupport.waitUntil(2) { env.pulse.sinkInputs().isEmpty }, "the stream is removed at the end")
        XCTAssertEqual(logEvents(), ["start \(title)", "ended \(title)"])
    }

    /// A recording heard whole is kept; when its server cannot be reached later, the kept
    /// copy plays (and is heard at the sink). One cut short or sought away from is not kept.
    func testARecordingHeardOnceIsKeptAndPlaysOffline() throws {
        let env = try env()
        let kept = AudioTestSupport.uniqueTemp("docent-kept-audio")
        defer { try? FileManager.default.removeItem(at: kept) }
        // A server of its own (its own root: the port file lives there), stopped below.
        let ownRoot = AudioTestSupport.uniqueTemp("docent-kept-root")
        try FileManager.default.createDirectory(at: ownRoot, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: ownRoot) }
        for name in [Self.short.name, Self.long.name] {
            try FileManager.default.copyItem(at: env.root.appendingPathComponent(name), to: ownRoot.appendingPathComponent(name))
        }
        let own = TestNginx(root: ownRoot)
        try own.start()
        defer { own.stop() }
        let url = "\(own.base)/\(Self.short.name)"
        let engine = LiveAudioEngine(configuration: .init(connectTimeout: 2, stallTimeout: 2, probeInterval: 0.5, keptAudioDirectory: kept.path))
        self.engine = engine
        engine.play(AudioRequest(token: 1, url: url, title: "online"))
        XCTAssertFalse(wait(engine, 8, "ended online") { $0.status == .ended }.keptCopy)
        let files = try FileManager.default.contentsOfDirectory(atPath: kept.path)
        XCTAssertEqual(files.count, 1, "one whole copy, no temporary left: \(files)")
        let original = try Data(contentsOf: env.root.appendingPathComponent(Self.short.name))
        XCTAssertEqual(try Data(contentsOf: kept.appendingPathComponent(files[0])), original)

        // The server goes away: the kept copy plays, and the sink hears it.
        own.stop()
        let recorder = try MonitorRecorder(server: env.pulse.server)
        engine.play(AudioRequest(token: 2, url: url, title: "offline"))
        let ended = wait(engine, 8, "ended offline") { $0.status == .ended || $0.status == .failed }
        XCTAssertEqual(ended.status, .ended, "\(String(describing: ended.failure))")
        XCTAssertNil(ended.failure)
        XCTAssertTrue(ended.keptCopy, "the player is told it plays the kept copy")
        let samples = recorder.stop()
        XCTAssertGreaterThan(AudioTestSupport.rms(samples), 0.01, "the sink heard silence")

        // Never heard whole (a URL of the dead server not played before): a network failure.
        engine.play(AudioRequest(token: 3, url: "\(own.base)/\(Self.long.name)", title: "never kept"))
        let failed = wait(engine, 8, "failed") { $0.status == .failed }
        guard case .network? = failed.failure else { return XCTFail("\(String(describing: failed.failure))") }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: kept.path).count, 1)
    }

    /// "Save for offline": the missing recordings fetched ahead (progress after each, a 404
    /// stops it with what came before kept, a second run fetches only what is missing), then
    /// played by the player with the server gone; removed on request.
    func testATourSavedAheadPlaysWithTheServerGone() throws {
        let env = try env()
        let dir = AudioTestSupport.uniqueTemp("docent-saved-audio")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ownRoot = AudioTestSupport.uniqueTemp("docent-saved-root")
        try FileManager.default.createDirectory(at: ownRoot, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: ownRoot) }
        for name in [Self.short.name, Self.shorter.name] {
            try FileManager.default.copyItem(at: env.root.appendingPathComponent(name), to: ownRoot.appendingPathComponent(name))
        }
        let own = TestNginx(root: ownRoot)
        try own.start()
        defer { own.stop() }
        let kept = KeptRecordings(directory: dir.path)
        let urls = ["\(own.base)/\(Self.shorter.name)", "\(own.base)/later.mp3", "\(own.base)/\(Self.short.name)"]
        var seen: [Int] = []
        let failure = kept.save(urls, fetcher: CurlFetcher()) { seen.append($0.kept) }
        guard case .fetch(.http(404, _))? = failure else { return XCTFail("\(String(describing: failure))") }
        XCTAssertEqual(seen, [1])
        XCTAssertEqual(kept.tally(urls).kept, 1)
        // The missing file appears; saving again fetches only the two not kept.
        try FileManager.default.copyItem(at: env.root.appendingPathComponent(Self.short.name), to: ownRoot.appendingPathComponent("later.mp3"))
        XCTAssertNil(kept.save(urls, fetcher: CurlFetcher()) { seen.append($0.kept) })
        XCTAssertEqual(seen, [1, 2, 3])
        // nginx logs a request after answering it: wait for the lines, then count them.
        func requests(_ name: String) -> Int { own.accessLog().filter { $0.contains("GET /\(name) ") }.count }
        AudioTestSupport.waitUntil(5) { requests("later.mp3") == 2 && requests(Self.short.name) == 1 }
        XCTAssertEqual(requests(Self.shorter.name), 1, "what was kept is not fetched again")
        XCTAssertEqual(requests("later.mp3"), 2, "the 404, then the file")
        XCTAssertEqual(requests(Self.short.name), 1)
        let sizes = try [Self.shorter.name, Self.short.name, Self.short.name].map { try Data(contentsOf: env.root.appendingPathComponent($0)).count }
        XCTAssertEqual(kept.tally(urls).bytes, sizes.reduce(0, +))

        own.stop()
        let engine = LiveAudioEngine(configuration: .init(connectTimeout: 2, stallTimeout: 2, probeInterval: 0.5, keptAudioDirectory: dir.path))
        self.engine = engine
        let recorder = try MonitorRecorder(server: env.pulse.server)
        engine.play(AudioRequest(token: 1, url: urls[2], title: "saved ahead"))
        let ended = wait(engine, 8, "ended from the saved copy") { $0.status == .ended || $0.status == .failed }
        XCTAssertEqual(ended.status, .ended, "\(String(describing: ended.failure))")
        XCTAssertGreaterThan(AudioTestSupport.rms(recorder.stop()), 0.01, "the sink heard silence")

        kept.remove(urls)
        XCTAssertEqual(kept.tally(urls).kept, 0)
    }

    /// Issue 45: "save for offline" kept whatever came (a web page, 500 MB of zeros) as a
    /// recording, held each whole in memory, and said a full disk was "the museum's server
    /// cannot be reached". What is not MP3 is not kept; a full disk is said as such.
    func testSavingForOfflineKeepsOnlyMP3AndSaysAFullDisk() throws {
        let env = try env()
        let dir = AudioTestSupport.uniqueTemp("docent-saved-checked")
        defer { try? FileManager.default.removeItem(at: dir) }
        let kept = KeptRecordings(directory: dir.path)
        let page = "\(env.nginx.base)/page.mp3"
        let failure = kept.save([page], fetcher: CurlFetcher()) { _ in }
        XCTAssertEqual(failure, .notAudio(url: page))
        XCTAssertEqual(failure?.problem, .unreadable)
        XCTAssertEqual(kept.tally([page]).kept, 0, "the web page is not kept")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "no part file left")
        // A recording with cover art over 64 KiB is one.
        let art = try AudioDecoderTests.coverArtMP3(pictureBytes: 150_000)
        defer { try? FileManager.default.removeItem(at: art.deletingLastPathComponent()) }
        XCTAssertNil(kept.save([art.path], fetcher: CurlFetcher()) { _ in })
        XCTAssertEqual(kept.tally([art.path]).kept, 1)
        // The disk is full: /dev/full answers every write with ENOSPC.
        XCTAssertEqual(KeptRecordings.write([1, 2, 3], to: "/dev/full"), .diskFull("No space left on device"))
        XCTAssertEqual(KeptRecordings.SaveFailure.diskFull("x").problem, .diskFull)
    }

    /// Issue 45 #6: "save for offline" looked at its cancel only between recordings (each up
    /// to 300 s): a server that sends half a recording and then nothing held it. Cancelled in
    /// the middle of that recording, it stops at once: nothing kept, no part file, the next
    /// recording never asked for.
    func testSavingForOfflineStopsInTheMiddleOfARecording() throws {
        let env = try env()
        let dir = AudioTestSupport.uniqueTemp("docent-saved-cancelled")
        defer { try? FileManager.default.removeItem(at: dir) }
        let kept = KeptRecordings(directory: dir.path)
        // Half the recording, then 60 s of nothing (`MisbehavingServer`'s /stall/).
        let stalled = "\(env.misbehaving.base)/stall/\(Self.short.name)"
        // A name no other test asks for (the server's request log is the class's).
        let nextName = "not-asked-\(UUID().uuidString).mp3"
        let next = "\(env.misbehaving.base)/stall/\(nextName)"
        final class Outcome: @unchecked Sendable { var failure: KeptRecordings.SaveFailure?; var progress = 0 }
        let outcome = Outcome()
        let cancellation = FetchCancellation()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            outcome.failure = kept.save([stalled, next], fetcher: CurlFetcher(), progress: { _ in outcome.progress += 1 }, cancellation: cancellation)
            done.signal()
        }
        func partBytes() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.filter { $0.contains(".part-") }.compactMap {
                (try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent($0).path))?[.size] as? Int
            }.reduce(0, +)
        }
        XCTAssertTrue(AudioTestSupport.waitUntil(10) { partBytes() > 0 }, "the first half of the recording arrives")
        XCTAssertEqual(done.wait(timeout: .now()), .timedOut, "still waiting on the stalled server")
        cancellation.cancel()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "stopped in the middle of the recording, not at the server's 60 s")
        XCTAssertNil(outcome.failure, "a cancel is not a failure")
        XCTAssertEqual(outcome.progress, 0)
        XCTAssertEqual(kept.tally([stalled, next]).kept, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "no part file left")
        XCTAssertFalse(env.misbehaving.requests().contains { $0.contains(nextName) }, "the next recording is not asked for")
    }

    /// Issue 45 #9: a recording that changes from 44.1 kHz stereo to 22.05 kHz mono in the
    /// middle played its second part at 4× the pitch, and the clock froze (at the length guessed
    /// from the size, 2.4 s, until the end of the input was decoded). Over HTTP, to a real
    /// sound server with a small buffer: the last second the sink heard is the 440 Hz sine, the
    /// clock is seen running through 3–4.2 s, and the recording ends at its 6 s.
    func testAFormatChangeInTheMiddlePlaysAtThePitchWithAMovingClock() throws {
        let env = try env()
        let made = try AudioDecoderTests.formatChangeMP3()
        defer { try? FileManager.default.removeItem(at: made.deletingLastPathComponent()) }
        let name = "format-change-\(getpid()).mp3"
        let served = env.root.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: served)
        try FileManager.default.copyItem(at: made, to: served)
        defer { try? FileManager.default.removeItem(at: served) }
        // A small buffer: the end of the input is decoded only near the end of the recording.
        let engine = LiveAudioEngine(configuration: .init(connectTimeout: 3, stallTimeout: 2, probeInterval: 0.5, bufferBytes: 64 * 1024))
        self.engine = engine
        let recorder = try MonitorRecorder(server: env.pulse.server)
        engine.play(AudioRequest(token: 31, url: "\(env.nginx.base)/\(name)", title: "format change"))
        let running = wait(engine, 12, "the clock between 3 and 4.2 s") { $0.status == .playing && $0.position > 3 && $0.position < 4.2 }
        XCTAssertGreaterThan(running.position, 3, "the clock runs past the guessed length")
        let ended = wait(engine, 12, "ended") { $0.status == .ended || $0.status == .failed }
        XCTAssertEqual(ended.status, .ended, "\(String(describing: ended.failure))")
        XCTAssertEqual(ended.position, 6, accuracy: 0.2, "6 s of recording")
        XCTAssertTrue(recorder.waitForMore(seconds: 0.2), "the recording goes on past the end")
        let samples = recorder.stop()
        // The sink's last loud second (after it, silence once the stream ended).
        let window = MonitorRecorder.rate / 50
        var lastLoud = 0
        var index = 0
        while index + window <= samples.count {
            if AudioTestSupport.rms(Array(samples[index..<(index + window)])) > 0.05 { lastLoud = index + window }
            index += window
        }
        XCTAssertGreaterThan(lastLoud, MonitorRecorder.rate, "the sink heard the sine")
        let tail = Array(samples[max(0, lastLoud - MonitorRecorder.rate)..<lastLoud])
        let hertz = AudioDecoderTests.crossingsPerSecond(tail, channels: 1, rate: MonitorRecorder.rate, lastSeconds: 0.8) / 2
        print("audio: after the format change the 440 Hz sine is heard at \(hertz) Hz")
        XCTAssertEqual(hertz, 440, accuracy: 25, "the second part at its pitch (4× would be 1760 Hz)")
    }

    /// Issue 45 #9: a redirect loop and headers too large to read said "no connection to the
    /// museum's server" (a network failure, with Space to try again); a 429 said the server
    /// did not have the recording. Each is now classified as what it is.
    func testARedirectLoopHugeHeadersAndABusyServerAreNamed() throws {
        let env = try env()
        let cases: [(String, AudioFailure)] = [("loop", .tooManyRedirects), ("bigheaders", .headersTooLarge), ("busy", .http(status: 429))]
        for (token, (mode, expected)) in cases.enumerated() {
            let engine = makeEngine()
            engine.play(AudioRequest(token: 40 + token, url: "\(env.misbehaving.base)/\(mode)/\(Self.short.name)", title: mode))
            let failed = wait(engine, 10, "\(mode): failed") { $0.status == .failed }
            XCTAssertEqual(failed.failure, expected, mode)
            engine.stop()
        }
    }

    /// Issue 45 #9: an endless stream (chunked, no length) of a recording whose first frame
    /// gives its length froze the clock at that length. Played time goes on past it, and the
    /// wrong length is no longer said.
    func testAnEndlessStreamKeepsTheClockMoving() throws {
        let env = try env()
        // A VBR recording of 3 s: its Xing header gives its frame count, which mpg123 takes
        // for the stream's length.
        let dir = AudioTestSupport.uniqueTemp("docent-endless")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("tone.wav").path
        XCTAssertEqual(AudioTestSupport.run("sox", ["-n", "-r", "44100", "-c", "2", wav, "synth", "3", "sine", "440", "vol", "0.5"]).status, 0)
        let name = "endless-\(getpid()).mp3"
        let served = env.root.appendingPathComponent(name)
        XCTAssertEqual(AudioTestSupport.run("lame", ["--quiet", "-V", "5", wav, served.path], timeout: 60).status, 0)
        defer { try? FileManager.default.removeItem(at: served) }
        let engine = makeEngine()
        engine.play(AudioRequest(token: 50, url: "\(env.misbehaving.base)/endless/\(name)", title: "endless"))
        let past = wait(engine, 12, "the clock past one copy's length") { $0.status == .playing && $0.position > 4.5 }
        XCTAssertGreaterThan(past.position, 4.5)
        XCTAssertNil(past.duration, "a length the stream has passed is not shown")
        engine.stop()
    }

    /// Issue 45 #9: an Info/Xing header that claims ten times the frames the file has showed
    /// "Finished" at ten times its length. What was played to the end is the length.
    func testALyingXingHeaderDoesNotMakeTheEndTenTimesLater() throws {
        let env = try env()
        // 3 s of a sine, VBR: LAME's Xing header gives its frame count.
        let dir = AudioTestSupport.uniqueTemp("docent-xing")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("tone.wav").path, mp3 = dir.appendingPathComponent("tone.mp3").path
        XCTAssertEqual(AudioTestSupport.run("sox", ["-n", "-r", "44100", "-c", "2", wav, "synth", "3", "sine", "440", "vol", "0.5"]).status, 0)
        XCTAssertEqual(AudioTestSupport.run("lame", ["--quiet", "-V", "5", wav, mp3], timeout: 60).status, 0)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: mp3)))
        let tag = try XCTUnwrap((0..<min(bytes.count - 12, 4096)).first { i in
            (bytes[i..<(i + 4)].elementsEqual("Info".utf8) || bytes[i..<(i + 4)].elementsEqual("Xing".utf8)) && bytes[i + 7] & 1 != 0
        }, "an Info header with a frame count")
        let frames = bytes[(tag + 8)..<(tag + 12)].reduce(0) { $0 << 8 | Int($1) }
        let lie = frames * 10
        for k in 0..<4 { bytes[tag + 8 + k] = UInt8(truncatingIfNeeded: lie >> (24 - 8 * k)) }
        let name = "lying-xing-\(getpid()).mp3"
        let served = env.root.appendingPathComponent(name)
        try Data(bytes).write(to: served)
        defer { try? FileManager.default.removeItem(at: served) }
        let engine = makeEngine()
        engine.play(AudioRequest(token: 60, url: "\(env.nginx.base)/\(name)", title: "lying Xing"))
        let ended = wait(engine, 12, "ended") { $0.status == .ended || $0.status == .failed }
        XCTAssertEqual(ended.status, .ended, "\(String(describing: ended.failure))")
        XCTAssertEqual(ended.position, 3, accuracy: 0.2, "the end is where the recording ended")
        XCTAssertEqual(ended.duration ?? 0, 3, accuracy: 0.2, "the length is what was played")
    }

    func testPlaysLocalFilesByPathAndFileURL() throws {
        let env = try env()
        let engine = makeEngine()
        let recorder = try MonitorRecorder(server: env.pulse.server)
        let path = env.root.appendingPathComponent(Self.shorter.name).path
        engine.play(AudioRequest(token: 1, url: path, title: "path"))
        let playing = wait(engine, 3, "playing") { $0.status == .playing }
        XCTAssertEqual(playing.duration ?? 0, Self.shorter.seconds, accuracy: 0.04)
        if let startup = engine.startupLatency { print("audio: play → first PCM write \(Int(startup * 1000)) ms (file)") }
        wait(engine, 7, "ended") { $0.status == .ended }
        XCTAssertTrue(recorder.waitForMore(seconds: 0.2), "the recording goes on past the end")
        XCTAssertGreaterThan(AudioTestSupport.rms(recorder.stop()), 0.01)

        engine.play(AudioRequest(token: 2, url: URL(fileURLWithPath: path).absoluteString, title: "file URL"))
        let second = wait(engine, 3, "playing file://") { $0.status == .playing && $0.position > 0.3 }
        XCTAssertEqual(second.token, 2)
    }

    /// Issue 45: an MP3 whose ID3v2 tag (cover art) is over 64 KiB was refused as "not a
    /// recording", from a file and over HTTP. Both play it to the end, with sound.
    func testAnMP3WithBigCoverArtPlaysFromAFileAndOverHTTP() throws {
        let env = try env()
        let made = try AudioDecoderTests.coverArtMP3(pictureBytes: 300_000)
        defer { try? FileManager.default.removeItem(at: made.deletingLastPathComponent()) }
        let name = "cover-art-\(getpid()).mp3"
        let served = env.root.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: served)
        try FileManager.default.copyItem(at: made, to: served)
        for (token, url) in [(1, served.path), (2, "\(env.nginx.base)/\(name)")] {
            let engine = makeEngine()
            let recorder = try MonitorRecorder(server: env.pulse.server)
            engine.play(AudioRequest(token: token, url: url, title: "cover art"))
            let s = wait(engine, 10, "ended or failed: \(url)") { $0.status == .ended || $0.status == .failed }
            XCTAssertEqual(s.status, .ended, "\(url): \(String(describing: s.failure))")
            XCTAssertEqual(s.duration ?? 0, 3.0, accuracy: 0.1, url)
            XCTAssertGreaterThan(AudioTestSupport.rms(recorder.stop()), 0.01, url)
            engine.stop()
        }
    }

    /// Issue 34: an MP3 followed by garbage failed at 0:00 without playing its valid first
    /// part. What decodes plays; then the player says what failed.
    func testAnMP3FollowedByGarbagePlaysWhatDecodesThenSaysWhy() throws {
        let env = try env()
        let engine = makeEngine()
        var bytes = try Data(contentsOf: env.root.appendingPathComponent(Self.long.name))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<(256 * 1024) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        let path = env.root.appendingPathComponent("garbage-tail.mp3")
        try bytes.write(to: path)
        engine.play(AudioRequest(token: 1, url: path.path, title: "garbage tail"))
        let s = wait(engine, Self.long.seconds + 8, "failed or ended") { $0.status == .failed || $0.status == .ended }
        XCTAssertGreaterThan(s.position, Self.long.seconds - 1.5, "the valid part played first")
        guard case .other(let why)? = s.failure else { return XCTFail("expected a decoding failure, got \(String(describing: s.failure))") }
        XCTAssertTrue(why.contains("MP3 decoding failed"), why)
    }

    func testStartPositionAndSeekAfterTheEndReplays() throws {
        let env = try env()
        let engine = makeEngine()
        engine.play(AudioRequest(token: 3, url: "\(env.nginx.base)/\(Self.shorter.name)", title: "from 1 s", startAt: 1.0))
        let playing = wait(engine, 3, "playing") { $0.status == .playing }
        XCTAssertGreaterThanOrEqual(playing.position, 1.0)
        XCTAssertLessThan(playing.position, 1.6)
        wait(engine, 6, "ended") { $0.status == .ended }
        engine.seek(to: 1.5)
        let again = wait(engine, 3, "replaying") { $0.status == .playing }
        XCTAssertGreaterThanOrEqual(again.position, 1.5)
        XCTAssertEqual(again.token, 3)
    }

    /// Issue 17 #6: a saved place inside a clip plays from there (0:10 of a 12 s file, 0:40
    /// and 1:30 of a 2-minute one, from a file and over HTTP), and the sound reaches the sink.
    func testResumingInsideAClipFindsTheNextFrame() throws {
        let env = try env()
        let engine = makeEngine()
        let cases: [(url: String, at: Double)] = [
            (env.root.appendingPathComponent(Self.long.name).path, 10),
            ("\(env.nginx.base)/\(Self.long.name)", 10),
            (env.root.appendingPathComponent(Self.minutes.name).path, 40),
            ("\(env.nginx.base)/\(Self.minutes.name)", 40),
            ("\(env.nginx.base)/\(Self.minutes.name)", 90),
            ("\(env.nginx.base)/norange/\(Self.minutes.name)", 40),
        ]
        for (i, c) in cases.enumerated() {
            let token = 60 + i
            engine.play(AudioRequest(token: token, url: c.url, title: "resume", startAt: c.at))
            let playing = wait(engine, 5, "\(c.url) from \(c.at) s playing") { $0.token == token && ($0.status == .playing || $0.status == .failed) }
            XCTAssertEqual(playing.status, .playing, "\(c.url) from \(c.at) s: \(String(describing: playing.failure))")
            XCTAssertGreaterThanOrEqual(playing.position, c.at - 0.1, c.url)
            let later = wait(engine, 3, "\(c.url) advancing") { $0.token == token && $0.position > c.at + 0.5 }
            XCTAssertLessThan(later.position, c.at + 3, c.url)
        }
        engine.stop()
    }

    // MARK: - Seeking

    private func checkSeeks(_ engine: LiveAudioEngine, url: String) {
        engine.play(AudioRequest(token: 11, url: url, title: "seek"))
        wait(engine, 3, "playing past 1 s") { $0.status == .playing && $0.position >= 1.0 }
        // +10 s style: forward.
        engine.seek(to: 8)
        XCTAssertEqual(engine.snapshot().position, 8, "the target shows at once")
        let forward = wait(engine, 2, "audio from 8 s") { $0.status == .playing && $0.position > 8.1 }
        XCTAssertLessThan(forward.position, 9.5)
        // −10 s style: backward.
        engine.seek(to: 2)
        let backward = wait(engine, 2, "audio from 2 s") { $0.position > 2.1 && $0.position < 3.5 }
        XCTAssertEqual(backward.status, .playing)
        let later = wait(engine, 2, "position advancing") { $0.position > backward.position + 0.3 }
        XCTAssertLessThan(later.position, 5)
        // Beyond the end: clamped, and the track ends.
        engine.seek(to: 99)
        wait(engine, 4, "ended after seeking past the end") { $0.status == .ended }
    }

    func testSeekRestartsTheTransferWithARange() throws {
        let env = try env()
        let engine = makeEngine()
        checkSeeks(engine, url: "\(env.nginx.base)/\(Self.long.name)")
        let lines = env.nginx.accessLog().filter { $0.contains("GET /\(Self.long.name)") }
        XCTAssertTrue(lines.contains { $0.contains("\" 206 ") }, "a Range request: \(lines)")
    }

    func testSeekWorksWhenTheServerIgnoresRange() throws {
        let env = try env()
        let engine = makeEngine()
        checkSeeks(engine, url: "\(env.nginx.base)/norange/\(Self.long.name)")
        let lines = env.nginx.accessLog().filter { $0.contains("GET /norange/\(Self.long.name)") }
        XCTAssertFalse(lines.isEmpty)
        XCTAssertFalse(lines.contains { $0.contains("\" 206 ") }, "nginx ignores Range there: \(lines)")
    }

    // MARK: - Pause, volume, replace, stop

    func testPauseCorksAndResumeContinues() throws {
        let env = try env()
        let engine = makeEngine()
        engine.play(AudioRequest(token: 4, url: "\(env.nginx.base)/\(Self.long.name)", title: "pause"))
        wait(engine, 3, "playing past 0.5 s") { $0.status == .playing && $0.position > 0.5 }
        engine.pause()
        XCTAssertEqual(engine.snapshot().status, .paused)
        XCTAssertTrue(AudioTestSupport.waitUntil(2) { env.pulse.sinkInputs().first?["Corked"] == "yes" }, "corked on the server")
        // A report already under way may still land: wait until the position stops moving
        // (the same on two reads 100 ms apart), then watch that it holds for a while.
        var previous = engine.snapshot().position
        XCTAssertTrue(AudioTestSupport.waitUntil(3) {
            usleep(100_000)
            let now = engine.snapshot().position
            defer { previous = now }
            return abs(now - previous) < 0.01
        }, "the position settles once paused")
        let held = engine.snapshot().position
        usleep(600_000)  // deliberately lets time pass: a paused track must not advance
        XCTAssertEqual(engine.snapshot().position, held, accuracy: 0.05, "position holds while paused")
        XCTAssertEqual(engine.snapshot().status, .paused)

        // A seek while paused moves the position and stays paused.
        engine.seek(to: 6)
        wait(engine, 3, "at 6 s") { abs($0.position - 6) < 0.1 }
        XCTAssertEqual(engine.snapshot().status, .paused)
        XCTAssertEqual(engine.snapshot().position, 6, accuracy: 0.1)

        engine.resume()
        let resumed = wait(engine, 2, "advancing after resume") { $0.status == .playing && $0.position > 6.3 }
        XCTAssertLessThan(resumed.position, 8)
        XCTAssertEqual(env.pulse.sinkInputs().first?["Corked"], "no")
    }

    /// Between the output's reports (a few a second) a playing position moves on with the
    /// clock, never backwards, and stays with the sink: the guide's clock ticks on the second
    /// without the output waking ten times a second.
    func testThePositionMovesOnBetweenReportsAndNeverBack() throws {
        let env = try env()
        let engine = makeEngine()
        let recorder = try MonitorRecorder(server: env.pulse.server)
        defer { _ = recorder.stop() }
        engine.play(AudioRequest(token: 5, url: env.root.appendingPathComponent(Self.long.name).path, title: "moving"))
        let start = wait(engine, 3, "playing past 0.3 s") { $0.status == .playing && $0.position > 0.3 }
        let heard0 = recorder.recordedBytes
        var positions: [Double] = []
        let deadline = Date().addingTimeInterval(1.5)
        while Date() < deadline {
            let s = engine.snapshot()
            guard s.status == .playing else { break }
            positions.append(s.position)
            usleep(20_000)  // sampling the position as a loop would, not waiting for an event
        }
        let sinkSeconds = Double(recorder.recordedBytes - heard0) / 2 / Double(MonitorRecorder.rate)
        XCTAssertGreaterThan(positions.count, 40)
        XCTAssertEqual(zip(positions, positions.dropFirst()).filter { $1 < $0 }.count, 0, "never back")
        XCTAssertGreaterThan(Set(positions).count, positions.count / 2, "it moves between reports: \(Set(positions).count) values in \(positions.count) looks")
        // From the first look, taken just after the sink's count was read (the wait for 0.3 s
        // can return a moment late under load, and that moment is not in the sink's count).
        let moved = (positions.last ?? 0) - (positions.first ?? start.position)
        print("audio: the position moved \(String(format: "%.2f", moved)) s while the sink heard \(String(format: "%.2f", sinkSeconds)) s, \(Set(positions).count) values in \(positions.count) looks")
        XCTAssertEqual(moved, sinkSeconds, accuracy: 0.4, "with the sink")
    }

    /// Issue 16 #4: at 1.5× and 2× the recording's seconds pass faster than the sink's, the
    /// pitch stays (a 440 Hz sine is still 440 Hz, not 660), seeking lands where asked, and
    /// the end is the recording's length. Time is the sink's own (parec's samples).
    func testSpeedKeepsThePitchAndThePositionCountsTheRecordingsSeconds() throws {
        let env = try env()
        let engine = makeEngine()
        engine.setSpeed(1.5)
        let recorder = try MonitorRecorder(server: env.pulse.server)
        engine.play(AudioRequest(token: 21, url: "\(env.nginx.base)/\(Self.minutes.name)", title: "speed", startAt: 30))
        // Measured from 1.5 s into the recording: in the first second at 1.5× the position was
        // seen running up to half a second ahead of the sink (a rate of 1.95 in a fresh clone;
        // issue 30 stays open for it), which this test is not about. Against the monotonic
        // clock, as the 0.75× test is: CI measured 1.01 against the bytes parec had handed
        // over, which lag the sink by however long a loaded machine keeps parec waiting.
        let measured = pace(engine, recorder, "at 1.5×", from: ("playing past 31.5 s", 6, { $0.status == .playing && $0.position > 31.5 }), over: 3, within: 8)
        let later = measured.last
        XCTAssertEqual(measured.rate, 1.5, accuracy: 0.25, "the recording's seconds at 1.5×")
        // lame pads the 120 s sine a little; stretched it would be 80 s.
        XCTAssertEqual(later.duration ?? 0, Self.minutes.seconds, accuracy: 1, "the duration is the recording's, not the stretched one")

        // The pitch: zero crossings of the middle second of what the sink heard.
        let samples = recorder.stop()
        let window = MonitorRecorder.rate / 50
        var loud: [Int] = []
        var index = 0
        while index + window <= samples.count {
            if AudioTestSupport.rms(Array(samples[index..<(index + window)])) > 0.05 { loud.append(index) }
            index += window
        }
        let loudFirst = try XCTUnwrap(loud.first), loudLast = try XCTUnwrap(loud.last)
        XCTAssertGreaterThan(loudLast - loudFirst, MonitorRecorder.rate * 2, "the sink heard the sine")
        let middle = (loudFirst + loudLast) / 2
        let second = samples[(middle - MonitorRecorder.rate / 2)..<(middle + MonitorRecorder.rate / 2)]
        var crossings = 0
        var previous = second.first ?? 0
        for sample in second.dropFirst() {
            if (previous < 0) != (sample < 0) { crossings += 1 }
            previous = sample
        }
        let hertz = Double(crossings) / 2
        print("audio: at 1.5× the 440 Hz sine is heard at \(hertz) Hz")
        XCTAssertEqual(hertz, 440, accuracy: 20, "the pitch is kept (a resampled 1.5× would be 660 Hz)")

        // Seeking at 1.5× lands where asked; 2× from there, and the end is the recording's.
        engine.seek(to: 108)
        let landed = wait(engine, 3, "audio from 108 s") { $0.status == .playing && $0.position > 108.1 }
        XCTAssertLessThan(landed.position, 110, "the seek landed at 108 s, not later")
        engine.setSpeed(2)
        // The last report before the end is close to the end of the recording (at 2×, the
        // stretched output would have ended with the position near 114 s).
        var lastPlaying = landed
        let ended = wait(engine, 12, "ended") {
            if $0.status == .playing { lastPlaying = $0 }
            return $0.status == .ended
        }
        XCTAssertEqual(ended.position, ended.duration ?? 0, accuracy: 0.05, "the end is the recording's length")
        XCTAssertGreaterThan(lastPlaying.position, (ended.duration ?? 0) - 1.5, "the position reached the end while playing")
        XCTAssertNil(ended.failure)
    }

    /// Going back to 1× keeps playing at the recording's own pace (through SoundTouch until
    /// the next seek, then straight through again).
    func testBackToNormalSpeedPlaysAtTheRecordingsPace() throws {
        let env = try env()
        let engine = makeEngine()
        let recorder = try MonitorRecorder(server: env.pulse.server)
        defer { _ = recorder.stop() }
        engine.setSpeed(0.75)
        engine.play(AudioRequest(token: 22, url: env.root.appendingPathComponent(Self.minutes.name).path, title: "slow", startAt: 10))
        // Against the monotonic clock, not parec's bytes (`pace`).
        let slow = pace(engine, recorder, "at 0.75×", from: ("playing past 10.3 s", 5, { $0.status == .playing && $0.position > 10.3 }), over: 4.5, within: 10)
        XCTAssertEqual(slow.rate, 0.75, accuracy: 0.1, "the recording's seconds at 0.75×")
        engine.setSpeed(1)
        // What SoundTouch and the server still hold at 0.75× plays out first: on a loaded
        // machine more than a second of it (a fresh-clone run measured 0.82 over 1 s + 2 s), so
        // the pace is measured from 2.5 s after the change, over 6 s: parec hands the monitor
        // over in bursts that a loaded machine delays by up to half a second (a CI run measured
        // 1.18 over 3 s), so it is measured over 6 s.
        let normal = pace(engine, recorder, "back at 1×", from: ("2.5 s after the change", 5, { $0.position > slow.last.position + 2.5 }), over: 6, within: 14)
        XCTAssertEqual(normal.rate, 1, accuracy: 0.1, "back to the recording's pace")
        engine.seek(to: 50)
        let after = wait(engine, 3, "audio from 50 s") { $0.status == .playing && $0.position > 50.1 }
        XCTAssertLessThan(after.position, 51.5)
        // And the sink heard it all along: 6 s at 0.75×, then about 9 s at 1×.
        XCTAssertGreaterThan(audibleSpan(recorder.stop()), 12, "the sink heard the recording")
    }

    func testVolumeIsTheStreamsOwn() throws {
        let env = try env()
        let engine = makeEngine()
        engine.setVolume(0.5)
        engine.play(AudioRequest(token: 5, url: "\(env.nginx.base)/\(Self.long.name)", title: "volume"))
        wait(engine, 3, "playing") { $0.status == .playing }
        XCTAssertEqual(engine.snapshot().volume, 0.5)
        // Linear amplitude 0.5 is PulseAudio's cubic 79 %.
        XCTAssertTrue(AudioTestSupport.waitUntil(2) { env.pulse.sinkInputs().first?["Volume"]?.contains("79%") == true },
            "\(env.pulse.sinkInputs())")
        engine.setVolume(1)
        XCTAssertTrue(AudioTestSupport.waitUntil(2) { env.pulse.sinkInputs().first?["Volume"]?.contains("100%") == true })
        engine.setVolume(-3)
        XCTAssertEqual(engine.snapshot().volume, 0)
    }

    func testPlayReplacesAndStopRemovesTheStreamPromptly() throws {
        let env = try env()
        let engine = makeEngine()
        engine.play(AudioRequest(token: 1, url: "\(env.nginx.base)/\(Self.long.name)", title: "first"))
        wait(engine, 3, "first playing") { $0.status == .playing }
        let replacedAt = Date()
        engine.play(AudioRequest(token: 2, url: "\(env.nginx.base)/\(Self.short.name)", title: "second"))
        XCTAssertEqual(engine.snapshot().token, 2)
        XCTAssertTrue(AudioTestSupport.waitUntil(2) {
            let streams = env.pulse.sinkInputs()
            return streams.count == 1 && streams.first?["media.name"] == "second"
        }, "\(env.pulse.sinkInputs())")
        print("audio: replace → old stream gone, new one up in \(Int(Date().timeIntervalSince(replacedAt) * 1000)) ms (includes pactl)")
        let stoppedAt = Date()
        engine.stop()
        XCTAssertEqual(engine.snapshot().status, .idle)
        XCTAssertTrue(AudioTestSupport.waitUntil(2) { env.pulse.sinkInputs().isEmpty })
        print("audio: stop → stream gone in \(Int(Date().timeIntervalSince(stoppedAt) * 1000)) ms (includes pactl)")
        XCTAssertEqual(logEvents(), ["start first", "stopped first", "start second", "stopped second"])
        usleep(300_000)  // deliberately lets time pass: a late report would arrive in it
        XCTAssertEqual(engine.snapshot().status, .idle, "no late report from the stopped tracks")
    }

    // MARK: - Failures

    func testHTTPErrorsAreStates() throws {
        let env = try env()
        let engine = makeEngine()
        engine.play(AudioRequest(token: 1, url: "\(env.nginx.base)/missing.mp3", title: "404"))
        var s = wait(engine, 3, "404") { $0.status == .failed }
        XCTAssertEqual(s.failure, .http(status: 404))
        XCTAssertEqual(s.token, 1)

        engine.play(AudioRequest(token: 2, url: "\(env.nginx.base)/page.mp3", title: "page"))
        s = wait(engine, 3, "not audio") { $0.status == .failed }
        XCTAssertEqual(s.failure, .notAudio)

        let port = try Self.unusedPort()
        engine.play(AudioRequest(token: 3, url: "http://127.0.0.1:\(port)/x.mp3", title: "refused"))
        s = wait(engine, 3, "refused") { $0.status == .failed }
        guard case .network = s.failure else { return XCTFail("expected .network, got \(String(describing: s.failure))") }
        XCTAssertEqual(logEvents().filter { $0.hasPrefix("failed") }, ["failed 404", "failed page", "failed refused"])
        XCTAssertTrue(s.outputAvailable)
    }

    func testMissingFilesAreFileNotFound() throws {
        _ = try env()
        let engine = makeEngine()
        engine.play(AudioRequest(token: 1, url: "/nonexistent/dir/x.mp3", title: "path"))
        var s = wait(engine, 2, "missing path") { $0.status == .failed }
        XCTAssertEqual(s.failure, .fileNotFound("/nonexistent/dir/x.mp3"))
        engine.play(AudioRequest(token: 2, url: "file:///nonexistent/y.mp3", title: "url"))
        s = wait(engine, 2, "missing file URL") { $0.status == .failed }
        XCTAssertEqual(s.failure, .fileNotFound("/nonexistent/y.mp3"))
    }

    func testDroppedConnectionIsANetworkFailureAfterWhatArrivedPlayed() throws {
        let env = try env()
        let engine = makeEngine()
        engine.play(AudioRequest(token: 1, url: "\(env.misbehaving.base)/drop/\(Self.shorter.name)", title: "drop"))
        wait(engine, 3, "playing") { $0.status == .playing }
        let s = wait(engine, 6, "failure") { $0.status == .failed }
        guard case .network(let why) = s.failure else { return XCTFail("expected .network, got \(String(describing: s.failure))") }
        print("audio: dropped mid-file → \(why) at \(s.position) s")
        XCTAssertGreaterThan(s.position, 0.5, "the first half played")
        XCTAssertLessThan(s.position, Self.shorter.seconds - 0.3)
    }

    func testStalledServerTimesOut() throws {
        let env = try env()
        let engine = makeEngine()  // stallTimeout 2 s
        let started = Date()
        engine.play(AudioRequest(token: 1, url: "\(env.misbehaving.base)/stall/\(Self.shorter.name)", title: "stall"))
        let s = wait(engine, 8, "failure") { $0.status == .failed }
        guard case .network = s.failure else { return XCTFail("expected .network, got \(String(describing: s.failure))") }
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 1.5)
    }

    /// 416 to a Range request (issue 17 #19): the same bytes by a plain download.
    func testRangeAnswered416FallsBackToAPlainDownload() throws {
        let env = try env()
        let engine = makeEngine()
        engine.play(AudioRequest(token: 1, url: "\(env.misbehaving.base)/norange416/\(Self.long.name)", title: "416"))
        wait(engine, 6, "playing past 3 s") { $0.status == .playing && $0.position > 3 }
        engine.seek(to: 1)
        let s = wait(engine, 3, "audio from 1 s") { $0.status == .playing && $0.position > 1.2 && $0.position < 3 }
        XCTAssertNil(s.failure)
        let ranges = env.misbehaving.requests().filter { $0.hasPrefix("norange416 ") }.map { $0.split(separator: " ").last.map(String.init) ?? "" }
        XCTAssertEqual(ranges.first, "-")
        XCTAssertTrue(ranges.contains { $0.hasPrefix("bytes=") }, "a Range was tried: \(ranges)")
        XCTAssertEqual(ranges.last, "-", "then a plain request: \(ranges)")
    }

    /// A server whose Content-Length is too short (issue 17 #19): what arrived plays, then the
    /// player says so, not "not MP3 audio".
    func testTooShortContentLengthIsReportedAsSuch() throws {
        let env = try env()
        let engine = makeEngine()
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: env.root.appendingPathComponent(Self.long.name).path)[.size] as? Int)
        engine.play(AudioRequest(token: 1, url: "\(env.misbehaving.base)/shortlength/\(Self.long.name)", title: "short"))
        var s = wait(engine, 10, "failed") { $0.status == .failed }
        XCTAssertEqual(s.failure, .contentLengthTooShort(announced: size / 4))
        XCTAssertGreaterThan(s.position, 2, "the quarter that arrived played first")
        // Resuming past the announced end: the same words, at once.
        engine.play(AudioRequest(token: 2, url: "\(env.misbehaving.base)/shortlength/\(Self.long.name)", title: "short", startAt: 10))
        s = wait(engine, 3, "failed") { $0.status == .failed }
        XCTAssertEqual(s.failure, .contentLengthTooShort(announced: size / 4))
    }

    func testNoSoundServerFailsAtOnceAndTheProbeNoticesOne() throws {
        _ = try env()
        let late = TestPulse()
        defer { late.stop() }
        setenv("PULSE_SERVER", late.server, 1)  // nothing listens there yet
        let engine = makeEngine()
        let started = Date()
        engine.play(AudioRequest(token: 9, url: AudioTestSupport.sampleAudio.appendingPathComponent(Self.shorter.name).path, title: "quiet"))
        let s = wait(engine, 1, "no sound server") { $0.status == .failed }
        print("audio: no sound server reported after \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5)
        guard case .noSoundServer(let why) = s.failure else { return XCTFail("expected .noSoundServer, got \(String(describing: s.failure))") }
        XCTAssertEqual(why, "Connection refused")
        XCTAssertFalse(s.outputAvailable)
        usleep(700_000)  // deliberately lets time pass: more than one 0.5 s probe interval
        XCTAssertFalse(engine.snapshot().outputAvailable, "still none after a probe")

        try late.start()
        wait(engine, 3, "a probe finds the server") { $0.outputAvailable }
        XCTAssertEqual(engine.snapshot().status, .failed, "the guide decides to retry")
        engine.play(AudioRequest(token: 10, url: AudioTestSupport.sampleAudio.appendingPathComponent(Self.shorter.name).path, title: "retry"))
        wait(engine, 3, "playing on the new server") { $0.status == .playing }
        XCTAssertEqual(late.sinkInputs().first?["media.name"], "retry")
    }

    func testSoundServerKilledMidPlayIsSoundServerLost() throws {
        let env = try env()
        let engine = makeEngine()
        engine.play(AudioRequest(token: 1, url: "\(env.nginx.base)/\(Self.long.name)", title: "lost"))
        wait(engine, 3, "playing") { $0.status == .playing && $0.position > 0.3 }
        env.pulse.kill()
        let s = wait(engine, 3, "lost") { $0.status == .failed }
        guard case .soundServerLost(let why) = s.failure else { return XCTFail("expected .soundServerLost, got \(String(describing: s.failure))") }
        print("audio: sound server killed → \(why)")
        XCTAssertFalse(s.outputAvailable)
        try env.pulse.start()
        wait(engine, 3, "server back") { $0.outputAvailable }
    }

    func testPlayLogPathComesFromTheEnvironment() throws {
        _ = try env()
        let log = AudioTestSupport.uniqueTemp("docent-envlog").appendingPathExtension("tsv")
        defer { try? FileManager.default.removeItem(at: log) }
        setenv("DOCENT_PLAY_LOG", log.path, 1)
        defer { unsetenv("DOCENT_PLAY_LOG") }
        let engine = LiveAudioEngine()
        self.engine = engine
        engine.play(AudioRequest(token: 42, url: "/nonexistent/z.mp3", title: "Tab\there"))
        wait(engine, 2, "failed") { $0.status == .failed }
        // The log line may follow the status by a moment (seen under load): wait for it.
        func read() -> [[Substring]] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        }
        AudioTestSupport.waitUntil(5) { read().count >= 2 }
        let lines = read()
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines.first.map { Array($0.dropFirst().map(String.init)) }, ["start", "42", "Tab here", "/nonexistent/z.mp3"])
        XCTAssertEqual(lines.last?[1], "failed")
        XCTAssertNotNil(ISO8601DateFormatter().date(from: String(lines.first?[0].prefix(19) ?? "") + "Z"))
    }

    // MARK: -

    private static func unusedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw AudioTestSupport.Failure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw AudioTestSupport.Failure(description: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

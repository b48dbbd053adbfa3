import DocentCore
import Foundation

/// The output side of a track, on its own thread: connects to PulseAudio at once (so "no
/// sound server" is known before any byte arrives), opens the stream when the format is
/// known, and moves PCM from the ring to the server in small pieces as the server asks for
/// them. Pause is a cork, seek a flush, the end a drain.
final class TrackOutput {
    private let track: Track
    /// What the server asks for goes in one write (every write wakes libpulse's thread; 4 KiB
    /// pieces took two or three for each request at a second's buffer). Seek and stop flush
    /// the server, so a larger piece does not delay them.
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 32 * 1024, alignment: 8)
    /// Time-stretched PCM on its way to the server (playback not at 1×).
    private let stretched = UnsafeMutableRawBufferPointer.allocate(byteCount: 32 * 1024, alignment: 8)

    init(track: Track) { self.track = track }

    deinit {
        chunk.deallocate()
        stretched.deallocate()
    }

    func run() {
        defer {
            track.update { $0.outputDone = true }
            track.producerWakeup.signal()
        }
        let config = track.configuration
        let output: PulseOutput
        do {
            output = try PulseOutput(applicationName: config.applicationName, wakeup: track.outputWakeup)
            try output.connect(timeout: config.connectTimeout, isCancelled: { track.isCancelled })
        } catch {
            if !track.isCancelled { track.fail(.noSoundServer(error.message)) }
            return
        }
        defer { output.close() }
        track.report(.outputConnected)

        guard let format = waitForFormat() else { return }
        let initial = track.state
        do {
            try output.openStream(
                name: track.request.title, format: format, volume: initial.volume, corked: initial.paused,
                targetLatency: config.outputLatency, prebuffer: config.startBuffer, timeout: config.connectTimeout,
                isCancelled: { track.isCancelled })
        } catch {
            if !track.isCancelled { track.fail(.soundServerLost(error.message)) }
            return
        }
        var playback = Playback(track: track, output: output, format: format, chunk: chunk, stretched: stretched, corked: initial.paused, volume: initial.volume)
        playback.run()
    }

    /// Waits until the producer knows the format (or the track ends).
    private func waitForFormat() -> PCMFormat? {
        while !track.isCancelled {
            if let format = track.state.format { return format }
            track.outputWakeup.wait(timeout: 0.1)
        }
        return nil
    }
}

/// Which source frame each output frame came from, for the position: at 1× the two advance
/// together, through a time-stretch the output runs faster or slower than the source. One
/// point per write; the frame heard is looked up between the two points around it.
struct SpeedTimeline: Equatable {
    private(set) var points: [(output: Int, source: Double)] = []

    static func == (a: SpeedTimeline, b: SpeedTimeline) -> Bool {
        a.points.elementsEqual(b.points) { $0.output == $1.output && $0.source == $1.source }
    }

    /// A new run (a seek): output frame `output` plays source frame `source`.
    mutating func reset(output: Int, source: Double) { points = [(output, source)] }

    /// Output up to `output` carries source up to `source` (never backwards).
    mutating func mark(output: Int, source: Double) {
        let last = points.last
        let s = max(last?.source ?? source, source)
        if let last, last.output >= output {
            points[points.count - 1].source = s
            return
        }
        points.append((output, s))
    }

    /// The source frame heard when output frame `output` plays; drops points before it.
    mutating func source(atOutput output: Double) -> Double {
        guard let first = points.first else { return 0 }
        guard output > Double(first.output) else { return first.source }
        var i = 0
        while i + 1 < points.count, Double(points[i + 1].output) <= output { i += 1 }
        if i > 0 { points.removeFirst(i) }
        guard points.count > 1 else { return points[0].source }
        let a = points[0], b = points[1]
        let f = (output - Double(a.output)) / Double(b.output - a.output)
        return a.source + (b.source - a.source) * f
    }

    /// The source frame the last output written carries.
    var lastSource: Double { points.last?.source ?? 0 }
}

/// The output loop for one open stream.
private struct Playback {
    /// Seconds the output waits when nothing moved. The server asks for audio about twice a
    /// second, and the engine moves the position on between reports; a wake of its own for the
    /// position alone cost a timing report from the server each time (0.1 woke it ten times a
    /// second: a fifth of the guide's CPU while playing; 0.3, three: the engine alone used a
    /// quarter more CPU than at 1.0 for the same minute of audio).
    static let idleWait = 1.0
    /// SoundTouch is fed in 4 KiB pieces, as before the output's writes grew to 32 KiB: what it
    /// holds unprocessed is counted only roughly, and small pieces keep that error small.
    static let stretchFeed = 4096

    let track: Track
    let output: PulseOutput
    let format: PCMFormat
    let chunk: UnsafeMutableRawBufferPointer
    var corked: Bool
    var volume: Double
    /// The playback speed asked for; at 1× with no stretch running, PCM goes straight through.
    var speed = 1.0
    /// SoundTouch, while the speed is not 1× (and until the next seek after it is again).
    var stretch: TimeStretch?
    /// All input of this run is in SoundTouch's hands and it was told so.
    var stretchFlushed = false
    let stretched: UnsafeMutableRawBufferPointer
    /// Source frame just past the last frame handed to SoundTouch.
    var sourceFed = 0
    /// The seek generation of the audio being written, and the frame it started at.
    var currentRun = 0
    var runStartFrame = 0
    /// Output frames written to the server on this stream, and the source they carry.
    var outputWritten = 0
    var timeline = SpeedTimeline()
    /// A seek was seen before its audio: the next audio starts a new run.
    var runPending = false
    var started = false
    var draining = false
    var buffering = false
    var lastWrite = Date()
    var lastReported: Double = -1

    init(track: Track, output: PulseOutput, format: PCMFormat, chunk: UnsafeMutableRawBufferPointer, stretched: UnsafeMutableRawBufferPointer, corked: Bool, volume: Double) {
        self.track = track
        self.output = output
        self.format = format
        self.chunk = chunk
        self.stretched = stretched
        self.corked = corked
        self.volume = volume
        timeline.reset(output: 0, source: 0)
    }

    mutating func run() {
        while !track.isCancelled {
            if let failure = output.failure {
                track.fail(.soundServerLost(failure.message))
                return
            }
            applyControls()
            guard let wrote = stretch == nil ? moveAudio() : moveStretched() else { return }
            if draining && !corked && output.drained {
                finish()
                return
            }
            reportPosition()
            // Woken by the server asking for audio, the ring refilling and every control; the
            // timeout only moves the position on (the engine carries it between reports).
            if !wrote { track.outputWakeup.wait(timeout: Self.idleWait) }
        }
    }

    private mutating func applyControls() {
        let control = track.state
        if control.paused != corked {
            corked = control.paused
            output.setCorked(corked)
        }
        if control.volume != volume {
            volume = control.volume
            output.setVolume(volume)
        }
        if control.speed != speed {
            speed = control.speed
            if let stretch {
                stretch.setTempo(speed)
            } else if speed != 1, !draining {
                // From here on through SoundTouch; the source goes on from the next frame.
                stretch = TimeStretch(rate: format.rate, channels: format.channels, tempo: speed)
                sourceFed = Int(timeline.lastSource.rounded())
                stretchFlushed = false
            }
        }
    }

    /// Whether `span` is the first audio after a seek.
    private func startsRun(_ span: PCMRingBuffer.Span) -> Bool { span.discontinuity || span.run != currentRun || runPending }

    /// A new run began (a seek): what the server and SoundTouch still hold is dropped.
    private mutating func startRun(_ span: PCMRingBuffer.Span) {
        runPending = false
        output.flush()
        currentRun = span.run
        runStartFrame = span.firstFrame
        timeline.reset(output: outputWritten, source: Double(span.firstFrame))
        lastReported = -1
        draining = false
        stretchFlushed = false
        if speed == 1 { stretch = nil } else { stretch?.clear() }
        sourceFed = span.firstFrame
    }

    /// Writes output to the server (audio again after the drain began, a seek back, cancels
    /// the drain first).
    private mutating func written(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if draining {
            output.cancelDrain()
            draining = false
        }
        do {
            try output.write(bytes)
        } catch {
            track.fail(.soundServerLost(error.message))
            return false
        }
        outputWritten += bytes.count / format.bytesPerFrame
        lastWrite = Date()
        if !started || buffering {
            if !started { track.update { $0.firstPCMWrite = Date() } }
            started = true
            buffering = false
            track.report(.playing)
        }
        return true
    }

    /// A piece of the ring written as it is (1×): its output frames carry its source frames.
    private mutating func passStraight(_ span: PCMRingBuffer.Span) -> Bool {
        guard written(UnsafeRawBufferPointer(rebasing: chunk[0..<span.bytes])) else { return false }
        timeline.mark(output: outputWritten, source: Double(span.firstFrame + span.bytes / format.bytesPerFrame))
        return true
    }

    /// One step: reads what the server has room for and writes it. Returns whether audio was
    /// written, or nil when the track is over (closed, or the server failed).
    private mutating func moveAudio() -> Bool? {
        let writable = min(output.writableBytes(), chunk.count)
        let wanted = draining ? chunk.count : (writable >= format.bytesPerFrame ? writable : 0)
        // Read even with no room: a zero-byte read still reports a seek, so a paused stream
        // is flushed at once rather than after the old audio played on resume.
        switch track.ring.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<wanted])) {
        case .data(let span):
            if startsRun(span) { startRun(span) }
            return passStraight(span) ? true : nil
        case .empty(let discontinuity):
            if discontinuity { restartAfterSeek() }
            noteUnderrun(wanted: wanted)
            return false
        case .finished(let discontinuity):
            if discontinuity { restartAfterSeek() }
            if !draining {
                output.startDrain()
                draining = true
            }
            return false
        case .closed:
            return nil
        }
    }

    /// The same step through SoundTouch: what it made goes out first; when it has nothing
    /// ready, the ring's next piece goes in. Returns whether anything moved.
    private mutating func moveStretched() -> Bool? {
        guard let stretch else { return false }
        let writable = min(output.writableBytes(), stretched.count)
        let room = writable >= format.bytesPerFrame ? writable : 0
        var moved = false
        if room > 0, stretch.ready > 0 {
            let n = stretch.take(into: UnsafeMutableRawBufferPointer(rebasing: stretched[0..<room]))
            if n > 0 {
                guard written(UnsafeRawBufferPointer(rebasing: stretched[0..<n])) else { return nil }
                let inside = Double(stretch.unprocessed) + Double(stretch.ready) * stretch.tempo
                timeline.mark(output: outputWritten, source: Double(sourceFed) - inside)
                moved = true
            }
        }
        // Feed only when SoundTouch has too little to fill the room (it keeps what it made);
        // a zero-byte read still reports a seek.
        let feed = room > 0 && stretch.ready * format.bytesPerFrame < room ? Self.stretchFeed : 0
        switch track.ring.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<feed])) {
        case .data(let span):
            if startsRun(span) {
                startRun(span)
                // Back to 1× at a seek: this piece goes straight out.
                guard self.stretch != nil else { return passStraight(span) ? true : nil }
            }
            stretch.put(UnsafeRawBufferPointer(rebasing: chunk[0..<span.bytes]))
            sourceFed = span.firstFrame + span.bytes / format.bytesPerFrame
            return true
        case .empty(let discontinuity):
            if discontinuity { restartAfterSeek() }
            if !moved { noteUnderrun(wanted: room) }
            return moved
        case .finished(let discontinuity):
            if discontinuity { restartAfterSeek() }
            if !stretchFlushed {
                stretch.flush()
                stretchFlushed = true
                return true
            }
            if stretch.ready == 0, !draining {
                output.startDrain()
                draining = true
            }
            return moved
        case .closed:
            return nil
        }
    }

    private mutating func noteUnderrun(wanted: Int) {
        if wanted > 0, started, !buffering, !corked, Date().timeIntervalSince(lastWrite) > 0.3 {
            buffering = true
            track.report(.buffering)
        }
    }

    /// A seek whose audio has not arrived yet: silence the old audio now.
    private mutating func restartAfterSeek() {
        runPending = true
        output.flush()
        stretch?.clear()
        stretchFlushed = false
        draining = false
        lastReported = -1
    }

    private mutating func reportPosition() {
        guard started else { return }
        let seconds: Double
        if corked {
            // Paused: nothing is heard. Only a seek moves the position (to its target);
            // latency figures for a corked, just-flushed stream are not to be trusted.
            guard lastReported < 0 else { return }
            seconds = format.seconds(frames: runStartFrame)
        } else {
            // A timing report at most a second old (libpulse's own come every 1.5 s): the
            // report moved on by the clock is exact between reports, and asking each wake made
            // the server's round trip part of every one.
            guard let latency = output.latency(refresh: 1.0) else { return }
            let heard = Double(outputWritten) - latency * Double(format.rate)
            seconds = max(Double(runStartFrame), timeline.source(atOutput: heard)) / Double(format.rate)
        }
        if abs(seconds - lastReported) >= 0.02 {
            lastReported = seconds
            track.report(.position(seconds, run: currentRun))
        }
    }

    private func finish() {
        if let failure = track.state.deferredFailure {
            track.fail(failure)
        } else {
            track.report(.ended(position: timeline.lastSource / Double(max(1, format.rate))))
        }
    }
}

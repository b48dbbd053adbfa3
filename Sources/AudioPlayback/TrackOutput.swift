import DocentCore
import Foundation

/// The output side of a track, on its own thread: connects to PulseAudio at once (so "no
/// sound server" is known before any byte arrives), opens the stream when the format is
/// known, and moves PCM from the ring to the server in small pieces as the server asks for
/// them. Pause is a cork, seek a flush, the end a drain.
final class TrackOutput {
    private let track: Track
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)

    init(track: Track) { self.track = track }

    deinit { chunk.deallocate() }

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
                targetLatency: config.outputLatency, timeout: config.connectTimeout,
                isCancelled: { track.isCancelled })
        } catch {
            if !track.isCancelled { track.fail(.soundServerLost(error.message)) }
            return
        }
        var playback = Playback(track: track, output: output, format: format, chunk: chunk, corked: initial.paused, volume: initial.volume)
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

/// The output loop for one open stream.
private struct Playback {
    let track: Track
    let output: PulseOutput
    let format: PCMFormat
    let chunk: UnsafeMutableRawBufferPointer
    var corked: Bool
    var volume: Double
    /// The seek generation of the audio being written, and the frame it started at.
    var currentRun = 0
    var runStartFrame = 0
    /// Frame index just past the last frame written to the server.
    var writtenEnd = 0
    var started = false
    var draining = false
    var buffering = false
    var lastWrite = Date()
    var lastReported: Double = -1

    init(track: Track, output: PulseOutput, format: PCMFormat, chunk: UnsafeMutableRawBufferPointer, corked: Bool, volume: Double) {
        self.track = track
        self.output = output
        self.format = format
        self.chunk = chunk
        self.corked = corked
        self.volume = volume
    }

    mutating func run() {
        while !track.isCancelled {
            if let failure = output.failure {
                track.fail(.soundServerLost(failure.message))
                return
            }
            applyControls()
            guard let wrote = moveAudio() else { return }
            if draining && !corked && output.drained {
                finish()
                return
            }
            reportPosition()
            if !wrote { track.outputWakeup.wait(timeout: 0.1) }
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
            if span.discontinuity || span.run != currentRun {
                output.flush()  // a seek: drop what the server still holds
                currentRun = span.run
                runStartFrame = span.firstFrame
                lastReported = -1
                draining = false
            }
            if draining {  // audio again after the drain began (a seek back)
                output.cancelDrain()
                draining = false
            }
            do {
                try output.write(UnsafeRawBufferPointer(rebasing: chunk[0..<span.bytes]))
            } catch {
                track.fail(.soundServerLost(error.message))
                return nil
            }
            writtenEnd = span.firstFrame + span.bytes / format.bytesPerFrame
            lastWrite = Date()
            if !started || buffering {
                if !started { track.update { $0.firstPCMWrite = Date() } }
                started = true
                buffering = false
                track.report(.playing)
            }
            return true
        case .empty(let discontinuity):
            if discontinuity { restartAfterSeek() }
            if wanted > 0, started, !buffering, !corked, Date().timeIntervalSince(lastWrite) > 0.3 {
                buffering = true
                track.report(.buffering)
            }
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

    /// A seek whose audio has not arrived yet: silence the old audio now.
    private mutating func restartAfterSeek() {
        output.flush()
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
            guard let latency = output.latency() else { return }
            let heard = Double(writtenEnd) - latency * Double(format.rate)
            seconds = max(Double(runStartFrame), heard) / Double(format.rate)
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
            track.report(.ended(position: format.seconds(frames: writtenEnd)))
        }
    }
}

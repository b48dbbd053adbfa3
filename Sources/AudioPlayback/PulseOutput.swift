import CPulse
import Foundation

/// A PulseAudio failure, with `pa_strerror`'s text (cmus's `RET_PA_ERROR`).
struct PulseError: Error, Equatable, CustomStringConvertible {
    var code: Int32
    var message: String

    init(code: Int32) {
        self.code = code
        message = pa_strerror(code).map { String(cString: $0) } ?? "PulseAudio error \(code)"
    }

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }
}

/// One connection to the sound server and at most one playback stream: the asynchronous API
/// (`pa_threaded_mainloop` + `pa_context` + `pa_stream`), which gives real cork (pause) and
/// per-stream volume.
///
/// Every method is called from one thread (the output thread) and returns promptly: waits
/// go through `wakeup` with a timeout, never through `pa_threaded_mainloop_wait`, so a sound
/// server that stops answering cannot hang the player. libpulse's callbacks only signal
/// `wakeup`; state is read back under the mainloop lock.
final class PulseOutput: @unchecked Sendable {
    private let mainloop: OpaquePointer
    private let context: OpaquePointer
    private var stream: OpaquePointer?
    private var drainOperation: OpaquePointer?
    private let wakeup: Wakeup
    private let wakeupPointer: UnsafeMutableRawPointer
    private var closed = false
    private(set) var format: PCMFormat?

    /// Creates the mainloop thread and the context; `connect` connects it.
    init(applicationName: String, wakeup: Wakeup) throws(PulseError) {
        guard let mainloop = pa_threaded_mainloop_new() else {
            throw PulseError(code: Int32(PA_ERR_INTERNAL.rawValue), message: "pa_threaded_mainloop_new failed")
        }
        guard let api = pa_threaded_mainloop_get_api(mainloop),
            let context = pa_context_new(api, applicationName)
        else {
            pa_threaded_mainloop_free(mainloop)
            throw PulseError(code: Int32(PA_ERR_INTERNAL.rawValue), message: "pa_context_new failed")
        }
        self.mainloop = mainloop
        self.context = context
        self.wakeup = wakeup
        // The Wakeup outlives every callback: it is released in `close`, after the mainloop stopped.
        wakeupPointer = Unmanaged.passRetained(wakeup).toOpaque()
        pa_context_set_state_callback(context, { _, userdata in PulseOutput.signal(userdata) }, wakeupPointer)
        if pa_threaded_mainloop_start(mainloop) < 0 {
            pa_context_unref(context)
            pa_threaded_mainloop_free(mainloop)
            Unmanaged<Wakeup>.fromOpaque(wakeupPointer).release()
            closed = true
            throw PulseError(code: Int32(PA_ERR_INTERNAL.rawValue), message: "pa_threaded_mainloop_start failed")
        }
    }

    deinit { close() }

    private static func signal(_ userdata: UnsafeMutableRawPointer?) {
        guard let userdata else { return }
        Unmanaged<Wakeup>.fromOpaque(userdata).takeUnretainedValue().signal()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return body()
    }

    // MARK: - Connection

    /// Connects to the server named by `PULSE_SERVER` (or the default), never autospawning.
    /// Fails at once with "Connection refused" when there is none.
    func connect(timeout: Double, isCancelled: () -> Bool) throws(PulseError) {
        let started = locked { pa_context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) }
        if started < 0 { throw PulseError(code: locked { pa_context_errno(context) }) }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let state = locked { pa_context_get_state(context) }
            switch state {
            case PA_CONTEXT_READY:
                return
            case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
                throw PulseError(code: locked { pa_context_errno(context) })
            default:
                break
            }
            if isCancelled() { throw PulseError(code: Int32(PA_ERR_KILLED.rawValue), message: "cancelled") }
            if Date() >= deadline {
                throw PulseError(code: Int32(PA_ERR_TIMEOUT.rawValue), message: "the sound server did not answer")
            }
            wakeup.wait(timeout: 0.05)
        }
    }

    /// The connection or stream failure, if the server went away.
    var failure: PulseError? {
        locked {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                return PulseError(code: pa_context_errno(context))
            }
            if let stream {
                let streamState = pa_stream_get_state(stream)
                if streamState == PA_STREAM_FAILED || streamState == PA_STREAM_TERMINATED {
                    let code = pa_context_errno(context)
                    return PulseError(code: code == 0 ? Int32(PA_ERR_CONNECTIONTERMINATED.rawValue) : code)
                }
            }
            return nil
        }
    }

    // MARK: - Stream

    /// Creates the playback stream (media name `name`) and waits until the server accepted it.
    /// - Parameters:
    ///   - targetLatency: seconds the server buffers ahead (tlength): the longer, the fewer
    ///     wakeups (pause, seek and stop do not wait for it: they cork and flush).
    ///   - prebuffer: seconds written before the server starts playing (prebuf, at most
    ///     `targetLatency`): a slow stream starts, and restarts after running dry, this soon.
    ///   - corked: start paused.
    func openStream(
        name: String, format: PCMFormat, volume: Double, corked: Bool, targetLatency: Double,
        prebuffer: Double, timeout: Double, isCancelled: () -> Bool
    ) throws(PulseError) {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(format.rate), channels: UInt8(format.channels))
        let created: OpaquePointer? = locked {
            guard pa_sample_spec_valid(&spec) != 0, let stream = pa_stream_new(context, name, &spec, nil) else { return nil }
            pa_stream_set_state_callback(stream, { _, userdata in PulseOutput.signal(userdata) }, wakeupPointer)
            pa_stream_set_write_callback(stream, { _, _, userdata in PulseOutput.signal(userdata) }, wakeupPointer)
            let tlength = UInt32(pa_usec_to_bytes(UInt64(targetLatency * 1_000_000), &spec))
            let prebuf = UInt32(pa_usec_to_bytes(UInt64(min(prebuffer, targetLatency) * 1_000_000), &spec))
            // minreq is the server's (a quarter of tlength): asking for half at a time saved a
            // little CPU but made the position at 1.5× move in fits for the first seconds.
            var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: tlength, prebuf: prebuf, minreq: UInt32.max, fragsize: UInt32.max)
            // No INTERPOLATE_TIMING: `latency()` moves the last report on by the clock itself.
            // No AUTO_TIMING_UPDATE: libpulse then asks the server for a timing report after
            // every write as well as on its own timer, a round trip each that wakes the
            // mainloop's thread; `latency()` asks for one when the last is a second old (or
            // says the stream is not playing), and a cork or a flush asks at once.
            var flags = PA_STREAM_ADJUST_LATENCY.rawValue
            if corked { flags |= PA_STREAM_START_CORKED.rawValue }
            var cv = pa_cvolume()
            pa_cvolume_set(&cv, UInt32(format.channels), Self.paVolume(volume))
            if pa_stream_connect_playback(stream, nil, &attr, pa_stream_flags_t(rawValue: flags), &cv, nil) < 0 {
                pa_stream_unref(stream)
                return nil
            }
            return stream
        }
        guard let created else { throw PulseError(code: locked { pa_context_errno(context) }) }
        stream = created
        self.format = format
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let state = locked { pa_stream_get_state(created) }
            if state == PA_STREAM_READY { return }
            if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
                throw failure ?? PulseError(code: Int32(PA_ERR_CONNECTIONTERMINATED.rawValue))
            }
            if let failure { throw failure }
            if isCancelled() { throw PulseError(code: Int32(PA_ERR_KILLED.rawValue), message: "cancelled") }
            if Date() >= deadline {
                throw PulseError(code: Int32(PA_ERR_TIMEOUT.rawValue), message: "the sound server did not accept the stream")
            }
            wakeup.wait(timeout: 0.05)
        }
    }

    /// Bytes the server wants now (0 without a ready stream).
    func writableBytes() -> Int {
        locked {
            guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return 0 }
            let n = pa_stream_writable_size(stream)
            return n == Int.max || n == -1 ? 0 : n
        }
    }

    /// Queues PCM (libpulse copies it).
    func write(_ bytes: UnsafeRawBufferPointer) throws(PulseError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let rc: Int32 = locked {
            guard let stream else { return -Int32(PA_ERR_BADSTATE.rawValue) }
            return pa_stream_write(stream, base, bytes.count, nil, 0, PA_SEEK_RELATIVE)
        }
        if rc < 0 { throw failure ?? PulseError(code: -rc) }
    }

    /// Drops what the server still holds (seek, stop).
    func flush() {
        locked {
            guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return }
            cancelDrainLocked()
            if let op = pa_stream_flush(stream, nil, nil) { pa_operation_unref(op) }
            // Until the server confirms, latency is unknown (NODATA), not zero.
            if let op = pa_stream_update_timing_info(stream, nil, nil) { pa_operation_unref(op) }
        }
    }

    /// Pauses or resumes the stream on the server at once (cork).
    func setCorked(_ corked: Bool) {
        locked {
            guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return }
            if let op = pa_stream_cork(stream, corked ? 1 : 0, nil, nil) { pa_operation_unref(op) }
            if let op = pa_stream_update_timing_info(stream, nil, nil) { pa_operation_unref(op) }
        }
    }

    /// Sets this stream's volume on the server (linear amplitude 0…1).
    func setVolume(_ volume: Double) {
        locked {
            guard let stream, let format, pa_stream_get_state(stream) == PA_STREAM_READY else { return }
            var cv = pa_cvolume()
            pa_cvolume_set(&cv, UInt32(format.channels), Self.paVolume(volume))
            if let op = pa_context_set_sink_input_volume(context, pa_stream_get_index(stream), &cv, nil, nil) {
                pa_operation_unref(op)
            }
        }
    }

    private static func paVolume(_ volume: Double) -> pa_volume_t {
        pa_sw_volume_from_linear(min(1, max(0, volume)))
    }

    /// Seconds between a byte written now and the moment it is heard; nil while unknown (no
    /// timing update yet, or just after a flush).
    ///
    /// Worked out from the server's last timing report, moved on by the clock since while the
    /// server said it was playing: what it held then (written minus read, plus the device's
    /// own buffer), less the time that has passed. Not libpulse's interpolation
    /// (`PA_STREAM_INTERPOLATE_TIMING`): its smoother estimates the clock's rate from the
    /// reports, and at a stream's start it has few of them, the first taken before the
    /// prebuffer filled; a position moving at that estimate rather than at the sink's pace is
    /// what the two intermittent speed tests saw (issue 30: the first seconds at 1×, then
    /// 1.5×; once the position 0.7 s off the sink). Here the rate is the clock's own, exactly.
    /// A report older than `refresh`, or one that says the stream is not playing, asks for the
    /// next, so a start or an underrun the last report did not know of is seen within it.
    func latency(refresh: Double = 0.2) -> Double? {
        locked {
            guard let stream, let format, pa_stream_get_state(stream) == PA_STREAM_READY else { return nil }
            // No report yet, or one a write or a flush made stale: the next is asked for.
            guard let info = pa_stream_get_timing_info(stream)?.pointee, info.write_index_corrupt == 0, info.read_index_corrupt == 0 else {
                requestTimingLocked(stream)
                return nil
            }
            let bytesPerSecond = Double(format.rate * format.bytesPerFrame)
            var held = Double(info.write_index - info.read_index) / bytesPerSecond + Double(info.sink_usec) / 1_000_000
            var now = timeval()
            gettimeofday(&now, nil)
            let age = Double(now.tv_sec - info.timestamp.tv_sec) + Double(now.tv_usec - info.timestamp.tv_usec) / 1_000_000
            if info.playing != 0 { held -= max(0, age) }
            if age > refresh || info.playing == 0 { requestTimingLocked(stream) }
            return max(0, held)
        }
    }

    /// Asks the server for a timing report, unless one is on its way. Under the mainloop lock.
    private func requestTimingLocked(_ stream: OpaquePointer) {
        guard !timingRequested else { return }
        timingRequested = true
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let op = pa_stream_update_timing_info(stream, { _, _, userdata in
            guard let userdata else { return }
            Unmanaged<PulseOutput>.fromOpaque(userdata).takeUnretainedValue().timingRequested = false
        }, me) {
            pa_operation_unref(op)
        } else {
            timingRequested = false
        }
    }

    /// A timing report was asked for and has not arrived (one at a time). Under the mainloop lock.
    private var timingRequested = false

    // MARK: - Drain

    /// Starts playing out what is buffered (also below the prebuffer threshold). Poll `drained`.
    func startDrain() {
        locked {
            guard let stream, drainOperation == nil, pa_stream_get_state(stream) == PA_STREAM_READY else { return }
            drainOperation = pa_stream_drain(stream, { _, _, userdata in PulseOutput.signal(userdata) }, wakeupPointer)
        }
    }

    /// True once the drain started by `startDrain` completed (or there is nothing to drain).
    var drained: Bool {
        locked {
            guard let op = drainOperation else { return stream == nil }
            return pa_operation_get_state(op) != PA_OPERATION_RUNNING
        }
    }

    /// Forgets an unfinished drain (a seek arrived while draining).
    func cancelDrain() { locked { cancelDrainLocked() } }

    private func cancelDrainLocked() {
        if let op = drainOperation {
            pa_operation_cancel(op)
            pa_operation_unref(op)
            drainOperation = nil
        }
    }

    // MARK: - Teardown

    /// Removes the stream from the server at once and closes the connection. Idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        locked {
            cancelDrainLocked()
            if let stream {
                pa_stream_set_state_callback(stream, nil, nil)
                pa_stream_set_write_callback(stream, nil, nil)
                pa_stream_disconnect(stream)
                pa_stream_unref(stream)
            }
            stream = nil
            pa_context_set_state_callback(context, nil, nil)
            pa_context_disconnect(context)
        }
        pa_threaded_mainloop_stop(mainloop)
        pa_context_unref(context)
        pa_threaded_mainloop_free(mainloop)
        Unmanaged<Wakeup>.fromOpaque(wakeupPointer).release()
    }
}

/// Whether a sound server answers now: connect, then disconnect. Fast when there is none
/// (~1 ms, "Connection refused").
enum SoundServerProbe {
    static func check(applicationName: String, timeout: Double = 2) -> Result<Void, PulseError> {
        do throws(PulseError) {
            let output = try PulseOutput(applicationName: applicationName, wakeup: Wakeup())
            defer { output.close() }
            try output.connect(timeout: timeout, isCancelled: { false })
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}

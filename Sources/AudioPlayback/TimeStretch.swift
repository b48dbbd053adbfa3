import CSoundTouch

/// SoundTouch's time-stretch (WSOLA) for one stream of 16-bit PCM: plays faster or slower
/// with the pitch kept. Input frames go in with `put`, stretched frames come out of `take`;
/// the adapter only translates, SoundTouch decides how.
final class TimeStretch {
    private let handle: HANDLE
    let channels: Int
    private(set) var tempo: Double

    /// nil when SoundTouch refuses the format (it takes 1–16 channels, any sensible rate).
    init?(rate: Int, channels: Int, tempo: Double) {
        guard rate > 0, (1...16).contains(channels), let h = soundtouch_createInstance() else { return nil }
        handle = h
        self.channels = channels
        self.tempo = tempo
        guard soundtouch_setSampleRate(h, UInt32(rate)) != 0, soundtouch_setChannels(h, UInt32(channels)) != 0 else {
            soundtouch_destroyInstance(h)
            return nil
        }
        soundtouch_setTempo(h, Float(tempo))
    }

    deinit { soundtouch_destroyInstance(handle) }

    func setTempo(_ value: Double) {
        guard value != tempo else { return }
        tempo = value
        soundtouch_setTempo(handle, Float(value))
    }

    /// Appends interleaved s16 frames.
    func put(_ bytes: UnsafeRawBufferPointer) {
        let frames = bytes.count / (2 * channels)
        guard frames > 0, let base = bytes.baseAddress else { return }
        soundtouch_putSamples_i16(handle, base.assumingMemoryBound(to: Int16.self), UInt32(frames))
    }

    /// Copies up to `buffer.count` bytes of stretched frames; returns the bytes copied.
    func take(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let frames = buffer.count / (2 * channels)
        guard frames > 0, let base = buffer.baseAddress else { return 0 }
        let got = soundtouch_receiveSamples_i16(handle, base.assumingMemoryBound(to: Int16.self), UInt32(frames))
        return Int(got) * 2 * channels
    }

    /// Stretched frames ready to take.
    var ready: Int { Int(soundtouch_numSamples(handle)) }
    /// Input frames not yet stretched.
    var unprocessed: Int { Int(soundtouch_numUnprocessedSamples(handle)) }

    /// The input is over: everything still inside comes out (padded with a little silence).
    func flush() { _ = soundtouch_flush(handle) }

    /// Drops everything inside (a seek).
    func clear() { soundtouch_clear(handle) }
}

import DocentCore
import Foundation
import Synchronization

/// Where a track's own threads report to: the engine applies a report only while that track
/// is still the current one, so a late word from a replaced track changes nothing.
protocol TrackReporting: AnyObject, Sendable {
    func track(_ id: UInt64, reported event: TrackEvent)
}

/// What a track's threads tell the engine.
enum TrackEvent: Equatable {
    /// The sound server accepted the connection.
    case outputConnected
    /// Format known; the duration in seconds if the input size (or a frame count) is known.
    case duration(Double?)
    /// The first PCM reached the sound server, or playback resumed after an underrun.
    case playing
    /// The buffer ran dry before the end (slow network).
    case buffering
    /// The server could not be reached: the copy kept on this machine plays.
    case fromKeptCopy
    /// Seconds heard so far; `run` says which seek the audio belongs to.
    case position(Double, run: Int)
    case ended(position: Double)
    case failed(AudioFailure)
}

/// One request being played: the control state shared by the engine and the track's two
/// threads (producer: curl → mpg123 → ring; output: ring → PulseAudio).
final class Track: @unchecked Sendable {
    struct Control {
        var paused = false
        var volume = 1.0
        /// Playback speed (1: as recorded); the output thread time-stretches when it is not 1.
        var speed = 1.0
        /// Seconds, set by `seek`, taken by the producer.
        var pendingSeek: Double?
        /// Incremented by every `seek`; the producer tags the ring's run with it.
        var seekGeneration = 0
        var format: PCMFormat?
        var durationFrames: Int?
        /// The output thread finished (ended, failed or cancelled): the producer may exit.
        var outputDone = false
        /// A failure that surfaces only once the audio received so far has played
        /// (a connection dropped mid-track).
        var deferredFailure: AudioFailure?
        var firstPCMWrite: Date?
    }

    let id: UInt64
    let request: AudioRequest
    let configuration: LiveAudioEngine.Configuration
    let ring: PCMRingBuffer
    let producerWakeup = Wakeup()
    let outputWakeup = Wakeup()
    let created = Date()
    private let cancelledFlag = Atomic<Bool>(false)
    private let control: Mutex<Control>
    private weak var reporter: (any TrackReporting)?

    init(id: UInt64, request: AudioRequest, configuration: LiveAudioEngine.Configuration, paused: Bool, volume: Double, speed: Double = 1, reporter: any TrackReporting) {
        self.id = id
        self.request = request
        self.configuration = configuration
        ring = PCMRingBuffer(capacity: configuration.bufferBytes, readerWakeup: outputWakeup)
        var initial = Control(paused: paused, volume: volume)
        initial.speed = speed
        if request.startAt > 0 { initial.pendingSeek = request.startAt }
        control = Mutex(initial)
        self.reporter = reporter
    }

    /// Starts the producer and output threads. Returns at once.
    func start() {
        let producer = Thread { [self] in TrackProducer(track: self).run() }
        producer.name = "docent-audio-in"
        let output = Thread { [self] in TrackOutput(track: self).run() }
        output.name = "docent-audio-out"
        producer.start()
        output.start()
    }

    // MARK: - Control (engine side)

    var isCancelled: Bool { cancelledFlag.load(ordering: .relaxed) }

    /// Stops both threads promptly: the transfer aborts in its next callback, the output
    /// removes its stream from the server.
    func cancel() {
        cancelledFlag.store(true, ordering: .relaxed)
        ring.close()
        producerWakeup.signal()
        outputWakeup.signal()
    }

    func setPaused(_ paused: Bool) {
        control.withLock { $0.paused = paused }
        outputWakeup.signal()
    }

    func setVolume(_ volume: Double) {
        control.withLock { $0.volume = volume }
        outputWakeup.signal()
    }

    func setSpeed(_ speed: Double) {
        control.withLock { $0.speed = speed }
        outputWakeup.signal()
    }

    /// Asks the producer to continue from `seconds`; seeks in a row collapse into the last.
    func seek(to seconds: Double) {
        control.withLock {
            $0.pendingSeek = seconds
            $0.seekGeneration += 1
        }
        ring.interruptWriter()
        producerWakeup.signal()
    }

    // MARK: - Shared state (thread side)

    var state: Control { control.withLock { $0 } }

    func update(_ body: (inout Control) -> Void) {
        control.withLock { body(&$0) }
    }

    /// Takes the pending seek, if any, with its generation.
    func takePendingSeek() -> (seconds: Double, generation: Int)? {
        control.withLock { c in
            guard let seconds = c.pendingSeek else { return nil }
            c.pendingSeek = nil
            return (seconds, c.seekGeneration)
        }
    }

    var hasPendingSeek: Bool { control.withLock { $0.pendingSeek != nil } }

    func report(_ event: TrackEvent) {
        reporter?.track(id, reported: event)
    }

    /// Reports a failure once and stops the other thread.
    func fail(_ failure: AudioFailure) {
        guard !isCancelled else { return }
        report(.failed(failure))
        cancel()
    }
}

import Foundation

/// A wake-up flag with a timed wait: several event sources (PulseAudio callbacks, the ring
/// buffer, control calls) signal one waiting thread. A signal is never lost: it stays pending
/// until the next `wait` consumes it.
final class Wakeup: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending = false

    func signal() {
        condition.lock()
        pending = true
        condition.signal()
        condition.unlock()
    }

    /// Returns at once if a signal is pending, else after a signal or `timeout` seconds.
    func wait(timeout: Double) {
        condition.lock()
        if !pending { _ = condition.wait(until: Date(timeIntervalSinceNow: max(0, timeout))) }
        pending = false
        condition.unlock()
    }
}

/// The bounded PCM FIFO between the decoder thread (one writer) and the output thread (one
/// reader), as cmus's buffer between input and output plugins.
///
/// - The writer blocks while the buffer is full (back-pressure reaches curl and TCP); a seek,
///   a stop or `interruptWriter` wakes it.
/// - The reader never blocks: it polls and is woken through `readerWakeup`.
/// - Every byte has a frame index, so the reader knows the position of what it plays. `reset`
///   starts a new run at a frame (a seek) and flags the next read as a discontinuity, so the
///   reader flushes what the sound server still holds.
final class PCMRingBuffer: @unchecked Sendable {
    /// What `write` did.
    enum WriteResult: Equatable {
        case written
        /// `interruptWriter` or `reset` woke the writer after `written` bytes; the caller
        /// decides whether to write the rest.
        case interrupted(written: Int)
        case closed
    }

    /// What `read` found.
    enum ReadResult: Equatable {
        /// Bytes copied to the start of the caller's buffer.
        case data(Span)
        /// Nothing buffered yet; more will come. `discontinuity`: a `reset` happened since the
        /// last read (flush the output now rather than at the next data).
        case empty(discontinuity: Bool)
        /// The writer called `finish` and everything was read.
        case finished(discontinuity: Bool)
        case closed
    }

    /// What one read copied.
    struct Span: Equatable {
        var bytes: Int
        /// Frame index of the first byte.
        var firstFrame: Int
        /// The `run` given to the last `reset` (0 before any): which seek this audio belongs to.
        var run: Int
        /// True on the first read after a `reset`.
        var discontinuity: Bool
    }

    let capacity: Int
    private let storage: UnsafeMutableRawBufferPointer
    private let condition = NSCondition()
    private var readIndex = 0
    private var count = 0
    private var frameAtRead = 0
    private var bytesPerFrame = 2
    private var finished = false
    private var closed = false
    private var discontinuity = false
    private var run = 0
    private var interruptPending = false
    /// The writer waits for room (the buffer was full).
    private var writerWaiting = false
    private let readerWakeup: Wakeup?

    /// - Parameters:
    ///   - capacity: bytes.
    ///   - readerWakeup: signalled after every write, `finish`, `reset` and `close`.
    init(capacity: Int, readerWakeup: Wakeup? = nil) {
        self.capacity = max(1, capacity)
        storage = .allocate(byteCount: self.capacity, alignment: 8)
        self.readerWakeup = readerWakeup
    }

    deinit { storage.deallocate() }

    /// Bytes waiting to be read.
    var fill: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Frame size for the frame index (2 × channels for s16). Call before the first write.
    func setBytesPerFrame(_ value: Int) {
        condition.lock()
        bytesPerFrame = max(1, value)
        condition.unlock()
    }

    /// Appends all of `bytes`, blocking while full. Returns early on interrupt, reset or close.
    func write(_ bytes: UnsafeRawBufferPointer) -> WriteResult {
        guard let source = bytes.baseAddress else { return .written }
        var offset = 0
        condition.lock()
        while offset < bytes.count {
            if closed {
                condition.unlock()
                return .closed
            }
            if interruptPending {
                interruptPending = false
                condition.unlock()
                return .interrupted(written: offset)
            }
            let space = capacity - count
            if space == 0 {
                writerWaiting = true
                condition.wait()
                continue
            }
            let n = min(space, bytes.count - offset)
            let writeIndex = (readIndex + count) % capacity
            let first = min(n, capacity - writeIndex)
            storage.baseAddress.map { $0.advanced(by: writeIndex).copyMemory(from: source + offset, byteCount: first) }
            if n > first {
                storage.baseAddress.map { $0.copyMemory(from: source + offset + first, byteCount: n - first) }
            }
            let wasEmpty = count < bytesPerFrame
            count += n
            offset += n
            finished = false
            // The reader reads when the sound server asks; it needs waking only if it found
            // nothing last time (one wake-up per refill, not one per piece decoded).
            if wasEmpty {
                condition.unlock()
                readerWakeup?.signal()
                condition.lock()
            }
        }
        condition.unlock()
        return .written
    }

    /// Copies up to `buffer.count` bytes (whole frames) without blocking.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        condition.lock()
        defer { condition.unlock() }
        if closed { return .closed }
        let wasDiscontinuous = discontinuity
        let wanted = (min(buffer.count, count) / bytesPerFrame) * bytesPerFrame
        guard wanted > 0, let target = buffer.baseAddress, let base = storage.baseAddress else {
            discontinuity = false
            if finished && count < bytesPerFrame { return .finished(discontinuity: wasDiscontinuous) }
            return .empty(discontinuity: wasDiscontinuous)
        }
        let first = min(wanted, capacity - readIndex)
        target.copyMemory(from: base + readIndex, byteCount: first)
        if wanted > first {
            (target + first).copyMemory(from: base, byteCount: wanted - first)
        }
        readIndex = (readIndex + wanted) % capacity
        count -= wanted
        let firstFrame = frameAtRead
        frameAtRead += wanted / bytesPerFrame
        discontinuity = false
        // A writer waiting for room goes on once half the buffer is free: it then decodes a
        // large piece at once, rather than waking for every piece the reader takes.
        if writerWaiting, count <= capacity / 2 {
            writerWaiting = false
            condition.broadcast()
        }
        return .data(Span(bytes: wanted, firstFrame: firstFrame, run: run, discontinuity: wasDiscontinuous))
    }

    /// No more data until the next `reset`: the reader gets `.finished` once it read the rest.
    func finish() {
        condition.lock()
        finished = true
        condition.unlock()
        readerWakeup?.signal()
    }

    /// Drops everything buffered and starts a new run at `frame` (a seek); the next read
    /// reports a discontinuity. Call it from the writer's thread (between writes).
    func reset(toFrame frame: Int, run: Int = 0) {
        condition.lock()
        self.run = run
        readIndex = 0
        count = 0
        frameAtRead = frame
        finished = false
        discontinuity = true
        condition.broadcast()
        condition.unlock()
        readerWakeup?.signal()
    }

    /// Makes the current or next `write` return `.interrupted` (once), without dropping data:
    /// a writer blocked on a full buffer (paused output) can then look at a pending seek.
    func interruptWriter() {
        condition.lock()
        interruptPending = true
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the buffer for good: writes and reads return `.closed`.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        readerWakeup?.signal()
    }
}

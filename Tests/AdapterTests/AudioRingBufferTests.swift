import Foundation
import XCTest

@testable import AudioPlayback

/// The PCM ring between the decoder thread and the output thread.
final class AudioRingBufferTests: XCTestCase {
    private func read(_ ring: PCMRingBuffer, max: Int) -> (PCMRingBuffer.ReadResult, [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(1, max), alignment: 8)
        defer { buffer.deallocate() }
        let result = ring.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<max]))
        if case .data(let span) = result { return (result, Array(buffer[0..<span.bytes])) }
        return (result, [])
    }

    private func write(_ ring: PCMRingBuffer, _ bytes: [UInt8]) -> PCMRingBuffer.WriteResult {
        bytes.withUnsafeBytes { ring.write($0) }
    }

    func testWrapsAroundAndCountsFrames() {
        let ring = PCMRingBuffer(capacity: 16)
        ring.setBytesPerFrame(2)
        XCTAssertEqual(write(ring, Array(0..<12)), .written)
        var (result, bytes) = read(ring, max: 10)
        XCTAssertEqual(result, .data(.init(bytes: 10, firstFrame: 0, run: 0, discontinuity: false)))
        XCTAssertEqual(bytes, Array(0..<10))
        XCTAssertEqual(write(ring, Array(12..<24)), .written)  // wraps
        XCTAssertEqual(ring.fill, 14)
        (result, bytes) = read(ring, max: 64)
        XCTAssertEqual(result, .data(.init(bytes: 14, firstFrame: 5, run: 0, discontinuity: false)))
        XCTAssertEqual(bytes, Array(10..<24))
        XCTAssertEqual(read(ring, max: 64).0, .empty(discontinuity: false))
    }

    func testReadsWholeFramesOnly() {
        let ring = PCMRingBuffer(capacity: 64)
        ring.setBytesPerFrame(4)
        XCTAssertEqual(write(ring, Array(0..<10)), .written)
        let (result, bytes) = read(ring, max: 7)
        XCTAssertEqual(result, .data(.init(bytes: 4, firstFrame: 0, run: 0, discontinuity: false)))
        XCTAssertEqual(bytes, [0, 1, 2, 3])
        XCTAssertEqual(read(ring, max: 3).0, .empty(discontinuity: false))
        XCTAssertEqual(read(ring, max: 64).0, .data(.init(bytes: 4, firstFrame: 1, run: 0, discontinuity: false)))
        // Two stray bytes remain; after finish they are not a frame, so the run is over.
        ring.finish()
        XCTAssertEqual(read(ring, max: 64).0, .finished(discontinuity: false))
    }

    func testFinishedOnlyAfterTheRestWasRead() {
        let ring = PCMRingBuffer(capacity: 64)
        XCTAssertEqual(write(ring, [1, 2, 3, 4]), .written)
        ring.finish()
        XCTAssertEqual(read(ring, max: 0).0, .empty(discontinuity: false), "no room is not the end")
        XCTAssertEqual(read(ring, max: 64).1, [1, 2, 3, 4])
        XCTAssertEqual(read(ring, max: 64).0, .finished(discontinuity: false))
        // New data after finish (a seek back) starts another run of reads.
        XCTAssertEqual(write(ring, [5, 6]), .written)
        XCTAssertEqual(read(ring, max: 64).1, [5, 6])
    }

    func testResetDropsDataAndMarksTheNewRun() {
        let ring = PCMRingBuffer(capacity: 64)
        ring.setBytesPerFrame(2)
        XCTAssertEqual(write(ring, Array(0..<20)), .written)
        ring.reset(toFrame: 1000, run: 3)
        XCTAssertEqual(ring.fill, 0)
        XCTAssertEqual(write(ring, [9, 9, 8, 8]), .written)
        XCTAssertEqual(read(ring, max: 2).0, .data(.init(bytes: 2, firstFrame: 1000, run: 3, discontinuity: true)))
        XCTAssertEqual(read(ring, max: 2).0, .data(.init(bytes: 2, firstFrame: 1001, run: 3, discontinuity: false)))
        ring.reset(toFrame: 0, run: 4)
        XCTAssertEqual(read(ring, max: 64).0, .empty(discontinuity: true), "reported even before new data")
        XCTAssertEqual(read(ring, max: 64).0, .empty(discontinuity: false))
    }

    func testBlockedWriterHandsOverEverythingInOrder() {
        let ring = PCMRingBuffer(capacity: 1000)
        let total = 200_000
        let source = (0..<total).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        let done = expectation(description: "writer finished")
        Thread.detachNewThread {
            var offset = 0
            while offset < total {
                let end = min(total, offset + 4096)
                _ = source[offset..<end].withUnsafeBytes { ring.write($0) }
                offset = end
            }
            ring.finish()
            done.fulfill()
        }
        var received: [UInt8] = []
        let deadline = Date(timeIntervalSinceNow: 10)
        loop: while Date() < deadline {
            let (result, bytes) = read(ring, max: 333)
            switch result {
            case .data: received += bytes
            case .finished: break loop
            case .empty: usleep(50)
            case .closed: XCTFail("closed")
            }
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(received.count, total)
        XCTAssertTrue(received == source)
    }

    func testInterruptWakesABlockedWriterWithoutLosingData() {
        let ring = PCMRingBuffer(capacity: 8)
        let result = LockedBox<PCMRingBuffer.WriteResult?>(nil)
        let done = expectation(description: "write returned")
        Thread.detachNewThread {
            let r = Array(0..<20).map(UInt8.init).withUnsafeBytes { ring.write($0) }
            result.set(r)
            done.fulfill()
        }
        // The writer has filled the buffer and must now wait for room: that is what to interrupt.
        XCTAssertTrue(waitUntil { ring.fill == 8 }, "the writer fills the buffer")
        XCTAssertNil(result.get(), "blocked on a full buffer")
        ring.interruptWriter()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(result.get(), .interrupted(written: 8))
        XCTAssertEqual(read(ring, max: 64).1, Array(0..<8))
        // The interrupt was used up: the next write goes through.
        XCTAssertEqual(write(ring, [1, 2]), .written)
    }

    func testCloseUnblocksAndEndsEverything() {
        let ring = PCMRingBuffer(capacity: 4)
        let done = expectation(description: "write returned")
        let result = LockedBox<PCMRingBuffer.WriteResult?>(nil)
        Thread.detachNewThread {
            result.set([UInt8](repeating: 1, count: 10).withUnsafeBytes { ring.write($0) })
            done.fulfill()
        }
        XCTAssertTrue(waitUntil { ring.fill == 4 }, "the writer fills the buffer, then waits")
        ring.close()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(result.get(), .closed)
        XCTAssertEqual(read(ring, max: 64).0, .closed)
        XCTAssertEqual(write(ring, [1]), .closed)
    }

    func testWakeupIsNotLost() {
        let wakeup = Wakeup()
        wakeup.signal()
        let start = Date()
        wakeup.wait(timeout: 5)  // pending: returns at once
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        let again = Date()
        wakeup.wait(timeout: 0.05)  // consumed: times out
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(again), 0.04)
    }

    func testWriterSignalsTheReader() {
        let wakeup = Wakeup()
        let ring = PCMRingBuffer(capacity: 64, readerWakeup: wakeup)
        wakeup.wait(timeout: 0)  // clear
        XCTAssertEqual(write(ring, [1, 2]), .written)
        let start = Date()
        wakeup.wait(timeout: 5)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }
    /// Polls an observable condition (no sleep: the other thread's progress is what is
    /// waited for), giving up after `seconds`.
    func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { return false }
            sched_yield()
        }
        return true
    }

}

/// A value shared with a helper thread in a test.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }

}

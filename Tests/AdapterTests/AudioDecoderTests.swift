import Foundation
import XCTest

@testable import AudioPlayback

/// The mpg123 feed-mode decoder on a small fixture, with no sound server.
///
/// Fixture `Fixtures/speech-22k-mono.mp3` (21,759 bytes) was made with
/// `espeak-ng -w f.wav "Docent audio test. One, two, three."` (22,050 Hz mono, 66,546 samples)
/// and `lame --quiet -m m -b 56 f.wav speech-22k-mono.mp3`. LAME's "Info" header (gapless
/// delay and padding) lets mpg123 give back exactly the original sample count; below 56 kbit/s
/// at this rate a frame is too small for that header and LAME leaves it out.
final class AudioDecoderTests: XCTestCase {
    static let fixtureFrames = 66_546

    static var fixture: [UInt8] {
        get throws {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/speech-22k-mono.mp3")
            return try [UInt8](Data(contentsOf: url))
        }
    }

    func testDecodesTheFixtureExactly() throws {
        let summary = try MP3Decoder.decodeAll(try Self.fixture)
        XCTAssertEqual(summary.format, PCMFormat(rate: 22_050, channels: 1))
        XCTAssertEqual(summary.frames, Self.fixtureFrames)
        XCTAssertFalse(summary.notAudio)
        XCTAssertGreaterThan(summary.peak, 3000, "speech, not silence")
        // With the input size set, the length is known as soon as the format is, to a sample.
        let length = try XCTUnwrap(summary.lengthFrames)
        XCTAssertEqual(Double(length), Double(Self.fixtureFrames), accuracy: 2)
        XCTAssertEqual(Double(length) / 22_050, 3.018, accuracy: 0.01)
    }

    func testChunkSizeDoesNotChangeTheResult() throws {
        let bytes = try Self.fixture
        for chunk in [1, 7, 417, 100_000] {
            let summary = try MP3Decoder.decodeAll(bytes, chunk: chunk)
            XCTAssertEqual(summary.frames, Self.fixtureFrames, "chunk \(chunk)")
        }
    }

    func testTruncatedFileDecodesWhatIsThere() throws {
        let bytes = try Self.fixture
        let summary = try MP3Decoder.decodeAll(Array(bytes.prefix(bytes.count / 2)))
        XCTAssertFalse(summary.notAudio)
        XCTAssertGreaterThan(summary.frames, Self.fixtureFrames / 3)
        XCTAssertLessThan(summary.frames, Self.fixtureFrames * 2 / 3)
    }

    func testTextIsNotAudio() throws {
        let html = Array(String(repeating: "<html><body>Not found. Nothing to hear here.</body></html>\n", count: 1400).utf8)
        XCTAssertGreaterThan(html.count, MP3Decoder.notAudioThreshold)
        let summary = try MP3Decoder.decodeAll(html)
        XCTAssertTrue(summary.notAudio)
        XCTAssertEqual(summary.frames, 0)
        XCTAssertNil(summary.format)
    }

    func testZerosAndShortGarbageAreNotAudio() throws {
        XCTAssertTrue(try MP3Decoder.decodeAll([UInt8](repeating: 0, count: 80_000)).notAudio)
        XCTAssertTrue(try MP3Decoder.decodeAll(Array("404 Not Found".utf8)).notAudio)
        XCTAssertTrue(try MP3Decoder.decodeAll([]).notAudio)
    }

    func testFeedingStopsEarlyOnceClearlyNotAudio() throws {
        let decoder = try MP3Decoder()
        let junk = [UInt8](repeating: 0x41, count: 4096)
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 2)
        defer { out.deallocate() }
        var fed = 0
        while !decoder.isNotAudio && fed < 1_000_000 {
            junk.withUnsafeBytes { _ = decoder.feed($0) }
            fed += junk.count
            XCTAssertEqual(decoder.decode(into: out), .needMore)
        }
        XCTAssertEqual(fed, MP3Decoder.notAudioThreshold)
    }

    /// The seek protocol the producer relies on: mpg123 names the input offset it needs, the
    /// caller feeds from there, and the output continues sample-exactly at the target.
    func testFeedSeekBackwardsNamesTheOffsetAndIsSampleExact() throws {
        let bytes = try Self.fixture
        let decoder = try MP3Decoder()
        decoder.setInputSize(bytes.count)
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 2)
        defer { out.deallocate() }
        bytes.withUnsafeBytes { _ = decoder.feed($0) }
        XCTAssertEqual(drain(decoder, out).frames, Self.fixtureFrames)

        let target = 22_050  // 1.0 s
        let landing = try XCTUnwrap(decoder.seek(toFrame: target))
        XCTAssertEqual(landing.frame, target)
        XCTAssertGreaterThan(landing.inputOffset, 0)
        XCTAssertLessThan(landing.inputOffset, bytes.count / 2)
        bytes[landing.inputOffset...].withUnsafeBytes { _ = decoder.feed($0) }
        let (after, firstFrame) = drain(decoder, out)
        XCTAssertEqual(firstFrame, target)
        XCTAssertEqual(after, Self.fixtureFrames - target)
    }

    /// A start position: decode until the format is known, then seek forward before any PCM.
    func testFeedSeekForwardBeforeAnyPCM() throws {
        let bytes = try Self.fixture
        let decoder = try MP3Decoder()
        decoder.setInputSize(bytes.count)
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 2)
        defer { out.deallocate() }
        bytes.withUnsafeBytes { _ = decoder.feed($0) }
        guard case .format = decoder.decode(into: out) else { return XCTFail("format first") }
        let target = 44_100  // 2.0 s
        let landing = try XCTUnwrap(decoder.seek(toFrame: target))
        XCTAssertEqual(landing.frame, target)
        XCTAssertEqual(landing.inputOffset, bytes.count, "everything needed is already buffered")
        let (after, firstFrame) = drain(decoder, out)
        XCTAssertEqual(firstFrame, target)
        XCTAssertEqual(after, Self.fixtureFrames - target)
    }

    /// Decodes what has been fed until more input is needed: the frames out (the fixture is
    /// 16-bit mono, two bytes a frame) and the position of the first.
    private func drain(_ decoder: MP3Decoder, _ out: UnsafeMutableRawBufferPointer) -> (frames: Int, first: Int?) {
        var frames = 0
        var first: Int?
        while case let step = decoder.decode(into: out), step != .needMore {
            if case .pcm(let n, let at) = step {
                if first == nil { first = at }
                frames += n / 2
            }
        }
        return (frames, first)
    }

    func testFormatArithmetic() {
        let format = PCMFormat(rate: 16_000, channels: 2)
        XCTAssertEqual(format.bytesPerFrame, 4)
        XCTAssertEqual(format.frames(seconds: 1.5), 24_000)
        XCTAssertEqual(format.frames(seconds: -3), 0)
        XCTAssertEqual(format.seconds(frames: 8_000), 0.5)
    }
}

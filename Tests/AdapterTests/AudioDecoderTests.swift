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
    /// Issue 45: cover art over 64 KiB in the ID3v2 tag was "not a recording": the tag's bytes
    /// counted as "no MPEG frame yet". lame writes the tag (`--ti`, a 200 KB picture); mpg123
    /// itself plays the file; so does the decoder, in small and large pieces.
    func testAnMP3WithCoverArtOver64KiBDecodes() throws {
        let mp3 = try Self.coverArtMP3(pictureBytes: 200_000)
        defer { try? FileManager.default.removeItem(at: mp3.deletingLastPathComponent()) }
        let bytes = try [UInt8](Data(contentsOf: mp3))
        XCTAssertEqual(Array(bytes.prefix(3)), Array("ID3".utf8))
        let tagSize = bytes[6..<10].reduce(0) { $0 << 7 | Int($1) } + 10
        XCTAssertGreaterThan(tagSize, 3 * MP3Decoder.notAudioThreshold, "the tag alone is past the threshold")
        let mpg123 = AudioTestSupport.run("mpg123", ["-q", "-t", mp3.path])
        XCTAssertEqual(mpg123.status, 0, "mpg123 plays it: \(mpg123.output)")
        for chunk in [4096, 65_536, 1_000_000] {
            let summary = try MP3Decoder.decodeAll(bytes, chunk: chunk)
            XCTAssertFalse(summary.notAudio, "chunk \(chunk)")
            XCTAssertEqual(summary.format, PCMFormat(rate: 22_050, channels: 1))
            XCTAssertEqual(Double(summary.frames) / 22_050, 3.0, accuracy: 0.05, "chunk \(chunk)")
        }
    }

    /// Only the declared tags are excused: junk after a tag, or a tag that declares far more
    /// than it holds, is still "not MP3" after a bounded amount of input.
    func testTagsAreExcusedByTheirDeclaredSizeOnly() throws {
        // A tag of 100,000 bytes, then text: not audio once 64 KiB past the tag.
        var small: [UInt8] = Array("ID3".utf8) + [3, 0, 0] + Self.syncsafe(100_000) + [UInt8](repeating: 0, count: 100_000)
        small += Array(String(repeating: "<html>Maintenance</html>\n", count: 4000).utf8)
        let decoder = try MP3Decoder()
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 2)
        defer { out.deallocate() }
        var fed = 0
        while !decoder.isNotAudio && fed < small.count {
            let end = min(small.count, fed + 1000)
            _ = small[fed..<end].withUnsafeBytes { decoder.feed($0) }
            fed = end
            _ = decoder.decode(into: out)
        }
        XCTAssertTrue(decoder.isNotAudio)
        XCTAssertEqual(decoder.tagBytes, 100_010)
        XCTAssertEqual(fed, 100_010 + MP3Decoder.notAudioThreshold, accuracy: 1000)

        // Tags declaring 256 MB each, one after the other, excuse at most LeadingTags.limit.
        var tags = LeadingTags()
        let huge: [UInt8] = Array("ID3".utf8) + [4, 0, 0] + [0x7F, 0x7F, 0x7F, 0x7F]
        huge.withUnsafeBytes { tags.read($0) }
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<40 { zeros.withUnsafeBytes { tags.read($0) } }
        XCTAssertEqual(tags.excused, LeadingTags.limit)
        XCTAssertTrue(tags.ended)

        // Not a tag: "ID3" with a size byte over 0x7F, or an MPEG frame first.
        var bad = LeadingTags()
        ([UInt8]("ID3".utf8) + [3, 0, 0, 0x80, 0, 0, 0]).withUnsafeBytes { bad.read($0) }
        XCTAssertEqual(bad.excused, 0)
        XCTAssertTrue(bad.ended)
        var mpeg = LeadingTags()
        try Self.fixture.withUnsafeBytes { mpeg.read($0) }
        XCTAssertEqual(mpeg.excused, 0)
    }

    static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
    }

    /// A 3 s sine (sox) encoded by lame with a picture of `pictureBytes` as its cover art
    /// (lame `--ti`: an ID3v2 APIC frame), in a directory of its own.
    static func coverArtMP3(pictureBytes: Int) throws -> URL {
        let dir = AudioTestSupport.uniqueTemp("docent-coverart")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let wav = dir.appendingPathComponent("tone.wav").path
        let made = AudioTestSupport.run("sox", ["-n", "-r", "22050", "-c", "1", wav, "synth", "3", "sine", "440", "vol", "0.5"])
        guard made.status == 0 else { throw AudioTestSupport.Failure(description: "sox: \(made.output)") }
        // A JPEG's start marker, then noise (incompressible, as a photograph's data is).
        var picture: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        while picture.count < pictureBytes {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            picture.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        let cover = dir.appendingPathComponent("cover.jpg")
        try Data(picture).write(to: cover)
        let mp3 = dir.appendingPathComponent("cover-art.mp3")
        let encoded = AudioTestSupport.run("lame", ["--quiet", "-m", "m", "-b", "56", "--ti", cover.path, wav, mp3.path], timeout: 60)
        guard encoded.status == 0 else { throw AudioTestSupport.Failure(description: "lame: \(encoded.output)") }
        return mp3
    }

    /// 2 s of a 440 Hz sine at 44.1 kHz stereo (320 kbit/s), then 4 s of the same sine at
    /// 22.05 kHz mono (32 kbit/s), in one file (as a stream whose encoder settings change, or
    /// two files served as one). A length guessed from the size at the first frame's bit rate
    /// is 2.4 s.
    static func formatChangeMP3() throws -> URL {
        let dir = AudioTestSupport.uniqueTemp("docent-formatchange")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var parts: [Data] = []
        for (rate, channels, mode, kbps, seconds) in [(44_100, 2, "j", "320", "2"), (22_050, 1, "m", "32", "4")] {
            let wav = dir.appendingPathComponent("\(rate).wav").path
            let mp3 = dir.appendingPathComponent("\(rate).mp3").path
            let made = AudioTestSupport.run("sox", ["-n", "-r", String(rate), "-c", String(channels), wav, "synth", seconds, "sine", "440", "vol", "0.5"])
            guard made.status == 0 else { throw AudioTestSupport.Failure(description: "sox: \(made.output)") }
            // -t: no Info header, so the two parts join as one stream.
            let encoded = AudioTestSupport.run("lame", ["--quiet", "-t", "-m", mode, "-b", kbps, wav, mp3], timeout: 60)
            guard encoded.status == 0 else { throw AudioTestSupport.Failure(description: "lame: \(encoded.output)") }
            parts.append(try Data(contentsOf: URL(fileURLWithPath: mp3)))
        }
        let joined = dir.appendingPathComponent("format-change.mp3")
        try (parts[0] + parts[1]).write(to: joined)
        return joined
    }

    /// Zero crossings per second of channel 0 of interleaved `samples`, over its last `seconds`.
    static func crossingsPerSecond(_ samples: [Int16], channels: Int, rate: Int, lastSeconds seconds: Double) -> Double {
        let frames = samples.count / channels
        let count = min(frames, Int(seconds * Double(rate)))
        var crossings = 0
        var previous = samples[(frames - count) * channels]
        for f in (frames - count + 1)..<frames {
            let s = samples[f * channels]
            if (previous < 0) != (s < 0) { crossings += 1 }
            previous = s
        }
        return Double(crossings) / (Double(count) / Double(rate))
    }

    /// Issue 45 #9: a stream that changes from 44.1 kHz stereo to 22.05 kHz mono in the middle
    /// was handed on in the first format: the second part's PCM played at 4× its pitch and a
    /// quarter of its length. The output keeps the first format: the second part is resampled
    /// and doubled to stereo, its 440 Hz still 440 Hz (880 zero crossings a second), and the
    /// whole is its 6 s.
    func testAFormatChangeInTheMiddleKeepsTheFirstFormatAndThePitch() throws {
        let url = try Self.formatChangeMP3()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let bytes = try [UInt8](Data(contentsOf: url))
        let decoder = try MP3Decoder()
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 2)
        defer { out.deallocate() }
        var formats: [PCMFormat] = []
        var pcm: [Int16] = []
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + 4096)
            _ = bytes[offset..<end].withUnsafeBytes { decoder.feed($0) }
            offset = end
            loop: while true {
                switch decoder.decode(into: out) {
                case .format(let f): formats.append(f)
                case .pcm(let count, _): pcm += out.bindMemory(to: Int16.self).prefix(count / 2)
                case .needMore: break loop
                case .failed(let why): return XCTFail("decoding failed: \(why)")
                }
            }
        } while offset < bytes.count
        XCTAssertEqual(formats, [PCMFormat(rate: 44_100, channels: 2)], "one format for the whole stream")
        XCTAssertEqual(Double(decoder.framesDecoded) / 44_100, 6.0, accuracy: 0.15, "6 s, not 3 s")
        XCTAssertEqual(pcm.count, decoder.framesDecoded * 2)
        let hertz = Self.crossingsPerSecond(pcm, channels: 2, rate: 44_100, lastSeconds: 1) / 2
        XCTAssertEqual(hertz, 440, accuracy: 20, "the second part at its pitch (4× would be 1760 Hz)")
    }

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

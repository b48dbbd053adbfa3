import CMpg123
import Foundation

/// Decoded PCM layout: signed 16-bit little-endian, interleaved channels.
struct PCMFormat: Equatable, Sendable {
    var rate: Int
    var channels: Int

    var bytesPerFrame: Int { 2 * channels }

    func seconds(frames: Int) -> Double { rate > 0 ? Double(frames) / Double(rate) : 0 }
    func frames(seconds: Double) -> Int { Int((max(0, seconds) * Double(rate)).rounded()) }
}

/// Why the decoder could not be created or fed.
struct DecoderError: Error, Equatable, CustomStringConvertible {
    var description: String
}

/// libmpg123 in feed mode: bytes go in with `feed`, PCM comes out of `decode`.
///
/// Not thread-safe: one producer thread owns it. Output is always signed 16-bit at the file's
/// own rate and channel count. mpg123 never says "this is not MP3"; it just keeps asking for
/// more. `isNotAudio` applies the rule the player needs: many bytes fed and not one MPEG frame
/// header found (no format). Counting PCM instead would call a file starting at a saved place
/// "not MP3": mpg123 skips the frames before a seek target without decoding them.
final class MP3Decoder {
    /// What one `decode` call produced.
    enum Step: Equatable {
        /// The stream's format is (now) known; no PCM in this step.
        case format(PCMFormat)
        /// `bytes` of PCM at the start of the buffer; `firstFrame` is mpg123_tell before the
        /// read (mpg123 says 0 on the first read after a seek made right after the format, for
        /// files without an Info frame, even though the audio starts at the target).
        case pcm(bytes: Int, firstFrame: Int)
        /// Feed more input.
        case needMore
        case failed(String)
    }

    /// Bytes of input without a single decoded frame after which the input is not MP3. The
    /// ID3v2 tags the input starts with are not counted (`LeadingTags`).
    static let notAudioThreshold = 64 * 1024

    private let handle: OpaquePointer
    private(set) var format: PCMFormat?
    /// Bytes given to `feed`, in total.
    private(set) var bytesFed = 0
    /// The ID3v2 tags at the start of the input (cover art can be megabytes): skipped by their
    /// declared size, not counted as "no MPEG frame yet".
    private var leadingTags = LeadingTags()
    /// PCM frames (samples per channel) produced, in total.
    private(set) var framesDecoded = 0

    private static let libraryReady: Bool = mpg123_init() == MPG123_OK.rawValue

    init() throws(DecoderError) {
        guard Self.libraryReady else { throw DecoderError(description: "mpg123_init failed") }
        var err: Int32 = 0
        guard let handle = mpg123_new(nil, &err) else {
            throw DecoderError(description: "mpg123_new: " + Self.text(err))
        }
        self.handle = handle
        mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_QUIET.rawValue), 0)
        // Sample-exact seeking needs the frame index mpg123 builds while parsing.
        mpg123_param2(handle, Int32(MPG123_INDEX_SIZE.rawValue), -1, 0)
        mpg123_format_none(handle)
        var rates: UnsafePointer<Int>?
        var count = 0
        mpg123_rates(&rates, &count)
        let channels = Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue)
        let encoding = Int32(MPG123_ENC_SIGNED_16.rawValue)
        if let rates {
            for i in 0..<count { mpg123_format(handle, rates[i], channels, encoding) }
        }
        let rc = mpg123_open_feed(handle)
        guard rc == MPG123_OK.rawValue else {
            let message = String(cString: mpg123_strerror(handle))
            mpg123_delete(handle)
            throw DecoderError(description: "mpg123_open_feed: " + message)
        }
    }

    deinit {
        mpg123_close(handle)
        mpg123_delete(handle)
    }

    /// Tells mpg123 the total input size, so durations are exact for CBR files without a frame
    /// count (LAME "Info" tags are ignored in feed mode otherwise).
    func setInputSize(_ bytes: Int) {
        guard bytes > 0 else { return }
        mpg123_set_filesize(handle, bytes)
    }

    /// Adds input. Returns false if mpg123 refused it (out of memory).
    @discardableResult
    func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        bytesFed += bytes.count
        if format == nil { leadingTags.read(bytes) }
        return mpg123_feed(handle, base.assumingMemoryBound(to: UInt8.self), bytes.count) == MPG123_OK.rawValue
    }

    /// Decodes into `buffer` (keep it small, e.g. 4 KiB: it bounds stop latency downstream).
    func decode(into buffer: UnsafeMutableRawBufferPointer) -> Step {
        guard let base = buffer.baseAddress else { return .needMore }
        let firstFrame = position
        var done = 0
        let rc = mpg123_read(handle, base, buffer.count, &done)
        if rc == MPG123_NEW_FORMAT.rawValue {
            var rate = 0
            var channels: Int32 = 0
            var encoding: Int32 = 0
            mpg123_getformat(handle, &rate, &channels, &encoding)
            let format = PCMFormat(rate: rate, channels: Int(channels))
            if let first = self.format, first != format {
                // The output was held to the first format (below); mpg123 could not keep to it.
                return .failed("the recording changes from \(first.rate) Hz to \(rate) Hz in the middle")
            }
            if self.format == nil {
                // Issue 45 #9: a stream that changes its rate or channels in the middle (44.1 kHz
                // stereo, then 22.05 kHz mono) was played in the first format: the second part
                // at 4× the pitch, the clock frozen. The output stays in the first format;
                // mpg123 resamples and mixes what follows into it.
                mpg123_format_none(handle)
                mpg123_format(handle, rate, channels == 1 ? Int32(MPG123_MONO.rawValue) : Int32(MPG123_STEREO.rawValue), encoding)
            }
            self.format = format
            return .format(format)
        }
        if done > 0, let format {
            framesDecoded += done / format.bytesPerFrame
            return .pcm(bytes: done, firstFrame: firstFrame)
        }
        if rc == MPG123_OK.rawValue || rc == MPG123_NEED_MORE.rawValue || rc == MPG123_DONE.rawValue {
            return .needMore
        }
        return .failed(String(cString: mpg123_strerror(handle)))
    }

    /// True when enough bytes went in to be sure this is not MP3: mpg123 found no stream
    /// format in them. (Decoded frames are not the test: starting at a saved place, mpg123
    /// reads and skips every frame up to it, which for 0:40 of a 32 kbit/s clip is 160 KB
    /// without a frame handed out; that was "the file is not MP3 audio".)
    /// The bytes of the ID3v2 tags the input starts with are not counted: a tag says its size,
    /// and cover art over 64 KiB is common in audio guides (it was "not a recording").
    var isNotAudio: Bool { format == nil && bytesFed - leadingTags.excused >= Self.notAudioThreshold }

    /// Bytes of leading ID3v2 tags so far (header, body, footer), up to `LeadingTags.limit`.
    var tagBytes: Int { leadingTags.excused }

    /// Input bytes mpg123 holds but has not used: after the last byte and a full decode, a
    /// piece of a frame the input ended in the middle of.
    var inputBuffered: Int {
        var value = 0
        var fvalue = 0.0
        guard mpg123_getstate2(handle, Int32(MPG123_BUFFERFILL.rawValue), &value, &fvalue) == MPG123_OK.rawValue else { return 0 }
        return max(0, value)
    }

    /// The index of the next frame `decode` returns.
    var position: Int { max(0, mpg123_tell(handle)) }

    /// Total frames when mpg123 knows them (after the format; exact with `setInputSize` or a
    /// Xing/Info frame count), else nil.
    var lengthFrames: Int? {
        let length = mpg123_length(handle)
        return length > 0 ? length : nil
    }

    /// The current MPEG frame's bitrate in kbit/s and whether the stream is VBR.
    var bitrate: (kbps: Int, variable: Bool)? {
        var info = mpg123_frameinfo2()
        guard mpg123_info2(handle, &info) == MPG123_OK.rawValue else { return nil }
        return (Int(info.bitrate), info.vbr != Int32(MPG123_CBR.rawValue))
    }

    /// Prepares a seek to `frame`. mpg123 answers with the byte offset of the input it needs
    /// next: either exactly where feeding left off (keep feeding: it skips to the target
    /// itself) or an earlier/later offset (feed from there). `fuzzy` lets mpg123 guess a far
    /// offset from the Xing table of contents instead of reading up to the target.
    func seek(toFrame frame: Int, fuzzy: Bool = false) -> (frame: Int, inputOffset: Int)? {
        if fuzzy { mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_FUZZY.rawValue), 0) }
        defer {
            if fuzzy { mpg123_param2(handle, Int32(MPG123_REMOVE_FLAGS.rawValue), Int(MPG123_FUZZY.rawValue), 0) }
        }
        var inputOffset = 0
        let landed = mpg123_feedseek(handle, max(0, frame), SEEK_SET, &inputOffset)
        guard landed >= 0, inputOffset >= 0 else { return nil }
        return (landed, inputOffset)
    }

    private static func text(_ code: Int32) -> String {
        guard let text = mpg123_plain_strerror(code) else { return "mpg123 error \(code)" }
        return String(cString: text)
    }
}

/// Reads the ID3v2 tags at the start of a stream as it is fed, a byte at a time at most, to know
/// how many of its bytes are tags (not audio, and not yet a reason to call it "not MP3").
///
/// A tag is a 10-byte header ("ID3", version, flags, a 28-bit syncsafe size), its body and an
/// optional 10-byte footer (flag 0x10); tags may follow one another. Anything else ends the
/// tags. What is excused is bounded (`limit`): a header that declares 256 MB ten times over
/// still ends in "not MP3" after a bounded amount of input.
struct LeadingTags {
    /// At most this many bytes of tags are excused, whatever the headers declare.
    static let limit = 32 * 1024 * 1024

    private var header: [UInt8] = []
    private var remaining = 0
    private(set) var ended = false
    /// Bytes of tags seen so far, bounded by `limit`.
    private(set) var excused = 0

    mutating func read(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        while i < bytes.count, !ended {
            if remaining > 0 {
                let take = min(remaining, bytes.count - i)
                remaining -= take
                i += take
                excused = min(Self.limit, excused + take)
                if excused >= Self.limit { return end() }
                continue
            }
            let byte = bytes[i]
            let expected: UInt8? = header.count < 3 ? Array("ID3".utf8)[header.count] : nil
            if let expected, byte != expected { return end() }
            header.append(byte)
            i += 1
            guard header.count == 10 else { continue }
            // Version and revision are never 0xFF; each size byte keeps its top bit clear.
            guard header[3] != 0xFF, header[4] != 0xFF, header[6..<10].allSatisfy({ $0 < 0x80 }) else { return end() }
            let size = header[6..<10].reduce(0) { $0 << 7 | Int($1) }
            let footer = header[5] & 0x10 != 0 ? 10 : 0
            excused = min(Self.limit, excused + 10)
            remaining = size + footer
            header = []
            if excused >= Self.limit { return end() }
        }
    }

    private mutating func end() {
        ended = true
        remaining = 0
        header = []
    }
}

/// What a whole in-memory file decodes to (tests, and a duration probe).
struct DecodeSummary: Equatable {
    var format: PCMFormat?
    var frames: Int
    /// mpg123's length after the format was known, with the input size set.
    var lengthFrames: Int?
    var notAudio: Bool
    var peak: Int
}

extension MP3Decoder {
    /// Feeds `bytes` in `chunk`-sized pieces and decodes everything.
    static func decodeAll(_ bytes: [UInt8], chunk: Int = 4096) throws(DecoderError) -> DecodeSummary {
        let decoder = try MP3Decoder()
        decoder.setInputSize(bytes.count)
        var lengthFrames: Int?
        var peak = 0
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 2)
        defer { out.deallocate() }
        var offset = 0
        var failure: String?
        repeat {
            let end = min(bytes.count, offset + max(1, chunk))
            _ = bytes[offset..<end].withUnsafeBytes { decoder.feed($0) }
            offset = end
            loop: while true {
                switch decoder.decode(into: out) {
                case .format:
                    lengthFrames = decoder.lengthFrames
                case .pcm(let count, _):
                    let samples = out.bindMemory(to: Int16.self).prefix(count / 2)
                    for s in samples { peak = max(peak, abs(Int(s))) }
                case .needMore:
                    break loop
                case .failed(let why):
                    failure = why
                    break loop
                }
            }
        } while offset < bytes.count && failure == nil && !decoder.isNotAudio
        if let failure, decoder.framesDecoded == 0 { throw DecoderError(description: failure) }
        return DecodeSummary(
            format: decoder.format, frames: decoder.framesDecoded, lengthFrames: lengthFrames,
            notAudio: decoder.framesDecoded == 0, peak: peak)
    }
}

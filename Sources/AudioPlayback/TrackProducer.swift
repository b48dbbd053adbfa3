import CCurl
import CLazyLibs
import CShims
import DocentCore
import Foundation
import TwoCores

/// The input side of a track, on its own thread: libcurl reads the URL (http, https or
/// file), mpg123 decodes in feed mode, PCM goes into the ring. Seeks restart the transfer at
/// the byte offset mpg123 asks for, with an HTTP Range when the server honours it; otherwise
/// bytes before that offset are read and dropped.
final class TrackProducer {
    private enum TransferOutcome {
        case complete
        case restart(at: Int)
        case cancelled
        case failed(AudioFailure)
    }

    private enum PumpResult {
        case needMore
        case restart(at: Int)
        case cancelled
        case failed(AudioFailure)
    }

    /// Bytes mpg123 would have to read (and skip) to reach a seek target, above which a guess
    /// from the table of contents (fuzzy seek) plus a Range request is used instead.
    private static let readAheadLimit = 256 * 1024

    private let track: Track
    private var source: AudioSource
    /// Recordings heard whole are kept here; a play whose server cannot be reached uses them.
    private let keeper: AudioKeeper?
    /// The copy being written by this transfer (an HTTP download from the first byte).
    private var copy: AudioKeeper.Copy?
    /// Playing a kept copy because the server could not be reached.
    private(set) var fromKeptCopy = false
    private var decoder: MP3Decoder?
    private let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)

    private var totalSize: Int?
    /// nil until a server showed whether it honours Range.
    private var rangeSupported: Bool?
    /// Absolute offset of the next byte mpg123 expects.
    private var fedOffset = 0
    /// Absolute offset of the next byte this transfer delivers.
    private var streamOffset = 0
    private var requestedStart = 0
    private var firstChunk = true
    private var restartAt: Int?
    private var callbackFailure: AudioFailure?
    private var formatKnown = false
    private var bytesThisTransfer = 0
    private var pausedDuringTransfer = false
    /// mpg123 gave up after frames had decoded (garbage after a valid part): what decoded
    /// plays before the failure shows.
    private var damagedAfterFrames = false

    init(track: Track) {
        self.track = track
        source = AudioSource(track.request.url)
        keeper = track.configuration.keptAudioDirectory.map { AudioKeeper(directory: $0) }
    }

    deinit { pcm.deallocate() }

    func run() {
        do {
            decoder = try MP3Decoder()
        } catch {
            return track.fail(.other("cannot start the MP3 decoder: \(error)"))
        }
        switch source {
        case .unsupported(let why):
            return track.fail(.other(why))
        case .file(let path):
            switch AudioSource.fileSize(path) {
            case .failure(let failure): return track.fail(failure)
            case .success(let size):
                totalSize = size
                rangeSupported = true
                decoder?.setInputSize(size)
            }
        case .http:
            break
        }
        guard CurlSession.ready, let curl = curl_easy_init() else {
            return track.fail(.other("libcurl could not be initialised"))
        }
        defer { curl_easy_cleanup(curl) }
        var start = 0
        var retried = false
        while !track.isCancelled {
            switch transfer(curl, from: start) {
            case .cancelled:
                return
            case .restart(let offset):
                start = offset
            case .failed(let failure):
                if case .network = failure, !fromKeptCopy, decoder?.framesDecoded == 0, case .http(let url) = source, let keeper,
                    let path = keeper.kept(url), case .success(let size) = AudioSource.fileSize(path)
                {
                    // The server cannot be reached: the copy kept when it was heard whole.
                    fromKeptCopy = true
                    track.report(.fromKeptCopy)
                    source = .file(path: path)
                    totalSize = size
                    rangeSupported = true
                    decoder?.setInputSize(size)
                    continue
                }
                guard let decoder, decoder.framesDecoded > 0, Self.playsWhatArrived(failure) || damagedAfterFrames else {
                    return track.fail(failure)
                }
                // Mid-track. After a long pause the server may have closed an idle connection:
                // continue where mpg123 left off, once, if ranges work.
                if !retried, !damagedAfterFrames, pausedDuringTransfer, rangeSupported == true, bytesThisTransfer > 0 {
                    retried = true
                    start = fedOffset
                    continue
                }
                // Let what arrived play, then fail; a seek may still retry.
                track.update { $0.deferredFailure = failure }
                guard let next = finishAndWait() else { return }
                track.update { $0.deferredFailure = nil }
                start = next
            case .complete:
                if let decoder, decoder.format == nil { return track.fail(.notAudio) }
                guard let next = finishAndWait() else { return }
                start = next
            }
        }
    }

    /// A failure after which what arrived still plays before it shows.
    private static func playsWhatArrived(_ failure: AudioFailure) -> Bool {
        switch failure {
        case .network, .contentLengthTooShort: return true
        default: return false
        }
    }

    /// All input is in: lets the output drain, and waits for a seek (returns the offset to
    /// transfer from) or the end (nil).
    private func finishAndWait() -> Int? {
        track.ring.finish()
        while !track.isCancelled && !track.state.outputDone {
            if track.hasPendingSeek {
                switch pump(chunk: nil) {
                case .needMore:
                    track.ring.finish()
                case .restart(let offset):
                    return offset
                case .cancelled:
                    return nil
                case .failed(let failure):
                    track.fail(failure)
                    return nil
                }
            }
            track.producerWakeup.wait(timeout: 0.5)
        }
        return nil
    }

    // MARK: - One transfer

    private func transfer(_ curl: UnsafeMutableRawPointer, from start: Int) -> TransferOutcome {
        guard let url = source.curlURL else { return .failed(.other("no URL")) }
        if let totalSize, start >= totalSize {
            // A seek past the last byte: nothing left to fetch.
            fedOffset = start
            return .complete
        }
        let useRange = start > 0 && rangeSupported != false
        excessData = false
        requestedStart = useRange ? start : 0
        fedOffset = start
        streamOffset = requestedStart
        firstChunk = true
        restartAt = nil
        callbackFailure = nil
        bytesThisTransfer = 0
        pausedDuringTransfer = track.state.paused

        let config = track.configuration
        let isFile: Bool
        if case .file = source { isFile = true } else { isFile = false }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = cs_curl_setopt_str(curl, CURLOPT_URL, url)
        _ = cs_curl_setopt_ptr(curl, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = cs_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = cs_curl_setopt_long(curl, CURLOPT_FAILONERROR, 1)
        _ = cs_curl_setopt_str(curl, CURLOPT_PROTOCOLS_STR, isFile ? "file" : "http,https")
        _ = cs_curl_setopt_str(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = cs_curl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 1)
        _ = cs_curl_setopt_long(curl, CURLOPT_MAXREDIRS, 5)
        _ = cs_curl_setopt_str(curl, CURLOPT_USERAGENT, config.userAgent)
        _ = cs_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(config.connectTimeout * 1000)))
        // A server that stops sending: less than 1 byte/s for stallTimeout seconds.
        _ = cs_curl_setopt_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = cs_curl_setopt_long(curl, CURLOPT_LOW_SPEED_TIME, max(1, Int(config.stallTimeout.rounded(.up))))
        _ = cs_curl_setopt_str(curl, CURLOPT_RANGE, useRange ? "\(start)-" : nil)
        _ = cs_curl_setopt_write_cb(curl, me) { pointer, size, count, userdata in
            guard let userdata else { return 0 }
            let producer = Unmanaged<TrackProducer>.fromOpaque(userdata).takeUnretainedValue()
            return producer.receive(pointer, size * count)
        }
        _ = cs_curl_setopt_header_cb(curl, me) { pointer, size, count, userdata in
            guard let userdata else { return 0 }
            let producer = Unmanaged<TrackProducer>.fromOpaque(userdata).takeUnretainedValue()
            producer.header(pointer, size * count)
            return size * count
        }
        // libcurl's informational lines, for the one that says the body went on past the
        // Content-Length (a too-short length would otherwise look like a normal end).
        _ = cs_curl_setopt_debug_cb(curl, isFile ? nil : me, isFile ? nil : { _, type, data, size, userdata in
            guard type == CURLINFO_TEXT, let data, let userdata, size >= 12 else { return 0 }
            let text = data.withMemoryRebound(to: UInt8.self, capacity: size) {
                String(decoding: UnsafeBufferPointer(start: $0, count: min(size, 64)), as: UTF8.self)
            }
            if text.hasPrefix("Excess found") {
                Unmanaged<TrackProducer>.fromOpaque(userdata).takeUnretainedValue().excessData = true
            }
            return 0
        })
        _ = cs_curl_setopt_xferinfo_cb(curl, me) { userdata, _, _, _, _ in
            guard let userdata else { return 1 }
            return Unmanaged<TrackProducer>.fromOpaque(userdata).takeUnretainedValue().progress()
        }

        currentCurl = curl
        transferActive = true
        lastData = Date()
        if case .http(let u) = source, requestedStart == 0, let keeper { copy = AudioKeeper.Copy(keeper: keeper, url: u) }
        let rc = withExtendedLifetime(self) { curl_easy_perform(curl) }
        transferActive = false
        currentCurl = nil
        // Kept only when the whole recording arrived in this one transfer.
        if let c = copy {
            copy = nil
            if rc == CURLE_OK, restartAt == nil, callbackFailure == nil, !track.isCancelled, !excessData { c.finish(size: totalSize) } else { c.discard() }
        }

        if track.isCancelled { return .cancelled }
        if let restartAt { return .restart(at: restartAt) }
        if let callbackFailure { return .failed(callbackFailure) }
        if rc != CURLE_OK {
            var status = 0
            cs_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
            if rc == CURLE_HTTP_RETURNED_ERROR, status == 416, useRange {
                // "Range Not Satisfiable" for a range inside the file: this server cannot do
                // ranges. Download from the start, dropping the bytes before `start`.
                rangeSupported = false
                return .restart(at: start)
            }
            return .failed(Self.failure(rc, status: status, detail: String(cString: errorBuffer), source: source))
        }
        // The input ended: let mpg123 give what it still holds (nothing new is fed).
        let ended = pump(chunk: nil)
        if case .http = source, let totalSize, fedOffset >= totalSize, bodyCutShort {
            // The server stopped at its Content-Length with more to send (libcurl saw the
            // excess, or the body ends inside an MPEG frame): play what arrived, then say why
            // it stopped, not "not MP3" when that was too little to decode.
            return .failed(.contentLengthTooShort(announced: totalSize))
        }
        switch ended {
        case .needMore:
            noteEndOfInput()
            return .complete
        case .restart(let offset): return .restart(at: offset)
        case .cancelled: return .cancelled
        case .failed(let failure): return .failed(failure)
        }
    }

    // MARK: - libcurl callbacks (this thread)

    private var acceptRanges: Bool?
    private var contentRangeTotal: Int?
    /// libcurl said the server sent more than its Content-Length.
    private var excessData = false
    /// The last bytes received, to tell an ID3v1 tag at the end from a cut-off frame.
    private var tail: [UInt8] = []

    /// After the whole announced body: it stopped short of the recording's end.
    private var bodyCutShort: Bool {
        if excessData { return true }
        guard let decoder, decoder.format != nil else { return false }
        let left = decoder.inputBuffered
        guard left >= 4 else { return false }
        // An ID3v1 tag (128 bytes, "TAG") after the last frame is not audio.
        if left <= 128 + 32, tail.count >= 128, tail[tail.count - 128..<tail.count - 125].elementsEqual("TAG".utf8) { return false }
        return true
    }

    private func header(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) {
        guard let pointer, count > 0 else { return }
        let line = pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = line.lowercased()
        if lower.hasPrefix("http/") {
            acceptRanges = nil
            contentRangeTotal = nil
        } else if lower.hasPrefix("accept-ranges:") {
            acceptRanges = lower.contains("bytes")
        } else if lower.hasPrefix("content-range:"), let slash = lower.lastIndex(of: "/") {
            contentRangeTotal = Int(lower[lower.index(after: slash)...].trimmingCharacters(in: .whitespaces))
        }
    }

    private func firstData(_ curl: UnsafeMutableRawPointer?) {
        guard case .http = source, let curl else {
            streamOffset = requestedStart
            return
        }
        var status = 0
        cs_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
        var length: curl_off_t = -1
        cs_curl_getinfo_off(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        if status == 206 {
            rangeSupported = true
            streamOffset = requestedStart
            if totalSize == nil {
                totalSize = contentRangeTotal ?? (length >= 0 ? Int(length) + requestedStart : nil)
            }
        } else {
            // 200: the whole file, whatever we asked.
            if requestedStart > 0 { rangeSupported = false }
            if rangeSupported == nil, acceptRanges == true { rangeSupported = true }
            streamOffset = 0
            if totalSize == nil, length >= 0 { totalSize = Int(length) }
        }
        if let totalSize, !formatKnown { decoder?.setInputSize(totalSize) }
    }

    private func receive(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard !track.isCancelled, let pointer, let decoder else { return 0 }
        if firstChunk {
            firstChunk = false
            firstData(currentCurl)
        }
        bytesThisTransfer += count
        if track.state.paused { pausedDuringTransfer = true }
        let chunk = UnsafeRawBufferPointer(start: pointer, count: count)
        if let copy {
            // Only a body from the first byte (a 200) makes a whole copy.
            if streamOffset == copy.written { copy.append(chunk) } else { self.copy = nil; copy.discard() }
        }
        tail.append(contentsOf: chunk.suffix(256))
        if tail.count > 256 { tail.removeFirst(tail.count - 256) }
        let chunkStart = streamOffset
        streamOffset += count
        guard streamOffset > fedOffset else { return count }  // before the wanted offset: skip
        let skip = max(0, fedOffset - chunkStart)
        if !decoder.feed(UnsafeRawBufferPointer(rebasing: chunk[skip...])) {
            callbackFailure = .other("out of memory feeding the decoder")
            return 0
        }
        fedOffset = streamOffset
        defer { lastData = Date() }  // after any wait for ring space: that was not the server
        switch pump(chunk: (chunk, chunkStart)) {
        case .needMore:
            return count
        case .restart(let offset):
            restartAt = offset
            return 0
        case .cancelled:
            return 0
        case .failed(let failure):
            callbackFailure = failure
            return 0
        }
    }

    /// The easy handle of the running transfer, for getinfo in the first write callback.
    private var currentCurl: UnsafeMutableRawPointer?
    /// Inside curl_easy_perform: bytes are still arriving from the current request.
    private var transferActive = false
    /// When the server last delivered (or the transfer began).
    private var lastData = Date()

    private func progress() -> Int32 {
        if track.isCancelled { return 1 }
        // Our own stall check: curl's low-speed limit averages over ~5 s, so it fires late.
        let idle = Date().timeIntervalSince(lastData)
        if idle > track.configuration.stallTimeout {
            callbackFailure = .network("no data from the server for \(Int(idle.rounded())) s")
            return 1
        }
        guard formatKnown, track.hasPendingSeek else { return 0 }
        // A seek while no data flows (slow server): handle it now rather than at the next byte.
        defer { lastData = Date() }  // pump may have waited for ring space (paused)
        switch pump(chunk: nil) {
        case .needMore:
            return 0
        case .restart(let offset):
            restartAt = offset
            return 1
        case .cancelled:
            return 1
        case .failed(let failure):
            callbackFailure = failure
            return 1
        }
    }

    /// Everything up to the last byte is decoded, so mpg123's position is the exact length
    /// (the estimate from the size can be a frame off when there is no Info/Xing header).
    private func noteEndOfInput() {
        guard let decoder, let format = decoder.format, decoder.framesDecoded > 0 else { return }
        if let totalSize, fedOffset < totalSize { return }
        let exact = decoder.position
        let known = track.state.durationFrames
        guard exact > 0, exact != known else { return }
        track.update { $0.durationFrames = exact }
        track.report(.duration(format.seconds(frames: exact)))
    }

    // MARK: - Decoding

    /// Decodes until mpg123 needs more input, writing PCM to the ring and applying seeks.
    /// `chunk` is the input just fed (with its absolute offset), so a seek that lands inside
    /// it needs no new request.
    private func pump(chunk: (bytes: UnsafeRawBufferPointer, start: Int)?) -> PumpResult {
        guard let decoder else { return .cancelled }
        while true {
            if track.isCancelled { return .cancelled }
            if formatKnown, let seek = track.takePendingSeek() {
                if let offset = applySeek(seek.seconds, generation: seek.generation, chunk: chunk) {
                    return .restart(at: offset)
                }
            }
            switch decoder.decode(into: pcm) {
            case .format(let format):
                if !formatKnown {
                    formatKnown = true
                    track.ring.setBytesPerFrame(format.bytesPerFrame)
                    let length = decoder.lengthFrames
                    track.update {
                        $0.format = format
                        $0.durationFrames = length
                    }
                    track.report(.duration(length.map { format.seconds(frames: $0) }))
                    track.outputWakeup.signal()
                }
            case .pcm(let bytes, _):
                if let result = write(bytes) { return result }
            case .needMore:
                if decoder.isNotAudio { return .failed(.notAudio) }
                return .needMore
            case .failed(let why):
                if decoder.framesDecoded == 0, decoder.format == nil { return .failed(.notAudio) }
                damagedAfterFrames = decoder.framesDecoded > 0
                return .failed(.other("MP3 decoding failed: \(why)"))
            }
        }
    }

    /// Writes decoded PCM to the ring; nil when done (or dropped for a seek).
    private func write(_ bytes: Int) -> PumpResult? {
        var written = 0
        while written < bytes {
            switch track.ring.write(UnsafeRawBufferPointer(rebasing: pcm[written..<bytes])) {
            case .written:
                return nil
            case .interrupted(let count):
                written += count
                if track.isCancelled { return .cancelled }
                if track.hasPendingSeek { return nil }  // the rest is before the seek target
            case .closed:
                return .cancelled
            }
        }
        return nil
    }

    /// Prepares mpg123 for the seek and resets the ring. Returns the byte offset to restart
    /// the transfer at, or nil to keep feeding as before.
    private func applySeek(_ seconds: Double, generation: Int, chunk: (bytes: UnsafeRawBufferPointer, start: Int)?) -> Int? {
        guard let decoder, let format = decoder.format else { return nil }
        var targetFrame = format.frames(seconds: seconds)
        if let length = decoder.lengthFrames { targetFrame = min(targetFrame, length) }
        guard var landing = decoder.seek(toFrame: targetFrame) else { return nil }
        // An exact seek lands on the target. (Right after the format, before the first read,
        // mpg123 reports 0 for files without an Info frame, though its output starts there.)
        landing.frame = targetFrame
        if landing.inputOffset == fedOffset, rangeSupported != false,
            let bitrate = decoder.bitrate, bitrate.kbps > 0
        {
            // mpg123 would read up to the target. Far away: guess the offset instead.
            let framesAhead = max(0, targetFrame - decoder.position)
            let bytesAhead = Double(framesAhead) / Double(format.rate) * Double(bitrate.kbps) * 125
            if bytesAhead > Double(Self.readAheadLimit), let fuzzy = decoder.seek(toFrame: targetFrame, fuzzy: true),
                fuzzy.inputOffset > fedOffset
            {
                landing = fuzzy
            }
        }
        track.ring.reset(toFrame: landing.frame, run: generation)
        let offset = landing.inputOffset
        if offset == fedOffset { return nil }
        if let chunk, offset >= chunk.start, offset < chunk.start + chunk.bytes.count {
            decoder.feed(UnsafeRawBufferPointer(rebasing: chunk.bytes[(offset - chunk.start)...]))
            fedOffset = chunk.start + chunk.bytes.count
            return nil
        }
        if offset > fedOffset, rangeSupported == false, transferActive {
            fedOffset = offset  // keep reading this transfer, dropping bytes up to the offset
            return nil
        }
        fedOffset = offset
        return offset
    }

    // MARK: - Errors

    private static func failure(_ rc: CURLcode, status: Int, detail: String, source: AudioSource) -> AudioFailure {
        let text = curl_easy_strerror(rc).map { String(cString: $0) } ?? "curl error \(rc.rawValue)"
        let reason = detail.isEmpty ? text : detail
        // Issue 45 #9: these were "no connection to the museum's server" (a network failure).
        if detail.localizedCaseInsensitiveContains("too large response headers") || detail.localizedCaseInsensitiveContains("header (max") {
            return .headersTooLarge
        }
        switch rc {
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects
        case CURLE_HTTP_RETURNED_ERROR:
            return .http(status: status > 0 ? status : Int(detail.split(separator: " ").last ?? "") ?? 0)
        case CURLE_FILE_COULDNT_READ_FILE:
            if case .file(let path) = source { return .fileNotFound(path) }
            return .network(reason)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_OUT_OF_MEMORY:
            return .other(reason)
        default:
            return .network(reason)
        }
    }
}

/// libcurl's process-wide set-up, once.
enum CurlSession {
    /// Opens libcurl on a thread of its own, at a low priority, once the guide is on screen
    /// (`LiveAudioEngine.warmUp`): it is no longer opened before the first frame (issue 48),
    /// and the first recording played must not wait the 6–10 ms that opening it takes (make
    /// bench's "first PCM", timed from Play).
    static func warmUp() {
        TwoCores.lowPriority { _ = ready }
    }

    static let ready: Bool = {
        // libcurl is opened on first use, not at every start (issue 48).
        guard docent_lazy_load(DOCENT_LAZY_CURL) != 0 else { return false }
        cs_curl_ignore_sigpipe()
        return curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()
}

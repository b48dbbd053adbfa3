import DocentCore
import Foundation

/// Recordings heard once, kept on disk so they play again without a network: a recording
/// downloaded whole from its start is written beside the stream (a temporary file, renamed
/// into place only when every announced byte arrived), and a later play whose server cannot
/// be reached reads the kept copy instead. Keyed by URL; a newer copy replaces the older when
/// the recording is heard whole again. Nothing here can stop playback: a copy that cannot be
/// written is simply not kept.
struct AudioKeeper {
    let directory: String

    /// `$XDG_CACHE_HOME/docent/audio` (else `~/.cache/docent/audio`).
    static func defaultDirectory(environment env: [String: String]) -> String {
        var base = env["XDG_CACHE_HOME"] ?? ""
        if !base.hasPrefix("/") { base = (env["HOME"] ?? NSTemporaryDirectory()) + "/.cache" }
        return base + "/docent/audio"
    }

    /// 64-bit FNV-1a of the URL, as the file's name.
    static func key(_ url: String) -> String { FNV1a.hex64(url.utf8) }

    func path(for url: String) -> String { "\(directory)/\(Self.key(url)).mp3" }

    /// The kept copy of `url`, if there is one.
    func kept(_ url: String) -> String? {
        let p = path(for: url)
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }

    /// A copy being written: bytes in order from the recording's first byte.
    final class Copy {
        let target: String
        let temporary: String
        private let handle: FileHandle
        private(set) var written = 0
        private var broken = false

        init?(keeper: AudioKeeper, url: String) {
            let fm = FileManager.default
            try? fm.createDirectory(atPath: keeper.directory, withIntermediateDirectories: true)
            target = keeper.path(for: url)
            temporary = target + ".part-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
            guard fm.createFile(atPath: temporary, contents: nil), let h = FileHandle(forWritingAtPath: temporary) else { return nil }
            handle = h
        }

        func append(_ bytes: UnsafeRawBufferPointer) {
            guard !broken else { return }
            do {
                try handle.write(contentsOf: Data(bytes))
                written += bytes.count
            } catch {
                broken = true
            }
        }

        /// Keeps the copy when it holds exactly `size` bytes; otherwise throws it away.
        func finish(size: Int?) {
            try? handle.close()
            if !broken, let size, size == written, rename(temporary, target) == 0 { return }
            discard()
        }

        func discard() {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporary)
        }
    }
}

/// The kept recordings as the rest of the guide sees them: how many of a tour's are kept and
/// their size, fetching the missing ones ahead ("save for offline"), removing them. The same
/// files the player writes when a recording is heard whole and reads when offline.
public struct KeptRecordings: Sendable {
    public let directory: String
    private var keeper: AudioKeeper { AudioKeeper(directory: directory) }

    public init(directory: String) { self.directory = directory }

    public static func defaultDirectory(environment: [String: String]) -> String { AudioKeeper.defaultDirectory(environment: environment) }

    /// How many of `urls` are kept, and their bytes.
    public func tally(_ urls: [String]) -> (kept: Int, bytes: Int) {
        var kept = 0, bytes = 0
        for u in urls {
            guard let p = keeper.kept(u), let size = (try? FileManager.default.attributesOfItem(atPath: p))?[.size] as? Int else { continue }
            kept += 1
            bytes += size
        }
        return (kept, bytes)
    }

    /// Why saving stopped.
    public enum SaveFailure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The recording could not be fetched.
        case fetch(FetchError)
        /// The disk (or the user's quota) is full.
        case diskFull(String)
        /// What arrived is not an MP3 recording (a web page, zeros).
        case notAudio(url: String)
        /// The copy could not be written for another reason.
        case cannotWrite(String)

        /// What the visitor is told.
        public var problem: FetchProblem {
            switch self {
            case .fetch(let e): return FetchProblem(e)
            case .diskFull: return .diskFull
            case .notAudio: return .unreadable
            case .cannotWrite: return .diskFull
            }
        }

        public var description: String {
            switch self {
            case .fetch(let e): return e.description
            case .diskFull(let why): return "the disk is full: \(why)"
            case .notAudio(let url): return "\(url) is not an MP3 recording"
            case .cannotWrite(let why): return "cannot write the kept copy: \(why)"
            }
        }
    }

    /// The most bytes one recording may take.
    public static let maxRecordingBytes = 512 * 1024 * 1024

    /// Fetches each of `urls` not kept yet, in order, and keeps it whole (a file appears only
    /// when complete). `progress` hears the tally after each; the first failure stops it and
    /// is answered (nil: all kept, or cancelled). `cancellation` stops it at once, in the
    /// middle of a recording too (what came of that one is thrown away).
    ///
    /// Issue 45: each recording came whole into memory (up to 512 MB) and was written without
    /// a look (500 MB of zeros kept as a "recording"), and a full disk was said as "the server
    /// cannot be reached". A recording is now written to its file as it arrives (where the
    /// fetcher can), kept only when its start decodes as MP3, and a full disk is said as such.
    /// Cancel was looked at only between recordings (each up to 300 s); now also while one
    /// comes (`FetchRequest.cancellation`).
    public func save(
        _ urls: [String], fetcher: any Fetching, progress: ((kept: Int, bytes: Int)) -> Void, cancellation: FetchCancellation? = nil
    ) -> SaveFailure? {
        let fm = FileManager.default
        try? fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cancelled = { cancellation?.isCancelled ?? false }
        for u in urls where keeper.kept(u) == nil {
            if cancelled() { return nil }
            let target = keeper.path(for: u)
            let tmp = target + ".part-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
            defer { unlink(tmp) }
            let request = FetchRequest(url: u, timeoutSeconds: 300, maxBytes: Self.maxRecordingBytes, cancellation: cancellation)
            if let streamed = fetcher.download(request, to: tmp) {
                switch streamed {
                case .failure where cancelled(): return nil
                case .failure(.other(_, let reason)) where reason.contains("No space left") || reason.contains("quota"):
                    return .diskFull(reason)
                case .failure(let e): return .fetch(e)
                case .success: break
                }
            } else {
                switch fetcher.fetch(request) {
                case .failure where cancelled(): return nil
                case .failure(let e): return .fetch(e)
                case .success(let r):
                    if let problem = Self.write(r.body, to: tmp) { return problem }
                }
            }
            if cancelled() { return nil }
            guard Self.startsAsMP3(tmp) else { return .notAudio(url: u) }
            guard rename(tmp, target) == 0 else { return .cannotWrite("\(target): \(String(cString: strerror(errno)))") }
            progress(tally(urls))
        }
        return nil
    }

    /// Writes `bytes` to a new file at `path`, saying a full disk as such.
    static func write(_ bytes: [UInt8], to path: String) -> SaveFailure? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return .cannotWrite("\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                let code = errno
                let why = String(cString: strerror(code))
                return code == ENOSPC || code == EDQUOT ? .diskFull(why) : .cannotWrite("\(path): \(why)")
            }
            done += n
        }
        return nil
    }

    /// Whether the file's start decodes as MP3 (mpg123 finds a stream format before it would
    /// call the input "not audio"; ID3 tags, cover art included, are skipped by their size).
    static func startsAsMP3(_ path: String) -> Bool {
        guard let decoder = try? MP3Decoder(), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 2)
        defer { out.deallocate() }
        while decoder.format == nil, !decoder.isNotAudio {
            guard let chunk = try? handle.read(upToCount: 64 * 1024), !chunk.isEmpty else { break }
            chunk.withUnsafeBytes { _ = decoder.feed($0) }
            loop: while true {
                switch decoder.decode(into: out) {
                case .format: break loop
                case .pcm: continue
                case .needMore, .failed: break loop
                }
            }
        }
        return decoder.format != nil
    }

    /// Deletes the kept copies of `urls`.
    public func remove(_ urls: [String]) {
        for u in urls { try? FileManager.default.removeItem(atPath: keeper.path(for: u)) }
    }
}

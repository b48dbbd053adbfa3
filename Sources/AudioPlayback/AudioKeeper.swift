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

    /// Fetches each of `urls` not kept yet, in order, and keeps it whole (a file appears only
    /// when complete). `progress` hears the tally after each; the first failure stops it and
    /// is answered (nil: all kept). `cancelled` is asked between recordings.
    public func save(_ urls: [String], fetcher: any Fetching, progress: ((kept: Int, bytes: Int)) -> Void, cancelled: () -> Bool = { false }) -> FetchError? {
        let fm = FileManager.default
        try? fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for u in urls where keeper.kept(u) == nil {
            if cancelled() { return nil }
            switch fetcher.fetch(FetchRequest(url: u, timeoutSeconds: 300, maxBytes: 512 * 1024 * 1024)) {
            case .failure(let e): return e
            case .success(let r):
                let target = keeper.path(for: u)
                let tmp = target + ".part-\(ProcessInfo.processInfo.processIdentifier)"
                guard fm.createFile(atPath: tmp, contents: Data(r.body)), rename(tmp, target) == 0 else {
                    try? fm.removeItem(atPath: tmp)
                    return .other(url: u, reason: "cannot write the kept copy in \(directory)")
                }
            }
            progress(tally(urls))
        }
        return nil
    }

    /// Deletes the kept copies of `urls`.
    public func remove(_ urls: [String]) {
        for u in urls { try? FileManager.default.removeItem(atPath: keeper.path(for: u)) }
    }
}

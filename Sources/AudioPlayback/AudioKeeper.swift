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
    static func key(_ url: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in url.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return String(format: "%016llx", h)
    }

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

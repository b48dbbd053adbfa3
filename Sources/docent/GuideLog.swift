import Foundation

/// The guide's log file: what a visitor is told in a plain sentence, with the detail an IT
/// person needs (the URL, the server's or libcurl's words), one line each with the time.
/// `$XDG_STATE_HOME/docent/docent.log` (else `~/.local/state/docent/docent.log`); at 1 MB it
/// is moved to `docent.log.1` and begun again. Writing it never stops the guide: a log that
/// cannot be written is given up silently (the screen still says what went wrong).
final class GuideLog: @unchecked Sendable {
    let path: String?
    static let maxBytes = 1 << 20
    private let lock = NSLock()

    init(path: String?) {
        self.path = path
    }

    /// Where the log goes for this environment (nil without a home).
    static func defaultPath(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/docent/docent.log" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/docent/docent.log"
    }

    func write(_ message: String, at date: Date = Date()) {
        guard let path else { return }
        let stamp = ISO8601DateFormatter.string(from: date, timeZone: TimeZone(secondsFromGMT: 0)!, formatOptions: [.withInternetDateTime])
        // One line: a message's own newlines and control characters would break the format
        // (and could be escape sequences from a hostile server).
        let clean = String(message.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) ? " " : Character($0) })
        let line = Data("\(stamp) \(clean)\n".utf8)
        lock.lock()
        defer { lock.unlock() }
        let fm = FileManager.default
        let dir = (path as NSString).deletingLastPathComponent
        if !fm.fileExists(atPath: dir) { try? fm.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        if let size = (try? fm.attributesOfItem(atPath: path))?[.size] as? Int, size + line.count > Self.maxBytes {
            try? fm.removeItem(atPath: path + ".1")
            try? fm.moveItem(atPath: path, toPath: path + ".1")
        }
        if !fm.fileExists(atPath: path) { _ = fm.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) }
        guard let h = FileHandle(forWritingAtPath: path) else { return }
        defer { try? h.close() }
        _ = try? h.seekToEnd()
        try? h.write(contentsOf: line)
    }
}

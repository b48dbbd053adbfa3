import DocentCore
import Foundation

/// An append-only record of what the player did, one tab-separated line per event, for tests
/// (`DOCENT_PLAY_LOG`): `<ISO 8601 time>\t<event>\t<token>\t<title>\t<url>[\t<detail>]` where
/// event is `start`, `ended`, `failed` (detail: the failure) or `stopped` (replaced or stopped
/// before the end).
final class PlayLog: Sendable {
    let path: String

    init(path: String) { self.path = path }

    func append(_ event: String, _ request: AudioRequest, detail: String? = nil) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var fields = [formatter.string(from: Date()), event, String(request.token), request.title, request.url]
        if let detail { fields.append(detail) }
        let line = fields.map(Self.clean).joined(separator: "\t") + "\n"
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        // One write per line: O_APPEND keeps lines whole even with several writers.
        _ = line.utf8CString.withUnsafeBufferPointer { buffer in
            Glibc.write(fd, buffer.baseAddress, buffer.count - 1)
        }
    }

    private static func clean(_ field: String) -> String {
        String(field.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

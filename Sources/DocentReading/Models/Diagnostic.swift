/// Something the reader noticed: a dropped record, a repaired quirk, a dangling reference.
/// Nothing is dropped silently; `docent validate` prints these.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// The record was left out.
        case dropped
        /// Kept, but something is wrong or was ignored.
        case warning
        /// A quirk handled as documented.
        case note

        var rank: Int { self == .dropped ? 0 : self == .warning ? 1 : 2 }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    public let severity: Severity
    /// JSON path of the record, e.g. `objects["1036"].audio_commentary[0]`.
    public let path: String
    /// The record's id when it has one.
    public let id: String?
    public let message: String

    public init(_ severity: Severity, path: String, id: String? = nil, _ message: String) {
        self.severity = severity
        self.path = path
        self.id = id
        self.message = message
    }

    public var description: String {
        let idPart = id.map { " (id \($0))" } ?? ""
        return "\(severity.rawValue): \(path)\(idPart): \(message)"
    }
}

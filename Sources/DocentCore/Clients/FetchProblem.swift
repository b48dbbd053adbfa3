/// Why something the guide asked a server for did not arrive, as a visitor is told it: a plain
/// sentence in the visitor's language (`fetch.reason.*`), never libcurl's words. The detail
/// (URL, libcurl's message) goes to the guide's log file and `docent validate`.
public enum FetchProblem: Hashable, Sendable {
    case unreachable
    case timedOut
    case http(Int)
    case missing
    case tooLarge
    /// It arrived but is not what the guide can read.
    case unreadable
    /// This machine's disk has no room for it.
    case diskFull

    public init(_ error: FetchError) {
        switch error {
        case .unreachable, .other: self = .unreachable
        case .timedOut: self = .timedOut
        case .http(let status, _): self = .http(status)
        case .fileNotFound: self = .missing
        case .tooLarge: self = .tooLarge
        }
    }

    public var phrase: Phrase {
        switch self {
        case .unreachable: return .key(.fetchReasonUnreachable)
        case .timedOut: return .key(.fetchReasonTimedOut)
        case .http(let status): return .key(.fetchReasonHttp, ["status": .verbatim(String(status))])
        case .missing: return .key(.fetchReasonMissing)
        case .tooLarge: return .key(.fetchReasonTooLarge)
        case .unreadable: return .key(.fetchReasonUnreadable)
        case .diskFull: return .key(.fetchReasonDiskFull)
        }
    }
}

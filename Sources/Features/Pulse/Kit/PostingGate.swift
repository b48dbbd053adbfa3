import DocentText
import DocentJSON
import Foundation

/// Who may post notes on a museum's Pulse service (issue 32, `docent-pulse serve --posting`):
/// anyone, a visitor with today's visit code (printed on tickets), or a member (the card the
/// guide already reads). Reactions and reports stay open. The guide learns the gate from the
/// snapshot; the embedded store (no service) is always open.
public enum PostingGate: String, Hashable, Sendable, CaseIterable {
    case open
    case visitCode = "visit-code"
    case members
}

/// What a note carries through the gate (`visit_code` or `member_card` in `POST /v1/notes`).
public enum PostingPass: Hashable, Sendable {
    case visitCode(String)
    case memberCard(String)

    /// The most characters either may have on the wire.
    public static let maxLength = 64
}

/// Why the gate refused a note; `code` is the service's machine-readable reason.
public enum PostingRefusal: Hashable, Sendable {
    /// The museum asks for today's visit code and the note had none.
    case visitCodeRequired
    /// The code is not today's (nor, just after midnight, yesterday's).
    case visitCodeWrong
    /// Notes are for members and the note had no member card.
    case memberRequired
    /// The card is not on the museum's list of members.
    case memberUnknown
    /// Too many wrong codes or cards from this address: wait this many seconds.
    case tooManyTries(seconds: Int)

    public var code: String {
        switch self {
        case .visitCodeRequired: return "visit_code_required"
        case .visitCodeWrong: return "visit_code_wrong"
        case .memberRequired: return "member_required"
        case .memberUnknown: return "member_unknown"
        case .tooManyTries: return "rate_limited_passes"
        }
    }

    /// The gate the refusal shows is on.
    public var gate: PostingGate? {
        switch self {
        case .visitCodeRequired, .visitCodeWrong: return .visitCode
        case .memberRequired, .memberUnknown: return .members
        case .tooManyTries: return nil
        }
    }

    /// A refusal from its code (403s; the 429 is read with its wait).
    public init?(code: String) {
        switch code {
        case "visit_code_required": self = .visitCodeRequired
        case "visit_code_wrong": self = .visitCodeWrong
        case "member_required": self = .memberRequired
        case "member_unknown": self = .memberUnknown
        default: return nil
        }
    }
}

/// A visit code as typed and as printed: six characters of an alphabet without the look-alikes
/// 0/O and 1/I, compared in upper case without spaces or dashes ("k7q-m2p" is "K7QM2P").
public enum VisitCodeText {
    public static let alphabet: [Character] = Array("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")
    public static let length = 6

    /// Upper case, spaces and dashes dropped, at most `PostingPass.maxLength` characters.
    public static func normalized(_ s: String) -> String {
        String(s.uppercased().filter { $0 != " " && $0 != "-" }.prefix(PostingPass.maxLength))
    }

    /// A character the code field takes: a letter or digit of ASCII, as typed (shown in upper case).
    public static func accepts(_ c: Character) -> Bool {
        guard let a = c.asciiValue else { return false }
        return (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A)
    }
}

import Foundation

/// Whitespace trimming with a fast path: most fields start and end with a visible ASCII
/// character, and then there is nothing to trim. Anything else goes to Foundation, so the
/// results are exactly `trimmingCharacters(in:)`'s.
enum Trim {
    /// `s.trimmingCharacters(in: .whitespaces)`.
    static func spaces(_ s: String) -> String {
        if endsAreVisibleASCII(s) { return s }
        return s.trimmingCharacters(in: .whitespaces)
    }

    /// `s.trimmingCharacters(in: .whitespacesAndNewlines)`.
    static func spacesAndNewlines(_ s: String) -> String {
        if endsAreVisibleASCII(s) { return s }
        return s.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `s.trimmingCharacters(in: .whitespaces).isEmpty`.
    static func isBlank(_ s: String) -> Bool {
        if let f = s.utf8.first, f > 0x20, f < 0x7F { return false }
        return s.trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// True when the first and last bytes are printable ASCII other than space: a byte below
    /// 0x80 is a whole scalar, and none of 0x21…0x7E is whitespace or a line break.
    @inline(__always) static func endsAreVisibleASCII(_ s: String) -> Bool {
        guard let f = s.utf8.first, let l = s.utf8.last else { return false }
        return f > 0x20 && f < 0x7F && l > 0x20 && l < 0x7F
    }
}

import Foundation

/// Whitespace trimming with a fast path: most fields start and end with a visible ASCII
/// character, and then there is nothing to trim. Anything else goes to Foundation, so the
/// results are exactly `trimmingCharacters(in:)`'s.
public enum Trim {
    /// `s.trimmingCharacters(in: .whitespaces)`.
    public static func spaces(_ s: String) -> String {
        if endsAreVisibleASCII(s) { return s }
        return s.trimmingCharacters(in: .whitespaces)
    }

    /// `s.trimmingCharacters(in: .whitespacesAndNewlines)`.
    public static func spacesAndNewlines(_ s: String) -> String {
        if endsAreVisibleASCII(s) { return s }
        return s.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `s.trimmingCharacters(in: .whitespaces).isEmpty`.
    public static func isBlank(_ s: String) -> Bool {
        if let f = s.utf8.first, f > 0x20, f < 0x7F { return false }
        return s.trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// True when the first and last bytes are printable ASCII other than space: a byte below
    /// 0x80 is a whole scalar, and none of 0x21…0x7E is whitespace or a line break.
    @inline(__always) public static func endsAreVisibleASCII(_ s: String) -> Bool {
        guard let f = s.utf8.first, let l = s.utf8.last else { return false }
        return f > 0x20 && f < 0x7F && l > 0x20 && l < 0x7F
    }
}

/// Byte searches over a string's UTF-8, eight bytes at a time (`String.utf8.contains` walks
/// an iterator one byte at a time).
enum UTF8Scan {
    /// Whether `s` contains the byte `byte`.
    public static func contains(_ s: String, _ byte: UInt8) -> Bool {
        if let found = s.utf8.withContiguousStorageIfAvailable({ contains($0, byte) }) { return found }
        return s.utf8.contains(byte)
    }

    public static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ byte: UInt8) -> Bool {
        let n = bytes.count
        guard n > 0 else { return false }
        let p = UnsafeRawPointer(bytes.baseAddress!)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let pattern = ones &* UInt64(byte)
        var k = 0
        while k + 8 <= n {
            let x = p.loadUnaligned(fromByteOffset: k, as: UInt64.self) ^ pattern
            if (x &- ones) & ~x & 0x8080_8080_8080_8080 != 0 { return true }
            k += 8
        }
        while k < n {
            if bytes[k] == byte { return true }
            k += 1
        }
        return false
    }
}

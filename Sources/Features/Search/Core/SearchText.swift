import Foundation

/// How search compares text: case-, diacritic- and width-insensitive ("Baños" = "banos",
/// "ＡＢＣ" = "abc"), curly quotes and dashes as their ASCII forms, runs of white space as one
/// space; with a `ChineseVariants` table, Traditional Chinese as Simplified ("親" = "亲").
/// Folding happens once per indexed string (at load) and once per keystroke for the query,
/// never per item per keystroke; matching then compares UTF-8 bytes.
public enum SearchText {
    /// The folded form of `text` as UTF-8 bytes (no leading or trailing space).
    public static func fold(_ text: some StringProtocol, variants: ChineseVariants? = nil) -> [UInt8] {
        var folder = Folder(variants: variants)
        return folder.fold(text)
    }

    /// Folds many strings, keeping how each non-ASCII character folds: Foundation's
    /// folding is slow on Linux, and folding is per character (case folding, diacritics and
    /// width do not depend on neighbours), so each distinct character is folded once.
    public struct Folder {
        var cache: [Character: [UInt8]] = [:]
        let variants: ChineseVariants?

        public init(variants: ChineseVariants? = nil) {
            self.variants = variants
        }

        public mutating func fold(_ text: some StringProtocol) -> [UInt8] {
            let utf8 = text.utf8
            if utf8.allSatisfy({ $0 < 0x80 }) { return foldASCII(utf8) }
            var out: [UInt8] = []
            out.reserveCapacity(utf8.count)
            var pendingSpace = false
            for ch in text {
                if let a = ch.asciiValue {
                    if a == 0x20 || (a >= 0x09 && a <= 0x0D) {
                        pendingSpace = !out.isEmpty
                        continue
                    }
                    if a < 0x20 || a == 0x7F { continue }
                    if pendingSpace {
                        out.append(0x20)
                        pendingSpace = false
                    }
                    out.append(a >= 0x41 && a <= 0x5A ? a + 0x20 : a)
                    continue
                }
                let f: [UInt8]
                if let cached = cache[ch] {
                    f = cached
                } else {
                    f = Self.foldCharacter(ch, variants: variants)
                    cache[ch] = f
                }
                if f.isEmpty { continue }
                if f == [0x20] {
                    pendingSpace = !out.isEmpty
                    continue
                }
                if pendingSpace {
                    out.append(0x20)
                    pendingSpace = false
                }
                out += f
            }
            return out
        }

        /// One character through Foundation's folding, then quotes, dashes and spaces to ASCII
        /// and Traditional Chinese to Simplified. White space comes back as a single space,
        /// control characters as nothing.
        static func foldCharacter(_ ch: Character, variants: ChineseVariants? = nil) -> [UInt8] {
            let folded = String(ch).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            var out: [UInt8] = []
            for scalar in folded.unicodeScalars {
                let mapped: Unicode.Scalar
                switch scalar.value {
                case 0x2018, 0x2019, 0x201B, 0x02BC, 0x2032: mapped = "'"
                case 0x201C, 0x201D, 0x201F, 0x2033: mapped = "\""
                case 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2212: mapped = "-"
                default: mapped = variants?.simplified(scalar) ?? scalar
                }
                if mapped.properties.isWhitespace { return [0x20] }
                if mapped.value < 0x20 || mapped.value == 0x7F || (mapped.value >= 0x80 && mapped.value < 0xA0) { continue }
                UTF8.encode(mapped) { out.append($0) }
            }
            return out
        }
    }

    /// The ASCII fast path: the same result Foundation's folding gives for ASCII text.
    static func foldASCII(_ utf8: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        var pendingSpace = false
        for b in utf8 {
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                pendingSpace = !out.isEmpty
                continue
            }
            if b < 0x20 || b == 0x7F { continue }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            out.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
        }
        return out
    }

    /// The folded form as a string (for display in tests and notes).
    public static func foldedString(_ text: some StringProtocol, variants: ChineseVariants? = nil) -> String {
        String(decoding: fold(text, variants: variants), as: UTF8.self)
    }

    /// The words of a folded query (it has single spaces and none at the ends).
    public static func words(_ query: [UInt8]) -> [ArraySlice<UInt8>] {
        query.split(separator: 0x20)
    }

    /// Whether a document with these folded texts matches the folded `query` as the index
    /// matches: the query as a phrase in one text, or else every word of it somewhere.
    public static func matches(_ texts: [[UInt8]], _ query: [UInt8]) -> Bool {
        if texts.contains(where: { contains($0, query) }) { return true }
        let words = words(query)
        guard words.count > 1 else { return false }
        return words.allSatisfy { w in texts.contains { contains($0, Array(w)) } }
    }

    /// Whether the folded `text` contains the folded `query` (a plain scan, for the few items
    /// outside the index: live results and exhibitions read from files).
    public static func contains(_ text: [UInt8], _ query: [UInt8]) -> Bool {
        guard !query.isEmpty else { return true }
        guard text.count >= query.count else { return false }
        let first = query[0]
        var p = 0
        while p <= text.count - query.count {
            if text[p] == first {
                var k = 1
                while k < query.count, text[p + k] == query[k] { k += 1 }
                if k == query.count { return true }
            }
            p += 1
        }
        return false
    }

    @inline(__always) static func isASCIIAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A)
    }

    /// Lead bytes of three-byte UTF-8 sequences in U+3000…U+9FFF (CJK punctuation, kana,
    /// ideographs): every such character starts a "word", since CJK text has no spaces.
    @inline(__always) static func isCJKLead(_ b: UInt8) -> Bool { b >= 0xE3 && b <= 0xE9 }

    /// A UTF-8 continuation byte (never the start of a character).
    @inline(__always) static func isContinuation(_ b: UInt8) -> Bool { b & 0xC0 == 0x80 }
}

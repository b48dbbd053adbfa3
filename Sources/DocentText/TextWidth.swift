import Foundation

/// Display width of text in terminal cells, in pure Swift (the core may not call `wcwidth`).
/// East Asian Wide and Fullwidth characters take two cells, combining marks and other
/// zero-width code points take none, everything else one. Grapheme clusters are measured by
/// their first scalar plus any wide emoji presentation, which is what terminals do.
public enum TextWidth {
    /// Width of one Unicode scalar: 0, 1 or 2.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v < 0x300 { return 1 }
        if isZeroWidth(v) { return 0 }
        if isWide(v) { return 2 }
        return 1
    }

    /// Width of one grapheme (what a terminal cell shows).
    public static func width(of character: Character) -> Int {
        if let a = character.asciiValue { return a < 0x20 || a == 0x7F ? 0 : 1 }
        // Measured as drawn: without its format characters (see `TerminalText`).
        if character.unicodeScalars.contains(where: TerminalText.isFormat) {
            return TerminalText.visible(String(character)).reduce(0) { $0 + width(of: $1) }
        }
        var total = 0
        var first = true
        for s in character.unicodeScalars {
            if first {
                total = width(of: s)
                first = false
            } else if s.value == 0xFE0F, total == 1, character.unicodeScalars.first.map(isEmojiBase) == true {
                total = 2  // emoji presentation selector widens a text-default emoji
            }
        }
        return total
    }

    /// Width of a whole string.
    public static func width(_ text: some StringProtocol) -> Int {
        if let w = simpleWidth(text) { return w }
        var w = 0
        for c in text { w += width(of: c) }
        return w
    }

    /// The width of a text made only of scalars that are each a whole grapheme of a width
    /// known without a lookup (`simpleWidth(of:)`): most of what a frame draws (Latin text,
    /// "·", "…", the player's bar, box rules). Nil for any other text, which is measured
    /// grapheme by grapheme. Measuring graphemes (and asking each scalar's category) was a
    /// fifth of the work of drawing the player's clock every second.
    public static func simpleWidth(_ text: some StringProtocol) -> Int? {
        var w = 0
        for s in text.unicodeScalars {
            guard let sw = simpleWidth(of: s) else { return nil }
            w += sw
        }
        return w
    }

    /// The width of `s` when a text made of such scalars breaks into one grapheme per scalar
    /// (no scalar here extends, joins or prepends: Grapheme_Cluster_Break Other, or Control
    /// for C0 controls and DEL, whose only pair, CR LF, is 0 wide either way) and none is a
    /// format character: printable ASCII, Latin-1 and the Latin extensions to U+02FF but the
    /// soft hyphen, general punctuation U+2010-U+2027, arrows, box drawing and blocks. Nil
    /// otherwise. (`TextWidthTests` checks every one against the grapheme path.)
    @inline(__always)
    public static func simpleWidth(of s: Unicode.Scalar) -> Int? {
        let v = s.value
        if v < 0x7F { return v < 0x20 ? 0 : 1 }
        if v < 0xA0 { return v == 0x7F ? 0 : nil }
        if v < 0x300 { return v == 0xAD ? nil : 1 }
        if v >= 0x2010, v <= 0x2027 { return 1 }
        if v >= 0x2190, v <= 0x21FF { return 1 }
        if v >= 0x2500, v <= 0x259F { return 1 }
        return nil
    }

    /// The longest prefix of `text` that fits in `maxWidth` cells, never splitting a wide
    /// character, and its width.
    public static func prefix(_ text: some StringProtocol, fitting maxWidth: Int) -> (String, Int) {
        var out = ""
        var w = 0
        for c in text {
            let cw = width(of: c)
            if w + cw > maxWidth { break }
            out.append(c)
            w += cw
        }
        return (out, w)
    }

    /// `text` cut to `maxWidth` cells with an ellipsis when it does not fit.
    public static func truncate(_ text: String, to maxWidth: Int) -> String {
        if maxWidth <= 0 { return "" }
        if width(text) <= maxWidth { return text }
        let (head, _) = prefix(text, fitting: maxWidth - 1)
        return head + "…"
    }

    /// Key hints ("Space pause · ←→ 10 s · …") shortened to `maxWidth` cells by whole hints,
    /// then "…", so no key is left half-named ("Enter selec…"). The hint for `?` (help) is kept
    /// at the end when it fits, so a narrow screen still says how to see every key. `fit` when
    /// not even the first hint fits.
    public static func fitHints(_ text: String, to maxWidth: Int) -> String {
        if maxWidth <= 0 { return "" }
        if width(text) <= maxWidth { return text }
        let separator = " · "
        var parts = text.components(separatedBy: separator)
        if parts.count > 1 {
            // "? help" and "q quit" outlast the others: at 40 columns a visitor must still see
            // how to get help and how to leave (issue 33 #17). Kept in their order.
            let kept2 = parts.filter { $0.hasPrefix("? ") || $0.hasPrefix("q ") }
            parts.removeAll { $0.hasPrefix("? ") || $0.hasPrefix("q ") }
            // With both, at least one other hint; else help alone after the others.
            var tails = kept2.isEmpty ? [" …"] : [" … · " + kept2.joined(separator: separator)]
            if kept2.count > 1 { tails.append(" … · " + kept2[0]) }
            // The arrows go first: every visitor tries them (`↑↓ scroll · Esc back` keeps
            // `Esc back`). The others are kept in the order the text gives them.
            let order = parts.indices.filter { !parts[$0].hasPrefix("↑↓") } + parts.indices.filter { parts[$0].hasPrefix("↑↓") }
            for tail in tails {
                var chosen: [Int] = []
                var kept = ""
                for i in order {
                    let candidate = (chosen + [i]).sorted().map { parts[$0] }.joined(separator: separator)
                    guard width(candidate) + width(tail) <= maxWidth else { break }
                    chosen.append(i)
                    kept = candidate
                }
                if !kept.isEmpty { return kept + tail }
            }
            if !kept2.isEmpty, let tail = tails.first(where: { width($0) - 1 <= maxWidth }) { return String(tail.dropFirst()) }
        }
        return fit(text, to: maxWidth)
    }

    /// `text` shortened to `maxWidth` cells at the end of a word, then "…"; a first word or
    /// a text without spaces (Chinese) is cut by characters as `truncate` does.
    public static func fit(_ text: String, to maxWidth: Int) -> String {
        if maxWidth <= 0 { return "" }
        if width(text) <= maxWidth { return text }
        let (head, _) = prefix(text, fitting: maxWidth - 1)
        // The word ends exactly where the room does.
        if text.dropFirst(head.count).first == " ", head.last != " " { return head + "…" }
        if let space = head.lastIndex(of: " "), head[..<space].contains(where: { $0 != " " }) {
            let words = head[..<space].replacingOccurrences(of: "[ ·]+$", with: "", options: .regularExpression)
            if !words.isEmpty { return words + "…" }
        }
        return head + "…"
    }

    private static func isEmojiBase(_ s: Unicode.Scalar) -> Bool {
        s.properties.isEmoji
    }

    /// Generated from the Unicode Character Database (`TextWidthTables`, see
    /// scripts/gen-textwidth.py).
    private static func isZeroWidth(_ v: UInt32) -> Bool { contains(TextWidthTables.zero, v) }

    private static func isWide(_ v: UInt32) -> Bool { contains(TextWidthTables.wide, v) }

    /// Binary search of sorted, disjoint ranges.
    private static func contains(_ ranges: [(UInt32, UInt32)], _ v: UInt32) -> Bool {
        var lo = 0
        var hi = ranges.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let r = ranges[mid]
            if v < r.0 {
                hi = mid - 1
            } else if v > r.1 {
                lo = mid + 1
            } else {
                return true
            }
        }
        return false
    }

    /// The Unicode version the tables come from.
    public static var unicodeVersion: String { TextWidthTables.unicodeVersion }
}

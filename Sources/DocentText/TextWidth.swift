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
        var w = 0
        for c in text { w += width(of: c) }
        return w
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

    private static func isEmojiBase(_ s: Unicode.Scalar) -> Bool {
        s.properties.isEmoji
    }

    private static func isZeroWidth(_ v: UInt32) -> Bool {
        switch v {
        case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x0610...0x061A, 0x064B...0x065F,
            0x0670, 0x06D6...0x06DC, 0x06DF...0x06E4, 0x0E31, 0x0E34...0x0E3A, 0x0E47...0x0E4E,
            0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064,
            0x20D0...0x20FF, 0x302A...0x302D, 0x3099, 0x309A, 0xFE00...0xFE0F, 0xFE20...0xFE2F,
            0xFEFF, 0x1F3FB...0x1F3FF, 0xE0000...0xE0FFF:
            return true
        case 0x1160...0x11FF:  // Hangul medial vowels and final consonants
            return true
        default:
            return false
        }
    }

    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1,
            0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA,
            0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C,
            0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C,
            0x2B50, 0x2B55, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18AFF,
            0x1B000...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
            0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393,
            0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4, 0x1F3F8...0x1F43E,
            0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567,
            0x1F57A, 0x1F595...0x1F596, 0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC,
            0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
            0x1F7E0...0x1F7EB, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
            0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

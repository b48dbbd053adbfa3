/// Word wrapping by display width, at the line-break opportunities of Unicode's line breaking
/// algorithm (UAX #14) that matter on a terminal, tailored as CSS's `word-break: keep-all`
/// is for Korean:
///
/// - at spaces, in every script: Latin, Korean (Hangul breaks only at spaces, never between
///   two syllables of a word), Cyrillic, Arabic…;
/// - between two Chinese or Japanese characters (ideographs, kana), and between one of them
///   and any other character, as UAX #14 class ID does;
/// - never before closing punctuation and other characters a line may not start with (`。`,
///   `，`, `）`, `」`, `ー`, small kana, `.`, `,`, `!`, `?`, `)`…), even after a space (but a
///   narrow one after a separator names a key: `· ? help`), and never after opening
///   punctuation (`（`, `「`, `(`, `[`…): they stay with their word;
/// - never beside a no-break space or word joiner; after a zero-width space.
///
/// A stretch longer than the line is still cut (at the width, never inside a wide character),
/// so nothing is lost. Spaces at a break are dropped. Writing systems that need a dictionary
/// to find their words (Thai, Lao, Khmer, Myanmar) are only cut where a line is full.
/// Foundation on Linux offers no line breaker (see DECISIONS.md, "Line breaking").
public enum Wrap {
    /// `text` (which may contain line breaks) as lines of at most `width` cells.
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if paragraph.isEmpty {
                out.append("")
                continue
            }
            out.append(contentsOf: wrapParagraph(Array(paragraph), width: width))
        }
        return out
    }

    /// Whether a line may break between `before` and `after`, two characters that stand side
    /// by side (no space between them).
    public static func canBreak(between before: Character, and after: Character) -> Bool {
        canBreak(LineBreakClass(before), TextWidth.width(of: before), LineBreakClass(after), TextWidth.width(of: after))
    }

    /// Whether a line may break at the spaces between `before` and `after`.
    public static func canBreak(atSpacesBetween before: Character, and after: Character) -> Bool {
        canBreak(atSpaces: before, LineBreakClass(before), LineBreakClass(after), TextWidth.width(of: after))
    }

    private static func canBreak(_ a: LineBreakClass, _ aWidth: Int, _ b: LineBreakClass, _ bWidth: Int) -> Bool {
        if a == .glue || b == .glue || b == .zeroWidthSpace { return false }
        if a == .zeroWidthSpace { return true }
        if b.mayNotStartALine(besideText: true) || a.mayNotEndALine(besideText: true) { return false }
        if a == .ideographic || b == .ideographic { return true }
        // A wide closer (`。`, `」`) ends a stretch and a wide opener (`「`) starts one, as an
        // ideograph would; a narrow one (`.`, `)`, `(`) is part of its word ("e.g.", "f(x)").
        return (a.mayNotStartALine(besideText: true) && aWidth == 2) || (b.mayNotEndALine(besideText: true) && bWidth == 2)
    }

    private static func canBreak(atSpaces before: Character, _ a: LineBreakClass, _ b: LineBreakClass, _ bWidth: Int) -> Bool {
        if a == .glue || b == .glue || a.mayNotEndALine(besideText: false) { return false }
        guard b.mayNotStartALine(besideText: false) else { return true }
        // A closer after a space: a wide one (`。`) never starts a line; a narrow one stays
        // with the word before it ("disponibles :", French) but not with a separator, where it
        // names a key ("· ? help").
        if bWidth == 2 { return false }
        guard let s = before.unicodeScalars.first else { return true }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .closePunctuation, .finalPunctuation:
            return false
        default:
            return true
        }
    }

    private static func wrapParagraph(_ p: [Character], width: Int) -> [String] {
        // Tokens: the stretches between break opportunities (a stretch keeps a space a line
        // may not break at) and the spaces between them.
        var tokens: [(String, Int, Bool)] = []  // text, width, isSpace
        var word = ""
        var wordWidth = 0
        func flushWord() {
            if !word.isEmpty { tokens.append((word, wordWidth, false)) }
            word = ""
            wordWidth = 0
        }
        let classes = p.map(LineBreakClass.init)
        let widths = p.map { TextWidth.width(of: $0) }
        var i = 0
        while i < p.count {
            let c = p[i]
            if c == " " {
                var end = i
                while end < p.count, p[end] == " " { end += 1 }
                let run = end - i
                if i > 0, end < p.count, !canBreak(atSpaces: p[i - 1], classes[i - 1], classes[end], widths[end]) {
                    word += String(repeating: " ", count: run)
                    wordWidth += run
                } else {
                    flushWord()
                    for _ in 0..<run { tokens.append((" ", 1, true)) }
                }
                i = end
                continue
            }
            if i > 0, p[i - 1] != " ", canBreak(classes[i - 1], widths[i - 1], classes[i], widths[i]) { flushWord() }
            word.append(c)
            wordWidth += widths[i]
            i += 1
        }
        flushWord()

        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for (text, w, isSpace) in tokens {
            if isSpace {
                if lineWidth > 0 && lineWidth < width {
                    line += " "
                    lineWidth += 1
                }
                continue
            }
            if lineWidth + w <= width {
                line += text
                lineWidth += w
                continue
            }
            if lineWidth > 0 {
                lines.append(trimRight(line))
                line = ""
                lineWidth = 0
            }
            if w <= width {
                line = text
                lineWidth = w
            } else {
                // A stretch longer than the line: hard-break it.
                for c in text {
                    let cw = TextWidth.width(of: c)
                    if lineWidth + cw > width {
                        lines.append(trimRight(line))
                        line = ""
                        lineWidth = 0
                    }
                    if lineWidth == 0 && c == " " { continue }
                    line.append(c)
                    lineWidth += cw
                }
            }
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(trimRight(line)) }
        return lines
    }

    /// A web address as lines of at most `width` cells, for a reader to type or copy: whole on
    /// one line when it fits; else without its `https://` (every browser adds it back); else
    /// broken after its slashes, never inside a name, and only a name longer than the line
    /// is cut (issue 33 #17: `…/sky-terr` / `ace` at 40 columns).
    public static func link(_ url: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        if TextWidth.width(url) <= width { return [url] }
        var bare = url
        for scheme in ["https://", "http://"] where bare.lowercased().hasPrefix(scheme) {
            bare = String(bare.dropFirst(scheme.count))
        }
        if TextWidth.width(bare) <= width { return [bare] }
        // Pieces that end after a slash (or before ? and #, where a query starts).
        var pieces: [String] = []
        var piece = ""
        for c in bare {
            if (c == "?" || c == "#"), !piece.isEmpty {
                pieces.append(piece)
                piece = ""
            }
            piece.append(c)
            if c == "/" {
                pieces.append(piece)
                piece = ""
            }
        }
        if !piece.isEmpty { pieces.append(piece) }
        var out: [String] = []
        var line = ""
        for p in pieces {
            if TextWidth.width(line + p) <= width {
                line += p
                continue
            }
            if !line.isEmpty { out.append(line) }
            line = ""
            if TextWidth.width(p) <= width {
                line = p
            } else {
                for c in p {
                    if TextWidth.width(line) + TextWidth.width(of: c) > width {
                        out.append(line)
                        line = ""
                    }
                    line.append(c)
                }
            }
        }
        if !line.isEmpty { out.append(line) }
        return out
    }

    private static func trimRight(_ s: String) -> String {
        var t = s
        while t.last == " " { t.removeLast() }
        return t
    }
}

/// The few line-breaking classes of UAX #14 the wrapper tells apart, for one character (its
/// first scalar). Everything not listed is `.word` (UAX #14's AL, NU, HL… and Hangul, which
/// Korean text separates by spaces).
enum LineBreakClass: Equatable {
    /// Ideographs, kana, and other wide characters (CJK, emoji): a line may break on either side.
    case ideographic
    /// Closing punctuation and non-starters (CL, CP, EX, IS, NS, IN, CJ): never at a line's start.
    case closing
    /// A closing quotation mark (’ ” »): a closer beside text; a space before it may break,
    /// since some languages close with what others open with.
    case closingQuote
    /// Opening punctuation (OP): never at a line's end.
    case opening
    /// An opening quotation mark (‘ “ «): an opener beside text only.
    case openingQuote
    /// No-break space, word joiner (GL, WJ): no break on either side.
    case glue
    /// U+200B: a break after it.
    case zeroWidthSpace
    case word

    init(_ c: Character) {
        guard let s = c.unicodeScalars.first else {
            self = .word
            return
        }
        let v = s.value
        if v < 0x80 {
            // ASCII, the most of most text: ( [ { open; ) ] } ! , . : ; ? close.
            switch v {
            case 0x28, 0x5B, 0x7B: self = .opening
            case 0x29, 0x5D, 0x7D, 0x21, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F: self = .closing
            default: self = .word
            }
            return
        }
        if LineBreakClass.closers.contains(v) {
            self = .closing
            return
        }
        if LineBreakClass.openers.contains(v) {
            self = .opening
            return
        }
        switch v {
        case 0x00A0, 0x2007, 0x202F, 0x2060, 0xFEFF, 0x034F, 0x180E:
            self = .glue
            return
        case 0x200B:
            self = .zeroWidthSpace
            return
        default: break
        }
        switch s.properties.generalCategory {
        case .closePunctuation:
            self = .closing
            return
        case .openPunctuation:
            self = .opening
            return
        case .finalPunctuation:
            self = .closingQuote
            return
        case .initialPunctuation:
            self = .openingQuote
            return
        default: break
        }
        if LineBreakClass.isHangul(v) {
            self = .word
        } else if TextWidth.width(of: s) == 2 || (0xFF66...0xFF9D).contains(v) {
            // Wide (East Asian Wide or Fullwidth), and the halfwidth katakana.
            self = .ideographic
        } else {
            self = .word
        }
    }

    func mayNotStartALine(besideText: Bool) -> Bool {
        self == .closing || (besideText && self == .closingQuote)
    }

    func mayNotEndALine(besideText: Bool) -> Bool {
        self == .opening || (besideText && self == .openingQuote)
    }

    /// Hangul syllables and jamo, in every block and width.
    static func isHangul(_ v: UInt32) -> Bool {
        (0x1100...0x11FF).contains(v) || (0x3130...0x318F).contains(v) || (0xA960...0xA97F).contains(v)
            || (0xAC00...0xD7FF).contains(v) || (0xFFA0...0xFFDC).contains(v)
    }

    /// Punctuation a line may not start with that is not General_Category Pe: UAX #14's EX, IS,
    /// NS, IN and CJ characters of the scripts the guide shows (LineBreak.txt, Unicode 17).
    static let closers: Set<UInt32> = [
        // ASCII: ! , . : ; ?
        0x21, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F,
        // General punctuation: ‼ ‽ ⁇ ⁈ ⁉ ․ ‥ … ‧
        0x203C, 0x203D, 0x2047, 0x2048, 0x2049, 0x2024, 0x2025, 0x2026, 0x2027,
        // Arabic comma, semicolon and question mark.
        0x060C, 0x061B, 0x061F, 0x066A,
        // CJK symbols and punctuation: 、 。 々 〻 〜 ゛ ゜ ゝ ゞ ・ ー ヽ ヾ 〟 〞
        0x3001, 0x3002, 0x3005, 0x303B, 0x301C, 0x309B, 0x309C, 0x309D, 0x309E, 0x30A0, 0x30FB, 0x30FC,
        0x30FD, 0x30FE, 0x301E, 0x301F,
        // Small hiragana and katakana (CJ, non-starters in strict breaking).
        0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096,
        0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6,
        0x31F0, 0x31F1, 0x31F2, 0x31F3, 0x31F4, 0x31F5, 0x31F6, 0x31F7, 0x31F8, 0x31F9, 0x31FA, 0x31FB,
        0x31FC, 0x31FD, 0x31FE, 0x31FF,
        // Fullwidth: ！ ％ ， ． ： ； ？ and halfwidth ｡ ､ ･ ｰ ｧ…ｯ ﾞ ﾟ
        0xFF01, 0xFF05, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF61, 0xFF64, 0xFF65, 0xFF70,
        0xFF67, 0xFF68, 0xFF69, 0xFF6A, 0xFF6B, 0xFF6C, 0xFF6D, 0xFF6E, 0xFF6F, 0xFF9E, 0xFF9F,
        // Vertical and small forms: ︐ ︑ ︒ ︓ ︔ ︕ ︖ ︙ ﹐ ﹑ ﹒ ﹔ ﹕ ﹖ ﹗
        0xFE10, 0xFE11, 0xFE12, 0xFE13, 0xFE14, 0xFE15, 0xFE16, 0xFE19, 0xFE50, 0xFE51, 0xFE52, 0xFE54,
        0xFE55, 0xFE56, 0xFE57,
    ]

    /// Openers that are not General_Category Ps: ¿ ¡ (UAX #14 OP).
    static let openers: Set<UInt32> = [0xBF, 0xA1]
}

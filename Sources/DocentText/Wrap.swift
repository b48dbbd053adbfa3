/// Word wrapping by display width. Breaks at spaces; text without spaces (Chinese) breaks
/// between any two characters; a wide character is never split.
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
            out.append(contentsOf: wrapParagraph(Substring(paragraph), width: width))
        }
        return out
    }

    private static func wrapParagraph(_ p: Substring, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        // Tokens: runs of non-space characters (a CJK character is its own token) and spaces.
        var tokens: [(String, Int, Bool)] = []  // text, width, isSpace
        var word = ""
        var wordWidth = 0
        func flushWord() {
            if !word.isEmpty { tokens.append((word, wordWidth, false)) }
            word = ""
            wordWidth = 0
        }
        for c in p {
            let w = TextWidth.width(of: c)
            if c == " " {
                flushWord()
                tokens.append((" ", 1, true))
            } else if w == 2 {
                flushWord()
                tokens.append((String(c), 2, false))
            } else {
                word.append(c)
                wordWidth += w
            }
        }
        flushWord()
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
                // A word longer than the line: hard-break it.
                for c in text {
                    let cw = TextWidth.width(of: c)
                    if lineWidth + cw > width {
                        lines.append(line)
                        line = ""
                        lineWidth = 0
                    }
                    line.append(c)
                    lineWidth += cw
                }
            }
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(trimRight(line)) }
        return lines
    }

    private static func trimRight(_ s: String) -> String {
        var t = s
        while t.last == " " { t.removeLast() }
        return t
    }
}

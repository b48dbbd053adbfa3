/// OSC 8 hyperlinks (`ESC ] 8 ; params ; URI ESC \ text ESC ] 8 ; ; ESC \`): which terminals
/// understand them, and the exact bytes that turn a link region of a drawn frame into one.
///
/// ncurses cannot emit them (it shows ESC as `^[`), so the terminal adapter draws the frame as
/// usual and then writes each changed link again itself, inside a save/restore of the cursor
/// (`ESC 7` … `ESC 8`) so ncurses' idea of the cursor and attributes stays right.
public enum Hyperlinks {
    /// Longest URI written as a link (VTE ignores longer ones); a longer URL stays plain text.
    public static let maxURILength = 2083

    /// Whether links should be written, given the user's mode and the environment.
    public static func enabled(mode: HyperlinkMode, environment env: [String: String]) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto: return terminalSupports(environment: env)
        }
    }

    /// Best guess from the environment, erring towards "no": a terminal that does not know OSC 8
    /// may print the URL twice or garble the line (the Linux console does), while one that does
    /// but is not recognised only loses clickable links.
    public static func terminalSupports(environment env: [String: String]) -> Bool {
        func value(_ key: String) -> String { env[key] ?? "" }
        // The de facto override other tools read too.
        switch value("FORCE_HYPERLINK") {
        case "": break
        case "0": return false
        default: return true
        }
        let term = value("TERM")
        if term.isEmpty || term == "dumb" || term == "linux" || term.hasPrefix("vt") { return false }
        // A multiplexer decides what reaches the outer terminal.
        if !value("TMUX").isEmpty || value("TERM_PROGRAM") == "tmux" {
            // tmux forwards hyperlinks from 3.4 on (earlier versions drop them, harmlessly).
            return value("TERM_PROGRAM") == "tmux" && versionAtLeast(value("TERM_PROGRAM_VERSION"), [3, 4])
        }
        if !value("STY").isEmpty || term.hasPrefix("screen") { return false }
        if !value("WT_SESSION").isEmpty || !value("KITTY_WINDOW_ID").isEmpty || !value("DOMTERM").isEmpty { return true }
        switch value("TERM_PROGRAM") {
        case "iTerm.app": return versionAtLeast(value("TERM_PROGRAM_VERSION"), [3, 1])
        case "WezTerm", "ghostty": return true
        case "vscode": return versionAtLeast(value("TERM_PROGRAM_VERSION"), [1, 72])
        default: break
        }
        if let vte = Int(value("VTE_VERSION")), vte >= 5000 { return true }
        for prefix in ["xterm-kitty", "foot", "alacritty", "wezterm", "xterm-ghostty", "contour"] where term.hasPrefix(prefix) {
            return true
        }
        return false
    }

    /// Compares a version such as "3.3a", "next-3.4" or "1.72.0-insider" with `minimum`, by its
    /// numeric components; false when there are none.
    static func versionAtLeast(_ version: String, _ minimum: [Int]) -> Bool {
        let start = version.firstIndex(where: \.isNumber) ?? version.endIndex
        var parts: [Int] = []
        for piece in version[start...].split(separator: ".") {
            let digits = piece.prefix(while: \.isNumber)
            guard let n = Int(digits) else { break }
            parts.append(n)
            if digits.count < piece.count { break }  // "3a": a suffix ends the number
        }
        guard !parts.isEmpty else { return false }
        for (i, m) in minimum.enumerated() {
            let p = i < parts.count ? parts[i] : 0
            if p != m { return p > m }
        }
        return true
    }

    /// The URI as OSC 8 may carry it: printable ASCII kept, every other byte (spaces, controls,
    /// ESC and BEL, UTF-8) percent-encoded, so nothing can end the sequence early.
    public static func encodedURI(_ url: String) -> String {
        var out = ""
        out.reserveCapacity(url.utf8.count)
        for byte in url.utf8 {
            if byte > 0x20, byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// A stable `id` parameter for a URL, so the rows of one wrapped link highlight together.
    static func linkID(_ uri: String) -> String {
        "docent-" + String(FNV1a.hash64(uri.utf8), radix: 36)
    }

    public static func open(_ uri: String) -> String { "\u{1B}]8;id=\(linkID(uri));\(uri)\u{1B}\\" }
    public static let close = "\u{1B}]8;;\u{1B}\\"

    /// One run of cells to write again: a link (url) or, where a link has gone but the cells
    /// have not changed, plain text again (nil) so the terminal forgets the old link.
    public struct Span: Hashable, Sendable {
        public var y: Int
        public var x: Int
        public var width: Int
        public var url: String?
        public init(y: Int, x: Int, width: Int, url: String?) {
            self.y = y
            self.x = x
            self.width = width
            self.url = url
        }
    }

    /// The spans to write after a frame. Everything after a full redraw; otherwise new links,
    /// links on a row where any cell changed (ncurses may repaint unchanged cells near a change
    /// when that is cheaper than moving the cursor, dropping the link there), and, as plain text,
    /// the cells of old links that no current link covers (unchanged cells keep a link the
    /// terminal was given until they are written again).
    public static func spans(previous: [Screen.Link], current: [Screen.Link], changedRows: Set<Int>, full: Bool) -> [Span] {
        let now = current.flatMap(rowSpans)
        if full { return now }
        let before = previous.flatMap(rowSpans)
        let beforeSet = Set(before)
        let nowSet = Set(now)
        var out = now.filter { changedRows.contains($0.y) || !beforeSet.contains($0) }
        for old in before where !nowSet.contains(old) {
            // Only the cells no current link on the row covers.
            let covered = now.filter { $0.y == old.y }
            for piece in subtract(old, covered) { out.append(Span(y: piece.y, x: piece.x, width: piece.width, url: nil)) }
        }
        return out
    }

    private static func rowSpans(_ link: Screen.Link) -> [Span] {
        guard !link.rect.isEmpty else { return [] }
        return (link.rect.y..<link.rect.maxY).map { Span(y: $0, x: link.rect.x, width: link.rect.width, url: link.url) }
    }

    /// `span` minus the columns of `others` (all on its row).
    private static func subtract(_ span: Span, _ others: [Span]) -> [Span] {
        var pieces = [span]
        for o in others {
            pieces = pieces.flatMap { p -> [Span] in
                let lo = max(p.x, o.x), hi = min(p.x + p.width, o.x + o.width)
                guard lo < hi else { return [p] }
                var r: [Span] = []
                if p.x < lo { r.append(Span(y: p.y, x: p.x, width: lo - p.x, url: p.url)) }
                if hi < p.x + p.width { r.append(Span(y: p.y, x: hi, width: p.x + p.width - hi, url: p.url)) }
                return r
            }
        }
        return pieces
    }

    /// The bytes that write `spans` of `screen` again, as links, on a terminal of `visible`
    /// size: save the cursor, then per span move there, open the link, write the cells in their
    /// styles (`sgr`), close it; finally reset attributes and restore the cursor. Empty when there
    /// is nothing to write. Cells beyond the terminal are skipped, and so is the bottom-right
    /// cell (writing it can scroll some terminals).
    public static func escapes(for spans: [Span], in screen: Screen, visible: Size, sgr: (Style) -> String) -> String {
        let width = min(screen.width, visible.width)
        let height = min(screen.height, visible.height)
        var out = ""
        for span in spans where span.y >= 0 && span.y < height {
            var uri: String?
            if let url = span.url {
                let encoded = encodedURI(url)
                guard encoded.utf8.count <= maxURILength, !encoded.isEmpty else { continue }
                uri = encoded
            }
            var x0 = max(span.x, 0)
            if x0 < width, x0 > 0, screen[x0, span.y].continuation { x0 -= 1 }  // the whole wide character
            var x1 = min(span.x + span.width, width)
            if span.y == visible.height - 1, x1 >= visible.width { x1 = visible.width - 1 }
            guard x0 < x1 else { continue }
            var text = ""
            var style: Style?
            var needsMove = true
            for x in x0..<x1 {
                let cell = screen[x, span.y]
                if cell.continuation { continue }
                let wide = x + 1 < screen.width && screen[x + 1, span.y].continuation
                var glyph = cell.text.unicodeScalars.contains(where: isControl) || cell.text.isEmpty ? " " : cell.text
                if wide && x + 1 >= x1 { glyph = " " }  // half off the edge: ncurses drew a space
                // Non-ASCII may be measured differently by the terminal: place each such cell
                // (a picture's block symbols excepted: the picture is drawn on that promise).
                let sure = glyph.utf8.count == 1 || (uri == nil && isPictureSymbol(glyph))
                if needsMove || !sure { text += "\u{1B}[\(span.y + 1);\(x + 1)H" }
                needsMove = !sure
                if style != cell.style {
                    text += style.flatMap { colourChange(from: $0, to: cell.style) } ?? sgr(cell.style)
                    style = cell.style
                }
                text += glyph
            }
            guard !text.isEmpty else { continue }
            if let uri { out += open(uri) + text + close } else { out += text }
        }
        guard !out.isEmpty else { return "" }
        return "\u{1B}7" + out + "\u{1B}[0m\u{1B}8"
    }

    /// The symbols pictures are drawn with (chafa's block elements and eighths), one column wide.
    static func isPictureSymbol(_ glyph: String) -> Bool {
        let scalars = glyph.unicodeScalars
        guard scalars.count == 1, let v = scalars.first?.value else { return false }
        return (0x2580...0x259F).contains(v)
    }

    /// Between two cells in a picture's own colours that differ only in those colours: the SGR
    /// for the colour that changed (as chafa writes), not the whole style again.
    static func colourChange(from a: Style, to b: Style) -> String? {
        guard let af = a.foreground, let ab = a.background, let bf = b.foreground, let bb = b.background else { return nil }
        var plainA = a, plainB = b
        (plainA.foreground, plainA.background, plainB.foreground, plainB.background) = (nil, nil, nil, nil)
        guard plainA == plainB else { return nil }
        var params: [String] = []
        if af != bf { params.append(bf.sgr(background: false)) }
        if ab != bb { params.append(bb.sgr(background: true)) }
        return params.isEmpty ? "" : "\u{1B}[" + params.joined(separator: ";") + "m"
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F..<0xA0).contains(s.value)
    }
}

extension String {
    fileprivate func leftPadded(to n: Int) -> String {
        count >= n ? self : String(repeating: "0", count: n - count) + self
    }
}

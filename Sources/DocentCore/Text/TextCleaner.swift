/// Turns CMS text into clean plain text for a terminal. Content strings pass through here
/// before they reach a model, so no content can ever send an escape sequence to a terminal.
public enum TextCleaner {
    /// How a field is cleaned.
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Decode `&amp;`, `&#039;`, `&#x27;` …
        public static let entities = Options(rawValue: 1)
        /// Remove HTML markup; `<br>`, `</p>`, `</li>` become line breaks.
        public static let html = Options(rawValue: 2)
        /// A vertical bar is a line break (artist/culture/place lines).
        public static let barIsBreak = Options(rawValue: 4)
        /// One line: line breaks become spaces (titles).
        public static let singleLine = Options(rawValue: 8)

        public static let plain: Options = [.entities]
        public static let title: Options = [.entities, .singleLine]
        public static let rich: Options = [.entities, .html]
    }

    /// Cleans `text`. Returns the same string (sharing its storage) when nothing needs doing.
    public static func clean(_ text: String, _ options: Options = .plain) -> String {
        if !needsWork(text, options) { return text }
        var s = text
        if options.contains(.html) { s = stripTags(s) }
        if options.contains(.entities) || options.contains(.html) { s = decodeEntities(s) }
        return normalise(s, options)
    }

    private static func needsWork(_ text: String, _ options: Options) -> Bool {
        for b in text.utf8 {
            switch b {
            case 0x26, 0x3C: return true  // & <
            case 0x7C where options.contains(.barIsBreak): return true
            case 0x00..<0x20, 0x7F: return true
            case 0xC2: return true  // C1 controls and NBSP live behind 0xC2
            default: continue
            }
        }
        // Leading/trailing whitespace.
        if let f = text.utf8.first, f == 0x20 { return true }
        if let l = text.utf8.last, l == 0x20 { return true }
        return false
    }

    /// Line breaks normalised to `\n`, tabs to a space, every other control character
    /// (ESC, C1, DEL…) removed, runs of spaces collapsed, each line trimmed, blank-line runs
    /// limited to one.
    private static func normalise(_ s: String, _ options: Options) -> String {
        var lines: [String] = []
        var current = ""
        var lastWasSpace = false
        var pendingCR = false
        func endLine() {
            while current.last == " " { current.removeLast() }
            lines.append(current)
            current = ""
            lastWasSpace = false
        }
        for scalar in s.unicodeScalars {
            let v = scalar.value
            if pendingCR {
                pendingCR = false
                if v == 0x0A { continue }
            }
            if v == 0x0D {
                endLine()
                pendingCR = true
                continue
            }
            if v == 0x0A || v == 0x2028 || v == 0x2029 || (v == 0x7C && options.contains(.barIsBreak)) {
                endLine()
                continue
            }
            let isSpace = v == 0x20 || v == 0x09 || v == 0xA0
            if isSpace {
                if !current.isEmpty && !lastWasSpace {
                    current.unicodeScalars.append(" ")
                    lastWasSpace = true
                }
                continue
            }
            if v < 0x20 || (v >= 0x7F && v < 0xA0) || v == 0xFEFF { continue }
            current.unicodeScalars.append(scalar)
            lastWasSpace = false
        }
        endLine()
        // Drop leading/trailing blank lines and collapse blank runs.
        var out: [String] = []
        for l in lines {
            if l.isEmpty && (out.isEmpty || out.last == "") { continue }
            out.append(l)
        }
        while out.last == "" { out.removeLast() }
        return options.contains(.singleLine) ? out.filter { !$0.isEmpty }.joined(separator: " ") : out.joined(separator: "\n")
    }

    /// Removes tags. Block-ending tags and `<br>` become line breaks; `<li>` a bullet.
    static func stripTags(_ s: String) -> String {
        guard s.contains("<") else { return s }
        var out = ""
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if c == "<", let close = s[i...].firstIndex(of: ">") {
                let tag = s[s.index(after: i)..<close].lowercased()
                let name = tag.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "\t" }).first.map(String.init) ?? ""
                let closing = tag.hasPrefix("/")
                switch name {
                case "br": out += "\n"
                case "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "tr", "blockquote":
                    out += closing ? "\n\n" : (out.isEmpty ? "" : "\n")
                case "li": out += closing ? "\n" : "• "
                default: break
                }
                i = s.index(after: close)
                continue
            }
            out.append(c)
            i = s.index(after: i)
        }
        return out
    }

    /// Decodes named, decimal and hex character references. Unknown names stay as written.
    public static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count)
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            guard c == "&" else {
                out.append(c)
                i = s.index(after: i)
                continue
            }
            // Look for ';' within 10 characters.
            var j = s.index(after: i)
            var name = ""
            var found = false
            var steps = 0
            while j < s.endIndex, steps < 10 {
                let d = s[j]
                if d == ";" {
                    found = true
                    break
                }
                if !(d.isLetter || d.isNumber || d == "#") { break }
                name.append(d)
                j = s.index(after: j)
                steps += 1
            }
            if found, let decoded = decode(name) {
                out.unicodeScalars.append(decoded)
                i = s.index(after: j)
            } else {
                out.append(c)
                i = s.index(after: i)
            }
        }
        return out
    }

    private static func decode(_ name: String) -> Unicode.Scalar? {
        if name.hasPrefix("#") {
            let body = name.dropFirst()
            let v: UInt32?
            if body.hasPrefix("x") || body.hasPrefix("X") {
                v = UInt32(body.dropFirst(), radix: 16)
            } else {
                v = UInt32(body, radix: 10)
            }
            guard let value = v, let scalar = Unicode.Scalar(value) else { return nil }
            return scalar
        }
        return namedEntities[name].flatMap { Unicode.Scalar($0) }
    }

    private static let namedEntities: [String: UInt32] = [
        "amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27, "nbsp": 0xA0,
        "ndash": 0x2013, "mdash": 0x2014, "lsquo": 0x2018, "rsquo": 0x2019, "ldquo": 0x201C,
        "rdquo": 0x201D, "hellip": 0x2026, "copy": 0xA9, "reg": 0xAE, "trade": 0x2122,
        "eacute": 0xE9, "Eacute": 0xC9, "egrave": 0xE8, "aacute": 0xE1, "iacute": 0xED,
        "oacute": 0xF3, "uacute": 0xFA, "ntilde": 0xF1, "Ntilde": 0xD1, "uuml": 0xFC,
        "ouml": 0xF6, "auml": 0xE4, "ccedil": 0xE7, "agrave": 0xE0, "ecirc": 0xEA, "acirc": 0xE2,
        "ocirc": 0xF4, "iexcl": 0xA1, "iquest": 0xBF, "laquo": 0xAB, "raquo": 0xBB,
        "deg": 0xB0, "middot": 0xB7, "times": 0xD7, "bull": 0x2022, "euro": 0x20AC,
        "shy": 0xAD, "Aacute": 0xC1, "Oacute": 0xD3, "Uacute": 0xDA, "Iacute": 0xCD,
    ]
}

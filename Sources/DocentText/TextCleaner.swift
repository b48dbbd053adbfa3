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

    /// Whether `clean` would give back UTF-8 `bytes` as they are (nothing to decode, remove or
    /// trim): then a reader of their words needs no `String` of them.
    public static func isClean(_ bytes: UnsafeBufferPointer<UInt8>, _ options: Options) -> Bool {
        !needsWork(bytes, bar: options.contains(.barIsBreak))
    }

    /// Whether `bytes` are well-formed UTF-8 (what `String(decoding:as:)` keeps unrepaired).
    public static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        guard n > 0 else { return true }
        let base = UnsafeRawPointer(bytes.baseAddress!)
        var i = 0
        while i < n {
            // ASCII eight bytes at a time.
            if i + 8 <= n, base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let len: Int
            var lo: UInt8 = 0x80
            var hi: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: len = 2
            case 0xE0: len = 3; lo = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: len = 3
            case 0xED: len = 3; hi = 0x9F
            case 0xF0: len = 4; lo = 0x90
            case 0xF1...0xF3: len = 4
            case 0xF4: len = 4; hi = 0x8F
            default: return false
            }
            guard i + len <= n else { return false }
            let c1 = bytes[i + 1]
            guard c1 >= lo, c1 <= hi else { return false }
            var k = 2
            while k < len {
                guard bytes[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += len
        }
        return true
    }

    private static func needsWork(_ text: String, _ options: Options) -> Bool {
        let bar = options.contains(.barIsBreak)
        if let answer = text.utf8.withContiguousStorageIfAvailable({ needsWork($0, bar: bar) }) { return answer }
        var copy = text
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable { needsWork($0, bar: bar) } ?? true
    }

    private static func needsWork(_ bytes: UnsafeBufferPointer<UInt8>, bar: Bool) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        // Leading/trailing whitespace.
        if first == 0x20 || last == 0x20 { return true }
        // & < (|) controls DEL; C1 controls and NBSP live behind 0xC2. Eight bytes at a time:
        // a byte below 0x20 or equal to one of those sets the high bit of its lane.
        let n = bytes.count
        let base = UnsafeRawPointer(bytes.baseAddress!)
        let barByte: UInt8 = bar ? 0x7C : 0x26
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasByte(_ w: UInt64, _ c: UInt8) -> UInt64 {
            let x = w ^ (ones &* UInt64(c))
            return (x &- ones) & ~x
        }
        var k = 0
        while k + 8 <= n {
            let w = base.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            let below = (w &- ones &* 0x20) & ~w
            let hit = below | hasByte(w, 0x26) | hasByte(w, 0x3C) | hasByte(w, 0x7F) | hasByte(w, 0xC2) | hasByte(w, barByte)
            if hit & highs != 0 { return true }
            k += 8
        }
        while k < n {
            let b = bytes[k]
            if b < 0x20 || b == 0x26 || b == 0x3C || b == 0x7F || b == 0xC2 || b == barByte { return true }
            k += 1
        }
        return false
    }

    /// True for a byte `normalise` copies as it is: printable ASCII (but `|` when it breaks
    /// lines) and the bytes of any scalar but the few behind 0xC2, 0xE2 and 0xEF it looks at.
    @inline(__always) private static func isPlain(_ b: UInt8, bar: Bool) -> Bool {
        if b > 0x20 && b < 0x7F { return b != 0x7C || !bar }
        return b >= 0x80 && b != 0xC2 && b != 0xE2 && b != 0xEF
    }

    /// Line breaks normalised to `\n`, tabs to a space, every other control character
    /// (ESC, C1, DEL…) removed, runs of spaces collapsed, each line trimmed, blank-line runs
    /// limited to one. Works on the UTF-8 bytes: everything it removes or replaces is a whole
    /// scalar, so the result is valid UTF-8 whenever the input is.
    private static func normalise(_ s: String, _ options: Options) -> String {
        var text = s
        text.makeContiguousUTF8()
        let bar = options.contains(.barIsBreak)
        let single = options.contains(.singleLine)
        return text.utf8.withContiguousStorageIfAvailable { bytes -> String in
            let n = bytes.count
            var out: [UInt8] = []
            out.reserveCapacity(n)
            var line: [UInt8] = []
            line.reserveCapacity(min(n, 256))
            var lastWasSpace = false
            var pendingCR = false
            var hasLines = false
            var pendingBlank = false
            func endLine() {
                while line.last == 0x20 {
                    // A space after a prepended mark (U+0600…) is part of that character, which
                    // is not a space: the reference (per-Character) trimming keeps it.
                    if line.count >= 2, line[line.count - 2] >= 0x80, String(decoding: line, as: UTF8.self).last != " " { break }
                    line.removeLast()
                }
                if line.isEmpty {
                    if hasLines { pendingBlank = true }
                } else {
                    if hasLines {
                        if single {
                            out.append(0x20)
                        } else {
                            out.append(0x0A)
                            if pendingBlank { out.append(0x0A) }
                        }
                    }
                    out.append(contentsOf: line)
                    hasLines = true
                    pendingBlank = false
                    line.removeAll(keepingCapacity: true)
                }
                lastWasSpace = false
            }
            var k = 0
            while k < n {
                let b = bytes[k]
                if isPlain(b, bar: bar) {
                    // A run of bytes copied as they are (continuation bytes are all plain, and
                    // a plain lead byte's scalar is copied whole), with the single spaces
                    // between words (a space after visible text is always kept as it is).
                    var e = k + 1
                    while e < n {
                        let c = bytes[e]
                        if isPlain(c, bar: bar) || (c == 0x20 && bytes[e - 1] != 0x20) {
                            e += 1
                        } else {
                            break
                        }
                    }
                    pendingCR = false
                    line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[k..<e]))
                    lastWasSpace = bytes[e - 1] == 0x20
                    k = e
                    continue
                }
                // The scalar at k: its value for the few that matter, and its length.
                var v: UInt32 = UInt32(b)
                var len = 1
                if b >= 0x80 {
                    if b < 0xE0 {
                        len = 2
                        if b == 0xC2, k + 1 < n { v = UInt32(bytes[k + 1] & 0x3F) | 0x80 } else { v = 0x100 }
                    } else if b < 0xF0 {
                        len = 3
                        if k + 2 < n, (b == 0xE2 && bytes[k + 1] == 0x80) || (b == 0xEF && bytes[k + 1] == 0xBB) {
                            v = (UInt32(b & 0x0F) << 12) | (UInt32(bytes[k + 1] & 0x3F) << 6) | UInt32(bytes[k + 2] & 0x3F)
                        } else {
                            v = 0x800
                        }
                    } else {
                        len = 4
                        v = 0x10000
                    }
                    len = min(len, n - k)
                }
                if pendingCR {
                    pendingCR = false
                    if v == 0x0A {
                        k += len
                        continue
                    }
                }
                if v == 0x0D {
                    endLine()
                    pendingCR = true
                } else if v == 0x0A || v == 0x2028 || v == 0x2029 || (v == 0x7C && bar) {
                    endLine()
                } else if v == 0x20 || v == 0x09 || v == 0xA0 {
                    if !line.isEmpty && !lastWasSpace {
                        line.append(0x20)
                        lastWasSpace = true
                    }
                } else if v < 0x20 || (v >= 0x7F && v < 0xA0) || v == 0xFEFF {
                    // removed
                } else {
                    if len == 1 {
                        line.append(b)
                    } else {
                        line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[k..<(k + len)]))
                    }
                    lastWasSpace = false
                }
                k += len
            }
            endLine()
            return String(decoding: out, as: UTF8.self)
        }!
    }

    /// Removes tags. Block-ending tags and `<br>` become line breaks; `<li>` a bullet.
    static func stripTags(_ s: String) -> String {
        guard UTF8Scan.contains(s, 0x3C) else { return s }
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
        guard UTF8Scan.contains(s, 0x26) else { return s }
        var text = s
        text.makeContiguousUTF8()
        if let fast = text.utf8.withContiguousStorageIfAvailable({ decodeEntitiesBytes($0) }), let result = fast {
            return result
        }
        return decodeEntitiesByCharacter(s)
    }

    /// The byte-level decoder. Every byte of an ASCII entity is a whole character, so it
    /// gives the same result as `decodeEntitiesByCharacter` except where a character could
    /// straddle the entity's edge (a non-ASCII scalar just before `&` or just after `;`,
    /// which a combining mark or a prepended mark would join); there it returns nil.
    private static func decodeEntitiesBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let n = bytes.count
        var out: [UInt8] = []
        out.reserveCapacity(n)
        var i = 0
        var name: [UInt8] = []
        while i < n {
            let c = bytes[i]
            guard c == 0x26 else {
                out.append(c)
                i += 1
                continue
            }
            // Look for ';' within 10 characters.
            var j = i + 1
            var found = false
            var steps = 0
            name.removeAll(keepingCapacity: true)
            while j < n, steps < 10 {
                let d = bytes[j]
                if d == 0x3B {
                    found = true
                    break
                }
                let alnum = (d >= 0x30 && d <= 0x39) || (d >= 0x41 && d <= 0x5A) || (d >= 0x61 && d <= 0x7A) || d == 0x23
                if !alnum { break }
                name.append(d)
                j += 1
                steps += 1
            }
            if found, let decoded = decode(String(decoding: name, as: UTF8.self)) {
                if (i > 0 && bytes[i - 1] >= 0x80) || (j + 1 < n && bytes[j + 1] >= 0x80) { return nil }
                var scalarBytes = Unicode.UTF8.encode(decoded)!.makeIterator()
                while let b = scalarBytes.next() { out.append(b) }
                i = j + 1
            } else {
                out.append(c)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The reference decoder, character by character.
    static func decodeEntitiesByCharacter(_ s: String) -> String {
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

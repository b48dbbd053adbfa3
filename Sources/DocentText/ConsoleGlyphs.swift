import Foundation

/// What the Linux virtual console (`TERM=linux`) can draw. Its font holds 256 or 512 glyphs
/// (Debian's console-setup fonts: Latin letters, the box-drawing and block characters, arrows
/// and the old PC symbols), so braille map dots, `▰▱`, `★` and every Chinese or Korean
/// character would show as blots or diamonds (issue 33 #21). Each of those is drawn as the
/// nearest character the font has: the map's dots by how many there are, the marks by ASCII,
/// anything else by `?` (a wide character keeps its two columns). Pure: the terminal adapter
/// asks.
public enum ConsoleGlyphs {
    /// Whether `term` is the Linux virtual console (`linux`, `linux-16color`…). Not fbterm or
    /// kmscon, which draw from a full font.
    public static func isLinuxConsole(term: String?) -> Bool {
        guard let term else { return false }
        return term == "linux" || term.hasPrefix("linux-")
    }

    /// `text` (one cell's: a character and its combining marks) as the console can draw it;
    /// nil when it can as it is.
    public static func fallback(_ text: String) -> String? {
        guard let base = text.unicodeScalars.first else { return nil }
        let v = base.value
        if (0x2800...0x28FF).contains(v) {
            // Braille: the map's ink by how much of the cell it covers.
            switch (v - 0x2800).nonzeroBitCount {
            case 0: return " "
            case 1...2: return "."
            case 3...5: return ":"
            default: return "#"
            }
        }
        if let mapped = marks[base] { return mapped }
        if drawable(v) {
            guard text.unicodeScalars.count > 1 else { return nil }
            // The console composes nothing: a letter and its accent as one character where
            // Unicode has one (e + ◌́ → é), else the letter alone.
            let composed = text.precomposedStringWithCanonicalMapping
            if composed.unicodeScalars.count == 1, let c = composed.unicodeScalars.first, drawable(c.value) { return composed }
            return String(base)
        }
        return "?"
    }

    /// The guide's own marks, as the nearest the console has.
    static let marks: [Unicode.Scalar: String] = [
        "▰": "#", "▱": "-", "★": "*", "☆": "+", "◆": "♦", "◇": "◊", "●": "•",
        "▸": ">", "▶": "►", "◂": "<", "◀": "◄", "✓": "v", "✗": "x", "⋯": "…", "⏸": "=", "‖": "=",
    ]

    /// Whether the console fonts Debian installs (Lat15, Uni2 and their kin) have `v`.
    static func drawable(_ v: UInt32) -> Bool {
        switch v {
        case 0x20...0x7E, 0xA0...0x17F: return true  // ASCII, Latin-1, Latin Extended-A
        case 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203A, 0x20AC, 0x2122:
            return true
        case 0x2190...0x2195, 0x21A8: return true  // arrows
        case 0x2500...0x259F: return true  // box drawing, blocks, shades
        case 0x25A0, 0x25AC, 0x25B2, 0x25BA, 0x25BC, 0x25C4, 0x25CA, 0x25CB, 0x25D8, 0x25D9: return true
        case 0x263A...0x263C, 0x2640, 0x2642, 0x2660, 0x2663, 0x2665, 0x2666, 0x266A, 0x266B: return true
        default: return false
        }
    }
}

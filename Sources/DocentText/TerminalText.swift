/// The one place where text meets the terminal's idea of characters. Invisible format
/// characters (Unicode category Cf: zero-width joiners, bidi marks, embeddings, overrides and
/// isolates, soft hyphens, tags) are removed before anything is measured or drawn: a terminal
/// draws some of them as U+FFFD, joins emoji with others into glyphs of a width nobody can
/// predict, and lets an override (U+202E) reverse what follows on screen. Emoji joined by
/// U+200D fall apart into their parts, each of a known width.
public enum TerminalText {
    /// `text` without its format characters (unchanged, and not copied, when it has none).
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isFormat) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars where !isFormat(s) { out.append(s) }
        return String(out)
    }

    /// A format character (General_Category Cf).
    public static func isFormat(_ s: Unicode.Scalar) -> Bool {
        // Below U+00AD nothing is Cf, nor from U+3000 to U+FEFE (CJK, kana, Hangul: no format
        // characters there in Unicode 17): Latin and Chinese text never reach the property
        // lookup, which every measured and drawn character passes through.
        let v = s.value
        guard v >= 0xAD, v < 0x3000 || v >= 0xFEFF else { return false }
        // Nor above the soft hyphen up to U+05FF, nor from U+2070 (after the invisible
        // operators) up to U+2FFF: arrows, box drawing, blocks, symbols (the player's bar is
        // drawn of these every second). `TextWidthTests` holds this against the property.
        if v == 0xAD { return true }
        if v < 0x600 || v >= 0x2070 && v < 0x3000 { return false }
        return s.properties.generalCategory == .format
    }
}

import DocentText
import DocentJSON
import Foundation

/// A visitor's note as it may be stored and shown: plain text (never HTML, never decoded:
/// `&lt;b&gt;` stays as typed), NFC, one paragraph, without control, escape or format
/// characters, at most 280 display cells as the guide draws them (`TextWidth`).
public enum NoteText {
    public static let maxCells = 280

    public enum Problem: Error, Hashable, Sendable {
        case empty
        /// Longer than `maxCells` after cleaning (its width).
        case tooLong(Int)
    }

    /// `raw` cleaned; the width is checked on the result.
    public static func clean(_ raw: String) -> Result<String, Problem> {
        let s = normalise(raw)
        if s.isEmpty { return .failure(.empty) }
        let w = TextWidth.width(s)
        return w > maxCells ? .failure(.tooLong(w)) : .success(s)
    }

    /// The cleaning alone, without limits (the editor's live counter measures this).
    public static func normalise(_ raw: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        // NFC first, so a letter and its combining accent become one character.
        for s in raw.precomposedStringWithCanonicalMapping.unicodeScalars {
            let v = s.value
            let isSpace = v == 0x20 || v == 0x09 || v == 0x0A || v == 0x0D || v == 0xA0 || v == 0x2028 || v == 0x2029
                || s.properties.generalCategory == .spaceSeparator
            if isSpace {
                pendingSpace = !out.isEmpty
                continue
            }
            // C0, DEL, C1 (ESC and CSI among them), format characters, unassigned, private use,
            // surrogates and non-characters are dropped.
            if v < 0x20 || (v >= 0x7F && v < 0xA0) || TerminalText.isFormat(s) { continue }
            switch s.properties.generalCategory {
            case .unassigned, .privateUse, .surrogate, .control: continue
            default: break
            }
            if s.properties.isNoncharacterCodePoint { continue }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            out.append(s)
        }
        return String(out)
    }

    /// Width of the note as it will be stored (the editor's counter).
    public static func cells(_ raw: String) -> Int { TextWidth.width(normalise(raw)) }
}

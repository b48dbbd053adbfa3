import DocentText
import DocentJSON
import Foundation

/// Pulse data comes from a database file or a service the guide does not control (issue 32):
/// every count and time read from either is bounded here before any arithmetic, so a damaged
/// `pulse.sqlite` or a hostile service shows odd numbers at worst, never a trap.
public enum PulseBounds {
    /// The largest count the guide keeps (2^40, beyond any museum): two of them added or
    /// subtracted cannot overflow.
    public static let maxCount = 1 << 40
    /// Times before 1970 or after 2200 are read as those limits.
    public static let earliest: TimeInterval = 0
    public static let latest: TimeInterval = 7_258_118_400
    /// What one paste or keystroke may bring into the note editor: a note is at most
    /// `NoteText.maxCells` cells, so more than this many scalars can never be kept.
    public static let maxInputScalars = NoteText.maxCells * 8
    /// Combining marks kept on one character (a Zalgo paste is one character of 100,000
    /// scalars; measuring or drawing it is what froze the guide).
    public static let maxScalarsPerCharacter = 8

    /// A count from a row or the wire, within ±`maxCount`.
    public static func count(_ n: Int) -> Int { min(max(n, -maxCount), maxCount) }

    /// A count from the wire: never negative, never past `maxCount`.
    public static func wireCount(_ n: Int) -> Int { min(max(n, 0), maxCount) }

    /// A time from a row or the wire: non-finite and far times moved to the nearest limit.
    public static func time(_ seconds: Double) -> Date {
        Date(timeIntervalSince1970: seconds.isNaN ? earliest : min(max(seconds, earliest), latest))
    }

    /// Seconds between two times as a whole number of `unit`s, for "3 h ago": bounded before
    /// the conversion to `Int` (which traps on what does not fit).
    public static func whole(_ seconds: Double, per unit: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min(seconds / unit, 1e12))
    }

    /// Typed or pasted text cut before anything measures it: at most `maxInputScalars`
    /// scalars, at most `maxScalarsPerCharacter` in one character. Linear in what is kept, so a
    /// 112 KB paste costs what a note costs.
    public static func input(_ text: String) -> String {
        var out = ""
        var scalars = 0
        for ch in text {
            if scalars >= maxInputScalars { break }
            let count = ch.unicodeScalars.count
            if count <= maxScalarsPerCharacter {
                out.append(ch)
                scalars += count
            } else {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: ch.unicodeScalars.prefix(maxScalarsPerCharacter))
                out.append(contentsOf: String(view))
                scalars += maxScalarsPerCharacter
            }
        }
        return out
    }
}

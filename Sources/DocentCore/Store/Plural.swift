import Foundation

/// CLDR plural categories and whole-number formats for the interface languages (issue 47 #9:
/// plurals were `n == 1 ?` in code, "1 tours" and French "0 étapes"). Foundation on Linux
/// exposes no plural rules (no `NSLocalizedString` stringsdict, no ICU `PluralRules` in
/// swift-corelibs-foundation), so the rules are this small table, from CLDR 44's
/// plurals.xml for cardinal whole numbers:
///
/// | language | one | other |
/// |---|---|---|
/// | en, es | n = 1 | everything else |
/// | fr | n = 0 or 1 | everything else |
/// | ko, zh, zh-Hant | (none) | every n |
///
/// (CLDR also gives Spanish and French a "many" for exact millions in compact forms; the guide
/// never counts that high in a sentence, and it is "other" in plain digits.) A language
/// without a row here uses English's rule.
public enum Plural {
    public enum Category: Equatable, Sendable { case one, other }

    public static func category(_ n: Int, _ language: Language) -> Category {
        switch language.content.code {
        case "ko", "zh": return .other
        case "fr": return n == 0 || n == 1 ? .one : .other
        default: return n == 1 ? .one : .other
        }
    }

    /// Whether `n` takes the language's "one" form (the `…One` string key).
    public static func isOne(_ n: Int, _ language: Language) -> Bool { category(n, language) == .one }

    /// `n` written as the language writes whole numbers (CLDR's decimal format and symbols):
    /// en, ko, zh "12,345"; es "12.345" but "1234" (groups from five digits: CLDR's
    /// minimumGroupingDigits 2); fr "12 345" with a narrow no-break space (U+202F).
    public static func number(_ n: Int, _ language: Language) -> String {
        let digits = String(n.magnitude)
        let (separator, minimumDigits): (String, Int)
        switch language.content.code {
        case "es": (separator, minimumDigits) = (".", 5)
        case "fr": (separator, minimumDigits) = ("\u{202F}", 4)
        default: (separator, minimumDigits) = (",", 4)
        }
        var out = digits
        if digits.count >= minimumDigits {
            out = ""
            for (i, c) in digits.enumerated() {
                if i > 0, (digits.count - i) % 3 == 0 { out += separator }
                out.append(c)
            }
        }
        return n < 0 ? "-" + out : out
    }
}

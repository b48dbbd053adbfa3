import Foundation

/// A content language. English is the untagged base of every record; translations carry a
/// tag (`es`, `zh-hant`, `ko`, `fr`). UI languages match data by prefix (`zh` ↔ `zh-hant`).
public struct Language: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The canonical short code: "en", "es", "zh", "ko", "fr", or another lower-case tag.
    public let code: String

    public init(code: String) { self.code = code }

    public static let english = Language(code: "en")
    public static let spanish = Language(code: "es")
    public static let chinese = Language(code: "zh")
    public static let korean = Language(code: "ko")
    public static let french = Language(code: "fr")

    /// The languages the guide's own UI is written in.
    public static let uiLanguages: [Language] = [.english, .spanish, .chinese]

    /// Maps a data or user tag to a language by prefix: "zh-hant", "zh-Hans", "ZH" → zh;
    /// "es-MX" → es. Returns nil for an empty or non-alphabetic tag.
    public static func fromTag(_ tag: String) -> Language? {
        let t = tag.trimmingCharacters(in: .whitespaces).lowercased()
        let primary = t.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        guard !primary.isEmpty, primary.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return Language(code: primary)
    }

    /// Whether the guide knows this language (others are kept but reported).
    public var isKnown: Bool { ["en", "es", "zh", "ko", "fr"].contains(code) }

    /// The language's own name, for pickers.
    public var nativeName: String {
        switch code {
        case "en": return "English"
        case "es": return "Español"
        case "zh": return "中文"
        case "ko": return "한국어"
        case "fr": return "Français"
        default: return code
        }
    }

    public var description: String { code }

    public static func < (a: Language, b: Language) -> Bool {
        let order = ["en", "es", "zh", "ko", "fr"]
        let ia = order.firstIndex(of: a.code) ?? order.count
        let ib = order.firstIndex(of: b.code) ?? order.count
        return ia != ib ? ia < ib : a.code < b.code
    }
}


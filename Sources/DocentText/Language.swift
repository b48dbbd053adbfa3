import Foundation

/// A language. English is the untagged base of every record; translations carry a tag (`es`,
/// `zh-hant`, `ko`, `fr`). Content is matched by primary language (`content`): the appData's
/// Chinese is one language whatever its tag says (the AIC's "zh-hant" is mostly Simplified),
/// while the interface has two Chinese tables, Simplified (`zh`) and Traditional (`zh-hant`).
public struct Language: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The canonical code: "en", "es", "zh" (Simplified), "zh-hant" (Traditional), "ko", "fr",
    /// or another lower-case primary tag.
    public let code: String

    public init(code: String) { self.code = code }

    public static let english = Language(code: "en")
    public static let spanish = Language(code: "es")
    /// Chinese; as an interface language, Simplified Chinese.
    public static let chinese = Language(code: "zh")
    /// Traditional Chinese, an interface language; as content it is `chinese`.
    public static let traditionalChinese = Language(code: "zh-hant")
    public static let korean = Language(code: "ko")
    public static let french = Language(code: "fr")

    /// The languages the guide's own UI is written in.
    public static let uiLanguages: [Language] = [.english, .spanish, .chinese, .traditionalChinese, .korean, .french]

    /// Maps a data or user tag to a language by its primary part: "zh-Hans", "ZH", "zh_CN" → zh;
    /// "es-MX" → es. Chinese written in Traditional characters ("zh-Hant", "zh_TW", "zh-HK",
    /// "zh_MO", "zh-Hant-TW") → zh-hant. Returns nil for an empty or non-alphabetic tag.
    public static func fromTag(_ tag: String) -> Language? {
        let t = tag.trimmingCharacters(in: .whitespaces).lowercased()
        let parts = t.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        let primary = parts.first ?? ""
        guard !primary.isEmpty, primary.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        if primary == "zh" {
            let rest = parts.dropFirst()
            if rest.contains("hans") { return .chinese }
            if rest.contains("hant") || rest.contains(where: { ["tw", "hk", "mo"].contains($0) }) { return .traditionalChinese }
        }
        return Language(code: primary)
    }

    /// The language appData content is looked up in: Traditional Chinese reads the Chinese
    /// translations (shown in the visitor's script where a conversion exists); others themselves.
    public var content: Language { self == .traditionalChinese ? .chinese : self }

    /// Whether the guide knows this language (others are kept but reported).
    public var isKnown: Bool { ["en", "es", "zh", "zh-hant", "ko", "fr"].contains(code) }

    /// The language's name in the language of an interface ("영어" for English in Korean,
    /// "inglés" in Spanish), from ICU's names through Foundation (a locale made from a code: no
    /// machine setting is read); its own name where ICU has none (issue 47 #9: "오디오: English").
    public func name(in interface: Language) -> String {
        func identifier(_ l: Language) -> String { l.code == "zh-hant" ? "zh-Hant" : l.code }
        let ui = interface.code == "zh" ? "zh-Hans" : identifier(interface)
        guard let name = Locale(identifier: ui).localizedString(forIdentifier: identifier(self)), !name.isEmpty else { return nativeName }
        return name
    }

    /// The language's own name, for content (an audio's languages): Chinese is "中文".
    public var nativeName: String {
        switch code {
        case "en": return "English"
        case "es": return "Español"
        case "zh": return "中文"
        case "zh-hant": return "繁體中文"
        case "ko": return "한국어"
        case "fr": return "Français"
        default: return code
        }
    }

    /// The name in the interface language picker and the tab bar, where the two Chinese
    /// tables need telling apart: "简体中文", "繁體中文".
    public var interfaceName: String { self == .chinese ? "简体中文" : nativeName }

    public var description: String { code }

    public static func < (a: Language, b: Language) -> Bool {
        let order = ["en", "es", "zh", "zh-hant", "ko", "fr"]
        let ia = order.firstIndex(of: a.code) ?? order.count
        let ib = order.firstIndex(of: b.code) ?? order.count
        return ia != ib ? ia < ib : a.code < b.code
    }
}

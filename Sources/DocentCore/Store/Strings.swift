import Foundation

/// The guide's own UI text in one language, with English behind it for any missing key.
/// Loaded from `Resources/strings/<code>.json` by the composition root; pure here.
public struct Strings: Equatable, Sendable {
    public let language: Language
    private let table: [String: String]
    private let fallback: [String: String]

    public init(language: Language, table: [String: String], fallback: [String: String] = [:]) {
        self.language = language
        self.table = table
        self.fallback = fallback
    }

    /// The text for `key`, with `{name}` placeholders filled from `args`. A key is a
    /// `StringKey` case (generated from en.json), so it exists in English; a language that lacks
    /// it falls back to English, and a table without it either shows the key itself, so a gap
    /// is visible rather than silent.
    public func callAsFunction(_ key: StringKey, _ args: [String: String] = [:]) -> String {
        let template = table[key.rawValue] ?? fallback[key.rawValue] ?? key.rawValue
        return args.isEmpty ? template : Self.fill(template, args)
    }

    /// Each `{name}` that has an argument replaced by it, in one pass: what a value says is
    /// never read for names (one `replacingOccurrences` per argument did, in the dictionary's
    /// order, and cost the player's once-a-second line more than drawing it).
    static func fill(_ template: String, _ args: [String: String]) -> String {
        let u = template.utf8
        var out = ""
        var copied = u.startIndex
        var from = u.startIndex
        while let open = u[from...].firstIndex(of: UInt8(ascii: "{")) {
            let nameStart = u.index(after: open)
            guard let close = u[nameStart...].firstIndex(of: UInt8(ascii: "}")) else { break }
            if let value = args[String(template[nameStart..<close])] {
                out += template[copied..<open]
                out += value
                copied = u.index(after: close)
                from = copied
            } else {
                from = nameStart
            }
        }
        out += template[copied...]
        return out
    }

    public func has(_ key: StringKey) -> Bool { table[key.rawValue] != nil }
    public var keys: Set<String> { Set(table.keys) }

    public static let empty = Strings(language: .english, table: [:])
}

/// Words not yet in any language: a UI string key with its arguments, or text that is not
/// ours to translate (a name, a server's reason). State keeps phrases, never translated
/// sentences; the renderer puts them into the language on screen.
public indirect enum Phrase: Equatable, Sendable {
    case key(StringKey, [String: Phrase] = [:])
    case verbatim(String)

    public func text(_ strings: Strings) -> String {
        switch self {
        case .verbatim(let t): return t
        case .key(let k, let args): return strings(k, args.mapValues { $0.text(strings) })
        }
    }
}

/// Every language's strings, as loaded at start.
public struct StringCatalog: Equatable, Sendable {
    public var tables: [Language: [String: String]]
    public init(tables: [Language: [String: String]]) { self.tables = tables }
    /// The tables as read from files named by language tag (`en`, `zh-Hant`); a file whose name
    /// is no language is left out.
    public init(tablesByTag: [String: [String: String]]) {
        var tables: [Language: [String: String]] = [:]
        for (tag, table) in tablesByTag {
            if let language = Language.fromTag(tag) { tables[language] = table }
        }
        self.init(tables: tables)
    }

    public func strings(for language: Language) -> Strings {
        Strings(language: language, table: tables[language] ?? [:], fallback: tables[.english] ?? [:])
    }

    /// Languages with a UI table, English first.
    public var languages: [Language] { tables.keys.sorted() }

    /// The interface language the environment's locale asks for, if this catalog has it: the
    /// first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG` decides (as POSIX has it), its
    /// language part only (`es_ES.UTF-8`, `es_MX`, `es.UTF-8@euro` → es), with the script for
    /// Chinese (`zh_CN`, `zh_SG` → Simplified; `zh_TW`, `zh_HK`, `zh_MO` → Traditional). `C`, `POSIX`, a
    /// language without a table, or nothing set: nil. Only the variables are read, so a locale
    /// that is not installed on the machine still chooses the language.
    public func language(fromLocale environment: [String: String]) -> Language? {
        guard let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else {
            return nil
        }
        let name = value.prefix { $0 != "." && $0 != "@" }
        guard name != "C", name != "POSIX", let language = Language.fromTag(String(name)) else { return nil }
        // zh_TW without a Traditional table: Simplified rather than nothing.
        return [language, language.content].first { tables[$0] != nil }
    }
}


extension StringCatalog: CustomStringConvertible {
    /// Short, so a failing state comparison stays readable.
    public var description: String { "StringCatalog(\(languages.map(\.code).joined(separator: ",")))" }
}

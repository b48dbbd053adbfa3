import Foundation

/// Traditional Chinese characters and their Simplified forms, one character to one: search
/// folds both scripts to Simplified, in the documents and in the query, so "亲子" finds
/// "親子導覽" and "港务长" finds "港務長". The table is a well-kept one read by the shell
/// (ICU's Hant-Hans transform, see the `ScriptConversion` adapter) and handed to the index;
/// the core only looks characters up.
public struct ChineseVariants: Sendable, Equatable {
    let simplified: [UInt32: Unicode.Scalar]

    /// Every (Traditional, Simplified) pair of the table.
    public var pairs: [(Unicode.Scalar, Unicode.Scalar)] { simplified.compactMap { k, v in Unicode.Scalar(k).map { ($0, v) } } }

    /// `pairs` maps a character to its Simplified form; pairs that map a character to itself
    /// are dropped.
    public init(simplified pairs: [Unicode.Scalar: Unicode.Scalar]) {
        var table: [UInt32: Unicode.Scalar] = [:]
        table.reserveCapacity(pairs.count)
        for (from, to) in pairs where from != to { table[from.value] = to }
        simplified = table
    }

    /// How many characters have a Simplified form of their own.
    public var count: Int { simplified.count }

    /// The Simplified form of `scalar` (itself when it has none).
    @inline(__always) public func simplified(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        simplified[scalar.value] ?? scalar
    }
}

/// Both directions, for drawing Chinese content in the reader's script: Traditional readers
/// (`zh-hant`) get Simplified characters as Traditional where one Traditional character is
/// meant, Simplified readers get Traditional characters as Simplified. Character by character,
/// as search folds; the tables come from the shell (`ScriptConversion`).
public struct ChineseScriptTables: Sendable, Equatable {
    let traditional: [UInt32: Unicode.Scalar]
    /// How many Simplified characters have a Traditional form drawn for them.
    public var traditionalCount: Int { traditional.count }
    public let simplified: ChineseVariants

    public init(traditional pairs: [Unicode.Scalar: Unicode.Scalar], simplified: ChineseVariants) {
        var table: [UInt32: Unicode.Scalar] = [:]
        for (from, to) in pairs where from != to { table[from.value] = to }
        traditional = table
        self.simplified = simplified
    }

    /// `text` in the script of `language` (unchanged for other languages, and for text with
    /// nothing to change: the same string comes back).
    public func convert(_ text: String, for language: Language) -> String {
        let toTraditional: Bool
        switch language {
        case .traditionalChinese: toTraditional = true
        case .chinese: toTraditional = false
        default: return text
        }
        guard text.unicodeScalars.contains(where: { $0.value >= 0x3400 }) else { return text }
        var changed = false
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            let t = toTraditional ? (traditional[s.value] ?? s) : simplified.simplified(s)
            if t != s { changed = true }
            out.append(t)
        }
        return changed ? String(out) : text
    }
}

/// Chinese text drawn in the reader's script (issue 33 #1): a reader of Traditional Chinese gets
/// Simplified text converted to Traditional, a reader of Simplified gets Traditional converted
/// to Simplified, and text already in the reader's script is left exactly as written.
///
/// The conversions themselves come from the shell (OpenCC's phrase dictionaries, through
/// `ScriptConversion`): 头发 becomes 頭髮 and 皇后 stays 皇后, which no character table can
/// do. What this type decides is *where* to convert, one stretch of Chinese at a time:
///
/// - A stretch is Chinese characters and the punctuation between them (`·` included, so a
///   transliterated name is one stretch); anything else (Latin letters, digits, spaces, box
///   lines) ends it.
/// - A stretch is converted only if it has a character that exists in the other script only
///   (`sourceOnly`) and none that exists in the reader's script only (`readerOnly`): 天空卻彷彿
///   (卻 is Traditional only) and 赫特勞德·范·阿塞爾 (勞, 爾) are left alone for a Traditional
///   reader, though a converter would turn 彷 into 徬 or 范 into 範.
/// - A stretch with both is split at its full-width punctuation (a Traditional label and
///   Simplified content, "藝術家：张三"), and each part decided alone; a part that still has
///   both is left as written.
/// - A conversion that changes the number of characters, or the width of one, is not used
///   (the frame's cells and click targets stay where they are).
///
/// "Only in one script" leaves out the characters that are also written as themselves in the
/// other script (范, 后, 干, 里: OpenCC lists them among their own candidates), so a name such
/// as 范 does not make a Traditional text look Simplified.
public struct ReadersScript: Sendable, Equatable {
    /// What this conversion is (for `==`: two values of one name convert alike).
    public let name: String
    let toTraditional: @Sendable (String) -> String
    let toSimplified: @Sendable (String) -> String
    /// Characters found only in Simplified text, and only in Traditional text.
    let simplifiedOnly: Set<UInt32>
    let traditionalOnly: Set<UInt32>

    public init(
        name: String, toTraditional: @escaping @Sendable (String) -> String, toSimplified: @escaping @Sendable (String) -> String,
        simplifiedOnly: Set<UInt32>, traditionalOnly: Set<UInt32>
    ) {
        self.name = name
        self.toTraditional = toTraditional
        self.toSimplified = toSimplified
        self.simplifiedOnly = simplifiedOnly
        self.traditionalOnly = traditionalOnly
    }

    /// Character tables only (tests, and a fallback): each key is a character of one script only.
    public static func characters(traditional: [Character: Character], simplified: [Character: Character]) -> ReadersScript {
        func map(_ table: [Character: Character]) -> @Sendable (String) -> String { { String($0.map { table[$0] ?? $0 }) } }
        func scalars(_ keys: Dictionary<Character, Character>.Keys) -> Set<UInt32> { Set(keys.compactMap { $0.unicodeScalars.first?.value }) }
        return ReadersScript(
            name: "characters \(traditional.count)/\(simplified.count)", toTraditional: map(traditional), toSimplified: map(simplified),
            simplifiedOnly: scalars(traditional.keys), traditionalOnly: scalars(simplified.keys))
    }

    public static func == (a: ReadersScript, b: ReadersScript) -> Bool {
        a.name == b.name && a.simplifiedOnly == b.simplifiedOnly && a.traditionalOnly == b.traditionalOnly
    }

    /// `text` as a reader of `language` should see it (unchanged for other languages, and the
    /// same string back when nothing changes).
    public func convert(_ text: String, for language: Language) -> String {
        let toTraditional: Bool
        switch language {
        case .traditionalChinese: toTraditional = true
        case .chinese: toTraditional = false
        default: return text
        }
        guard text.unicodeScalars.contains(where: { $0.value >= 0x2E80 }) else { return text }
        let chars = Array(text)
        var out = chars
        var changed = false
        var start: Int?
        for i in 0...chars.count {
            if i < chars.count, Self.isChinese(chars[i]) {
                if start == nil { start = i }
                continue
            }
            guard let s = start else { continue }
            start = nil
            if let converted = convertStretch(chars[s..<i], toTraditional: toTraditional) {
                out.replaceSubrange(s..<i, with: converted)
                changed = true
            }
        }
        return changed ? String(out) : text
    }

    /// One stretch converted, or nil to leave it as written.
    func convertStretch(_ part: ArraySlice<Character>, toTraditional trad: Bool) -> [Character]? {
        let source = trad ? simplifiedOnly : traditionalOnly
        let reader = trad ? traditionalOnly : simplifiedOnly
        func has(_ set: Set<UInt32>, _ p: ArraySlice<Character>) -> Bool {
            p.contains { c in c.unicodeScalars.contains { set.contains($0.value) } }
        }
        guard has(source, part) else { return nil }
        if has(reader, part) {
            // Both scripts: decide each part between full-width punctuation on its own.
            var result = Array(part)
            var any = false
            var from = part.startIndex
            for i in part.startIndex...part.endIndex where i == part.endIndex || Self.isBreak(part[i]) {
                if from < i, i - from < part.count, let c = convertStretch(part[from..<i], toTraditional: trad) {
                    result.replaceSubrange((from - part.startIndex)..<(i - part.startIndex), with: c)
                    any = true
                }
                from = i + 1
            }
            return any ? result : nil
        }
        let converted = Array((trad ? toTraditional : toSimplified)(String(part)))
        guard converted.count == part.count, zip(converted, part).allSatisfy({ TextWidth.width(of: $0) == TextWidth.width(of: $1) }) else { return nil }
        return converted == Array(part) ? nil : converted
    }

    /// Chinese characters, CJK punctuation and full-width forms, and the middle dots that join
    /// a transliterated name.
    static func isChinese(_ c: Character) -> Bool {
        guard let v = c.unicodeScalars.first?.value else { return false }
        return v >= 0x2E80 && !(0xAC00...0xD7AF).contains(v) && !(0x3040...0x30FA).contains(v) || v == 0xB7 || v == 0x2027 || v == 0x30FB
    }

    /// Full-width punctuation that separates a label from content, or one phrase from the next.
    static func isBreak(_ c: Character) -> Bool {
        guard let v = c.unicodeScalars.first?.value else { return false }
        return (0x3000...0x303F).contains(v) || (0xFF01...0xFF0F).contains(v) || (0xFF1A...0xFF20).contains(v)
    }
}

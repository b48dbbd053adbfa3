/// The key help (`?`): sections of key/meaning pairs, the keys of what is on screen first
/// (a running tour, a loaded recording), then those that work everywhere; one column of keys
/// aligned by display width, so Chinese meanings line up as English ones do.
public struct HelpSection: Equatable, Sendable {
    public var title: String
    public var lines: [Line]

    public struct Line: Equatable, Sendable {
        public var keys: String
        public var meaning: String
    }

    /// From a translated table: one pair a line, keys and meaning separated by a tab (a line
    /// without a tab is all meaning).
    public init(title: String, table: String) {
        self.title = title
        lines = table.split(separator: "\n", omittingEmptySubsequences: true).map { line in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 ? Line(keys: String(parts[0]), meaning: String(parts[1])) : Line(keys: "", meaning: String(line))
        }
    }

    /// The sections as the help box's text: a title line each, then the pairs, the keys padded
    /// to the widest (at most `maxKeys` cells; a wider key has its meaning after two spaces).
    /// A pair that does not fit in `width` cells puts its meaning on the next line, indented,
    /// so a narrow terminal never breaks a meaning under the keys' column.
    public static func text(_ sections: [HelpSection], maxKeys: Int = 22, width: Int = .max) -> String {
        let keyWidth = min(maxKeys, sections.flatMap(\.lines).map { TextWidth.width($0.keys) }.max() ?? 0)
        var out: [String] = []
        for (i, section) in sections.enumerated() {
            if i > 0 { out.append("") }
            if sections.count > 1 { out.append(section.title) }
            for l in section.lines {
                let pad = max(0, keyWidth - TextWidth.width(l.keys))
                let line = l.keys + String(repeating: " ", count: pad) + "  " + l.meaning
                if TextWidth.width(line) <= width || l.keys.isEmpty {
                    out.append(line)
                } else {
                    out.append(l.keys)
                    // No-break spaces: the box's wrapper keeps them. The meaning is wrapped here
                    // to the room beside them, so each of its lines is indented (a Korean meaning
                    // at 40 columns took two lines, the second at the box's edge, issue 47).
                    let indent = "\u{00A0}\u{00A0}\u{00A0}\u{00A0}"
                    let room = width == .max ? Int.max : max(1, width - 4)
                    for part in room == .max ? [l.meaning] : Wrap.lines(l.meaning, width: room) { out.append(indent + part) }
                }
            }
        }
        return out.joined(separator: "\n")
    }

    /// What `?` shows now: the features' sections for what is on screen, then the keys that
    /// work everywhere.
    public static func current(_ state: AppState) -> [HelpSection] {
        let sections = state.features.views(.help).compactMap { $0.help(state) } + [HelpSection(title: state.strings(.helpSectionGeneral), table: state.strings(.helpKeys))]
        return state.features.views(.hints).reduce(sections) { sections, e in sections.map { e.filterHelp($0, state) } }
    }
}

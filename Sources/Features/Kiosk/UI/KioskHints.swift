import DocentCore

/// What a kiosk does not offer is not advertised: while visitors cannot quit (kiosk mode,
/// until staff give the code), the hint line and the key help leave out `q` and Ctrl-C
/// (issue 33 #3: the line ended "q quit" and the help listed "q, Ctrl-C quit", both dead keys).
public enum KioskHints {
    /// The keys that quit, as the hint lines and the help's key column write them in every
    /// language (only the words after them are translated).
    static let quitKeys: Set<Substring> = ["q", "Ctrl-C"]

    public static func quitHidden(_ state: KioskState) -> Bool { !KioskFeature.allowsQuit(state) }

    /// `hints` ("key word · key word · …") without the segments whose key quits.
    public static func hints(_ hints: String, _ state: KioskState) -> String {
        guard quitHidden(state) else { return hints }
        return hints.components(separatedBy: " · ").filter { !quits(segmentKey($0)) }.joined(separator: " · ")
    }

    /// A help section without the rows whose keys quit.
    public static func section(_ section: HelpSection, _ state: KioskState) -> HelpSection {
        guard quitHidden(state) else { return section }
        var s = section
        s.lines.removeAll { quits(Substring($0.keys)) }
        return s
    }

    /// A hint segment's key: up to its first space ("Ctrl-C quit" → "Ctrl-C").
    static func segmentKey(_ segment: String) -> Substring {
        let s = segment.drop { $0 == " " }
        return s.prefix { $0 != " " }
    }

    /// Whether every key named ("q, Ctrl-C", "q、Ctrl-C", "Ctrl-C") quits.
    static func quits(_ key: Substring) -> Bool {
        let names = key.split(whereSeparator: { ", 、，".contains($0) })
        return !names.isEmpty && names.allSatisfy { quitKeys.contains($0) }
    }
}

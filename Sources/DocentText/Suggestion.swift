/// "Did you mean …?" for a mistyped key (in DocentText, below both the guide's configuration
/// and the Pulse service's settings, which links no guide target).
public enum Suggestion {
    /// The known key closest to a mistyped one (one edit for 4 characters or fewer, else two),
    /// or nil: the guide's configuration and `docent-pulse`'s settings say "did you mean".
    public static func closest(to key: String, among known: Set<String>) -> String? {
        let typed = Array(key.lowercased())
        let limit = typed.count <= 4 ? 1 : 2
        let scored = known.map { ($0, editDistance(typed, Array($0))) }.filter { $0.1 <= limit }
        return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// Levenshtein distance with adjacent swaps counted as one edit ("langauge" → "language").
    /// Written out here: a dozen lines, for a handful of short keys, once per start.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}

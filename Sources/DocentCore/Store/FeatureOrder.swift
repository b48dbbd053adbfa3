/// The order features go in where several take part in one thing (who hears a moment first,
/// whose key wins, whose rows come first), from the relations they state: `Feature.after` and
/// `Feature.before`, between features, never a priority number. Built with the registry, it
/// fails on a cycle; `sorted(_:for:)` fails when two features taking part in one capability
/// are left unordered (neither is stated before the other, directly or through others), so an
/// order is never the registry list's by accident.
struct FeatureOrder: Sendable {
    /// Every feature registered or named in a relation, by id (a relation through a feature
    /// this guide lacks still orders the two it joins).
    private let index: [FeatureID: Int]
    /// `reach[a][b]`: `a` goes before `b`, directly or through others.
    private let reach: [[Bool]]
    /// Each feature's place in one order that keeps every relation.
    private let rank: [Int]

    init() {
        index = [:]
        reach = []
        rank = []
    }

    init(_ features: [AnyFeature]) throws(RegistryError) {
        var ids: [FeatureID] = []
        var index: [FeatureID: Int] = [:]
        func node(_ id: FeatureID) -> Int {
            if let i = index[id] { return i }
            index[id] = ids.count
            ids.append(id)
            return ids.count - 1
        }
        for f in features { _ = node(f.id) }
        var edges: [(Int, Int)] = []
        for f in features {
            let me = node(f.id)
            for a in f.after { edges.append((node(a), me)) }
            for b in f.before { edges.append((me, node(b))) }
        }
        let n = ids.count
        var next = Array(repeating: [Int](), count: n)
        var prev = Array(repeating: [Int](), count: n)
        for (a, b) in edges where !next[a].contains(b) {
            if a == b { throw RegistryError("\(ids[a]) is stated before itself") }
            next[a].append(b)
            prev[b].append(a)
        }
        // Kahn's order, the lowest index first among those ready.
        var waiting = prev.map(\.count)
        var ready = (0..<n).filter { waiting[$0] == 0 }
        var order: [Int] = []
        while let v = ready.min() {
            ready.removeAll { $0 == v }
            order.append(v)
            for w in next[v] {
                waiting[w] -= 1
                if waiting[w] == 0 { ready.append(w) }
            }
        }
        if order.count < n {
            // Every feature left waits for another left: walk back until one comes again.
            var path = [(0..<n).first { waiting[$0] > 0 }!]
            while true {
                let v = path.last!
                let u = prev[v].first { waiting[$0] > 0 }!
                if let start = path.firstIndex(of: u) {
                    let cycle = Array(path[start...].reversed())
                    let names = (cycle + [cycle[0]]).map { ids[$0].rawValue }
                    throw RegistryError("the features' order is a cycle: \(names.joined(separator: " before "))")
                }
                path.append(u)
            }
        }
        var rank = Array(repeating: 0, count: n)
        for (r, v) in order.enumerated() { rank[v] = r }
        var reach = Array(repeating: Array(repeating: false, count: n), count: n)
        for v in order.reversed() {
            for w in next[v] {
                reach[v][w] = true
                for x in 0..<n where reach[w][x] { reach[v][x] = true }
            }
        }
        self.index = index
        self.reach = reach
        self.rank = rank
    }

    /// `ids` (features of this registry taking part in `capability`) first first; an error
    /// when two of them are not ordered by the relations.
    func sorted(_ ids: [FeatureID], for capability: String) throws(RegistryError) -> [FeatureID] {
        let s = ids.sorted { rank[index[$0]!] < rank[index[$1]!] }
        for (a, b) in zip(s, s.dropFirst()) where !reach[index[a]!][index[b]!] {
            throw RegistryError("\(a) and \(b) both take part in \(capability) and neither is stated before the other: say which goes first")
        }
        return s
    }

    /// `ids` in an order that keeps every relation, unchecked (the listeners of all moments
    /// together, each moment's own being checked).
    func ranked(_ ids: [FeatureID]) -> [FeatureID] { ids.sorted { rank[index[$0]!] < rank[index[$1]!] } }
}

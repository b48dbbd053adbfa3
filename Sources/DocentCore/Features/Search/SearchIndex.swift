/// The groups of results, in the order the screen shows them (the seed app's filter menu).
public enum SearchKind: Int, CaseIterable, Hashable, Sendable {
    case artwork = 0
    case tour = 1
    case exhibition = 2
    /// Galleries, amenities and named places: "On the map".
    case place = 3
}

/// What an indexed document stands for.
public enum SearchTarget: Hashable, Sendable {
    /// An artwork by its CMS id.
    case artwork(Int)
    /// A tour by its id (nid).
    case tour(Int)
    /// An exhibition by its Data Aggregator id.
    case exhibition(Int)
    /// An open gallery by its nid.
    case gallery(Int)
    /// A map annotation (amenity, space, landmark, garden, department) by its nid.
    case annotation(Int)

    public var kind: SearchKind {
        switch self {
        case .artwork: return .artwork
        case .tour: return .tour
        case .exhibition: return .exhibition
        case .gallery, .annotation: return .place
        }
    }
}

/// How well a document matched, best first. A document's tier is its best match over all of
/// its texts: titles and names ("primary") rank above artist lines, galleries and numbers.
public enum SearchTier {
    public static let exactTitle: UInt8 = 0
    public static let exactOther: UInt8 = 1
    public static let titlePrefix: UInt8 = 2
    public static let titleWordPrefix: UInt8 = 3
    public static let otherPrefix: UInt8 = 4
    public static let titleSubstring: UInt8 = 5
    public static let otherSubstring: UInt8 = 6
    /// Not as a phrase, but every word of the query somewhere ("monet water").
    public static let allWords: UInt8 = 7
    static let count = 8
}

/// One result: what it is and how well it matched.
public struct SearchHit: Hashable, Sendable {
    public var target: SearchTarget
    public var tier: UInt8
    public init(_ target: SearchTarget, tier: UInt8) {
        self.target = target
        self.tier = tier
    }
}

/// Something to index: names it is found by ("primary") and other texts (artist, gallery,
/// keypad numbers). `sortTitle` orders equal matches: shorter first, then alphabetically.
public struct SearchDocument: Hashable, Sendable {
    public var target: SearchTarget
    public var primary: [String]
    public var secondary: [String]
    public var sortTitle: String
    public init(_ target: SearchTarget, primary: [String], secondary: [String] = [], sortTitle: String? = nil) {
        self.target = target
        self.primary = primary
        self.secondary = secondary
        self.sortTitle = sortTitle ?? primary.first ?? ""
    }
}

/// Every document matching a query, in rank-order of documents, each packed as
/// `document << 3 | tier`. Kept whole (uncapped) so the next, longer query only has to
/// re-check these.
public struct SearchMatches: Equatable, Sendable {
    /// The folded query these are the matches of.
    public var query: [UInt8]
    public var entries: [UInt32]
    public init(query: [UInt8] = [], entries: [UInt32] = []) {
        self.query = query
        self.entries = entries
    }
}

/// The best results per group, capped, with the full count of each group.
public struct SearchResults: Equatable, Sendable {
    /// Matches per `SearchKind.rawValue`.
    public var counts: [Int]
    /// The best `cap` hits per `SearchKind.rawValue`, best first.
    public var hits: [[SearchHit]]

    public init(counts: [Int] = Array(repeating: 0, count: SearchKind.allCases.count), hits: [[SearchHit]] = Array(repeating: [], count: SearchKind.allCases.count)) {
        self.counts = counts
        self.hits = hits
    }

    public func count(_ kind: SearchKind) -> Int { counts[kind.rawValue] }
    public func hits(_ kind: SearchKind) -> [SearchHit] { hits[kind.rawValue] }
    public var total: Int { counts.reduce(0, +) }
}

/// An in-memory search index, built once per document (pure; no I/O).
///
/// Every text is folded once (`SearchText.fold`) into one byte buffer. Documents are numbered
/// in rank order (shorter titles first), so any list of documents kept in number order is
/// already in tie-break order. For each one- and two-byte gram the index keeps the documents
/// containing it with their best tier for that gram: one- and two-letter queries are answered
/// from those lists without scanning text. Longer queries check the smallest candidate list
/// (the rarest two-byte gram of the query, or the matches of the previous query when the new
/// one extends it) against the text.
public final class SearchIndex: Sendable {
    /// Number of documents.
    public let count: Int
    let text: [UInt8]
    /// Document `d` is `text[starts[d] ..< starts[d + 1]]`; every field begins with a separator
    /// byte: 0 for primary fields, 1 for secondary ones.
    let starts: [Int32]
    /// Where document `d`'s secondary fields begin.
    let secondaryStarts: [Int32]
    let kinds: [UInt8]
    public let targets: [SearchTarget]
    /// CSR offsets into `postings` per gram key (`gramKeyCount + 1` entries), or empty. Keys:
    /// one byte (0…255), two bytes (256 + 16 bits), three bytes hashed into 65 536 buckets
    /// (`trigramBase` + hash; candidates only: their tier bits mean nothing).
    let gramStarts: [Int32]
    let postings: [UInt32]
    /// The museum this index was built from (to know when to rebuild).
    public let source: Museum?
    /// The Traditional → Simplified table its texts were folded with; queries are folded with
    /// it too (`fold`).
    public let variants: ChineseVariants?

    static let trigramBase = 256 + 65536
    static let gramKeyCount = trigramBase + 65536

    @inline(__always) static func trigramKey(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        let x = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
        return trigramBase + Int((x &* 2_654_435_761) >> 16)
    }

    /// Builds the index. `grams` defaults to on for more than 64 documents (tiny indexes, such
    /// as the few exhibitions on view, are simply scanned).
    public init(documents: [SearchDocument], grams: Bool? = nil, source: Museum? = nil, variants: ChineseVariants? = nil) {
        self.source = source
        self.variants = variants
        // Fold every document once into a scratch buffer, in input order; a document's
        // fields are each preceded by a separator (0 primary, 1 secondary).
        var folder = SearchText.Folder(variants: variants)
        var raw: [UInt8] = []
        raw.reserveCapacity(documents.count * 64)
        var rawStarts: [Int] = []
        var rawSecondary: [Int] = []
        var sortKeys: [(start: Int, end: Int)] = []
        var extraKeys: [UInt8] = []
        rawStarts.reserveCapacity(documents.count + 1)
        for d in documents {
            let start = raw.count
            rawStarts.append(start)
            var fieldStarts: [Int] = []
            func add(_ text: String, _ separator: UInt8) {
                let f = folder.fold(text)
                guard !f.isEmpty else { return }
                // Skip a repeated text (amenity synonyms overlap across languages).
                for fs in fieldStarts where raw.count - fs - 1 >= f.count {
                    let end = fs + 1 + f.count
                    if (end == raw.count || raw[end] <= 1), raw[(fs + 1)..<end].elementsEqual(f) { return }
                }
                fieldStarts.append(raw.count)
                raw.append(separator)
                raw += f
            }
            for p in d.primary { add(p, 0) }
            rawSecondary.append(raw.count)
            for t in d.secondary { add(t, 1) }
            // The sort key is the first primary field when it is the sort title (it always is for
            // the guide's documents), else the sort title folded on its own.
            if let first = d.primary.first, first == d.sortTitle, fieldStarts.first == start {
                let end = raw[(start + 1)...].firstIndex { $0 <= 1 } ?? raw.count
                sortKeys.append((start + 1, end))
            } else {
                let f = folder.fold(d.sortTitle)
                sortKeys.append((-1 - extraKeys.count, -1 - extraKeys.count - f.count))
                extraKeys += f
            }
        }
        rawStarts.append(raw.count)
        // Rank order: shorter titles first, then by folded title, then input order.
        let lengths = documents.map { $0.sortTitle.unicodeScalars.count }
        func key(_ i: Int) -> ArraySlice<UInt8> {
            let k = sortKeys[i]
            if k.start >= 0 { return raw[k.start..<k.end] }
            return extraKeys[(-1 - k.start)..<(-1 - k.end)]
        }
        let order = documents.indices.sorted { a, b in
            if lengths[a] != lengths[b] { return lengths[a] < lengths[b] }
            let ka = key(a)
            let kb = key(b)
            if ka != kb { return ka.lexicographicallyPrecedes(kb) }
            return a < b
        }

        var text: [UInt8] = []
        text.reserveCapacity(raw.count)
        var starts: [Int32] = []
        var secondaryStarts: [Int32] = []
        var kinds: [UInt8] = []
        var targets: [SearchTarget] = []
        starts.reserveCapacity(documents.count + 1)
        secondaryStarts.reserveCapacity(documents.count)
        kinds.reserveCapacity(documents.count)
        targets.reserveCapacity(documents.count)
        for i in order {
            let base = text.count
            starts.append(Int32(base))
            secondaryStarts.append(Int32(base + rawSecondary[i] - rawStarts[i]))
            text += raw[rawStarts[i]..<rawStarts[i + 1]]
            let target = documents[i].target
            kinds.append(UInt8(target.kind.rawValue))
            targets.append(target)
        }
        starts.append(Int32(text.count))
        self.count = targets.count
        self.text = text
        self.starts = starts
        self.secondaryStarts = secondaryStarts
        self.kinds = kinds
        self.targets = targets
        if grams ?? (documents.count > 64) {
            (gramStarts, postings) = Self.buildGrams(text: text, starts: starts, secondaryStarts: secondaryStarts)
        } else {
            gramStarts = []
            postings = []
        }
    }

    // MARK: Tiers

    /// The tier of a match of `length` bytes at `p` in document `d` (`text[p]` is not a separator).
    @inline(__always)
    static func tier(_ t: UnsafeBufferPointer<UInt8>, at p: Int, length: Int, end: Int, secondary: Bool) -> UInt8 {
        let prev = t[p - 1]
        let after = p + length
        let fieldStart = prev <= 1
        if fieldStart {
            let fieldEnd = after == end || t[after] <= 1
            if fieldEnd { return secondary ? SearchTier.exactOther : SearchTier.exactTitle }
            return secondary ? SearchTier.otherPrefix : SearchTier.titlePrefix
        }
        let cur = t[p]
        let wordStart: Bool
        if SearchText.isCJKLead(cur) {
            wordStart = true
        } else if prev < 0x80 {
            wordStart = !SearchText.isASCIIAlphanumeric(prev)
        } else {
            wordStart = false
        }
        if wordStart { return secondary ? SearchTier.otherPrefix : SearchTier.titleWordPrefix }
        return secondary ? SearchTier.otherSubstring : SearchTier.titleSubstring
    }

    static func buildGrams(text: [UInt8], starts: [Int32], secondaryStarts: [Int32]) -> ([Int32], [UInt32]) {
        let keys = gramKeyCount
        var gramStarts = [Int32](repeating: 0, count: keys + 1)
        var lastDoc = [Int32](repeating: -1, count: keys)
        let docs = starts.count - 1
        text.withUnsafeBufferPointer { t in
            gramStarts.withUnsafeMutableBufferPointer { counts in
                lastDoc.withUnsafeMutableBufferPointer { last in
                    for d in 0..<docs {
                        let d32 = Int32(d)
                        let end = Int(starts[d + 1])
                        var p = Int(starts[d]) + 1
                        while p < end {
                            let b = t[p]
                            if b > 1 && !SearchText.isContinuation(b) {
                                let k1 = Int(b)
                                if last[k1] != d32 {
                                    last[k1] = d32
                                    counts[k1] += 1
                                }
                                if p + 1 < end, t[p + 1] > 1 {
                                    let k2 = 256 + (Int(b) << 8 | Int(t[p + 1]))
                                    if last[k2] != d32 {
                                        last[k2] = d32
                                        counts[k2] += 1
                                    }
                                    if p + 2 < end, t[p + 2] > 1 {
                                        let k3 = trigramKey(b, t[p + 1], t[p + 2])
                                        if last[k3] != d32 {
                                            last[k3] = d32
                                            counts[k3] += 1
                                        }
                                    }
                                }
                            }
                            p += 1
                        }
                    }
                }
            }
        }
        // Counts to offsets.
        var running: Int32 = 0
        for k in 0..<keys {
            let c = gramStarts[k]
            gramStarts[k] = running
            running += c
        }
        gramStarts[keys] = running
        var postings = [UInt32](repeating: 0, count: Int(running))
        var cursor = gramStarts
        var lastSlot = [Int32](repeating: 0, count: keys)
        for k in 0..<keys { lastDoc[k] = -1 }
        text.withUnsafeBufferPointer { t in
            postings.withUnsafeMutableBufferPointer { post in
                cursor.withUnsafeMutableBufferPointer { cur in
                    lastDoc.withUnsafeMutableBufferPointer { last in
                        lastSlot.withUnsafeMutableBufferPointer { slot in
                            @inline(__always) func add(_ key: Int, _ d: Int32, _ tier: UInt8) {
                                if last[key] != d {
                                    last[key] = d
                                    let s = Int(cur[key])
                                    cur[key] += 1
                                    slot[key] = Int32(s)
                                    post[s] = UInt32(d) << 3 | UInt32(tier)
                                } else {
                                    let s = Int(slot[key])
                                    if UInt32(tier) < post[s] & 7 { post[s] = UInt32(d) << 3 | UInt32(tier) }
                                }
                            }
                            for d in 0..<docs {
                                let d32 = Int32(d)
                                let end = Int(starts[d + 1])
                                let sec = Int(secondaryStarts[d])
                                var p = Int(starts[d]) + 1
                                while p < end {
                                    let b = t[p]
                                    if b > 1 && !SearchText.isContinuation(b) {
                                        let secondary = p >= sec
                                        add(Int(b), d32, tier(t, at: p, length: 1, end: end, secondary: secondary))
                                        if p + 1 < end, t[p + 1] > 1 {
                                            add(256 + (Int(b) << 8 | Int(t[p + 1])), d32, tier(t, at: p, length: 2, end: end, secondary: secondary))
                                            if p + 2 < end, t[p + 2] > 1 { add(trigramKey(b, t[p + 1], t[p + 2]), d32, 0) }
                                        }
                                    }
                                    p += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return (gramStarts, postings)
    }

    // MARK: Queries

    /// `text` folded as this index's texts were (a query, before `matches`).
    public func fold(_ text: some StringProtocol) -> [UInt8] {
        SearchText.fold(text, variants: variants)
    }

    /// Every document matching the folded query `q`. When `previous` holds the matches of a
    /// prefix of `q`, only those are re-checked (if that is the smaller candidate list).
    public func matches(_ q: [UInt8], refining previous: SearchMatches? = nil) -> SearchMatches {
        guard !q.isEmpty, count > 0 else { return SearchMatches(query: q) }
        let hasGrams = !gramStarts.isEmpty
        if hasGrams, q.count <= 2, !SearchText.isContinuation(q[0]), q.allSatisfy({ $0 > 1 }) {
            let key = q.count == 1 ? Int(q[0]) : 256 + (Int(q[0]) << 8 | Int(q[1]))
            return SearchMatches(query: q, entries: Array(postings[Int(gramStarts[key])..<Int(gramStarts[key + 1])]))
        }
        // Several words: a document matches the phrase or, failing that, every word.
        let words = SearchText.words(q).map { ($0.startIndex - q.startIndex)..<($0.endIndex - q.startIndex) }
        // Candidates: the rarest two-byte gram or three-byte bucket of the query, or the
        // previous matches. With several words, only grams inside one word: every match
        // contains each word.
        var gramRange: Range<Int>?
        if hasGrams {
            func consider(_ key: Int) {
                let r = Int(gramStarts[key])..<Int(gramStarts[key + 1])
                if gramRange.map({ r.count < $0.count }) ?? true { gramRange = r }
            }
            for w in words {
                if w.count == 1 {
                    if !SearchText.isContinuation(q[w.lowerBound]) { consider(Int(q[w.lowerBound])) }
                    continue
                }
                for i in w.lowerBound..<(w.upperBound - 1) where !SearchText.isContinuation(q[i]) {
                    consider(i + 2 < w.upperBound ? Self.trigramKey(q[i], q[i + 1], q[i + 2]) : 256 + (Int(q[i]) << 8 | Int(q[i + 1])))
                }
            }
        }
        var usePrevious = false
        // (Not after a trailing space: "s " matched as a phrase, but "s d" may match by words.)
        if let prev = previous, let last = prev.query.last, last != 0x20, q.count > prev.query.count, q.starts(with: prev.query) {
            usePrevious = gramRange.map { prev.entries.count <= $0.count } ?? true
        }
        var out: [UInt32] = []
        text.withUnsafeBufferPointer { t in
            q.withUnsafeBufferPointer { qb in
                @inline(__always) func check(_ d: Int) {
                    var tier = bestTier(t, qb, d)
                    if tier == .max, words.count > 1,
                        words.allSatisfy({ bestTier(t, UnsafeBufferPointer(rebasing: qb[$0]), d) != .max })
                    {
                        tier = SearchTier.allWords
                    }
                    if tier != .max { out.append(UInt32(d) << 3 | UInt32(tier)) }
                }
                if usePrevious, let prev = previous {
                    out.reserveCapacity(prev.entries.count)
                    for e in prev.entries { check(Int(e >> 3)) }
                } else if let r = gramRange {
                    for i in r { check(Int(postings[i] >> 3)) }
                } else {
                    for d in 0..<count { check(d) }
                }
            }
        }
        return SearchMatches(query: q, entries: out)
    }

    /// The best tier of `q` in document `d`, or `UInt8.max` when it does not occur.
    @inline(__always)
    func bestTier(_ t: UnsafeBufferPointer<UInt8>, _ q: UnsafeBufferPointer<UInt8>, _ d: Int) -> UInt8 {
        let end = Int(starts[d + 1])
        let sec = Int(secondaryStarts[d])
        let n = q.count
        let first = q[0]
        var best = UInt8.max
        var p = Int(starts[d]) + 1
        while p + n <= end {
            if t[p] == first {
                var k = 1
                while k < n, t[p + k] == q[k] { k += 1 }
                if k == n {
                    let tier = Self.tier(t, at: p, length: n, end: end, secondary: p >= sec)
                    if tier < best {
                        best = tier
                        if tier == 0 { return 0 }
                    }
                }
            }
            p += 1
        }
        return best
    }

    /// The best `cap` hits of each group (by tier, then rank order) and every group's count.
    public func results(_ m: SearchMatches, cap: Int) -> SearchResults {
        let kindsN = SearchKind.allCases.count
        let tiers = SearchTier.count
        var counts = [Int](repeating: 0, count: kindsN)
        var filled = [Int](repeating: 0, count: kindsN * tiers)
        var slots = [Int32](repeating: 0, count: kindsN * tiers * max(cap, 0))
        if cap > 0 {
            kinds.withUnsafeBufferPointer { kb in
                counts.withUnsafeMutableBufferPointer { cb in
                    filled.withUnsafeMutableBufferPointer { fb in
                        slots.withUnsafeMutableBufferPointer { sb in
                            for e in m.entries {
                                let d = Int(e >> 3)
                                let k = Int(kb[d])
                                cb[k] += 1
                                let b = k * tiers + Int(e & 7)
                                let f = fb[b]
                                if f < cap {
                                    sb[b * cap + f] = Int32(d)
                                    fb[b] = f + 1
                                }
                            }
                        }
                    }
                }
            }
        } else {
            for e in m.entries { counts[Int(kinds[Int(e >> 3)])] += 1 }
        }
        var hits = [[SearchHit]](repeating: [], count: kindsN)
        for k in 0..<kindsN where counts[k] > 0 {
            var list: [SearchHit] = []
            list.reserveCapacity(min(cap, counts[k]))
            tierLoop: for tier in 0..<tiers {
                let b = k * tiers + tier
                for i in 0..<filled[b] {
                    if list.count >= cap { break tierLoop }
                    list.append(SearchHit(targets[Int(slots[b * cap + i])], tier: UInt8(tier)))
                }
            }
            hits[k] = list
        }
        return SearchResults(counts: counts, hits: hits)
    }

    /// Whether document number `d` is among `m` (matches are in document order).
    func contains(_ m: SearchMatches, document d: Int) -> Bool {
        var lo = 0
        var hi = m.entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let v = Int(m.entries[mid] >> 3)
            if v == d { return true }
            if v < d { lo = mid + 1 } else { hi = mid }
        }
        return false
    }

    /// Document numbers by target (for merging live results with local ones).
    public func documentNumbers() -> [SearchTarget: Int] {
        var out: [SearchTarget: Int] = [:]
        out.reserveCapacity(count)
        for (i, t) in targets.enumerated() { out[t] = i }
        return out
    }
}

// MARK: What the guide indexes

extension SearchIndex {
    /// The museum's documents: artworks (title, its commentaries' translated titles and keypad
    /// numbers; artist lines, gallery), tours
    /// (title in every language, keypad number), open galleries and map annotations (amenities
    /// by their names in every UI language, named spaces, landmarks, gardens, departments).
    public static func documents(app: AppData) -> [SearchDocument] {
        var docs: [SearchDocument] = []
        docs.reserveCapacity(app.artworks.count + app.tours.count + app.galleries.count + app.annotations.count)
        for id in app.artworks.keys.sorted() {
            guard let a = app.artworks[id] else { continue }
            var secondary = a.tombstone.split(whereSeparator: \.isNewline).map(String.init)
            secondary.append(a.galleryTitle)
            // Its names in the commentaries' other languages ("港務長肖像"), then its keypad
            // numbers: a number names a work as its title does, so "301" lists the works
            // labelled 301 before the works hanging in Gallery 301 (whose gallery text is
            // "301" too).
            var primary = [a.title]
            for c in a.commentaries {
                guard let audio = app.audioFiles[c.audioID] else { continue }
                for l in audio.translations.keys.sorted() {
                    if let t = audio.translations[l]?.trackTitle, !t.isEmpty, !primary.contains(t) { primary.append(t) }
                }
            }
            primary += a.selectorNumbers.map(String.init)
            docs.append(SearchDocument(.artwork(a.id), primary: primary, secondary: secondary))
        }
        for t in app.tours {
            var primary = [t.english.title]
            for l in t.translations.keys.sorted() { primary.append(t.translations[l]?.title ?? "") }
            if let n = t.selectorNumber { primary.append(String(n)) }
            docs.append(SearchDocument(.tour(t.id), primary: primary, sortTitle: t.english.title))
        }
        for g in app.galleries.values.sorted(by: { $0.id < $1.id }) where !g.closed {
            var primary = [g.title]
            if g.displayTitle != g.title {
                let n = g.displayTitle
                primary += [n, "Galería \(n)", "Sala \(n)", "\(n)号展厅", "\(n)號展廳"]
            }
            docs.append(SearchDocument(.gallery(g.id), primary: primary, secondary: ["Floor \(g.floor.label)"], sortTitle: g.title))
        }
        for n in app.annotations.sorted(by: { $0.id < $1.id }) {
            let label = n.label.split(whereSeparator: \.isNewline).joined(separator: " ")
            switch n.kind {
            case .amenity(let type):
                let names = AmenityNames.allNames(type)
                docs.append(SearchDocument(.annotation(n.id), primary: (label.isEmpty ? [] : [label]) + names, sortTitle: label.isEmpty ? AmenityNames.name(type, .english) : label))
            case .landmark, .garden, .space, .department:
                guard !label.isEmpty else { continue }
                docs.append(SearchDocument(.annotation(n.id), primary: [label]))
            }
        }
        return docs
    }

    /// The museum's index; `variants` folds Traditional Chinese to Simplified.
    public convenience init(app: AppData, source: Museum? = nil, variants: ChineseVariants? = nil) {
        self.init(documents: Self.documents(app: app), source: source, variants: variants)
    }

    /// The museum's index, asking for the Chinese table only when something in it is written in
    /// Chinese characters: without them no query can match through the table, and building it
    /// (ICU, 0.1 s and megabytes of its data) is saved for the museums that do not need it.
    public convenience init(app: AppData, source: Museum? = nil, variantsWhenChinese: () -> ChineseVariants?) {
        self.init(documents: Self.documents(app: app), source: source, variants: Self.hasChineseText(app) ? variantsWhenChinese() : nil)
    }

    /// Whether the museum's own texts that the index holds have Chinese characters (the names
    /// the guide adds itself, "301号展厅" or the amenities' names, are written in both scripts
    /// and need no table).
    static func hasChineseText(_ app: AppData) -> Bool {
        for a in app.artworks.values where hasHan(a.title) || hasHan(a.tombstone) || hasHan(a.galleryTitle) { return true }
        for audio in app.audioFiles.values {
            for v in audio.translations.values where hasHan(v.trackTitle) { return true }
        }
        for t in app.tours {
            if hasHan(t.english.title) || t.translations.values.contains(where: { hasHan($0.title) }) { return true }
        }
        return app.galleries.values.contains { hasHan($0.title) || hasHan($0.displayTitle) } || app.annotations.contains { hasHan($0.label) }
    }

    /// Whether `text` has a character of the blocks the Chinese table folds (CJK ideographs).
    static func hasHan(_ text: String) -> Bool {
        // Every such character is U+3400 or above, whose UTF-8 starts with E3 or more: text
        // without such a byte (most of a museum's) is not looked at scalar by scalar.
        guard text.utf8.contains(where: { $0 >= 0xE3 }) else { return false }
        return text.unicodeScalars.contains { s in
            let v = s.value
            return (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xF900...0xFAFF).contains(v) || (0x20000...0x2A6DF).contains(v)
        }
    }

    /// An index of the exhibitions on view (a handful: scanned, no grams).
    public convenience init(exhibitions: [Exhibition], variants: ChineseVariants? = nil) {
        self.init(documents: exhibitions.map { SearchDocument(.exhibition($0.id), primary: [$0.title]) }, grams: false, variants: variants)
    }
}

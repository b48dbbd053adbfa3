/// The groups of results, in the order the screen shows them (the seed app's filter menu).
public enum SearchKind: Int, CaseIterable, Hashable, Sendable {
    case artwork = 0
    case tour = 1
    case exhibition = 2
    /// The museum's events (Home's list): found by their titles (issue 47 #8).
    case event = 4
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
    /// An event by its feed's id.
    case event(String)
    /// An open gallery by its nid.
    case gallery(Int)
    /// A map annotation (amenity, space, landmark, garden, department) by its nid.
    case annotation(Int)

    public var kind: SearchKind {
        switch self {
        case .artwork: return .artwork
        case .tour: return .tour
        case .exhibition: return .exhibition
        case .event: return .event
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
    /// Every word as typed (or a word it begins), some only in a commentary's transcript
    /// ("tapiz": the Spanish commentaries of two tapestries).
    public static let words: UInt8 = 8
    /// Every word as typed or by its stem (or a spelling variant) in a name ("teapots": Teapot
    /// in the Form of a Fish; "harbor": Harbour at First Light).
    public static let stemName: UInt8 = 9
    /// The same, anywhere (commentaries included).
    public static let stem: UInt8 = 10
    /// Some word only with a typo, in a name ("portriat", "lighthose").
    public static let typoName: UInt8 = 11
    /// The same, anywhere.
    public static let typo: UInt8 = 12
    static let count = 13
}

/// One result: what it is and how well it matched.
public struct SearchHit: Hashable, Sendable {
    public var target: SearchTarget
    public var tier: UInt8
    /// The language of the text that matched, when it is not what the result shows anyway (a
    /// commentary's translated title or transcript, a tour's title in another language).
    public var language: Language?
    public init(_ target: SearchTarget, tier: UInt8, language: Language? = nil) {
        self.target = target
        self.tier = tier
        self.language = language
    }
}

/// Something to index: names it is found by ("primary") and other texts (artist, gallery,
/// keypad numbers; each line of a secondary text is a field of its own). `sortTitle` orders
/// equal matches: shorter first, then alphabetically.
public struct SearchDocument: Hashable, Sendable {
    public var target: SearchTarget
    public var primary: [String]
    public var secondary: [String]
    public var sortTitle: String
    /// The language of each primary text, where it is one the result does not show anyway (a
    /// commentary's Spanish title); nil (or missing) for the rest.
    public var primaryLanguages: [Language?]
    /// Long texts found by their words only (not as phrases): the commentaries' transcripts, in
    /// their languages, read one at a time while the index is built.
    public var transcripts: [AudioVersion]
    public init(
        _ target: SearchTarget, primary: [String], secondary: [String] = [], sortTitle: String? = nil, primaryLanguages: [Language?] = [],
        transcripts: [AudioVersion] = []
    ) {
        self.target = target
        self.primary = primary
        self.secondary = secondary
        self.sortTitle = sortTitle ?? primary.first ?? ""
        self.primaryLanguages = primaryLanguages
        self.transcripts = transcripts
    }
}

/// Every document matching a query, in rank-order of documents, each packed as
/// `document << SearchIndex.tierBits | tier`. Kept whole (uncapped) so the next, longer query only has to
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
    /// Every word of every text, for stems, spelling variants, typos and transcripts.
    let words: SearchWords
    /// Whether `words` has the transcripts' words (an index built with `transcripts: false` has
    /// only the names' and other texts' until `addingTranscriptWords`).
    public let transcriptsIndexed: Bool
    /// What the transcripts' words are still to be read from (an index built with
    /// `transcripts: false`), flat and in rank order, so that the documents themselves need not
    /// live on while they are read; nil once they are in.
    let pending: WordSources?
    /// The language slot (`SearchWords.slotLanguages`) of each field of document `d`:
    /// `fieldSlots[fieldSlotStarts[d] ..< fieldSlotStarts[d + 1]]`, in the order of its text.
    let fieldSlots: [UInt8]
    let fieldSlotStarts: [Int32]

    /// Matches are packed `document << tierBits | tier`.
    public static let tierBits: UInt32 = 4
    static let tierMask: UInt32 = 15

    /// From how many transcripts their words are worth a second core (`both`).
    static let wordsOnTwoCores = 256

    static let trigramBase = 256 + 65536
    static let gramKeyCount = trigramBase + 65536

    @inline(__always) static func trigramKey(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        let x = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
        return trigramBase + Int((x &* 2_654_435_761) >> 16)
    }

    /// Builds the index. `grams` defaults to on for more than 64 documents (tiny indexes, such
    /// as the few exhibitions on view, are simply scanned). With `both` (a second core), the
    /// words of many transcripts are read in two halves at once; the index is the same.
    public init(
        documents input: consuming [SearchDocument], grams: Bool? = nil, source: Museum? = nil, variants: ChineseVariants? = nil, stemmer: (any WordStemming)? = nil,
        words: Bool = true, transcripts: Bool = true, both: ReadOptions.Both? = nil
    ) {
        var documents = input
        self.source = source
        self.transcriptsIndexed = words && transcripts
        self.variants = variants
        var wordBuilder = SearchWords.Builder(variants: variants)
        var rawSlots: [[UInt8]] = []
        rawSlots.reserveCapacity(documents.count)
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
        // Each document is let go once folded (the caller hands them over: they were the
        // build's largest transient, issue 30): what is still needed of it is kept flat.
        let documentCount = documents.count
        var lengths: [Int] = []
        lengths.reserveCapacity(documentCount)
        var inputTargets: [SearchTarget] = []
        inputTargets.reserveCapacity(documentCount)
        var inputSources = WordSources(reserving: documents)
        for i in 0..<documentCount {
            let d = documents[i]
            documents[i] = SearchDocument(d.target, primary: [])
            lengths.append(d.sortTitle.unicodeScalars.count)
            inputTargets.append(d.target)
            inputSources.append(d)
            let start = raw.count
            rawStarts.append(start)
            var fieldStarts: [Int] = []
            var slots: [UInt8] = []
            func add(_ text: String, _ separator: UInt8, _ slot: UInt8) {
                let f = folder.fold(text)
                guard !f.isEmpty else { return }
                // Skip a repeated text (amenity synonyms overlap across languages).
                for fs in fieldStarts where raw.count - fs - 1 >= f.count {
                    let end = fs + 1 + f.count
                    if (end == raw.count || raw[end] <= 1), raw[(fs + 1)..<end].elementsEqual(f) { return }
                }
                fieldStarts.append(raw.count)
                slots.append(slot)
                raw.append(separator)
                raw += f
            }
            for (k, p) in d.primary.enumerated() { add(p, 0, wordBuilder.slot(k < d.primaryLanguages.count ? d.primaryLanguages[k] : nil)) }
            rawSecondary.append(raw.count)
            // A secondary text's lines are fields of their own (an artwork's tombstone is kept
            // whole in its document, not as a string per line: the documents live through the
            // whole build, and per-line strings were most of their memory).
            for t in d.secondary {
                if t.utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 11 || $0 == 12 || $0 >= 0x80 }) {
                    for line in t.split(whereSeparator: \.isNewline) { add(String(line), 1, 0) }
                } else {
                    add(t, 1, 0)
                }
            }
            rawSlots.append(slots)
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
        documents = []
        // Rank order: shorter titles first, then by folded title, then input order.
        func key(_ i: Int) -> ArraySlice<UInt8> {
            let k = sortKeys[i]
            if k.start >= 0 { return raw[k.start..<k.end] }
            return extraKeys[(-1 - k.start)..<(-1 - k.end)]
        }
        let order = (0..<documentCount).sorted { a, b in
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
            let target = inputTargets[i]
            kinds.append(UInt8(target.kind.rawValue))
            targets.append(target)
        }
        starts.append(Int32(text.count))
        var fieldSlots: [UInt8] = []
        var fieldSlotStarts: [Int32] = [0]
        for i in order {
            fieldSlots += rawSlots[i]
            fieldSlotStarts.append(Int32(fieldSlots.count))
        }
        // The folded texts in input order are copied into rank order: let them go before the
        // words are added (the build's peak memory, issue 30).
        raw = []
        rawStarts = []
        rawSecondary = []
        rawSlots = []
        sortKeys = []
        extraKeys = []
        // The words: names and other texts, and (unless `transcripts` is off) the transcripts.
        // Without the transcripts (the half that makes search usable), the names' words and the
        // grams are built at once on two cores when there are two.
        // The texts the words are read from, flat and in rank order.
        let sources = inputSources.inRankOrder(order)
        inputSources = WordSources()
        let wantGrams = grams ?? (documentCount > 64)
        var builtWords: SearchWords?
        var builtGrams: (starts: [Int32], postings: [UInt32]) = ([], [])
        func makeWords() {
            builtWords =
                words
                ? Self.buildWords(sources, builder: wordBuilder, stemmer: stemmer, transcripts: transcripts, both: transcripts ? both : nil)
                : wordBuilder.build(count: 0, stemmer: nil)
        }
        func makeGrams() {
            if wantGrams { builtGrams = Self.buildGrams(text: text, starts: starts, secondaryStarts: secondaryStarts) }
        }
        if let both, words, wantGrams, !transcripts {
            both(makeWords, makeGrams)
        } else {
            makeWords()
            makeGrams()
        }
        self.pending = words && !transcripts ? sources : nil
        self.words = builtWords!
        self.fieldSlots = fieldSlots
        self.fieldSlotStarts = fieldSlotStarts
        self.count = targets.count
        self.text = text
        self.starts = starts
        self.secondaryStarts = secondaryStarts
        self.kinds = kinds
        self.targets = targets
        (gramStarts, postings) = builtGrams
    }

    /// The index of the same documents with the transcripts' words added: the second half of a
    /// build made with `transcripts: false` (search is usable with the names' words while these
    /// are read). The result is the index one build with `transcripts: true` makes (`digest`
    /// equal); an index that has them already is returned as it is.
    public func addingTranscriptWords(stemmer: (any WordStemming)?, both: ReadOptions.Both? = nil) -> SearchIndex {
        guard let pending else { return self }
        var builder = SearchWords.Builder(variants: variants)
        // The slots as the first build numbered them before its words: the fields' languages
        // (`fieldSlots` refers to them), then the transcripts', in rank order.
        builder.slots = words.slotLanguages
        let full = Self.buildWords(pending, builder: builder, stemmer: stemmer, transcripts: true, both: both)
        return SearchIndex(self, words: full)
    }

    /// This index with other words (everything else shared, not copied).
    init(_ other: SearchIndex, words: SearchWords) {
        count = other.count
        text = other.text
        starts = other.starts
        secondaryStarts = other.secondaryStarts
        kinds = other.kinds
        targets = other.targets
        gramStarts = other.gramStarts
        postings = other.postings
        source = other.source
        variants = other.variants
        fieldSlots = other.fieldSlots
        fieldSlotStarts = other.fieldSlotStarts
        pending = nil
        transcriptsIndexed = true
        self.words = words
    }

    /// The words of the documents (`sources`, in rank order), names and other texts, then (with
    /// `transcripts`) the transcripts, read one at a time (a mapped appData's or prepared copy's
    /// pages are let go every megabyte, as the copy's reader does, and every 8 transcripts: rank
    /// order is not the file's, and the kernel maps up to 64 KB of cached pages around each page
    /// a transcript touches, so a megabyte of transcripts held some 50 MB of the file in the
    /// guide's memory, and 64 of them, on two cores, 10 MB of the guide's peak). `builder` comes
    /// with the fields' language slots numbered.
    static func buildWords(
        _ sources: WordSources, builder: SearchWords.Builder, stemmer: (any WordStemming)?, transcripts: Bool, both: ReadOptions.Both?
    ) -> SearchWords {
        var wordBuilder = builder
        // Each language of a transcript has its slot before the words are added, numbered as
        // they are met in rank order (so both halves below, and both phases, number them alike).
        let slots = sources.languages.map { wordBuilder.slot($0) }
        func addWords(_ b: inout SearchWords.Builder, _ range: Range<Int>) {
            var sinceLetGo = 0
            var transcriptsSince = 0
            var last: TranscriptSource?
            for d in range {
                b.startDocument(d)
                for k in sources.names(d) { b.add(sources.names[k], slot: b.slot(sources.nameLanguages[k]), inName: true) }
                for k in sources.others(d) { b.add(sources.others[k], slot: 0, inName: false) }
                guard transcripts else { continue }
                for k in sources.transcripts(d) {
                    let v = sources.transcripts[k]
                    let slot = slots[Int(sources.transcriptLanguages[k])]
                    // Its bytes where they lie when they need no cleaning (no `String` made).
                    sinceLetGo += v.withUTF8 { utf8 in
                        b.addWords(utf8, slot: slot, inName: false)
                        return utf8.count
                    }
                    last = v
                    transcriptsSince += 1
                    if sinceLetGo >= 1 << 20 || transcriptsSince >= 8 {
                        v.letSourceGo()
                        sinceLetGo = 0
                        transcriptsSince = 0
                    }
                }
            }
            if sinceLetGo > 0 { last?.letSourceGo() }
        }
        let count = sources.count
        wordBuilder.documentCount = count
        let transcriptCount = sources.transcripts.count
        if transcripts, let both, transcriptCount >= Self.wordsOnTwoCores {
            // The documents in two halves of as many transcripts each, on two cores; the
            // second half's words then follow the first's (its documents come after).
            var mid = 0
            while mid < count, Int(sources.transcriptStarts[mid]) * 2 < transcriptCount { mid += 1 }
            var second = SearchWords.Builder(variants: wordBuilder.variants)
            second.slots = wordBuilder.slots
            second.documentCount = count
            both({ addWords(&wordBuilder, 0..<mid) }, { addWords(&second, mid..<count) })
            wordBuilder.append(&second)
        } else {
            addWords(&wordBuilder, 0..<count)
        }
        return wordBuilder.build(count: count, stemmer: stemmer)
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
                                    post[s] = UInt32(d) << SearchIndex.tierBits | UInt32(tier)
                                } else {
                                    let s = Int(slot[key])
                                    if UInt32(tier) < post[s] & SearchIndex.tierMask { post[s] = UInt32(d) << SearchIndex.tierBits | UInt32(tier) }
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
                    if tier != .max { out.append(UInt32(d) << SearchIndex.tierBits | UInt32(tier)) }
                }
                if usePrevious, let prev = previous {
                    out.reserveCapacity(prev.entries.count)
                    for e in prev.entries { check(Int(e >> SearchIndex.tierBits)) }
                } else if let r = gramRange {
                    for i in r { check(Int(postings[i] >> SearchIndex.tierBits)) }
                } else {
                    for d in 0..<count { check(d) }
                }
            }
        }
        if Self.wantsWords(q) { out = Self.merge(out, self.words.matches(q)) }
        return SearchMatches(query: q, entries: out)
    }

    /// Whether the words (stems, typos, transcripts) can add anything: a word of three bytes or
    /// more, or Chinese, Japanese or Korean. One or two letters are answered by the texts alone.
    static func wantsWords(_ q: [UInt8]) -> Bool {
        var wants = false
        SearchWords.tokens(q) { w in
            if w.count >= 3 || w.contains(where: { $0 >= 0x80 }) { wants = true }
        }
        return wants
    }

    /// Two match lists in document order as one, each document with its better tier.
    static func merge(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        if b.isEmpty { return a }
        if a.isEmpty { return b }
        var out: [UInt32] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            let da = a[i] >> tierBits
            let db = b[j] >> tierBits
            if da == db {
                out.append(min(a[i], b[j]))
                i += 1
                j += 1
            } else if da < db {
                out.append(a[i])
                i += 1
            } else {
                out.append(b[j])
                j += 1
            }
        }
        out += a[i...]
        out += b[j...]
        return out
    }

    /// The query words' reach, for the languages of word-level hits.
    func languageOfHit(_ d: Int, tier: UInt8, _ q: [UInt8], _ reaches: inout [SearchWords.Reach]?) -> Language? {
        if tier >= SearchTier.words {
            if reaches == nil {
                var keys: [ArraySlice<UInt8>] = []
                SearchWords.tokens(q) { keys.append($0) }
                reaches = keys.enumerated().map { words.reach($0.element, prefix: $0.offset == keys.count - 1) }
            }
            return words.language(of: d, reaches ?? [])
        }
        guard tier != SearchTier.allWords, !q.isEmpty else { return nil }
        // The field where the phrase matched as well as it did.
        let start = Int(starts[d])
        let end = Int(starts[d + 1])
        let sec = Int(secondaryStarts[d])
        var field = -1
        var found: UInt8?
        text.withUnsafeBufferPointer { t in
            var p = start
            while p < end, found == nil {
                if t[p] <= 1 {
                    field += 1
                    p += 1
                    continue
                }
                if p + q.count <= end, t[p] == q[0] {
                    var k = 1
                    while k < q.count, t[p + k] == q[k] { k += 1 }
                    if k == q.count, Self.tier(t, at: p, length: q.count, end: end, secondary: p >= sec) == tier {
                        let f = Int(fieldSlotStarts[d]) + field
                        if f < Int(fieldSlotStarts[d + 1]) { found = fieldSlots[f] }
                    }
                }
                p += 1
            }
        }
        guard let slot = found, slot != 0 else { return nil }
        return words.slotLanguages[Int(slot)]
    }

    /// The indexed words closest to the query's words that match nothing ("did you mean"), as
    /// a query that matches something; nil when there is none.
    public func suggestion(for q: [UInt8]) -> String? {
        var keys: [ArraySlice<UInt8>] = []
        SearchWords.tokens(q) { keys.append($0) }
        guard !keys.isEmpty, keys.count <= 8 else { return nil }
        // Each word as it is when it matches something alone, else its nearest words.
        var choices: [[[UInt8]]] = []
        for (i, key) in keys.enumerated() {
            if !matches(Array(key)).entries.isEmpty || !words.reach(key, prefix: i == keys.count - 1).isEmpty {
                choices.append([Array(key)])
                continue
            }
            let near = words.closest(to: key)
            guard !near.isEmpty else { return nil }
            choices.append(near)
        }
        guard choices.contains(where: { $0.count > 1 || $0.first.map { !keys.contains($0[...]) } ?? false }) else { return nil }
        // The nearest first: one word changed at a time from the first choices, then the next.
        var pick = choices.map { _ in 0 }
        for _ in 0..<16 {
            let fixed = Array(choices.indices.map { choices[$0][pick[$0]] }.joined(separator: [0x20]))
            if !matches(fixed).entries.isEmpty { return String(decoding: fixed, as: UTF8.self) }
            // Move on the word with the most choices left.
            guard let i = choices.indices.filter({ pick[$0] + 1 < choices[$0].count }).max(by: { choices[$0].count - pick[$0] < choices[$1].count - pick[$1] })
            else { return nil }
            pick[i] += 1
        }
        return nil
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
                                let d = Int(e >> SearchIndex.tierBits)
                                let k = Int(kb[d])
                                cb[k] += 1
                                let b = k * tiers + Int(e & SearchIndex.tierMask)
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
            for e in m.entries { counts[Int(kinds[Int(e >> SearchIndex.tierBits)])] += 1 }
        }
        var hits = [[SearchHit]](repeating: [], count: kindsN)
        var reaches: [SearchWords.Reach]?
        for k in 0..<kindsN where counts[k] > 0 {
            var list: [SearchHit] = []
            list.reserveCapacity(min(cap, counts[k]))
            tierLoop: for tier in 0..<tiers {
                let b = k * tiers + tier
                for i in 0..<filled[b] {
                    if list.count >= cap { break tierLoop }
                    let d = Int(slots[b * cap + i])
                    list.append(SearchHit(targets[d], tier: UInt8(tier), language: languageOfHit(d, tier: UInt8(tier), m.query, &reaches)))
                }
            }
            hits[k] = list
        }
        return SearchResults(counts: counts, hits: hits)
    }

    /// Bytes the index keeps (its arrays' elements): the texts and their grams, and the words.
    /// The words' memory, array by array.
    public var wordsMemoryDetail: [(String, Int)] { words.memoryDetail }

    public var memory: (texts: Int, words: Int) {
        let texts = text.count + starts.count * 4 + secondaryStarts.count * 4 + kinds.count + targets.count * MemoryLayout<SearchTarget>.stride
            + gramStarts.count * 4 + postings.count * 4
        return (texts, words.memoryBytes + fieldSlots.count + fieldSlotStarts.count * 4)
    }

    /// Whether document number `d` is among `m` (matches are in document order).
    func contains(_ m: SearchMatches, document d: Int) -> Bool {
        var lo = 0
        var hi = m.entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let v = Int(m.entries[mid] >> SearchIndex.tierBits)
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
            // The tombstone whole (its lines are fields of their own when folded).
            let secondary = [a.tombstone, a.galleryTitle]
            // Its names in the commentaries' other languages ("港務長肖像"), then its keypad
            // numbers: a number names a work as its title does, so "301" lists the works
            // labelled 301 before the works hanging in Gallery 301 (whose gallery text is
            // "301" too).
            var primary = [a.title]
            var languages: [Language?] = [nil]
            // Every commentary's transcript in every language: words only (not phrases).
            var transcripts: [AudioVersion] = []
            for c in a.commentaries {
                guard let audio = app.audioFiles[c.audioID] else { continue }
                transcripts.append(audio.english)
                for l in audio.translations.keys.sorted() {
                    guard let v = audio.translations[l] else { continue }
                    transcripts.append(v)
                    if !v.trackTitle.isEmpty, !primary.contains(v.trackTitle) {
                        primary.append(v.trackTitle)
                        languages.append(l)
                    }
                }
            }
            primary += a.selectorNumbers.map(String.init)
            docs.append(SearchDocument(.artwork(a.id), primary: primary, secondary: secondary, primaryLanguages: languages, transcripts: transcripts))
        }
        for t in app.tours {
            var primary = [t.english.title]
            var languages: [Language?] = [.english]
            for l in t.translations.keys.sorted() {
                primary.append(t.translations[l]?.title ?? "")
                languages.append(l)
            }
            if let n = t.selectorNumber { primary.append(String(n)) }
            // Its theme and its stops, as other texts (issue 47 #8): "harbour" finds the tour
            // whose stops or description speak of one, below the tours named so.
            var secondary = [t.english.description, t.english.intro].filter { !$0.isEmpty }
            secondary += t.stops.compactMap { app.artworks[$0.artworkID]?.title }
            docs.append(SearchDocument(.tour(t.id), primary: primary, secondary: secondary, sortTitle: t.english.title, primaryLanguages: languages))
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

    /// The museum's index; `variants` folds Traditional Chinese to Simplified, `stemmer` finds
    /// words by their stems.
    public convenience init(
        app: AppData, source: Museum? = nil, variants: ChineseVariants? = nil, stemmer: (any WordStemming)? = nil, both: ReadOptions.Both? = nil
    ) {
        self.init(documents: Self.documents(app: app), source: source, variants: variants, stemmer: stemmer, both: both)
    }

    /// The museum's index, asking for the Chinese table only when something in it is written in
    /// Chinese characters: without them no query can match through the table, and building it
    /// (ICU, 0.1 s and megabytes of its data) is saved for the museums that do not need it.
    public convenience init(
        app: AppData, source: Museum? = nil, variantsWhenChinese: () -> ChineseVariants?, stemmer: (any WordStemming)? = nil, transcripts: Bool = true,
        both: ReadOptions.Both? = nil
    ) {
        self.init(
            documents: Self.documents(app: app), source: source, variants: Self.variants(for: app, whenChinese: variantsWhenChinese), stemmer: stemmer,
            transcripts: transcripts, both: both)
    }

    /// The Chinese table for `app`'s index: asked for only when the museum's texts have Chinese
    /// characters (the rule of the init above, for a caller that makes the documents itself).
    public static func variants(for app: AppData, whenChinese: () -> ChineseVariants?) -> ChineseVariants? {
        hasChineseText(app) ? whenChinese() : nil
    }

    /// Whether the museum's own texts that the index holds have Chinese characters (the names
    /// the guide adds itself, "301号展厅" or the amenities' names, are written in both scripts
    /// and need no table).
    static func hasChineseText(_ app: AppData) -> Bool {
        for a in app.artworks.values where hasHan(a.title) || hasHan(a.tombstone) || hasHan(a.galleryTitle) { return true }
        for audio in app.audioFiles.values {
            // A Chinese commentary's transcript is indexed too.
            if audio.translations[.chinese] != nil { return true }
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
    public convenience init(exhibitions: [Exhibition], events: [Event] = [], variants: ChineseVariants? = nil) {
        let docs = exhibitions.map { SearchDocument(.exhibition($0.id), primary: [$0.title]) }
            + events.map { SearchDocument(.event($0.id), primary: [$0.title], secondary: [$0.location]) }
        self.init(documents: docs, grams: false, variants: variants)
    }
}

// MARK: Sameness

extension SearchIndex {
    /// A digest of everything the index holds (texts, grams, words, stems): two builds of the
    /// same documents that answer alike have the same one. The search bench prints it, so a
    /// faster build can be shown to build the very same index.
    public var digest: UInt64 {
        var h: UInt64 = 14_695_981_039_346_656_037
        func mix<T: FixedWidthInteger>(_ xs: [T]) {
            h = (h ^ UInt64(xs.count)) &* 1_099_511_628_211
            xs.withUnsafeBytes { raw in
                for b in raw { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
            }
        }
        mix(text)
        mix(starts)
        mix(secondaryStarts)
        mix(kinds)
        mix(
            targets.map { t -> Int in
                switch t {
                case .artwork(let id): return id << 3
                case .tour(let id): return id << 3 | 1
                case .exhibition(let id): return id << 3 | 2
                case .gallery(let id): return id << 3 | 3
                case .annotation(let id): return id << 3 | 4
                case .event(let id): return Int(truncatingIfNeeded: FNV1a.hash64(id.utf8)) << 3 | 5
                }
            })
        mix(gramStarts)
        mix(postings)
        mix(fieldSlots)
        mix(fieldSlotStarts)
        mix(words.vocab)
        mix(words.vocabStarts)
        mix(words.letters)
        mix(words.flags)
        mix(words.masks)
        mix(words.wordEntries)
        mix(words.entrySlot)
        mix(words.entryPosts)
        mix(words.entryBits)
        mix(words.posts)
        mix(words.bits)
        mix(words.stemKeys)
        mix(words.stemKeyStarts)
        mix(words.stemWordStarts)
        mix(words.stemWords)
        mix(words.slotLanguages.map { Array(($0?.code ?? "-").utf8) + [0] }.flatMap { $0 })
        mix(words.stemLanguages.map { Array($0.code.utf8) + [0] }.flatMap { $0 })
        return h
    }
}

/// The texts an index's words are read from, flat and in the index's (rank) order: each
/// document's names with their languages, its other texts, its transcripts. A few arrays for
/// the whole museum rather than a few per document (the documents were 15 MB of the guide's
/// peak on a 20,000-artwork museum, held while the transcripts were read).
struct WordSources: Sendable {
    var names: [String] = []
    var nameLanguages: [Language?] = []
    var nameStarts: [Int32] = [0]
    var others: [String] = []
    var otherStarts: [Int32] = [0]
    var transcripts: [TranscriptSource] = []
    /// Each transcript's language, as its place in `languages` (the languages in the order
    /// they are first met, which is the order the builder numbers their slots in).
    var transcriptLanguages: [UInt8] = []
    var languages: [Language] = []
    var transcriptStarts: [Int32] = [0]

    init() {}

    /// Empty, with room for `documents`' texts.
    init(reserving documents: [SearchDocument]) {
        var nameCount = 0
        var otherCount = 0
        var transcriptCount = 0
        for d in documents {
            nameCount += d.primary.count
            otherCount += d.secondary.count
            transcriptCount += d.transcripts.count
        }
        names.reserveCapacity(nameCount)
        nameLanguages.reserveCapacity(nameCount)
        others.reserveCapacity(otherCount)
        transcripts.reserveCapacity(transcriptCount)
        transcriptLanguages.reserveCapacity(transcriptCount)
        nameStarts.reserveCapacity(documents.count + 1)
        otherStarts.reserveCapacity(documents.count + 1)
        transcriptStarts.reserveCapacity(documents.count + 1)
    }

    /// `doc`'s texts as the next document's.
    mutating func append(_ doc: SearchDocument) {
        for (k, p) in doc.primary.enumerated() {
            names.append(p)
            nameLanguages.append(k < doc.primaryLanguages.count ? doc.primaryLanguages[k] : nil)
        }
        nameStarts.append(Int32(names.count))
        others += doc.secondary
        otherStarts.append(Int32(others.count))
        for v in doc.transcripts {
            transcripts.append(v.transcriptSource)
            if let l = languages.firstIndex(of: v.language) {
                transcriptLanguages.append(UInt8(l))
            } else {
                // At most 256 languages keep their own (the builder numbers 255 slots).
                transcriptLanguages.append(UInt8(min(languages.count, 255)))
                if languages.count < 256 { languages.append(v.language) }
            }
        }
        transcriptStarts.append(Int32(transcripts.count))
    }

    /// The same texts with the documents in `order` (the index's), the transcripts' languages
    /// numbered as they are met in that order.
    func inRankOrder(_ order: [Int]) -> WordSources {
        var r = WordSources()
        r.names.reserveCapacity(names.count)
        r.nameLanguages.reserveCapacity(names.count)
        r.others.reserveCapacity(others.count)
        r.transcripts.reserveCapacity(transcripts.count)
        r.transcriptLanguages.reserveCapacity(transcripts.count)
        r.nameStarts.reserveCapacity(order.count + 1)
        r.otherStarts.reserveCapacity(order.count + 1)
        r.transcriptStarts.reserveCapacity(order.count + 1)
        var renumber = [Int](repeating: -1, count: languages.count)
        for i in order {
            for k in names(i) {
                r.names.append(names[k])
                r.nameLanguages.append(nameLanguages[k])
            }
            r.nameStarts.append(Int32(r.names.count))
            for k in others(i) { r.others.append(others[k]) }
            r.otherStarts.append(Int32(r.others.count))
            for k in transcripts(i) {
                r.transcripts.append(transcripts[k])
                let l = Int(transcriptLanguages[k])
                if renumber[l] < 0 {
                    renumber[l] = r.languages.count
                    r.languages.append(languages[l])
                }
                r.transcriptLanguages.append(UInt8(renumber[l]))
            }
            r.transcriptStarts.append(Int32(r.transcripts.count))
        }
        return r
    }

    var count: Int { nameStarts.count - 1 }
    func names(_ d: Int) -> Range<Int> { Int(nameStarts[d])..<Int(nameStarts[d + 1]) }
    func others(_ d: Int) -> Range<Int> { Int(otherStarts[d])..<Int(otherStarts[d + 1]) }
    func transcripts(_ d: Int) -> Range<Int> { Int(transcriptStarts[d])..<Int(transcriptStarts[d + 1]) }
}

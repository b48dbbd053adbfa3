/// The forgiving half of search: every word of every text the museum wrote (titles in every
/// language, artist lines, places, and the commentaries' transcripts in every language), found
/// by the word as typed, by its stem in the text's language (Snowball, through `WordStemming`),
/// by a spelling variant (grey/gray) or with a typo, the way Meilisearch and Typesense count
/// them: one edit (insertion, deletion, substitution or transposition of two neighbours) for a
/// word of 5 letters or more, two from 9, never on the first letter, never in a number.
///
/// It is an inverted index over a sorted vocabulary: a prefix is a range of it, a typo is
/// looked for only among the words of the same first byte and of a near length, and a word's
/// documents are a sorted list, or a bitmap when it is in more than one document in 16. A query
/// ORs each word's lists into bitmaps over the documents and ANDs the words, so a keystroke
/// costs the words that match, not the documents.
///
/// Chinese and Japanese texts are indexed character by character (they have no spaces);
/// Korean words are matched by their syllable prefixes (a particle follows the noun: 항구에서
/// is found by 항구); neither is stemmed nor typo-matched.
public struct SearchWords: Sendable {
    /// Documents (the index's numbering).
    let count: Int
    /// The vocabulary, sorted bytewise: word `w` is `vocab[vocabStarts[w] ..< vocabStarts[w + 1]]`.
    let vocab: [UInt8]
    let vocabStarts: [Int32]
    /// Per word: its letters (Unicode scalars, at most 255) and `WordFlags`.
    let letters: [UInt8]
    let flags: [UInt8]
    /// Per word, which letters (a–z, and six bits shared by anything else) it has: two words whose sets
    /// differ by more than two letters per edit allowed cannot be that close.
    let masks: [UInt32]
    /// Per word, its entries `wordEntries[w] ..< wordEntries[w + 1]`: one per language slot.
    let wordEntries: [Int32]
    /// Per entry: its language slot, its documents (sorted `doc << 1 | inName`) or, when dense,
    /// `offset << 1 | named`: the bitmap of every document at `offset`, then, when `named`, the
    /// bitmap of the documents with it in a name (-1: not dense).
    let entrySlot: [UInt8]
    let entryPosts: [Int32]
    let entryBits: [Int32]
    let posts: [UInt32]
    let bits: [UInt64]
    /// The languages of the slots: slot 0 is what a result shows anyway (an artwork's title,
    /// its artist lines, places, numbers), stemmed as the museum's base language, English.
    public let slotLanguages: [Language?]
    /// Stems: key `stemLanguage byte + stem` sorted, each with the words that stem to it.
    let stemKeys: [UInt8]
    let stemKeyStarts: [Int32]
    let stemWordStarts: [Int32]
    let stemWords: [Int32]
    /// The languages stems are computed in (index = the key's first byte).
    let stemLanguages: [Language]
    let stemmer: (any WordStemming)?

    /// Bitmap words per document set.
    var bitWords: Int { (count + 63) >> 6 }

    static let denseFraction = 16
    static let maxLetters = 255

    enum WordFlags {
        static let digit: UInt8 = 1
        /// Chinese or Japanese (one character a word here).
        static let ideograph: UInt8 = 2
        static let hangul: UInt8 = 4
    }

    /// Every word of a document, as the builder is given them.
    struct Text {
        var text: String
        var slot: UInt8
        var inName: Bool
    }

    // MARK: Building

    /// Builds the words of `documents` (already in the index's order), each a list of texts;
    /// `transcripts` are read one at a time (they may be mapped from the file).
    struct Builder {
        /// The distinct words so far, their bytes one after another.
        var wordBytes: [UInt8] = []
        var wordStarts: [Int32] = [0]
        var wordHashes: [UInt32] = []
        /// Open addressing over the words: a word number, or -1.
        var table = [Int32](repeating: -1, count: 1 << 12)
        /// Each word's entries (one per language slot) as a chain.
        var wordFirstEntry: [Int32] = []
        var entryNext: [Int32] = []
        var entryWord: [Int32] = []
        var entrySlot: [UInt8] = []
        var lastDoc: [Int32] = []
        /// (entry, doc << 1 | inName) pairs, in document order: most of the builder's memory
        /// (a pair per word per document: tens of millions in a large museum), so kept in
        /// chunks, which neither double nor copy as they grow, nor when two halves join.
        var pairs = Pairs()
        /// How many documents the index has, when known before the words are added
        /// (`SearchIndex` sets it; 0: not known). An entry found in more than one document in
        /// `denseFraction` is kept as a bitmap (as the built index keeps it) from the document
        /// where it becomes one: a frequent word's pairs (a transcript's "the", in every
        /// document) stop there, and the pairs were most of the builder's memory.
        var documentCount = 0
        /// Per entry: its documents so far, or, once it is a bitmap, -(its block + 1) in
        /// `denseBits` (blocks of `2 * denseWords`: every document, then those in a name).
        var entryCount: [Int32] = []
        var denseBits: [UInt64] = []
        var denseWords: Int { (documentCount + 63) >> 6 }
        var slots: [Language?] = [nil]
        let variants: ChineseVariants?
        /// How each non-ASCII scalar folds (as `SearchText` folds a character), its bytes in
        /// `foldPool`: `foldIndex[s]` (scalars under U+10000) or `foldOther[s]` is
        /// `offset << 16 | count`, -1 while not folded yet. Flat tables rather than a dictionary
        /// of arrays: a transcript's every accented letter and ideograph is looked up here.
        var foldPool: [UInt8] = []
        var foldIndex: [Int64] = []
        var foldOther: [UInt32: Int64] = [:]
        /// Per scalar under U+10000 that folds to one Chinese or Japanese character (a word of
        /// its own): that word's number, -1 while not known. Most of a Chinese transcript's
        /// words, numbered without hashing them again.
        var scalarWord: [Int32] = []
        var doc: Int32 = 0

        static let hashBasis: UInt32 = 2_166_136_261
        static let hashPrime: UInt32 = 16_777_619

        init(variants: ChineseVariants?) {
            self.variants = variants
        }

        var wordCount: Int { wordStarts.count - 1 }

        func word(_ w: Int) -> ArraySlice<UInt8> { wordBytes[Int(wordStarts[w])..<Int(wordStarts[w + 1])] }

        mutating func slot(_ language: Language?) -> UInt8 {
            guard let language = language?.content else { return 0 }
            if let i = slots.firstIndex(of: language) { return UInt8(i) }
            guard slots.count < 255 else { return 0 }
            slots.append(language)
            return UInt8(slots.count - 1)
        }

        mutating func startDocument(_ d: Int) { doc = Int32(d) }

        /// Folds `text` a scalar at a time (transcripts are most of the bytes: a
        /// character-by-character fold costs several times more), then adds its words.
        mutating func add(_ text: String, slot: UInt8, inName: Bool) {
            var t = text
            t.withUTF8 { utf8 in addWords(utf8, slot: slot, inName: inName) }
        }

        /// The folded bytes of non-ASCII scalar `s` in `pool` (`offset << 16 | count`), folded
        /// once per scalar.
        @inline(__always) func folded(_ s: UInt32, _ index: inout [Int64], _ other: inout [UInt32: Int64], _ pool: inout [UInt8]) -> Int64 {
            if s < 0x10000 {
                let known = index[Int(s)]
                if known >= 0 { return known }
            } else if let known = other[s] {
                return known
            }
            let f = Unicode.Scalar(s).map { SearchText.Folder.foldCharacter(Character($0), variants: variants) } ?? []
            let packed = Int64(pool.count) << 16 | Int64(f.count)
            pool += f
            if s < 0x10000 { index[Int(s)] = packed } else { other[s] = packed }
            return packed
        }

        /// One pass over the text: each scalar folded (ASCII at once, others through the
        /// tables) and classified as `SearchWords.tokens` does, each word numbered as it ends,
        /// its bytes and hash built as they come (no array per word).
        mutating func addWords(_ utf8: UnsafeBufferPointer<UInt8>, slot: UInt8, inName: Bool) {
            let n = utf8.count
            guard n > 0 else { return }
            var cap = 64
            var buf = UnsafeMutablePointer<UInt8>.allocate(capacity: cap)
            defer { buf.deallocate() }
            var len = 0
            var h = Self.hashBasis
            // The tables, out of `self` while the words are added (no overlapping access).
            var index: [Int64] = []
            var other: [UInt32: Int64] = [:]
            var pool: [UInt8] = []
            var ideo: [Int32] = []
            var tablesOut = false
            defer {
                if tablesOut {
                    swap(&index, &foldIndex)
                    swap(&other, &foldOther)
                    swap(&pool, &foldPool)
                    swap(&ideo, &scalarWord)
                }
            }
            @inline(__always) func grow(_ need: Int) {
                guard len + need > cap else { return }
                let bigger = max(cap * 2, len + need)
                let nb = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
                nb.update(from: buf, count: len)
                buf.deallocate()
                buf = nb
                cap = bigger
            }
            let text = utf8.baseAddress!
            var i = 0
            while i < n {
                let b = text[i]
                if b < 0x80 {
                    if SearchText.isASCIIAlphanumeric(b) {
                        // A run of ASCII letters and digits at once, lowercased and hashed.
                        var j = i + 1
                        while j < n, text[j] < 0x80, SearchText.isASCIIAlphanumeric(text[j]) { j += 1 }
                        grow(j - i)
                        while i < j {
                            let a = text[i]
                            let c = a >= 0x41 && a <= 0x5A ? a + 0x20 : a
                            buf[len] = c
                            len += 1
                            h = (h ^ UInt32(c)) &* Self.hashPrime
                            i += 1
                        }
                        continue
                    }
                    i += 1
                    if len > 0 {
                        addWord(number: wordNumber(buf, len, h), slot: slot, inName: inName)
                        len = 0
                        h = Self.hashBasis
                    }
                    continue
                }
                if !tablesOut {
                    tablesOut = true
                    if foldIndex.isEmpty { foldIndex = [Int64](repeating: -1, count: 0x10000) }
                    if scalarWord.isEmpty { scalarWord = [Int32](repeating: -1, count: 0x10000) }
                    swap(&index, &foldIndex)
                    swap(&other, &foldOther)
                    swap(&pool, &foldPool)
                    swap(&ideo, &scalarWord)
                }
                let (s, slen) = SearchWords.scalar(at: i, in: utf8)
                i += slen
                if s < 0x10000 {
                    let known = ideo[Int(s)]
                    if known >= 0 {
                        if len > 0 {
                            addWord(number: wordNumber(buf, len, h), slot: slot, inName: inName)
                            len = 0
                            h = Self.hashBasis
                        }
                        addWord(number: known, slot: slot, inName: inName)
                        continue
                    }
                }
                let packed = folded(s, &index, &other, &pool)
                let fStart = Int(packed >> 16)
                let fCount = Int(packed & 0xFFFF)
                var k = fStart
                let fEnd = fStart + fCount
                while k < fEnd {
                    let c = pool[k]
                    if c < 0x80 {
                        k += 1
                        if SearchText.isASCIIAlphanumeric(c) {
                            grow(1)
                            buf[len] = c
                            len += 1
                            h = (h ^ UInt32(c)) &* Self.hashPrime
                        } else if len > 0 {
                            addWord(number: wordNumber(buf, len, h), slot: slot, inName: inName)
                            len = 0
                            h = Self.hashBasis
                        }
                        continue
                    }
                    let (fs, flen) = SearchWords.scalar(at: k, in: pool)
                    let end = min(fEnd, k + flen)
                    if SearchWords.isIdeographic(fs) || SearchWords.isSeparator(fs) {
                        if len > 0 {
                            addWord(number: wordNumber(buf, len, h), slot: slot, inName: inName)
                            len = 0
                            h = Self.hashBasis
                        }
                        if SearchWords.isIdeographic(fs), !(0x3000...0x303F).contains(fs) {
                            grow(end - k)
                            for j in k..<end {
                                buf[len] = pool[j]
                                len += 1
                                h = (h ^ UInt32(pool[j])) &* Self.hashPrime
                            }
                            let id = wordNumber(buf, len, h)
                            len = 0
                            h = Self.hashBasis
                            // The scalar is this one character: next time, its number at once.
                            if s < 0x10000, k == fStart, end == fEnd { ideo[Int(s)] = id }
                            addWord(number: id, slot: slot, inName: inName)
                        }
                    } else {
                        grow(end - k)
                        for j in k..<end {
                            buf[len] = pool[j]
                            len += 1
                            h = (h ^ UInt32(pool[j])) &* Self.hashPrime
                        }
                    }
                    k = end
                }
            }
            if len > 0 { addWord(number: wordNumber(buf, len, h), slot: slot, inName: inName) }
        }

        @inline(__always) static func hash(_ w: ArraySlice<UInt8>) -> UInt32 {
            var h = hashBasis
            for b in w { h = (h ^ UInt32(b)) &* hashPrime }
            return h
        }

        /// The number of word `w`, added if new.
        mutating func wordNumber(_ w: ArraySlice<UInt8>) -> Int32 {
            let h = Self.hash(w)
            return w.withUnsafeBufferPointer { p in wordNumber(p.baseAddress!, p.count, h) }
        }

        /// The number of the word of `count` bytes at `w` whose hash (`hash`) is `h`, added if new.
        mutating func wordNumber(_ w: UnsafePointer<UInt8>, _ count: Int, _ h: UInt32) -> Int32 {
            var mask = table.count - 1
            var p = Int(h) & mask
            while true {
                let id = Int(table[p])
                if id < 0 { break }
                if wordHashes[id] == h {
                    let s = Int(wordStarts[id])
                    if Int(wordStarts[id + 1]) - s == count {
                        let same = wordBytes.withUnsafeBufferPointer { wb -> Bool in
                            var k = 0
                            while k < count, wb[s + k] == w[k] { k += 1 }
                            return k == count
                        }
                        if same { return Int32(id) }
                    }
                }
                p = (p + 1) & mask
            }
            let id = Int32(wordCount)
            wordBytes.append(contentsOf: UnsafeBufferPointer(start: w, count: count))
            wordStarts.append(Int32(wordBytes.count))
            wordHashes.append(h)
            wordFirstEntry.append(-1)
            table[p] = id
            if wordCount * 2 > table.count {
                table = [Int32](repeating: -1, count: table.count * 2)
                mask = table.count - 1
                for (k, wh) in wordHashes.enumerated() {
                    var q = Int(wh) & mask
                    while table[q] >= 0 { q = (q + 1) & mask }
                    table[q] = Int32(k)
                }
            }
            return id
        }

        mutating func addFolded(_ f: [UInt8], slot: UInt8, inName: Bool) {
            SearchWords.tokens(f) { w in addWord(w, slot: slot, inName: inName) }
        }

        mutating func addWord(_ w: ArraySlice<UInt8>, slot: UInt8, inName: Bool) {
            addWord(number: wordNumber(w), slot: slot, inName: inName)
        }

        /// The entry of word `id` in language `slot`, made (in no document yet) if it is new.
        @inline(__always) mutating func entry(word id: Int32, slot: UInt8) -> Int32 {
            var e = wordFirstEntry[Int(id)]
            while e >= 0, entrySlot[Int(e)] != slot { e = entryNext[Int(e)] }
            if e < 0 {
                e = Int32(entryWord.count)
                entryNext.append(wordFirstEntry[Int(id)])
                wordFirstEntry[Int(id)] = e
                entryWord.append(id)
                entrySlot.append(slot)
                lastDoc.append(-1)
                entryCount.append(0)
            }
            return e
        }

        /// Word `id` is in the current document, in a text of language `slot`.
        @inline(__always) mutating func addWord(number id: Int32, slot: UInt8, inName: Bool) {
            let e = entry(word: id, slot: slot)
            // Names come first in a document, so its first pair says whether it is in one.
            if lastDoc[Int(e)] != doc {
                lastDoc[Int(e)] = doc
                let c = entryCount[Int(e)]
                if c < 0 {
                    setBit(block: Int(-1 - c), doc: doc, inName: inName)
                } else if documentCount >= 64, Int(c + 1) * SearchWords.denseFraction > documentCount {
                    let block = newBlock()
                    entryCount[Int(e)] = -1 - Int32(block)
                    setBit(block: block, doc: doc, inName: inName)
                } else {
                    entryCount[Int(e)] = c + 1
                    pairs.append(entry: e, doc: doc, inName: inName)
                }
            }
        }

        /// A new bitmap block, all zero; its number.
        mutating func newBlock() -> Int {
            let n = 2 * denseWords
            let block = denseBits.count / n
            denseBits.append(contentsOf: repeatElement(0, count: n))
            return block
        }

        @inline(__always) mutating func setBit(block: Int, doc: Int32, inName: Bool) {
            let base = block * 2 * denseWords
            let d = Int(doc)
            denseBits[base + d >> 6] |= 1 << UInt64(d & 63)
            if inName { denseBits[base + denseWords + d >> 6] |= 1 << UInt64(d & 63) }
        }

        /// Adds the words and pairs of `other`, a builder of the documents after this one's
        /// (with the same slots): as if this builder had gone on with them.
        mutating func append(_ other: inout Builder) {
            var entryOf = [Int32](repeating: -1, count: other.entryWord.count)
            for oe in other.entryWord.indices {
                let ow = Int(other.entryWord[oe])
                let id = other.word(ow).withUnsafeBufferPointer { p in wordNumber(p.baseAddress!, p.count, other.wordHashes[ow]) }
                entryOf[oe] = entry(word: id, slot: other.entrySlot[oe])
            }
            pairs.append(&other.pairs) { entryOf[Int($0)] }
            // Counts add up; a bitmap of either is the entry's bitmap (the other's pairs are
            // set in it when the index is built).
            let n = 2 * denseWords
            for oe in other.entryCount.indices {
                let e = Int(entryOf[oe])
                let oc = other.entryCount[oe]
                let c = entryCount[e]
                if oc < 0 {
                    let from = Int(-1 - oc) * n
                    let block: Int
                    if c < 0 {
                        block = Int(-1 - c)
                    } else {
                        block = newBlock()
                        entryCount[e] = -1 - Int32(block)
                    }
                    for i in 0..<n { denseBits[block * n + i] |= other.denseBits[from + i] }
                } else if c >= 0 {
                    entryCount[e] = c + oc
                }
            }
            for (oe, e) in entryOf.enumerated() where other.lastDoc[oe] > lastDoc[Int(e)] { lastDoc[Int(e)] = other.lastDoc[oe] }
            doc = max(doc, other.doc)
        }

        /// The word numbers in bytewise order of their words: by their first eight bytes as one
        /// number, then by the rest (no word has a zero byte, so a shorter word that begins a
        /// longer one sorts first, as `lexicographicallyPrecedes` has it).
        func sortedWords() -> [Int] {
            wordBytes.withUnsafeBufferPointer { wb in
                wordStarts.withUnsafeBufferPointer { starts in
                    var keys = [UInt64](repeating: 0, count: starts.count - 1)
                    for w in keys.indices {
                        var key: UInt64 = 0
                        let s = Int(starts[w])
                        let n = Int(starts[w + 1]) - s
                        for k in 0..<8 { key = key << 8 | (k < n ? UInt64(wb[s + k]) : 0) }
                        keys[w] = key
                    }
                    return keys.withUnsafeBufferPointer { kb in
                        kb.indices.sorted { a, b in
                            if kb[a] != kb[b] { return kb[a] < kb[b] }
                            let sa = Int(starts[a])
                            let sb = Int(starts[b])
                            let na = Int(starts[a + 1]) - sa
                            let nb = Int(starts[b + 1]) - sb
                            var k = 8
                            while k < na, k < nb {
                                let x = wb[sa + k]
                                let y = wb[sb + k]
                                if x != y { return x < y }
                                k += 1
                            }
                            return na < nb
                        }
                    }
                }
            }
        }

        /// The index of the words (the builder is left empty).
        mutating func build(count: Int, stemmer: (any WordStemming)?) -> SearchWords {
            precondition(documentCount == 0 || documentCount == count || entryWord.isEmpty, "the documents' count the words were added with")
            // The vocabulary sorted bytewise; old word number → new.
            let order = sortedWords()
            var rank = [Int32](repeating: 0, count: wordCount)
            for (r, w) in order.enumerated() { rank[w] = Int32(r) }
            var vocab: [UInt8] = []
            vocab.reserveCapacity(wordBytes.count)
            var vocabStarts: [Int32] = [0]
            var letters: [UInt8] = []
            var flags: [UInt8] = []
            var masks: [UInt32] = []
            for w in order {
                let word = self.word(w)
                vocab += word
                vocabStarts.append(Int32(vocab.count))
                let info = SearchWords.describe(word)
                letters.append(UInt8(min(info.letters, SearchWords.maxLetters)))
                flags.append(info.flags)
                masks.append(info.mask)
            }
            // The builder is used up by this call: each of its tables goes as soon as it is
            // read for the last time (the build's peak is the words' largest moment, issue 30).
            wordBytes = []
            wordStarts = []
            wordHashes = []
            table = []
            lastDoc = []
            foldPool = []
            foldIndex = []
            foldOther = [:]
            scalarWord = []
            // Entries grouped by word in vocabulary order, then by slot.
            // A word's few entries are its chain, sorted by slot where there are several.
            var entries: [Int] = []
            entries.reserveCapacity(entryWord.count)
            for w in order {
                let first = entries.count
                var e = wordFirstEntry[w]
                while e >= 0 {
                    entries.append(Int(e))
                    e = entryNext[Int(e)]
                }
                var k = first + 1
                while k < entries.count {
                    let x = entries[k]
                    var j = k
                    while j > first, entrySlot[entries[j - 1]] > entrySlot[x] {
                        entries[j] = entries[j - 1]
                        j -= 1
                    }
                    entries[j] = x
                    k += 1
                }
            }
            wordFirstEntry = []
            entryNext = []
            var newEntry = [Int32](repeating: 0, count: entries.count)
            for (i, e) in entries.enumerated() { newEntry[e] = Int32(i) }
            var wordEntries = [Int32](repeating: 0, count: order.count + 1)
            for e in entries { wordEntries[Int(rank[Int(entryWord[e])]) + 1] += 1 }
            entryWord = []
            rank = []
            for w in 0..<order.count { wordEntries[w + 1] += wordEntries[w] }
            // Document counts per entry (a bitmap's: -1), then sparse lists and dense bitmaps.
            var df = [Int32](repeating: 0, count: entries.count)
            for (e, c) in entryCount.enumerated() { df[Int(newEntry[e])] = c }
            let bitWords = (count + 63) >> 6
            var entryPosts = [Int32](repeating: 0, count: entries.count + 1)
            var entryBits = [Int32](repeating: -1, count: entries.count)
            // A dense entry's bitmaps: every document, then, only when it has one, the documents
            // with it in a name (a word of the transcripts alone has none: half the bitmaps).
            var hasName = [Bool](repeating: false, count: entries.count)
            for (old, c) in entryCount.enumerated() where c < 0 {
                let from = Int(-1 - c) * 2 * bitWords
                hasName[Int(newEntry[old])] = denseBits[(from + bitWords)..<(from + 2 * bitWords)].contains { $0 != 0 }
            }
            pairs.forEach { entry, p in
                if p & 1 == 1 { hasName[Int(newEntry[Int(entry)])] = true }
            }
            // Dense when its bitmaps take less room than its list: one bitmap (n / 8 bytes) is
            // a list of n / 32 documents, two are a list of n / 16.
            var isDense = [Bool](repeating: false, count: entries.count)
            for e in 0..<entries.count {
                let fraction = hasName[e] ? SearchWords.denseFraction : 2 * SearchWords.denseFraction
                let dense = df[e] < 0 || Int(df[e]) * fraction > count && count >= 64
                isDense[e] = dense
                entryPosts[e + 1] = entryPosts[e] + (dense ? 0 : df[e])
            }
            var bitCount = 0
            for e in 0..<entries.count where isDense[e] {
                entryBits[e] = Int32(bitCount << 1 | (hasName[e] ? 1 : 0))
                bitCount += hasName[e] ? 2 * bitWords : bitWords
            }
            isDense = []
            hasName = []
            var posts = [UInt32](repeating: 0, count: Int(entryPosts[entries.count]))
            var bits = [UInt64](repeating: 0, count: bitCount)
            // The bitmaps made while adding, in their place (entries in vocabulary order).
            for (old, c) in entryCount.enumerated() where c < 0 {
                let from = Int(-1 - c) * 2 * bitWords
                let b = Int(entryBits[Int(newEntry[old])])
                let to = b >> 1
                for i in 0..<((b & 1 == 1 ? 2 : 1) * bitWords) { bits[to + i] = denseBits[from + i] }
            }
            denseBits = []
            entryCount = []
            df = []
            var cursor = entryPosts
            pairs.forEach { entry, p in
                let e = Int(newEntry[Int(entry)])
                if entryBits[e] >= 0 {
                    let base = Int(entryBits[e]) >> 1
                    let d = Int(p >> 1)
                    bits[base + d >> 6] |= 1 << UInt64(d & 63)
                    if p & 1 == 1 { bits[base + bitWords + d >> 6] |= 1 << UInt64(d & 63) }
                } else {
                    posts[Int(cursor[e])] = p
                    cursor[e] += 1
                }
            }
            pairs = Pairs()
            cursor = []
            newEntry = []
            var slotOfEntry = [UInt8](repeating: 0, count: entries.count)
            for (i, e) in entries.enumerated() { slotOfEntry[i] = entrySlot[e] }
            entrySlot = []
            entries = []
            // Stems, per language with an algorithm (slot 0 is stemmed as English).
            var stemLanguages: [Language] = []
            var stemOfSlot = [Int](repeating: -1, count: slots.count)
            if let stemmer {
                for (s, l) in slots.enumerated() {
                    let language = l ?? .english
                    guard stemmer.stems(language) else { continue }
                    if let i = stemLanguages.firstIndex(of: language) {
                        stemOfSlot[s] = i
                    } else {
                        stemOfSlot[s] = stemLanguages.count
                        stemLanguages.append(language)
                    }
                }
            }
            // Each (stem key, word) once, the keys' bytes in one pool (a dictionary of arrays
            // was a pair of small allocations per stem: megabytes at the build's peak), then
            // sorted by key (equal keys: in the order met, as words ascending).
            var stemPool: [UInt8] = []
            var stemRefs: [(start: Int32, length: Int32, word: Int32)] = []
            if let stemmer, !stemLanguages.isEmpty {
                var seen = Set<Int64>()
                for w in 0..<order.count where flags[w] == 0 && letters[w] >= 3 {
                    let word = vocab[Int(vocabStarts[w])..<Int(vocabStarts[w + 1])]
                    for e in Int(wordEntries[w])..<Int(wordEntries[w + 1]) {
                        let sl = stemOfSlot[Int(slotOfEntry[e])]
                        guard sl >= 0, seen.insert(Int64(w) << 8 | Int64(sl)).inserted,
                            let stem = stemmer.stem(word, stemLanguages[sl])
                        else { continue }
                        let start = stemPool.count
                        stemPool.append(UInt8(sl))
                        stemPool += stem
                        stemRefs.append((Int32(start), Int32(stemPool.count - start), Int32(w)))
                    }
                }
            }
            var stemKeys: [UInt8] = []
            var stemKeyStarts: [Int32] = [0]
            var stemWordStarts: [Int32] = [0]
            var stemWords: [Int32] = []
            stemWords.reserveCapacity(stemRefs.count)
            stemPool.withUnsafeBufferPointer { pool in
                func key(_ r: (start: Int32, length: Int32, word: Int32)) -> UnsafeBufferPointer<UInt8> {
                    UnsafeBufferPointer(rebasing: pool[Int(r.start)..<Int(r.start + r.length)])
                }
                var sortedRefs = Array(stemRefs.indices)
                sortedRefs.sort { a, b in
                    let ka = key(stemRefs[a])
                    let kb = key(stemRefs[b])
                    if ka.elementsEqual(kb) { return a < b }
                    return ka.lexicographicallyPrecedes(kb)
                }
                var last: UnsafeBufferPointer<UInt8>?
                for i in sortedRefs {
                    let k = key(stemRefs[i])
                    if let l = last, l.elementsEqual(k) {
                        // The same key: one more word.
                    } else {
                        if last != nil { stemWordStarts.append(Int32(stemWords.count)) }
                        stemKeys += k
                        stemKeyStarts.append(Int32(stemKeys.count))
                        last = k
                    }
                    stemWords.append(stemRefs[i].word)
                }
                if last != nil { stemWordStarts.append(Int32(stemWords.count)) }
            }
            return SearchWords(
                count: count, vocab: vocab, vocabStarts: vocabStarts, letters: letters, flags: flags, masks: masks,
                wordEntries: wordEntries, entrySlot: slotOfEntry, entryPosts: entryPosts, entryBits: entryBits, posts: posts, bits: bits,
                slotLanguages: slots, stemKeys: stemKeys, stemKeyStarts: stemKeyStarts, stemWordStarts: stemWordStarts, stemWords: stemWords,
                stemLanguages: stemLanguages, stemmer: stemmer)
        }
    }

    /// An empty set of words (an index built without them).
    static func empty(count: Int) -> SearchWords {
        var b = Builder(variants: nil)
        return b.build(count: count, stemmer: nil)
    }

    // MARK: Words of a text

    /// Whether `s` is a Chinese or Japanese character (or CJK punctuation, which is dropped).
    @inline(__always) static func isIdeographic(_ s: UInt32) -> Bool {
        (0x3040...0x30FF).contains(s) || (0x3400...0x4DBF).contains(s) || (0x4E00...0x9FFF).contains(s) || (0xF900...0xFAFF).contains(s)
            || (0x20000...0x2FFFF).contains(s)
    }

    /// Scalars that separate words though they are not ASCII: Latin-1 and general punctuation,
    /// CJK symbols and punctuation, full-width forms' punctuation.
    @inline(__always) static func isSeparator(_ s: UInt32) -> Bool {
        (0x80...0xBF).contains(s) || s == 0xD7 || s == 0xF7 || (0x2000...0x2BFF).contains(s) || (0x3000...0x303F).contains(s)
            || (0xFE30...0xFE4F).contains(s) || (0xFF00...0xFF0F).contains(s) || (0xFF1A...0xFF20).contains(s)
    }

    @inline(__always) static func isHangul(_ s: UInt32) -> Bool {
        (0xAC00...0xD7A3).contains(s) || (0x1100...0x11FF).contains(s) || (0x3130...0x318F).contains(s)
    }

    /// Decodes the scalar at `i` of well-formed UTF-8 (the folder's output), and its length.
    @inline(__always) static func scalar<C: RandomAccessCollection<UInt8>>(at i: C.Index, in b: C) -> (UInt32, Int) {
        let c0 = UInt32(b[i])
        if c0 < 0x80 { return (c0, 1) }
        func cont(_ k: Int) -> UInt32 {
            let j = b.index(i, offsetBy: k)
            return j < b.endIndex ? UInt32(b[j] & 0x3F) : 0
        }
        if c0 < 0xE0 { return ((c0 & 0x1F) << 6 | cont(1), 2) }
        if c0 < 0xF0 { return ((c0 & 0x0F) << 12 | cont(1) << 6 | cont(2), 3) }
        return ((c0 & 0x07) << 18 | cont(1) << 12 | cont(2) << 6 | cont(3), 4)
    }

    /// The words of folded text: runs of letters and digits; each Chinese or Japanese character
    /// is a word of its own.
    static func tokens(_ f: [UInt8], _ each: (ArraySlice<UInt8>) -> Void) {
        var start = -1
        var i = 0
        let n = f.count
        while i < n {
            let b = f[i]
            if b < 0x80 {
                if SearchText.isASCIIAlphanumeric(b) {
                    if start < 0 { start = i }
                } else if start >= 0 {
                    each(f[start..<i])
                    start = -1
                }
                i += 1
                continue
            }
            let (s, len) = scalar(at: i, in: f)
            if isIdeographic(s) || isSeparator(s) {
                if start >= 0 {
                    each(f[start..<i])
                    start = -1
                }
                if isIdeographic(s), !(0x3000...0x303F).contains(s) { each(f[i..<min(n, i + len)]) }
            } else if start < 0 {
                start = i
            }
            i += len
        }
        if start >= 0 { each(f[start..<n]) }
    }

    /// A word's letters, flags and letter mask.
    static func describe(_ w: ArraySlice<UInt8>) -> (letters: Int, flags: UInt8, mask: UInt32) {
        var letters = 0
        var flags: UInt8 = 0
        var mask: UInt32 = 0
        var i = w.startIndex
        while i < w.endIndex {
            let (s, len) = scalar(at: i, in: w)
            letters += 1
            if s >= 0x30 && s <= 0x39 { flags |= WordFlags.digit }
            if isIdeographic(s) { flags |= WordFlags.ideograph }
            if isHangul(s) { flags |= WordFlags.hangul }
            mask |= letterBit(s)
            i += len
        }
        return (letters, flags, mask)
    }

    @inline(__always) static func letterBit(_ s: UInt32) -> UInt32 {
        // a–z a bit each; anything else (digits, other letters) one of six more. A filter only:
        // an edit changes at most two bits, however letters share them.
        if s >= 0x61 && s <= 0x7A { return 1 << (s - 0x61) }
        return 1 << (26 + s % 6)
    }

    // MARK: Looking words up

    func word(_ w: Int) -> ArraySlice<UInt8> { vocab[Int(vocabStarts[w])..<Int(vocabStarts[w + 1])] }

    /// The first word not ordered before `key`.
    func lowerBound(_ key: ArraySlice<UInt8>) -> Int {
        var lo = 0
        var hi = vocabStarts.count - 1
        while lo < hi {
            let mid = (lo + hi) >> 1
            if word(mid).lexicographicallyPrecedes(key) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The words equal to `key`, or starting with it.
    func range(_ key: ArraySlice<UInt8>, prefix: Bool) -> Range<Int> {
        let lo = lowerBound(key)
        let n = vocabStarts.count - 1
        guard lo < n else { return lo..<lo }
        if !prefix { return word(lo).elementsEqual(key) ? lo..<(lo + 1) : lo..<lo }
        var hi = lo
        // Words starting with `key` follow it; the range ends at the first that does not.
        var step = 1
        while hi + step <= n, word(hi + step - 1).starts(with: key) { hi += step; step <<= 1 }
        var upper = min(n, hi + step)
        while hi < upper {
            let mid = (hi + upper) >> 1
            if word(mid).starts(with: key) { hi = mid + 1 } else { upper = mid }
        }
        return lo..<hi
    }

    /// The words whose stem in some language is the stem of `key` in that language.
    func stemWords(_ key: ArraySlice<UInt8>, _ each: (_ word: Int, _ language: Int) -> Void) {
        guard let stemmer, !stemLanguages.isEmpty else { return }
        for (l, language) in stemLanguages.enumerated() {
            guard let stem = stemmer.stem(key, language) else { continue }
            let k = [UInt8(l)] + stem
            var lo = 0
            var hi = stemKeyStarts.count - 1
            while lo < hi {
                let mid = (lo + hi) >> 1
                if stemKeys[Int(stemKeyStarts[mid])..<Int(stemKeyStarts[mid + 1])].lexicographicallyPrecedes(k) { lo = mid + 1 } else { hi = mid }
            }
            guard lo < stemKeyStarts.count - 1, stemKeys[Int(stemKeyStarts[lo])..<Int(stemKeyStarts[lo + 1])].elementsEqual(k) else { continue }
            for i in Int(stemWordStarts[lo])..<Int(stemWordStarts[lo + 1]) { each(Int(stemWords[i]), l) }
        }
    }

    /// Whether entry `e`'s slot is stemmed in stem language `l`.
    func slotStems(_ slot: UInt8, in l: Int) -> Bool {
        let language = slotLanguages[Int(slot)] ?? .english
        return stemLanguages[l] == language
    }

    /// Words within `k` edits of `key` (same first letter): Damerau's edits, counted in letters.
    func typoWords(_ key: ArraySlice<UInt8>, letters n: Int, edits k: Int, _ each: (Int) -> Void) {
        guard let first = key.first else { return }
        let r = range(key.prefix(1), prefix: true)
        guard !r.isEmpty else { return }
        let mask = Self.describe(key).mask
        let q = Self.scalars(key)
        var row0: [Int] = []
        var row1: [Int] = []
        var row2: [Int] = []
        var cand: [UInt32] = []
        // The first letter must match: with a multi-byte first letter, compare it whole.
        let firstLen = Self.scalar(at: key.startIndex, in: key).1
        for w in r {
            let len = Int(letters[w])
            guard abs(len - n) <= k, flags[w] & (WordFlags.digit | WordFlags.ideograph | WordFlags.hangul) == 0 else { continue }
            guard (masks[w] ^ mask).nonzeroBitCount <= 2 * k else { continue }
            let word = self.word(w)
            if firstLen > 1, !word.starts(with: key.prefix(firstLen)) { continue }
            _ = first
            cand.removeAll(keepingCapacity: true)
            Self.appendScalars(word, to: &cand)
            if Self.distance(q, cand, atMost: k, &row0, &row1, &row2) <= k { each(w) }
        }
    }

    static func scalars(_ w: ArraySlice<UInt8>) -> [UInt32] {
        var out: [UInt32] = []
        appendScalars(w, to: &out)
        return out
    }

    static func appendScalars(_ w: ArraySlice<UInt8>, to out: inout [UInt32]) {
        var i = w.startIndex
        while i < w.endIndex {
            let (s, len) = scalar(at: i, in: w)
            out.append(s)
            i += len
        }
    }

    /// The optimal-string-alignment distance of `a` and `b` (insertions, deletions,
    /// substitutions, transpositions of neighbours), or more than `k` as soon as it must be.
    static func distance(_ a: [UInt32], _ b: [UInt32], atMost k: Int, _ prev2: inout [Int], _ prev: inout [Int], _ cur: inout [Int]) -> Int {
        let n = a.count
        let m = b.count
        if abs(n - m) > k { return k + 1 }
        if n == 0 || m == 0 { return max(n, m) }
        prev2.removeAll(keepingCapacity: true)
        prev.removeAll(keepingCapacity: true)
        cur.removeAll(keepingCapacity: true)
        for j in 0...m { prev.append(j) }
        prev2 = prev
        cur = prev
        for i in 1...n {
            cur[0] = i
            var rowMin = i
            for j in 1...m {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, prev2[j - 2] + 1) }
                cur[j] = v
                if v < rowMin { rowMin = v }
            }
            if rowMin > k { return k + 1 }
            swap(&prev2, &prev)
            swap(&prev, &cur)
        }
        return prev[m]
    }

    /// How many typos a query word of `letters` letters may have.
    static func typos(letters: Int) -> Int { letters >= 9 ? 2 : letters >= 5 ? 1 : 0 }

    // MARK: Document sets

    /// ORs entry `e` into `any` (every document with it) and `name` (documents with it in a name).
    func or(entry e: Int, into any: inout [UInt64], _ name: inout [UInt64]) {
        let packed = Int(entryBits[e])
        if packed >= 0 {
            let n = bitWords
            let b = packed >> 1
            bits.withUnsafeBufferPointer { src in
                any.withUnsafeMutableBufferPointer { a in
                    for i in 0..<n { a[i] |= src[b + i] }
                }
                guard packed & 1 == 1 else { return }
                name.withUnsafeMutableBufferPointer { p in
                    for i in 0..<n { p[i] |= src[b + n + i] }
                }
            }
            return
        }
        posts.withUnsafeBufferPointer { ps in
            any.withUnsafeMutableBufferPointer { a in
                name.withUnsafeMutableBufferPointer { p in
                    for i in Int(entryPosts[e])..<Int(entryPosts[e + 1]) {
                        let v = ps[i]
                        let d = Int(v >> 1)
                        a[d >> 6] |= 1 << UInt64(d & 63)
                        if v & 1 == 1 { p[d >> 6] |= 1 << UInt64(d & 63) }
                    }
                }
            }
        }
    }

    /// Whether entry `e` has document `d`.
    func entry(_ e: Int, has d: Int) -> Bool {
        let b = Int(entryBits[e])
        if b >= 0 { return bits[(b >> 1) + d >> 6] & (1 << UInt64(d & 63)) != 0 }
        var lo = Int(entryPosts[e])
        var hi = Int(entryPosts[e + 1])
        while lo < hi {
            let mid = (lo + hi) >> 1
            let v = Int(posts[mid] >> 1)
            if v == d { return true }
            if v < d { lo = mid + 1 } else { hi = mid }
        }
        return false
    }

    /// How many documents word `w` is in (over its languages).
    func documentCount(_ w: Int) -> Int {
        var total = 0
        for e in Int(wordEntries[w])..<Int(wordEntries[w + 1]) {
            if entryBits[e] >= 0 {
                let b = Int(entryBits[e]) >> 1
                for i in 0..<bitWords { total += bits[b + i].nonzeroBitCount }
            } else {
                total += Int(entryPosts[e + 1] - entryPosts[e])
            }
        }
        return total
    }

    /// How a query word matched a document, best first.
    enum Kind: Int, Comparable {
        case typed = 0, stem = 1, typo = 2
        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// The entries one query word reaches, by how.
    struct Reach {
        var typed: [Int] = []
        var stem: [Int] = []
        var typo: [Int] = []
        var isEmpty: Bool { typed.isEmpty && stem.isEmpty && typo.isEmpty }
    }

    /// What the query word `key` reaches: the word (a prefix of words when `prefix`, always for
    /// Korean), its spelling variants and its stem in each language, and words a typo away.
    func reach(_ key: ArraySlice<UInt8>, prefix: Bool) -> Reach {
        var out = Reach()
        let info = Self.describe(key)
        let hangul = info.flags & WordFlags.hangul != 0
        // Prefixes from three bytes (a Korean syllable is three): shorter ones name too much.
        let asPrefix = (prefix && key.count >= 3) || hangul
        var typedWords = Set<Int>()
        for w in range(key, prefix: asPrefix) {
            typedWords.insert(w)
            for e in Int(wordEntries[w])..<Int(wordEntries[w + 1]) { out.typed.append(e) }
        }
        // Numbers, Chinese, Japanese and Korean are matched as typed only.
        guard info.flags == 0, info.letters >= 3 else { return out }
        var stemEntries = Set<Int>()
        stemWords(key) { w, l in
            guard !typedWords.contains(w) else { return }
            for e in Int(wordEntries[w])..<Int(wordEntries[w + 1]) where slotStems(entrySlot[e], in: l) { stemEntries.insert(e) }
        }
        for v in SpellingVariants.variants(of: key) {
            for w in range(v[...], prefix: asPrefix) where !typedWords.contains(w) {
                for e in Int(wordEntries[w])..<Int(wordEntries[w + 1]) { stemEntries.insert(e) }
            }
            stemWords(v[...]) { w, l in
                guard !typedWords.contains(w) else { return }
                for e in Int(wordEntries[w])..<Int(wordEntries[w + 1]) where slotStems(entrySlot[e], in: l) { stemEntries.insert(e) }
            }
        }
        out.stem = stemEntries.sorted()
        let k = Self.typos(letters: info.letters)
        if k > 0 {
            typoWords(key, letters: info.letters, edits: k) { w in
                guard !typedWords.contains(w) else { return }
                for e in Int(wordEntries[w])..<Int(wordEntries[w + 1]) where !stemEntries.contains(e) { out.typo.append(e) }
            }
        }
        return out
    }

    /// Documents matching every query word by words (not as a phrase), each with its tier:
    /// `SearchTier.words` (every word as typed, some only in a commentary), `stemName`,
    /// `stem`, `typoName`, `typo`. Packed as the index packs matches, in document order.
    func matches(_ q: [UInt8]) -> [UInt32] {
        var keys: [ArraySlice<UInt8>] = []
        Self.tokens(q) { keys.append($0) }
        guard !keys.isEmpty, count > 0 else { return [] }
        let n = bitWords
        // Per tier, the documents every word reaches that well.
        var all = [[UInt64]](repeating: [UInt64](repeating: ~0, count: n), count: 5)
        var any = [UInt64](repeating: 0, count: n)
        var name = [UInt64](repeating: 0, count: n)
        var stemAny = any, stemName = any, typoAny = any, typoName = any
        for (i, key) in keys.enumerated() {
            let r = reach(key, prefix: i == keys.count - 1)
            if r.isEmpty { return [] }
            for j in 0..<n { any[j] = 0; name[j] = 0; stemAny[j] = 0; stemName[j] = 0; typoAny[j] = 0; typoName[j] = 0 }
            for e in r.typed { or(entry: e, into: &any, &name) }
            for e in r.stem { or(entry: e, into: &stemAny, &stemName) }
            for e in r.typo { or(entry: e, into: &typoAny, &typoName) }
            for j in 0..<n {
                let sn = name[j] | stemName[j]
                let sa = any[j] | stemAny[j]
                all[0][j] &= any[j]
                all[1][j] &= sn
                all[2][j] &= sa
                all[3][j] &= sn | typoName[j]
                all[4][j] &= sa | typoAny[j]
            }
        }
        var out: [UInt32] = []
        let tiers: [UInt8] = [SearchTier.words, SearchTier.stemName, SearchTier.stem, SearchTier.typoName, SearchTier.typo]
        for j in 0..<n {
            var covered: UInt64 = 0
            var w = all[4][j]
            guard w != 0 else { continue }
            // Each document in order, with the first (best) tier that has it.
            while w != 0 {
                let bit = w.trailingZeroBitCount
                w &= w - 1
                let d = j << 6 | bit
                guard d < count else { break }
                var t = 4
                for k in 0..<4 where all[k][j] & (1 << UInt64(bit)) != 0 {
                    t = k
                    break
                }
                covered |= 1 << UInt64(bit)
                out.append(UInt32(d) << SearchIndex.tierBits | UInt32(tiers[t]))
            }
            _ = covered
        }
        return out
    }

    /// The language a word-level match of document `d` came from: the slot of the entry that
    /// matched a query word outside what the result shows (slot 0), if any. `reaches` are the
    /// query words' (`reach`), in order.
    func language(of d: Int, _ reaches: [Reach]) -> Language? {
        for r in reaches {
            for list in [r.typed, r.stem, r.typo] {
                var other: UInt8?
                var shown = false
                for e in list where entry(e, has: d) {
                    if entrySlot[e] == 0 {
                        shown = true
                        break
                    }
                    if other == nil { other = entrySlot[e] }
                }
                if shown { break }
                if let s = other { return slotLanguages[Int(s)] }
            }
        }
        return nil
    }

    // MARK: Did you mean

    /// The indexed words closest to `key` (up to a third of its letters changed, the first
    /// letter too), nearest first, then those in the most documents; at most `limit`.
    func closest(to key: ArraySlice<UInt8>, limit: Int = 8) -> [[UInt8]] {
        let info = Self.describe(key)
        guard info.flags == 0, info.letters >= 3 else { return [] }
        let k = max(1, min(3, info.letters / 3))
        let q = Self.scalars(key)
        var row0: [Int] = []
        var row1: [Int] = []
        var row2: [Int] = []
        var cand: [UInt32] = []
        var found: [(distance: Int, documents: Int, word: Int)] = []
        for w in 0..<(vocabStarts.count - 1) {
            let len = Int(letters[w])
            guard abs(len - info.letters) <= k, flags[w] == 0, (masks[w] ^ info.mask).nonzeroBitCount <= 2 * k else { continue }
            cand.removeAll(keepingCapacity: true)
            Self.appendScalars(word(w), to: &cand)
            let dist = Self.distance(q, cand, atMost: k, &row0, &row1, &row2)
            guard dist <= k, dist > 0 else { continue }
            found.append((dist, documentCount(w), w))
        }
        found.sort { a, b in a.distance != b.distance ? a.distance < b.distance : a.documents != b.documents ? a.documents > b.documents : a.word < b.word }
        return found.prefix(limit).map { Array(word($0.word)) }
    }

    /// Bytes the words take in memory (for the bench).
    /// What `memoryBytes` is made of, array by array (the search bench prints it).
    public var memoryDetail: [(String, Int)] {
        [
            ("vocab", vocab.count + vocabStarts.count * 4), ("letters+flags", letters.count + flags.count), ("masks", masks.count * 4),
            ("entries", wordEntries.count * 4 + entrySlot.count + entryPosts.count * 4 + entryBits.count * 4), ("posts", posts.count * 4),
            ("bits", bits.count * 8), ("stems", stemKeys.count + stemKeyStarts.count * 4 + stemWordStarts.count * 4 + stemWords.count * 4),
        ]
    }

    var memoryBytes: Int {
        vocab.count + vocabStarts.count * 4 + letters.count + flags.count + masks.count * 4 + wordEntries.count * 4 + entrySlot.count
            + entryPosts.count * 4 + entryBits.count * 4 + posts.count * 4 + bits.count * 8 + stemKeys.count + stemKeyStarts.count * 4
            + stemWordStarts.count * 4 + stemWords.count * 4
    }
}

/// British and American spellings that typo tolerance cannot cover (words under five letters,
/// which get no typo) or covers only one edit away from a longer word: searched as the other
/// spelling too, inside longer words ("harbormaster" finds "harbourmaster").
public enum SpellingVariants {
    /// (British, American).
    public static let pairs: [(String, String)] = [
        ("grey", "gray"), ("colour", "color"), ("harbour", "harbor"), ("theatre", "theater"), ("centre", "center"),
        ("neighbour", "neighbor"), ("favourite", "favorite"), ("jewellery", "jewelry"), ("armour", "armor"), ("honour", "honor"),
        ("labour", "labor"), ("mould", "mold"), ("plough", "plow"), ("sombre", "somber"), ("catalogue", "catalog"),
        ("metre", "meter"), ("fibre", "fiber"), ("sabre", "saber"), ("lustre", "luster"), ("ochre", "ocher"),
        ("arbour", "arbor"), ("parlour", "parlor"), ("vapour", "vapor"), ("rumour", "rumor"), ("splendour", "splendor"),
        ("tumour", "tumor"), ("moustache", "mustache"), ("pyjama", "pajama"), ("aluminium", "aluminum"), ("cheque", "check"),
    ]

    static let table: [(ArraySlice<UInt8>, [UInt8])] = pairs.flatMap { a, b -> [(ArraySlice<UInt8>, [UInt8])] in
        [(Array(a.utf8)[...], Array(b.utf8)), (Array(b.utf8)[...], Array(a.utf8))]
    }

    /// `word` with one spelling swapped for the other, for every pair found in it.
    static func variants(of word: ArraySlice<UInt8>) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (from, to) in table where word.count >= from.count {
            guard let r = find(from, in: word) else { continue }
            var v = Array(word[word.startIndex..<r.lowerBound])
            v += to
            v += word[r.upperBound...]
            // "color" is inside "colour": never offer the word itself back.
            if !v.elementsEqual(word) { out.append(v) }
        }
        return out
    }

    static func find(_ needle: ArraySlice<UInt8>, in hay: ArraySlice<UInt8>) -> Range<Int>? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        var i = hay.startIndex
        while i + needle.count <= hay.endIndex {
            if hay[i..<(i + needle.count)].elementsEqual(needle) { return i..<(i + needle.count) }
            i += 1
        }
        return nil
    }
}

/// The (entry, document, in a name) pairs, in document order, at four bytes a pair: the entry
/// with the name flag in its top bit, in chunks, and where each document's pairs begin (a
/// document's pairs come together). In chunks because appending then never reallocates what
/// is already there (an array that doubles holds its old and new storage at once), and chunks
/// move from one builder to another whole.
struct Pairs {
    static let chunkSize = 1 << 16
    private var full: [[UInt32]] = []
    private var current: [UInt32] = []
    private var stored = 0
    /// Each run of pairs of one document: the document and the number of its first pair.
    private var runDocs: [Int32] = []
    private var runStarts: [Int] = []

    var count: Int { stored + current.count }

    @inline(__always) mutating func append(entry: Int32, doc: Int32, inName: Bool) {
        if runDocs.last != doc {
            runDocs.append(doc)
            runStarts.append(count)
        }
        if current.count == Self.chunkSize { close() }
        current.append(UInt32(bitPattern: entry) | (inName ? 0x8000_0000 : 0))
    }

    private mutating func close() {
        if !current.isEmpty {
            stored += current.count
            full.append(current)
        }
        current = []
        current.reserveCapacity(Self.chunkSize)
    }

    /// Appends `other`'s pairs after these (its documents come after), each entry renumbered
    /// by `renumber`, its chunks taken over and changed in place, never copied.
    mutating func append(_ other: inout Pairs, renumber: (Int32) -> Int32) {
        close()
        let base = count
        for (d, start) in zip(other.runDocs, other.runStarts) where runDocs.last != d {
            runDocs.append(d)
            runStarts.append(base + start)
        }
        other.close()
        var chunks = other.full
        other = Pairs()
        for k in chunks.indices {
            var chunk = chunks[k]
            chunks[k] = []
            for i in chunk.indices {
                let v = chunk[i]
                chunk[i] = UInt32(bitPattern: renumber(Int32(bitPattern: v & 0x7FFF_FFFF))) | (v & 0x8000_0000)
            }
            stored += chunk.count
            full.append(chunk)
        }
    }

    /// Each pair in order: its entry and `document << 1 | inName`.
    func forEach(_ body: (Int32, UInt32) -> Void) {
        var run = 0
        var nextStart = runStarts.count > 1 ? runStarts[1] : Int.max
        var post: UInt32 = runDocs.isEmpty ? 0 : UInt32(runDocs[0]) << 1
        var i = 0
        func each(_ chunk: [UInt32]) {
            for v in chunk {
                while i == nextStart {
                    run += 1
                    post = UInt32(runDocs[run]) << 1
                    nextStart = run + 1 < runStarts.count ? runStarts[run + 1] : Int.max
                }
                body(Int32(bitPattern: v & 0x7FFF_FFFF), post | v >> 31)
                i += 1
            }
        }
        for chunk in full { each(chunk) }
        each(current)
    }

    /// (entry, post) of every pair, in order (for tests).
    var all: [(entry: Int32, post: UInt32)] {
        var out: [(entry: Int32, post: UInt32)] = []
        forEach { out.append(($0, $1)) }
        return out
    }
}

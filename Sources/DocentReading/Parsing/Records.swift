import Foundation

/// Iterates the records of a collection that may be an object keyed by id (the usual form)
/// or an array (some exports), reporting entries that are not objects.
enum Records {
    struct Entry {
        let path: String
        let key: String?
        let reader: FieldReader
    }

    static func entries(_ value: JSON?, name: String, _ ctx: ReadContext) -> [Entry] {
        guard let value, value != .null else { return [] }
        var out: [Entry] = []
        switch value {
        case .object(let o):
            out.reserveCapacity(o.count)
            for (k, v) in o.fields {
                let path = JSONPath.key(name, k)
                guard case .object(let rec) = v else {
                    ctx.dropped(path, id: k, "expected an object, found \(v.kindName)")
                    continue
                }
                out.append(Entry(path: path, key: k, reader: FieldReader(rec, path: path)))
            }
        case .array(let items):
            out.reserveCapacity(items.count)
            for (i, v) in items.enumerated() {
                let path = JSONPath.index(name, i)
                guard case .object(let rec) = v else {
                    ctx.dropped(path, "expected an object, found \(v.kindName)")
                    continue
                }
                out.append(Entry(path: path, key: nil, reader: FieldReader(rec, path: path)))
            }
        default:
            ctx.dropped(name, "expected an object or an array, found \(value.kindName)")
        }
        return out
    }

    /// Reads every entry with `read` (nil: dropped, said by `read`) and keeps the first record
    /// of each id, a later one dropped as "a second <what> with id N", all in document order.
    /// With `both`, the second half is read on another core with a context of its own, whose
    /// diagnostics are then put back where a reading in order would have said them.
    static func readAll<T>(
        _ entries: [Entry], _ ctx: ReadContext, both: ReadOptions.Both?, what: String, id: @escaping (T) -> Int,
        read: @escaping (Entry, ReadContext) -> T?
    ) -> [Int: T] {
        readAll(count: entries.count, walk: { range, body in for e in entries[range] { body(e) } }, ctx, both: both, what: what, id: id, read: read)
    }

    /// Entries handed over one at a time, in order, for a range of their places (`Ranged`
    /// makes each as it hands it over).
    typealias Walk = (_ places: Range<Int>, _ body: (Entry) -> Void) -> Void

    /// `readAll` of `count` entries that `walk` hands over.
    static func readAll<T>(
        count: Int, walk: Walk, _ ctx: ReadContext, both: ReadOptions.Both?, what: String, id: @escaping (T) -> Int,
        read: @escaping (Entry, ReadContext) -> T?
    ) -> [Int: T] {
        var out: [Int: T] = [:]
        out.reserveCapacity(count)
        func keep(_ path: String, _ record: T, _ ctx: ReadContext) {
            let n = id(record)
            if out[n] != nil {
                ctx.dropped(path, id: String(n), "a second \(what) with id \(n)")
            } else {
                out[n] = record
            }
        }
        guard let both, count >= parallelMinimum else {
            walk(0..<count) { e in
                if let r = read(e, ctx) { keep(e.path, r, ctx) }
            }
            return out
        }
        let mid = count / 2
        let side = ReadContext(resolver: ctx.resolver)
        side.imageServerURL = ctx.imageServerURL
        // The second half: each record with where its diagnostics end in `side`.
        var second: [(path: String, record: T?, saidUpTo: Int)] = []
        both({
            walk(0..<mid) { e in
                if let r = read(e, ctx) { keep(e.path, r, ctx) }
            }
        }, {
            second.reserveCapacity(count - mid)
            walk(mid..<count) { e in
                let r = read(e, side)
                second.append((e.path, r, side.diagnostics.count))
            }
        })
        var said = 0
        for result in second {
            ctx.diagnostics.append(contentsOf: side.diagnostics[said..<result.saidUpTo])
            said = result.saidUpTo
            if let r = result.record { keep(result.path, r, ctx) }
        }
        return out
    }

    /// The members of a collection whose records need what comes after it in the document (the
    /// artworks check their commentaries against the audio files, which follow them): while the
    /// document is parsed, each member is let go at once and only its place in the bytes kept;
    /// reading parses them again one at a time (`walk`). The collection's tree never exists
    /// whole, and the records' trees are made and let go one after another, so the memory they
    /// take is used again for the next instead of leaving holes between the records kept.
    final class Ranged {
        let name: String
        let bytes: JSONBytes
        /// Whether the last value of the key was kept this way (an object or an array).
        private(set) var lastStreamed = false
        /// Members that are not objects, said before any record is read (as `entries` does).
        private(set) var shapeFaults: [Diagnostic] = []
        private(set) var members: [(key: String?, range: Range<Int>, index: Int)] = []
        /// Whether one of the first 50 members of an object has a v1 `audio` array and no
        /// `audio_commentary` (what `AppDataReader.detectFormat` looks for in the tree).
        private(set) var looksV1 = false
        private var index = 0

        init(name: String, bytes: JSONBytes) {
            self.name = name
            self.bytes = bytes
        }

        func begin(_ streamed: Bool) {
            lastStreamed = streamed
            shapeFaults.removeAll()
            members.removeAll()
            looksV1 = false
            index = 0
        }

        func member(_ key: String?, _ value: JSON, _ range: Range<Int>) {
            defer { index += 1 }
            guard case .object(let rec) = value else {
                shapeFaults.append(Diagnostic(.dropped, path: Records.path(name, key, index), id: key, "expected an object, found \(value.kindName)"))
                return
            }
            if key != nil, index < AppDataReader.v1Sample, AppDataReader.looksV1(rec) { looksV1 = true }
            members.append((key, range, index))
        }

        var count: Int { members.count }

        /// Parses the members at `places` again and hands each over as an entry. One whose bytes
        /// no longer hold an object (the file changed under the reader) is left out: the reader
        /// then fails the whole document (`JSONBytes.changed`).
        func walk(_ places: Range<Int>, _ body: (Entry) -> Void) {
            let slice = members[places]
            JSONParser.parse(bytes, values: slice.lazy.map(\.range)) { k, result in
                guard case .success(.object(let rec)) = result else { return }
                let m = slice[slice.startIndex + k]
                let at = Records.path(name, m.key, m.index)
                body(Entry(path: at, key: m.key, reader: FieldReader(rec, path: at)))
            }
        }
    }

    /// The records of a collection read as the parser hands them over
    /// (`JSONParser.parse(_:deferring:streaming:)`), each let go once read, with a context of
    /// their own; `merge` then says everything in the order reading the collection from the
    /// tree would have (shape faults first, then each record's, a duplicate id where it comes).
    final class Streamed<T> {
        let name: String
        let side: ReadContext
        let read: (Entry, ReadContext) -> T?
        let what: String
        let id: (T) -> Int
        /// Whether the last value of the key was streamed (an object or an array).
        private(set) var lastStreamed = false
        private var shapeFaults: [Diagnostic] = []
        /// The records kept so far: the first of each id. Records come in document order, so a
        /// later one with the same id is dropped here, said just where reading in order says it.
        private(set) var records: [Int: T] = [:]
        private var index = 0

        init(name: String, what: String, context: ReadContext, id: @escaping (T) -> Int, read: @escaping (Entry, ReadContext) -> T?) {
            self.name = name
            self.what = what
            self.side = context
            self.id = id
            self.read = read
        }

        func begin(_ streamed: Bool) {
            lastStreamed = streamed
            side.diagnostics.removeAll()
            shapeFaults.removeAll()
            records.removeAll()
            index = 0
        }

        func member(_ key: String?, _ value: JSON) {
            let path = Records.path(name, key, index)
            index += 1
            guard case .object(let rec) = value else {
                shapeFaults.append(Diagnostic(.dropped, path: path, id: key, "expected an object, found \(value.kindName)"))
                return
            }
            guard let record = read(Entry(path: path, key: key, reader: FieldReader(rec, path: path)), side) else { return }
            let n = id(record)
            if records[n] != nil {
                side.dropped(path, id: String(n), "a second \(what) with id \(n)")
            } else {
                records[n] = record
            }
        }

        /// The records, their diagnostics said into `ctx` as reading the collection from the
        /// tree would have: every shape fault first (the tree's entries are listed before any
        /// is read), then each record's.
        func merge(into ctx: ReadContext) -> [Int: T] {
            ctx.diagnostics.append(contentsOf: shapeFaults)
            ctx.diagnostics.append(contentsOf: side.diagnostics)
            defer { records = [:] }
            return records
        }
    }

    /// Hands what the parser streams (`JSONStreaming`) to another core in batches: the parser
    /// goes on while the records are read there. The only waiting is here, on a condition.
    final class Pipe: @unchecked Sendable {
        enum Item {
            case begin(Bool)
            case member(String?, JSON)
        }

        private let condition = NSCondition()
        private var batches: [[Item]] = []
        private var closed = false
        private var batch: [Item] = []
        static let batchSize = 256

        /// Called by the parser (one thread).
        func put(_ item: Item) {
            batch.append(item)
            if batch.count >= Self.batchSize { flush() }
        }

        func flush() {
            guard !batch.isEmpty else { return }
            condition.lock()
            batches.append(batch)
            condition.signal()
            condition.unlock()
            batch = []
        }

        func close() {
            flush()
            condition.lock()
            closed = true
            condition.signal()
            condition.unlock()
        }

        /// Called by the reader (the other thread): the next batch, or nil once closed and empty.
        func take() -> [Item]? {
            condition.lock()
            defer { condition.unlock() }
            while batches.isEmpty && !closed { condition.wait() }
            return batches.isEmpty ? nil : batches.removeFirst()
        }
    }

    /// Where member `index` of collection `name` is: by its key in an object, its place in an array.
    static func path(_ name: String, _ key: String?, _ index: Int) -> String {
        key.map { JSONPath.key(name, $0) } ?? JSONPath.index(name, index)
    }

    /// Below this many records a collection is read on one core (starting a thread costs more).
    static let parallelMinimum = 2048

    /// The record id: `nid`, else the field key. Reports and returns nil when unusable.
    /// A record's non-empty `title` (cleaned as a title), or nil with the record dropped.
    static func title(_ e: Entry, id: Int, _ ctx: ReadContext) -> String? {
        guard let title = e.reader.requiredString("title", .title).value, !title.isEmpty else {
            ctx.dropped(e.path, id: String(id), "missing title")
            return nil
        }
        return title
    }

    static func id(_ e: Entry, field: String = "nid", _ ctx: ReadContext) -> Int? {
        switch e.reader.requiredInt(field) {
        case .success(let n): return n
        case .failure(let f):
            if let k = e.key, let n = Int(k), e.reader.isMissing(field) {
                ctx.note(e.path, id: k, "no \(field); using the key \(k)")
                return n
            }
            ctx.dropped(e.path, id: e.key, f.message)
            return nil
        }
    }
}

/// Reads `translations` arrays. A translation needs a language tag; English is never
/// overwritten by a translation (the AIC app let an unknown tag replace it); a repeated
/// language keeps the first.
enum Translations {
    static func each(_ r: FieldReader, id: String?, _ ctx: ReadContext, _ body: (Language, FieldReader) -> Void) {
        if r.isMissing("translations") {
            return
        }
        if let v = r["translations"], v.arrayValue == nil, v.objectValue.map({ $0.count == 0 }) != true {
            ctx.warning(r.path, id: id, "translations should be an array, found \(v.kindName)")
            return
        }
        var seen: [Language] = []  // a few languages: a list is cheaper than a set
        for (i, t) in r.translations() {
            let path = JSONPath.fieldIndex(r.path, "translations", i)
            guard let tag = t.value(forFieldName: "language")?.stringValue, let lang = ctx.language(tag) else {
                ctx.dropped(path, id: id, "translation without a usable language tag")
                continue
            }
            if lang == .english {
                ctx.warning(path, id: id, "translation tagged English ignored; the top-level record is English")
                continue
            }
            if !lang.isKnown {
                ctx.note(path, id: id, "language \"\(tag)\" is not one Docent knows; kept as \(lang.code)")
            }
            if seen.contains(lang) {
                ctx.warning(path, id: id, "second \(lang.code) translation ignored")
                continue
            }
            seen.append(lang)
            body(lang, FieldReader(t, path: path))
        }
    }
}

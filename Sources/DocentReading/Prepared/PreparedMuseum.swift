/// A museum already read, in a compact binary form: what a second start opens instead of
/// parsing the appData again (issue 14). Pure: bytes in, bytes out; the adapter decides where
/// the copy lives and whether it may be trusted (the file it was made from is unchanged).
///
/// Layout (little-endian, integers as LEB128 varints, signed ones zigzagged):
///
///     "DOCENT-MUSEUM\n" · u32 version · identity (string)
///     strings: count · middle index · middle offset (8 bytes) · (byte length << 1 | deferred · UTF-8)…
///              every distinct string once; the middle entry's place lets two cores read it
///     body size · body: the models, strings as indices into the table, the audio files
///              preceded by their length (read on one core while the rest is read on the other)
///
/// A copy whose identity differs, whose version is another, or that is damaged in any way
/// (short, a length past its end, an index out of range, bytes left over) decodes to nil and
/// the caller parses the appData as if there were no copy.
public enum PreparedMuseum {
    /// Bumped whenever the models or the readers change what a document becomes.
    public static let version: UInt32 = 3
    public static let magic = Array("DOCENT-MUSEUM\n".utf8)

    /// The prepared copy of `app`, stamped with `identity` (what the source was when read).
    public static func encode(_ app: AppData, identity: String) -> [UInt8] {
        var sink = ArraySink()
        encode(app, identity: identity, to: &sink)
        return sink.bytes
    }

    /// Writes the copy to `sink` as it is made: the models' body (strings as indices) is built
    /// first, then the string table goes out a piece at a time, each transcript read from the
    /// document just before it is written. The copy is never whole in memory, nor are the
    /// transcripts as strings; the document's pages they were read from are let go as the
    /// writing goes (`DeferredText.letSourceGo`).
    public static func encode<Sink: PreparedSink>(_ app: AppData, identity: String, to sink: inout Sink) throws(Sink.Failure) {
        var w = Writer()
        w.appData(app)
        w.index = [:]  // every string has its place now; the lookup is not needed while writing
        var out = Chunked(sink: sink)
        defer { sink = out.sink }
        out.append(contentsOf: magic)
        for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: version >> (8 * UInt32(i)))) }
        out.varint(UInt64(identity.utf8.count))
        out.append(contentsOf: identity.utf8)
        // Each entry's length shifted left once, its low bit saying "leave as bytes". The middle
        // entry's index and offset come first, so the two halves can be read at once; the
        // offset, known only once the first half is out, is a fixed eight bytes filled in then.
        let middle = w.table.count / 2
        out.varint(UInt64(w.table.count))
        out.varint(UInt64(middle))
        let middleField = out.offset
        out.append(contentsOf: [UInt8](repeating: 0, count: 8))
        let tableStart = out.offset
        var middleOffset = 0
        var sinceLetGo = 0
        for k in w.table.indices {
            if k == middle { middleOffset = out.offset - tableStart }
            switch w.table[k] {
            case .plain(var text):
                out.varint(UInt64(text.utf8.count) << 1)
                text.withUTF8 { out.append(contentsOf: $0) }
            case .long(let deferred):
                var text = deferred.string
                out.varint(UInt64(text.utf8.count) << 1 | 1)
                text.withUTF8 { out.append(contentsOf: $0) }
                sinceLetGo += text.utf8.count
                if sinceLetGo >= Self.letGoEvery || k == w.lastLong {
                    deferred.letSourceGo()
                    sinceLetGo = 0
                }
            }
            try out.flushIfFull()
        }
        out.varint(UInt64(w.body.count))
        out.append(contentsOf: w.body)
        try out.flush()
        try out.sink.patch((0..<8).map { UInt8(truncatingIfNeeded: UInt64(middleOffset) >> (8 * UInt64($0))) }, at: middleField)
    }

    /// How many bytes of transcripts are read from the document between two times its pages
    /// are let go.
    static let letGoEvery = 1 << 20

    /// The identity a copy was stamped with, without decoding the rest (nil: not a copy of
    /// this version).
    public static func identity(of bytes: UnsafeRawBufferPointer) -> String? {
        var r = Reader(bytes, owner: nil)
        return try? r.header()
    }

    /// The museum in `bytes` if they are an intact copy stamped with `identity`. Transcripts
    /// stay in `bytes` (which the museum then keeps alive) until the player reads one.
    /// `both` (from the adapter: this target starts no thread) reads the two halves of the
    /// string table, then the audio files and the rest, on two cores.
    public static func decode(_ bytes: SharedBytes, identity: String, both: ReadOptions.Both? = nil) -> AppData? {
        var r = Reader(bytes.bytes, owner: bytes)
        do {
            guard try r.header() == identity else { return nil }
            try r.stringTable(both: both)
            let size = try r.count()
            guard size == r.remaining else { return nil }
            let app = try r.appData(both: both)
            return r.remaining == 0 ? app : nil
        } catch {
            return nil
        }
    }

    public static func decode(_ bytes: [UInt8], identity: String, both: ReadOptions.Both? = nil) -> AppData? {
        decode(SharedBytes(copying: bytes), identity: identity, both: both)
    }
}

// MARK: - Writing

/// Where a copy goes as it is written (`PreparedMuseum.encode(_:identity:to:)`): a file for the
/// adapter, an array for tests.
public protocol PreparedSink {
    associatedtype Failure: Error
    /// Appends `bytes`.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(Failure)
    /// Overwrites bytes already written, from `offset` on.
    mutating func patch(_ bytes: [UInt8], at offset: Int) throws(Failure)
}

/// A copy made in memory.
public struct ArraySink: PreparedSink {
    public typealias Failure = Never
    public var bytes: [UInt8] = []
    public init() {}
    public mutating func write(_ bytes: UnsafeRawBufferPointer) { self.bytes.append(contentsOf: bytes) }
    public mutating func patch(_ bytes: [UInt8], at offset: Int) { self.bytes.replaceSubrange(offset..<offset + bytes.count, with: bytes) }
}

/// Gathers small appends into pieces of `pieceSize` for the sink.
private struct Chunked<Sink: PreparedSink> {
    var sink: Sink
    var buffer: [UInt8] = []
    /// Bytes handed to the sink so far.
    var written = 0
    static var pieceSize: Int { 1 << 20 }

    init(sink: Sink) {
        self.sink = sink
        buffer.reserveCapacity(Self.pieceSize + 4096)
    }

    var offset: Int { written + buffer.count }
    mutating func append(_ byte: UInt8) { buffer.append(byte) }
    mutating func append<C: Collection>(contentsOf bytes: C) where C.Element == UInt8 { buffer.append(contentsOf: bytes) }
    mutating func varint(_ v: UInt64) { Writer.varint(v, into: &buffer) }
    mutating func flushIfFull() throws(Sink.Failure) {
        if buffer.count >= Self.pieceSize { try flush() }
    }
    mutating func flush() throws(Sink.Failure) {
        let count = buffer.count
        var failure: Sink.Failure?
        buffer.withUnsafeBytes { bytes in
            do throws(Sink.Failure) { try sink.write(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
        written += count
        buffer.removeAll(keepingCapacity: true)
    }
}

private struct Writer {
    enum Entry {
        case plain(String)
        /// Left as bytes when the copy is opened; read from its document only when written.
        case long(DeferredText)
    }

    var body: [UInt8] = []
    var table: [Entry] = []
    /// The last `.long` entry (its document's pages are let go after it).
    var lastLong = -1
    var index: [Bytes: UInt32] = [:]

    /// A string compared and hashed by its UTF-8 bytes: `String`'s own hashing normalises
    /// (NFC) every non-ASCII string first, which made writing a CJK museum three times slower.
    struct Bytes: Hashable {
        let s: String
        static func == (a: Bytes, b: Bytes) -> Bool { a.s.utf8.elementsEqual(b.s.utf8) }
        func hash(into h: inout Hasher) {
            var s = s
            s.withUTF8 { h.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    static func varint(_ v: UInt64, into out: inout [UInt8]) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    mutating func u(_ v: Int) { Self.varint(UInt64(v), into: &body) }
    mutating func i(_ v: Int) { Self.varint(UInt64(bitPattern: Int64((v << 1) ^ (v >> 63))), into: &body) }
    mutating func bool(_ b: Bool) { body.append(b ? 1 : 0) }
    mutating func f64(_ d: Double) {
        let bits = d.bitPattern
        for k in 0..<8 { body.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(k)))) }
    }
    mutating func s(_ v: String) {
        if let k = index[Bytes(s: v)] {
            u(Int(k))
            return
        }
        let k = UInt32(table.count)
        index[Bytes(s: v)] = k
        table.append(.plain(v))
        u(Int(k))
    }
    /// A text (a transcript) that is rarely repeated and read lazily: written to the table
    /// without being looked up, flagged so that opening the copy leaves it in place.
    mutating func long(_ v: DeferredText) {
        lastLong = table.count
        u(table.count)
        table.append(.long(v))
    }
    /// A flag, then the value when there is one.
    mutating func optional<T>(_ v: T?, _ write: (inout Writer, T) -> Void) {
        bool(v != nil)
        if let v { write(&self, v) }
    }
    mutating func os(_ v: String?) { optional(v) { $0.s($1) } }
    mutating func oi(_ v: Int?) { optional(v) { $0.i($1) } }
    mutating func latLon(_ p: LatLon) {
        f64(p.lat)
        f64(p.lon)
    }
    mutating func oLatLon(_ p: LatLon?) { optional(p) { $0.latLon($1) } }
    mutating func floor(_ f: Floor) { i(f.number) }
    mutating func oFloor(_ f: Floor?) { oi(f?.number) }
    mutating func ints(_ v: [Int]) {
        u(v.count)
        for x in v { i(x) }
    }
    /// A dictionary in key order, so the same museum always gives the same bytes.
    mutating func translations<T>(_ d: [Language: T], _ value: (inout Writer, T) -> Void) {
        u(d.count)
        for (k, v) in d.sorted(by: { $0.key.code < $1.key.code }) {
            s(k.code)
            value(&self, v)
        }
    }

    mutating func appData(_ a: AppData) {
        s(a.format.rawValue)
        s(a.source)
        u(a.galleries.count)
        for g in a.galleries.values.sorted(by: { $0.id < $1.id }) { gallery(g) }
        u(a.artworks.count)
        for x in a.artworks.values.sorted(by: { $0.id < $1.id }) { artwork(x) }
        // The audio files with their length in front: opening the copy reads them on one core
        // while it reads the rest on the other.
        let before = body
        body = []
        u(a.audioFiles.count)
        for x in a.audioFiles.values.sorted(by: { $0.id < $1.id }) { audioFile(x) }
        let audio = body
        body = before
        u(audio.count)
        body.append(contentsOf: audio)
        u(a.tours.count)
        for t in a.tours { tour(t) }
        u(a.tourCategories.count)
        for c in a.tourCategories {
            i(c.id)
            s(c.name)
            translations(c.translations) { $0.s($1) }
        }
        u(a.mapFloors.count)
        for f in a.mapFloors {
            floor(f.floor)
            s(f.label)
            s(f.planURL)
            f64(f.anchorPoints.0.x)
            f64(f.anchorPoints.0.y)
            f64(f.anchorPoints.1.x)
            f64(f.anchorPoints.1.y)
            latLon(f.anchorLocations.0)
            latLon(f.anchorLocations.1)
        }
        u(a.annotations.count)
        for n in a.annotations { annotation(n) }
        textRecord(a.generalInfo.english)
        translations(a.generalInfo.translations) { $0.textRecord($1) }
        let e = a.endpoints
        for v in [e.imageServerURL, e.dataAPIURL, e.exhibitionsEndpoint, e.eventsEndpoint, e.autocompleteEndpoint,
                  e.multisearchEndpoint, e.artworksEndpoint, e.toursEndpoint, e.membershipURL, e.websiteURL, e.ticketsURL] {
            os(v)
        }
        u(a.search.strings.count)
        for x in a.search.strings { s(x) }
        ints(a.search.artworkIDs)
        u(a.messages.count)
        for m in a.messages { message(m) }
        u(a.exhibitionOrder.count)
        for x in a.exhibitionOrder {
            i(x.exhibitionID)
            i(x.sort)
            os(x.imageURL)
        }
        ints(a.featuredTourIDs)
        ints(a.featuredExhibitionIDs)
        u(a.diagnostics.count)
        for d in a.diagnostics {
            s(d.severity.rawValue)
            s(d.path)
            os(d.id)
            s(d.message)
        }
        u(a.keypad.tours.count)
        for (n, ids) in a.keypad.tours.sorted(by: { $0.key < $1.key }) {
            i(n)
            ints(ids)
        }
        u(a.keypad.artworks.count)
        for (n, targets) in a.keypad.artworks.sorted(by: { $0.key < $1.key }) {
            i(n)
            u(targets.count)
            for t in targets {
                switch t {
                case .tour(let id):
                    body.append(0)
                    i(id)
                case .artwork(let id, let audio):
                    body.append(1)
                    i(id)
                    i(audio)
                }
            }
        }
    }

    mutating func gallery(_ g: Gallery) {
        i(g.id)
        s(g.title)
        oi(g.galleryID)
        bool(g.closed)
        latLon(g.location)
        floor(g.floor)
    }

    mutating func artwork(_ x: Artwork) {
        i(x.id)
        s(x.title)
        s(x.tombstone)
        s(x.credits)
        i(x.galleryID)
        s(x.galleryTitle)
        floor(x.floor)
        oLatLon(x.location)
        oi(x.collectionID)
        os(x.imageURL)
        u(x.commentaries.count)
        for c in x.commentaries {
            oi(c.selectorNumber)
            i(c.audioID)
        }
    }

    mutating func audioVersion(_ v: AudioVersion) {
        s(v.url)
        long(v.transcriptText)
        s(v.trackTitle)
    }

    mutating func audioFile(_ x: AudioFile) {
        i(x.id)
        s(x.title)
        s(x.english.language.code)
        audioVersion(x.english)
        translations(x.translations) { w, v in
            w.s(v.language.code)
            w.audioVersion(v)
        }
    }

    mutating func tourText(_ t: TourText) {
        s(t.title)
        s(t.description)
        s(t.intro)
        os(t.duration)
    }

    mutating func tour(_ t: Tour) {
        i(t.id)
        tourText(t.english)
        translations(t.translations) { $0.tourText($1) }
        os(t.imageURL)
        i(t.introAudioID)
        i(t.weight)
        oLatLon(t.location)
        oFloor(t.floor)
        oi(t.selectorNumber)
        os(t.category)
        os(t.banner)
        u(t.stops.count)
        for p in t.stops {
            i(p.sort)
            i(p.artworkID)
            i(p.audioID)
            oi(p.bumperID)
        }
    }

    mutating func annotation(_ n: MapAnnotation) {
        i(n.id)
        switch n.kind {
        case .amenity(let type):
            body.append(0)
            s(type.rawValue)
        case .landmark: body.append(1)
        case .garden: body.append(2)
        case .space: body.append(3)
        case .department: body.append(4)
        }
        oFloor(n.floor)
        latLon(n.location)
        s(n.label)
        s(n.description)
        os(n.imageURL)
    }

    mutating func textRecord(_ d: [String: String]) {
        u(d.count)
        for (k, v) in d.sorted(by: { $0.key < $1.key }) {
            s(k)
            s(v)
        }
    }

    mutating func messageText(_ t: Message.Text) {
        s(t.title)
        s(t.body)
        os(t.actionTitle)
    }

    mutating func message(_ m: Message) {
        i(m.id)
        switch m.kind {
        case .launch: body.append(0)
        case .tourExit(let id):
            body.append(1)
            i(id)
        case .memberExpiration(let seconds):
            body.append(2)
            i(seconds)
        }
        bool(m.persistent)
        messageText(m.english)
        translations(m.translations) { $0.messageText($1) }
        os(m.actionURL)
    }
}

// MARK: - Reading

private struct Damaged: Error {}

private struct Reader {
    let base: UnsafeRawBufferPointer
    let owner: SharedBytes?
    var at = 0
    var strings: [String] = []
    /// Per table entry left as bytes: where they start (-1: in `strings`) and how many.
    var starts: [Int] = []
    var counts: [Int] = []

    init(_ bytes: UnsafeRawBufferPointer, owner: SharedBytes?) {
        base = bytes
        self.owner = owner
    }

    var remaining: Int { base.count - at }

    mutating func byte() throws -> UInt8 {
        guard at < base.count else { throw Damaged() }
        defer { at += 1 }
        return base[at]
    }

    /// One byte for most values (ids, counts, string indices under 128); the rest in `varintTail`.
    @inline(__always) mutating func varint() throws -> UInt64 {
        guard at < base.count else { throw Damaged() }
        let b = base[at]
        at += 1
        if b < 0x80 { return UInt64(b) }
        return try varintTail(UInt64(b & 0x7F))
    }

    mutating func varintTail(_ first: UInt64) throws -> UInt64 {
        var v = first
        var shift: UInt64 = 7
        while true {
            let b = try byte()
            guard shift < 64 else { throw Damaged() }
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
    }

    /// A count or length: never more than the bytes left could hold.
    mutating func count() throws -> Int {
        let v = try varint()
        guard v <= UInt64(remaining) else { throw Damaged() }
        return Int(v)
    }

    mutating func i() throws -> Int {
        let v = try varint()
        return Int(Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))))
    }

    mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Damaged()
        }
    }

    mutating func f64() throws -> Double {
        guard remaining >= 8 else { throw Damaged() }
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(base[at + k]) << (8 * UInt64(k)) }
        at += 8
        return Double(bitPattern: bits)
    }

    mutating func rawString() throws -> String {
        let n = try count()
        defer { at += n }
        return String(decoding: UnsafeRawBufferPointer(rebasing: base[at..<at + n]), as: UTF8.self)
    }

    mutating func header() throws -> String {
        let m = PreparedMuseum.magic
        guard remaining >= m.count + 4 else { throw Damaged() }
        for k in 0..<m.count where base[at + k] != m[k] { throw Damaged() }
        at += m.count
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(base[at + k]) << (8 * UInt32(k)) }
        at += 4
        guard v == PreparedMuseum.version else { throw Damaged() }
        return try rawString()
    }

    mutating func stringTable(both: ReadOptions.Both?) throws {
        let n = try count()
        let middle = try count()
        guard middle <= n, remaining >= 8 else { throw Damaged() }
        var field: UInt64 = 0
        for k in 0..<8 { field |= UInt64(base[at + k]) << (8 * UInt64(k)) }
        at += 8
        guard field <= UInt64(remaining) else { throw Damaged() }
        let middleOffset = Int(field)
        let tableStart = at
        guard let both, n >= Self.parallelEntries else {
            try entries(n, middle: middle, at: tableStart + middleOffset)
            return
        }
        var second = Reader(base, owner: owner)
        second.at = tableStart + middleOffset
        var firstFailed = false
        var secondFailed = false
        both({
            do { try self.entries(middle, middle: middle, at: tableStart + middleOffset) } catch { firstFailed = true }
        }, {
            do { try second.entries(n - middle, middle: -1, at: 0) } catch { secondFailed = true }
        })
        guard !firstFailed, !secondFailed, at == tableStart + middleOffset else { throw Damaged() }
        strings.append(contentsOf: second.strings)
        starts.append(contentsOf: second.starts)
        counts.append(contentsOf: second.counts)
        at = second.at
    }

    /// How many bytes of the table are read between two times the owner hears of them.
    static let passStep = 1 << 20

    /// Below this many strings the table is read on one core.
    static let parallelEntries = 4096

    /// `n` table entries from `at`; the entry numbered `middle` must start at `middleAt`.
    mutating func entries(_ n: Int, middle: Int, at middleAt: Int) throws {
        strings.reserveCapacity(strings.count + n)
        starts.reserveCapacity(starts.count + n)
        counts.reserveCapacity(counts.count + n)
        // The table is most of a copy (the transcripts): the pages read go as the reading goes.
        var passedUpTo = at
        defer { owner?.passed?(passedUpTo..<at) }
        for k in 0..<n {
            if at - passedUpTo >= Self.passStep {
                owner?.passed?(passedUpTo..<at)
                passedUpTo = at
            }
            if k == middle, at != middleAt { throw Damaged() }
            let head = try varint()
            let length = head >> 1
            guard length <= UInt64(remaining) else { throw Damaged() }
            let count = Int(length)
            if head & 1 == 1, owner != nil {
                strings.append("")
                starts.append(at)
            } else {
                strings.append(String(decoding: UnsafeRawBufferPointer(rebasing: base[at..<at + count]), as: UTF8.self))
                starts.append(-1)
            }
            counts.append(count)
            at += count
        }
    }

    mutating func index() throws -> Int {
        let k = try varint()
        guard k < UInt64(strings.count) else { throw Damaged() }
        return Int(k)
    }

    mutating func s() throws -> String {
        let k = try index()
        if starts[k] >= 0 {
            // A flagged entry read as a plain string (never by a copy this program wrote).
            strings[k] = String(decoding: UnsafeRawBufferPointer(rebasing: base[starts[k]..<starts[k] + counts[k]]), as: UTF8.self)
            starts[k] = -1
        }
        return strings[k]
    }

    /// A text that may stay in the copy until read.
    mutating func deferred() throws -> DeferredText {
        let k = try index()
        if starts[k] >= 0, let owner { return DeferredText(owner, start: starts[k], count: counts[k]) }
        return DeferredText(strings[k])
    }

    mutating func os() throws -> String? { try bool() ? try s() : nil }
    mutating func oi() throws -> Int? { try bool() ? try i() : nil }
    mutating func latLon() throws -> LatLon { LatLon(lat: try f64(), lon: try f64()) }
    mutating func oLatLon() throws -> LatLon? { try bool() ? try latLon() : nil }
    mutating func floor() throws -> Floor { Floor(try i()) }
    mutating func oFloor() throws -> Floor? { try oi().map(Floor.init) }
    mutating func ints() throws -> [Int] {
        let n = try count()
        var v: [Int] = []
        v.reserveCapacity(n)
        for _ in 0..<n { v.append(try i()) }
        return v
    }
    mutating func translations<T>(_ value: (inout Reader) throws -> T) throws -> [Language: T] {
        let n = try count()
        var d: [Language: T] = [:]
        d.reserveCapacity(n)
        for _ in 0..<n {
            let k = Language(code: try s())
            d[k] = try value(&self)
        }
        return d
    }

    mutating func appData(both: ReadOptions.Both?) throws -> AppData {
        guard let format = AppDataFormat(rawValue: try s()) else { throw Damaged() }
        var a = AppData(format: format, source: try s())
        var n = try count()
        a.galleries.reserveCapacity(n)
        for _ in 0..<n {
            let g = try gallery()
            a.galleries[g.id] = g
        }
        n = try count()
        a.artworks.reserveCapacity(n)
        for _ in 0..<n {
            let x = try artwork()
            a.artworks[x.id] = x
        }
        let audioBytes = try count()
        var audio = Reader(base, owner: owner)
        audio.strings = strings
        audio.starts = starts
        audio.counts = counts
        audio.at = at
        at += audioBytes
        let audioEnd = at
        var files: [Int: AudioFile] = [:]
        var audioFailed = false
        var restFailed = false
        let readAudio = {
            do {
                let n = try audio.count()
                files.reserveCapacity(n)
                for _ in 0..<n {
                    let x = try audio.audioFile()
                    files[x.id] = x
                }
                if audio.at != audioEnd { audioFailed = true }
            } catch {
                audioFailed = true
            }
        }
        if let both {
            both({
                do { try self.rest(&a) } catch { restFailed = true }
            }, readAudio)
        } else {
            readAudio()
            try rest(&a)
        }
        guard !audioFailed, !restFailed else { throw Damaged() }
        a.audioFiles = files
        return a
    }

    /// Everything after the audio files.
    mutating func rest(_ a: inout AppData) throws {
        var n = try count()
        a.tours.reserveCapacity(n)
        for _ in 0..<n { a.tours.append(try tour()) }
        n = try count()
        for _ in 0..<n {
            a.tourCategories.append(TourCategory(id: try i(), name: try s(), translations: try translations { try $0.s() }))
        }
        n = try count()
        for _ in 0..<n {
            let floor = try floor()
            let label = try s()
            let url = try s()
            let p0 = PlanPoint(x: try f64(), y: try f64())
            let p1 = PlanPoint(x: try f64(), y: try f64())
            let l0 = try latLon()
            let l1 = try latLon()
            a.mapFloors.append(MapFloor(floor: floor, label: label, planURL: url, anchorPoints: (p0, p1), anchorLocations: (l0, l1)))
        }
        n = try count()
        for _ in 0..<n { a.annotations.append(try annotation()) }
        let english = try textRecord()
        a.generalInfo = GeneralInfo(english: english, translations: try translations { try $0.textRecord() })
        var e = DataEndpoints()
        e.imageServerURL = try os()
        e.dataAPIURL = try os()
        e.exhibitionsEndpoint = try os()
        e.eventsEndpoint = try os()
        e.autocompleteEndpoint = try os()
        e.multisearchEndpoint = try os()
        e.artworksEndpoint = try os()
        e.toursEndpoint = try os()
        e.membershipURL = try os()
        e.websiteURL = try os()
        e.ticketsURL = try os()
        a.endpoints = e
        n = try count()
        for _ in 0..<n { a.search.strings.append(try s()) }
        a.search.artworkIDs = try ints()
        n = try count()
        for _ in 0..<n { a.messages.append(try message()) }
        n = try count()
        for _ in 0..<n { a.exhibitionOrder.append(ExhibitionOrder(exhibitionID: try i(), sort: try i(), imageURL: try os())) }
        a.featuredTourIDs = try ints()
        a.featuredExhibitionIDs = try ints()
        n = try count()
        a.diagnostics.reserveCapacity(n)
        for _ in 0..<n {
            guard let severity = Diagnostic.Severity(rawValue: try s()) else { throw Damaged() }
            let path = try s()
            let id = try os()
            a.diagnostics.append(Diagnostic(severity, path: path, id: id, try s()))
        }
        var tours: [Int: [Int]] = [:]
        n = try count()
        for _ in 0..<n { tours[try i()] = try ints() }
        var artworks: [Int: [KeypadIndex.Target]] = [:]
        n = try count()
        artworks.reserveCapacity(n)
        for _ in 0..<n {
            let number = try i()
            let m = try count()
            var targets: [KeypadIndex.Target] = []
            targets.reserveCapacity(m)
            for _ in 0..<m {
                switch try byte() {
                case 0: targets.append(.tour(tourID: try i()))
                case 1: targets.append(.artwork(artworkID: try i(), audioID: try i()))
                default: throw Damaged()
                }
            }
            artworks[number] = targets
        }
        a.keypad = KeypadIndex(tours: tours, artworks: artworks)
    }

    mutating func gallery() throws -> Gallery {
        Gallery(id: try i(), title: try s(), galleryID: try oi(), closed: try bool(), location: try latLon(), floor: try floor())
    }

    mutating func artwork() throws -> Artwork {
        let id = try i(), title = try s(), tombstone = try s(), credits = try s(), galleryID = try i(), galleryTitle = try s()
        let floor = try floor(), location = try oLatLon(), collectionID = try oi(), imageURL = try os()
        let n = try count()
        var commentaries: [Commentary] = []
        commentaries.reserveCapacity(n)
        for _ in 0..<n { commentaries.append(Commentary(selectorNumber: try oi(), audioID: try i())) }
        return Artwork(
            id: id, title: title, tombstone: tombstone, credits: credits, galleryID: galleryID, galleryTitle: galleryTitle,
            floor: floor, location: location, collectionID: collectionID, imageURL: imageURL, commentaries: commentaries)
    }

    mutating func audioVersion(_ language: Language) throws -> AudioVersion {
        AudioVersion(language: language, url: try s(), transcriptText: try deferred(), trackTitle: try s())
    }

    mutating func audioFile() throws -> AudioFile {
        let id = try i(), title = try s()
        let english = try audioVersion(Language(code: try s()))
        let translations = try translations { r in try r.audioVersion(Language(code: try r.s())) }
        return AudioFile(id: id, title: title, english: english, translations: translations)
    }

    mutating func tourText() throws -> TourText {
        TourText(title: try s(), description: try s(), intro: try s(), duration: try os())
    }

    mutating func tour() throws -> Tour {
        let id = try i(), english = try tourText(), translations = try translations { try $0.tourText() }
        let imageURL = try os(), intro = try i(), weight = try i(), location = try oLatLon(), floor = try oFloor()
        let selector = try oi(), category = try os(), banner = try os()
        let n = try count()
        var stops: [TourStop] = []
        stops.reserveCapacity(n)
        for _ in 0..<n { stops.append(TourStop(sort: try i(), artworkID: try i(), audioID: try i(), bumperID: try oi())) }
        return Tour(
            id: id, english: english, translations: translations, imageURL: imageURL, introAudioID: intro, weight: weight,
            location: location, floor: floor, selectorNumber: selector, category: category, banner: banner, stops: stops)
    }

    mutating func annotation() throws -> MapAnnotation {
        let id = try i()
        let kind: AnnotationKind
        switch try byte() {
        case 0:
            guard let type = AmenityType(rawValue: try s()) else { throw Damaged() }
            kind = .amenity(type)
        case 1: kind = .landmark
        case 2: kind = .garden
        case 3: kind = .space
        case 4: kind = .department
        default: throw Damaged()
        }
        return MapAnnotation(
            id: id, kind: kind, floor: try oFloor(), location: try latLon(), label: try s(), description: try s(), imageURL: try os())
    }

    mutating func textRecord() throws -> [String: String] {
        let n = try count()
        var d: [String: String] = [:]
        d.reserveCapacity(n)
        for _ in 0..<n {
            let k = try s()
            d[k] = try s()
        }
        return d
    }

    mutating func messageText() throws -> Message.Text {
        Message.Text(title: try s(), body: try s(), actionTitle: try os())
    }

    mutating func message() throws -> Message {
        let id = try i()
        let kind: Message.Kind
        switch try byte() {
        case 0: kind = .launch
        case 1: kind = .tourExit(tourID: try i())
        case 2: kind = .memberExpiration(thresholdSeconds: try i())
        default: throw Damaged()
        }
        return Message(
            id: id, kind: kind, persistent: try bool(), english: try messageText(), translations: try translations { try $0.messageText() },
            actionURL: try os())
    }
}

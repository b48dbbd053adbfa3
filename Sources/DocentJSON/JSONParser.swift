/// Why a document is not JSON, with the place it went wrong.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case empty
        /// Only spaces, tabs and line breaks (issue 45: 250 MB of spaces was "the file is empty").
        case blank
        case truncated
        case unexpected(String)
        case invalidUTF8
        case tooDeep(limit: Int)
        case trailingData
    }

    public var kind: Kind
    public var line: Int
    public var column: Int

    public var description: String {
        let at = "at line \(line), column \(column)"
        switch kind {
        case .empty: return "the file is empty"
        case .blank: return "the file holds only blank space (spaces and line breaks), no data"
        case .truncated: return "the JSON ends too early \(at) (truncated file?)"
        case .unexpected(let what): return "unexpected \(what) \(at)"
        case .invalidUTF8: return "invalid UTF-8 text \(at)"
        case .tooDeep(let limit): return "more than \(limit) levels of nesting \(at)"
        case .trailingData: return "extra data after the JSON value \(at)"
        }
    }
}

/// What the adapter holding a document's bytes (a mapped file) does with its pages.
public protocol JSONPages: AnyObject, Sendable {
    /// The parser will not read before `offset` again (only a deferred string, or the count of
    /// lines for an error, reads there later): those pages may go from memory, to be read
    /// again from the file if they are asked for. Called by the parsing thread.
    func passed(_ offset: Int)
    /// Let every page go that is in memory now (after reading many deferred strings at once).
    func letGo()
    /// Whether the bytes changed under the reader (a mapped file cut short: its missing pages
    /// read as zeros).
    var changed: Bool { get }
}

/// A document's bytes, shared by the strings left in them (`JSON.rawString`): an array, or
/// bytes owned elsewhere (a file mapped by the adapter: this target does no I/O).
public final class JSONBytes: @unchecked Sendable {
    private let array: [UInt8]
    private let mapped: UnsafeRawBufferPointer?
    private let release: (@Sendable () -> Void)?
    let pages: (any JSONPages)?

    public init(_ array: consuming [UInt8]) {
        self.array = array
        mapped = nil
        release = nil
        pages = nil
    }

    /// `bytes` stay valid until `release` is called (from `deinit`); `pages` hears how far the
    /// parser has read and says whether the bytes changed.
    public init(_ bytes: UnsafeRawBufferPointer, release: (@Sendable () -> Void)?, pages: (any JSONPages)? = nil) {
        array = []
        mapped = bytes
        self.release = release
        self.pages = pages
    }

    deinit { release?() }

    /// Whether the bytes changed while they were read (see `JSONPages`); never for an array.
    public var changed: Bool { pages?.changed ?? false }

    /// Lets the pages in memory go (`JSONPages.letGo`); nothing for an array.
    public func letGo() { pages?.letGo() }

    public var count: Int { mapped?.count ?? array.count }

    /// True if the document starts with a UTF-8 byte-order mark (reported, then ignored).
    public var hasBOM: Bool { withBuffer { $0.count >= 3 && $0[0] == 0xEF && $0[1] == 0xBB && $0[2] == 0xBF } }

    public func withBuffer<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        if let mapped {
            return try body(mapped.assumingMemoryBound(to: UInt8.self))
        }
        // `withUnsafeBufferPointer` rethrows untyped; the typed error is carried out by hand.
        var failure: E?
        let r: R? = array.withUnsafeBufferPointer { buf in
            do throws(E) { return try body(buf) } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        return r!
    }
}

/// A string still in the document's bytes: read (unescaped, exactly as the parser would have)
/// when `string` is asked for. Its escapes and UTF-8 were checked when it was parsed.
public struct JSONRawString: Sendable, Equatable {
    public let owner: JSONBytes
    /// Start (low 32 bits), length (next 31) and whether it has escapes (top bit): 16 bytes
    /// with the owner, no more than a `String`, so `JSON` stays as small as it was.
    private let packed: UInt64

    init(owner: JSONBytes, start: Int, count: Int, escaped: Bool) {
        self.owner = owner
        packed = UInt64(start) | UInt64(count) << 32 | (escaped ? 1 << 63 : 0)
    }

    /// Whether the document can be addressed this way (4 GiB and a 2 GiB string at most).
    static func fits(start: Int, count: Int) -> Bool { start <= Int(UInt32.max) && count < 1 << 31 }

    public var start: Int { Int(packed & 0xFFFF_FFFF) }
    public var count: Int { Int((packed >> 32) & 0x7FFF_FFFF) }
    public var escaped: Bool { packed >> 63 == 1 }

    public var string: String {
        let start = start, count = count
        return owner.withBuffer { buf in
            let slice = UnsafeBufferPointer(rebasing: buf[start..<start + count])
            if !escaped { return String(decoding: slice, as: UTF8.self) }
            var cursor = Cursor(buf: buf, maxDepth: 1)
            cursor.i = start - 1
            return (try? cursor.string()) ?? String(decoding: slice, as: UTF8.self)
        }
    }

    public static func == (a: JSONRawString, b: JSONRawString) -> Bool { a.string == b.string }
}

/// Where the members of one top-level collection go as they are parsed (see
/// `JSONParser.parse(_:deferring:streaming:)`).
public struct JSONStreaming {
    /// The top-level key.
    public let key: String
    /// Each time the key is met at the top level (the last one counts, as in a lookup):
    /// whether its value is streamed (an object or an array) or kept in the tree.
    public let begin: (_ streamed: Bool) -> Void
    /// Each member of a streamed collection: its key (nil in an array), its value, and where
    /// the value is in the bytes (`JSONParser.parse(_:values:deferring:each:)` reads it again).
    public let member: (_ key: String?, _ value: JSON, _ at: Range<Int>) -> Void
    /// How many members, the first ones, are handed over with their tree. Past them, a member
    /// that is an object or an array is only checked (every fault is the same error at the same
    /// place as when it is parsed) and handed over as an empty one of its kind: a reader that
    /// keeps only the place, to parse it again later, does not pay for a tree it lets go at once
    /// (issue 48: the artworks were parsed twice, the first time only to find their places).
    public let treesFor: Int

    public init(key: String, treesFor: Int = .max, begin: @escaping (Bool) -> Void, member: @escaping (String?, JSON, Range<Int>) -> Void) {
        self.key = key
        self.treesFor = treesFor
        self.begin = begin
        self.member = member
    }
}

/// A fast, strict-enough JSON reader over bytes. It accepts a leading UTF-8 byte-order mark,
/// raw tabs and line breaks inside strings (real CMS exports contain them), and refuses
/// nesting deeper than `maxDepth` instead of overflowing the stack.
public struct JSONParser {
    public static let defaultMaxDepth = 512

    /// Parses `bytes` as one JSON document.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSON {
        try bytes.withUnsafeBufferPointer { (buf) throws(JSONError) -> JSON in
            var p = Cursor(buf: buf, maxDepth: maxDepth)
            return try p.document()
        }
    }

    /// Parses `bytes` as one JSON document, leaving the values of the fields named in
    /// `deferring` that are long strings (at least `deferMinimum` bytes) in `bytes` as
    /// `.rawString`: checked as they are read, so a bad escape or invalid UTF-8 is the same
    /// error at the same place as without deferring, but decoded only when asked for.
    /// Transcripts are most of a large museum's bytes and only the player reads them.
    public static func parse(_ bytes: JSONBytes, deferring: [String], maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSON {
        try bytes.withBuffer { (buf) throws(JSONError) -> JSON in
            var p = Cursor(buf: buf, maxDepth: maxDepth)
            p.owner = bytes
            p.deferred = deferring
            p.pages = bytes.pages
            return try p.document()
        }
    }

    /// `parse(_:deferring:)`, handing the members of each top-level collection named by one of
    /// `streaming` (its `key`) to it as they are parsed instead of keeping them in the tree (where the collection
    /// is left empty): a reader can read each record and let it go at once, so the tree of a
    /// large collection never exists whole. Errors are the same as without streaming. Each of
    /// `streaming` takes a top-level key of its own.
    public static func parse(
        _ bytes: JSONBytes, deferring: [String], streaming: [JSONStreaming], maxDepth: Int = defaultMaxDepth
    ) throws(JSONError) -> JSON {
        try bytes.withBuffer { (buf) throws(JSONError) -> JSON in
            var p = Cursor(buf: buf, maxDepth: maxDepth)
            p.owner = bytes
            p.deferred = deferring
            p.streaming = streaming
            p.pages = bytes.pages
            return try p.document()
        }
    }

    /// Parses again, one after another, values an earlier parse of the same bytes found at
    /// `ranges` (`JSONStreaming.member`), handing each to `each` with its place in `ranges`:
    /// a collection read record by record, each record's tree let go before the next is made.
    /// Strings are shared between the values as within one parse. A range that does not hold
    /// exactly one value (bytes changed since) is handed over as the error.
    public static func parse<C: Collection<Range<Int>>>(
        _ bytes: JSONBytes, values ranges: C, deferring: [String] = [], maxDepth: Int = defaultMaxDepth,
        each: (Int, Result<JSON, JSONError>) -> Void
    ) {
        bytes.withBuffer { buf in
            var p = Cursor(buf: buf, maxDepth: maxDepth)
            if !deferring.isEmpty {
                p.owner = bytes
                p.deferred = deferring
            }
            for (k, range) in ranges.enumerated() {
                guard range.lowerBound >= 0, range.upperBound <= buf.count, !range.isEmpty else {
                    each(k, .failure(JSONError(kind: .truncated, line: 0, column: 0)))
                    continue
                }
                p.i = range.lowerBound
                p.depth = 0
                do throws(JSONError) {
                    let v = try p.value()
                    if p.i != range.upperBound { throw p.error(.trailingData) }
                    each(k, .success(v))
                } catch {
                    each(k, .failure(error))
                }
            }
        }
    }

    /// Deferred strings shorter than this are decoded at once (a few bytes cost less decoded).
    public static let deferMinimum = 256
}

private struct Cursor {
    let buf: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var i = 0
    var depth = 0
    /// Fields and items of the containers being read, innermost last. Each container is
    /// moved out at its end into an array of exactly its size: one allocation per container,
    /// no growth slack kept in the tree, no copying (retain + release) of its values.
    let fieldStack = ScratchStack<(key: String, value: JSON)>()
    let itemStack = ScratchStack<JSON>()
    var interner = StringInterner()
    /// The bytes of a string with escapes, unescaped (reused from string to string).
    let unescaped = ScratchBytes()
    /// Set when strings may stay in the document (`parse(_:deferring:)`).
    var owner: JSONBytes?
    var deferred: [String] = []
    var streaming: [JSONStreaming] = []
    /// Told how far the parser has read (`JSONPages.passed`), after a record of a top-level
    /// collection, once per `passStep` bytes at most.
    var pages: (any JSONPages)?
    var lastPassed = 0
    static let passStep = 1 << 20

    init(buf: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.buf = buf
        self.maxDepth = maxDepth
    }

    func error(_ kind: JSONError.Kind, at pos: Int? = nil) -> JSONError {
        let end = min(pos ?? i, buf.count)
        var line = 1
        var col = 1
        var k = 0
        while k < end {
            if buf[k] == 0x0A {
                line += 1
                col = 1
            } else if buf[k] & 0xC0 != 0x80 {
                col += 1
            }
            k += 1
        }
        return JSONError(kind: kind, line: line, column: col)
    }

    mutating func document() throws(JSONError) -> JSON {
        if buf.count >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF { i = 3 }
        let start = i
        skipSpace()
        if i >= buf.count { throw error(i > start ? .blank : .empty) }
        let v = try value()
        skipSpace()
        if i < buf.count { throw error(.trailingData) }
        return v
    }

    @inline(__always) mutating func skipSpace() {
        while i < buf.count {
            let c = buf[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { return }
        }
    }

    func describe(_ c: UInt8) -> String {
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16))"
    }

    mutating func value() throws(JSONError) -> JSON {
        guard i < buf.count else { throw error(.truncated) }
        switch buf[i] {
        case UInt8(ascii: "{"): return try object(to: nil)
        case UInt8(ascii: "["): return try array(to: nil)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error(.unexpected(describe(buf[i])))
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONError) {
        let n = word.utf8CodeUnitCount
        let w = word.utf8Start
        for k in 0..<n {
            guard i + k < buf.count else { throw error(.truncated, at: i + k) }
            if buf[i + k] != w[k] { throw error(.unexpected(describe(buf[i + k])), at: i + k) }
        }
        i += n
    }

    @inline(__always) mutating func passing() {
        if let pages, i - lastPassed >= Self.passStep {
            lastPassed = i
            pages.passed(i)
        }
    }

    mutating func enter() throws(JSONError) {
        depth += 1
        if depth > maxDepth { throw error(.tooDeep(limit: maxDepth)) }
    }

    // MARK: The steps every container takes (built or only checked)

    /// Past the opening bracket; true (and the container closed) when `closing` follows at once.
    @inline(__always) mutating func opens(closing: UInt8) throws(JSONError) -> Bool {
        try enter()
        i += 1
        skipSpace()
        guard i < buf.count, buf[i] == closing else { return false }
        i += 1
        depth -= 1
        return true
    }

    /// At a field name's opening quote, or the error for what is there instead.
    @inline(__always) mutating func atFieldName() throws(JSONError) {
        skipSpace()
        guard i < buf.count else { throw error(.truncated) }
        guard buf[i] == UInt8(ascii: "\"") else { throw error(.unexpected("\(describe(buf[i])) where a field name was expected")) }
    }

    /// Past the ':' after a field name, at its value.
    @inline(__always) mutating func pastColon() throws(JSONError) {
        skipSpace()
        guard i < buf.count else { throw error(.truncated) }
        guard buf[i] == UInt8(ascii: ":") else { throw error(.unexpected("\(describe(buf[i])) where ':' was expected")) }
        i += 1
        skipSpace()
    }

    /// After a member: false past a ',' (another follows), true past `closing` (the container
    /// closed), or the error for what is there instead.
    @inline(__always) mutating func closes(_ closing: UInt8) throws(JSONError) -> Bool {
        skipSpace()
        guard i < buf.count else { throw error(.truncated) }
        if buf[i] == UInt8(ascii: ",") {
            i += 1
            return false
        }
        if buf[i] == closing {
            i += 1
            depth -= 1
            return true
        }
        throw error(.unexpected("\(describe(buf[i])) where ',' or '\(Character(Unicode.Scalar(closing)))' was expected"))
    }

    /// An object; with `sink`, its members go there instead of into the tree.
    mutating func object(to sink: JSONStreaming?) throws(JSONError) -> JSON {
        if try opens(closing: UInt8(ascii: "}")) { return .object(JSONObject([])) }
        let base = fieldStack.count
        var members = 0
        while true {
            try atFieldName()
            let key = try string()
            try pastColon()
            let valueStart = i
            let v: JSON
            if let owner, i < buf.count, buf[i] == UInt8(ascii: "\""), deferred.contains(key), let raw = rawString(owner) {
                v = .rawString(raw)
            } else if depth == 1, !streaming.isEmpty, let streaming = streaming.first(where: { $0.key == key }), i < buf.count {
                let c = buf[i]
                let streamed = c == UInt8(ascii: "{") || c == UInt8(ascii: "[")
                streaming.begin(streamed)
                if c == UInt8(ascii: "{") {
                    v = try object(to: streaming)
                } else if c == UInt8(ascii: "[") {
                    v = try array(to: streaming)
                } else {
                    v = try value()
                }
            } else if let sink, members >= sink.treesFor, let empty = try skimmed() {
                v = empty
            } else {
                v = try value()
            }
            members += 1
            if let sink {
                sink.member(key, v, valueStart..<i)
            } else {
                fieldStack.push((key, v))
            }
            if depth <= 2 { passing() }
            if try closes(UInt8(ascii: "}")) {
                return sink == nil ? .object(JSONObject(fieldStack.pop(from: base))) : .object(JSONObject([]))
            }
        }
    }

    /// An array; with `sink`, its items go there instead of into the tree.
    mutating func array(to sink: JSONStreaming?) throws(JSONError) -> JSON {
        if try opens(closing: UInt8(ascii: "]")) { return .array([]) }
        let base = itemStack.count
        var members = 0
        while true {
            skipSpace()
            if let sink {
                let valueStart = i
                let v: JSON
                if members >= sink.treesFor, let empty = try skimmed() { v = empty } else { v = try value() }
                members += 1
                sink.member(nil, v, valueStart..<i)
            } else {
                itemStack.push(try value())
            }
            if depth <= 2 { passing() }
            if try closes(UInt8(ascii: "]")) { return sink == nil ? .array(itemStack.pop(from: base)) : .array([]) }
        }
    }

    /// A string token starting at the opening quote. Strings of 16…64 bytes (longer than
    /// Swift stores inline) are interned: repeated keys and values (titles repeated in every
    /// translation, URLs, field names) share one storage.
    mutating func string() throws(JSONError) -> String {
        i += 1
        let start = i
        var high: UInt64 = 0
        let base = buf.baseAddress!
        let n = buf.count
        // Fast path: no escapes. Eight bytes at a time up to the first quote or backslash (the
        // lowest flagged lane of the zero-byte test is exact; lanes above it may not be).
        while i + 8 <= n {
            let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            let q = w ^ 0x2222_2222_2222_2222
            let b = w ^ 0x5C5C_5C5C_5C5C_5C5C
            let stops = (((q &- 0x0101_0101_0101_0101) & ~q) | ((b &- 0x0101_0101_0101_0101) & ~b)) & 0x8080_8080_8080_8080
            if stops != 0 {
                let lanes = stops.trailingZeroBitCount >> 3
                if lanes > 0 { high |= w & (UInt64.max >> (64 - lanes * 8)) }
                i += lanes
                break
            }
            high |= w
            i += 8
        }
        while i < n {
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(start: base + start, count: i - start)
                i += 1
                let ascii = high & 0x8080_8080_8080_8080 == 0
                if slice.count > 15 && slice.count <= StringInterner.maxLength {
                    if let s = interner.lookup(slice) { return s }
                    guard let s = makeString(slice, ascii: ascii) else { throw error(.invalidUTF8, at: start) }
                    interner.insert(s, slice)
                    return s
                }
                guard let s = makeString(slice, ascii: ascii) else { throw error(.invalidUTF8, at: start) }
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            high |= UInt64(c)
            i += 1
        }
        guard i < buf.count else { throw error(.truncated) }
        // Slow path: escapes present. Runs without escapes are copied whole; the result is
        // built in a buffer reused for every such string (no array grown byte by byte).
        let out = unescaped
        out.reset()
        out.append(base + start, count: i - start)
        while i < n {
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                guard let s = String(validating: out.bytes, as: UTF8.self) else { throw error(.invalidUTF8, at: start) }
                return s
            }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < n else { throw error(.truncated) }
                let e = base[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        // A high surrogate must be followed by \u low surrogate.
                        if i + 1 < n, base[i] == UInt8(ascii: "\\"), base[i + 1] == UInt8(ascii: "u") {
                            i += 2
                            let low = try hex4()
                            if low >= 0xDC00 && low < 0xE000 {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                scalar = 0xFFFD
                            }
                        } else {
                            scalar = 0xFFFD
                        }
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        scalar = 0xFFFD
                    }
                    out.appendUTF8(scalar)
                default:
                    throw error(.unexpected("escape '\\\(Character(Unicode.Scalar(e)))'"), at: i - 1)
                }
                continue
            }
            var j = i + 1
            while j < n, base[j] != UInt8(ascii: "\""), base[j] != UInt8(ascii: "\\") { j += 1 }
            out.append(base + i, count: j - i)
            i = j
        }
        throw error(.truncated)
    }

    /// The string token at `i` left in the bytes, if it is long enough and well formed; nil
    /// (and `i` unmoved) otherwise, so `string()` reads it and reports any fault as always.
    mutating func rawString(_ owner: JSONBytes) -> JSONRawString? {
        guard let (j, escaped) = scanString() else { return nil }
        let start = i + 1
        let count = j - start
        guard count >= JSONParser.deferMinimum, JSONRawString.fits(start: start, count: count) else { return nil }
        i = j + 1
        return JSONRawString(owner: owner, start: start, count: count, escaped: escaped)
    }

    /// The well-formed string token at `i` (its escapes and its UTF-8 checked, nothing made):
    /// where its closing quote is and whether it has escapes; nil at the first fault, which
    /// `string()` then reports from the same place. `i` is not moved.
    func scanString() -> (end: Int, escaped: Bool)? {
        let base = buf.baseAddress!
        let n = buf.count
        let start = i + 1
        var j = start
        var escaped = false
        while true {
            // Eight bytes at a time up to a quote, a backslash or a non-ASCII byte.
            while j + 8 <= n {
                let w = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self))
                let q = w ^ 0x2222_2222_2222_2222
                let b = w ^ 0x5C5C_5C5C_5C5C_5C5C
                let stops = (((q &- 0x0101_0101_0101_0101) & ~q) | ((b &- 0x0101_0101_0101_0101) & ~b) | w) & 0x8080_8080_8080_8080
                if stops != 0 {
                    j += stops.trailingZeroBitCount >> 3
                    break
                }
                j += 8
            }
            guard j < n else { return nil }
            let c = base[j]
            if c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "\\") {
                escaped = true
                // Escapes often come in runs (text exported with every non-ASCII character
                // as \uXXXX): checked one after another without going back to the scan.
                repeat {
                    guard j + 1 < n else { return nil }
                    switch base[j + 1] {
                    case UInt8(ascii: "u"):
                        guard j + 6 <= n, Self.isHex(base[j + 2]), Self.isHex(base[j + 3]), Self.isHex(base[j + 4]), Self.isHex(base[j + 5])
                        else { return nil }
                        j += 6
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                        UInt8(ascii: "r"), UInt8(ascii: "t"):
                        j += 2
                    default: return nil
                    }
                } while j < n && base[j] == UInt8(ascii: "\\")
            } else if c >= 0x80 {
                // Non-ASCII text (Chinese, Korean) is a run of sequences: checked one after
                // another without going back to the scan, the common three-byte ones inline.
                repeat {
                    let c0 = base[j]
                    if c0 >= 0xE1, c0 <= 0xEC, j + 2 < n, base[j + 1] & 0xC0 == 0x80, base[j + 2] & 0xC0 == 0x80 {
                        j += 3
                    } else {
                        guard let length = Self.utf8Sequence(base, j, n) else { return nil }
                        j += length
                    }
                } while j < n && base[j] >= 0x80
            } else {
                j += 1
            }
        }
        return (j, escaped)
    }

    // MARK: Checking without building (`JSONStreaming.treesFor`)

    /// The object or array at `i` checked and passed over, nothing built: an empty one of its
    /// kind. nil (and `i` unmoved) for any other value, which the caller parses as usual.
    mutating func skimmed() throws(JSONError) -> JSON? {
        guard i < buf.count else { return nil }
        switch buf[i] {
        case UInt8(ascii: "{"):
            try skipObject()
            return .object(JSONObject([]))
        case UInt8(ascii: "["):
            try skipArray()
            return .array([])
        default: return nil
        }
    }

    /// `value()`'s checks, in its order and with its errors, building nothing.
    mutating func skipValue() throws(JSONError) {
        guard i < buf.count else { throw error(.truncated) }
        switch buf[i] {
        case UInt8(ascii: "{"): try skipObject()
        case UInt8(ascii: "["): try skipArray()
        case UInt8(ascii: "\""): try skipString()
        default: _ = try value()  // a number or a literal: nothing to allocate
        }
    }

    /// A string checked; a faulty one is parsed, which throws its error from its place.
    mutating func skipString() throws(JSONError) {
        if let (end, _) = scanString() {
            i = end + 1
        } else {
            _ = try string()
        }
    }

    /// `object(to: nil)`'s checks, building nothing.
    mutating func skipObject() throws(JSONError) {
        if try opens(closing: UInt8(ascii: "}")) { return }
        repeat {
            try atFieldName()
            try skipString()
            try pastColon()
            try skipValue()
        } while try !closes(UInt8(ascii: "}"))
    }

    /// `array(to: nil)`'s checks, building nothing.
    mutating func skipArray() throws(JSONError) {
        if try opens(closing: UInt8(ascii: "]")) { return }
        repeat {
            skipSpace()
            try skipValue()
        } while try !closes(UInt8(ascii: "]"))
    }

    /// 0-9, A-F, a-f, from two 64-bit masks (no branches).
    @inline(__always) static func isHex(_ c: UInt8) -> Bool {
        let low: UInt64 = 0x03FF_0000_0000_0000  // 48...57
        let high: UInt64 = 0x0000_007E_0000_007E  // 65...70 and 97...102
        let word = c < 64 ? low : (c < 128 ? high : 0)
        return (word >> UInt64(c & 63)) & 1 == 1
    }

    /// The length of the well-formed UTF-8 sequence at `j` (Unicode table 3-7: no overlong
    /// forms, no surrogates, nothing past U+10FFFF), or nil.
    static func utf8Sequence(_ base: UnsafePointer<UInt8>, _ j: Int, _ n: Int) -> Int? {
        let c0 = base[j]
        @inline(__always) func cont(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            j + k < n && base[j + k] >= low && base[j + k] <= high
        }
        switch c0 {
        case 0xC2...0xDF: return cont(1) ? 2 : nil
        case 0xE0: return cont(1, 0xA0) && cont(2) ? 3 : nil
        case 0xED: return cont(1, 0x80, 0x9F) && cont(2) ? 3 : nil
        case 0xE1...0xEF: return cont(1) && cont(2) ? 3 : nil
        case 0xF0: return cont(1, 0x90) && cont(2) && cont(3) ? 4 : nil
        case 0xF4: return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : nil
        case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : nil
        default: return nil
        }
    }

    func makeString(_ slice: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String? {
        if ascii { return String(decoding: slice, as: UTF8.self) }
        return String(validating: slice, as: UTF8.self)
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        guard i + 4 <= buf.count, let base = buf.baseAddress else { throw error(.truncated) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = base[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - 55)
            default: throw error(.unexpected("\(describe(c)) in a \\u escape"))
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    func appendUTF8(_ out: inout [UInt8], _ v: UInt32) {
        if v < 0x80 {
            out.append(UInt8(v))
        } else if v < 0x800 {
            out.append(UInt8(0xC0 | (v >> 6)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        } else if v < 0x10000 {
            out.append(UInt8(0xE0 | (v >> 12)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        } else {
            out.append(UInt8(0xF0 | (v >> 18)))
            out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    mutating func number() throws(JSONError) -> JSON {
        let start = i
        var negative = false
        if buf[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < buf.count else { throw error(.truncated) }
        guard buf[i] >= 0x30 && buf[i] <= 0x39 else { throw error(.unexpected(describe(buf[i]))) }
        var value = 0
        var overflow = false
        if buf[i] == 0x30 {
            i += 1
        } else {
            while i < buf.count, buf[i] >= 0x30 && buf[i] <= 0x39 {
                let d = Int(buf[i] - 0x30)
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
                if o1 || o2 { overflow = true } else { value = a }
                i += 1
            }
        }
        var isInteger = true
        if i < buf.count, buf[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let digits = i
            while i < buf.count, buf[i] >= 0x30 && buf[i] <= 0x39 { i += 1 }
            if i == digits { throw error(i >= buf.count ? .truncated : .unexpected(describe(buf[i]))) }
        }
        if i < buf.count, buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if i < buf.count, buf[i] == UInt8(ascii: "+") || buf[i] == UInt8(ascii: "-") { i += 1 }
            let digits = i
            while i < buf.count, buf[i] >= 0x30 && buf[i] <= 0x39 { i += 1 }
            if i == digits { throw error(i >= buf.count ? .truncated : .unexpected(describe(buf[i]))) }
        }
        if isInteger && !overflow { return .integer(value) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self)
        if isInteger {
            return overflow ? .bigNumber(text) : .integer(value)
        }
        guard let d = Double(text), d.isFinite else { return .bigNumber(text) }
        return .double(d)
    }
}

/// A stack of values that hands its top elements over by moving them (`Array`'s slice copy
/// retains every value and `removeSubrange` releases it again).
/// A growable byte buffer reused across strings (the parser's unescaping space).
private final class ScratchBytes {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 1024) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { base.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    func reset() { count = 0 }

    @inline(__always) private func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var bigger = capacity * 2
        while bigger < count + extra { bigger *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = bigger
    }

    @inline(__always) func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    func append(_ source: UnsafePointer<UInt8>, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        (base + count).update(from: source, count: n)
        count += n
    }

    /// `v` (a Unicode scalar value) in UTF-8.
    func appendUTF8(_ v: UInt32) {
        reserve(4)
        if v < 0x80 {
            base[count] = UInt8(v)
            count += 1
        } else if v < 0x800 {
            base[count] = UInt8(0xC0 | (v >> 6))
            base[count + 1] = UInt8(0x80 | (v & 0x3F))
            count += 2
        } else if v < 0x10000 {
            base[count] = UInt8(0xE0 | (v >> 12))
            base[count + 1] = UInt8(0x80 | ((v >> 6) & 0x3F))
            base[count + 2] = UInt8(0x80 | (v & 0x3F))
            count += 3
        } else {
            base[count] = UInt8(0xF0 | (v >> 18))
            base[count + 1] = UInt8(0x80 | ((v >> 12) & 0x3F))
            base[count + 2] = UInt8(0x80 | ((v >> 6) & 0x3F))
            base[count + 3] = UInt8(0x80 | (v & 0x3F))
            count += 4
        }
    }
}

private final class ScratchStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 256) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit {
        base.deinitialize(count: count)  // what a failed parse left behind
        base.deallocate()
    }

    @inline(__always) func push(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    private func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    /// The elements from `start` up, moved into an array of exactly their number.
    func pop(from start: Int) -> [Element] {
        let n = count - start
        guard n > 0 else { return [] }
        let out = [Element](unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: base + start, count: n)
            initialized = n
        }
        count = start
        return out
    }
}

/// Deduplicates mid-sized strings while one document is parsed (an open-addressing table of
/// indices into `strings`; freed with the parser).
private struct StringInterner {
    /// Longer strings are rarely repeated; they are not worth hashing.
    static let maxLength = 64

    private var strings: [String] = []
    private var hashes: [UInt64] = []
    /// Open addressing: 0 for an empty slot, else the hash's high half and the string's
    /// index + 1, so a probe touches one word unless the hashes agree.
    private var table = [UInt64](repeating: 0, count: 1024)
    private var pending: UInt64 = 0

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        let p = UnsafeRawPointer(bytes.baseAddress!)
        var k = 0
        while k + 8 <= bytes.count {
            h = (h ^ p.loadUnaligned(fromByteOffset: k, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
            k += 8
        }
        if k < bytes.count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while k < bytes.count {
                tail |= UInt64(bytes[k]) << shift
                shift += 8
                k += 1
            }
            h = (h ^ tail) &* 0xFF51_AFD7_ED55_8CCD
        }
        h ^= h >> 29
        h = h &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 32)
    }

    /// The stored string equal to `bytes`, if any. Keeps the hash for `insert`.
    mutating func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let h = Self.hash(bytes)
        pending = h
        let high = h & 0xFFFF_FFFF_0000_0000
        return table.withUnsafeBufferPointer { t -> String? in
            let mask = t.count - 1
            var slot = Int(truncatingIfNeeded: h) & mask
            while true {
                let e = t[slot]
                if e == 0 { return nil }
                if e & 0xFFFF_FFFF_0000_0000 == high {
                    let s = strings[Int(truncatingIfNeeded: e & 0xFFFF_FFFF) - 1]
                    let same = s.utf8.withContiguousStorageIfAvailable { stored in
                        Self.equal(stored, bytes)
                    }
                    if same == true { return s }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        let pa = UnsafeRawPointer(a.baseAddress!)
        let pb = UnsafeRawPointer(b.baseAddress!)
        var k = 0
        while k + 8 <= a.count {
            if pa.loadUnaligned(fromByteOffset: k, as: UInt64.self) != pb.loadUnaligned(fromByteOffset: k, as: UInt64.self) { return false }
            k += 8
        }
        while k < a.count {
            if a[k] != b[k] { return false }
            k += 1
        }
        return true
    }

    /// Adds `s` (whose bytes were just looked up and not found).
    mutating func insert(_ s: String, _ bytes: UnsafeBufferPointer<UInt8>) {
        if (strings.count + 1) * 2 > table.count { grow() }
        strings.append(s)
        hashes.append(pending)
        place(pending, strings.count)
    }

    private mutating func place(_ h: UInt64, _ number: Int) {
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        while table[slot] != 0 { slot = (slot + 1) & mask }
        table[slot] = (h & 0xFFFF_FFFF_0000_0000) | UInt64(number)
    }

    private mutating func grow() {
        table = [UInt64](repeating: 0, count: table.count * 2)
        for (idx, h) in hashes.enumerated() { place(h, idx + 1) }
    }
}

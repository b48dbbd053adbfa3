/// Why a document is not JSON, with the place it went wrong.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case empty
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
        case .truncated: return "the JSON ends too early \(at) (truncated file?)"
        case .unexpected(let what): return "unexpected \(what) \(at)"
        case .invalidUTF8: return "invalid UTF-8 text \(at)"
        case .tooDeep(let limit): return "more than \(limit) levels of nesting \(at)"
        case .trailingData: return "extra data after the JSON value \(at)"
        }
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

    /// True if the document starts with a UTF-8 byte-order mark (reported, then ignored).
    public static func hasBOM(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }
}

private struct Cursor {
    let buf: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var i = 0
    var depth = 0

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
        skipSpace()
        if i >= buf.count { throw error(.empty) }
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
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
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

    mutating func enter() throws(JSONError) {
        depth += 1
        if depth > maxDepth { throw error(.tooDeep(limit: maxDepth)) }
    }

    mutating func object() throws(JSONError) -> JSON {
        try enter()
        i += 1
        var members: [(key: String, value: JSON)] = []
        skipSpace()
        if i < buf.count, buf[i] == UInt8(ascii: "}") {
            i += 1
            depth -= 1
            return .object(JSONObject(members))
        }
        while true {
            skipSpace()
            guard i < buf.count else { throw error(.truncated) }
            guard buf[i] == UInt8(ascii: "\"") else { throw error(.unexpected("\(describe(buf[i])) where a member name was expected")) }
            let key = try string()
            skipSpace()
            guard i < buf.count else { throw error(.truncated) }
            guard buf[i] == UInt8(ascii: ":") else { throw error(.unexpected("\(describe(buf[i])) where ':' was expected")) }
            i += 1
            skipSpace()
            let v = try value()
            members.append((key, v))
            skipSpace()
            guard i < buf.count else { throw error(.truncated) }
            if buf[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if buf[i] == UInt8(ascii: "}") {
                i += 1
                depth -= 1
                return .object(JSONObject(members))
            }
            throw error(.unexpected("\(describe(buf[i])) where ',' or '}' was expected"))
        }
    }

    mutating func array() throws(JSONError) -> JSON {
        try enter()
        i += 1
        var items: [JSON] = []
        skipSpace()
        if i < buf.count, buf[i] == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            guard i < buf.count else { throw error(.truncated) }
            if buf[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if buf[i] == UInt8(ascii: "]") {
                i += 1
                depth -= 1
                return .array(items)
            }
            throw error(.unexpected("\(describe(buf[i])) where ',' or ']' was expected"))
        }
    }

    mutating func string() throws(JSONError) -> String {
        i += 1
        let start = i
        var ascii = true
        // Fast path: no escapes.
        while i < buf.count {
            let c = buf[i]
            if c == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: buf[start..<i])
                i += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let s = String(validating: slice, as: UTF8.self) else { throw error(.invalidUTF8, at: start) }
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c >= 0x80 { ascii = false }
            i += 1
        }
        guard i < buf.count else { throw error(.truncated) }
        // Slow path: escapes present.
        var out: [UInt8] = Array(buf[start..<i])
        out.reserveCapacity(out.count + 32)
        while i < buf.count {
            let c = buf[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error(.invalidUTF8, at: start) }
                return s
            }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < buf.count else { throw error(.truncated) }
                let e = buf[i]
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
                        if i + 1 < buf.count, buf[i] == UInt8(ascii: "\\"), buf[i + 1] == UInt8(ascii: "u") {
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
                    appendUTF8(&out, scalar)
                default:
                    throw error(.unexpected("escape '\\\(Character(Unicode.Scalar(e)))'"), at: i - 1)
                }
                continue
            }
            out.append(c)
            i += 1
        }
        throw error(.truncated)
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        guard i + 4 <= buf.count else { throw error(.truncated) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = buf[i]
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
        let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self)
        if isInteger {
            return overflow ? .bigNumber(text) : .integer(value)
        }
        guard let d = Double(text), d.isFinite else { return .bigNumber(text) }
        return .double(d)
    }
}

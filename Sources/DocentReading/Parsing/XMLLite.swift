/// A small, non-validating XML reader for answers such as SOAP envelopes: elements,
/// attributes, text, CDATA, the five predefined entities and character references. The XML
/// declaration, processing instructions, comments and a DOCTYPE (without an internal subset)
/// are skipped; namespace prefixes are dropped from names. Malformed input is a failure with
/// the byte offset, never a crash.
public enum XMLLite {
    public static let maxDepth = 256

    public static func parse(_ bytes: [UInt8]) -> Result<Element, LoadFailure> {
        var p = Parser(bytes)
        do {
            return .success(try p.document())
        } catch let e as ParseError {
            return .failure(LoadFailure("not well-formed XML at byte \(e.offset): \(e.message)"))
        } catch {
            return .failure(LoadFailure("not well-formed XML"))
        }
    }

    struct ParseError: Error {
        let offset: Int
        let message: String
    }

    struct Parser {
        let b: [UInt8]
        var i = 0
        init(_ bytes: [UInt8]) {
            b = bytes
            if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        }

        func fail(_ message: String) -> ParseError { ParseError(offset: i, message: message) }

        func starts(_ s: String) -> Bool {
            let u = Array(s.utf8)
            return i + u.count <= b.count && b[i..<(i + u.count)].elementsEqual(u)
        }

        /// Moves past the next `end`, or fails with `what`.
        mutating func skip(past end: String, _ what: String) throws {
            let u = Array(end.utf8)
            while i + u.count <= b.count {
                if b[i] == u[0], b[i..<(i + u.count)].elementsEqual(u) {
                    i += u.count
                    return
                }
                i += 1
            }
            throw fail("unterminated \(what)")
        }

        static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        static func isNameByte(_ c: UInt8) -> Bool {
            !(isSpace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: ">") || c == UInt8(ascii: "=")
                || c == UInt8(ascii: "<") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'"))
        }

        mutating func skipSpace() { while i < b.count, Self.isSpace(b[i]) { i += 1 } }

        mutating func name() throws -> String {
            let start = i
            while i < b.count, Self.isNameByte(b[i]) { i += 1 }
            guard i > start else { throw fail("expected a name") }
            let full = String(decoding: b[start..<i], as: UTF8.self)
            if let colon = full.lastIndex(of: ":") { return String(full[full.index(after: colon)...]) }
            return full
        }

        /// Skips prolog material: declaration, comments, processing instructions, DOCTYPE, space.
        mutating func misc() throws {
            while true {
                skipSpace()
                if starts("<?") {
                    try skip(past: "?>", "processing instruction")
                } else if starts("<!--") {
                    try skip(past: "-->", "comment")
                } else if starts("<!DOCTYPE") || starts("<!doctype") {
                    try skip(past: ">", "DOCTYPE")
                } else {
                    return
                }
            }
        }

        mutating func document() throws -> Element {
            try misc()
            guard i < b.count, b[i] == UInt8(ascii: "<") else { throw fail(i < b.count ? "text before the root element" : "no root element") }
            let root = try element(depth: 0)
            try misc()
            guard i == b.count else { throw fail("content after the root element") }
            return root
        }

        mutating func element(depth: Int) throws -> Element {
            guard depth < XMLLite.maxDepth else { throw fail("nested deeper than \(XMLLite.maxDepth) elements") }
            i += 1  // <
            let start = i
            var e = Element(name: try name())
            let qname = String(decoding: b[start..<i], as: UTF8.self)
            // Attributes.
            while true {
                skipSpace()
                guard i < b.count else { throw fail("unterminated start tag <\(qname)>") }
                if b[i] == UInt8(ascii: "/") {
                    guard i + 1 < b.count, b[i + 1] == UInt8(ascii: ">") else { throw fail("expected /> in <\(qname)>") }
                    i += 2
                    return e
                }
                if b[i] == UInt8(ascii: ">") {
                    i += 1
                    break
                }
                let key = try name()
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: "=") else { throw fail("attribute \(key) without a value") }
                i += 1
                skipSpace()
                guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else { throw fail("attribute \(key) value not quoted") }
                let quote = b[i]
                i += 1
                let vs = i
                while i < b.count, b[i] != quote { i += 1 }
                guard i < b.count else { throw fail("unterminated attribute \(key)") }
                e.attributes[key] = XMLLite.decodeEntities(String(decoding: b[vs..<i], as: UTF8.self))
                i += 1
            }
            // Content.
            var text = ""
            while true {
                guard i < b.count else { throw fail("<\(qname)> is not closed") }
                if b[i] != UInt8(ascii: "<") {
                    let ts = i
                    while i < b.count, b[i] != UInt8(ascii: "<") { i += 1 }
                    text += XMLLite.decodeEntities(String(decoding: b[ts..<i], as: UTF8.self))
                } else if starts("</") {
                    i += 2
                    let cs = i
                    _ = try name()
                    let closing = String(decoding: b[cs..<i], as: UTF8.self)
                    guard closing == qname else { throw fail("</\(closing)> closes <\(qname)>") }
                    skipSpace()
                    guard i < b.count, b[i] == UInt8(ascii: ">") else { throw fail("unterminated end tag </\(closing)>") }
                    i += 1
                    e.text = text
                    return e
                } else if starts("<![CDATA[") {
                    i += 9
                    let cs = i
                    try skip(past: "]]>", "CDATA section")
                    text += String(decoding: b[cs..<(i - 3)], as: UTF8.self)
                } else if starts("<!--") {
                    try skip(past: "-->", "comment")
                } else if starts("<?") {
                    try skip(past: "?>", "processing instruction")
                } else {
                    e.children.append(try element(depth: depth + 1))
                }
            }
        }
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` and `&#N;`/`&#xN;`; anything else is kept as it is.
    public static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let entity = after[..<semi]
            var replacement: String?
            switch entity {
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "amp": replacement = "&"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    replacement = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if entity.hasPrefix("#") {
                    replacement = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                }
            }
            if let r = replacement {
                out += r
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        out += rest
        return out
    }

    /// Text made safe inside an element or a double-quoted attribute.
    public static func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // Control characters are not allowed in XML 1.0 (except tab, newline, return).
                if ch.value < 0x20 && ch != "\t" && ch != "\n" && ch != "\r" { continue }
                out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}

extension XMLLite {
    /// An element of a small XML document: its local name (namespace prefix dropped), attributes,
    /// children and the text directly inside it.
    public struct Element: Equatable, Sendable {
        public var name: String
        public var attributes: [String: String]
        public var children: [Element]
        public var text: String

        public init(name: String, attributes: [String: String] = [:], children: [Element] = [], text: String = "") {
            self.name = name
            self.attributes = attributes
            self.children = children
            self.text = text
        }

        /// The first child with this local name.
        public func child(_ name: String) -> Element? { children.first { $0.name == name } }

        /// Follows children by local name: `element.path("Body", "Fault")`.
        public func path(_ names: String...) -> Element? {
            var e: Element? = self
            for n in names { e = e?.child(n) }
            return e
        }

        /// The first element with this local name below this one (depth first), or this one.
        public func find(_ name: String) -> Element? {
            if self.name == name { return self }
            for c in children {
                if let f = c.find(name) { return f }
            }
            return nil
        }

        /// The text, white space at both ends removed.
        public var trimmedText: String {
            var s = Substring(text)
            while let f = s.first, f.isWhitespace { s.removeFirst() }
            while let l = s.last, l.isWhitespace { s.removeLast() }
            return String(s)
        }
    }
}

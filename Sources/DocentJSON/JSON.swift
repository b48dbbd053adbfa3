/// A parsed JSON value. Objects keep their fields in document order (JSON objects are
/// unordered, so nothing may depend on that order; it only makes reports reproducible).
/// Numbers keep what a reader needs: exact integers, doubles, and the raw text of anything
/// that fits neither (ids beyond Int64, `1e999`), so such values can be reported, not trapped.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    /// An integer literal that fits in `Int`.
    case integer(Int)
    /// A finite number with a fraction or exponent.
    case double(Double)
    /// A number that is not representable (overflowing integer or non-finite double), as written.
    case bigNumber(String)
    case string(String)
    /// A long string left in the document's bytes until read (`JSONParser.parse(_:deferring:)`):
    /// already checked (its escapes and its UTF-8), so reading it cannot fail.
    case rawString(JSONRawString)
    case array([JSON])
    case object(JSONObject)

    /// The field `key` if this is an object.
    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        if case .rawString(let r) = self { return r.string }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// A short name of the kind of value, for messages ("an array", "a string", …).
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .double, .bigNumber: return "a number"
        case .string, .rawString: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON object: fields in document order; lookups return the last duplicate, as most
/// JSON readers (Python's among them) do.
public struct JSONObject: Sendable, Equatable {
    public var fields: [(key: String, value: JSON)]

    public init(_ fields: [(key: String, value: JSON)] = []) {
        self.fields = fields
    }

    public subscript(key: String) -> JSON? {
        var i = fields.count - 1
        while i >= 0 {
            if fields[i].key == key { return fields[i].value }
            i -= 1
        }
        return nil
    }

    /// `self[key]` for a reader's field name (lowercase ASCII letters, digits and `_`), with
    /// lengths compared first. String equality is canonical equivalence, and the only
    /// non-ASCII text equivalent to ASCII text is U+212A, U+037E and U+1FEF (K ; `), so such
    /// a name equals only strings of its own bytes: most fields are passed over without a
    /// string comparison (lengths are stored; most field names differ in length).
    public func value(forFieldName key: String) -> JSON? {
        assert(key.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }, "not a field name: \(key)")
        let length = key.utf8.count
        var i = fields.count - 1
        while i >= 0 {
            if fields[i].key.utf8.count == length && fields[i].key == key { return fields[i].value }
            i -= 1
        }
        return nil
    }

    public var count: Int { fields.count }
    public var keys: [String] { fields.map(\.key) }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.fields.count == b.fields.count
            && zip(a.fields, b.fields).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

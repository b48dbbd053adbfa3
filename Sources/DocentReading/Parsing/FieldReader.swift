import Foundation

/// Typed reads of one record's fields, with the quirks of real data accepted and every
/// failure described. A reader for one record; it knows the record's JSON path.
public struct FieldReader {
    public let object: JSONObject
    public let path: String

    public init(_ object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    /// What went wrong reading a required field.
    public struct Failure: Error {
        public let message: String
    }

    public subscript(key: String) -> JSON? { object.value(forFieldName: key) }

    /// True when the field is absent or null.
    public func isMissing(_ key: String) -> Bool {
        guard let v = self[key] else { return true }
        return v == .null
    }

    // MARK: integers ("int*": a number or a string of base-10 digits)

    public static func int(_ v: JSON) -> Result<Int, Failure> {
        switch v {
        case .integer(let i): return .success(i)
        case .double(let d) where d == d.rounded() && abs(d) < 9e15: return .success(Int(d))
        case .string(let s):
            let t = s
            if let i = Int(t) { return .success(i) }
            if !t.isEmpty, t.allSatisfy({ $0.isASCII && $0.isNumber }) || (t.hasPrefix("-") && t.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber })) {
                return .failure(Failure(message: "\"\(clip(t))\" is too large for an id"))
            }
            return .failure(Failure(message: "\"\(clip(t))\" is not a whole number"))
        case .bigNumber(let raw): return .failure(Failure(message: "\(clip(raw)) is out of range"))
        default: return .failure(Failure(message: "expected a whole number, found \(v.kindName)"))
        }
    }

    public func requiredInt(_ key: String) -> Result<Int, Failure> {
        guard let v = self[key], v != .null else { return .failure(Failure(message: "missing \(key)")) }
        return Self.int(v).mapError { Failure(message: "\(key): \($0.message)") }
    }

    /// nil when absent, null or an empty string; a failure when present but not a number.
    public func optionalInt(_ key: String) -> Result<Int?, Failure> {
        guard let v = self[key], v != .null else { return .success(nil) }
        if case .string(let s) = v, Trim.isBlank(s) { return .success(nil) }
        return Self.int(v).map { Optional($0) }.mapError { Failure(message: "\(key): \($0.message)") }
    }

    // MARK: strings

    public func requiredString(_ key: String, _ options: TextCleaner.Options = .plain) -> Result<String, Failure> {
        guard let v = self[key], v != .null else { return .failure(Failure(message: "missing \(key)")) }
        guard case .string(let s) = v else { return .failure(Failure(message: "\(key) should be text, found \(v.kindName)")) }
        return .success(TextCleaner.clean(s, options))
    }

    /// The cleaned text, or "" when absent, null or not text.
    public func string(_ key: String, _ options: TextCleaner.Options = .plain) -> String {
        guard let s = rawString(key) else { return "" }
        return TextCleaner.clean(s, options)
    }

    /// The raw (uncleaned) string, or nil.
    public func rawString(_ key: String) -> String? {
        switch self[key] {
        case .string(let s)?: return s
        case .rawString(let r)?: return r.string
        default: return nil
        }
    }

    /// `string(key, options)`, left in the document until read when the parser left it there
    /// (a long transcript: `JSONParser.parse(_:deferring:)`).
    func text(_ key: String, _ options: TextCleaner.Options = .plain) -> DeferredText {
        if case .rawString(let r)? = self[key] { return DeferredText(r, cleaning: options) }
        return DeferredText(string(key, options))
    }

    // MARK: booleans

    public func requiredBool(_ key: String) -> Result<Bool, Failure> {
        guard let v = self[key], v != .null else { return .failure(Failure(message: "missing \(key)")) }
        switch v {
        case .bool(let b): return .success(b)
        case .string(let s) where s.lowercased() == "true": return .success(true)
        case .string(let s) where s.lowercased() == "false" || s.isEmpty: return .success(false)
        case .integer(let i) where i == 0 || i == 1: return .success(i == 1)
        default: return .failure(Failure(message: "\(key) should be true or false, found \(v.kindName)"))
        }
    }

    // MARK: positions

    /// The latitudes a Web-Mercator map shows (the AIC apps' MapKit and our plans): beyond them
    /// the projection runs to infinity. No museum lies there.
    public static let maxLatitude = 85.05112878

    /// Plan points (anchors) further than this from the page's origin are a mistake: a PDF page
    /// is at most 14,400 points wide, even with generous margins this is far beyond.
    public static let maxPlanCoordinate = 1_000_000.0

    /// "lat,lon" with any spaces; both finite, in range.
    public static func latLon(_ text: String, limit: Double = maxLatitude) -> LatLon? {
        if let pair = asciiPair(text) {
            guard let (a, b) = pair, let lat = Double(a), let lon = Double(b),
                lat.isFinite, lon.isFinite, abs(lat) <= limit, abs(lon) <= 180
            else { return nil }
            return LatLon(lat: lat, lon: lon)
        }
        let parts = text.filter { !$0.isWhitespace }.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]),
            lat.isFinite, lon.isFinite, abs(lat) <= limit, abs(lon) <= 180
        else { return nil }
        return LatLon(lat: lat, lon: lon)
    }

    /// For ASCII text with spaces only around its two parts: the parts, or nil for "not
    /// two parts"; the outer nil means "use the general path". Same results as filtering
    /// out whitespace and splitting on ",".
    public static func asciiPair(_ text: String) -> (Substring, Substring)?? {
        let u = text.utf8
        var comma: String.Index?
        for i in u.indices {
            let b = u[i]
            if b >= 0x80 { return .none }
            if b == 0x2C {
                if comma != nil { return .some(nil) }
                comma = i
            }
        }
        guard let comma else { return .some(nil) }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        func part(_ lo: String.Index, _ hi: String.Index) -> Substring? {
            var lo = lo
            var hi = hi
            while lo < hi, isSpace(u[lo]) { lo = u.index(after: lo) }
            while lo < hi, isSpace(u[u.index(before: hi)]) { hi = u.index(before: hi) }
            if u[lo..<hi].contains(where: isSpace) { return nil }
            return text[lo..<hi]
        }
        guard let a = part(u.startIndex, comma), let b = part(u.index(after: comma), u.endIndex) else { return .none }
        return .some((a, b))
    }

    public static func planPoint(_ text: String) -> PlanPoint? {
        let parts = text.filter { !$0.isWhitespace }.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite,
            abs(x) <= maxPlanCoordinate, abs(y) <= maxPlanCoordinate
        else { return nil }
        return PlanPoint(x: x, y: y)
    }

    /// `location`, else `latitude` + `longitude`.
    public func location() -> Result<LatLon, Failure> {
        if let s = rawString("location"), let ll = Self.latLon(s) { return .success(ll) }
        if let lat = rawString("latitude"), let lon = rawString("longitude"), let ll = Self.latLon(lat + "," + lon) {
            return .success(ll)
        }
        if let v = self["location"], v != .null {
            let shown = v.stringValue.map { "\"\(Self.clip($0))\"" } ?? v.kindName
            if let text = v.stringValue, let ll = Self.latLon(text, limit: 90) {
                return .failure(Failure(message: "location \(shown) lies beyond ±85° latitude (\(ll.lat)), where no map can show it"))
            }
            return .failure(Failure(message: "location \(shown) is not \"latitude,longitude\""))
        }
        return .failure(Failure(message: "missing location"))
    }

    // MARK: floors

    /// `"LL"` → 0, otherwise a number 0…99.
    public static func floor(_ v: JSON) -> Result<Floor, Failure> {
        if case .string(let s) = v, Trim.spaces(s).uppercased() == "LL" { return .success(.lowerLevel) }
        switch int(v) {
        case .success(let n) where n >= 0 && n < 100: return .success(Floor(n))
        case .success(let n): return .failure(Failure(message: "floor \(n) is out of range"))
        case .failure(let f): return .failure(Failure(message: "floor: \(f.message)"))
        }
    }

    public func optionalFloor(_ key: String = "floor") -> Result<Floor?, Failure> {
        guard let v = self[key], v != .null else { return .success(nil) }
        if case .string(let s) = v, s.isEmpty { return .success(nil) }
        return Self.floor(v).map { Optional($0) }
    }

    /// The record's translations array; `[]` or absent gives none.
    public func translations() -> [(index: Int, object: JSONObject)] {
        guard case .array(let items)? = self["translations"] else { return [] }
        return items.enumerated().compactMap { i, v in v.objectValue.map { (i, $0) } }
    }

    /// A short, safe excerpt of a value for messages.
    public static func clip(_ s: String) -> String {
        let cleaned = TextCleaner.clean(s, .title)
        return cleaned.count > 40 ? String(cleaned.prefix(40)) + "…" : cleaned
    }
}

extension Result {
    public var value: Success? {
        if case .success(let v) = self { return v }
        return nil
    }
}

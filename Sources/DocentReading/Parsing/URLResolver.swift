import Foundation

/// Resolves every URL in a document against the document's own location, so an appData and
/// everything it names can be a local path, a `file://` URL or an `http(s)://` URL.
public struct URLResolver: Sendable {
    /// The v1 app's internal→external prefix rewrite (a configuration option).
    public struct Rewrite: Hashable, Sendable {
        public var from: String
        public var to: String
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    public let base: String
    public let rewrite: Rewrite?

    public init(base: String, rewrite: Rewrite? = nil) {
        self.base = base
        self.rewrite = rewrite
    }

    /// True for strings with a URL scheme such as `http:` or `file:`.
    public static func hasScheme(_ s: String) -> Bool {
        if let answer = asciiHasScheme(s) { return answer }
        guard let colon = s.firstIndex(of: ":") else { return false }
        let scheme = s[s.startIndex..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter, scheme.count >= 2 else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    /// `hasScheme` on the bytes when the answer cannot depend on how characters cluster
    /// (the scheme and the byte after the colon are ASCII); nil otherwise.
    static func asciiHasScheme(_ s: String) -> Bool? {
        var count = 0
        var it = s.utf8.makeIterator()
        while let b = it.next() {
            if b == 0x3A {
                if let next = it.next(), next >= 0x80 { return nil }
                return count >= 2
            }
            if b >= 0x80 { return nil }
            let letter = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            if count == 0 ? !letter : !(letter || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E) {
                // Not a scheme character: the answer is no, as long as a colon follows at all.
                return s.utf8.contains(0x3A) ? (s.utf8.contains(where: { $0 >= 0x80 }) ? nil : false) : false
            }
            count += 1
        }
        return false
    }

    /// The absolute form of `reference`, or nil if it is empty or cannot be a URL.
    public func resolve(_ reference: String) -> String? {
        // Most references in a museum's export are plain http(s) URLs, each one different
        // (an image and a recording per record): answered from the bytes, what `resolveAny`
        // answers for them (`URLResolverTests` compares the two).
        if rewrite == nil, Self.isPlainHTTPURL(reference) { return reference }
        return resolveAny(reference)
    }

    /// True when `s` is an absolute `http://` or `https://` URL of RFC 3986's characters only:
    /// printable ASCII, no space; a host of letters, digits and hyphens in dot-separated
    /// labels, an optional port of 1–5 digits, no user info; then a path, query and fragment
    /// of unreserved characters, sub-delimiters, `:@/?`, `%` with two hex digits, one `#`.
    /// Such a string needs no trimming, holds no line break, and Foundation's `URL(string:)`
    /// accepts it, so `resolveAny` returns it unchanged. False says nothing: `resolveAny` decides.
    static func isPlainHTTPURL(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { b -> Bool in
            let n = b.count
            var i: Int
            if n > 8, b[0] == 0x68, b[1] == 0x74, b[2] == 0x74, b[3] == 0x70 {  // "http"
                i = 4
                if b[i] == 0x73 { i += 1 }  // "s"
                guard b[i] == 0x3A, b[i + 1] == 0x2F, b[i + 2] == 0x2F else { return false }  // "://"
                i += 3
            } else {
                return false
            }
            // Host: labels of [A-Za-z0-9-], each non-empty, separated by single dots.
            var labelLength = 0
            while i < n {
                let c = b[i]
                if (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D {
                    labelLength += 1
                } else if c == 0x2E {
                    guard labelLength > 0 else { return false }
                    labelLength = 0
                } else {
                    break
                }
                i += 1
            }
            guard labelLength > 0 else { return false }
            if i < n, b[i] == 0x3A {  // ":" port
                i += 1
                let digits = i
                while i < n, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
                guard i > digits, i - digits <= 5 else { return false }
            }
            guard i == n || b[i] == 0x2F || b[i] == 0x3F || b[i] == 0x23 else { return false }  // "/", "?", "#"
            var fragment = false
            while i < n {
                let c = b[i]
                if (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x2F && c <= 0x3B) {
                    // letters; / 0-9 : ;
                } else if c == 0x25 {  // "%" and two hex digits
                    guard i + 2 < n, isHexDigit(b[i + 1]), isHexDigit(b[i + 2]) else { return false }
                    i += 2
                } else if c == 0x23 {  // "#"
                    if fragment { return false }
                    fragment = true
                } else {
                    switch c {
                    // - . _ ~ ! $ & ' ( ) * + , = ? @
                    case 0x2D, 0x2E, 0x5F, 0x7E, 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3D, 0x3F, 0x40: break
                    default: return false
                    }
                }
                i += 1
            }
            return true
        }
    }

    @inline(__always) private static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }

    /// `resolve` without its fast path: every reference, as Foundation reads URLs.
    func resolveAny(_ reference: String) -> String? {
        var ref = Trim.spacesAndNewlines(reference)
        guard !ref.isEmpty, !ref.contains(where: { $0.isNewline || $0 == "\0" }) else { return nil }
        if let rw = rewrite, !rw.from.isEmpty, ref.hasPrefix(rw.from) {
            ref = rw.to + ref.dropFirst(rw.from.count)
        }
        if Self.hasScheme(ref) {
            return URL(string: ref) != nil || ref.hasPrefix("file:") ? ref : nil
        }
        if Self.hasScheme(base) {
            guard let b = URL(string: base) else { return nil }
            let encoded = ref.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.union(CharacterSet(charactersIn: "?#%&=")))
            return URL(string: encoded ?? ref, relativeTo: b)?.absoluteURL.absoluteString
        }
        // The base is a plain file path.
        if ref.hasPrefix("/") { return ref }
        let dir: String
        if let slash = base.lastIndex(of: "/") {
            dir = String(base[...slash])
        } else {
            dir = ""
        }
        return Self.normalisePath(dir + ref)
    }

    /// Removes `./` and `a/../` segments from a path.
    static func normalisePath(_ path: String) -> String {
        if let fast = asciiNormalisePath(path) { return fast }
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for seg in path.split(separator: "/", omittingEmptySubsequences: true) {
            if seg == "." { continue }
            if seg == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            parts.append(seg)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : joined
    }

    /// `normalisePath` on the bytes of an ASCII path (where every byte is a character);
    /// nil for any other path.
    static func asciiNormalisePath(_ path: String) -> String? {
        var text = path
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            if bytes.contains(where: { $0 >= 0x80 }) { return nil }
            var parts: [Range<Int>] = []
            var start = 0
            func segment(_ r: Range<Int>) {
                if r.isEmpty { return }
                let n = r.count
                if n == 1 && bytes[r.lowerBound] == 0x2E { return }
                if n == 2 && bytes[r.lowerBound] == 0x2E && bytes[r.lowerBound + 1] == 0x2E, let last = parts.last,
                    !(last.count == 2 && bytes[last.lowerBound] == 0x2E && bytes[last.lowerBound + 1] == 0x2E)
                {
                    parts.removeLast()
                    return
                }
                parts.append(r)
            }
            for k in 0..<bytes.count where bytes[k] == 0x2F {
                segment(start..<k)
                start = k + 1
            }
            segment(start..<bytes.count)
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 1)
            if bytes.first == 0x2F { out.append(0x2F) }
            for (i, r) in parts.enumerated() {
                if i > 0 { out.append(0x2F) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[r]))
            }
            return String(decoding: out, as: UTF8.self)
        } ?? nil
    }
}

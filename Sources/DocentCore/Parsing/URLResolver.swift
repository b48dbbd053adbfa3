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
        guard let colon = s.firstIndex(of: ":") else { return false }
        let scheme = s[s.startIndex..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter, scheme.count >= 2 else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    /// The absolute form of `reference`, or nil if it is empty or cannot be a URL.
    public func resolve(_ reference: String) -> String? {
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
}

import Foundation

/// Shared state while reading one document: diagnostics and URL resolution.
final class ReadContext {
    var diagnostics: [Diagnostic] = []
    let resolver: URLResolver
    var imageServerURL: String?

    /// Resolved references and language tags, by their raw text: a document repeats the
    /// same few (audio files cycled through, one placeholder image, three language tags).
    /// Bounded, so a document of all-different URLs costs no more than a small table; when
    /// full it starts again (a record's URL repeated in its translations still hits).
    private var resolvedURLs: [String: String?] = [:]
    private var languages: [String: Language?] = [:]
    private static let cacheLimit = 4096

    init(resolver: URLResolver) {
        self.resolver = resolver
    }

    /// `resolver.resolve(raw)`, cached.
    func resolve(_ raw: String) -> String? {
        // A plain http(s) URL is answered from its bytes faster than it is hashed (issue 48).
        if resolver.rewrite == nil, URLResolver.isPlainHTTPURL(raw) { return raw }
        if let hit = resolvedURLs[raw] { return hit }
        let r = resolver.resolve(raw)
        if resolvedURLs.count >= Self.cacheLimit { resolvedURLs.removeAll(keepingCapacity: true) }
        resolvedURLs[raw] = .some(r)
        return r
    }

    /// `Language.fromTag(tag)` as content (`zh-hant` is Chinese), cached.
    func language(_ tag: String) -> Language? {
        if let hit = languages[tag] { return hit }
        let l = Language.fromTag(tag)?.content
        if languages.count < Self.cacheLimit { languages[tag] = .some(l) }
        return l
    }

    func dropped(_ path: String, id: String? = nil, _ message: String) {
        diagnostics.append(Diagnostic(.dropped, path: path, id: id, message))
    }

    func warning(_ path: String, id: String? = nil, _ message: String) {
        diagnostics.append(Diagnostic(.warning, path: path, id: id, message))
    }

    func note(_ path: String, id: String? = nil, _ message: String) {
        diagnostics.append(Diagnostic(.note, path: path, id: id, message))
    }

    /// A resolved URL for a field, or nil (with a warning when the field held something unusable).
    func url(_ raw: String?, path: String, field: String, id: String?) -> String? {
        guard let raw, !Trim.isBlank(raw) else { return nil }
        if let r = resolve(raw) { return r }
        warning(path, id: id, "\(field) \"\(FieldReader.clip(raw))\" is not a usable URL")
        return nil
    }

    /// An image reference: a URL, or (newer CMS) a bare IIIF image id turned into an IIIF URL.
    func imageURL(_ raw: String?, path: String, id: String?) -> String? {
        guard let raw = raw.map(Trim.spaces), !raw.isEmpty else { return nil }
        if Self.looksLikeIIIFID(raw) {
            guard let server = imageServerURL else { return nil }
            let base = server.hasSuffix("/") ? String(server.dropLast()) : server
            return "\(base)/\(raw)/full/843,/0/default.jpg"
        }
        return url(raw, path: path, field: "image_url", id: id)
    }

    /// A UUID-shaped string: 32 hex digits with dashes, no slash or dot.
    static func looksLikeIIIFID(_ s: String) -> Bool {
        // At least 32 bytes, and no '/' or '.' (a quick refusal for every path and URL).
        if s.utf8.count < 32 || s.utf8.contains(where: { $0 == 0x2F || $0 == 0x2E }) { return false }
        let hex = s.filter { $0 != "-" }
        return hex.count == 32 && hex.allSatisfy(\.isHexDigit) && !s.contains("/") && !s.contains(".")
    }
}

/// JSON paths as a reader shows them: `objects["1036"].audio_commentary[0]`.
/// Every record gets its path whether or not it is reported, so they are built by copying
/// bytes into a string of the exact size (string interpolation costs ten times as much).
enum JSONPath {
    static func key(_ base: String, _ key: String) -> String {
        build(base.utf8.count + key.utf8.count + 4) { b in
            b.string(base)
            b.byte(0x5B)  // ["key"]
            b.byte(0x22)
            b.string(key)
            b.byte(0x22)
            b.byte(0x5D)
        }
    }

    static func index(_ base: String, _ i: Int) -> String {
        build(base.utf8.count + 22) { b in
            b.string(base)
            b.byte(0x5B)
            b.int(i)
            b.byte(0x5D)
        }
    }

    static func field(_ base: String, _ name: String) -> String {
        build(base.utf8.count + name.utf8.count + 1) { b in
            b.string(base)
            b.byte(0x2E)
            b.string(name)
        }
    }

    /// `index(field(base, name), i)` in one string.
    static func fieldIndex(_ base: String, _ name: String, _ i: Int) -> String {
        build(base.utf8.count + name.utf8.count + 23) { b in
            b.string(base)
            b.byte(0x2E)
            b.string(name)
            b.byte(0x5B)
            b.int(i)
            b.byte(0x5D)
        }
    }

    /// Writes into a buffer of at least `capacity` bytes.
    struct Builder {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func byte(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }

        mutating func string(_ s: String) {
            var s = s
            s.withUTF8 { u in
                for b in u {
                    buffer[count] = b
                    count += 1
                }
            }
        }

        mutating func int(_ n: Int) {
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var m = n.magnitude
            var k = 0
            withUnsafeMutableBytes(of: &digits) { d in
                repeat {
                    d[k] = UInt8(truncatingIfNeeded: m % 10) + 0x30
                    m /= 10
                    k += 1
                } while m > 0
                if n < 0 { byte(0x2D) }
                while k > 0 {
                    k -= 1
                    byte(d[k])
                }
            }
        }
    }

    private static func build(_ capacity: Int, _ body: (inout Builder) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buf in
            var b = Builder(buffer: buf)
            body(&b)
            return b.count
        }
    }
}

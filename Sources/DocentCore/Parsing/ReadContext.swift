import Foundation

/// Shared state while reading one document: diagnostics and URL resolution.
final class ReadContext {
    var diagnostics: [Diagnostic] = []
    let resolver: URLResolver
    var imageServerURL: String?

    init(resolver: URLResolver) {
        self.resolver = resolver
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
        if let r = resolver.resolve(raw) { return r }
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
        let hex = s.filter { $0 != "-" }
        return hex.count == 32 && hex.allSatisfy(\.isHexDigit) && !s.contains("/") && !s.contains(".")
    }
}

/// JSON paths as a reader shows them: `objects["1036"].audio_commentary[0]`.
enum JSONPath {
    static func member(_ base: String, _ key: String) -> String { "\(base)[\"\(key)\"]" }
    static func index(_ base: String, _ i: Int) -> String { "\(base)[\(i)]" }
    static func field(_ base: String, _ name: String) -> String { "\(base).\(name)" }
}

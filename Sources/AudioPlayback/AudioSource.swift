import DocentCore
import Foundation

/// Where a track's bytes come from, decided from the request's URL string.
enum AudioSource: Equatable {
    /// An absolute local path (from a plain path or a `file://` URL); read through libcurl's
    /// `file://` so ranges work the same way as over HTTP.
    case file(path: String)
    case http(url: String)
    case unsupported(String)

    init(_ url: String) {
        let lower = url.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            self = .http(url: url)
        } else if lower.hasPrefix("file:") {
            guard let parsed = URL(string: url), parsed.isFileURL, !parsed.path.isEmpty,
                parsed.host == nil || parsed.host == "" || parsed.host == "localhost"
            else {
                self = .unsupported("not a valid file:// URL: \(url)")
                return
            }
            self = .file(path: parsed.path)
        } else if let schemeEnd = url.range(of: "://"), !url[..<schemeEnd.lowerBound].contains("/") {
            self = .unsupported("unsupported URL scheme \"\(url[..<schemeEnd.lowerBound])\"")
        } else {
            self = .file(path: Self.absolutePath(url))
        }
    }

    /// The URL handed to libcurl.
    var curlURL: String? {
        switch self {
        case .file(let path): return "file://" + Self.percentEncodePath(path)
        case .http(let url): return url
        case .unsupported: return nil
        }
    }

    /// Size of a regular file, or why it cannot be played.
    static func fileSize(_ path: String) -> Result<Int, AudioFailure> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(.fileNotFound(path)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .failure(.other("\(path) is a directory, not an audio file")) }
        return .success(Int(info.st_size))
    }

    private static func absolutePath(_ path: String) -> String {
        var path = path
        if path == "~" || path.hasPrefix("~/") { path = NSString(string: path).expandingTildeInPath }
        if !path.hasPrefix("/") {
            let cwd = FileManager.default.currentDirectoryPath
            path = cwd.hasSuffix("/") ? cwd + path : cwd + "/" + path
        }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Percent-encodes every byte except unreserved characters and `/`.
    private static func percentEncodePath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

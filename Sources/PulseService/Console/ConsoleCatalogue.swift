import PulseKit
import Foundation

/// What the console knows of the museum from its appData (`docent-pulse serve --data`): a
/// title for every subject key, and every page key an announcement pattern can match (the
/// guide's tabs, the museum, each artwork, tour, stop and gallery), and the exhibitions' titles
/// from the Data Aggregator's exhibitions answer (issue 44 #14: they showed as
/// `exhibition:7101`). Without `--data` the console shows keys only and matches against the
/// tabs and the museum.
public struct ConsoleCatalogue: Sendable {
    /// subject key → English title; tours per language too.
    var titles: [String: String] = [:]
    var tourTitles: [String: [Language: String]] = [:]
    /// Every page key, in a stable order.
    public private(set) var pageKeys: [String] = []

    public init() {
        pageKeys = Self.tabs.map { "tab:\($0)" } + ["museum"]
    }

    /// The guide's tabs, as page keys name them (`tab:home`…). The service links no guide
    /// target, so the list is written here; `ConsoleCatalogueTabsTests` compares it with the
    /// guide's whole `Tab.allCases` (every case, not samples).
    public static let tabs = ["home", "audioGuide", "map", "tours", "search", "info"]

    /// Titles and page keys from appData's JSON, read with DocentJSON alone (issue 46: the
    /// service links neither DocentReading nor DocentCore). The guide's readers check far more;
    /// the console needs a title per id: records are keyed by `nid` (or, without one, their
    /// key in an object), titles cleaned as the guide cleans titles, a record without a usable
    /// id or title skipped, the first of a repeated id kept.
    public init(appData root: JSON) {
        self.init()
        func records(_ name: String) -> [(id: Int, fields: JSON)] {
            var out: [(Int, JSON)] = []
            var seen: Set<Int> = []
            let items: [(String?, JSON)]
            switch root[name] {
            case .object(let o)?: items = o.fields.map { ($0.0, $0.1) }
            case .array(let a)?: items = a.map { (nil, $0) }
            default: items = []
            }
            for (key, v) in items {
                guard v.objectValue != nil else { continue }
                let id: Int?
                if let n = v["nid"], n != .null { id = Self.int(n) } else { id = key.flatMap { Int($0) } }
                guard let id, Self.title(v) != nil, seen.insert(id).inserted else { continue }
                out.append((id, v))
            }
            return out
        }
        var artworks: [Int: String] = [:]
        for (id, a) in records("objects") { artworks[id] = Self.title(a) }
        for id in artworks.keys.sorted() {
            titles["artwork:\(id)"] = artworks[id]
            pageKeys.append("artwork:\(id)")
        }
        for (id, g) in records("galleries").sorted(by: { $0.id < $1.id }) {
            titles["gallery:\(id)"] = Self.title(g)
            pageKeys.append("gallery:\(id)")
        }
        for (id, t) in records("tours").sorted(by: { $0.id < $1.id }) {
            let title = Self.title(t) ?? ""
            titles["tour:\(id)"] = title
            var translated: [Language: String] = [:]
            for tr in t["translations"]?.arrayValue ?? [] {
                guard let tag = tr["language"]?.stringValue, let lang = Language.fromTag(tag), lang != .english, translated[lang] == nil else { continue }
                translated[lang] = tr["title"]?.stringValue.map { TextCleaner.clean($0, .title) } ?? ""
            }
            tourTitles["tour:\(id)"] = translated
            pageKeys.append("tour:\(id)")
            let field = t["tour_stops"].map { $0 == .null } == false ? "tour_stops" : "stops"
            for (i, stop) in (t[field]?.arrayValue ?? []).enumerated() {
                guard stop.objectValue != nil, let artwork = stop["object"].flatMap(Self.int) else { continue }
                let sort = stop["sort"].flatMap(Self.int) ?? i
                let key = "stop:\(id)/\(sort)"
                titles[key] = "\(title) · \(sort): \(artworks[artwork] ?? "artwork \(artwork)")"
                pageKeys.append(key)
            }
        }
    }

    /// A whole number as appData writes ids: a number, or digits in a string.
    static func int(_ v: JSON) -> Int? {
        switch v {
        case .integer(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9e15: return Int(d)
        case .string(let s): return Int(s)
        default: return nil
        }
    }

    /// A record's title, cleaned as the guide cleans titles; nil when missing or empty.
    static func title(_ v: JSON) -> String? {
        guard let raw = v["title"]?.stringValue else { return nil }
        let t = TextCleaner.clean(raw, .title)
        return t.isEmpty ? nil : t
    }

    /// Reads appData from a file; a clear sentence when it cannot. When its exhibitions
    /// endpoint is a file (a museum without a server, as SampleData), the exhibitions' titles
    /// are read from it too (an http endpoint is not fetched: those exhibitions show as keys).
    public static func load(path: String) -> Result<ConsoleCatalogue, LoadFailure> {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(LoadFailure("--data: cannot read \(path)")) }
        let root: JSON
        do { root = try JSONParser.parse([UInt8](data)) } catch { return .failure(LoadFailure("--data: \(path) is not usable appData (\(error))")) }
        guard root.objectValue != nil else { return .failure(LoadFailure("--data: \(path) is not usable appData (the top level is \(root.kindName), not an object)")) }
        var c = ConsoleCatalogue(appData: root)
        if let file = exhibitionsFile(root["data"], appData: path), let bytes = FileManager.default.contents(atPath: file) {
            // An exhibitions file that cannot be read leaves keys only: the console still works.
            c.addExhibitions([UInt8](bytes))
        }
        return .success(c)
    }

    /// The exhibitions endpoint as a local file, as the guide resolves it (`exhibitions_endpoint`
    /// under `data_api_url`, relative to the appData file); nil for an http(s) endpoint or none.
    static func exhibitionsFile(_ data: JSON?, appData path: String) -> String? {
        guard let endpoint = data?["exhibitions_endpoint"]?.stringValue, !endpoint.isEmpty else { return nil }
        var url = endpoint
        if !endpoint.contains("://") {
            let api = data?["data_api_url"]?.stringValue ?? ""
            if !api.isEmpty && api != "." {
                url = (api.hasSuffix("/") ? String(api.dropLast()) : api) + (endpoint.hasPrefix("/") ? endpoint : "/" + endpoint)
            }
        }
        if url.hasPrefix("http://") || url.hasPrefix("https://") { return nil }
        if url.hasPrefix("file://") { return String(url.dropFirst("file://".count)) }
        if url.contains("://") || url.hasPrefix("/") { return url.contains("://") ? nil : url }
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? url : dir + "/" + url
    }

    /// Titles from a Data Aggregator exhibitions answer (`data`: objects with `id` and
    /// `title`), whatever their dates (a featured exhibition may open next month); answers how
    /// many were read. Titles are cut to 200 characters; anything else in the answer is ignored.
    @discardableResult
    public mutating func addExhibitions(_ bytes: [UInt8]) -> Int {
        guard let items = (try? JSONParser.parse(bytes, maxDepth: 16))?["data"]?.arrayValue else { return 0 }
        var n = 0
        for item in items {
            let id: Int?
            switch item["id"] {
            case .integer(let i)?: id = i
            case let v?: id = v.stringValue.flatMap { Int($0) }
            case nil: id = nil
            }
            guard let id, id >= 0, let title = item["title"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty else { continue }
            titles["exhibition:\(id)"] = String(NoteText.normalise(title).prefix(200))
            n += 1
        }
        return n
    }

    /// The subject's title in `language` where appData has one, else English, else nil.
    public func title(_ key: String, _ language: Language) -> String? {
        if let t = tourTitles[key]?[language] ?? tourTitles[key]?[language.content] { return t }
        if key.hasPrefix("note:") { return nil }
        return titles[key]
    }

    /// Whether the museum's data (`--data`) was given and has no such artwork, tour, gallery or
    /// stop (exhibitions and the museum come from elsewhere: never refused).
    public func lacks(_ key: String) -> Bool {
        guard !titles.isEmpty else { return false }
        let kind = key.split(separator: ":").first.map(String.init) ?? ""
        return ["artwork", "tour", "gallery", "stop"].contains(kind) && titles[key] == nil
    }

    /// The page keys any of `patterns` matches.
    public func matching(_ patterns: [PulsePattern]) -> [String] {
        pageKeys.filter { k in patterns.contains { $0.matches(k) } }
    }
}

import DocentCore
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
        pageKeys = Tab.allCases.map { "tab:\($0.rawValue)" } + ["museum"]
    }

    public init(_ app: AppData) {
        self.init()
        for a in app.sortedArtworks {
            titles["artwork:\(a.id)"] = a.title
            pageKeys.append("artwork:\(a.id)")
        }
        for g in app.galleries.values.sorted(by: { $0.id < $1.id }) {
            titles["gallery:\(g.id)"] = g.title
            pageKeys.append("gallery:\(g.id)")
        }
        for t in app.tours.sorted(by: { $0.id < $1.id }) {
            titles["tour:\(t.id)"] = t.english.title
            tourTitles["tour:\(t.id)"] = t.translations.mapValues(\.title)
            pageKeys.append("tour:\(t.id)")
            for s in t.stops {
                let key = "stop:\(t.id)/\(s.sort)"
                titles[key] = "\(t.english.title) · \(s.sort): \(app.artworks[s.artworkID]?.title ?? "artwork \(s.artworkID)")"
                pageKeys.append(key)
            }
        }
    }

    /// Reads appData from a file; a clear sentence when it cannot. When its exhibitions
    /// endpoint is a file (a museum without a server, as SampleData), the exhibitions' titles
    /// are read from it too (an http endpoint is not fetched: those exhibitions show as keys).
    public static func load(path: String) -> Result<ConsoleCatalogue, LoadFailure> {
        switch loadApp(path: path) {
        case .failure(let f): return .failure(f)
        case .success(let app):
            var c = ConsoleCatalogue(app)
            if let url = DataAggregator.endpointURL(app.endpoints.exhibitionsEndpoint, app: app), !url.hasPrefix("http://"), !url.hasPrefix("https://") {
                let file = url.hasPrefix("file://") ? String(url.dropFirst("file://".count)) : url
                // An exhibitions file that cannot be read leaves keys only: the console still works.
                if let bytes = FileManager.default.contents(atPath: file) { c.addExhibitions([UInt8](bytes)) }
            }
            return .success(c)
        }
    }

    public static func loadApp(path: String) -> Result<AppData, LoadFailure> {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(LoadFailure("--data: cannot read \(path)")) }
        switch AppDataReader.read([UInt8](data), source: path) {
        case .success(let app): return .success(app)
        case .failure(let e): return .failure(LoadFailure("--data: \(path) is not usable appData (\(e))"))
        }
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

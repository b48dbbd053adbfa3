import DocentText
import Foundation

/// What `docent validate` tells a content author about a document: counts, everything
/// dropped, shared keypad numbers, tours whose stops lack bumpers, missing translations,
/// and (when asked) files that cannot be fetched.
public struct ValidationReport: Sendable {
    public struct Counts: Sendable, Equatable {
        public var galleries = 0, closedGalleries = 0, artworks = 0, audioFiles = 0, tours = 0, tourStops = 0
        public var mapFloors = 0, annotations = 0, messages = 0, keypadNumbers = 0, categories = 0
        public var searchStrings = 0, exhibitionsListed = 0
    }

    /// A tour stop with no bumper clip (the first one too: it follows the introduction).
    public struct MissingBumper: Sendable, Equatable {
        public var tourID: Int
        public var stopIndex: Int
        public var artworkID: Int
    }

    /// How many records lack a language.
    public struct LanguageGap: Sendable, Equatable {
        public var language: Language
        public var audioWithout: Int
        public var toursWithout: Int
    }

    public struct UnreachableURL: Sendable, Equatable {
        public var url: String
        public var reason: String
    }

    public var source: String
    public var format: AppDataFormat
    public var counts = Counts()
    public var diagnostics: [Diagnostic] = []
    public var sharedKeypadNumbers: [Int: [String]] = [:]
    public var missingBumpers: [MissingBumper] = []
    public var languageGaps: [LanguageGap] = []
    public var unreachable: [UnreachableURL] = []
    public var checkedURLs = 0

    public var droppedCount: Int { diagnostics.filter { $0.severity == .dropped }.count }
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }

    public init(app: AppData) {
        source = app.source
        format = app.format
        diagnostics = app.diagnostics
        counts.galleries = app.galleries.count
        counts.closedGalleries = app.galleries.values.filter(\.closed).count
        counts.artworks = app.artworks.count
        counts.audioFiles = app.audioFiles.count
        counts.tours = app.tours.count
        counts.tourStops = app.tours.reduce(0) { $0 + $1.stops.count }
        counts.mapFloors = app.mapFloors.count
        counts.annotations = app.annotations.count
        counts.messages = app.messages.count
        counts.keypadNumbers = app.keypad.count
        counts.categories = app.tourCategories.count
        counts.searchStrings = app.search.strings.count
        counts.exhibitionsListed = app.exhibitionOrder.count
        for n in app.keypad.sharedNumbers {
            sharedKeypadNumbers[n] = app.keypad.lookup(String(n)).map {
                switch $0 {
                case .tour(let id): return "tour \(id) \"\(app.tour(id)?.english.title ?? "")\""
                case .artwork(let id, _): return "artwork \(id) \"\(app.artworks[id]?.title ?? "")\""
                }
            }
        }
        for t in app.tours {
            // Every tour starts with its introduction, so the first stop is walked to as well
            // (the guide plays a bumper after the intro when there is one).
            for (i, s) in t.stops.enumerated() where s.bumperID == nil {
                missingBumpers.append(MissingBumper(tourID: t.id, stopIndex: i + 1, artworkID: s.artworkID))
            }
        }
        for lang in app.contentLanguages where lang != .english {
            let a = app.audioFiles.values.filter { $0.translations[lang] == nil }.count
            let t = app.tours.filter { $0.translations[lang] == nil }.count
            if a + t > 0 { languageGaps.append(LanguageGap(language: lang, audioWithout: a, toursWithout: t)) }
        }
    }

    /// Every URL the guide would fetch: audio in all languages and floor plans.
    public static func urls(in app: AppData) -> [String] {
        var set: Set<String> = []
        for a in app.audioFiles.values {
            set.insert(a.english.url)
            for v in a.translations.values { set.insert(v.url) }
        }
        for f in app.mapFloors { set.insert(f.planURL) }
        return set.sorted()
    }

    /// Checks every URL with the fetcher (a HEAD for http, a read for files).
    public mutating func checkURLs(in app: AppData, with fetcher: any Fetching) {
        let urls = Self.urls(in: app)
        checkedURLs = urls.count
        for u in urls {
            let method: FetchRequest.Method = u.hasPrefix("http") ? .head : .get
            if case .failure(let e) = fetcher.fetch(FetchRequest(url: u, method: method, timeoutSeconds: 10)) {
                unreachable.append(UnreachableURL(url: u, reason: e.description))
            }
        }
    }

    /// The human-readable report.
    public func text(verbose: Bool = false) -> String {
        var out: [String] = []
        let c = counts
        out.append("\(source): appData \(format.rawValue)")
        out.append("  galleries \(c.galleries) (\(c.closedGalleries) closed), artworks \(c.artworks), audio files \(c.audioFiles)")
        out.append("  tours \(c.tours) with \(c.tourStops) stops, tour categories \(c.categories), keypad numbers \(c.keypadNumbers)")
        out.append("  map floors \(c.mapFloors), map annotations \(c.annotations), messages \(c.messages)")
        out.append("  search suggestions \(c.searchStrings), exhibitions listed \(c.exhibitionsListed)")
        let dropped = diagnostics.filter { $0.severity == .dropped }
        out.append("")
        out.append(dropped.isEmpty ? "Nothing dropped." : "Dropped (\(dropped.count)):")
        for d in dropped { out.append("  \(d.path)\(d.id.map { " (id \($0))" } ?? ""): \(d.message)") }
        let warnings = diagnostics.filter { $0.severity == .warning }
        if !warnings.isEmpty {
            out.append("")
            out.append("Warnings (\(warnings.count)):")
            for d in warnings { out.append("  \(d.path)\(d.id.map { " (id \($0))" } ?? ""): \(d.message)") }
        }
        if !sharedKeypadNumbers.isEmpty {
            out.append("")
            out.append("Keypad numbers shared by several targets (the guide offers a choice):")
            for n in sharedKeypadNumbers.keys.sorted() {
                out.append("  \(n): \(sharedKeypadNumbers[n, default: []].joined(separator: ", "))")
            }
        }
        if !missingBumpers.isEmpty {
            out.append("")
            out.append("Tour stops without a bumper (no walking directions to them):")
            for m in missingBumpers { out.append("  tour \(m.tourID) stop \(m.stopIndex) (artwork \(m.artworkID))") }
        }
        if !languageGaps.isEmpty {
            out.append("")
            out.append("Translations missing (English is used instead):")
            for g in languageGaps {
                out.append("  \(g.language.code): \(g.audioWithout) audio files, \(g.toursWithout) tours")
            }
        }
        if checkedURLs > 0 {
            out.append("")
            out.append(unreachable.isEmpty ? "All \(checkedURLs) files reachable." : "Unreachable files (\(unreachable.count) of \(checkedURLs)):")
            for u in unreachable { out.append("  \(u.url): \(u.reason)") }
        }
        if verbose {
            let notes = diagnostics.filter { $0.severity == .note }
            if !notes.isEmpty {
                out.append("")
                out.append("Notes (\(notes.count)):")
                for d in notes { out.append("  \(d.path)\(d.id.map { " (id \($0))" } ?? ""): \(d.message)") }
            }
        }
        // Record text quoted in messages may hold bidi overrides: never let them reach a terminal.
        return TerminalText.visible(out.joined(separator: "\n")) + "\n"
    }

    /// The machine-readable report (stable key order).
    public func json() -> String {
        func diag(_ d: Diagnostic) -> [String: Any] {
            var o: [String: Any] = ["severity": d.severity.rawValue, "path": d.path, "message": d.message]
            if let id = d.id { o["id"] = id }
            return o
        }
        let c = counts
        let obj: [String: Any] = [
            "source": source,
            "format": format.rawValue,
            "usable": true,
            "counts": [
                "galleries": c.galleries, "closed_galleries": c.closedGalleries, "artworks": c.artworks,
                "audio_files": c.audioFiles, "tours": c.tours, "tour_stops": c.tourStops, "map_floors": c.mapFloors,
                "map_annotations": c.annotations, "messages": c.messages, "keypad_numbers": c.keypadNumbers,
                "tour_categories": c.categories, "search_strings": c.searchStrings, "exhibitions": c.exhibitionsListed,
            ],
            "dropped": diagnostics.filter { $0.severity == .dropped }.map(diag),
            "warnings": diagnostics.filter { $0.severity == .warning }.map(diag),
            "notes": diagnostics.filter { $0.severity == .note }.map(diag),
            "shared_keypad_numbers": Dictionary(uniqueKeysWithValues: sharedKeypadNumbers.map { (String($0.key), $0.value) }),
            "stops_without_bumper": missingBumpers.map { ["tour": $0.tourID, "stop": $0.stopIndex, "artwork": $0.artworkID] },
            "missing_translations": languageGaps.map { ["language": $0.language.code, "audio_files": $0.audioWithout, "tours": $0.toursWithout] },
            "unreachable": unreachable.map { ["url": $0.url, "reason": $0.reason] },
        ]
        return Self.encode(obj)
    }

    /// The one-line JSON for an unusable document.
    public static func failureJSON(source: String, reason: String) -> String {
        encode(["source": source, "usable": false, "error": reason])
    }

    static func encode(_ obj: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: obj, options: [.prettyPrinted, .sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

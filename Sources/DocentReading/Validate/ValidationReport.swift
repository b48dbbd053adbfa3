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
        // One pass over the recordings, counting: filtering 25,000 of them once per language
        // copied every one each time.
        var audioWith: [Language: Int] = [:]
        for a in app.audioFiles.values {
            for l in a.translations.keys { audioWith[l, default: 0] += 1 }
        }
        var toursWith: [Language: Int] = [:]
        for t in app.tours {
            for l in t.translations.keys { toursWith[l, default: 0] += 1 }
        }
        // `app.contentLanguages`, from the counts.
        let languages = Set(audioWith.keys).union(toursWith.keys).subtracting([.english]).sorted()
        for lang in languages {
            let a = app.audioFiles.count - (audioWith[lang] ?? 0)
            let t = app.tours.count - (toursWith[lang] ?? 0)
            if a + t > 0 { languageGaps.append(LanguageGap(language: lang, audioWithout: a, toursWithout: t)) }
        }
    }

    /// Every URL the guide would fetch: audio in all languages, floor plans, and pictures
    /// (artworks', tours', map items' and the exhibitions' curated ones; issue 33 #16: the
    /// pictures were not checked, so a missing one still read "All … files reachable").
    public static func urls(in app: AppData) -> [String] {
        var set: Set<String> = []
        for a in app.audioFiles.values {
            set.insert(a.english.url)
            for v in a.translations.values { set.insert(v.url) }
        }
        for f in app.mapFloors { set.insert(f.planURL) }
        let pictures = app.artworks.values.map(\.imageURL) + app.tours.map(\.imageURL) + app.annotations.map(\.imageURL) + app.exhibitionOrder.map(\.imageURL)
        for case let url? in pictures where !url.isEmpty { set.insert(url) }
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
            out.append(unreachable.isEmpty ? (checkedURLs == 1 ? "The 1 file is reachable." : "All \(checkedURLs) files reachable.") : "Unreachable files (\(unreachable.count) of \(checkedURLs)):")
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

    /// The machine-readable report (stable key order), whole.
    public func json() -> String {
        var out = ""
        writeJSON { out += $0 }
        return out
    }

    /// The machine-readable report written piece by piece to `sink`, keys in sorted order, two
    /// spaces an indent. A document with half a million dropped records is written in about
    /// the time and memory of the text report: nothing is built as a tree first
    /// (JSONSerialization of such a tree took 25 s and 820 MB).
    public func writeJSON(to sink: @escaping (String) -> Void) {
        let w = JSONStreamWriter(sink)
        let c = counts
        w.open("{")
        w.key("counts", first: true)
        w.object([
            ("artworks", .int(c.artworks)), ("audio_files", .int(c.audioFiles)), ("closed_galleries", .int(c.closedGalleries)),
            ("exhibitions", .int(c.exhibitionsListed)), ("galleries", .int(c.galleries)), ("keypad_numbers", .int(c.keypadNumbers)),
            ("map_annotations", .int(c.annotations)), ("map_floors", .int(c.mapFloors)), ("messages", .int(c.messages)),
            ("search_strings", .int(c.searchStrings)), ("tour_categories", .int(c.categories)), ("tour_stops", .int(c.tourStops)),
            ("tours", .int(c.tours)),
        ])
        func writeDiagnostics(_ severity: Diagnostic.Severity) {
            w.array(self.diagnostics.lazy.filter { $0.severity == severity }) { d in
                // Written field by field: half a million of these make no arrays.
                w.open("{")
                if let id = d.id {
                    w.key("id")
                    w.value(.string(id))
                }
                w.key("message")
                w.value(.string(d.message))
                w.key("path")
                w.value(.string(d.path))
                w.key("severity")
                w.value(.string(d.severity.rawValue))
                w.close("}", empty: false)
            }
        }
        w.key("dropped")
        writeDiagnostics(.dropped)
        w.key("format")
        w.value(.string(format.rawValue))
        w.key("missing_translations")
        w.array(languageGaps) { g in
            w.object([("audio_files", .int(g.audioWithout)), ("language", .string(g.language.code)), ("tours", .int(g.toursWithout))])
        }
        w.key("notes")
        writeDiagnostics(.note)
        w.key("shared_keypad_numbers")
        w.open("{")
        for (i, n) in sharedKeypadNumbers.keys.map(String.init).sorted().enumerated() {
            w.key(n, first: i == 0)
            w.array(sharedKeypadNumbers[Int(n) ?? 0] ?? []) { w.value(.string($0)) }
        }
        w.close("}", empty: sharedKeypadNumbers.isEmpty)
        w.key("source")
        w.value(.string(source))
        w.key("stops_without_bumper")
        w.array(missingBumpers) { m in
            w.object([("artwork", .int(m.artworkID)), ("stop", .int(m.stopIndex)), ("tour", .int(m.tourID))])
        }
        w.key("unreachable")
        w.array(unreachable) { u in w.object([("reason", .string(u.reason)), ("url", .string(u.url))]) }
        w.key("usable")
        w.value(.bool(true))
        w.key("warnings")
        writeDiagnostics(.warning)
        w.close("}", empty: false)
        w.flush("\n")
    }

    /// The one-line JSON for an unusable document.
    public static func failureJSON(source: String, reason: String) -> String {
        encode(["source": source, "usable": false, "error": reason])
    }

    static func encode(_ obj: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: obj, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// Writes pretty JSON to a sink as it goes (the validate report's writer): values are
/// escaped as RFC 8259 asks, control characters as \u00XX, and the text is passed on in
/// pieces of about 64 KB.
final class JSONStreamWriter {
    enum Value {
        case string(String)
        case int(Int)
        case bool(Bool)
    }

    private let sink: (String) -> Void
    /// UTF-8 bytes not yet handed on (appending bytes is several times cheaper than growing
    /// a String piece by piece).
    private var buffer: [UInt8] = []
    private var depth = 0
    /// Whether the container being written has no entry yet.
    private var fresh: [Bool] = []

    init(_ sink: @escaping (String) -> Void) {
        self.sink = sink
        buffer.reserveCapacity(Self.piece + 4096)
    }

    private static let piece = 65_536

    private func emit(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        handOn()
    }

    private func handOn() {
        if buffer.count >= Self.piece {
            sink(String(decoding: buffer, as: UTF8.self))
            buffer.removeAll(keepingCapacity: true)
        }
    }

    private func newline() {
        buffer.append(10)
        buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    func open(_ bracket: String) {
        emit(bracket)
        depth += 1
        fresh.append(true)
    }

    func close(_ bracket: String, empty: Bool) {
        depth -= 1
        let wasFresh = fresh.popLast() ?? true
        if !(empty || wasFresh) { newline() }
        emit(bracket)
    }

    /// Starts the next field of an object (`first` is only a hint; the writer keeps count).
    func key(_ k: String, first: Bool = false) {
        separate()
        appendQuoted(k)
        emit(" : ")
    }

    private func separate() {
        if let f = fresh.last, !f { emit(",") }
        if !fresh.isEmpty { fresh[fresh.count - 1] = false }
        newline()
    }

    func value(_ v: Value) {
        switch v {
        case .string(let s):
            appendQuoted(s)
            handOn()
        case .int(let i): emit(String(i))
        case .bool(let b): emit(b ? "true" : "false")
        }
    }

    func object(_ fields: [(String, Value)]) {
        open("{")
        for (k, v) in fields {
            key(k)
            value(v)
        }
        close("}", empty: fields.isEmpty)
    }

    func array<S: Sequence>(_ items: S, _ each: (S.Element) -> Void) {
        open("[")
        var any = false
        for item in items {
            separate()
            each(item)
            any = true
        }
        close("]", empty: !any)
    }

    func flush(_ tail: String) {
        buffer.append(contentsOf: tail.utf8)
        sink(String(decoding: buffer, as: UTF8.self))
        buffer.removeAll()
    }

    /// `s` as a JSON string, straight into the buffer: its bytes as they are when none needs
    /// an escape (nearly always), else `quoted`.
    private func appendQuoted(_ s: String) {
        var plain = true
        for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5C || b >= 0x7F {
            // Bytes of UTF-8 beyond ASCII are fine unless they spell C1 controls or U+2028/9.
            if b >= 0x80 { continue }
            plain = false
            break
        }
        if plain, !s.utf8.contains(0xC2), !s.utf8.contains(0xE2) {
            buffer.append(UInt8(ascii: "\""))
            buffer.append(contentsOf: s.utf8)
            buffer.append(UInt8(ascii: "\""))
        } else {
            buffer.append(UInt8(ascii: "\""))
            Self.appendEscaped(s, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
    }

    /// The escaping of `quoted`, written as bytes (no String is built per character).
    static func appendEscaped(_ s: String, to out: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for u in s.unicodeScalars {
            let v = u.value
            switch v {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029:
                out += [0x5C, UInt8(ascii: "u"), hex[Int(v >> 12) & 15], hex[Int(v >> 8) & 15], hex[Int(v >> 4) & 15], hex[Int(v) & 15]]
            case 0..<0x80: out.append(UInt8(v))
            default: UTF8.encode(u) { out.append($0) }
            }
        }
    }

    static func quoted(_ s: String) -> String {
        // Most text needs no escape at all: printable ASCII, or UTF-8 past the C1 controls
        // and the two JavaScript line breaks, which the slow path below handles.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 < 0x7F }) { return "\"" + s + "\"" }
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(s.utf8.count + 8)
        appendEscaped(s, to: &out)
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }
}

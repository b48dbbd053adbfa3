import DocentText
import DocentJSON
import Foundation

/// A museum's Pulse seed (`SampleData/pulse/seed.json`): featured subjects with taglines,
/// curator notes, announcements. Loaded into an empty store so a new museum's Pulse is alive
/// on day one. A bad entry is skipped with a reason; the rest is used.
public struct PulseSeed: Hashable, Sendable {
    public struct CuratorNote: Hashable, Sendable {
        public let sequence: UInt64
        public let subject: PulseSubject
        public let language: Language
        public let text: String
        public init(sequence: UInt64, subject: PulseSubject, language: Language, text: String) {
            self.sequence = sequence
            self.subject = subject
            self.language = language
            self.text = text
        }
    }
    public var featured: [PulseFeatured] = []
    public var notes: [CuratorNote] = []
    public var announcements: [PulseAnnouncement] = []
    /// Entries left out, with their JSON path and why.
    public var problems: [String] = []

    public init() {}

    /// Reads a seed file; fails only when the file is not a JSON object at all.
    public static func read(_ bytes: [UInt8]) -> Result<PulseSeed, LoadFailure> {
        let json: JSON
        do {
            json = try JSONParser.parse(bytes, maxDepth: 16)
        } catch {
            return .failure(LoadFailure("the Pulse seed is not JSON (\(error))"))
        }
        guard json.objectValue != nil else { return .failure(LoadFailure("the Pulse seed is \(json.kindName), not an object")) }
        var seed = PulseSeed()
        for (i, f) in (json["featured"]?.arrayValue ?? []).enumerated() {
            let path = "featured[\(i)]"
            guard let subject = f["subject"]?.stringValue.flatMap(PulseSubject.init) else { seed.problems.append("\(path): no valid subject"); continue }
            guard case .integer(let tier)? = f["tier"], (0...100).contains(tier) else { seed.problems.append("\(path): tier must be 0…100"); continue }
            seed.featured.append(
                PulseFeatured(subject: subject, tier: tier, taglines: texts(f["tagline"], maxCells: 60), from: date(f["from"]), until: date(f["until"])))
        }
        for (i, n) in (json["notes"]?.arrayValue ?? []).enumerated() {
            let path = "notes[\(i)]"
            guard let subject = n["subject"]?.stringValue.flatMap(PulseSubject.init) else { seed.problems.append("\(path): no valid subject"); continue }
            guard case .integer(let seq)? = n["sequence"], seq >= 0 else { seed.problems.append("\(path): sequence must be a number ≥ 0"); continue }
            guard let lang = n["language"]?.stringValue.flatMap(Language.fromTag) else { seed.problems.append("\(path): no language"); continue }
            guard case .success(let text) = NoteText.clean(n["text"]?.stringValue ?? "") else { seed.problems.append("\(path): empty or longer than \(NoteText.maxCells) cells"); continue }
            seed.notes.append(CuratorNote(sequence: UInt64(seq), subject: subject, language: lang, text: text))
        }
        for (i, a) in (json["announcements"]?.arrayValue ?? []).enumerated() {
            let path = "announcements[\(i)]"
            guard let id = a["id"]?.stringValue, !id.isEmpty, id.utf8.count <= 64 else { seed.problems.append("\(path): no id"); continue }
            guard let style = a["style"]?.stringValue.flatMap(PulseAnnouncement.Style.init) else { seed.problems.append("\(path): style must be card or banner"); continue }
            var feeds: [PulsePattern] = []
            var bad: String?
            for p in a["feeds"]?.arrayValue ?? [] {
                switch PulsePattern.compile(p.stringValue ?? "") {
                case .success(let pattern): feeds.append(pattern)
                case .failure(let why): bad = "\(p.stringValue ?? p.kindName): \(why)"
                }
            }
            if let bad { seed.problems.append("\(path): pattern \(bad)"); continue }
            guard !feeds.isEmpty else { seed.problems.append("\(path): no feeds"); continue }
            let text = texts(a["text"], maxCells: NoteText.maxCells)
            guard !text.isEmpty else { seed.problems.append("\(path): no text"); continue }
            let positions = (a["positions"]?.arrayValue ?? []).compactMap { v -> Int? in
                if case .integer(let n) = v, (0...1000).contains(n) { return n }
                return nil
            }
            let languages = (a["languages"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(Language.fromTag) }
            let link = a["link"]?.stringValue.flatMap { l in l.hasPrefix("https://") || l.hasPrefix("http://") ? NoteText.normalise(l) : nil }
            seed.announcements.append(
                PulseAnnouncement(
                    id: id, feeds: feeds, positions: positions, style: style, languages: languages, from: date(a["from"]), until: date(a["until"]),
                    text: text, link: link))
        }
        return .success(seed)
    }

    /// `{"en": "…", "es": "…"}`, each cleaned as a note and cut to `maxCells`.
    static func texts(_ json: JSON?, maxCells: Int) -> [Language: String] {
        var out: [Language: String] = [:]
        for (k, v) in json?.objectValue?.fields ?? [] {
            guard let lang = Language.fromTag(k), let s = v.stringValue else { continue }
            let clean = NoteText.normalise(s)
            if !clean.isEmpty { out[lang] = TextWidth.truncate(clean, to: maxCells) }
        }
        return out
    }

    /// An ISO 8601 date-time (`2026-11-24T10:00:00Z`), nil when absent or unreadable.
    static func date(_ json: JSON?) -> Date? {
        guard let s = json?.stringValue else { return nil }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: s)
    }
}

/// Everything a Pulse store holds, for `docent-pulse export`: what the curators set (featured,
/// announcements, curator notes) in the shape of a seed file, so `docent-pulse seed` reads it
/// back into another store, then the visitors' notes (with reports and decisions) and every
/// subject's counts as a record. Visitors and their secrets are never exported.
public struct PulseExport: Hashable, Sendable {
    public var version: PulseVersion
    public var featured: [PulseFeatured]
    public var announcements: [PulseAnnouncement]
    public var notes: [PulseNote]
    public var counts: [PulseSubject: PulseCounts]

    public init(
        version: PulseVersion, featured: [PulseFeatured] = [], announcements: [PulseAnnouncement] = [], notes: [PulseNote] = [],
        counts: [PulseSubject: PulseCounts] = [:]
    ) {
        self.version = version
        self.featured = featured
        self.announcements = announcements
        self.notes = notes
        self.counts = counts
    }

    /// The export as JSON; `at` is when it was taken (given: the pure core reads no clock).
    /// With `page`, `visitor_notes` is that page and `next` says where the next starts (the
    /// service's first page; the museum's own content and the counts come whole).
    public func json(at: Date, page: PulsePage? = nil) -> JSON {
        let f = PulseWire.fields
        let date: (Date?) -> JSON = { d in d.map { .string(PulseSeed.iso($0)) } ?? .null }
        let texts: ([Language: String]) -> JSON = { t in f(t.sorted { $0.key < $1.key }.map { ($0.key.code, .string($0.value)) }) }
        let curator = notes.filter { $0.author == .curator && $0.id.visitor == .curator }
        var fields: [(String, JSON)] = [
            ("about", .string("Visitor Pulse export. featured, announcements and notes are a seed file (docent-pulse seed reads them); visitor_notes and counts are a record.")),
            ("exported_at", .string(PulseSeed.iso(at))),
            ("version", .integer(Int(version.value))),
            (
                "featured",
                .array(
                    featured.sorted { $0.subject < $1.subject }.map { x in
                        f([("subject", .string(x.subject.key)), ("tier", .integer(x.tier)), ("tagline", texts(x.taglines)), ("from", date(x.from)), ("until", date(x.until))])
                    })
            ),
            (
                "announcements",
                .array(
                    announcements.sorted { $0.id < $1.id }.map { a in
                        f([
                            ("id", .string(a.id)), ("style", .string(a.style.rawValue)), ("feeds", .array(a.feeds.map { .string($0.source) })),
                            ("positions", .array(a.positions.map { .integer($0) })), ("languages", .array(a.languages.map { .string($0.code) })),
                            ("from", date(a.from)), ("until", date(a.until)), ("text", texts(a.text)), ("link", a.link.map { .string($0) } ?? .null),
                        ])
                    })
            ),
            (
                "notes",
                .array(
                    curator.sorted { $0.id.sequence < $1.id.sequence }.map { n in
                        f([("sequence", .integer(Int(clamping: n.id.sequence))), ("subject", .string(n.subject.key)), ("language", .string(n.language.code)), ("text", .string(n.text))])
                    })
            ),
            ("visitor_notes", .array((page?.notes ?? notes.filter { $0.author == .visitor }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }).map(PulseWire.note))),
            ("counts", f(counts.filter { $0.value != .zero }.sorted { $0.key < $1.key }.map { ($0.key.key, PulseWire.counts($0.value)) })),
        ]
        if let page { fields.append(("next", page.next.map { .string($0.text) } ?? .null)) }
        return f(fields)
    }

    /// A later page of the export: `{"visitor_notes": [...], "next": cursor or null}`.
    public static func notesPage(_ page: PulsePage) -> JSON {
        PulseWire.fields([("visitor_notes", .array(page.notes.map(PulseWire.note))), ("next", page.next.map { .string($0.text) } ?? .null)])
    }
}

extension PulseSeed {
    /// `2026-11-24T10:00:00Z`, the form `date` reads.
    static func iso(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: d)
    }
}

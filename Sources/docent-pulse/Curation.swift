import ArgumentParser
import PulseKit
import PulseService
import Foundation

/// The staff commands that change what the curators set: `seed`, `feature`, `announce`, and
/// `export` which reads it all back. `feature` and `announce` write a one-entry seed and go the
/// same way as `seed`, so the seed reader is the one place that decides what is valid.

/// Applies a seed through the connection and says what was put in; entries left out are named
/// on standard error and make the exit status 1 (the rest stays applied).
func applySeed(_ seed: PulseSeed, bytes: [UInt8], target: StaffTarget, describe what: String) async throws {
    try await staffRun(target) { c in
        let problems = try await c.apply(seed, bytes: bytes)
        print(what)
        guard problems.isEmpty else {
            for p in problems { FileHandle.standardError.write(Data("docent-pulse: left out: \(p)\n".utf8)) }
            throw StaffFailure("\(problems.count) entr\(problems.count == 1 ? "y was" : "ies were") left out; the rest was applied")
        }
    }
}

/// A seed of one entry, checked here first: an entry the reader would leave out is refused
/// before anything is sent.
func oneEntrySeed(_ key: String, _ entry: JSON) throws -> (PulseSeed, [UInt8]) {
    let bytes = PulseWire.encode(PulseWire.fields([(key, .array([entry]))]))
    guard case .success(let seed) = PulseSeed.read(bytes) else { throw ValidationError("internal: the entry is not JSON") }
    if let problem = seed.problems.first {
        throw ValidationError(problem.replacingOccurrences(of: "\(key)[0]: ", with: ""))
    }
    return (seed, bytes)
}

/// `LANG=TEXT` pairs, the language one of the guide's.
func languageTexts(_ pairs: [String], option: String) throws -> JSON {
    var fields: [(String, JSON)] = []
    for p in pairs {
        guard let eq = p.firstIndex(of: "="), let lang = Language.fromTag(String(p[..<eq])) else {
            throw ValidationError("\(option) takes LANG=TEXT, LANG a language tag (en, es, fr, ko, zh, zh-Hant…): '\(p)'")
        }
        fields.append((lang.code, .string(String(p[p.index(after: eq)...]))))
    }
    return PulseWire.fields(fields)
}

/// An ISO 8601 date-time as seed files write it, checked.
func isoTime(_ text: String?, option: String) throws -> JSON {
    guard let text else { return .null }
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime]
    guard f.date(from: text) != nil else { throw ValidationError("\(option) takes a date-time as 2026-12-01T09:00:00Z or 2026-12-01T09:00:00-06:00: '\(text)'") }
    return .string(text)
}

struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply a seed file (as SampleData/pulse/seed.json, or an export) whatever the store holds.",
        discussion: """
            Featured subjects, curator notes and announcements are put in or replace the ones with \
            the same subject, sequence or id; a curator note keeps its votes and reports. What the \
            file does not name is left as it is. Every guide sees the change at its next check.
            """)
    @OptionGroup var target: StaffTarget
    @Argument(help: "The seed file.") var file: String

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
        let bytes = [UInt8](data)
        guard bytes.count <= PulseWire.maxSeedBytes else { throw ValidationError("\(file) is larger than \(PulseWire.maxSeedBytes) bytes") }
        switch PulseSeed.read(bytes) {
        case .failure(let f): throw ValidationError("\(file): \(f.message)")
        case .success(let seed):
            try await applySeed(
                seed, bytes: bytes, target: target,
                describe: "Applied \(seed.featured.count) featured, \(seed.notes.count) curator notes, \(seed.announcements.count) announcements from \(file).")
        }
    }
}

struct Feature: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Feature a subject (a tour, an exhibition, an artwork…) on Home, or change how.",
        discussion: "To stop featuring it, give --until a time already past.")
    @OptionGroup var target: StaffTarget
    @Argument(help: "The subject: tour:ID, exhibition:ID, artwork:ID, gallery:ID, stop:TOUR/N or museum.") var subject: String
    @Option(help: "Its place among the featured: higher first (0…100).") var tier: Int = 1
    @Option(help: "A tagline in one language, LANG=TEXT (again for more languages).") var tagline: [String] = []
    @Option(help: "From when (ISO 8601, e.g. 2026-12-01T09:00:00Z); default: now.") var from: String?
    @Option(help: "Until when (ISO 8601); default: until changed.") var until: String?
    @Option(help: ArgumentHelp(
        "The museum's appData.json (a path): a tour, artwork, gallery or stop it does not have is refused.",
        discussion: "Without it the subject is only checked for its form. Exhibitions come from the museum's API, not this file, so they are not looked up."))
    var data: String?

    func run() async throws {
        guard let checked = PulseSubject(subject) else { throw ValidationError("not a subject: '\(subject)' (tour:ID, exhibition:ID, artwork:ID, gallery:ID, stop:TOUR/N, museum)") }
        if let data {
            // Issue 33 #15: `feature tour:9999` was accepted silently.
            switch ConsoleCatalogue.load(path: data) {
            case .failure(let e): throw ValidationError(e.message)
            case .success(let museum):
                if let problem = MuseumSubjects.problem(checked, in: museum) { throw ValidationError(problem) }
            }
        }
        let entry = PulseWire.fields([
            ("subject", .string(subject)), ("tier", .integer(tier)), ("tagline", try languageTexts(tagline, option: "--tagline")),
            ("from", try isoTime(from, option: "--from")), ("until", try isoTime(until, option: "--until")),
        ])
        let (seed, bytes) = try oneEntrySeed("featured", entry)
        try await applySeed(seed, bytes: bytes, target: target, describe: "Featured \(subject) (tier \(tier)).")
    }
}

struct Announce: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put up an announcement (or replace the one with this id) in the lists and screens it feeds.",
        discussion: """
            Feeds are anchored patterns over subjects and screens: museum, tab:home, tab:map, \
            gallery:2\\d\\d, tour:.* … To take it down, give --until a time already past.
            """)
    @OptionGroup var target: StaffTarget
    @Argument(help: "Its id (1 to 64 bytes): the same id again replaces it.") var id: String
    @Option(help: "card (a row in a list) or banner.") var style: String = "card"
    @Option(help: "Where it shows: a pattern (again for more).") var feed: [String] = []
    @Option(help: "Its text in one language, LANG=TEXT (again for more languages).") var text: [String] = []
    @Option(help: "A card's row in a list, from 0 (again for more); default: the first row.") var position: [Int] = []
    @Option(help: "Only for visitors reading this language (again for more); default: all.") var language: [String] = []
    @Option(help: "From when (ISO 8601); default: now.") var from: String?
    @Option(help: "Until when (ISO 8601); default: until changed.") var until: String?
    @Option(help: "A web address to learn more (http:// or https://).") var link: String?

    func run() async throws {
        guard !text.isEmpty else { throw ValidationError("an announcement needs --text LANG=TEXT") }
        guard !feed.isEmpty else { throw ValidationError("an announcement needs --feed PATTERN (where it shows: tab:home, museum, gallery:2\\d\\d…)") }
        for l in language where Language.fromTag(l) == nil {
            throw ValidationError("--language takes a language tag (en, es, fr, ko, zh, zh-Hant…): '\(l)'")
        }
        if let link, !(link.hasPrefix("https://") || link.hasPrefix("http://")) { throw ValidationError("--link must start with https:// or http://") }
        let entry = PulseWire.fields([
            ("id", .string(id)), ("style", .string(style)), ("feeds", .array(feed.map { .string($0) })), ("text", try languageTexts(text, option: "--text")),
            ("positions", .array(position.map { .integer($0) })), ("languages", .array(language.map { .string($0) })),
            ("from", try isoTime(from, option: "--from")), ("until", try isoTime(until, option: "--until")), ("link", link.map { .string($0) } ?? .null),
        ])
        let (seed, bytes) = try oneEntrySeed("announcements", entry)
        try await applySeed(seed, bytes: bytes, target: target, describe: "Announcement \(id) (\(style)) is up.")
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write everything but the visitors as JSON: featured, announcements, curator notes (a seed), visitors' notes and counts.")
    @OptionGroup var target: StaffTarget
    @Option(name: .shortAndLong, help: "Write to this file (replaced whole, never half-written); default: standard output.") var output: String?

    func run() async throws {
        try await staffRun(target) { c in
            let json = try await c.export() + [UInt8(ascii: "\n")]
            guard let output else {
                FileHandle.standardOutput.write(Data(json))
                return
            }
            do {
                try Data(json).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw StaffFailure("cannot write \(output) (\(error.localizedDescription))")
            }
            FileHandle.standardError.write(Data("docent-pulse: exported \(json.count) bytes to \(output)\n".utf8))
        }
    }
}

/// Whether the museum's data has what a subject names (`feature --data`).
enum MuseumSubjects {
    /// Why `subject` is not one of `app`'s, or nil when it is (or cannot be looked up here).
    static func problem(_ subject: PulseSubject, in museum: ConsoleCatalogue) -> String? {
        let parts = subject.key.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let rest = String(parts[1])
        let keys = Set(museum.pageKeys)
        func ids(_ prefix: String) -> [Int] { museum.pageKeys.compactMap { $0.hasPrefix(prefix) ? Int($0.dropFirst(prefix.count)) : nil } }
        switch parts[0] {
        case "tour":
            guard let id = Int(rest), keys.contains("tour:\(id)") else { return "the museum's data has no tour \(rest) (its tours: \(sample(ids("tour:"))))" }
        case "artwork":
            guard let id = Int(rest), keys.contains("artwork:\(id)") else { return "the museum's data has no artwork \(rest)" }
        case "gallery":
            guard let id = Int(rest), keys.contains("gallery:\(id)") else { return "the museum's data has no gallery \(rest)" }
        case "stop":
            let n = rest.split(separator: "/").compactMap { Int($0) }
            guard n.count == 2, keys.contains("tour:\(n[0])") else { return "the museum's data has no tour \(rest.split(separator: "/").first ?? "")" }
            guard keys.contains("stop:\(n[0])/\(n[1])") else {
                return "tour \(n[0]) has no stop \(n[1]) (its stops: \(sample(ids("stop:\(n[0])/"))))"
            }
        default:
            return nil
        }
        return nil
    }

    private static func sample(_ ids: [Int]) -> String {
        let sorted = ids.sorted()
        return sorted.prefix(8).map(String.init).joined(separator: ", ") + (sorted.count > 8 ? " …" : "")
    }
}

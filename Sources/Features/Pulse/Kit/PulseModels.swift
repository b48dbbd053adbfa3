import DocentText
import DocentJSON
import Foundation

/// What a note, a reaction or an announcement is about: `artwork:1101`, `tour:2`, `stop:2/3`,
/// `exhibition:7`, `gallery:12`, `museum`, or a note (`note:VISITOR.SEQ`). The same keys are
/// used by the embedded store and by the Pulse service (issue 13), so they are checked once,
/// here.
public struct PulseSubject: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let key: String

    /// A subject from its key, nil when the key is not one of ours.
    public init?(_ key: String) {
        guard PulseSubject.isValid(key) else { return nil }
        self.key = key
    }

    public static func artwork(_ id: Int) -> PulseSubject { PulseSubject(unchecked: "artwork:\(id)") }
    public static func tour(_ id: Int) -> PulseSubject { PulseSubject(unchecked: "tour:\(id)") }
    public static func stop(tour: Int, sort: Int) -> PulseSubject { PulseSubject(unchecked: "stop:\(tour)/\(sort)") }
    public static func exhibition(_ id: Int) -> PulseSubject { PulseSubject(unchecked: "exhibition:\(id)") }
    public static func gallery(_ id: Int) -> PulseSubject { PulseSubject(unchecked: "gallery:\(id)") }
    public static let museum = PulseSubject(unchecked: "museum")
    public static func note(_ id: NoteID) -> PulseSubject { PulseSubject(unchecked: "note:\(id.key)") }

    private init(unchecked key: String) { self.key = key }

    /// The kind before the colon (`artwork`, `tour` …; `museum` for the museum).
    public var kind: String { key.split(separator: ":", maxSplits: 1).first.map(String.init) ?? key }

    /// The note this subject is, if it is one.
    public var noteID: NoteID? {
        guard key.hasPrefix("note:") else { return nil }
        return NoteID(key: String(key.dropFirst(5)))
    }

    public static func < (a: PulseSubject, b: PulseSubject) -> Bool { a.key < b.key }
    public var description: String { key }

    /// At most this many bytes (a note subject is the longest: a visitor id and a sequence).
    public static let maxLength = 80

    static func isValid(_ key: String) -> Bool {
        guard key.utf8.count <= maxLength else { return false }
        if key == "museum" { return true }
        guard let colon = key.firstIndex(of: ":") else { return false }
        let kind = key[..<colon], rest = key[key.index(after: colon)...]
        switch kind {
        case "artwork", "tour", "exhibition", "gallery": return isNumber(rest)
        case "stop":
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == 2 && isNumber(parts[0]) && isNumber(parts[1])
        case "note": return NoteID(key: String(rest)) != nil
        default: return false
        }
    }

    private static func isNumber(_ s: Substring) -> Bool {
        !s.isEmpty && s.count <= 18 && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}

/// A visitor's identity in Pulse: a random id (letters and digits, chosen on first use).
public struct VisitorID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    /// Nil unless 8 to 40 characters of `a-z`, `0-9`.
    public init?(_ raw: String) {
        guard (8...40).contains(raw.utf8.count), raw.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }) else { return nil }
        rawValue = raw
    }
    public static func < (a: VisitorID, b: VisitorID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { rawValue }
    /// The museum's own voice (curator notes from the seed).
    public static let curator = VisitorID("curator0")!

    /// Ids kept for the museum's own roles (`curator…`, `staff…`, `museum…`, `docent…`):
    /// no visitor can register one, so nothing a visitor writes can pass for the museum's.
    public static let reservedPrefixes = ["curator", "staff", "museum", "docent"]
    public var isReserved: Bool { Self.reservedPrefixes.contains { rawValue.hasPrefix($0) } }
}

/// A visitor's id and the secret that proves it (created on first use, kept in the state
/// database; the store keeps only a hash of the secret).
public struct VisitorCredentials: Equatable, Sendable {
    public let visitor: VisitorID
    public let secret: String
    public init(visitor: VisitorID, secret: String) {
        self.visitor = visitor
        self.secret = secret
    }

    /// New credentials from random bytes (the shell supplies them: the core has no entropy).
    /// Nil when fewer than 26 bytes are given.
    public static func make(random bytes: [UInt8]) -> VisitorCredentials? {
        guard bytes.count >= 26 else { return nil }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let id = String(bytes.prefix(10).map { alphabet[Int($0) % alphabet.count] })
        let secret = bytes.dropFirst(10).prefix(16).map { String(format: "%02x", $0) }.joined()
        guard let visitor = VisitorID(id) else { return nil }
        return VisitorCredentials(visitor: visitor, secret: secret)
    }
}

/// A note's id, chosen by the client: the visitor's id and that visitor's own 64-bit
/// sequence. A retried submit carries the same id and is the same note, never a second one
/// (PartyUP's one-byte counter wrapped after 256 clips and collided).
public struct NoteID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let visitor: VisitorID
    public let sequence: UInt64
    public init(visitor: VisitorID, sequence: UInt64) {
        self.visitor = visitor
        self.sequence = sequence
    }
    /// `VISITOR.SEQUENCE`.
    public var key: String { "\(visitor.rawValue).\(sequence)" }
    public init?(key: String) {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let v = VisitorID(String(parts[0])), parts[1].utf8.count <= 20,
            parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = UInt64(parts[1])
        else { return nil }
        visitor = v
        sequence = n
    }
    public static func < (a: NoteID, b: NoteID) -> Bool { (a.visitor, a.sequence) < (b.visitor, b.sequence) }
    public var description: String { key }
}

/// A reaction: liked, meh, not for me. One per visitor per subject.
public enum ReactionValue: Int, Hashable, Sendable, CaseIterable {
    case down = -1
    case meh = 0
    case up = 1
}

/// A subject's reactions, kept by the store in the same transaction as the reaction rows and
/// never trusted from a client.
public struct PulseCounts: Hashable, Sendable {
    public var up: Int
    public var meh: Int
    public var down: Int
    public init(up: Int = 0, meh: Int = 0, down: Int = 0) {
        self.up = up
        self.meh = meh
        self.down = down
    }
    public static let zero = PulseCounts()
    /// Likes minus dislikes (meh counts for nothing); a damaged count saturates
    /// (`PulseBounds`), never traps.
    public var score: Int { PulseBounds.count(up) - PulseBounds.count(down) }
    /// What is shown next to a note: the likes, never a negative number.
    public var shownLikes: Int { max(0, up) }

    /// The counts after one visitor's reaction changed from `old` to `new`.
    public func changed(from old: ReactionValue?, to new: ReactionValue?) -> PulseCounts {
        var c = self
        if let old { c.add(old, -1) }
        if let new { c.add(new, 1) }
        return c
    }

    private mutating func add(_ v: ReactionValue, _ n: Int) {
        switch v {
        case .up: up = PulseBounds.count(up) + n
        case .meh: meh = PulseBounds.count(meh) + n
        case .down: down = PulseBounds.count(down) + n
        }
    }

    /// Counts recomputed from reaction rows (what a store's counts must always equal).
    public static func recount(_ values: some Sequence<ReactionValue>) -> PulseCounts {
        values.reduce(into: PulseCounts()) { $0.add($1, 1) }
    }
}

/// Who wrote a note.
public enum NoteAuthor: Hashable, Sendable {
    case visitor
    /// The museum's own (seeded curator notes): never hidden by score, never expired.
    case curator
}

/// What staff decided about a reported note.
public enum StaffDecision: String, Hashable, Sendable {
    /// Agree with the reporters: the note is removed.
    case removed
    /// Disagree: the note is restored and the reports made so far stop counting.
    case restored
    /// Keep it for highlights past retention (a pin).
    case pinned
}

/// A note on a subject: plain text in a language, with its reactions.
public struct PulseNote: Hashable, Sendable, Identifiable {
    public let id: NoteID
    public let subject: PulseSubject
    public let language: Language
    /// Clean text (`NoteText.clean`).
    public let text: String
    public let createdAt: Date
    public var author: NoteAuthor
    public var counts: PulseCounts
    /// Distinct reporters whose reports count (reports made before a staff `restored` do not).
    public var reports: Int
    public var decision: StaffDecision?

    public init(
        id: NoteID, subject: PulseSubject, language: Language, text: String, createdAt: Date, author: NoteAuthor = .visitor,
        counts: PulseCounts = .zero, reports: Int = 0, decision: StaffDecision? = nil
    ) {
        self.id = id
        self.subject = subject
        self.language = language
        self.text = text
        self.createdAt = createdAt
        self.author = author
        self.counts = counts
        self.reports = reports
        self.decision = decision
    }
}

/// A featured subject (PartyUP's promotions): a tier (higher first), a tagline per language,
/// shown between `from` and `until`.
public struct PulseFeatured: Hashable, Sendable {
    public let subject: PulseSubject
    public let tier: Int
    public let taglines: [Language: String]
    public let from: Date?
    public let until: Date?
    public init(subject: PulseSubject, tier: Int, taglines: [Language: String], from: Date? = nil, until: Date? = nil) {
        self.subject = subject
        self.tier = tier
        self.taglines = taglines
        self.from = from
        self.until = until
    }

    public func isActive(at now: Date) -> Bool { PulseWindow.contains(now, from: from, until: until) }

    /// The tagline in `language`, else English, else none.
    public func tagline(_ language: Language) -> String? { taglines[language] ?? taglines[language.content] ?? taglines[.english] }
}

/// An announcement: shown in the lists and screens its patterns match, as a card at given
/// positions or as a banner, in its languages, between `from` and `until`. Never HTML.
public struct PulseAnnouncement: Hashable, Sendable, Identifiable {
    public enum Style: String, Hashable, Sendable { case card, banner }
    public let id: String
    /// Anchored patterns over subject keys and screens (`gallery:2\d\d`, `tab:map`).
    public let feeds: [PulsePattern]
    /// Row positions in a list (cards); empty: first row.
    public let positions: [Int]
    public let style: Style
    /// Its languages; empty: all.
    public let languages: [Language]
    public let from: Date?
    public let until: Date?
    public let text: [Language: String]
    public let link: String?

    public init(
        id: String, feeds: [PulsePattern], positions: [Int] = [], style: Style, languages: [Language] = [], from: Date? = nil, until: Date? = nil,
        text: [Language: String], link: String? = nil
    ) {
        self.id = id
        self.feeds = feeds
        self.positions = positions
        self.style = style
        self.languages = languages
        self.from = from
        self.until = until
        self.text = text
        self.link = link
    }

    public func isActive(at now: Date) -> Bool { PulseWindow.contains(now, from: from, until: until) }
}

/// Something that happened to a subject, feeding "popular right now".
public struct PulseActivity: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable { case play, reaction, note }
    public let subject: PulseSubject
    public let kind: Kind
    public let at: Date
    public init(subject: PulseSubject, kind: Kind, at: Date) {
        self.subject = subject
        self.kind = kind
        self.at = at
    }
}

/// Whether a time is inside an optional window (`from` included, `until` excluded).
public enum PulseWindow {
    public static func contains(_ t: Date, from: Date?, until: Date?) -> Bool {
        if let from, t < from { return false }
        if let until, t >= until { return false }
        return true
    }
}

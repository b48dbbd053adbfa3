import DocentText
import DocentJSON
import Foundation

/// Pulse's rules, as plain functions over values: who sees a note, what is kept, what is
/// popular, what a reaction key does, how fast a visitor may write. The stores and the guide
/// both call these, so the embedded store and the service (issue 13) cannot disagree.
public struct PulseRules: Equatable, Sendable {
    /// Distinct reporters that hide a note for everyone and queue it for staff.
    public var reportThreshold = 3
    /// A visitor note whose score (likes − dislikes) is at or below this is hidden.
    public var scoreFloor = -5
    /// Ordinary notes expire after this long…
    public var retention: TimeInterval = 48 * 3600
    /// …except this many best notes per subject (score ≥ 0), kept as highlights.
    public var highlightsPerSubject = 4
    /// "Right now" is this window.
    public var recentWindow: TimeInterval = 60 * 60
    /// Notes per visitor per hour, reactions (and reports) per visitor per minute.
    public var notesPerHour = 10
    public var reactionsPerMinute = 30
    /// Subjects a snapshot carries activity for: the busiest this many (a play flood over
    /// random subjects cannot grow it past this).
    public var snapshotActivityLimit = 200
    /// Notes a notes list holds: the newest this many a viewer sees (a page of the store).
    public var notesPage = 100

    public init() {}
    public static let standard = PulseRules()

    // MARK: Who sees a note

    /// Why a note is not shown, or nil when it is.
    public enum Hidden: Hashable, Sendable {
        /// This viewer reported it (gone for them at once).
        case reportedByViewer
        /// This viewer hides the notes of its writer.
        case writerHidden
        /// Enough distinct visitors reported it; staff have not restored it.
        case reported
        /// Its score fell to the floor.
        case lowScore
        /// Staff removed it.
        case removed
    }

    /// Whether `viewer` sees `note`. `viewerReported`: the viewer has a report on it;
    /// `hiddenWriters`: visitors whose notes the viewer chose not to see. The author
    /// (`viewer`) still sees their own note while reports or votes hide it from others (it
    /// waits for staff), so it does not vanish without a word (issue 33 #9); a removed one goes.
    public func hidden(_ note: PulseNote, viewerReported: Bool, hiddenWriters: Set<VisitorID> = [], viewer: VisitorID? = nil) -> Hidden? {
        if note.decision == .removed { return .removed }
        if viewerReported { return .reportedByViewer }
        if hiddenWriters.contains(note.id.visitor), note.author == .visitor { return .writerHidden }
        if let viewer, note.author == .visitor, note.id.visitor == viewer { return nil }
        // The museum's own notes are never hidden by visitors' reports or votes.
        guard note.author == .visitor else { return nil }
        if reportedAway.holds(note) { return .reported }
        if votedDown.holds(note) { return .lowScore }
        return nil
    }

    /// Whether a note waits for staff: hidden by reporters or by its score and not yet
    /// decided (a note hidden by down-votes is never hidden where staff cannot see it).
    public func needsReview(_ note: PulseNote) -> Bool {
        waitsForStaff.holds(note)
    }

    /// The notes `viewer` sees, newest first (ties: the larger id first, so the order is total).
    public func visible(_ notes: [PulseNote], reportedByViewer: Set<NoteID>, hiddenWriters: Set<VisitorID> = [], viewer: VisitorID? = nil) -> [PulseNote] {
        notes.filter { hidden($0, viewerReported: reportedByViewer.contains($0.id), hiddenWriters: hiddenWriters, viewer: viewer) == nil }
            .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }

    // MARK: Retention

    /// The ids of the notes kept at `now`: every note younger than `retention`, the museum's
    /// own and pinned ones, and per subject the best `highlightsPerSubject` older ones whose
    /// score is not negative (higher score first, then newer). Removed notes go.
    public func retained(_ notes: [PulseNote], now: Date) -> Set<NoteID> {
        var keep = Set<NoteID>()
        var older: [PulseSubject: [PulseNote]] = [:]
        let kept = keptOutright(now: now)
        for n in notes where n.decision != .removed {
            if kept.holds(n) {
                keep.insert(n.id)
            } else if highlightCandidate.holds(n) {
                older[n.subject, default: []].append(n)
            }
        }
        for (_, list) in older {
            let best = list.sorted { ($0.counts.score, $0.createdAt, $0.id) > ($1.counts.score, $1.createdAt, $1.id) }
            for n in best.prefix(highlightsPerSubject) { keep.insert(n.id) }
        }
        return keep
    }

    /// Whether a kept note is shown as a highlight (older than the retention window).
    public func isHighlight(_ note: PulseNote, now: Date) -> Bool {
        note.author == .visitor && now.timeIntervalSince(note.createdAt) >= retention
    }

    // MARK: Reactions

    /// The visitor's reaction after pressing `chosen` while holding `current`: the same
    /// choice again withdraws it (PartyUP's toggle), another replaces it.
    public static func toggled(_ current: ReactionValue?, pressing chosen: ReactionValue) -> ReactionValue? {
        current == chosen ? nil : chosen
    }

    // MARK: Rate limits

    /// What a rate limit says: wait this long (seconds, rounded up, at least 1).
    public enum Limit: Hashable, Sendable {
        case notes(retryAfter: Int)
        case reactions(retryAfter: Int)

        /// The longest wait a limit may ask for: a day. A wait from the wire or a damaged store
        /// is brought into 1 s ... a day before any arithmetic (`Int.max` plus a minute traps).
        public static let longestWait = 86_400

        /// `seconds` brought into 1 ... `longestWait`.
        public static func bounded(_ seconds: Int) -> Int { min(max(seconds, 1), longestWait) }

        /// How long to wait, bounded.
        public var seconds: Int {
            switch self {
            case .notes(let s), .reactions(let s): return Self.bounded(s)
            }
        }
    }

    /// Nil when one more write is allowed at `now`, given the times of this visitor's earlier
    /// writes of the same kind; otherwise how long to wait.
    public static func check(_ earlier: [Date], now: Date, limit: Int, per window: TimeInterval) -> Int? {
        let recent = earlier.filter { now.timeIntervalSince($0) < window && $0 <= now }.sorted()
        guard recent.count >= limit, limit > 0 else { return limit > 0 ? nil : Int(window) }
        // Allowed again when the oldest write that still counts leaves the window.
        let oldest = recent[recent.count - limit]
        let wait = window - now.timeIntervalSince(oldest)
        return max(1, Int(wait.rounded(.up)))
    }
}

/// How old things get before the service's scheduled purge lets them go (issue 32), besides
/// notes past `PulseRules.retention`: each is a `docent-pulse serve` option, applied alike by
/// the SQLite and the PostgreSQL store.
public struct PulsePurgeAges: Equatable, Sendable {
    /// Activity (plays, reactions, notes as "popular right now" counts them) older than this.
    public var activity: TimeInterval = 48 * 3600
    /// A visitor registered longer ago than this with nothing of theirs left (no note, reaction
    /// or report) is forgotten: long enough for a kiosk that keeps its identity for weeks
    /// without writing.
    public var abandonedVisitors: TimeInterval = 30 * 86400
    /// Reports older than this on notes staff have decided: on a pinned note, every such
    /// report; on a restored one, those made before the restore (they stopped counting then;
    /// later ones are a new case for staff and stay).
    public var decidedReports: TimeInterval = 30 * 86400

    public init(activity: TimeInterval = 48 * 3600, abandonedVisitors: TimeInterval = 30 * 86400, decidedReports: TimeInterval = 30 * 86400) {
        self.activity = activity
        self.abandonedVisitors = abandonedVisitors
        self.decidedReports = decidedReports
    }
    public static let standard = PulsePurgeAges()
}

/// Which choice of a three-level marker "popular right now" shows.
public enum PulseHeat: Int, Hashable, Sendable, Comparable {
    case cold = 0, warm = 1, hot = 2
    /// PartyUP's vitality: nothing is cold, 1–5 warm, more is hot (activity in the window).
    public init(recentCount n: Int) {
        self = n <= 0 ? .cold : (n <= 5 ? .warm : .hot)
    }
    public static func < (a: PulseHeat, b: PulseHeat) -> Bool { a.rawValue < b.rawValue }
}

/// A subject's activity as "popular right now" needs it.
public struct PulseActivitySummary: Hashable, Sendable {
    /// Events in the recent window (the last 60 minutes).
    public var recent: Int
    /// Events since the start of the museum's day.
    public var today: Int
    /// The newest event.
    public var last: Date?
    public init(recent: Int = 0, today: Int = 0, last: Date? = nil) {
        self.recent = recent
        self.today = today
        self.last = last
    }

    /// Summaries from single events (what a store does in SQL, done on values).
    public static func summarise(_ events: [PulseActivity], now: Date, dayStart: Date, window: TimeInterval) -> [PulseSubject: PulseActivitySummary] {
        var out: [PulseSubject: PulseActivitySummary] = [:]
        for e in events where e.at <= now {
            var s = out[e.subject] ?? PulseActivitySummary()
            if now.timeIntervalSince(e.at) < window { s.recent += 1 }
            if e.at >= dayStart { s.today += 1 }
            if s.last.map({ e.at > $0 }) ?? true { s.last = e.at }
            out[e.subject] = s
        }
        return out
    }
}

/// "Popular right now" on Home.
public enum PulseRanking {
    /// One candidate with what decides its place.
    public struct Entry: Hashable, Sendable {
        public let subject: PulseSubject
        /// Its featured tier now (0: not featured).
        public let tier: Int
        public let activity: PulseActivitySummary
        public let curatorPick: Bool
        public var heat: PulseHeat { PulseHeat(recentCount: activity.recent) }
    }

    /// `candidates` in appData order, ranked: activity in the last hour, then today (what is
    /// popular is what visitors do: issue 33 #9, where three featured items always took the
    /// three places and a work played four times never showed); then the featured tier (higher
    /// first) and the curator's picks, so a cold start still shows something; ties keep
    /// appData order (a stable sort, which PartyUP's was not).
    /// Subjects with nothing to recommend them (no tier, no activity today, no pick) are left
    /// out; at most `limit`.
    public static func rank(
        _ candidates: [PulseSubject], featured: [PulseFeatured], activity: [PulseSubject: PulseActivitySummary],
        curatorPicks: Set<PulseSubject>, now: Date, limit: Int
    ) -> [Entry] {
        var tiers: [PulseSubject: Int] = [:]
        for f in featured where f.isActive(at: now) { tiers[f.subject] = max(tiers[f.subject] ?? 0, f.tier) }
        var seen = Set<PulseSubject>()
        var entries: [(Int, Entry)] = []
        for (i, s) in candidates.enumerated() where seen.insert(s).inserted {
            let e = Entry(subject: s, tier: tiers[s] ?? 0, activity: activity[s] ?? PulseActivitySummary(), curatorPick: curatorPicks.contains(s))
            guard e.tier > 0 || e.activity.today > 0 || e.activity.recent > 0 || e.curatorPick else { continue }
            entries.append((i, e))
        }
        entries.sort { a, b in
            let x = a.1, y = b.1
            if x.activity.recent != y.activity.recent { return x.activity.recent > y.activity.recent }
            if x.activity.today != y.activity.today { return x.activity.today > y.activity.today }
            if x.tier != y.tier { return x.tier > y.tier }
            if x.curatorPick != y.curatorPick { return x.curatorPick }
            return a.0 < b.0
        }
        return entries.prefix(max(0, limit)).map(\.1)
    }

    /// Featured rows of a list: higher tier first, ties (and the unfeatured) in their given
    /// order.
    public static func byTier<T>(_ items: [T], subject: (T) -> PulseSubject, featured: [PulseFeatured], now: Date) -> [T] {
        var tiers: [PulseSubject: Int] = [:]
        for f in featured where f.isActive(at: now) { tiers[f.subject] = max(tiers[f.subject] ?? 0, f.tier) }
        return items.enumerated().sorted { a, b in
            let ta = tiers[subject(a.element)] ?? 0, tb = tiers[subject(b.element)] ?? 0
            return ta != tb ? ta > tb : a.offset < b.offset
        }.map(\.element)
    }
}

/// Which announcements show where.
public enum PulseAnnouncements {
    /// The most announcements a guide keeps from a snapshot (those that have not ended, first
    /// by id): a store may hold any number (18,000 cards made every key take half a minute),
    /// a museum writes a few dozen. With the patterns' literal prefixes, this many cost a few
    /// milliseconds a drawn list.
    public static let maxKept = 2_000
    /// The most cards put into one list: the rest of the list stays the visitor's.
    public static let maxCardsPerList = 3

    /// What the guide keeps of a snapshot's announcements at `now`.
    public static func kept(_ all: [PulseAnnouncement], now: Date) -> [PulseAnnouncement] {
        guard all.count > maxKept else { return all }
        return Array(all.filter { a in a.until.map { now < $0 } ?? true }.sorted { $0.id < $1.id }.prefix(maxKept))
    }

    /// Active announcements of `style` in `language` whose patterns match any of `keys` (the
    /// screen, `tab:map`, and the subjects listed on it).
    public static func matching(
        _ all: [PulseAnnouncement], style: PulseAnnouncement.Style, keys: [String], language: Language, now: Date
    ) -> [PulseAnnouncement] {
        all.filter { a in
            a.style == style && a.isActive(at: now) && (a.languages.isEmpty || a.languages.contains(language) || a.languages.contains(language.content))
                && a.feeds.contains { p in keys.contains { p.matches($0) } }
        }
    }

    /// The text in `language`, else English, else any (sorted by language for a stable choice).
    public static func text(_ a: PulseAnnouncement, _ language: Language) -> String {
        a.text[language] ?? a.text[language.content] ?? a.text[.english] ?? a.text.sorted { $0.key < $1.key }.first?.value ?? ""
    }
}

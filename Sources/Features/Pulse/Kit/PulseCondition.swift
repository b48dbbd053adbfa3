import Foundation

/// A condition on one note, written once and read two ways (issue 46 item 2): `holds` in Swift
/// (the guide's lists, `PulseRules.hidden`/`retained`/`needsReview`) and `sql` for the stores
/// (`PulseRulesSQL`). Each rule that decides who sees a note, what is kept and what waits for
/// staff is one `PulseCondition` value in `PulseRules`, so the Swift and the SQL cannot say
/// different things: they are the same tree, not two texts kept equal by a test.
public indirect enum PulseCondition: Hashable, Sendable {
    /// The museum's own note (`author = 'curator'`).
    case curator
    /// Staff's decision is this one (nil: none yet).
    case decision(StaffDecision?)
    /// At least this many counting reports.
    case reportsAtLeast(Int)
    /// Score (likes − dislikes) at most / at least this.
    case scoreAtMost(Int)
    case scoreAtLeast(Int)
    /// Younger than `retention` seconds at `now`.
    case young(now: Date, retention: TimeInterval)
    case not(PulseCondition)
    case all([PulseCondition])
    case any([PulseCondition])

    /// Whether the note meets it.
    public func holds(_ n: PulseNote) -> Bool {
        switch self {
        case .curator: return n.author == .curator
        case .decision(let d): return n.decision == d
        case .reportsAtLeast(let k): return n.reports >= k
        case .scoreAtMost(let s): return n.counts.score <= s
        case .scoreAtLeast(let s): return n.counts.score >= s
        case .young(let now, let retention): return now.timeIntervalSince(n.createdAt) < retention
        case .not(let c): return !c.holds(n)
        case .all(let cs): return cs.allSatisfy { $0.holds(n) }
        case .any(let cs): return cs.contains { $0.holds(n) }
        }
    }

    /// The same condition as SQL over a note row: `p` prefixes the note's columns (`author`,
    /// `decision`, `reports`, `created`; "n." or ""), `score` is the row's score expression.
    /// Only our own values are written in (numbers, decisions' names), never client text.
    public func sql(_ p: String = "", score: String = "score") -> String {
        switch self {
        case .curator: return "\(p)author = 'curator'"
        case .decision(nil): return "\(p)decision IS NULL"
        case .decision(let d?): return "COALESCE(\(p)decision, '') = '\(d.rawValue)'"
        case .reportsAtLeast(let k): return "\(p)reports >= \(k)"
        case .scoreAtMost(let s): return "\(score) <= \(s)"
        case .scoreAtLeast(let s): return "\(score) >= \(s)"
        case .young(let now, let retention): return "\(p)created > \(PulseRulesSQL.number(now.timeIntervalSince1970 - retention))"
        case .not(let c): return "NOT (\(c.sql(p, score: score)))"
        case .all(let cs): return cs.isEmpty ? "1 = 1" : "(" + cs.map { $0.sql(p, score: score) }.joined(separator: " AND ") + ")"
        case .any(let cs): return cs.isEmpty ? "1 = 0" : "(" + cs.map { $0.sql(p, score: score) }.joined(separator: " OR ") + ")"
        }
    }
}

extension PulseRules {
    /// A visitor's note enough visitors reported, not restored or pinned by staff (`Hidden.reported`).
    public var reportedAway: PulseCondition {
        .all([.not(.curator), .not(.decision(.restored)), .not(.decision(.pinned)), .reportsAtLeast(reportThreshold)])
    }

    /// A visitor's note voted down to the floor, not pinned (`Hidden.lowScore`).
    public var votedDown: PulseCondition {
        .all([.not(.curator), .not(.decision(.pinned)), .scoreAtMost(scoreFloor)])
    }

    /// Waits for staff: a visitor's undecided note hidden by reporters or by its score.
    public var waitsForStaff: PulseCondition {
        .all([.not(.curator), .decision(nil), .any([.reportsAtLeast(reportThreshold), .scoreAtMost(scoreFloor)])])
    }

    /// Kept at `now` whatever its score: the museum's, pinned, or young.
    public func keptOutright(now: Date) -> PulseCondition {
        .any([.curator, .decision(.pinned), .young(now: now, retention: retention)])
    }

    /// An older note that may be kept as one of its subject's highlights: score not negative,
    /// not hidden by reporters (unless restored).
    public var highlightCandidate: PulseCondition {
        .all([.scoreAtLeast(0), .not(.all([.reportsAtLeast(reportThreshold), .not(.decision(.restored))]))])
    }
}

import PulseKit
import Foundation

/// What the audit log says of a staff change, whichever way staff made it: the console's
/// forms, the JSON staff routes (`PUT /v1/moderation/notes/…`, `POST /v1/staff/seed`) or a
/// `docent-pulse` command on the database. One place, so the log reads the same for all three
/// and a filter on an action finds every one.
public enum StaffAudit {
    /// Who signed in with the staff token rather than an account.
    public static let tokenStaffName = "staff-token"

    /// Who the audit log names for a staff-token call: `staff-token`, or `staff-token:NAME`
    /// when the caller names themself with the `Docent-Staff` header (`docent-pulse … --as
    /// NAME`). The holder of the token may do anything staff do, so the name is their word,
    /// kept to a-z, 0-9, `.`, `-`, `_` and 40 bytes so a log line cannot be forged with it.
    public static func tokenStaff(named name: String?) -> String {
        let base = tokenStaffName
        guard let name = name?.lowercased(), (1...40).contains(name.utf8.count),
            name.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x5F })
        else { return base }
        return base + ":" + name
    }

    public static func describe(_ n: PulseNote?) -> String {
        guard let n else { return "" }
        return "decision=\(n.decision?.rawValue ?? "none") reports=\(n.reports) score=\(n.counts.score)"
    }

    public static func describe(_ f: PulseFeatured) -> String {
        "tier=\(f.tier) " + f.taglines.sorted { $0.key < $1.key }.map { "\($0.key.code)=\($0.value)" }.joined(separator: " | ")
    }

    public static func describe(_ a: PulseAnnouncement) -> String {
        "\(a.style.rawValue) " + a.feeds.map(\.source).joined(separator: ",") + " "
            + a.text.sorted { $0.key < $1.key }.map { "\($0.key.code)=\($0.value)" }.joined(separator: " | ")
    }

    public static func describe(_ c: PulseSeed.CuratorNote) -> String {
        "\(c.subject.key) \(c.language.code): \(c.text)"
    }

    /// A decision on a note.
    public static func decision(_ id: NoteID, before: PulseNote?, after: PulseNote, staff: String, at: Date) -> AuditEntry {
        AuditEntry(at: at, staff: staff, action: "decide", target: "note:" + id.key, before: describe(before), after: describe(after))
    }

    /// One entry for each entry a seed put in or replaced (the console's actions: `feature`,
    /// `announce`; and `curator-note`), each with what it replaced; entries the seed left out
    /// are not logged (nothing changed).
    public static func seed(
        _ seed: PulseSeed, featuredBefore: [PulseFeatured], announcementsBefore: [PulseAnnouncement], curatorNotesBefore: [NoteID: PulseNote],
        staff: String, at: Date
    ) -> [AuditEntry] {
        var entries: [AuditEntry] = []
        for f in seed.featured {
            let old = featuredBefore.first { $0.subject == f.subject }
            entries.append(AuditEntry(at: at, staff: staff, action: "feature", target: f.subject.key, before: old.map(describe) ?? "", after: describe(f)))
        }
        for a in seed.announcements {
            let old = announcementsBefore.first { $0.id == a.id }
            entries.append(AuditEntry(at: at, staff: staff, action: "announce", target: "announcement:" + a.id, before: old.map(describe) ?? "", after: describe(a)))
        }
        for c in seed.notes {
            let id = curatorNoteID(c)
            let old = curatorNotesBefore[id].map { "\($0.subject.key) \($0.language.code): \($0.text)" } ?? ""
            entries.append(AuditEntry(at: at, staff: staff, action: "curator-note", target: "note:" + id.key, before: old, after: describe(c)))
        }
        return entries
    }

    public static func curatorNoteID(_ c: PulseSeed.CuratorNote) -> NoteID { NoteID(visitor: .curator, sequence: c.sequence) }

    /// Reads what a seed will replace, applies it with `apply`, and logs one entry per change.
    /// The log is written after the change (a change never waits on its log); a failed log
    /// write is reported as the call's failure, the change standing.
    public static func applySeed(
        _ seed: PulseSeed, console: any ConsoleStore, staff: String, at: @Sendable () -> Date, apply: () async throws -> Void
    ) async throws {
        let featured = seed.featured.isEmpty ? [] : try await console.featuredList()
        let announcements = seed.announcements.isEmpty ? [] : try await console.announcementList()
        var curator: [NoteID: PulseNote] = [:]
        for c in seed.notes {
            let id = curatorNoteID(c)
            curator[id] = try await console.note(id)
        }
        try await apply()
        for entry in Self.seed(seed, featuredBefore: featured, announcementsBefore: announcements, curatorNotesBefore: curator, staff: staff, at: at()) {
            try await console.audit(entry)
        }
    }
}

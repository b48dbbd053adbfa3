/// The console pages' contexts, typed (issue 46 item 5): each template reads the fields of its
/// struct (swift-mustache looks them up by name), and every value is HTML-escaped by `{{…}}`.
/// A misspelt field is a compile error here, not an empty hole in a page.
enum ConsolePages {
    struct Message: Sendable { let text: String, back: String, backLabel: String }
    struct SignIn: Sendable { let t: [String: String], csrf: String, name: String }
    struct Visitors: Sendable {
        struct Ban: Sendable { let visitor: String, at: String, staff: String }
        let t: [String: String], csrf: String, bans: [Ban]
    }
    struct BanSure: Sendable { let t: [String: String], csrf: String, visitor: String, question: String }
    struct Accounts: Sendable {
        struct Account: Sendable { let name: String, dom: String, created: String, isYou: Bool, csrf: String, roleLabel: String, sessionsLabel: String }
        let t: [String: String], csrf: String, accounts: [Account]
    }
    struct AccountSure: Sendable { let t: [String: String], csrf: String, action: String, question: String, yes: String }
    /// The moderation queue (`/staff/queue`): the notes waiting, the ones staff removed.
    struct Queue: Sendable {
        struct Reporter: Sendable { let visitor: String, at: String }
        struct Note: Sendable {
            let id: String, dom: String, subject: String, title: String, when: String, languageName: String, langTag: String
            let text: String, up: Int, down: Int, reports: Int, visitor: String, isVisitor: Bool, decision: String, csrf: String
            /// Only for waiting notes (nil for removed ones: the template finds nothing, as before).
            var reason: String? = nil
            var reporters: [Reporter]? = nil
            var hasReporters: Bool? = nil
            var reporterCount: Int? = nil
        }
        let t: [String: String], items: [Note], removed: [Note], waiting: String
        /// Links to the next page and back to the first; nil when there is none.
        let next: String?, first: String?
    }
    /// The featured subjects (`/staff/featured`), each with a tagline per console language.
    struct Featured: Sendable {
        struct Tagline: Sendable { let code: String, name: String, text: String, cut: String, dom: String, cells: String }
        struct Entry: Sendable { let subject: String, dom: String, title: String, tier: Int, from: String, until: String, taglines: [Tagline] }
        let t: [String: String], csrf: String, entries: [Entry]
    }
}

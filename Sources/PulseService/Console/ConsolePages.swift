import Mustache

/// A console page's context: a struct its template reads by its fields. `StaffConsole.render`
/// takes only these (no `[String: Any]`: a misspelt key would be an empty hole in a page).
protocol ConsoleContext: Sendable {}

/// Markup the template engine rendered from a typed context: the only thing the layout inserts
/// unescaped (`{{{body}}}`). Its initialiser is private to this file, so no string built by
/// concatenation (nor a visitor's text) can become one; every value inside it went through the
/// engine's escaping when the inner template was rendered.
struct ConsoleHTML: Sendable, MustacheCustomRenderable {
    let html: String
    fileprivate init(_ html: String) { self.html = html }
    var renderText: String { html }
    var isNull: Bool { false }
}

/// The console pages' contexts, typed (issue 46 item 5): each template reads the fields of its
/// struct (swift-mustache looks them up by name), and every value is HTML-escaped by `{{…}}`.
/// A misspelt field is a compile error here, not an empty hole in a page. (swift-mustache reads
/// a Bool as a section's switch, an array as a list, a nil Optional as a missing key, as the
/// dictionaries' absent keys were, and a struct as a nested context.)
enum ConsolePages {
    /// `template` filled from `context`: the one way console markup is made.
    static func render<C: ConsoleContext>(_ template: String, _ context: C) -> ConsoleHTML {
        ConsoleHTML(ConsoleAssets.library.render(context, withTemplate: template) ?? "")
    }

    /// Every page's frame: the title, the language picker, and for a signed-in person the
    /// navigation and the sign-out form.
    struct Layout: ConsoleContext {
        struct Link: Sendable { let href: String, label: String, current: Bool }
        struct LanguageOption: Sendable { let code: String, name: String, selected: Bool }
        struct Staff: Sendable { let nav: [Link], csrf: String, signedIn: String }
        let t: [String: String], lang: String, title: String, path: String
        /// The page, rendered by the engine (see `ConsoleHTML`).
        let body: ConsoleHTML
        let languages: [LanguageOption]
        /// nil: signed out (no navigation).
        let staff: Staff?
        let flash: String?, problem: String?
    }
    struct Message: ConsoleContext { let text: String, back: String, backLabel: String }
    struct SignIn: ConsoleContext { let t: [String: String], csrf: String, name: String }
    struct Visitors: ConsoleContext {
        struct Ban: Sendable { let visitor: String, at: String, staff: String }
        let t: [String: String], csrf: String, bans: [Ban]
    }
    struct BanSure: ConsoleContext { let t: [String: String], csrf: String, visitor: String, question: String }
    struct Accounts: ConsoleContext {
        struct Account: Sendable { let name: String, dom: String, created: String, isYou: Bool, csrf: String, roleLabel: String, sessionsLabel: String }
        let t: [String: String], csrf: String, accounts: [Account]
    }
    struct AccountSure: ConsoleContext { let t: [String: String], csrf: String, action: String, question: String, yes: String }
    /// The moderation queue (`/staff/queue`): the notes waiting, the ones staff removed.
    struct Queue: ConsoleContext {
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
    struct Featured: ConsoleContext {
        struct Tagline: Sendable { let code: String, name: String, text: String, cut: String, dom: String, cells: String }
        struct Entry: Sendable { let subject: String, dom: String, title: String, tier: Int, from: String, until: String, taglines: [Tagline] }
        let t: [String: String], csrf: String, entries: [Entry]
    }
    /// The announcements (`/staff/announcements`): patterns checked against the museum's pages,
    /// then a form per announcement and one for a new one.
    struct Announcements: ConsoleContext {
        struct Match: Sendable { let key: String, title: String }
        struct Text: Sendable { let code: String, name: String, text: String }
        struct Entry: Sendable {
            let id: String, dom: String, feeds: String, isCard: Bool, positions: String, from: String, until: String, csrf: String
            let texts: [Text]
        }
        let t: [String: String], csrf: String, patterns: String, matches: [Match], matchCount: Int, entries: [Entry]
        /// nil, not "": an empty string would still open a Mustache section.
        let patternProblem: String?
    }
    /// The audit log (`/staff/audit`), filtered.
    struct Audit: ConsoleContext {
        struct Option: Sendable { let name: String, selected: Bool }
        struct Entry: Sendable { let at: String, staff: String, action: String, target: String, before: String, after: String }
        let t: [String: String], q: String, query: String, staffOptions: [Option], actionOptions: [Option], entries: [Entry], hasEntries: Bool
    }
}

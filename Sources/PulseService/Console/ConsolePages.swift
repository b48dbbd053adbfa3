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
        ConsoleHTML(ConsoleAssets.library.render(lookupTable(context), withTemplate: template) ?? "")
    }

    /// The context as the engine reads it, with each struct's fields reflected once into a
    /// dictionary. swift-mustache looks a struct's field up by reflecting all of its fields on
    /// every `{{name}}`, and a name not found in a list item (`{{t.hide}}` inside `{{#items}}`)
    /// reflects every struct up the stack: on a hundred notes that was most of the queue page's
    /// time. A dictionary answers the same names with the same values (DECISIONS.md, "Console
    /// pages under 50 ms on 100,000 notes"): a nil Optional is left out, as the engine treats
    /// it as a missing key; an Optional's value is unwrapped; lists are converted item by item;
    /// what the engine renders itself (`ConsoleHTML`, dictionaries, strings, numbers, Bools) is
    /// kept as it is.
    static func lookupTable(_ value: Any) -> Any? {
        switch value {
        case is String, is Int, is Bool, is Double, is MustacheCustomRenderable, is MustacheParent, is MustacheLambda, is MustacheCustomRepresentation:
            return value
        case let item as ConsoleFields:
            var table: [String: Any] = [:]
            for (name, field) in item.fields {
                guard let field, let v = lookupTable(field) else { continue }
                table[name] = v
            }
            return table
        case let list as [Any]:
            return list.map { lookupTable($0) ?? $0 }
        default:
            break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.flatMap { lookupTable($0.value) }
        case .struct:
            var fields: [String: Any] = [:]
            fields.reserveCapacity(Int(mirror.children.count))
            for child in mirror.children {
                guard let label = child.label, let v = lookupTable(child.value) else { continue }
                fields[label] = v
            }
            return fields
        default:
            return value
        }
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

/// A list item the pages show by the hundred (the queue's notes and their reporters, the audit
/// log's lines) hands `ConsolePages.lookupTable` its fields itself: reflecting them was still
/// a quarter of those pages' time. Every stored field is there by its own name
/// (`StaffConsolePiecesTests` checks the names against reflection and the pages against the
/// engine reading the struct).
protocol ConsoleFields {
    var fields: [String: Any?] { get }
}

extension ConsolePages.Queue.Note: ConsoleFields {
    var fields: [String: Any?] {
        [
            "id": id, "dom": dom, "subject": subject, "title": title, "when": when, "languageName": languageName, "langTag": langTag,
            "text": text, "up": up, "down": down, "reports": reports, "visitor": visitor, "isVisitor": isVisitor, "decision": decision, "csrf": csrf,
            "reason": reason, "reporters": reporters, "hasReporters": hasReporters, "reporterCount": reporterCount,
        ]
    }
}

extension ConsolePages.Queue.Reporter: ConsoleFields {
    var fields: [String: Any?] { ["visitor": visitor, "at": at] }
}

extension ConsolePages.Audit.Entry: ConsoleFields {
    var fields: [String: Any?] { ["at": at, "staff": staff, "action": action, "target": target, "before": before, "after": after] }
}

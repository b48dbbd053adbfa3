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
}

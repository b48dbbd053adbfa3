import PulseKit
import Foundation
import HTTPTypes
import Hummingbird

/// The console's staff accounts page (issue 44 #14: accounts could be managed only from the
/// command line): add an account, set its password, end its sessions, remove it. Only for an
/// account whose role may manage accounts (`StaffRole.admin`): anyone else gets 403 and no
/// link. Every change is in the audit log naming who did it and to whom; ending sessions and
/// removing ask first; nobody removes their own account, and the store refuses, in the same
/// transaction, a removal that would leave no account that may manage accounts.
enum StaffAccountsPage {
    /// What the audit log calls these changes (the command line's `staff` commands say the same).
    static let auditActions = ["staff-add", "staff-password", "staff-sessions", "staff-remove", "staff-role"]

    /// The shortest password the page (and `docent-pulse staff add`) accepts.
    static let minimumPassword = 10

    static let template = """
        <section aria-labelledby="acct-add-h" class="card">
        <h2 id="acct-add-h">{{t.addAccount}}</h2>
        <form method="post" action="/staff/accounts"><input type="hidden" name="csrf" value="{{csrf}}">
        <p><label for="acct-name">{{t.accountName}}</label><input id="acct-name" name="name" required maxlength="40" pattern="[a-z0-9._\\-]{1,40}" autocomplete="off"></p>
        <p><label for="acct-password">{{t.newPassword}}</label><input id="acct-password" name="password" type="password" required minlength="10" autocomplete="new-password"></p>
        <p><label for="acct-role">{{t.role}}</label><select id="acct-role" name="role"><option value="staff" selected>{{t.roleStaff}}</option><option value="admin">{{t.roleAdmin}}</option></select></p>
        <p><button type="submit" class="primary">{{t.addAccount}}</button></p></form>
        </section>
        <section aria-labelledby="acct-list-h">
        <h2 id="acct-list-h">{{t.accounts}}</h2>
        {{^accounts}}<p>{{t.none}}</p>{{/accounts}}
        <ul class="plain accounts">
        {{#accounts}}
        <li class="card account" id="acct-{{dom}}" data-account="{{name}}">
        <h3>{{name}}</h3>
        <p class="meta">{{roleLabel}} · {{t.added}} {{created}} · {{sessionsLabel}}{{#isYou}} · <strong>{{t.thisIsYou}}</strong>{{/isYou}}</p>
        <form method="post" action="/staff/accounts/{{name}}/password"><input type="hidden" name="csrf" value="{{csrf}}">
        <p><label for="pw-{{dom}}">{{t.newPassword}}</label><input id="pw-{{dom}}" name="password" type="password" required minlength="10" autocomplete="new-password">
        <button type="submit">{{t.setPassword}}</button></p></form>
        <div class="actions">
        <form method="post" action="/staff/accounts/{{name}}/sessions" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="danger">{{t.endSessions}}</button></form>
        {{^isYou}}<form method="post" action="/staff/accounts/{{name}}/remove" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="danger">{{t.removeAccount}}</button></form>{{/isYou}}
        </div>
        </li>
        {{/accounts}}
        </ul>
        </section>
        """

    /// "Are you sure?" before ending sessions or removing an account.
    static let sure = """
        <p>{{question}}</p>
        <form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="confirm" value="yes">
        <p><button type="submit" class="danger">{{yes}}</button> <a href="/staff/accounts">{{t.cancel}}</a></p></form>
        """
}

extension StaffConsole {
    /// Only an account that may manage accounts; anyone else: 403 (and a warning in the log).
    func mayManage(_ s: StaffSession, _ lang: Language) throws {
        guard s.mayManageAccounts else {
            logger.warning("staff console: account management refused: the account may not manage accounts", metadata: ["staff": .string(s.staff)])
            throw Failure(status: .forbidden, message: ConsoleStrings.text("notAllowed", lang))
        }
    }

    func accountsPage(_ req: Request, _ s: StaffSession, _ lang: Language) async throws -> Response {
        try mayManage(s, lang)
        let accounts = try await console.staffAccounts().map { a in
            ConsolePages.Accounts.Account(
                name: a.name, dom: Self.domID(a.name), created: time(a.created), isYou: a.name == s.staff, csrf: s.csrf,
                roleLabel: ConsoleStrings.text(a.role == .admin ? "roleAdmin" : "roleStaff", lang),
                sessionsLabel: ConsoleStrings.text("sessionsOpen", lang, ["n": String(a.sessions)]))
        }
        let body = render("accounts", ConsolePages.Accounts(t: ConsoleStrings.all(lang), csrf: s.csrf, accounts: accounts))
        return layout(
            title: ConsoleStrings.text("accounts", lang), lang: lang, session: s, path: "/staff/accounts", body: body, flash: flash(req, s),
            problem: problemParam(req, s))
    }

    private func accountsNotice(_ kind: String, _ key: String, _ lang: Language, _ s: StaffSession, _ args: [String: String] = [:]) -> Response {
        Self.redirect(notice("/staff/accounts", kind, ConsoleStrings.text(key, lang, args), s))
    }

    /// A name from a form or a path: an account's name or nil.
    private static func accountName(_ text: String?) -> String? {
        let name = (text ?? "").trimmingCharacters(in: .whitespaces)
        return StaffPassword.validName(name) ? name : nil
    }

    func addAccount(_ form: [String: String], _ s: StaffSession, _ lang: Language) async throws -> Response {
        try mayManage(s, lang)
        guard let name = Self.accountName(form["name"]) else { return accountsNotice("problem", "badAccountName", lang, s) }
        let password = form["password"] ?? ""
        guard password.count >= StaffAccountsPage.minimumPassword else { return accountsNotice("problem", "shortPassword", lang, s) }
        let role = StaffRole(rawValue: form["role"] ?? "") ?? .staff
        if try await console.staffHashAndRole(name: name) != nil { return accountsNotice("problem", "accountExists", lang, s, ["name": name]) }
        guard let hash = await bcrypt.hash(password) else { return accountsNotice("problem", "busy", lang, s) }
        guard try await console.addStaff(name: name, passwordHash: hash, role: role) else { return accountsNotice("problem", "accountExists", lang, s, ["name": name]) }
        try await console.audit(AuditEntry(at: clock(), staff: s.staff, action: "staff-add", target: "staff:" + name, before: "", after: "role " + role.rawValue))
        logger.info("staff console: account added", metadata: ["staff": .string(s.staff), "account": .string(name)])
        return accountsNotice("done", "accountAdded", lang, s, ["name": name])
    }

    func setPassword(_ text: String, _ form: [String: String], _ s: StaffSession, _ lang: Language, _ req: Request) async throws -> Response {
        try mayManage(s, lang)
        guard let name = Self.accountName(text) else { return accountsNotice("problem", "noAccount", lang, s, ["name": "?"]) }
        let password = form["password"] ?? ""
        guard password.count >= StaffAccountsPage.minimumPassword else { return accountsNotice("problem", "shortPassword", lang, s) }
        guard try await console.staffHashAndRole(name: name) != nil else { return accountsNotice("problem", "noAccount", lang, s, ["name": name]) }
        guard let hash = await bcrypt.hash(password) else { return accountsNotice("problem", "busy", lang, s) }
        // The account's sessions end with the old password (this one's too, when it is yours).
        guard try await console.setStaffPassword(name: name, passwordHash: hash) else { return accountsNotice("problem", "noAccount", lang, s, ["name": name]) }
        try await console.audit(AuditEntry(at: clock(), staff: s.staff, action: "staff-password", target: "staff:" + name, before: "", after: "sessions ended"))
        logger.info("staff console: password set", metadata: ["staff": .string(s.staff), "account": .string(name)])
        if name == s.staff { return signedOut(req) }
        return accountsNotice("done", "passwordSet", lang, s, ["name": name])
    }

    func endSessions(_ text: String, _ form: [String: String], _ s: StaffSession, _ lang: Language, _ req: Request) async throws -> Response {
        try mayManage(s, lang)
        guard let name = Self.accountName(text), try await console.staffHashAndRole(name: name) != nil else {
            return accountsNotice("problem", "noAccount", lang, s, ["name": Self.accountName(text) ?? "?"])
        }
        guard form["confirm"] == "yes" else {
            return sure("/staff/accounts/\(name)/sessions", ConsoleStrings.text(name == s.staff ? "endOwnSessionsSure" : "endSessionsSure", lang, ["name": name]), "endYes", s, lang)
        }
        let ended = try await console.endStaffSessions(name: name)
        try await console.audit(AuditEntry(at: clock(), staff: s.staff, action: "staff-sessions", target: "staff:" + name, before: "\(ended) open", after: "ended"))
        logger.info("staff console: sessions ended", metadata: ["staff": .string(s.staff), "account": .string(name), "sessions": "\(ended)"])
        if name == s.staff { return signedOut(req) }
        return accountsNotice("done", "sessionsEnded", lang, s, ["name": name, "n": String(ended)])
    }

    func removeAccount(_ text: String, _ form: [String: String], _ s: StaffSession, _ lang: Language) async throws -> Response {
        try mayManage(s, lang)
        guard let name = Self.accountName(text) else { return accountsNotice("problem", "noAccount", lang, s, ["name": "?"]) }
        if name == s.staff { return accountsNotice("problem", "noSelfRemove", lang, s) }
        guard form["confirm"] == "yes" else {
            guard try await console.staffHashAndRole(name: name) != nil else { return accountsNotice("problem", "noAccount", lang, s, ["name": name]) }
            return sure("/staff/accounts/\(name)/remove", ConsoleStrings.text("removeSure", lang, ["name": name]), "removeYes", s, lang)
        }
        switch try await console.removeStaff(name: name, by: s.staff) {
        case .done:
            try await console.audit(AuditEntry(at: clock(), staff: s.staff, action: "staff-remove", target: "staff:" + name, before: "", after: "removed"))
            logger.info("staff console: account removed", metadata: ["staff": .string(s.staff), "account": .string(name)])
            return accountsNotice("done", "accountRemoved", lang, s, ["name": name])
        case .noSuchAccount: return accountsNotice("problem", "noAccount", lang, s, ["name": name])
        case .yourself: return accountsNotice("problem", "noSelfRemove", lang, s)
        case .lastManager: return accountsNotice("problem", "lastManager", lang, s, ["name": name])
        case .notAllowed: throw Failure(status: .forbidden, message: ConsoleStrings.text("notAllowed", lang))
        }
    }

    private func sure(_ action: String, _ question: String, _ yes: String, _ s: StaffSession, _ lang: Language) -> Response {
        let body = render("accountSure", ConsolePages.AccountSure(t: ConsoleStrings.all(lang), csrf: s.csrf, action: action, question: question, yes: ConsoleStrings.text(yes, lang)))
        return layout(title: ConsoleStrings.text("accounts", lang), lang: lang, session: s, path: "/staff/accounts", body: body)
    }

    /// After ending one's own sessions: the sign-in page, the cookie gone.
    private func signedOut(_ req: Request) -> Response {
        var r = Self.redirect("/staff/sign-in")
        r.setCookie(cookie(Self.sessionCookie, "", req, maxAge: 0))
        return r
    }
}

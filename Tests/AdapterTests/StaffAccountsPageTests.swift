import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The console's staff accounts page (issue 44 #14) on the real `docent-pulse`, over SQLite and
/// PostgreSQL: only an account that may manage accounts sees the link and gets the page
/// (anyone else: 403, and nothing changes); adding, setting a password, ending sessions and
/// removing each work and are in the audit log naming who did it to whom; ending sessions and
/// removing ask first; nobody removes their own account; the command line keeps the last
/// account that may manage accounts.
final class StaffAccountsPageTests: PostgresTestCase {
    private let anaPassword = "ana-password-0123"
    private let benPassword = "ben-password-4567"

    private var exe: String {
        let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return me.deletingLastPathComponent().appendingPathComponent("docent-pulse").path
    }

    /// `docent-pulse ARGS` with `input` on standard input: exit status and standard error.
    private func cli(_ args: [String], input: String = "") throws -> (status: Int32, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let stdin = Pipe(), stderr = Pipe()
        p.standardInput = stdin
        p.standardOutput = FileHandle.nullDevice
        p.standardError = stderr
        try p.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: err, as: UTF8.self))
    }

    private func request(_ port: Int, _ method: String, _ path: String, body: String = "", cookie: String? = nil, extra: [String: String] = [:]) throws -> (
        status: Int, head: String, body: String
    ) {
        let fd = try RawHTTP.connect(port: port)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
        if method == "POST" { head += "Content-Type: application/x-www-form-urlencoded\r\n" }
        if let cookie { head += "Cookie: \(cookie)\r\n" }
        for (k, v) in extra { head += "\(k): \(v)\r\n" }
        RawHTTP.send(fd, Array((head + "\r\n" + body).utf8))
        let text = String(decoding: RawHTTP.readToEnd(fd), as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? -1
        return (status, parts.first ?? "", parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    private static func enc(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }

    private static func csrf(_ page: String) -> String? {
        guard let r = page.range(of: #"name="csrf" value=""#) else { return nil }
        return String(page[r.upperBound...].prefix(64))
    }

    private static func location(_ head: String) -> String? {
        head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("location:") }.map { String($0.dropFirst("location:".count)).trimmingCharacters(in: .whitespaces) }
    }

    /// Signs in; the session's cookie ("docent_staff=…"), or nil with the status when refused.
    private func signIn(_ port: Int, _ name: String, _ password: String) throws -> (cookie: String?, status: Int) {
        let form = try request(port, "GET", "/staff/sign-in")
        let token = try XCTUnwrap(Self.csrf(form.body), form.body)
        let r = try request(
            port, "POST", "/staff/sign-in", body: "csrf=\(token)&name=\(Self.enc(name))&password=\(Self.enc(password))", cookie: "docent_signin=\(token)")
        guard r.status == 303, let range = r.head.range(of: "docent_staff=") else { return (nil, r.status) }
        return ("docent_staff=" + r.head[range.upperBound...].prefix(64), r.status)
    }

    /// A form posted as a signed-in person (the page's CSRF token taken from `from`), the
    /// redirect followed: the status of the POST and the page it leads to.
    private func post(_ port: Int, _ cookie: String, _ path: String, _ fields: String, from page: String = "/staff/accounts") throws -> (status: Int, page: String, location: String?) {
        let p = try request(port, "GET", page, cookie: cookie)
        let token = try XCTUnwrap(Self.csrf(p.body), "no form on \(page): \(p.status)")
        let r = try request(port, "POST", path, body: "csrf=\(token)" + (fields.isEmpty ? "" : "&" + fields), cookie: cookie)
        guard r.status == 303, let to = Self.location(r.head) else { return (r.status, r.body, nil) }
        if to.hasPrefix("/staff/sign-in") { return (r.status, "", to) }
        return (r.status, try request(port, "GET", to, cookie: cookie).body, to)
    }

    /// `docent-pulse staff list`: one account a line, name and role.
    private func accounts(_ database: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["staff", "list", "--database", database]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "staff list")
        return String(decoding: data, as: UTF8.self)
    }

    func testTheAccountsPageOverSQLite() throws { try accountsPage(try database(.sqlite)) }
    func testTheAccountsPageOverPostgreSQL() throws { try accountsPage(try database(.postgres)) }

    private func accountsPage(_ database: String) throws {
        XCTAssertEqual(try cli(["staff", "add", "ana", "--role", "admin", "--database", database, "--cost", "10"], input: anaPassword + "\n").status, 0)
        XCTAssertEqual(try cli(["staff", "add", "ben", "--database", database, "--cost", "10"], input: benPassword + "\n").status, 0)
        let s = try PulseServiceProcess(["--database", database], environment: [:], errorLog: tempDir + "/service.log")
        services.append(s)
        let port = s.port

        // Ben (plain staff): no link, 403 on the page and on every form, nothing changed.
        let ben = try XCTUnwrap(try signIn(port, "ben", benPassword).cookie)
        let benQueue = try request(port, "GET", "/staff/queue", cookie: ben)
        XCTAssertEqual(benQueue.status, 200)
        XCTAssertFalse(benQueue.body.contains("/staff/accounts"), "plain staff see the accounts link")
        let benPage = try request(port, "GET", "/staff/accounts", cookie: ben)
        XCTAssertEqual(benPage.status, 403)
        XCTAssertTrue(benPage.body.contains("may not manage staff accounts"), benPage.body)
        XCTAssertTrue(benPage.body.contains("class=\"signout\""), "the 403 page keeps the navigation")
        for (path, fields) in [
            ("/staff/accounts", "name=mallory&password=mallory-password-1&role=admin"), ("/staff/accounts/ana/password", "password=taken-over-password"),
            ("/staff/accounts/ana/sessions", "confirm=yes"), ("/staff/accounts/ana/remove", "confirm=yes"),
        ] {
            XCTAssertEqual(try post(port, ben, path, fields, from: "/staff/queue").status, 403, path)
        }
        XCTAssertEqual(try accounts(database), "ana\tadmin\nben\tstaff\n")
        XCTAssertNotNil(try signIn(port, "ana", anaPassword).cookie, "ben's forms changed ana's password")

        // Ana (admin): the link and the page, both accounts listed, no remove button for herself.
        let ana = try XCTUnwrap(try signIn(port, "ana", anaPassword).cookie)
        XCTAssertTrue(try request(port, "GET", "/staff/queue", cookie: ana).body.contains("href=\"/staff/accounts\""))
        let page = try request(port, "GET", "/staff/accounts", cookie: ana)
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains("data-account=\"ana\"") && page.body.contains("data-account=\"ben\""), page.body)
        XCTAssertFalse(page.body.contains("action=\"/staff/accounts/ana/remove\""), "a remove button for one's own account")
        XCTAssertTrue(page.body.contains("action=\"/staff/accounts/ben/remove\""))

        // A form without the session's token is refused.
        let forged = try request(port, "POST", "/staff/accounts", body: "csrf=forged&name=mallory&password=mallory-password-1", cookie: ana)
        XCTAssertEqual(forged.status, 403)

        // Add cleo; a short password and a taken name are refused with a reason.
        XCTAssertTrue(try post(port, ana, "/staff/accounts", "name=cleo&password=short").page.contains("at least 10 characters"))
        XCTAssertTrue(try post(port, ana, "/staff/accounts", "name=ben&password=another-password-9").page.contains("already an account ben"))
        let added = try post(port, ana, "/staff/accounts", "name=cleo&password=cleo-password-1&role=staff")
        XCTAssertTrue(added.page.contains("Added the account cleo."), added.page)
        let cleo = try XCTUnwrap(try signIn(port, "cleo", "cleo-password-1").cookie)

        // A new password for cleo: her session ends, the old password no longer works.
        XCTAssertTrue(try post(port, ana, "/staff/accounts/cleo/password", "password=cleo-new-password-2").page.contains("New password set for cleo"))
        XCTAssertEqual(try request(port, "GET", "/staff/queue", cookie: cleo).status, 303, "a session outlived a password set on the page")
        XCTAssertEqual(try signIn(port, "cleo", "cleo-password-1").status, 401)
        XCTAssertNotNil(try signIn(port, "cleo", "cleo-new-password-2").cookie)

        // Ending ben's sessions asks first; only "yes" ends them.
        let ask = try post(port, ana, "/staff/accounts/ben/sessions", "")
        XCTAssertEqual(ask.status, 200)
        XCTAssertTrue(ask.page.contains("End every session of ben?") && ask.page.contains("name=\"confirm\" value=\"yes\""), ask.page)
        XCTAssertEqual(try request(port, "GET", "/staff/queue", cookie: ben).status, 200, "asking ended the sessions")
        XCTAssertTrue(try post(port, ana, "/staff/accounts/ben/sessions", "confirm=yes").page.contains("Ended 1 session of ben."))
        XCTAssertEqual(try request(port, "GET", "/staff/queue", cookie: ben).status, 303, "ben's session outlived its ending")

        // Nobody removes their own account; removing ben asks, then removes him.
        XCTAssertTrue(try post(port, ana, "/staff/accounts/ana/remove", "confirm=yes").page.contains("cannot remove your own account"))
        XCTAssertTrue(try post(port, ana, "/staff/accounts/ben/remove", "").page.contains("Remove the account ben?"))
        XCTAssertEqual(try accounts(database), "ana\tadmin\nben\tstaff\ncleo\tstaff\n")
        XCTAssertTrue(try post(port, ana, "/staff/accounts/ben/remove", "confirm=yes").page.contains("Removed the account ben."))
        XCTAssertEqual(try signIn(port, "ben", benPassword).status, 401)
        XCTAssertEqual(try accounts(database), "ana\tadmin\ncleo\tstaff\n")

        // The audit log names who did each change and to whom.
        let csv = try request(port, "GET", "/staff/audit.csv?staff=ana", cookie: ana).body
        for line in ["staff-add,staff:cleo", "staff-password,staff:cleo", "staff-sessions,staff:ben", "staff-remove,staff:ben"] {
            XCTAssertTrue(csv.contains(",ana," + line), "no \(line) by ana in the audit log:\n\(csv)")
        }
        XCTAssertFalse(csv.contains("mallory"), csv)

        // The command line keeps the last account that may manage accounts.
        let last = try cli(["staff", "remove", "ana", "--database", database])
        XCTAssertEqual(last.status, 1)
        XCTAssertTrue(last.err.contains("last account that may manage accounts"), last.err)
        XCTAssertEqual(try cli(["staff", "role", "ana", "staff", "--database", database]).status, 1)
        XCTAssertEqual(try cli(["staff", "role", "cleo", "admin", "--database", database]).status, 0)
        XCTAssertEqual(try cli(["staff", "role", "ana", "staff", "--database", database]).status, 0)
        // A role taken away counts at once: ana's session no longer gets the page.
        XCTAssertEqual(try request(port, "GET", "/staff/accounts", cookie: ana).status, 403)
        XCTAssertFalse(try request(port, "GET", "/staff/queue", cookie: ana).body.contains("/staff/accounts"))
        XCTAssertEqual(try cli(["staff", "remove", "ana", "--database", database]).status, 0)
    }
}

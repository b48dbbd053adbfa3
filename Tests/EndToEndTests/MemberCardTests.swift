import Foundation
import XCTest

/// The member card through the real binary, against nginx standing in for the membership
/// service (POST answered with our SOAP files; /status500/ for a fault).
final class MemberCardEndToEndTests: EndToEndTestCase {
    private var root: URL?
    private var portFile: URL?

    override func tearDown() {
        if let portFile { _ = try? Shell.run([Repo.root.path + "/scripts/test-nginx.sh", "stop", portFile.path]) }
        super.tearDown()
    }

    private static let ok = """
        <?xml version="1.0" encoding="UTF-8"?>
        <SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns1="urn:xmethods-delayed-quotes">
        <SOAP-ENV:Body><ns1:member_soap_retrieveResponse><response_object><ResultCode>0</ResultCode><Memberships>
        <Member-1><PrimaryConstituentID>40417</PrimaryConstituentID><MemberLevel>Life Membership</MemberLevel>
        <Expiration>12/31/2099</Expiration><CardHolder>Ada Wren</CardHolder></Member-1>
        </Memberships></response_object></ns1:member_soap_retrieveResponse></SOAP-ENV:Body></SOAP-ENV:Envelope>
        """
    private static let fault = """
        <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>
        <faultcode>soap:Server</faultcode><faultstring>Membership database offline</faultstring></soap:Fault></soap:Body></soap:Envelope>
        """

    /// Serves the answers; returns the base URL.
    private func startService() throws -> String {
        let dir = try makeTemporaryDirectory()
        try Self.ok.write(to: dir.appendingPathComponent("ok.xml"), atomically: true, encoding: .utf8)
        try Self.fault.write(to: dir.appendingPathComponent("fault.xml"), atomically: true, encoding: .utf8)
        let port = dir.appendingPathComponent("port")
        let r = try Shell.run([Repo.root.path + "/scripts/test-nginx.sh", "start", dir.path, port.path])
        guard r.status == 0, let p = try? String(contentsOf: port, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) else {
            throw E2EError("could not start nginx: \(r.stderr)")
        }
        root = dir
        portFile = port
        return "http://127.0.0.1:\(p)"
    }

    /// The lines nginx logged: request line, status, SOAPAction, Content-Type, length.
    private func requests() -> [String] {
        guard let portFile, let dir = try? String(contentsOf: URL(fileURLWithPath: portFile.path + ".nginx-dir"), encoding: .utf8),
            let text = try? String(contentsOfFile: dir.trimmingCharacters(in: .whitespacesAndNewlines) + "/requests.log", encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    private func guide(home: URL, serviceURL: String) throws -> String {
        let config = home.appendingPathComponent("docent.toml")
        try "member_card_url = \"\(serviceURL)\"\n".write(to: config, atomically: true, encoding: .utf8)
        return TmuxSession.guideCommand(extra: ["--config", config.path])
    }

    /// From Home: Info, then the member card row (the one after hours).
    private func openMemberCard(_ s: TmuxSession) throws {
        try s.sendKeys("F6")
        try s.waitFor(try UIStrings.get("en", "info.memberCard"))
        try s.sendKeys("Down")
        let row = try UIStrings.get("en", "info.memberCard")
        try s.waitUntil("the member card row selected") { ScreenText.selectedRow($0)?.text.hasPrefix(row) ?? false }
        try s.sendKeys("Enter")
    }

    func testSignInCardKeptAcrossStartsThenSignOut() throws {
        let base = try startService()
        let home = try makeTemporaryDirectory()
        let command = try guide(home: home, serviceURL: base + "/ok.xml")
        let s = try start(command: command, home: home)
        try dismissFirstRun(s)
        try openMemberCard(s)
        try s.waitFor(try UIStrings.get("en", "member.idLabel"), try UIStrings.get("en", "member.zipLabel"))
        // Digits go into the form, not to the keypad; Enter moves on, then signs in.
        try s.sendLiteral("40417")
        try s.waitFor("40417")
        try s.sendKeys("Enter")
        try s.sendLiteral("60603")
        try s.waitFor("60603")
        try s.sendKeys("Enter")
        var screen = try s.waitFor("Ada Wren", try UIStrings.get("en", "member.lifeMember"), "Member ID 40417")
        XCTAssertFalse(screen.contains("Valid through"), "a life membership has no end date:\n\(screen)")
        // What reached the service: one SOAP POST with its action and content type.
        let posts = requests().filter { $0.hasPrefix("\"POST /ok.xml ") }
        XCTAssertEqual(posts.count, 1, "\(requests())")
        XCTAssertTrue(posts.first?.contains("200 \"urn:xmethods-delayed-quotes#member_soap_retrieve\" \"text/xml; charset=utf-8\"") ?? false, "\(posts)")
        try s.sendKeys("q")
        XCTAssertEqual(try s.waitForExit().status, 0)

        // Started again: the card is there at once and is checked again with the service.
        let again = try start(command: command, home: home)
        try again.sendKeys("F6")
        screen = try again.waitFor(try UIStrings.get("en", "info.memberCard"), "Ada Wren")
        try again.waitUntil("a second POST (the check at start)") { _ in self.requests().filter { $0.hasPrefix("\"POST /ok.xml ") }.count == 2 }
        let row = try UIStrings.get("en", "info.memberCard")
        // Sign out: the last action on the card page.
        try again.sendKeys("Down")
        try again.sendKeys("Enter")
        try again.waitFor("Member ID 40417")
        try again.sendKeys("End")
        let signOut = try UIStrings.get("en", "member.signOut")
        try again.waitUntil("sign out selected") { ScreenText.selectedRow($0)?.text == signOut }
        try again.sendKeys("Enter")
        try again.waitFor(try UIStrings.get("en", "member.idLabel"))
        try again.sendKeys("Escape")
        let signIn = try UIStrings.get("en", "member.signIn")
        let infoTitle = "─ \(try UIStrings.get("en", "title.info")) ─"
        screen = try again.waitUntil("Info with a sign-in row") { screen in
            screen.contains(infoTitle) && !screen.contains("Ada Wren")
                && ScreenText.lines(screen).contains { line in
                    let t = ScreenText.trimmed(line)
                    return t.contains(row) && t.hasSuffix(signIn)
                }
        }
        XCTAssertTrue(screen.contains(try UIStrings.get("en", "member.signedOut")), "the status line says so:\n\(screen)")
        try again.sendKeys("q")
        XCTAssertEqual(try again.waitForExit().status, 0)
    }

    func testAFaultIsExplainedInTheForm() throws {
        let base = try startService()
        let home = try makeTemporaryDirectory()
        let s = try start(command: try guide(home: home, serviceURL: base + "/status500/fault.xml"), home: home)
        try dismissFirstRun(s)
        try openMemberCard(s)
        try s.waitFor(try UIStrings.get("en", "member.idLabel"))
        try s.sendLiteral("1")
        try s.sendKeys("Enter")
        try s.sendLiteral("2")
        try s.sendKeys("Enter")
        let expected = try UIStrings.fill("en", "member.error.fault", ["reason": "Membership database offline"])
        let screen = try s.waitUntil("the fault in the form") { ScreenText.flattened($0).contains(expected) }
        XCTAssertTrue(screen.contains(try UIStrings.get("en", "member.zipLabel")), "still the form:\n\(screen)")
        XCTAssertTrue(requests().contains { $0.hasPrefix("\"POST /status500/fault.xml ") && $0.contains(" 500 ") }, "\(requests())")
    }
}

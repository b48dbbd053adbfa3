import Foundation
import XCTest

@testable import DocentCore

/// The small XML reader and the membership service's request and answers.
final class MemberCardTests: XCTestCase {
    static let now = ISO8601DateFormatter().date(from: "2026-11-22T12:00:00Z") ?? Date()

    /// An answer in the shape the AIC service gives (our own names and numbers).
    static func answer(code: String = "0", level: String = "Sustaining Fellow Gold", expiration: String = "03/31/2027", second: String? = "Basil Wren", id: String = "40417") -> [UInt8] {
        let member2 = second.map { "<Member-2><CardHolder>\($0)</CardHolder></Member-2>" } ?? ""
        return Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns1="urn:xmethods-delayed-quotes">
              <SOAP-ENV:Body>
                <ns1:member_soap_retrieveResponse>
                  <response_object>
                    <ResultCode>\(code)</ResultCode>
                    <Memberships>
                      <Member-1>
                        <PrimaryConstituentID>\(id)</PrimaryConstituentID>
                        <MemberLevel>\(level)</MemberLevel>
                        <Expiration>\(expiration)</Expiration>
                        <CardHolder>Ada Wren</CardHolder>
                      </Member-1>
                      \(member2)
                    </Memberships>
                  </response_object>
                </ns1:member_soap_retrieveResponse>
              </SOAP-ENV:Body>
            </SOAP-ENV:Envelope>
            """.utf8)
    }

    static let fault = Array("""
        <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>
        <faultcode>soap:Server</faultcode><faultstring>Membership database offline</faultstring>
        </soap:Fault></soap:Body></soap:Envelope>
        """.utf8)

    // MARK: XML

    func testXMLElementsTextAttributesEntitiesAndCDATA() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0"?>
            <!-- a comment --><!DOCTYPE root>
            <a:root xmlns:a="urn:x" kind='outer'>
              <item id="1">Fish &amp; Chips &lt;3 &#233;&#x4E2D;</item>
              <item id="2"><![CDATA[<raw> & text]]></item>
              <empty/>
              <!-- inside --><?pi here?>
            </a:root>
            """
        let root = try XMLLite.parse(Array(xml.utf8)).get()
        XCTAssertEqual(root.name, "root", "prefix dropped")
        XCTAssertEqual(root.attributes["kind"], "outer")
        XCTAssertEqual(root.children.map(\.name), ["item", "item", "empty"])
        XCTAssertEqual(root.children[0].text, "Fish & Chips <3 é中")
        XCTAssertEqual(root.children[0].attributes["id"], "1")
        XCTAssertEqual(root.children[1].text, "<raw> & text")
        XCTAssertEqual(root.child("empty")?.children.count, 0)
        XCTAssertEqual(root.find("item")?.attributes["id"], "1")
        XCTAssertNil(root.find("missing"))
    }

    func testMalformedXMLIsAFailureWithItsOffset() {
        let cases = [
            "", "just text", "<a>", "<a></b>", "<a><b></a>", "<a x=1/>", "<a>x</a><b/>", "<a><![CDATA[x</a>",
            "<a x=\"1/>", "<a><!-- x</a>", String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300),
        ]
        for c in cases {
            guard case .failure(let f) = XMLLite.parse(Array(c.utf8)) else {
                XCTFail("accepted \(c.prefix(40).debugDescription)")
                continue
            }
            XCTAssertTrue(f.message.hasPrefix("not well-formed XML at byte "), f.message)
        }
    }

    func testEntityDecodingKeepsUnknownAndLoneAmpersands() {
        XCTAssertEqual(XMLLite.decodeEntities("a &unknown; b & c &#xZZ; &quot;q&apos;"), "a &unknown; b & c &#xZZ; \"q'")
        XCTAssertEqual(XMLLite.escape("<a href=\"x\">&'\u{01}</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;")
    }

    // MARK: Request

    func testRequestIsTheAICSOAPCall() {
        let r = MemberCardAPI.request(url: "https://museum.example/api/1?token=t", memberID: "40417", zip: "60603")
        XCTAssertEqual(r.method, .post)
        XCTAssertEqual(r.url, "https://museum.example/api/1?token=t")
        XCTAssertEqual(r.headers["SOAPAction"], "urn:xmethods-delayed-quotes#member_soap_retrieve")
        XCTAssertEqual(r.headers["Content-Type"], "text/xml; charset=utf-8")
        XCTAssertEqual(r.headers["Accept"], "text/xml")
        XCTAssertEqual(r.headers["Accept-Charset"], "UTF-8")
        XCTAssertTrue(r.errorBodies, "faults come with HTTP 500")
        let body = String(decoding: r.body ?? [], as: UTF8.self)
        XCTAssertEqual(
            body,
            #"<?xml version="1.0" encoding="utf-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:urn="urn:xmethods-delayed-quotes">"#
                + "<soapenv:Header/><soapenv:Body><urn:member_soap_retrieve><pcid>40417</pcid><phone></phone><email></email><zip>60603</zip>"
                + "</urn:member_soap_retrieve></soapenv:Body></soapenv:Envelope>")
        // What the visitor types is escaped, and the body reads back as the same values.
        let tricky = MemberCardAPI.request(url: "x", memberID: "<1&2>", zip: "\"6'")
        let parsed = try? XMLLite.parse(tricky.body ?? []).get()
        XCTAssertEqual(parsed?.find("pcid")?.text, "<1&2>")
        XCTAssertEqual(parsed?.find("zip")?.text, "\"6'")
    }

    // MARK: Answers

    func testSuccessfulAnswerGivesTheCard() throws {
        let card = try MemberCardAPI.parse(Self.answer(), memberID: "40417", zip: "60603", now: Self.now).get()
        XCTAssertEqual(card.memberID, "40417")
        XCTAssertEqual(card.zip, "60603")
        XCTAssertEqual(card.level, "Sustaining Fellow Gold")
        XCTAssertEqual(card.holders, ["Ada Wren", "Basil Wren"])
        XCTAssertEqual(card.holder, "Ada Wren")
        XCTAssertEqual(card.firstName, "Ada")
        XCTAssertEqual(card.expiration, ISO8601DateFormatter().date(from: "2027-03-31T00:00:00Z"))
        XCTAssertEqual(card.checkedAt, Self.now)
        XCTAssertTrue(card.isReciprocal)
        XCTAssertFalse(card.isLifetime)
        // Valid through the whole expiration day (UTC), expired after it.
        XCTAssertFalse(card.hasExpired(at: ISO8601DateFormatter().date(from: "2027-03-31T23:59:59Z") ?? Self.now))
        XCTAssertTrue(card.hasExpired(at: ISO8601DateFormatter().date(from: "2027-04-01T00:00:00Z") ?? Self.now))
    }

    func testLevelsAndOneHolder() throws {
        let life = try MemberCardAPI.parse(Self.answer(level: "Life Membership", second: nil), memberID: "1", zip: "2", now: Self.now).get()
        XCTAssertTrue(life.isLifetime)
        XCTAssertFalse(life.isReciprocal)
        XCTAssertEqual(life.holders, ["Ada Wren"])
        for level in ["Premium Member", "Lionhearted Circle", "Sustaining Fellow", "Sustaining Fellow Platinum"] {
            XCTAssertTrue(try MemberCardAPI.parse(Self.answer(level: level), memberID: "1", zip: "2", now: Self.now).get().isReciprocal, level)
        }
        XCTAssertFalse(try MemberCardAPI.parse(Self.answer(level: "Individual"), memberID: "1", zip: "2", now: Self.now).get().isReciprocal)
    }

    func testFailures() {
        func failure(_ bytes: [UInt8]) -> MemberCardFailure? {
            if case .failure(let f) = MemberCardAPI.parse(bytes, memberID: "1", zip: "2", now: Self.now) { return f }
            return nil
        }
        XCTAssertEqual(failure(Self.fault), .fault("Membership database offline"))
        XCTAssertEqual(failure(Self.answer(code: "3")), .notFound, "a non-zero ResultCode")
        XCTAssertEqual(failure(Self.answer(expiration: "2027-03-31")), .notFound, "an expiry that does not read")
        XCTAssertEqual(failure(Self.answer(level: "")), .notFound, "no level")
        XCTAssertEqual(failure(Self.answer(id: " ")), .notFound, "no id")
        XCTAssertEqual(failure(Array("<Envelope><Body><member_soap_retrieveResponse><response_object><ResultCode>0</ResultCode><Memberships/></response_object></member_soap_retrieveResponse></Body></Envelope>".utf8)), .notFound)
        XCTAssertEqual(failure(Array("<Envelope><Body/></Envelope>".utf8)), .unreadable("no member_soap_retrieveResponse in the answer"))
        XCTAssertEqual(failure(Array("<Envelope><Body><response_object/></Body></Envelope>".utf8)), .unreadable("no ResultCode in the answer"))
        guard case .unreadable(let why)? = failure(Array("<html><body>502 Bad Gateway".utf8)) else { return XCTFail("HTML is unreadable") }
        XCTAssertTrue(why.contains("not well-formed XML"), why)
    }

    func testDates() {
        XCTAssertEqual(MemberCardAPI.parseDate("3/1/2027"), ISO8601DateFormatter().date(from: "2027-03-01T00:00:00Z"))
        XCTAssertEqual(MemberCardAPI.parseDate("12/31/2030"), ISO8601DateFormatter().date(from: "2030-12-31T00:00:00Z"))
        for bad in ["02/30/2027", "13/01/2027", "00/10/2027", "1/1/27", "2027/01/01", "", "a/b/cccc", "1/1/2027/1"] {
            XCTAssertNil(MemberCardAPI.parseDate(bad), bad)
        }
    }

    func testHTTPErrorsAreFailuresUnlessTheyCarryAFault() {
        XCTAssertEqual(MemberCardAPI.answer(.success(FetchResponse(status: 200, body: [1, 2]))), .success([1, 2]))
        XCTAssertEqual(MemberCardAPI.answer(.success(FetchResponse(status: 500, body: Self.fault))), .success(Self.fault))
        XCTAssertEqual(MemberCardAPI.answer(.success(FetchResponse(status: 502, body: Array("<html/>".utf8)))), .failure(LoadFailure("the membership service answered HTTP 502")))
        XCTAssertEqual(
            MemberCardAPI.answer(.failure(.unreachable(url: "http://x", reason: "Connection refused"))),
            .failure(LoadFailure("cannot reach http://x: Connection refused")))
    }

    func testSampleDataDemoCardAndReminder() throws {
        let root = Fixtures.repoRoot.appendingPathComponent("SampleData")
        let card = try MemberCardAPI.parse(try Fixtures.bytes(root.appendingPathComponent("member/demo-card.xml")), memberID: "1", zip: "2", now: Self.now).get()
        XCTAssertEqual(card.holders.count, 2)
        XCTAssertTrue(card.isReciprocal)
        let app = try AppDataReader.read(try Fixtures.bytes(root.appendingPathComponent("appData.json")), source: root.appendingPathComponent("appData.json").path).get()
        let reminders = app.messages.filter { if case .memberExpiration = $0.kind { return true } else { return false } }
        XCTAssertEqual(reminders.map(\.kind), [.memberExpiration(thresholdSeconds: 30 * 86_400)])
        XCTAssertTrue(reminders.first?.english.title.contains("%FIRST_NAME%") ?? false)
    }

    func testPlaceholders() throws {
        let card = try MemberCardAPI.parse(Self.answer(), memberID: "40417", zip: "60603", now: Self.now).get()
        let text = "Dear %FIRST_NAME% (%NAME%), card %CARD_ID% / %ZIP_CODE% ends %EXPIRATION_DATE%. 100% sure."
        XCTAssertEqual(
            MemberCardAPI.fillPlaceholders(text, card: card) { _ in "March 31, 2027" },
            "Dear Ada (Ada Wren), card 40417 / 60603 ends March 31, 2027. 100% sure.")
        XCTAssertEqual(MemberCardAPI.fillPlaceholders(text, card: nil) { _ in "?" }, "Dear  (), card  /  ends . 100% sure.")
    }
}

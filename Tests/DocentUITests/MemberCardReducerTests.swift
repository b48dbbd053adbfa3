import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// The member card from Info: the form, the request, the answers, the card, the reminders.
final class MemberCardReducerTests: XCTestCase {
    let big = Size(width: 80, height: 24)
    let small = RootView.minimumSize
    static let url = "https://members.example/api/1?token=t"

    /// Our answers, in the service's shape.
    static func answer(code: Int = 0, expiration: String = "12/31/2026") -> [UInt8] {
        Array("""
            <Envelope><Body><member_soap_retrieveResponse><response_object><ResultCode>\(code)</ResultCode><Memberships>
            <Member-1><PrimaryConstituentID>40417</PrimaryConstituentID><MemberLevel>Sustaining Fellow Gold</MemberLevel>
            <Expiration>\(expiration)</Expiration><CardHolder>Ada Wren</CardHolder></Member-1>
            <Member-2><CardHolder>Basil Wren</CardHolder></Member-2>
            </Memberships></response_object></member_soap_retrieveResponse></Body></Envelope>
            """.utf8)
    }

    func state(_ language: Language = .english, size: Size? = nil, url: String? = MemberCardReducerTests.url) -> AppState {
        var s = UIFixtures.loadedState(language: language, size: size ?? big)
        s.member.serviceURL = url
        return s
    }

    /// A key the way the guide sends it (through the key map), with what it must do.
    @discardableResult
    func press(
        _ s: inout AppState, _ key: Key, effects: [Effect] = [], file: StaticString = #filePath, line: UInt = #line,
        _ expect: (inout AppState) -> Void = { _ in }
    ) -> [Effect] {
        guard let a = KeyMap.action(for: key, in: s) else {
            XCTFail("\(key) does nothing here", file: file, line: line)
            return []
        }
        return send(&s, a, effects: effects, file: file, line: line, expect)
    }

    /// Types `text` into the form: each character goes at the end of the field being edited.
    func type(_ s: inout AppState, _ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for c in text {
            let field = s.member.field
            press(&s, .char(c), file: file, line: line) { field == 0 ? $0.member.memberID.append(c) : $0.member.zip.append(c) }
        }
    }

    /// Info's member card row opened: the form (or the card).
    func openForm(_ s: inout AppState, file: StaticString = #filePath, line: UInt = #line) {
        send(&s, .selectTab(.info), effects: { [.persist($0.settings)] }, file: file, line: line) { $0.tab = .info }
        let rows = Reducer.rows(s) ?? []
        guard let i = rows.firstIndex(where: { $0.action == .send(.member(.open)) }) else { return XCTFail("no member card row on Info", file: file, line: line) }
        s.page.selection = i
        send(&s, .activate, file: file, line: line) { $0.stacks[.info]?.append(Page(.memberCard)) }
    }

    /// The form filled in with 40417 and 60603 and sent: request 1 under way.
    func submitted(_ s: inout AppState, file: StaticString = #filePath, line: UInt = #line) {
        type(&s, "40417", file: file, line: line)
        press(&s, .enter, file: file, line: line) { $0.member.field = 1 }
        type(&s, "60603", file: file, line: line)
        press(&s, .enter, effects: [.member(.validate(token: 1, MemberCardAPI.request(url: Self.url, memberID: "40417", zip: "60603")))], file: file, line: line) {
            $0.member.token = 1
            $0.member.status = .checking(signingIn: true)
        }
    }

    /// The card the service's answer gives for 40417 / 60603, checked now.
    func card(_ s: AppState, _ answer: [UInt8] = answer()) throws -> MemberCard {
        guard case .success(let c) = MemberCardAPI.parse(answer, memberID: "40417", zip: "60603", now: s.now) else {
            XCTFail("the answer reads")
            throw CancellationError()
        }
        return c
    }

    /// Where the card page puts the selection: its first action, switching holders.
    func firstAction(_ s: AppState) -> Int {
        (Reducer.rows(s) ?? []).firstIndex { $0.action == .send(.member(.switchHolder)) } ?? -1
    }

    /// The answer to a sign-in: the card shown and saved, the typed ZIP dropped, a welcome.
    func signingIn(_ card: MemberCard) -> (inout AppState) -> Void {
        { s in
            s.member.card = card
            s.member.status = .idle
            s.member.zip = ""
            s.member.expiryMessagesQueued = true
            s.banner = Banner(.key(.memberWelcome, ["name": .verbatim("Ada")]))
            s.page.selection = self.firstAction(s)
        }
    }

    func signedIn(_ language: Language = .english, size: Size? = nil) -> AppState {
        var s = state(language, size: size)
        openForm(&s)
        submitted(&s)
        prepare(&s, .member(.answered(token: s.member.token, .success(Self.answer()))))
        s.overlay = nil
        s.messageQueue = []
        s.banner = nil
        return s
    }

    // MARK: Info

    func testInfoOffersTheCardOnlyWhenAServiceIsConfigured() {
        var without = state(url: nil)
        send(&without, .selectTab(.info), effects: { [.persist($0.settings)] }) { $0.tab = .info }
        XCTAssertFalse((Reducer.rows(without) ?? []).contains { $0.action == .send(.member(.open)) })
        // No page without a service.
        send(&without, .member(.open))
        XCTAssertEqual(without.page.route, .info)

        var with = state()
        openForm(&with)
        XCTAssertEqual(with.page.route, .memberCard)
        XCTAssertEqual(PageBuilder.content(.memberCard, with), .custom(MemberFeature.id, title: "Member card"))
    }

    // MARK: The form

    func testTypingGoesIntoTheFieldsNotTheKeypad() {
        var s = state()
        openForm(&s)
        // Digits, q and ? are text here: the keypad hears nothing, the guide does not quit.
        type(&s, "40q?7")
        XCTAssertEqual(s.member.memberID, "40q?7")
        XCTAssertEqual(s.keypad.input, "")
        XCTAssertFalse(s.quitting)
        for _ in 0..<3 { press(&s, .backspace) { $0.member.memberID.removeLast() } }
        XCTAssertEqual(s.member.memberID, "40")
        // Enter in the first field moves on; ↑ goes back.
        type(&s, "417")
        press(&s, .enter) { $0.member.field = 1 }
        type(&s, "606")
        XCTAssertEqual(s.member.zip, "606")
        press(&s, .up) { $0.member.field = 0 }
        press(&s, .down) { $0.member.field = 1 }
        type(&s, "03")
        XCTAssertEqual(s.member.zip, "60603")
        // Backspace in an empty ZIP field goes back to the ID.
        for _ in 0..<5 { press(&s, .backspace) { $0.member.zip.removeLast() } }
        press(&s, .backspace) { $0.member.field = 0 }
        XCTAssertEqual(s.member.memberID, "40417")
        // Fields have a length limit; Esc leaves the form.
        let room = MemberState.maxFieldLength - s.member.memberID.count
        for i in 0..<40 { press(&s, .char("9")) { if i < room { $0.member.memberID.append("9") } } }
        XCTAssertEqual(s.member.memberID.count, MemberState.maxFieldLength)
        press(&s, .escape) { $0.stacks[.info]?.removeLast() }
        XCTAssertEqual(s.page.route, .info)
    }

    func testEnterSendsTheSOAPRequestOnce() {
        var s = state()
        openForm(&s)
        // Nothing typed: nothing sent.
        press(&s, .enter)
        type(&s, " 40417 ")
        press(&s, .enter) { $0.member.field = 1 }
        type(&s, "60603")
        press(&s, .enter, effects: [.member(.validate(token: 1, MemberCardAPI.request(url: Self.url, memberID: "40417", zip: "60603")))]) {
            $0.member.token = 1
            $0.member.status = .checking(signingIn: true)
        }
        // Not twice while checking, and no typing.
        press(&s, .enter)
        press(&s, .char("1"))
        XCTAssertEqual(s.member.zip, "60603")
        assertSnapshot(RootView.render(s, size: big), named: "member-checking-80x24")
    }

    func testAnAnswerGivesTheCardSavesItAndGreets() throws {
        var s = state()
        openForm(&s)
        submitted(&s)
        // An answer to another request is ignored.
        send(&s, .member(.answered(token: 99, .success(Self.answer()))))
        let card = try card(s)
        XCTAssertEqual(card.holders, ["Ada Wren", "Basil Wren"])
        XCTAssertEqual(card.zip, "60603")
        XCTAssertEqual(card.checkedAt, s.now)
        // Saved; the card expires within the message's 60 days: the reminder.
        send(&s, .member(.answered(token: 1, .success(Self.answer()))), effects: { [.persist($0.settings)] }) {
            self.signingIn(card)(&$0)
            $0.overlay = .message(id: 8)
        }
        XCTAssertEqual(s.settings.saves[MemberFeature.self], card)
        XCTAssertEqual(s.banner?.text(s.strings), "Welcome, Ada! Your member card is ready under Info.")
        // Placeholders filled.
        let m = try XCTUnwrap(s.museum?.messages.first { $0.id == 8 })
        let t = PageBuilder.messageText(m, s)
        XCTAssertEqual(t.title, "Time to renew, Ada")
        XCTAssertEqual(t.body, "Your membership (card 40417) ends on December 31, 2026.")
        XCTAssertEqual(t.actionURL, "https://lakeside.example.org/renew?id=40417&zip=60603")
        assertSnapshot(RootView.render(s, size: big), named: "member-reminder-80x24")
        // At 40 columns the address has lines of its own, without its scheme, broken after a
        // slash and never inside a name (issue 33 #17).
        let narrow = RootView.render(s, size: Size(width: 40, height: 12))
        assertSnapshot(narrow, named: "member-reminder-40x12")
        let rows = (0..<12).map(narrow.row).joined(separator: "\n")
        XCTAssertTrue(rows.contains("│ lakeside.example.org/renew "), rows)
        XCTAssertTrue(rows.contains("│ ?id=40417&zip=60603 "), rows)
        // Seen once, not again.
        send(&s, .dismissOverlay, effects: { [.persist($0.settings)] }) {
            $0.overlay = nil
            $0.seenMessageIDs.insert(8)
        }
    }

    /// Scoped (issue 28): the card's own state changes, and what it wants of the shared UI
    /// (its page, a greeting, the reminder, a save) stated as requests, exactly.
    func testScopedOpenAndAnAnswerAskTheRootForThePageTheGreetingTheReminderAndASave() throws {
        var s = state()
        var m = s.member
        sendScoped(MemberFeature.self, &m, .open, FeatureContext(s), requests: [.push(.memberCard)])
        openForm(&s)
        // Already on top: back to its first row.
        sendScoped(MemberFeature.self, &m, .open, FeatureContext(s), requests: [.firstRow])
        sendScoped(MemberFeature.self, &m, .typed("4"), FeatureContext(s)) { $0.memberID = "4" }
        submitted(&s)
        m = s.member
        let card = try card(s)
        sendScoped(
            MemberFeature.self, &m, .answered(token: 1, .success(Self.answer())), FeatureContext(s),
            requests: [.banner(Banner(.key(.memberWelcome, ["name": .verbatim("Ada")]))), .firstRow, .queueMessages([8]), .persist]
        ) {
            $0.card = card
            $0.status = .idle
            $0.zip = ""
            $0.expiryMessagesQueued = true
        }
        // Off its page (a click elsewhere while it checked): no row to go back to.
        var other = s
        other.stacks[.info]?.removeLast()
        var m2 = s.member
        m2.expiryMessagesQueued = true
        sendScoped(
            MemberFeature.self, &m2, .answered(token: 1, .success(Self.answer())), FeatureContext(other),
            requests: [.banner(Banner(.key(.memberWelcome, ["name": .verbatim("Ada")]))), .persist]
        ) {
            $0.card = card
            $0.status = .idle
            $0.zip = ""
        }
        sendScoped(MemberFeature.self, &m, .signOut, FeatureContext(s), requests: [.firstRow, .banner(Banner(.key(.memberSignedOut))), .persist]) {
            $0 = MemberState()
            $0.serviceURL = Self.url
            $0.token = 2
        }
    }

    /// The root keeps the reminder out when it was seen (and is not persistent) or is waiting.
    func testQueuedMessagesSeenOrWaitingAreLeftOut() {
        var s = state()
        s.overlay = nil
        s.messageQueue = []
        s.seenMessageIDs = [8]
        XCTAssertEqual(Reducer.apply(Outcome(requests: [.queueMessages([8])]), &s), [])
        XCTAssertNil(s.overlay)
        s.seenMessageIDs = []
        s.overlay = .message(id: 8)
        XCTAssertEqual(Reducer.apply(Outcome(requests: [.queueMessages([8])]), &s), [])
        XCTAssertEqual(s.messageQueue, [])
        s.overlay = nil
        XCTAssertEqual(Reducer.apply(Outcome(requests: [.queueMessages([8])]), &s), [])
        XCTAssertEqual(s.overlay, .message(id: 8))
    }

    func testNoReminderLongBeforeExpiry() throws {
        var s = state()
        openForm(&s)
        submitted(&s)
        let later = Self.answer(expiration: "12/31/2027")
        send(&s, .member(.answered(token: 1, .success(later))), effects: { [.persist($0.settings)] }, signingIn(try card(s, later)))
        XCTAssertNil(s.overlay)
    }

    func testFailuresStayInTheFormWithTheirReason() {
        var s = state()
        openForm(&s)
        submitted(&s)
        send(&s, .member(.answered(token: 1, .success(Self.answer(code: 2))))) { $0.member.status = .failed(.notFound) }
        assertSnapshot(RootView.render(s, size: big), named: "member-not-found-80x24")
        // Typing again clears the message; a second try gets a new token.
        press(&s, .backspace) { $0.member.zip = "6060" }
        press(&s, .char("4")) {
            $0.member.zip = "60604"
            $0.member.status = .idle
        }
        press(&s, .enter, effects: [.member(.validate(token: 2, MemberCardAPI.request(url: Self.url, memberID: "40417", zip: "60604")))]) {
            $0.member.token = 2
            $0.member.status = .checking(signingIn: true)
        }
        send(&s, .member(.answered(token: 2, .failure(LoadFailure("cannot reach members.example: Connection refused"))))) {
            $0.member.status = .failed(.network("cannot reach members.example: Connection refused"))
        }
        let screen = RootView.render(s, size: big)
        XCTAssertTrue(screen.dump().contains("Could not reach the membership service"), screen.dump())
    }

    // MARK: The card

    func testCardPageSwitchHolderAndSignOut() throws {
        var s = signedIn()
        XCTAssertEqual(s.page.route, .memberCard)
        assertSnapshot(RootView.render(s, size: big), named: "member-card-80x24")
        let rows = try XCTUnwrap(Reducer.rows(s))
        XCTAssertEqual(rows[s.page.selection].action, .send(.member(.switchHolder)), "the first action is selected")
        // Switch holder: Basil on the card, saved.
        send(&s, .activate, effects: { [.persist($0.settings)] }) { $0.member.card?.holderIndex = 1 }
        XCTAssertEqual(s.member.card?.holder, "Basil Wren")
        XCTAssertEqual(s.settings.saves[MemberFeature.self]?.holderIndex, 1)
        // Check again: the same request, quietly.
        send(&s, .member(.recheck), effects: [.member(.validate(token: 2, MemberCardAPI.request(url: Self.url, memberID: "40417", zip: "60603")))]) {
            $0.member.token = 2
            $0.member.status = .checking(signingIn: false)
        }
        // The chosen holder survives a re-check.
        send(&s, .member(.answered(token: 2, .success(Self.answer()))), effects: { [.persist($0.settings)] }) { $0.member.status = .idle }
        XCTAssertEqual(s.member.card?.holder, "Basil Wren")
        // Sign out: nothing of the card is kept.
        send(&s, .member(.signOut), effects: { [.persist($0.settings)] }) {
            $0.member = MemberState()
            $0.member.serviceURL = Self.url
            $0.member.token = 3
            $0.page.selection = 0
            $0.banner = Banner(.key(.memberSignedOut))
        }
        XCTAssertNil(s.settings.saves[MemberFeature.self])
        XCTAssertEqual(PageBuilder.content(.memberCard, s), .custom(MemberFeature.id, title: "Member card"))
        // The service stays configured: Info still offers to sign in.
        send(&s, .back) { $0.stacks[.info]?.removeLast() }
        XCTAssertTrue((Reducer.rows(s) ?? []).contains { $0.action == .send(.member(.open)) })
    }

    func testStoredCardIsShownAndCheckedAgainAtStart() throws {
        let card = try XCTUnwrap(signedIn().member.card)
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        s.config[MemberFeature.configKey] = Self.url
        var saves = FeatureSaves()
        saves[MemberFeature.self] = card
        send(&s, .launched(restored: PersistedSettings(introSeen: true, saves: saves), languageOverride: nil), effects: [.loadDocument(source: "/museum/appData.json"), .pulse(.open(.defaultFile, identity: nil, seed: "/museum/pulse/seed.json"))]) {
            $0.introSeen = true
            $0.member.card = card
            $0.member.serviceURL = Self.url
        }
        let m = UIFixtures.museum()
        let ex = try XCTUnwrap(DataAggregator.exhibitionsRequest(app: m.data, now: UIFixtures.now))
        let ev = try XCTUnwrap(DataAggregator.eventsRequest(app: m.data, now: UIFixtures.now))
        let recheck = Effect.member(.validate(token: 1, MemberCardAPI.request(url: Self.url, memberID: "40417", zip: "60603")))
        // The launch message first; the card's reminder waits behind it.
        send(&s, .documentLoaded(.success(m), note: nil), effects: [.fetch(.exhibitions, ex), .fetch(.events, ev), .search(.buildIndex(m)), recheck]) {
            $0.document = .ready(m)
            $0.overlay = .message(id: 7)
            $0.messageQueue = [8]
            $0.exhibitions = .loading
            $0.events = .loading
            $0.member.expiryMessagesQueued = true
            $0.member.token = 1
            $0.member.status = .checking(signingIn: false)
        }
        // Offline: the card stays, marked as not checked now.
        send(&s, .member(.answered(token: 1, .failure(LoadFailure("cannot reach members.example: Connection refused"))))) {
            $0.member.status = .recheckFailed(.network("cannot reach members.example: Connection refused"))
        }
        s.overlay = nil
        prepare(&s, .selectTab(.info), .member(.open))
        XCTAssertEqual(s.member.card, card)
        s.viewportRows = RootView.viewport(for: big).rows
        assertSnapshot(RootView.render(s, size: big), named: "member-card-offline-80x24")
        // The service no longer knows the card: it is forgotten, with a word why.
        send(&s, .member(.recheck), effects: [.member(.validate(token: 2, MemberCardAPI.request(url: Self.url, memberID: "40417", zip: "60603")))]) {
            $0.member.token = 2
            $0.member.status = .checking(signingIn: false)
        }
        send(&s, .member(.answered(token: 2, .success(Self.answer(code: 1)))), effects: { [.persist($0.settings)] }) {
            $0.member.card = nil
            $0.member.status = .failed(.notFound)
            $0.banner = Banner(.key(.memberNoLongerValid), level: .warning)
        }
    }

    /// On a shared terminal (kiosk mode) the card is personal: it is not offered, and one kept
    /// from an earlier use of the machine is neither shown nor checked, whatever the order of
    /// the registry (the member card asks the kiosk's configuration itself).
    func testKioskModeNeitherOffersNorShowsAStoredCard() throws {
        let card = try XCTUnwrap(signedIn().member.card)
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        s.config[MemberFeature.configKey] = Self.url
        s.config["kiosk"] = "true"
        var saves = FeatureSaves()
        saves[MemberFeature.self] = card
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true, saves: saves), languageOverride: nil))
        XCTAssertNil(s.member.card)
        XCTAssertNil(s.member.serviceURL)
        let m = UIFixtures.museum()
        let ex = try XCTUnwrap(DataAggregator.exhibitionsRequest(app: m.data, now: UIFixtures.now))
        let ev = try XCTUnwrap(DataAggregator.eventsRequest(app: m.data, now: UIFixtures.now))
        // No check of a card (outside kiosk mode the stored card is validated here).
        let effects = prepare(&s, .documentLoaded(.success(m), note: nil))
        XCTAssertEqual(effects, [.fetch(.exhibitions, ex), .fetch(.events, ev), .search(.buildIndex(m))])
        s.overlay = nil
        prepare(&s, .selectTab(.info))
        XCTAssertFalse((Reducer.rows(s) ?? []).contains { $0.action == .send(.member(.open)) })
    }

    func testNoRecheckWithoutAServiceOrACard() throws {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        s.member.serviceURL = Self.url
        let m = UIFixtures.museum()
        let ex = try XCTUnwrap(DataAggregator.exhibitionsRequest(app: m.data, now: UIFixtures.now))
        let ev = try XCTUnwrap(DataAggregator.eventsRequest(app: m.data, now: UIFixtures.now))
        // A service but no card: nothing for the member card to do.
        send(&s, .documentLoaded(.success(m), note: nil), effects: [.fetch(.exhibitions, ex), .fetch(.events, ev), .search(.buildIndex(m))]) {
            $0.document = .ready(m)
            $0.overlay = .message(id: 7)
            $0.exhibitions = .loading
            $0.events = .loading
        }
    }

    // MARK: Screens

    func testSnapshots() {
        var form = state()
        openForm(&form)
        type(&form, "40417")
        assertSnapshot(RootView.render(form, size: big), named: "member-form-80x24")
        var smallForm = state(size: small)
        openForm(&smallForm)
        type(&smallForm, "40417")
        press(&smallForm, .enter) { $0.member.field = 1 }
        type(&smallForm, "606")
        assertSnapshot(RootView.render(smallForm, size: small), named: "member-form-40x12")
        var zh = state(.chinese)
        openForm(&zh)
        assertSnapshot(RootView.render(zh, size: big), named: "member-form-zh-80x24")
        assertSnapshot(RootView.render(signedIn(size: small), size: small), named: "member-card-40x12")
        assertSnapshot(RootView.render(signedIn(.chinese), size: big), named: "member-card-zh-80x24")
        assertSnapshot(RootView.render(signedIn(.spanish), size: big), named: "member-card-es-80x24")
        var info = signedIn()
        send(&info, .back) { $0.stacks[.info]?.removeLast() }
        assertSnapshot(RootView.render(info, size: big), named: "info-member-80x24")
    }

    func testClickingAFieldFocusesIt() {
        var s = state()
        openForm(&s)
        let screen = RootView.render(s, size: big)
        guard let y = (0..<screen.height).first(where: { screen.hitAction(x: 2, y: $0) == .member(.focusField(1)) }) else {
            return XCTFail("no click target for the ZIP field:\n\(screen.dump())")
        }
        send(&s, KeyMap.click(x: 2, y: y, on: screen) ?? .quit) { $0.member.field = 1 }
    }
}

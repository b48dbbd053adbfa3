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

    /// Sends keys the way the guide does: through the key map.
    @discardableResult
    func keys(_ s: inout AppState, _ keys: [Key]) -> [Effect] {
        var effects: [Effect] = []
        for k in keys {
            guard let a = KeyMap.action(for: k, in: s) else { continue }
            effects += Reducer.reduce(&s, a)
        }
        return effects
    }

    func text(_ t: String) -> [Key] { t.map { Key.char($0) } }

    func openForm(_ s: inout AppState) {
        _ = Reducer.reduce(&s, .selectTab(.info))
        let rows = Reducer.rows(s) ?? []
        guard let i = rows.firstIndex(where: { $0.action == .send(.member(.open)) }) else { return XCTFail("no member card row on Info") }
        s.page.selection = i
        _ = Reducer.reduce(&s, .activate)
    }

    func signedIn(_ language: Language = .english, size: Size? = nil) -> AppState {
        var s = state(language, size: size)
        openForm(&s)
        keys(&s, text("40417") + [.enter] + text("60603") + [.enter])
        _ = Reducer.reduce(&s, .member(.answered(token: s.member.token, .success(Self.answer()))))
        s.overlay = nil
        s.messageQueue = []
        s.banner = nil
        return s
    }

    // MARK: Info

    func testInfoOffersTheCardOnlyWhenAServiceIsConfigured() {
        var without = state(url: nil)
        _ = Reducer.reduce(&without, .selectTab(.info))
        XCTAssertFalse((Reducer.rows(without) ?? []).contains { $0.action == .send(.member(.open)) })
        XCTAssertEqual(Reducer.reduce(&without, .member(.open)), [])
        XCTAssertEqual(without.page.route, .info, "no page without a service")

        var with = state()
        openForm(&with)
        XCTAssertEqual(with.page.route, .memberCard)
        XCTAssertEqual(PageBuilder.content(.memberCard, with), .custom(MemberFeature.id, title: "Member card"))
    }

    // MARK: The form

    func testTypingGoesIntoTheFieldsNotTheKeypad() {
        var s = state()
        openForm(&s)
        // Digits, q and ? are text here.
        XCTAssertEqual(keys(&s, text("40q?7")), [])
        XCTAssertEqual(s.member.memberID, "40q?7")
        XCTAssertEqual(s.keypad.input, "", "digits did not reach the keypad")
        XCTAssertFalse(s.quitting)
        keys(&s, [.backspace, .backspace, .backspace])
        XCTAssertEqual(s.member.memberID, "40")
        // Enter in the first field moves on; ↑ goes back.
        keys(&s, text("417") + [.enter])
        XCTAssertEqual(s.member.field, 1)
        keys(&s, text("606"))
        XCTAssertEqual(s.member.zip, "606")
        keys(&s, [.up])
        XCTAssertEqual(s.member.field, 0)
        keys(&s, [.down] + text("03"))
        XCTAssertEqual(s.member.zip, "60603")
        // Backspace in an empty ZIP field goes back to the ID.
        keys(&s, Array(repeating: .backspace, count: 6))
        XCTAssertEqual(s.member.field, 0)
        XCTAssertEqual(s.member.memberID, "40417")
        // Fields have a length limit; Esc leaves the form.
        keys(&s, text(String(repeating: "9", count: 40)))
        XCTAssertEqual(s.member.memberID.count, MemberState.maxFieldLength)
        keys(&s, [.escape])
        XCTAssertEqual(s.page.route, .info)
    }

    func testEnterSendsTheSOAPRequestOnce() {
        var s = state()
        openForm(&s)
        XCTAssertEqual(keys(&s, [.enter]), [], "nothing typed: nothing sent")
        keys(&s, text(" 40417 ") + [.enter] + text("60603"))
        let effects = keys(&s, [.enter])
        XCTAssertEqual(effects, [.member(.validate(token: 1, MemberCardAPI.request(url: Self.url, memberID: "40417", zip: "60603")))])
        XCTAssertEqual(s.member.status, .checking(signingIn: true))
        XCTAssertEqual(keys(&s, [.enter]), [], "not twice while checking")
        XCTAssertEqual(keys(&s, text("1")), [])
        XCTAssertEqual(s.member.zip, "60603", "no typing while checking")
        assertSnapshot(RootView.render(s, size: big), named: "member-checking-80x24")
    }

    func testAnAnswerGivesTheCardSavesItAndGreets() throws {
        var s = state()
        openForm(&s)
        keys(&s, text("40417") + [.enter] + text("60603") + [.enter])
        // An answer to another request is ignored.
        XCTAssertEqual(Reducer.reduce(&s, .member(.answered(token: 99, .success(Self.answer())))), [])
        XCTAssertNil(s.member.card)
        let effects = Reducer.reduce(&s, .member(.answered(token: 1, .success(Self.answer()))))
        let card = try XCTUnwrap(s.member.card)
        XCTAssertEqual(card.holders, ["Ada Wren", "Basil Wren"])
        XCTAssertEqual(card.zip, "60603")
        XCTAssertEqual(card.checkedAt, s.now)
        XCTAssertEqual(effects, [.persist(s.settings)])
        XCTAssertEqual(s.settings.saves[MemberFeature.self], card)
        XCTAssertEqual(s.member.status, .idle)
        XCTAssertEqual(s.member.zip, "", "the typed ZIP is not kept outside the card")
        XCTAssertEqual(s.banner?.text(s.strings), "Welcome, Ada! Your member card is ready under Info.")
        // The card expires within the message's 60 days: the reminder, placeholders filled.
        XCTAssertEqual(s.overlay, .message(id: 8))
        let m = try XCTUnwrap(s.museum?.messages.first { $0.id == 8 })
        let t = PageBuilder.messageText(m, s)
        XCTAssertEqual(t.title, "Time to renew, Ada")
        XCTAssertEqual(t.body, "Your membership (card 40417) ends on December 31, 2026.")
        XCTAssertEqual(t.actionURL, "https://lakeside.example.org/renew?id=40417&zip=60603")
        assertSnapshot(RootView.render(s, size: big), named: "member-reminder-80x24")
        // Seen once, not again.
        _ = Reducer.reduce(&s, .dismissOverlay)
        XCTAssertTrue(s.seenMessageIDs.contains(8))
    }

    func testNoReminderLongBeforeExpiry() {
        var s = state()
        openForm(&s)
        keys(&s, text("40417") + [.enter] + text("60603") + [.enter])
        _ = Reducer.reduce(&s, .member(.answered(token: 1, .success(Self.answer(expiration: "12/31/2027")))))
        XCTAssertNotNil(s.member.card)
        XCTAssertNil(s.overlay)
    }

    func testFailuresStayInTheFormWithTheirReason() {
        var s = state()
        openForm(&s)
        keys(&s, text("40417") + [.enter] + text("60603") + [.enter])
        _ = Reducer.reduce(&s, .member(.answered(token: 1, .success(Self.answer(code: 2)))))
        XCTAssertNil(s.member.card)
        XCTAssertEqual(s.member.status, .failed(.notFound))
        assertSnapshot(RootView.render(s, size: big), named: "member-not-found-80x24")
        // Typing again clears the message; a second try gets a new token.
        keys(&s, [.backspace] + text("4"))
        XCTAssertEqual(s.member.status, .idle)
        XCTAssertEqual(keys(&s, [.enter]), [.member(.validate(token: 2, MemberCardAPI.request(url: Self.url, memberID: "40417", zip: "60604")))])
        _ = Reducer.reduce(&s, .member(.answered(token: 2, .failure(LoadFailure("cannot reach members.example: Connection refused")))))
        XCTAssertEqual(s.member.status, .failed(.network("cannot reach members.example: Connection refused")))
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
        XCTAssertEqual(Reducer.reduce(&s, .activate), [.persist(s.settings)])
        XCTAssertEqual(s.member.card?.holder, "Basil Wren")
        XCTAssertEqual(s.settings.saves[MemberFeature.self]?.holderIndex, 1)
        // Check again: the same request, quietly.
        XCTAssertEqual(
            Reducer.reduce(&s, .member(.recheck)),
            [.member(.validate(token: 2, MemberCardAPI.request(url: Self.url, memberID: "40417", zip: "60603")))])
        _ = Reducer.reduce(&s, .member(.answered(token: 2, .success(Self.answer()))))
        XCTAssertEqual(s.member.card?.holder, "Basil Wren", "the chosen holder survives a re-check")
        // Sign out: nothing of the card is kept.
        let effects = Reducer.reduce(&s, .member(.signOut))
        XCTAssertNil(s.member.card)
        XCTAssertEqual(s.member.memberID, "")
        XCTAssertEqual(effects, [.persist(s.settings)])
        XCTAssertNil(s.settings.saves[MemberFeature.self])
        XCTAssertEqual(PageBuilder.content(.memberCard, s), .custom(MemberFeature.id, title: "Member card"))
        // The service stays configured: Info still offers to sign in.
        _ = Reducer.reduce(&s, .back)
        XCTAssertTrue((Reducer.rows(s) ?? []).contains { $0.action == .send(.member(.open)) })
    }

    func testStoredCardIsShownAndCheckedAgainAtStart() throws {
        let card = try XCTUnwrap(signedIn().member.card)
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        s.config[MemberFeature.configKey] = Self.url
        var saves = FeatureSaves()
        saves[MemberFeature.self] = card
        _ = Reducer.reduce(&s, .launched(restored: PersistedSettings(introSeen: true, saves: saves), languageOverride: nil))
        XCTAssertEqual(s.member.card, card)
        let effects = Reducer.reduce(&s, .documentLoaded(.success(UIFixtures.museum()), note: nil))
        XCTAssertTrue(effects.contains(.member(.validate(token: 1, MemberCardAPI.request(url: Self.url, memberID: "40417", zip: "60603")))), "\(effects)")
        XCTAssertEqual(s.member.status, .checking(signingIn: false))
        // Offline: the card stays, marked as not checked now.
        _ = Reducer.reduce(&s, .member(.answered(token: 1, .failure(LoadFailure("cannot reach members.example: Connection refused")))))
        XCTAssertEqual(s.member.card, card)
        XCTAssertEqual(s.member.status, .recheckFailed(.network("cannot reach members.example: Connection refused")))
        s.overlay = nil
        _ = Reducer.reduce(&s, .selectTab(.info))
        _ = Reducer.reduce(&s, .member(.open))
        s.viewportRows = RootView.viewport(for: big).rows
        assertSnapshot(RootView.render(s, size: big), named: "member-card-offline-80x24")
        // The service no longer knows the card: it is forgotten, with a word why.
        _ = Reducer.reduce(&s, .member(.recheck))
        let forget = Reducer.reduce(&s, .member(.answered(token: 2, .success(Self.answer(code: 1)))))
        XCTAssertNil(s.member.card)
        XCTAssertEqual(forget, [.persist(s.settings)])
        XCTAssertEqual(s.banner?.level, .warning)
    }

    func testNoRecheckWithoutAServiceOrACard() {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        _ = Reducer.reduce(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        s.member.serviceURL = Self.url
        let effects = Reducer.reduce(&s, .documentLoaded(.success(UIFixtures.museum()), note: nil))
        XCTAssertFalse(effects.contains { if case .feature(let v) = $0 { return v.feature == MemberFeature.id } else { return false } })
    }

    // MARK: Screens

    func testSnapshots() {
        var form = state()
        openForm(&form)
        keys(&form, text("40417"))
        assertSnapshot(RootView.render(form, size: big), named: "member-form-80x24")
        var smallForm = state(size: small)
        openForm(&smallForm)
        keys(&smallForm, text("40417") + [.enter] + text("606"))
        assertSnapshot(RootView.render(smallForm, size: small), named: "member-form-40x12")
        var zh = state(.chinese)
        openForm(&zh)
        assertSnapshot(RootView.render(zh, size: big), named: "member-form-zh-80x24")
        assertSnapshot(RootView.render(signedIn(size: small), size: small), named: "member-card-40x12")
        assertSnapshot(RootView.render(signedIn(.chinese), size: big), named: "member-card-zh-80x24")
        assertSnapshot(RootView.render(signedIn(.spanish), size: big), named: "member-card-es-80x24")
        var info = signedIn()
        _ = Reducer.reduce(&info, .back)
        assertSnapshot(RootView.render(info, size: big), named: "info-member-80x24")
    }

    func testClickingAFieldFocusesIt() {
        var s = state()
        openForm(&s)
        let screen = RootView.render(s, size: big)
        guard let y = (0..<screen.height).first(where: { screen.hitAction(x: 2, y: $0) == .member(.focusField(1)) }) else {
            return XCTFail("no click target for the ZIP field:\n\(screen.dump())")
        }
        _ = Reducer.reduce(&s, KeyMap.click(x: 2, y: y, on: screen) ?? .quit)
        XCTAssertEqual(s.member.field, 1)
    }
}

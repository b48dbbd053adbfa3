import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Kiosk mode (issue 16 #1): visitors cannot quit, the member card is hidden, staff quit with
/// Ctrl-X and the code, and the guide starts over for the next visitor after an idle time.
final class KioskTests: XCTestCase {
    let big = Size(width: 80, height: 24)
    let small = RootView.minimumSize
    static let config = ["kiosk": "true", "kiosk_idle_seconds": "2", "kiosk_pin": "2468", "member_card_url": "https://members.example/api"]
    static let idleTimer = Effect.timer(.kioskIdle, milliseconds: 2000, action: .kiosk(.idle))

    func kiosk(size: Size? = nil, config: [String: String] = KioskTests.config) -> AppState {
        UIFixtures.loadedState(size: size ?? big, config: config)
    }

    /// Sends keys the way the guide does: the loop's `.visitorInput`, then the key map.
    @discardableResult
    func keys(_ s: inout AppState, _ keys: [Key]) -> [Effect] {
        var effects: [Effect] = []
        for k in keys { effects += pressKey(&s, k, asVisitor: true) }
        return effects
    }

    // MARK: Start

    func testLaunchReadsTheConfigurationHidesTheMemberCardAndStartsTheIdleTimer() {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        s.config = Self.config
        let effects = prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        XCTAssertEqual(effects.filter { if case .timer = $0 { return true } else { return false } }, [Self.idleTimer])
        XCTAssertEqual(s.kiosk.enabled, true)
        XCTAssertEqual(s.kiosk.idleSeconds, 2)
        XCTAssertEqual(s.kiosk.pin, "2468")
        XCTAssertNil(s.member.serviceURL, "the member card is not offered in kiosk mode")

        // Info has no member card row (it has one outside kiosk mode with the same service).
        var k = kiosk()
        prepare(&k, .selectTab(.info))
        XCTAssertFalse((Reducer.rows(k) ?? []).contains { $0.action == .send(.member(.open)) })
        var plain = UIFixtures.loadedState(config: ["member_card_url": "https://members.example/api"])
        prepare(&plain, .selectTab(.info))
        XCTAssertTrue((Reducer.rows(plain) ?? []).contains { $0.action == .send(.member(.open)) })
        // Nor an intro that offers one (issue 33 #18): the museum's subtitle gives way to the
        // guide's own line.
        let subtitle = plain.museum?.generalInfo.text("info_subtitle", Language.english)?.text
        let kioskIntro = (Reducer.rows(k) ?? []).first { $0.kind == .note }?.text
        XCTAssertEqual(kioskIntro, k.strings(.infoKioskIntro))
        XCTAssertNotEqual(kioskIntro, subtitle)
        if let subtitle, !subtitle.isEmpty { XCTAssertEqual((Reducer.rows(plain) ?? []).first { $0.kind == .note }?.text, subtitle) }
    }

    func testWithoutKioskNothingChanges() {
        var s = UIFixtures.loadedState()
        XCTAssertFalse(s.kiosk.enabled)
        send(&s, .visitorInput)
        send(&s, .kiosk(.idle))
        send(&s, .quit, effects: [.persist(s.settings), .quit]) { $0.quitting = true }
    }

    func testAnUnusableIdleTimeIsSaidAndTheDefaultTaken() {
        let s = kiosk(config: ["kiosk": "true", "kiosk_idle_seconds": "soon"])
        XCTAssertEqual(s.kiosk.idleSeconds, 180)
        XCTAssertEqual(s.banner?.phrase, .key(.bannerKioskIdleInvalid, ["value": .verbatim("soon"), "default": .verbatim("180")]))
        XCTAssertEqual(kiosk(config: ["kiosk": "true", "kiosk_idle_seconds": "0"]).kiosk.idleSeconds, 180)
        XCTAssertEqual(kiosk(config: ["kiosk": "true", "kiosk_idle_seconds": "99999999999999999999"]).kiosk.idleSeconds, 180)
        let typo = kiosk(config: ["kiosk": "yes"])
        XCTAssertFalse(typo.kiosk.enabled)
        XCTAssertEqual(typo.banner?.phrase, .key(.bannerKioskFlagInvalid, ["value": .verbatim("yes")]))
    }

    // MARK: Visitors cannot leave

    func testQuitKeysDoNothingVisible() {
        var s = kiosk()
        XCTAssertEqual(KeyMap.action(for: .char("q"), in: s), .quit)
        XCTAssertEqual(KeyMap.action(for: .ctrl("c"), in: s), .quit)
        send(&s, .quit)
        // In raw mode Ctrl-Z and Ctrl-\ arrive as keys; nothing takes them.
        XCTAssertNil(KeyMap.action(for: .ctrl("z"), in: s))
        XCTAssertNil(KeyMap.action(for: .char("\u{1C}"), in: s))
        // Over a box too (the key help).
        send(&s, .showHelp) { $0.overlay = .help(firstRun: false) }
        XCTAssertEqual(KeyMap.action(for: .char("q"), in: s), .quit)
        send(&s, .quit)
    }

    /// Issue 33 #3: dead keys are not advertised. In a kiosk the hint line and the key help
    /// (the welcome too) leave out q and Ctrl-C, in every language; once staff gave the code,
    /// and outside kiosk mode, they are back.
    func testAKioskDoesNotAdvertiseTheKeysThatCannotQuit() {
        for language in ["en", "ko", "zh-Hant", "fr"] {
            var s = kiosk()
            s.language = Language.fromTag(language)!
            let quit = s.strings(.hintsList).components(separatedBy: " · ").last!
            XCTAssertTrue(quit.hasPrefix("q "), language)
            let line = RootView.render(s, size: big).row(big.height - 1)
            XCTAssertTrue(line.contains(s.strings(.hintsList).components(separatedBy: " · ")[0]), "\(language): \(line)")
            XCTAssertFalse(line.contains(quit), "\(language): \(line)")
            // The key help (and the welcome, which shows it): every other general key is there.
            let general = HelpSection(title: "", table: s.strings(.helpKeys)).lines.map(\.keys)
            let shown = HelpSection.current(s).flatMap(\.lines).map(\.keys)
            XCTAssertEqual(general.filter { !shown.contains($0) }.count, 1, "\(language): \(shown)")
            XCTAssertFalse(shown.contains { $0.contains("Ctrl-C") }, "\(language): \(shown)")
            XCTAssertTrue(shown.contains(general[0]), "\(language): \(shown)")
            // Unlocked by staff: quitting works, and is said again.
            s.kiosk.unlocked = true
            XCTAssertTrue(HelpSection.current(s).flatMap(\.lines).contains { $0.keys.contains("Ctrl-C") }, language)
            XCTAssertTrue(RootView.render(s, size: big).row(big.height - 1).contains(quit), language)
        }
        var plain = UIFixtures.loadedState(size: big, config: [:])
        plain.overlay = nil
        let quit = plain.strings(.hintsList).components(separatedBy: " · ").last!
        XCTAssertTrue(RootView.render(plain, size: big).row(big.height - 1).contains(quit))
    }

    func testTheSystemCanStillStopTheGuide() {
        var s = kiosk()
        send(&s, .terminate, effects: [.persist(s.settings), .quit]) { $0.quitting = true }
    }

    func testStaffQuitWithCtrlXTheCodeAndEnter() {
        var s = kiosk()
        XCTAssertEqual(KeyMap.action(for: .ctrl("x"), in: s), .kiosk(.staffKey))
        send(&s, .kiosk(.staffKey)) { $0.kiosk.typed = "" }
        // While the code is typed, digits are not the keypad's.
        XCTAssertEqual(KeyMap.action(for: .char("2"), in: s), .kiosk(.pinTyped("2")))
        XCTAssertEqual(KeyMap.action(for: .enter, in: s), .kiosk(.pinEnter))
        XCTAssertEqual(KeyMap.action(for: .escape, in: s), .kiosk(.pinCancel))
        for (i, c) in "2468".enumerated() {
            send(&s, .kiosk(.pinTyped(c))) { $0.kiosk.typed = String("2468".prefix(i + 1)) }
        }
        var unlocked = s
        unlocked.kiosk.typed = nil
        unlocked.kiosk.unlocked = true
        send(&s, .kiosk(.pinEnter), effects: [.persist(unlocked.settings), .quit, KioskFeature.effect(.logCode(accepted: true, wrongInARow: 0, lockSeconds: nil))]) {
            $0.kiosk.typed = nil
            $0.kiosk.unlocked = true
            $0.quitting = true
        }
    }

    func testAWrongCodeIsForgottenAndQuitStaysRefused() {
        var s = kiosk()
        keys(&s, [.ctrl("x"), .char("1"), .char("2"), .enter])
        XCTAssertNil(s.kiosk.typed)
        XCTAssertFalse(s.kiosk.unlocked)
        send(&s, .quit)
        // Any other key while typing forgets the code: the digits go to the keypad again.
        keys(&s, [.ctrl("x"), .char("2"), .escape])
        XCTAssertNil(s.kiosk.typed)
        XCTAssertEqual(KeyMap.action(for: .char("2"), in: s), .keypadDigit("2"))
    }

    func testNoCodeConfiguredMeansNoStaffQuitFromTheKeyboard() {
        var config = Self.config
        config["kiosk_pin"] = nil
        var s = kiosk(config: config)
        XCTAssertNil(KeyMap.action(for: .ctrl("x"), in: s))
        send(&s, .kiosk(.staffKey))
    }

    // MARK: Idle

    func testEveryInputStartsTheIdleTimeAgain() {
        var s = kiosk()
        send(&s, .visitorInput, effects: [Self.idleTimer])
    }

    func testNothingHappensWhileSomethingPlays() {
        var s = playing(kiosk(), status: .playing)
        s.player.snapshot.position = 10
        send(&s, .kiosk(.idle), effects: [Self.idleTimer]) { $0.kiosk.heardAt = 10 }
        // Buffering after it moved on: a hiccup, still someone listening.
        s.player.snapshot.status = .buffering
        s.player.snapshot.position = 40
        send(&s, .kiosk(.idle), effects: [Self.idleTimer]) { $0.kiosk.heardAt = 40 }
    }

    /// Issue 34: a clip stuck "Loading…" (a server sending a byte every half second) kept the
    /// kiosk from starting over forever; so did buffering that never moves. Neither is
    /// someone listening.
    func testAClipThatIsNotPlayingDoesNotHoldTheKiosk() {
        var loading = playing(kiosk(), status: .loading)
        prepare(&loading, .kiosk(.idle))
        XCTAssertEqual(KioskFeature.overlay(in: loading), .waiting)
        var stuck = playing(kiosk(), status: .buffering)
        stuck.player.snapshot.position = 12
        prepare(&stuck, .kiosk(.idle))
        XCTAssertNil(KioskFeature.overlay(in: stuck), "it moved since it started: a hiccup")
        prepare(&stuck, .kiosk(.idle))
        XCTAssertEqual(KioskFeature.overlay(in: stuck), .waiting, "no progress since the last look")
    }

    /// Issue 34: the staff code had no lockout (a script found it in 17 s). After three wrong
    /// codes no code is looked at for 30 s, doubling with each wrong one after; every attempt
    /// goes to the log. Issue 45 #8: the lock is the loop's timer (monotonic seconds), not
    /// `state.now` (which moves only on the 30 s tick, so a lock ended after 2 s): a tick,
    /// whatever its time, does not end it; and each wrong code is saved.
    func testWrongCodesLockOutWithAGrowingDelayAndAreLogged() {
        var s = kiosk()
        func code(_ c: String) -> [Effect] {
            keys(&s, [.ctrl("x")] + c.map { Key.char($0) })
            return prepare(&s, .kiosk(.pinEnter))
        }
        func wrong(_ n: Int, lock: Double?) -> [Effect] {
            var saved = s
            saved.kiosk.wrongCodes = n
            let timer = lock.map { [Effect.timer(.kioskLock, milliseconds: Int($0 * 1000), action: .kiosk(.lockOver))] } ?? []
            return [KioskFeature.effect(.logCode(accepted: false, wrongInARow: n, lockSeconds: lock))] + timer + [.persist(saved.settings)]
        }
        XCTAssertEqual(code("1111"), wrong(1, lock: nil))
        XCTAssertEqual(s.settings.saves[KioskFeature.self], KioskSaved(wrongCodes: 1), "each wrong code is saved")
        XCTAssertEqual(code("1112"), wrong(2, lock: nil))
        XCTAssertFalse(s.kiosk.locked)
        XCTAssertEqual(code("1113"), wrong(3, lock: 30))
        XCTAssertTrue(s.kiosk.locked)
        // The right code while locked out is not looked at, however the wall clock moves.
        XCTAssertEqual(code("2468"), [KioskFeature.effect(.logRefused(wrongInARow: 3))])
        prepare(&s, .tick(s.now.addingTimeInterval(3_600)))
        XCTAssertEqual(code("2468"), [KioskFeature.effect(.logRefused(wrongInARow: 3))], "a tick does not end the lock")
        XCTAssertFalse(s.kiosk.unlocked)
        XCTAssertTrue(s.kiosk.locked)
        // The lock's timer ends it; a wrong code then doubles it.
        send(&s, .kiosk(.lockOver)) { $0.kiosk.locked = false }
        XCTAssertEqual(code("0000"), wrong(4, lock: 60))
        XCTAssertEqual(KioskFeature.lockSeconds(afterWrong: 2), 0)
        XCTAssertEqual(KioskFeature.lockSeconds(afterWrong: 40), 3_600)
        // And the right one once the lock is over: the count is cleared (saved by quitting).
        prepare(&s, .kiosk(.lockOver))
        let effects = code("2468")
        XCTAssertEqual(effects.last, KioskFeature.effect(.logCode(accepted: true, wrongInARow: 0, lockSeconds: nil)))
        XCTAssertTrue(s.kiosk.unlocked)
        XCTAssertEqual(s.kiosk.wrongCodes, 0)
        XCTAssertTrue(effects.contains(.persist(s.settings)))
        XCTAssertNil(s.settings.saves[KioskFeature.self])
    }

    /// Issue 45 #8: wrong codes kept from the last run come back, and a count at or past the
    /// free tries locks codes out again, for its whole time, from the start (a restart never
    /// shortens a lock). A damaged saved count is bounded.
    func testAfterARestartTheWrongCodesAndTheirLockComeBack() {
        func launch(_ wrong: Int) -> (AppState, [Effect]) {
            var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
            s.config = Self.config
            var saves = FeatureSaves()
            saves[KioskFeature.self] = KioskSaved(wrongCodes: wrong)
            let effects = prepare(&s, .launched(restored: PersistedSettings(introSeen: true, saves: saves), languageOverride: nil))
            return (s, effects.filter { if case .timer = $0 { return true } else { return false } })
        }
        var (s, timers) = launch(3)
        XCTAssertEqual(s.kiosk.wrongCodes, 3)
        XCTAssertTrue(s.kiosk.locked)
        XCTAssertEqual(timers, [Self.idleTimer, .timer(.kioskLock, milliseconds: 30_000, action: .kiosk(.lockOver))])
        keys(&s, [.ctrl("x"), .char("2"), .char("4"), .char("6"), .char("8")])
        XCTAssertEqual(prepare(&s, .kiosk(.pinEnter)), [KioskFeature.effect(.logRefused(wrongInARow: 3))])
        XCTAssertFalse(s.kiosk.unlocked)

        (s, timers) = launch(2)
        XCTAssertEqual(s.kiosk.wrongCodes, 2)
        XCTAssertFalse(s.kiosk.locked)
        XCTAssertEqual(timers, [Self.idleTimer])
        keys(&s, [.ctrl("x"), .char("9"), .enter])
        XCTAssertTrue(s.kiosk.locked, "the third wrong code, counting the last run's two, locks")

        (s, timers) = launch(Int.max)
        XCTAssertEqual(s.kiosk.wrongCodes, KioskFeature.mostWrongCodes)
        XCTAssertEqual(timers.last, .timer(.kioskLock, milliseconds: 3_600_000, action: .kiosk(.lockOver)))
    }

    /// The idle time counts from the end of what played.
    func testTheEndOfPlaybackStartsTheIdleTimeAgain() {
        var s = playing(kiosk(), status: .playing)
        var ended = s.player.snapshot
        ended.status = .ended
        let effects = prepare(&s, .playerSnapshot(ended))
        XCTAssertEqual(effects.filter { if case .timer(.kioskIdle, _, _) = $0 { return true } else { return false } }, [Self.idleTimer])
    }

    /// After the idle time with nothing playing: Home, the default language, the sound stopped,
    /// the tour place, the keypad's digits and the search forgotten, and the waiting screen.
    func testIdleStartsOverForTheNextVisitor() throws {
        var s = kiosk()
        // The last visitor: Spanish, a page open on Info, a tour place, digits, a search, a
        // paused recording at a lower volume.
        prepare(&s, .setLanguage(.spanish))
        prepare(&s, .selectTab(.search))
        keys(&s, [.char("x")])
        prepare(&s, .selectTab(.info))
        Reducer.push(&s, .about)
        s.progress.current = TourProgress(tourID: 1, stopIndex: 0, seconds: 12, language: .spanish, mode: .guided)
        s.progress.started = [1]
        s.keypad.input = "12"
        s = playing(s, status: .paused)
        s.player.volume = 0.5
        s.banner = Banner(.key(.memberSignedOut))
        XCTAssertNotEqual(s.search.query, "")

        var expected = s
        expected.tab = .home
        expected.stacks = [:]
        expected.language = .english
        expected.chosenLanguage = nil
        expected.banner = nil
        expected.overlay = KioskFeature.show(.waiting)
        expected.progress = ListeningProgress()
        expected.keypad = KeypadState()
        let token = s.player.nextToken
        expected.player = PlayerState()
        expected.player.nextToken = token
        expected.player.snapshot = PlayerSnapshot(token: s.player.snapshot.token, volume: 0.8)
        expected.search.query = ""
        expected.search.results = nil
        expected.search.selection = 0
        expected.search.filter = .all
        expected.search.returnTab = nil
        expected.search.live = LiveSearchState()
        expected.search.live.status = s.search.live.status == .off ? .off : .idle
        expected.search.live.token = s.search.live.token + 1
        // An answer to a sign-in still under way is for the last visitor: ignored.
        expected.member.token += 1
        var saved = expected
        saved.overlay = nil
        send(&s, .kiosk(.idle), effects: [.audio(.stop), .audio(.volume(0.8)), .persist(saved.settings)]) { $0 = expected }
        XCTAssertNil(s.settings.language, "no language choice is kept: the next start follows the default")
        XCTAssertNil(s.settings.saves[TourFeature.self], "the tour place is not kept for the next visitor")
    }

    func testAnyKeyOnTheWaitingScreenOpensHomeAndDoesNothingElse() {
        var s = kiosk()
        prepare(&s, .kiosk(.idle))
        for k: Key in [.char("q"), .char("5"), .enter, .ctrl("c"), .escape, .tab, .char("L")] {
            XCTAssertEqual(KeyMap.action(for: k, in: s), .kiosk(.wake), "\(k)")
        }
        // Home, with the welcome a first start shows: the next visitor is new here.
        send(&s, .kiosk(.wake)) {
            $0.overlay = .help(firstRun: true)
            $0.overlayScroll = 0
        }
        XCTAssertEqual(s.tab, .home)
        // A click anywhere on it does the same.
        prepare(&s, .kiosk(.idle))
        let screen = RootView.render(s, size: big)
        XCTAssertEqual(KeyMap.click(x: 3, y: 20, on: screen), .kiosk(.wake))
    }

    // MARK: The daily reload

    /// 2026-11-22 at `hour`:`minute` UTC, plus `days`.
    func utc(_ hour: Int, _ minute: Int, days: Int = 0) -> Date {
        UIFixtures.now.addingTimeInterval(Double(days * 86_400 + (hour - 12) * 3600 + minute * 60))
    }

    func reloading(_ effects: [Effect]) -> Bool { effects.contains(.loadDocument(source: "/museum/appData.json")) }

    /// `kiosk_reload_at` in museum time (Chicago: UTC−6 in November): due once the time has
    /// passed, done at once when nobody is there, else when the guide next starts over; once a
    /// day; a reload that fails keeps the museum on screen and says so.
    func testTheDailyReloadWaitsUntilNobodyIsThereAndHappensOnceADay() throws {
        var config = Self.config
        config["kiosk_reload_at"] = "07:30"
        var s = kiosk(config: config)
        s.timeZone = try XCTUnwrap(TimeZone(identifier: "America/Chicago"))
        XCTAssertEqual(s.kiosk.reloadAt, TimeOfDay(hour: 7, minute: 30))
        XCTAssertNil(s.banner)

        // 07:29 museum time: not yet. 07:31 with a visitor there: due, not done.
        XCTAssertFalse(reloading(prepare(&s, .tick(utc(13, 29)))))
        XCTAssertFalse(s.kiosk.reloadDue)
        XCTAssertFalse(reloading(prepare(&s, .tick(utc(13, 31)))))
        XCTAssertTrue(s.kiosk.reloadDue)
        XCTAssertEqual(s.kiosk.reloadCheckedAt, utc(13, 31))
        // The visitor leaves: the guide starts over, then reloads.
        let idle = prepare(&s, .kiosk(.idle))
        XCTAssertTrue(reloading(idle), "\(idle)")
        XCTAssertEqual(s.overlay, KioskFeature.show(.waiting))
        XCTAssertFalse(s.kiosk.reloadDue)
        // Once a day: later ticks that day do nothing.
        XCTAssertFalse(reloading(prepare(&s, .tick(utc(13, 32)))))
        XCTAssertFalse(reloading(prepare(&s, .tick(utc(23, 0)))))
        // The next day, with nobody there (the waiting screen): at once.
        XCTAssertFalse(reloading(prepare(&s, .tick(utc(13, 29, days: 1)))))
        XCTAssertTrue(reloading(prepare(&s, .tick(utc(13, 30, days: 1)))))
        XCTAssertFalse(s.kiosk.reloadDue)

        // The reload fails (the server is down, no copy kept): the museum stays, a banner says why.
        let before = s.document
        prepare(&s, .documentLoaded(.failure(LoadFailure("cannot reach museum.example")), note: nil))
        XCTAssertEqual(s.document, before)
        XCTAssertNotNil(s.museum)
        XCTAssertEqual(s.banner?.phrase, .key(.bannerReloadFailed, ["reason": .verbatim("cannot reach museum.example")]))
        for (lang, size, name) in [(Language.english, big, "kiosk-reload-failed-80x24"), (.korean, small, "kiosk-reload-failed-ko-40x12")] {
            var t = s
            t.overlay = nil
            t.language = lang
            prepare(&t, .viewportChanged(rows: RootView.viewport(for: size).rows, width: RootView.viewport(for: size).width))
            assertSnapshot(RootView.render(t, size: size), named: name)
        }
    }

    /// A guide started after the reload time does not reload that day; the machine asleep over
    /// several reload times reloads once when it wakes.
    func testAStartAfterTheTimeWaitsForTomorrowAndASleepCatchesUpOnce() throws {
        var config = Self.config
        config["kiosk_reload_at"] = "05:00"
        var s = kiosk(config: config)
        s.timeZone = try XCTUnwrap(TimeZone(identifier: "America/Chicago"))
        prepare(&s, .kiosk(.idle))
        XCTAssertFalse(reloading(prepare(&s, .tick(utc(12, 30)))), "started at 06:00, after 05:00")
        XCTAssertTrue(reloading(prepare(&s, .tick(utc(12, 0, days: 3)))), "asleep for three days: one reload")
        XCTAssertFalse(reloading(prepare(&s, .tick(utc(12, 1, days: 3)))))
    }

    func testAnUnusableReloadTimeIsSaidAndNoReloadHappens() {
        for bad in ["25:00", "6am", "06:0", "06:60", "", "０６:００", "-1:30"] {
            var config = Self.config
            config["kiosk_reload_at"] = bad
            var s = kiosk(config: config)
            XCTAssertNil(s.kiosk.reloadAt, bad)
            XCTAssertEqual(s.banner?.phrase, .key(.bannerKioskReloadInvalid, ["value": .verbatim(bad)]), bad)
            prepare(&s, .kiosk(.idle))
            XCTAssertFalse(reloading(prepare(&s, .tick(utc(12, 0, days: 1)))), bad)
        }
        XCTAssertEqual(TimeOfDay("6:30"), TimeOfDay(hour: 6, minute: 30))
        XCTAssertEqual(TimeOfDay(" 23:59 "), TimeOfDay(hour: 23, minute: 59))
        // Outside kiosk mode the key does nothing.
        var plain = UIFixtures.loadedState(config: ["kiosk_reload_at": "05:00"])
        XCTAssertFalse(reloading(prepare(&plain, .tick(utc(12, 0, days: 1)))))
    }

    /// A reload time that does not exist one day (clocks spring forward over it) falls on the
    /// next existing time, not on no day at all.
    func testAReloadTimeInASpringForwardGapStillHappens() throws {
        let chicago = try XCTUnwrap(TimeZone(identifier: "America/Chicago"))
        let f = ISO8601DateFormatter()
        let before = try XCTUnwrap(f.date(from: "2027-03-14T06:00:00Z"))  // 00:00 CST, the day clocks jump 02:00 → 03:00
        let next = try XCTUnwrap(TimeOfDay(hour: 2, minute: 30)?.next(after: before, in: chicago))
        XCTAssertLessThan(next.timeIntervalSince(before), 86_400)
        XCTAssertGreaterThan(next, before)
    }

    // MARK: Screens

    func testWaitingScreenSnapshots() {
        var s = kiosk()
        prepare(&s, .kiosk(.idle))
        assertSnapshot(RootView.render(s, size: big), named: "kiosk-waiting-80x24")
        var t = kiosk(size: small)
        prepare(&t, .kiosk(.idle))
        assertSnapshot(RootView.render(t, size: small), named: "kiosk-waiting-40x12")
    }

    // MARK: Helpers

    /// `s` with a recording loaded in `status`.
    func playing(_ s: AppState, status: PlaybackStatus) -> AppState {
        var s = s
        let id = s.museum?.audioFiles.keys.sorted().first ?? 0
        _ = PlayerFeature.play(&s, audioID: id, artworkID: nil, tourID: nil, language: .english)
        s.player.snapshot.status = status
        return s
    }
}

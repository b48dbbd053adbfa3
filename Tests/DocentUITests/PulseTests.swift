import Foundation
import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Visitor Pulse in the guide: the box `f` opens, reactions, the editor, the notes list.
final class PulseTests: XCTestCase {
    let big = Size(width: 80, height: 24)
    let small = RootView.minimumSize
    let creds = VisitorCredentials(visitor: VisitorID("visitor01")!, secret: "s")

    func ready(_ language: Language = .english, size: Size? = nil) -> AppState {
        var s = UIFixtures.loadedState(language: language, size: size ?? big)
        prepare(&s, .pulse(.opened(.success(creds))))
        prepare(&s, .pulse(.checked(.success(PulseSnapshot(version: PulseVersion(3), counts: [.museum: PulseCounts(up: 4, down: 9)], noteCounts: [.museum: 2], takenAt: s.now)))))
        // On Info, where no row is a work, a tour or an exhibition: `f` is about the museum.
        s.tab = .info
        return s
    }

    func key(_ s: inout AppState, _ k: Key) -> [Effect] {
        pressKey(&s, k)
    }

    func note(_ seq: UInt64, _ text: String, minutesAgo: Double, _ s: AppState, lang: Language = .english, up: Int = 0, down: Int = 0, author: NoteAuthor = .visitor) -> PulseNote {
        PulseNote(
            id: NoteID(visitor: VisitorID("other0001")!, sequence: seq), subject: .museum, language: lang, text: text,
            createdAt: s.now.addingTimeInterval(-minutesAgo * 60), author: author, counts: PulseCounts(up: up, down: down))
    }

    func testLaunchOpensTheStoreWithTheSavedIdentity() {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        let saved = PulseIdentity(credentials: creds, nextSequence: 5)
        var settings = PersistedSettings(introSeen: true)
        settings.saves[PulseFeature.self] = saved
        let effects = prepare(&s, .launched(restored: settings, languageOverride: nil))
        XCTAssertTrue(effects.contains(.pulse(.open(.defaultFile, identity: creds, seed: "/museum/pulse/seed.json"))), "\(effects)")
        XCTAssertEqual(s.pulse.identity, saved)
    }

    func testOpenedKeepsANewIdentityAndStartsTheChangeCheck() {
        var s = UIFixtures.loadedState()
        var after = s
        after.pulse.identity = PulseIdentity(credentials: creds, nextSequence: 0)
        XCTAssertEqual(after.settings.saves[PulseFeature.self], after.pulse.identity)
        send(
            &s, .pulse(.opened(.success(creds))),
            // Saved last: `.persist` is applied after the feature's own effects (issue 28).
            effects: [
                .pulse(.check(viewer: creds.visitor, dayStart: PulseFeature.dayStart(FeatureContext(s)), since: nil)),
                .timer(PulseFeature.checkTimer, milliseconds: 5000, action: .pulse(.check)),
                .persist(after.settings),
            ]
        ) {
            $0.pulse.ready = true
            $0.pulse.identity = PulseIdentity(credentials: self.creds, nextSequence: 0)
            $0.pulse.checking = true
        }
    }

    /// Issue 34: a store that cannot be opened at start (locked for 20 s, a damaged file, a
    /// full disk) is tried again with a growing delay, and the visitor is told why instead of
    /// "still starting" for the rest of the session.
    func testAStoreThatCannotBeOpenedIsTriedAgainWithBackoffAndTheReasonIsSaid() {
        var s = UIFixtures.loadedState()
        let locked = PulseStoreError.unavailable("database is locked")
        let reopen = AppAction.pulse(.reopen)
        send(&s, .pulse(.opened(.failure(locked))), effects: [.timer(PulseFeature.reopenTimer, milliseconds: 2_000, action: reopen)]) {
            $0.banner = Banner(locked.phrase, level: .warning)
            $0.pulse.openFailure = locked
            $0.pulse.openAttempts = 1
        }
        send(&s, reopen, effects: [.pulse(.open(.defaultFile, identity: nil, seed: PulseFeature.seedPath(FeatureContext(s))))])
        send(&s, .pulse(.opened(.failure(locked))), effects: [.timer(PulseFeature.reopenTimer, milliseconds: 4_000, action: reopen)]) {
            $0.pulse.openAttempts = 2
        }
        // Anything tried meanwhile says what is wrong.
        XCTAssertEqual(PulseFeature.notReady(s.pulse), Banner(locked.phrase, level: .warning))
        XCTAssertEqual(PulseFeature.reopenMilliseconds(after: 5), 32_000)
        XCTAssertEqual(PulseFeature.reopenMilliseconds(after: 50), 60_000)
        // Open at last: ready, the failure forgotten, the backoff reset.
        prepare(&s, .pulse(.opened(.success(creds))))
        XCTAssertTrue(s.pulse.ready)
        XCTAssertNil(s.pulse.openFailure)
        XCTAssertNil(s.banner, "the reason is no longer true")
        XCTAssertEqual(s.pulse.openAttempts, 0)
        send(&s, reopen)
    }

    func testChangeCheckAsksSinceTheVersionAndRedrawsNothingWhenUnchanged() {
        var s = ready()
        send(&s, .pulse(.check), effects: [.timer(PulseFeature.checkTimer, milliseconds: 5000, action: .pulse(.check)), .pulse(.check(viewer: creds.visitor, dayStart: PulseFeature.dayStart(FeatureContext(s)), since: PulseVersion(3)))]) {
            $0.pulse.checking = true
        }
        // One at a time: a second tick while the first is out only re-arms the timer.
        send(&s, .pulse(.check), effects: [.timer(PulseFeature.checkTimer, milliseconds: 5000, action: .pulse(.check))])
        let before = RootView.render(s, size: big)
        send(&s, .pulse(.checked(.success(nil)))) { $0.pulse.checking = false }
        XCTAssertEqual(RootView.render(s, size: big), before, "no change, the same frame (so no bytes to the terminal)")
    }

    /// While a recording plays the next check is 15 s away, not 5 (issue 48: the guide's CPU
    /// while playing); once it stops, 5 s again.
    func testWhileARecordingPlaysTheCheckComesEveryFifteenSeconds() {
        var s = ready()
        s.player.track = Track(audioID: 11, artworkID: 100, tourID: nil, language: .english, requested: .english,
                               title: "Harbor at Dawn", url: "/museum/audio/11.mp3", transcript: "")
        s.player.snapshot.status = .playing
        send(&s, .pulse(.check), effects: [.timer(PulseFeature.checkTimer, milliseconds: 15_000, action: .pulse(.check)), .pulse(.check(viewer: creds.visitor, dayStart: PulseFeature.dayStart(FeatureContext(s)), since: PulseVersion(3)))]) {
            $0.pulse.checking = true
        }
        send(&s, .pulse(.checked(.success(nil)))) { $0.pulse.checking = false }
        s.player.snapshot.status = .paused
        send(&s, .pulse(.check), effects: [.timer(PulseFeature.checkTimer, milliseconds: 5000, action: .pulse(.check)), .pulse(.check(viewer: creds.visitor, dayStart: PulseFeature.dayStart(FeatureContext(s)), since: PulseVersion(3)))]) {
            $0.pulse.checking = true
        }
    }

    /// A check that cannot reach the store says so above the status line (in the visitor's
    /// language) until one succeeds; a refusal (bad identity) is not "offline".
    func testAnUnreachableStoreIsSaidUntilACheckSucceeds() {
        var s = ready()
        send(&s, .pulse(.check), effects: [.timer(PulseFeature.checkTimer, milliseconds: 5000, action: .pulse(.check)), .pulse(.check(viewer: creds.visitor, dayStart: PulseFeature.dayStart(FeatureContext(s)), since: PulseVersion(3)))]) {
            $0.pulse.checking = true
        }
        send(&s, .pulse(.checked(.failure(.unavailable("Pulse at http://pulse.local: connection refused"))))) {
            $0.pulse.checking = false
            $0.pulse.offline = true
        }
        let line = s.strings(.pulseOffline)
        XCTAssertEqual(PulseFeature.rows(for: .aboveStatus, s).map(\.text), [line])
        for (lang, size, name) in [(Language.english, big, "pulse-offline-80x24"), (.english, small, "pulse-offline-40x12"), (.korean, big, "pulse-offline-ko-80x24")] {
            var t = s
            t.language = lang
            prepare(&t, .viewportChanged(rows: RootView.viewport(for: size).rows, width: RootView.viewport(for: size).width))
            assertSnapshot(RootView.render(t, size: size), named: name)
        }
        s.pulse.checking = true
        send(&s, .pulse(.checked(.failure(.badCredentials)))) { $0.pulse.checking = false }
        s.pulse.checking = true
        send(&s, .pulse(.checked(.success(nil)))) {
            $0.pulse.checking = false
            $0.pulse.offline = false
        }
        XCTAssertEqual(PulseFeature.rows(for: .aboveStatus, s).map(\.text), [])
    }

    /// A store never reached since the start (the service down when the guide opened): the
    /// guide still takes reactions, which the store keeps in its outbox; the first snapshot
    /// asks for everything (no store has the empty picture's version).
    func testAStoreNeverReachedStillTakesReactions() {
        var s = UIFixtures.loadedState()
        prepare(&s, .pulse(.opened(.success(creds))))
        send(&s, .pulse(.checked(.failure(.unavailable("Pulse at http://pulse.local: connection refused"))))) {
            $0.pulse.checking = false
            $0.pulse.offline = true
            $0.pulse.snapshot = PulseSnapshot(version: PulseFeature.unknownVersion, takenAt: UIFixtures.now)
        }
        s.tab = .info
        _ = key(&s, .char("f"))
        send(&s, .pulse(.choose(1)), effects: [.pulse(.react(.up, .museum, creds))]) {
            $0.pulse.snapshot?.mine[.museum] = .up
            $0.pulse.snapshot?.counts[.museum] = PulseCounts(up: 1)
            $0.banner = Banner(.key(.pulseReacted))
        }
        let today = PulseFeature.dayStart(FeatureContext(s))
        send(&s, .pulse(.check), effects: [
            .timer(PulseFeature.checkTimer, milliseconds: 5000, action: .pulse(.check)),
            .pulse(.check(viewer: creds.visitor, dayStart: today, since: PulseFeature.unknownVersion)),
        ]) { $0.pulse.checking = true }
        // A later failure keeps what the visitor did.
        send(&s, .pulse(.checked(.failure(.unavailable("still down"))))) { $0.pulse.checking = false }
    }

    func testFOpensTheBoxForWhatIsOpen() {
        var s = ready()
        XCTAssertEqual(key(&s, .char("f")), [])
        XCTAssertEqual(s.overlay, PulseFeature.show(.box(.museum)))
        prepare(&s, .dismissOverlay)
        s.tab = .home
        s.stacks[.home] = [Page(.home), Page(HomeFeature.route(.exhibition(7101)))]
        _ = key(&s, .char("f"))
        XCTAssertEqual(s.overlay, PulseFeature.show(.box(.exhibition(7101))))
        prepare(&s, .dismissOverlay)
        // Issue 33 #9: on a list, the highlighted tour, exhibition or work (it opened the
        // museum's box with a tour highlighted on Home).
        s.stacks[.home] = [Page(.home)]
        let rows = Reducer.rows(s) ?? []
        for (i, row) in rows.enumerated() {
            guard let subject = PulseFeature.highlighted(row) else { continue }
            s.page.selection = i
            _ = key(&s, .char("f"))
            XCTAssertEqual(s.overlay, PulseFeature.show(.box(subject)), row.text)
            prepare(&s, .dismissOverlay)
        }
        XCTAssertTrue(rows.contains { PulseFeature.highlighted($0)?.kind == "tour" }, "Home lists a tour")
        XCTAssertTrue(rows.contains { PulseFeature.highlighted($0)?.kind == "exhibition" }, "Home lists an exhibition")
        // A row about nothing Pulse knows (Info's): the museum.
        s.tab = .info
        _ = key(&s, .char("f"))
        XCTAssertEqual(s.overlay, PulseFeature.show(.box(.museum)))
    }

    func testLikeThenSameAgainWithdrawsAndDigitsPick() {
        var s = ready()
        _ = key(&s, .char("f"))
        send(&s, .pulse(.choose(1)), effects: [.pulse(.react(.up, .museum, creds))]) {
            $0.pulse.snapshot?.mine[.museum] = .up
            $0.pulse.snapshot?.counts[.museum] = PulseCounts(up: 5, down: 9)
            $0.banner = Banner(.key(.pulseReacted))
        }
        XCTAssertEqual(KeyMap.action(for: .char("3"), in: s), .pulse(.choose(3)))
        XCTAssertEqual(KeyMap.action(for: .char("9"), in: s), nil)
        send(&s, .pulse(.choose(1)), effects: [.pulse(.react(nil, .museum, creds))]) {
            $0.pulse.snapshot?.mine[.museum] = nil
            $0.pulse.snapshot?.counts[.museum] = PulseCounts(up: 4, down: 9)
            $0.banner = Banner(.key(.pulseWithdrawn))
        }
        // Arrows and Enter too.
        _ = key(&s, .down)
        _ = key(&s, .down)
        XCTAssertEqual(key(&s, .enter), [.pulse(.react(.down, .museum, creds))])
        send(&s, .pulse(.reacted(.museum, .success(PulseCounts(up: 4, down: 10))))) { $0.pulse.snapshot?.counts[.museum] = PulseCounts(up: 4, down: 10) }
    }

    func testBeforeTheStoreIsReadyAReactionSaysSo() {
        var s = UIFixtures.loadedState()
        _ = key(&s, .char("f"))
        send(&s, .pulse(.choose(2))) {
            $0.pulse.boxSelection = 1
            $0.banner = Banner(.key(.pulseNotReady), level: .warning)
        }
    }

    func testRateLimitIsAPlainSentence() {
        var s = ready()
        send(&s, .pulse(.reacted(.museum, .failure(.rateLimited(.reactions(retryAfter: 40)))))) {
            $0.banner = Banner(.key(.pulseErrorReactionsLimit, ["seconds": .verbatim("40")]), level: .warning)
            $0.pulse.snapshot?.version = PulseVersion(2)
        }
        XCTAssertEqual(s.banner?.text(s.strings), "That was a lot of reactions at once; please wait 40 s and try again.")
    }

    func testEditorWideCharactersCursorAndDraftKeptOnEsc() {
        var s = ready()
        _ = key(&s, .char("f"))
        _ = key(&s, .char("4"))
        XCTAssertEqual(s.overlay, PulseFeature.show(.editor(.museum)))
        for k: Key in [.char("画"), .char("a"), .left, .char("b"), .char(" "), .char("q"), .char("?"), .home, .char("x"), .end, .backspace] { _ = key(&s, k) }
        XCTAssertEqual(s.pulse.draft, "x画b q?")
        XCTAssertEqual(s.pulse.draft.count, 6)
        XCTAssertEqual(NoteText.cells(s.pulse.draft), 7)
        _ = key(&s, .escape)
        XCTAssertNil(s.overlay)
        _ = key(&s, .char("f"))
        _ = key(&s, .char("4"))
        XCTAssertEqual(s.pulse.draft, "x画b q?", "Esc kept the draft")
        // Typing stops at 280 cells.
        prepare(&s, .pulse(.typed(String(repeating: "画", count: 200))))
        XCTAssertEqual(NoteText.cells(s.pulse.draft), 279)
    }

    func testSendPostsWithAClientIDAndClosesOnSuccess() {
        var s = ready()
        _ = key(&s, .char("f"))
        _ = key(&s, .char("4"))
        prepare(&s, .pulse(.typed("Lovely blue")))
        let seq = UInt64(s.now.timeIntervalSince1970 * 1000)
        let draft = NoteDraft(id: NoteID(visitor: creds.visitor, sequence: seq), subject: .museum, language: .english, text: "Lovely blue")
        let effects = key(&s, .enter)
        XCTAssertEqual(effects.first, .pulse(.post(draft, creds)))
        XCTAssertEqual(s.pulse.identity?.nextSequence, seq + 1)
        XCTAssertTrue(s.pulse.sending)
        XCTAssertEqual(key(&s, .enter), [], "no second send while the first is out")
        let stored = PulseNote(id: draft.id, subject: .museum, language: .english, text: "Lovely blue", createdAt: s.now)
        send(&s, .pulse(.posted(.success(.created(stored))))) {
            $0.pulse.sending = false
            $0.pulse.draft = ""
            $0.pulse.cursor = 0
            $0.pulse.draftSubject = nil
            $0.banner = Banner(.key(.pulseNoteSent))
            $0.overlay = nil
            $0.pulse.snapshot?.noteCounts[.museum] = 3
        }
    }

    /// Offline, the outbox keeps the note: the editor closes as for a sent note, and the visitor
    /// is told it will go when Pulse is back.
    func testANoteKeptInTheOutboxSaysItWillBeSent() {
        var s = ready()
        _ = key(&s, .char("f"))
        _ = key(&s, .char("4"))
        prepare(&s, .pulse(.typed("Kept for later")))
        _ = key(&s, .enter)
        let seq = UInt64(s.now.timeIntervalSince1970 * 1000)
        let kept = PulseNote(id: NoteID(visitor: creds.visitor, sequence: seq), subject: .museum, language: .english, text: "Kept for later", createdAt: s.now)
        send(&s, .pulse(.posted(.success(.queued(kept))))) {
            $0.pulse.sending = false
            $0.pulse.draft = ""
            $0.pulse.cursor = 0
            $0.pulse.draftSubject = nil
            $0.banner = Banner(.key(.pulseNoteQueued))
            $0.pulse.queuedNote = kept.id
            $0.overlay = nil
            $0.pulse.snapshot?.noteCounts[.museum] = 3
        }
    }

    /// A note written offline, kept in the outbox (its "saved, will be sent" on screen).
    func queuedNote(_ s: inout AppState, _ text: String) -> NoteID {
        _ = key(&s, .char("f"))
        _ = key(&s, .char("4"))
        prepare(&s, .pulse(.typed(text)))
        _ = key(&s, .enter)
        let id = NoteID(visitor: creds.visitor, sequence: UInt64(s.now.timeIntervalSince1970 * 1000))
        prepare(&s, .pulse(.posted(.success(.queued(PulseNote(id: id, subject: .museum, language: .english, text: text, createdAt: s.now))))))
        return id
    }

    /// Issue 33 #8: "Your note is saved and will be sent when Pulse is back." stayed after the
    /// outbox sent the note. While a snapshot has it waiting the sentence is true and stays;
    /// the first one without it says it was sent.
    func testAQueuedNoteSaysItWasSentOnceTheOutboxSentIt() {
        var s = ready()
        let id = queuedNote(&s, "Kept for later")
        let waiting = PulseSnapshot(version: PulseVersion(3), noteCounts: [.museum: 3], takenAt: s.now, waitingNotes: [id])
        send(&s, .pulse(.checked(.success(waiting)))) { $0.pulse.snapshot = waiting }
        let sent = PulseSnapshot(version: PulseVersion(4), noteCounts: [.museum: 3], takenAt: s.now)
        send(&s, .pulse(.checked(.success(sent)))) {
            $0.pulse.snapshot = sent
            $0.pulse.queuedNote = nil
            $0.banner = Banner(.key(.pulseNoteSent))
        }
        XCTAssertEqual(s.banner?.text(s.strings), "Your note was sent.")
        // Later snapshots say nothing more.
        let later = PulseSnapshot(version: PulseVersion(5), noteCounts: [.museum: 3], takenAt: s.now)
        send(&s, .pulse(.checked(.success(later)))) { $0.pulse.snapshot = later }
    }

    /// Another message shown since stays when the note goes (the sentence it replaced is not
    /// on screen); a note the store refused is said whatever shows.
    func testAQueuedNoteSentOrRefusedAfterAnotherMessage() {
        var s = ready()
        _ = queuedNote(&s, "Sent quietly")
        s.banner = Banner(.key(.pulseReacted))
        let sent = PulseSnapshot(version: PulseVersion(4), takenAt: s.now)
        send(&s, .pulse(.checked(.success(sent)))) {
            $0.pulse.snapshot = sent
            $0.pulse.queuedNote = nil
        }
        let id = queuedNote(&s, "Refused later")
        s.banner = Banner(.key(.pulseReacted))
        let refused = PulseSnapshot(version: PulseVersion(5), takenAt: s.now, refusedNotes: [id: .conflict(id)])
        send(&s, .pulse(.checked(.success(refused)))) {
            $0.pulse.snapshot = refused
            $0.pulse.queuedNote = nil
            $0.banner = Banner(.key(.pulseErrorConflict), level: .warning)
        }
    }

    func testEmptyNoteIsNotSent() {
        var s = ready()
        _ = key(&s, .char("f"))
        _ = key(&s, .char("4"))
        prepare(&s, .pulse(.typed("   ")))
        send(&s, .pulse(.send)) { $0.banner = Banner(.key(.pulseErrorEmpty), level: .warning) }
    }

    /// Issue 33 #8: "The note is empty." stayed on screen while the visitor typed. It goes with
    /// the first change to the draft (moving the cursor changes nothing it describes).
    func testTheEmptyNoteWarningGoesWhenTheVisitorTypes() {
        var s = ready()
        _ = key(&s, .char("f"))
        _ = key(&s, .char("4"))
        send(&s, .pulse(.send)) { $0.banner = Banner(.key(.pulseErrorEmpty), level: .warning) }
        send(&s, .pulse(.cursorEnd))
        send(&s, .pulse(.typed("B"))) {
            $0.pulse.draft = "B"
            $0.pulse.cursor = 1
            $0.banner = nil
        }
        // A deletion is a change too; other messages stay while typing.
        prepare(&s, .pulse(.deleteBackward), .pulse(.send))
        XCTAssertEqual(s.banner, Banner(.key(.pulseErrorEmpty), level: .warning))
        prepare(&s, .pulse(.typed("Blue")))
        send(&s, .pulse(.deleteBackward)) { $0.pulse.draft = "Blu"; $0.pulse.cursor = 3 }
        s.banner = Banner(.key(.pulseErrorEmpty), level: .warning)
        send(&s, .pulse(.deleteBackward)) {
            $0.pulse.draft = "Bl"
            $0.pulse.cursor = 2
            $0.banner = nil
        }
        s.banner = Banner(.key(.pulseReacted))
        send(&s, .pulse(.typed("u"))) {
            $0.pulse.draft = "Blu"
            $0.pulse.cursor = 3
        }
    }

    /// ↑/↓ move between the wrapped rows at the same column (at 40 columns a row holds 33
    /// cells: three ten-letter words); on the first row ↑ goes to the start, on the last ↓ to
    /// the end. `cursorTo` is bounded by the draft.
    func testUpAndDownMoveBetweenWrappedRows() {
        var s = ready(size: small)
        _ = key(&s, .char("f"))
        _ = key(&s, .char("4"))
        prepare(&s, .pulse(.typed(Array(repeating: "abcdefghij", count: 6).joined(separator: " "))))
        XCTAssertEqual(s.pulse.cursor, 65)
        XCTAssertEqual(KeyMap.action(for: .up, in: s), .pulse(.cursorTo(32)), "row 2, column 32: the space ending row 1")
        send(&s, .pulse(.cursorTo(32))) { $0.pulse.cursor = 32 }
        XCTAssertEqual(KeyMap.action(for: .up, in: s), .pulse(.cursorHome))
        XCTAssertEqual(KeyMap.action(for: .down, in: s), .pulse(.cursorTo(65)), "past the last row's end: the end")
        send(&s, .pulse(.cursorLeft)) { $0.pulse.cursor = 31 }
        XCTAssertEqual(KeyMap.action(for: .down, in: s), .pulse(.cursorTo(64)))
        var last = s
        last.pulse.cursor = 64
        XCTAssertEqual(KeyMap.action(for: .down, in: last), .pulse(.cursorEnd), "on the last row")
        send(&s, .pulse(.cursorTo(900))) { $0.pulse.cursor = 65 }
        send(&s, .pulse(.cursorTo(-3))) { $0.pulse.cursor = 0 }
        // Wide characters: a row holds 16 (32 cells); column 8 of the second row is the fifth.
        s.pulse.draft = String(repeating: "画", count: 20)
        s.pulse.cursor = 20
        XCTAssertEqual(KeyMap.action(for: .up, in: s), .pulse(.cursorTo(4)))
    }

    func testNotesReportGoneAtOnceAndUndo() {
        var s = ready()
        _ = key(&s, .char("f"))
        XCTAssertEqual(key(&s, .char("5")), [.pulse(.loadNotes(.museum, viewer: creds.visitor))])
        let a = note(1, "first", minutesAgo: 12, s), b = note(2, "second", minutesAgo: 1, s)
        prepare(&s, .pulse(.notesLoaded(.museum, .success([b, a]))))
        _ = key(&s, .down)
        send(&s, .pulse(.report), effects: [.pulse(.report(a.id, true, creds))]) {
            $0.pulse.notes = [b]
            $0.pulse.noteSelection = 0
            $0.pulse.lastReport = a.id
            $0.pulse.snapshot?.myReports = [a.id]
            $0.banner = Banner(.key(.pulseReported))
        }
        XCTAssertEqual(KeyMap.action(for: .char("u"), in: s), .pulse(.undoReport))
        send(&s, .pulse(.undoReport), effects: [.pulse(.report(a.id, false, creds))]) {
            $0.pulse.lastReport = nil
            $0.pulse.snapshot?.myReports = []
            $0.banner = Banner(.key(.pulseReportUndone))
        }
        // The store's answer reloads the list (the note is back).
        send(&s, .pulse(.reported(a.id, .success(false))), effects: [.pulse(.loadNotes(.museum, viewer: creds.visitor))])
    }

    /// Issue 33 #9: a visitor could report their own note; now they are told they cannot.
    func testOnesOwnNoteIsNotReported() {
        var s = ready()
        _ = key(&s, .char("f"))
        _ = key(&s, .char("5"))
        let mine = PulseNote(id: NoteID(visitor: creds.visitor, sequence: 1), subject: .museum, language: .english, text: "mine", createdAt: s.now, author: .visitor, counts: PulseCounts())
        prepare(&s, .pulse(.notesLoaded(.museum, .success([mine]))))
        send(&s, .pulse(.report)) { $0.banner = Banner(.key(.pulseReportOwn), level: .warning) }
    }

    /// Issue 47 #11: a curator's note could be reported; one's own note was not marked as such.
    func testACuratorsNoteIsNotReportedAndOnesOwnIsMarked() {
        var s = ready(size: Size(width: 80, height: 24))
        _ = key(&s, .char("f"))
        _ = key(&s, .char("5"))
        let curator = PulseNote(id: NoteID(visitor: .curator, sequence: 1), subject: .museum, language: .english, text: "From the curator", createdAt: s.now, author: .curator, counts: PulseCounts())
        let mine = PulseNote(id: NoteID(visitor: creds.visitor, sequence: 1), subject: .museum, language: .english, text: "mine", createdAt: s.now, author: .visitor, counts: PulseCounts())
        prepare(&s, .pulse(.notesLoaded(.museum, .success([curator, mine]))))
        send(&s, .pulse(.report)) { $0.banner = Banner(.key(.pulseReportCurator), level: .warning) }
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        let rows = (0..<24).map { screen.row($0) }
        XCTAssertTrue(rows.contains { $0.contains("yours") }, rows.joined(separator: "\n"))
        XCTAssertEqual(rows.filter { $0.contains("yours") }.count, 1, "only one's own note")
    }

    /// Issue 33 #9: after three reports the author's own note vanished for them without a word.
    /// The store still lists it for its author; the list says it is hidden from others until
    /// staff look at it (and says nothing of the kind on another visitor's reported note).
    func testTheAuthorSeesTheirReportedNoteMarkedHiddenFromOthers() {
        var s = ready(size: Size(width: 80, height: 24))
        _ = key(&s, .char("f"))
        _ = key(&s, .char("5"))
        let mine = PulseNote(
            id: NoteID(visitor: creds.visitor, sequence: 2), subject: .museum, language: .english, text: "The gulls are the best part.", createdAt: s.now,
            author: .visitor, counts: PulseCounts(), reports: PulseFeature.rules.reportThreshold)
        let theirs = PulseNote(
            id: NoteID(visitor: VisitorID("other0001")!, sequence: 1), subject: .museum, language: .english, text: "Theirs", createdAt: s.now.addingTimeInterval(-60),
            author: .visitor, counts: PulseCounts(), reports: 1)
        prepare(&s, .pulse(.notesLoaded(.museum, .success([mine, theirs]))))
        XCTAssertEqual(s.pulse.notes.map(\.id), [mine.id, theirs.id], "the author's reported note is listed")
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        let rows = (0..<24).map(screen.row)
        let hiddenOwn = s.strings(.pulseNotesHiddenOwn)
        XCTAssertEqual(rows.filter { $0.contains(hiddenOwn) }.count, 1, rows.joined(separator: "\n"))
        assertSnapshot(screen, named: "pulse-notes-hidden-own-80x24")
    }

    /// Issue 32: the author deletes their own note. `d` asks first (the note quoted, `y` or
    /// `n`); `n` and Esc keep it, `y` asks the store; the note leaves the list (and the count)
    /// when the store says it is gone, "not there" included (a second `y`). Another visitor's
    /// note and the museum's are not the visitor's to delete.
    func testTheAuthorDeletesTheirOwnNoteAfterConfirming() {
        var s = ready()
        _ = key(&s, .char("f"))
        _ = key(&s, .char("5"))
        let mine = PulseNote(id: NoteID(visitor: creds.visitor, sequence: 7), subject: .museum, language: .english, text: "mine", createdAt: s.now, author: .visitor, counts: PulseCounts())
        let other = note(1, "theirs", minutesAgo: 3, s)
        prepare(&s, .pulse(.notesLoaded(.museum, .success([mine, other]))))
        let list = PulseFeature.show(.notes(.museum))
        let confirm = PulseFeature.show(.confirmDelete(mine.id, .notes(.museum)))

        XCTAssertEqual(KeyMap.action(for: .char("d"), in: s), .pulse(.deleteOwn))
        send(&s, .pulse(.deleteOwn)) { $0.overlay = confirm }
        // In the confirmation only `y` deletes: Enter and other keys do nothing.
        XCTAssertEqual(KeyMap.action(for: .char("y"), in: s), .pulse(.confirmDelete))
        XCTAssertEqual(KeyMap.action(for: .char("n"), in: s), .pulse(.cancelDelete))
        XCTAssertEqual(KeyMap.action(for: .char("d"), in: s), nil)
        XCTAssertEqual(key(&s, .enter), [])
        XCTAssertEqual(s.overlay, confirm, "Enter is not a yes")
        send(&s, .pulse(.cancelDelete)) { $0.overlay = list }
        send(&s, .pulse(.deleteOwn)) { $0.overlay = confirm }
        _ = key(&s, .escape)
        XCTAssertEqual(s.overlay, list, "Esc goes back to the list, the note kept")

        send(&s, .pulse(.deleteOwn)) { $0.overlay = confirm }
        send(&s, .pulse(.confirmDelete), effects: [.pulse(.deleteNote(mine.id, creds))]) { $0.overlay = list }
        // A refusal says why and keeps the note.
        let down = PulseStoreError.unavailable("down")
        send(&s, .pulse(.deleted(mine.id, .failure(down)))) { $0.banner = Banner(down.phrase, level: .warning) }
        send(&s, .pulse(.deleted(mine.id, .success(true)))) {
            $0.pulse.notes = [other]
            $0.pulse.snapshot?.noteCounts[.museum] = 1
            $0.banner = Banner(.key(.pulseDeleted))
        }
        // Another visitor's note is not deletable.
        send(&s, .pulse(.deleteOwn)) { $0.banner = Banner(.key(.pulseDeleteNotOwn), level: .warning) }
        // Gone already (a retry whose first answer was lost): deleted all the same.
        prepare(&s, .pulse(.notesLoaded(.museum, .success([mine, other]))))
        send(&s, .pulse(.deleted(mine.id, .failure(.noSuchNote(mine.id))))) {
            $0.pulse.notes = [other]
            $0.pulse.noteSelection = 0  // still on the other visitor's note
            $0.pulse.snapshot?.noteCounts[.museum] = 0
            $0.banner = Banner(.key(.pulseDeleted))
        }
    }

    /// Issue 33 #9: notes in the reader's language first, and the museum's note once, in the
    /// reader's language (it showed once per language, and other languages before one's own).
    func testNotesInTheReadersLanguageFirstAndTheMuseumsNoteOnce() {
        var s = ready(.spanish)
        _ = key(&s, .char("f"))
        _ = key(&s, .char("5"))
        let en = note(1, "in English", minutesAgo: 1, s)
        let es = note(2, "en español", minutesAgo: 2, s, lang: .spanish)
        let fr = note(3, "en français", minutesAgo: 3, s, lang: .french)
        let curatorEN = note(4, "curator", minutesAgo: 50, s, author: .curator)
        let curatorES = note(5, "conservador", minutesAgo: 50, s, lang: .spanish, author: .curator)
        let curatorKO = note(6, "큐레이터", minutesAgo: 50, s, lang: .korean, author: .curator)
        let all = [en, es, fr, curatorEN, curatorES, curatorKO]
        send(&s, .pulse(.notesLoaded(.museum, .success(all)))) { $0.pulse.notes = [es, curatorES, en, fr] }
        // A reader whose language the museum did not write in gets its English note.
        XCTAssertEqual(PulseFeature.arranged(all, for: .french), [fr, curatorEN, en, es])
        XCTAssertEqual(PulseFeature.arranged([curatorKO, en], for: .french), [curatorKO, en], "no English either: as it is")
    }

    // MARK: Screens

    func snapshotState(_ language: Language, size: Size) -> AppState {
        var s = ready(language, size: size)
        s.pulse.snapshot?.mine[.museum] = .up
        return s
    }

    /// The box names an artwork in the visitor's language where its commentary has a
    /// translated title (it said the English title on a Spanish screen).
    func testBoxTitleIsTheArtworksTitleInTheVisitorsLanguage() throws {
        var json = String(decoding: UIFixtures.bytes("museum.json"), as: UTF8.self)
        json = json.replacingOccurrences(
            of: #""audio_transcript": "Made of river clay.", "translations": []"#,
            with: #""audio_transcript": "Made of river clay.", "translations": [{"language": "es", "track_title": "Vasija de barro", "audio_file_url": "audio/12-es.mp3", "audio_transcript": "De barro del río."}]"#)
        guard case .success(let app) = AppDataReader.read(Array(json.utf8), source: "/museum/appData.json") else { return XCTFail("the fixture reads") }
        var s = ready(.spanish)
        s.document = .ready(Museum(app))
        XCTAssertEqual(PulseFeature.title(.artwork(101), FeatureContext(s)), "Vasija de barro")
        XCTAssertEqual(PulseFeature.title(.artwork(100), FeatureContext(s)), "Harbor at Dawn", "no Spanish commentary: the artwork's own title")
        prepare(&s, .setLanguage(.english))
        XCTAssertEqual(PulseFeature.title(.artwork(101), FeatureContext(s)), "Clay Vessel")
    }

    func testBoxSnapshots() {
        for (lang, size, name) in [(Language.english, big, "pulse-box-80x24"), (.english, small, "pulse-box-40x12"), (.chinese, big, "pulse-box-zh-80x24")] {
            var s = snapshotState(lang, size: size)
            _ = key(&s, .char("f"))
            assertSnapshot(RootView.render(s, size: size), named: name)
        }
    }

    func testEditorSnapshots() {
        for (size, name) in [(big, "pulse-editor-80x24"), (small, "pulse-editor-40x12")] {
            var s = snapshotState(.english, size: size)
            _ = key(&s, .char("f"))
            _ = key(&s, .char("4"))
            prepare(&s, .pulse(.typed("The blue shifts 藍 halfway")))
            _ = key(&s, .left)
            assertSnapshot(RootView.render(s, size: size), named: name)
        }
    }

    /// Issue 33 #8: a 280-cell note was one row scrolling sideways (its last ~70 cells showed).
    /// Wrapped over the box's rows: whole at 80 columns; at 40×12 five rows, scrolled so the
    /// cursor's row shows (an arrow says there is more above or below).
    static let longEnglish =
        "The blue of the harbour shifts halfway across the canvas, as if the painter stopped for a season and came back with different eyes. I stood here for ten minutes and the boats seemed to move. My daughter says the gulls are the best part. Thank you for the bench in front of it too!"
    static let longKorean =
        "항구의 파란색이 캔버스 중간에서 바뀌는 것이 마치 화가가 한 계절 동안 멈췄다가 다른 눈으로 돌아온 것 같습니다. 여기 십 분 동안 서 있었는데 배들이 움직이는 것 같았어요. 딸은 갈매기가 제일 좋다고 합니다. 그림 앞에 벤치를 놓아 주셔서 감사합니다. 다음에 또 올게요! 정말 좋아요! 또 봐요"

    func testLongNoteEditorSnapshots() {
        XCTAssertEqual(Self.longEnglish.count, 280)
        XCTAssertEqual(NoteText.cells(Self.longKorean), 280)
        for (text, size, name, ups) in [
            (Self.longEnglish, big, "pulse-editor-long-80x24", 0), (Self.longEnglish, small, "pulse-editor-long-40x12", 0),
            (Self.longKorean, big, "pulse-editor-long-ko-80x24", 2), (Self.longKorean, small, "pulse-editor-long-ko-40x12", 7),
        ] {
            var s = snapshotState(.english, size: size)
            _ = key(&s, .char("f"))
            _ = key(&s, .char("4"))
            prepare(&s, .pulse(.typed(text)))
            XCTAssertEqual(s.pulse.draft, text, "the whole note fits")
            for _ in 0..<ups { _ = key(&s, .up) }
            _ = key(&s, .left)
            assertSnapshot(RootView.render(s, size: size), named: name)
        }
    }

    func testNotesSnapshots() {
        for (lang, size, name) in [(Language.english, big, "pulse-notes-80x24"), (.english, small, "pulse-notes-40x12"), (.spanish, big, "pulse-notes-es-80x24")] {
            var s = snapshotState(lang, size: size)
            _ = key(&s, .char("f"))
            _ = key(&s, .char("5"))
            let notes = [
                note(3, "Fíjese en el borde: el azul cambia de tono.", minutesAgo: 0.5, s, lang: .spanish, up: 2),
                note(2, "Never a negative number here", minutesAgo: 12, s, down: 7),
                note(1, "请细看边缘：织工中途换了靛蓝染缸。", minutesAgo: 60 * 26, s, lang: .chinese, author: .curator),
            ]
            prepare(&s, .pulse(.notesLoaded(.museum, .success(notes))))
            assertSnapshot(RootView.render(s, size: size), named: name)
        }
    }

    /// The notes list with one's own note highlighted (its keys: `d`, not `!` or `h`), and the
    /// confirmation over it.
    func testDeleteConfirmationSnapshots() {
        for (lang, size, name) in [(Language.english, big, "pulse-delete-80x24"), (.english, small, "pulse-delete-40x12"), (.korean, big, "pulse-delete-ko-80x24")] {
            var s = snapshotState(lang, size: size)
            _ = key(&s, .char("f"))
            _ = key(&s, .char("5"))
            let mine = PulseNote(
                id: NoteID(visitor: creds.visitor, sequence: 7), subject: .museum, language: lang, text: "The gulls are the best part.", createdAt: s.now.addingTimeInterval(-300),
                author: .visitor, counts: PulseCounts(up: 1))
            prepare(&s, .pulse(.notesLoaded(.museum, .success([mine, note(1, "Never a negative number here", minutesAgo: 12, s)]))))
            assertSnapshot(RootView.render(s, size: size), named: name + "-list")
            _ = key(&s, .char("d"))
            assertSnapshot(RootView.render(s, size: size), named: name)
        }
    }

    func testEmptyNotesSnapshot() {
        var s = snapshotState(.english, size: big)
        _ = key(&s, .char("f"))
        _ = key(&s, .char("5"))
        prepare(&s, .pulse(.notesLoaded(.museum, .success([]))))
        assertSnapshot(RootView.render(s, size: big), named: "pulse-notes-empty-80x24")
    }

    /// Issue 32: 112 KB of combining marks pasted into the editor is cut at once (before, the
    /// one huge character went into the draft and every frame measured it: ~290 s frozen).
    func testAHugePasteIsCutAtTheLimitAtOnce() {
        var s = ready()
        _ = key(&s, .char("f"))
        _ = key(&s, .char("4"))
        prepare(&s, .pulse(.typed("a" + String(repeating: "\u{0301}", count: 56_000))))
        XCTAssertLessThanOrEqual(s.pulse.draft.unicodeScalars.count, PulseBounds.maxScalarsPerCharacter)
        prepare(&s, .pulse(.typed(String(repeating: "b", count: 112_000))))
        XCTAssertEqual(NoteText.cells(s.pulse.draft), NoteText.maxCells, "filled to the limit, the rest dropped")
        _ = RootView.render(s, size: big)
    }

    /// Issue 32: the kiosk's next visitor is a new Pulse visitor: no identity (a new one is
    /// asked for at once), none of the last visitor's reactions or reports on screen.
    func testStartOverIsANewPulseVisitor() {
        var s = ready()
        prepare(&s, .pulse(.checked(.success(PulseSnapshot(
            version: PulseVersion(4), counts: [.museum: PulseCounts(up: 5)], mine: [.museum: .up], myReports: [NoteID(visitor: VisitorID("other0001")!, sequence: 1)],
            takenAt: s.now)))))
        s.pulse.identity?.hidden = [HiddenWriter(visitor: VisitorID("other0001")!, sample: "x")]
        let seed = PulseFeature.seedPath(FeatureContext(s))
        let effects = prepare(&s, .startOver)
        XCTAssertTrue(effects.contains(.pulse(.open(.defaultFile, identity: nil, seed: seed))), "\(effects)")
        let persisted = effects.compactMap { e -> PersistedSettings? in if case .persist(let p) = e { return p } else { return nil } }
        XCTAssertFalse(persisted.isEmpty)
        XCTAssertTrue(persisted.allSatisfy { $0.saves[PulseFeature.self] == nil }, "the last visitor's identity is not kept")
        XCTAssertNil(s.pulse.identity)
        XCTAssertFalse(s.pulse.ready)
        XCTAssertEqual(s.pulse.snapshot?.mine, [:])
        XCTAssertEqual(s.pulse.snapshot?.myReports, [])
        XCTAssertEqual(s.pulse.snapshot?.counts[.museum], PulseCounts(up: 5), "the museum's counts stay")
        // The new identity arrives: a fresh check, nothing of the last visitor's.
        let next = VisitorCredentials(visitor: VisitorID("visitor02")!, secret: "t")
        prepare(&s, .pulse(.opened(.success(next))))
        XCTAssertEqual(s.pulse.identity, PulseIdentity(credentials: next, nextSequence: 0))
        XCTAssertEqual(s.pulse.identity?.hidden, [])
    }
}

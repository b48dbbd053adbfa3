import Foundation
import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// The posting gate in the guide (issue 32): the snapshot says a visit code or a member card is
/// needed; the code is asked before the note is typed and kept for the museum's day; the note
/// carries it; a refusal keeps the note; the member card saved under Info goes with the note.
final class PulseGateTests: XCTestCase {
    let big = Size(width: 80, height: 24)
    let small = RootView.minimumSize
    let creds = VisitorCredentials(visitor: VisitorID("visitor01")!, secret: "s")

    func ready(_ gate: PostingGate, _ language: Language = .english, size: Size? = nil) -> AppState {
        var s = UIFixtures.loadedState(language: language, size: size ?? big)
        prepare(&s, .pulse(.opened(.success(creds))))
        prepare(&s, .pulse(.checked(.success(PulseSnapshot(version: PulseVersion(3), noteCounts: [.museum: 2], takenAt: s.now, posting: gate)))))
        // On Info, where no row is a work, a tour or an exhibition: `f` is about the museum.
        s.tab = .info
        return s
    }

    func draft(_ s: AppState, _ text: String, pass: PostingPass?) -> NoteDraft {
        NoteDraft(id: NoteID(visitor: creds.visitor, sequence: UInt64(s.now.timeIntervalSince1970 * 1000)), subject: .museum, language: .english, text: text, pass: pass)
    }

    func testTheSnapshotSaysTheGateAndAnOpenGateAsksNothing() {
        var s = ready(.open)
        XCTAssertEqual(s.pulse.snapshot?.posting, .open)
        prepare(&s, .pulse(.open))
        send(&s, .pulse(.choose(4))) {
            $0.pulse.boxSelection = 3
            $0.pulse.draftSubject = .museum
            $0.overlay = PulseFeature.show(.editor(.museum))
        }
        prepare(&s, .pulse(.typed("Lovely")))
        let effects = pressKey(&s, .enter)
        XCTAssertEqual(effects.first, .pulse(.post(draft(s, "Lovely", pass: nil), creds)), "no pass for an open gate")
    }

    /// 4 asks for the code first; Enter keeps it for the day and opens the editor; the note
    /// goes with it, and a second note of the day is not asked again.
    func testTheVisitCodeIsAskedBeforeTheNoteAndSentWithIt() {
        var s = ready(.visitCode)
        prepare(&s, .pulse(.open))
        send(&s, .pulse(.choose(4))) {
            $0.pulse.boxSelection = 3
            $0.pulse.draftSubject = .museum
            $0.overlay = PulseFeature.show(.visitCode(.museum, thenSend: false))
        }
        // Letters and digits, shown in upper case; anything else is not taken.
        for k: Key in [.char("k"), .char("7"), .char("-"), .char("q"), .char("m"), .char("2"), .char("x"), .backspace, .char("p")] { _ = pressKey(&s, k) }
        XCTAssertEqual(s.pulse.codeField, "K7QM2P")
        let today = PulseFeature.dayStart(FeatureContext(s))
        send(&s, .pulse(.codeEntered)) {
            $0.pulse.visitCode = VisitCodeEntry(code: "K7QM2P", day: today)
            $0.overlay = PulseFeature.show(.editor(.museum))
        }
        prepare(&s, .pulse(.typed("Lovely blue")))
        let sent = draft(s, "Lovely blue", pass: .visitCode("K7QM2P"))
        send(&s, .pulse(.send), effects: { [.pulse(.post(sent, self.creds)), .persist($0.settings)] }) {
            $0.pulse.sending = true
            $0.pulse.identity?.nextSequence = sent.id.sequence + 1
        }
        prepare(&s, .pulse(.posted(.success(.created(PulseNote(id: sent.id, subject: .museum, language: .english, text: "Lovely blue", createdAt: s.now))))))
        prepare(&s, .pulse(.open))
        send(&s, .pulse(.choose(4))) {
            $0.pulse.boxSelection = 3
            $0.pulse.draftSubject = .museum
            $0.overlay = PulseFeature.show(.editor(.museum))
        }
        // The next day the code is asked again.
        s.now = s.now.addingTimeInterval(86_400)
        prepare(&s, .dismissOverlay, .pulse(.open))
        XCTAssertEqual(PulseFeature.gateRefusal(s.pulse, FeatureContext(s)), .visitCodeRequired)
        prepare(&s, .pulse(.choose(4)))
        XCTAssertEqual(s.overlay, PulseFeature.show(.visitCode(.museum, thenSend: false)))
    }

    /// A wrong code: the box comes back over the note with the code given (to correct), the
    /// note untouched; Enter sends it again with the new code; Esc returns to the note.
    func testAWrongCodeKeepsTheNoteAndAsksAgain() {
        var s = ready(.visitCode)
        prepare(&s, .pulse(.open), .pulse(.choose(4)), .pulse(.codeTyped("K7QM2B")), .pulse(.codeEntered), .pulse(.typed("Lovely blue")))
        let first = draft(s, "Lovely blue", pass: .visitCode("K7QM2B"))
        XCTAssertEqual(prepare(&s, .pulse(.send)).first, .pulse(.post(first, creds)))
        send(&s, .pulse(.posted(.failure(.postingRefused(.visitCodeWrong))))) {
            $0.pulse.sending = false
            $0.pulse.visitCode = nil
            $0.pulse.codeField = "K7QM2B"
            $0.pulse.codeWrong = true
            $0.overlay = PulseFeature.show(.visitCode(.museum, thenSend: true))
        }
        XCTAssertEqual(s.pulse.draft, "Lovely blue", "nothing the visitor typed is lost")
        // Esc: back to the note as it was.
        var escaped = s
        send(&escaped, .dismissOverlay) { $0.overlay = PulseFeature.show(.editor(.museum)) }
        XCTAssertEqual(escaped.pulse.draft, "Lovely blue")
        // The last letter corrected, Enter: the note goes at once with the new code.
        prepare(&s, .pulse(.codeDeleteBackward), .pulse(.codeTyped("P")))
        s.now = s.now.addingTimeInterval(1)
        let again = draft(s, "Lovely blue", pass: .visitCode("K7QM2P"))
        let today = PulseFeature.dayStart(FeatureContext(s))
        send(&s, .pulse(.codeEntered), effects: { [.pulse(.post(again, self.creds)), .persist($0.settings)] }) {
            $0.pulse.visitCode = VisitCodeEntry(code: "K7QM2P", day: today)
            $0.pulse.codeWrong = false
            $0.overlay = PulseFeature.show(.editor(.museum))
            $0.pulse.sending = true
            $0.pulse.identity?.nextSequence = again.id.sequence + 1
        }
    }

    /// A service switched to a gate since the last snapshot (a 304 says nothing): the 403 itself
    /// tells the guide, which asks for the code over the note.
    func testARefusalFromAGateTheSnapshotDidNotSayIsLearnt() {
        var s = ready(.open)
        prepare(&s, .pulse(.open), .pulse(.choose(4)), .pulse(.typed("Lovely blue")), .pulse(.send))
        send(&s, .pulse(.posted(.failure(.postingRefused(.visitCodeRequired))))) {
            $0.pulse.sending = false
            $0.pulse.snapshot?.posting = .visitCode
            $0.overlay = PulseFeature.show(.visitCode(.museum, thenSend: true))
        }
        // The editor closed meanwhile: a banner says it, the note is kept.
        var closed = ready(.open)
        prepare(&closed, .pulse(.open), .pulse(.choose(4)), .pulse(.typed("Lovely blue")), .pulse(.send), .dismissOverlay)
        send(&closed, .pulse(.posted(.failure(.postingRefused(.visitCodeRequired))))) {
            $0.pulse.sending = false
            $0.pulse.snapshot?.posting = .visitCode
            $0.banner = Banner(.key(.pulseGateCodeRequired), level: .warning)
        }
        XCTAssertEqual(closed.pulse.draft, "Lovely blue")
    }

    /// Members: without a saved card, 4 says where to add one (the editor does not open);
    /// with one, its member id goes with the note; a card the museum does not list is said.
    func testMembersSendTheSavedCardOrAreToldWhereToAddOne() {
        var s = ready(.members)
        s.member.serviceURL = "https://members.museum.example/soap"
        prepare(&s, .pulse(.open))
        send(&s, .pulse(.choose(4))) {
            $0.pulse.boxSelection = 3
            $0.banner = Banner(.key(.pulseGateMemberRequired), level: .warning)
        }
        var noCardService = s
        noCardService.member.serviceURL = nil
        send(&noCardService, .pulse(.choose(4))) { $0.banner = Banner(.key(.pulseGateMembersOnly), level: .warning) }

        s.member.card = MemberCard(memberID: "12345678", zip: "60603", level: "Member", expiration: s.now.addingTimeInterval(86_400 * 30), holders: ["Ada Lovelace"], checkedAt: s.now)
        send(&s, .pulse(.choose(4))) {
            $0.pulse.draftSubject = .museum
            $0.overlay = PulseFeature.show(.editor(.museum))
        }
        prepare(&s, .pulse(.typed("Lovely blue")))
        let sent = draft(s, "Lovely blue", pass: .memberCard("12345678"))
        send(&s, .pulse(.send), effects: { [.pulse(.post(sent, self.creds)), .persist($0.settings)] }) {
            $0.pulse.sending = true
            $0.pulse.identity?.nextSequence = sent.id.sequence + 1
        }
        send(&s, .pulse(.posted(.failure(.postingRefused(.memberUnknown))))) {
            $0.pulse.sending = false
            $0.banner = Banner(.key(.pulseGateMemberUnknown), level: .warning)
        }
        XCTAssertEqual(s.pulse.draft, "Lovely blue")
        XCTAssertEqual(s.overlay, PulseFeature.show(.editor(.museum)), "the note stays open")
    }

    func testTooManyWrongCodesSaysHowLongToWait() {
        var s = ready(.visitCode)
        prepare(&s, .pulse(.open), .pulse(.choose(4)), .pulse(.codeTyped("AAAAAA")), .pulse(.codeEntered), .pulse(.typed("Hi")), .pulse(.send))
        send(&s, .pulse(.posted(.failure(.postingRefused(.tooManyTries(seconds: 90)))))) {
            $0.pulse.sending = false
            $0.banner = Banner(.key(.pulseGateTooManyTries, ["minutes": .verbatim("2")]), level: .warning)
        }
        XCTAssertEqual(s.pulse.draft, "Hi")
    }

    /// Kiosk start over: the next visitor has their own ticket.
    func testStartOverForgetsTheCode() {
        var s = ready(.visitCode)
        prepare(&s, .pulse(.open), .pulse(.choose(4)), .pulse(.codeTyped("K7QM2P")), .pulse(.codeEntered), .dismissOverlay)
        XCTAssertNotNil(s.pulse.visitCode)
        _ = PulseFeature.react(to: .startOver, &s)
        XCTAssertNil(s.pulse.visitCode)
        XCTAssertEqual(s.pulse.codeField, "")
    }

    func testTheEmbeddedStoreIsOpen() {
        // A snapshot with no gate said (the embedded store, an older service) is open.
        XCTAssertEqual(PulseSnapshot(version: PulseVersion(1), takenAt: Date(timeIntervalSince1970: 0)).posting, .open)
        XCTAssertEqual(try PulseWire.readSnapshot(Array(#"{"version":1,"taken_at":0}"#.utf8)).posting, .open)
        XCTAssertEqual(try PulseWire.readSnapshot(Array(#"{"version":1,"taken_at":0,"posting":"tickets"}"#.utf8)).posting, .open)
        XCTAssertEqual(try PulseWire.readSnapshot(Array(#"{"version":1,"taken_at":0,"posting":"members"}"#.utf8)).posting, .members)
    }

    func testVisitCodeSnapshots() {
        for (lang, size, wrong, name) in [
            (Language.english, big, false, "pulse-visit-code-80x24"), (.english, small, false, "pulse-visit-code-40x12"),
            (.english, big, true, "pulse-visit-code-wrong-80x24"), (.korean, big, true, "pulse-visit-code-wrong-ko-80x24"),
            (.traditionalChinese, big, false, "pulse-visit-code-zh-Hant-80x24"), (.french, small, true, "pulse-visit-code-wrong-fr-40x12"),
        ] {
            var s = ready(.visitCode, lang, size: size)
            prepare(&s, .pulse(.open), .pulse(.choose(4)))
            if wrong {
                prepare(&s, .pulse(.codeTyped("K7QM2B")), .pulse(.codeEntered), .pulse(.typed("The blue shifts halfway")), .pulse(.send))
                prepare(&s, .pulse(.posted(.failure(.postingRefused(.visitCodeWrong)))))
            } else {
                prepare(&s, .pulse(.codeTyped("K7Q")))
            }
            assertSnapshot(RootView.render(s, size: size), named: name)
        }
    }
}

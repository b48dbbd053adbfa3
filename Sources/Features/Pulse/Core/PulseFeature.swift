import Foundation

/// The visitor's identity in Pulse, the next note sequence and the visitors whose notes this
/// one chose not to see (kept in the state database: a choice of this visitor, not the store's).
public struct PulseIdentity: Equatable, Sendable {
    public var credentials: VisitorCredentials
    /// The sequence of the visitor's next note.
    public var nextSequence: UInt64
    /// Hidden writers, oldest first (Info lists them, to show them again).
    public var hidden: [HiddenWriter]
    public init(credentials: VisitorCredentials, nextSequence: UInt64, hidden: [HiddenWriter] = []) {
        self.credentials = credentials
        self.nextSequence = nextSequence
        self.hidden = hidden
    }
}

/// A visitor whose notes are hidden, with the start of the note that made the choice (so the
/// list under Info says whom).
public struct HiddenWriter: Hashable, Sendable {
    public let visitor: VisitorID
    public let sample: String
    /// At most this many display cells of the note are kept.
    public static let sampleCells = 40
    public init(visitor: VisitorID, sample: String) {
        self.visitor = visitor
        self.sample = TextWidth.truncate(sample, to: HiddenWriter.sampleCells)
    }
}

public struct PulseState: Equatable, Sendable {
    /// Where the store is (configuration `pulse`, or `--pulse`).
    public var location: PulseLocation = .defaultFile
    public var identity: PulseIdentity?
    /// The store was opened and the visitor is known to it.
    public var ready = false
    /// Why the store could not be opened, while it is tried again (with backoff): what the
    /// visitor is told instead of "still starting".
    public var openFailure: PulseStoreError?
    /// Failed attempts to open the store since the last success (the backoff's step).
    public var openAttempts = 0
    /// What the store showed last.
    public var snapshot: PulseSnapshot?
    /// A change check is under way (one at a time).
    public var checking = false
    /// The last check could not reach the store (a service down, the network gone): said above
    /// the status line until a check succeeds again.
    public var offline = false
    /// The highlighted choice of the Pulse box (0…4).
    public var boxSelection = 0
    /// The note being written, for `draftSubject`; kept when the editor is closed with Esc.
    public var draft = ""
    public var draftSubject: PulseSubject?
    /// The editor's cursor, in characters from the start.
    public var cursor = 0
    /// A note was sent and its answer is awaited.
    public var sending = false
    /// The note the visitor was told is saved and will be sent when Pulse is back: once a
    /// snapshot no longer has it waiting, they are told it was sent (or why it was not).
    public var queuedNote: NoteID?
    /// The notes list: whose, what, which row, exact times or ages.
    public var notes: [PulseNote] = []
    public var notesSubject: PulseSubject?
    public var noteSelection = 0
    public var exactTimes = false
    /// The last note this visitor reported from the list (`u` takes it back).
    public var lastReport: NoteID?
    /// Today's visit code as the visitor gave it, for the museum's day it was given on (the
    /// posting gate, issue 32): asked again on another day, and of the next kiosk visitor.
    public var visitCode: VisitCodeEntry?
    /// What is typed in the visit code box.
    public var codeField = ""
    /// The service said the code given was not today's: the box says so.
    public var codeWrong = false
    /// What was typed cannot be a visit code (a character no code has, too few): said in the
    /// box as it is typed, before anything is sent (issue 47 #11).
    public var codeProblem: VisitCodeProblem?
    public init() {}
}

/// Why what was typed in the visit code box cannot be a code.
public enum VisitCodeProblem: Equatable, Sendable {
    /// A character no visit code has (0, 1, I, O, a letter outside ASCII…), as typed.
    case notInCodes(Character)
    /// Enter with fewer than `VisitCodeText.length` characters.
    case length
}

/// A visit code and the start of the museum's day it was given on.
public struct VisitCodeEntry: Equatable, Sendable {
    public var code: String
    public var day: Date
    public init(code: String, day: Date) {
        self.code = code
        self.day = day
    }
}

public enum PulseAction: Equatable, Sendable {
    /// `f`: the Pulse box for what is open or playing.
    case open
    /// A numbered choice of the box (1 like, 2 meh, 3 not for me, 4 write, 5 read).
    case choose(Int)
    // The note editor.
    case typed(String)
    case cursorLeft, cursorRight, cursorHome, cursorEnd, deleteBackward, deleteForward
    /// The cursor to a character of the draft (↑/↓ between wrapped rows: the view knows them).
    case cursorTo(Int)
    case send
    // The notes list.
    case report
    case undoReport
    case toggleTimes
    /// `h` on a note: hide every note of its writer (for this visitor only).
    case hideWriter
    /// `d` on one's own note: asks first (`Overlay.confirmDelete`).
    case deleteOwn
    // The visit code box (`Overlay.visitCode`).
    case codeTyped(String)
    case codeDeleteBackward
    /// Ctrl-U in that box: the field emptied at once (a refused code took six Backspaces).
    case codeCleared
    /// Enter in that box: the code is kept for the day; the editor follows (or the note goes).
    case codeEntered
    /// `y` in that box: the note is deleted for everyone; `n` (or Esc) keeps it.
    case confirmDelete
    case cancelDelete
    /// Show a hidden writer's notes again (the list under Info).
    case unhide(VisitorID)
    /// `?` in the box or the notes list: the keys, over the box (Esc returns to it).
    case showKeys
    /// The periodic change check.
    case check
    /// `f` on `subject` (what `.open` found on the page on screen, `currentSubject`).
    case openOn(PulseSubject)
    /// Try opening the store again after a failure (a lock, a damaged file, a full disk).
    case reopen
    // Answers from the store.
    case opened(Result<VisitorCredentials, PulseStoreError>)
    case checked(Result<PulseSnapshot?, PulseStoreError>)
    case reacted(PulseSubject, Result<PulseCounts, PulseStoreError>)
    case posted(Result<PostOutcome, PulseStoreError>)
    case notesLoaded(PulseSubject, Result<[PulseNote], PulseStoreError>)
    case reported(NoteID, Result<Bool, PulseStoreError>)
    case deleted(NoteID, Result<Bool, PulseStoreError>)
}

public enum PulseEffect: Equatable, Sendable {
    /// Open the store, load the seed into it if it is empty, make the visitor known (creating
    /// an identity when `identity` is nil).
    /// `seed`: the museum's seed file next to a local appData (`pulse/seed.json`), if any.
    case open(PulseLocation, identity: VisitorCredentials?, seed: String?)
    case check(viewer: VisitorID?, dayStart: Date, since: PulseVersion?)
    case react(ReactionValue?, PulseSubject, VisitorCredentials)
    case post(NoteDraft, VisitorCredentials)
    case loadNotes(PulseSubject, viewer: VisitorID?)
    case report(NoteID, Bool, VisitorCredentials)
    /// The visitor's own note deleted (`PulseStore.deleteOwnNote`).
    case deleteNote(NoteID, VisitorCredentials)
    case recordPlay(PulseSubject)
}

/// Visitor Pulse in the guide: reactions, notes and reports on what is open or playing,
/// through the `PulseStore` the runner holds. The rules are `PulseRules`; the box, the editor
/// and the notes list are drawn by `PulseView`. Scoped (issue 28): it changes only
/// `PulseState`; its boxes, banners, the box's scroll and saving are requests.
public enum PulseFeature: ScopedFeature, HearsEvents, ScopedAddsRows, ScopedDecoratesRows, ScopedContent {
    public typealias State = PulseState
    public typealias Action = PulseAction
    public typealias Effect = PulseEffect
    public typealias Saved = PulseIdentity

    public indirect enum Overlay: Equatable, Sendable {
        /// The numbered choices for a subject.
        case box(PulseSubject)
        /// Writing a note on a subject.
        case editor(PulseSubject)
        /// Reading a subject's notes.
        case notes(PulseSubject)
        /// The key help over one of the boxes above (closing it returns there).
        case keys(Overlay)
        /// "Delete your note?" over the notes list (either answer returns there).
        case confirmDelete(NoteID, Overlay)
        /// Today's visit code, asked before the editor opens (`thenSend` false) or when the
        /// note is sent without a code or with a wrong one (`thenSend`: Enter sends it; Esc
        /// returns to the editor, the note as it was).
        case visitCode(PulseSubject, thenSend: Bool)
    }

    public enum Route: Hashable, Sendable {
        /// Info's list of hidden visitors, to show them again.
        case hidden
    }

    public static let id = FeatureID("pulse")
    public static let after = [MemberFeature.id]
    /// Home's exhibitions and the Popular list's subjects, the member card (for members-only
    /// posting), the tour page open (a subject `f` opens) and the tours' progress (a featured
    /// tour's row says whether it was started or finished, as Home's do). What plays is the
    /// context's (`playerTrack`), not the player's state.
    public static let reads = [HomeFeature.id, MemberFeature.id, TourFeature.id]
    public static let listensTo: Set<FeatureEvent.Kind> = [.launched, .playerChanged, .startOver]
    public static let initialState = PulseState()
    public static let configKey = "pulse"
    public static let configKeys = [configKey]
    /// The change check's timer, and how often it runs: every 5 s, and every 15 s while a
    /// recording plays. A visitor who listens is not reading the notes, and each check is a
    /// timer, a thread, a query and a result through the loop: a third of the checks took
    /// about 5 ms a minute off the guide's CPU while playing (issue 48: `make bench`'s audio
    /// with the guide on screen). The player's notes count is then at most 15 s behind.
    public static let checkTimer = TimerID("pulseCheck")
    public static let checkMilliseconds = 5_000
    public static let checkWhilePlayingMilliseconds = 15_000
    static func checkDelay(_ c: FeatureContext) -> Int { c.isPlaying ? checkWhilePlayingMilliseconds : checkMilliseconds }
    /// Opening the store again after a failure: 2 s, then doubling up to a minute.
    public static let reopenTimer = TimerID("pulseReopen")
    public static func reopenMilliseconds(after attempts: Int) -> Int {
        min(60_000, 2_000 << min(max(attempts - 1, 0), 5))
    }
    public static let rules = PulseRules.standard

    public static func reduce(_ p: inout PulseState, _ a: PulseAction, _ c: FeatureContext) -> Outcome {
        var ui: [UIRequest] = []
        let effects = reduce(&p, a, c, &ui)
        return Outcome(effects: effects, requests: ui)
    }

    static func reduce(_ p: inout PulseState, _ a: PulseAction, _ c: FeatureContext, _ ui: inout [UIRequest]) -> [DocentCore.Effect] {
        switch a {
        case .open:
            // What it is about is read off the page on screen (`currentSubject`).
            guard let subject = currentSubject(c) else { return [] }
            return reduce(&p, .openOn(subject), c, &ui)
        case .openOn(let subject):
            p.boxSelection = 0
            ui.append(.show(show(.box(subject))))
            return []
        case .choose(let n):
            guard case .box(let subject)? = c.box(Self.self), (1...5).contains(n) else { return [] }
            p.boxSelection = n - 1
            switch n {
            case 1, 2, 3: return react(&p, c, &ui, [.up, .meh, .down][n - 1], subject)
            case 4:
                // Asked before a long note is typed, not after (the gate is in the snapshot).
                let refusal = gateRefusal(p, c)
                if refusal == .memberRequired {
                    ui.append(.banner(memberNeeded(c)))
                    return []
                }
                if p.draftSubject != subject {
                    p.draft = ""
                    p.cursor = 0
                    p.draftSubject = subject
                }
                if refusal == .visitCodeRequired {
                    askCode(&p, &ui, subject, thenSend: false, wrong: false)
                    return []
                }
                ui.append(.show(show(.editor(subject))))
                return []
            default:
                p.notes = []
                p.notesSubject = subject
                p.noteSelection = 0
                p.lastReport = nil
                ui.append(.show(show(.notes(subject))))
                return [effect(.loadNotes(subject, viewer: p.identity?.credentials.visitor))]
            }
        case .typed(let text):
            guard case .editor? = c.box(Self.self), !p.sending else { return [] }
            var chars = Array(p.draft)
            // Cut at once (`PulseBounds.input`): a 112 KB paste is never measured cell by cell.
            let clean = Array(PulseBounds.input(text).filter { c in !c.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) } })
            let at = min(max(0, p.cursor), chars.count)
            // Typing stops at the limit (the counter says why).
            let room = max(0, NoteText.maxCells - TextWidth.width(String(chars)))
            var fitting: [Character] = []
            var used = 0
            for c in clean {
                let w = TextWidth.width(of: c)
                if used + w > room { break }
                fitting.append(c)
                used += w
            }
            chars.insert(contentsOf: fitting, at: at)
            p.draft = String(chars)
            p.cursor = at + fitting.count
            if !fitting.isEmpty { forgetDraftProblem(c, &ui) }
            return []
        case .cursorLeft, .cursorRight, .cursorHome, .cursorEnd, .cursorTo, .deleteBackward, .deleteForward:
            guard case .editor? = c.box(Self.self) else { return [] }
            let before = p.draft
            edit(&p, a)
            if p.draft != before { forgetDraftProblem(c, &ui) }
            return []
        case .send:
            guard case .editor(let subject)? = c.box(Self.self), !p.sending else { return [] }
            return sendNote(&p, subject, c, &ui)
        case .report, .undoReport:
            guard case .notes? = c.box(Self.self), let creds = p.identity?.credentials, p.ready else { return [] }
            if a == .report {
                guard p.notes.indices.contains(p.noteSelection) else { return [] }
                let note = p.notes[p.noteSelection]
                // One's own note is not reported (issue 33 #9): deleting it (`d`) is the way.
                guard note.id.visitor != creds.visitor else {
                    ui.append(.banner(Banner(.key(.pulseReportOwn), level: .warning)))
                    return []
                }
                // A curator's note is the museum's own word (issue 47 #11): not reported.
                guard note.author != .curator else {
                    ui.append(.banner(Banner(.key(.pulseReportCurator), level: .warning)))
                    return []
                }
                // Gone for the reporter at once; the store is told.
                p.notes.remove(at: p.noteSelection)
                p.noteSelection = min(p.noteSelection, max(0, p.notes.count - 1))
                p.lastReport = note.id
                p.snapshot?.myReports.insert(note.id)
                ui.append(.banner(Banner(.key(.pulseReported))))
                return [effect(.report(note.id, true, creds))]
            }
            guard let id = p.lastReport else { return [] }
            p.lastReport = nil
            p.snapshot?.myReports.remove(id)
            ui.append(.banner(Banner(.key(.pulseReportUndone))))
            return [effect(.report(id, false, creds))]
        case .toggleTimes:
            p.exactTimes.toggle()
            return []
        case .hideWriter:
            guard case .notes? = c.box(Self.self), p.identity != nil, p.notes.indices.contains(p.noteSelection) else { return [] }
            let note = p.notes[p.noteSelection]
            // The museum's own notes, and one's own, are not a visitor to hide.
            guard note.author == .visitor, note.id.visitor != p.identity?.credentials.visitor else {
                ui.append(.banner(Banner(.key(.pulseHiddenCannot), level: .warning)))
                return []
            }
            if p.identity?.hidden.contains(where: { $0.visitor == note.id.visitor }) == false {
                p.identity?.hidden.append(HiddenWriter(visitor: note.id.visitor, sample: note.text))
            }
            p.notes.removeAll { $0.id.visitor == note.id.visitor }
            p.noteSelection = min(p.noteSelection, max(0, p.notes.count - 1))
            ui.append(.banner(Banner(.key(.pulseHiddenDone))))
            ui.append(.persist)
            return []
        case .deleteOwn:
            guard case .notes? = c.box(Self.self), let o = c.box(Self.self), p.notes.indices.contains(p.noteSelection) else { return [] }
            let note = p.notes[p.noteSelection]
            // Only one's own (a visitor's note of this identity; the museum's are staff's).
            guard note.author == .visitor, note.id.visitor == p.identity?.credentials.visitor else {
                ui.append(.banner(Banner(.key(.pulseDeleteNotOwn), level: .warning)))
                return []
            }
            ui.append(.show(show(.confirmDelete(note.id, o))))
            return []
        case .confirmDelete:
            guard case .confirmDelete(let id, let back)? = c.box(Self.self) else { return [] }
            ui.append(.show(show(back)))
            guard p.ready, let creds = p.identity?.credentials else {
                ui.append(.banner(notReady(p)))
                return []
            }
            // Gone from the list once the store says so (a delete is not kept offline).
            return [effect(.deleteNote(id, creds))]
        case .cancelDelete:
            guard case .confirmDelete(_, let back)? = c.box(Self.self) else { return [] }
            ui.append(.show(show(back)))
            return []
        case .codeTyped(let text):
            guard case .visitCode? = c.box(Self.self) else { return [] }
            // A character no code has is refused as it is typed and said (issue 47 #11: a
            // wrong code was refused only after Send); spaces and dashes, as printed, are
            // passed over; no more than a code's length is taken.
            for ch in text where ch != " " && ch != "-" {
                let up = Character(String(ch).uppercased())
                guard VisitCodeText.alphabet.contains(up) else {
                    p.codeProblem = .notInCodes(ch)
                    continue
                }
                guard p.codeField.count < VisitCodeText.length else { continue }
                p.codeField.append(up)
                p.codeProblem = nil
            }
            return []
        case .codeDeleteBackward:
            guard case .visitCode? = c.box(Self.self), !p.codeField.isEmpty else { return [] }
            p.codeField.removeLast()
            p.codeProblem = nil
            return []
        case .codeCleared:
            guard case .visitCode? = c.box(Self.self) else { return [] }
            p.codeField = ""
            p.codeProblem = nil
            return []
        case .codeEntered:
            guard case .visitCode(let subject, let thenSend)? = c.box(Self.self) else { return [] }
            let code = VisitCodeText.normalized(p.codeField)
            guard !code.isEmpty else { return [] }
            // Too short to be a code: said, not sent.
            guard code.count == VisitCodeText.length else {
                p.codeProblem = .length
                return []
            }
            p.codeProblem = nil
            // Kept for the museum's day; whether it is right, the service says when the note goes.
            p.visitCode = VisitCodeEntry(code: code, day: dayStart(c))
            p.codeWrong = false
            ui.append(.show(show(.editor(subject))))
            // Sending, as Enter in the editor now on screen would (not while one is on its way).
            return thenSend && !p.sending ? sendNote(&p, subject, c, &ui) : []
        case .unhide(let visitor):
            guard let before = p.identity?.hidden, before.contains(where: { $0.visitor == visitor }) else { return [] }
            p.identity?.hidden.removeAll { $0.visitor == visitor }
            ui.append(.banner(Banner(.key(.pulseHiddenUndone))))
            ui.append(.persist)
            return []
        case .showKeys:
            guard let o = c.box(Self.self) else { return [] }
            switch o {
            case .box, .notes:
                ui.append(.show(show(.keys(o))))
            case .editor, .keys, .confirmDelete, .visitCode: break
            }
            return []
        case .check:
            var out: [DocentCore.Effect] = [.timer(checkTimer, milliseconds: checkDelay(c), action: action(.check))]
            if p.ready, !p.checking {
                p.checking = true
                out.append(effect(.check(viewer: p.identity?.credentials.visitor, dayStart: dayStart(c), since: p.snapshot?.version)))
            }
            return out
        case .opened(.success(let creds)):
            p.ready = true
            // The reason it could not be opened is no longer true.
            if let failure = p.openFailure, c.banner?.phrase == failure.phrase { ui.append(.clearBanner) }
            p.openFailure = nil
            p.openAttempts = 0
            var out: [DocentCore.Effect] = []
            if p.identity?.credentials != creds {
                p.identity = PulseIdentity(credentials: creds, nextSequence: 0)
                ui.append(.persist)
            }
            p.checking = true
            out.append(effect(.check(viewer: creds.visitor, dayStart: dayStart(c), since: nil)))
            out.append(.timer(checkTimer, milliseconds: checkDelay(c), action: action(.check)))
            return out
        case .opened(.failure(let e)):
            // Said, and tried again with backoff: a lock held at start, a file being repaired
            // or a disk being freed is not the end of Pulse for the session.
            ui.append(.banner(Banner(e.phrase, level: .warning)))
            p.openFailure = e
            p.openAttempts += 1
            return [.timer(reopenTimer, milliseconds: reopenMilliseconds(after: p.openAttempts), action: action(.reopen))]
        case .reopen:
            guard !p.ready else { return [] }
            return [effect(.open(p.location, identity: p.identity?.credentials, seed: seedPath(c)))]
        case .checked(let result):
            p.checking = false
            switch result {
            case .success(nil):
                p.offline = false
                return []
            case .success(var snap?):
                p.offline = false
                sayQueuedNoteSent(&p, snap, c, &ui)
                // Bounded before it is kept: matching runs on every drawn list.
                snap.announcements = PulseAnnouncements.kept(snap.announcements, now: c.now)
                p.snapshot = snap
                // Something changed: the open notes list is read again.
                if case .notes(let s)? = c.box(Self.self) { return [effect(.loadNotes(s, viewer: p.identity?.credentials.visitor))] }
                return []
            case .failure(let e):
                // The next check tries again; meanwhile the visitor is told (not for a refusal).
                if case .unavailable = e {
                    p.offline = true
                    // Never reached since the guide started: an empty picture (a version no store
                    // has), so the visitor can still react and write; a store with an outbox
                    // keeps those writes until it is back, and the next snapshot replaces this.
                    if p.snapshot == nil { p.snapshot = PulseSnapshot(version: Self.unknownVersion, takenAt: c.now) }
                }
                return []
            }
        case .reacted(let subject, let result):
            switch result {
            case .success(let counts): p.snapshot?.counts[subject] = counts
            case .failure(let e):
                ui.append(.banner(Banner(e.phrase, level: .warning)))
                // The optimistic change is undone by the next snapshot, whatever its version.
                if let v = p.snapshot?.version { p.snapshot?.version = PulseVersion(v.value - 1) }
            }
            return []
        case .posted(let result):
            p.sending = false
            switch result {
            case .success(let outcome):
                let note: PulseNote
                switch outcome {
                case .created(let n), .alreadyStored(let n):
                    note = n
                    ui.append(.banner(Banner(.key(.pulseNoteSent))))
                case .queued(let n):
                    note = n
                    ui.append(.banner(Banner(.key(.pulseNoteQueued))))
                    p.queuedNote = n.id
                }
                p.draft = ""
                p.cursor = 0
                p.draftSubject = nil
                if case .editor? = c.box(Self.self) { ui.append(.close) }
                p.snapshot?.noteCounts[note.subject, default: 0] += 1
                return []
            case .failure(.postingRefused(let r)):
                // The service's gate, learnt even if the snapshot did not say it (a service
                // switched to a gate since): the note stays as it was typed.
                if let gate = r.gate { p.snapshot?.posting = gate }
                if r == .visitCodeRequired || r == .visitCodeWrong {
                    let typed = p.visitCode?.code
                    p.visitCode = nil
                    if case .editor(let subject)? = c.box(Self.self) {
                        askCode(&p, &ui, subject, thenSend: true, wrong: r == .visitCodeWrong)
                        // A wrong code is shown to be corrected (one letter misread is likely).
                        if r == .visitCodeWrong { p.codeField = typed ?? "" }
                        return []
                    }
                }
                ui.append(.banner(r.gate == .members ? memberNeeded(c, r) : Banner(PulseStoreError.postingRefused(r).phrase, level: .warning)))
                return []
            case .failure(let e):
                ui.append(.banner(Banner(e.phrase, level: .warning)))
                return []
            }
        case .notesLoaded(let subject, let result):
            guard p.notesSubject == subject else { return [] }
            switch result {
            case .success(let all):
                let hidden = Set(p.identity?.hidden.map(\.visitor) ?? [])
                let notes = arranged(all.filter { rules.hidden($0, viewerReported: false, hiddenWriters: hidden) != .writerHidden }, for: c.language)
                let selected = p.notes.indices.contains(p.noteSelection) ? p.notes[p.noteSelection].id : nil
                p.notes = notes
                p.noteSelection = selected.flatMap { id in notes.firstIndex { $0.id == id } } ?? min(p.noteSelection, max(0, notes.count - 1))
            case .failure(let e): ui.append(.banner(Banner(e.phrase, level: .warning)))
            }
            return []
        case .deleted(let id, let result):
            switch result {
            case .success, .failure(.noSuchNote):
                // Not there (a second `y` on a note already gone) is deleted too.
                if let i = p.notes.firstIndex(where: { $0.id == id }) {
                    let subject = p.notes[i].subject
                    p.notes.remove(at: i)
                    // The highlight stays on the note it was on (the one after, if it was this).
                    if i < p.noteSelection { p.noteSelection -= 1 }
                    p.noteSelection = min(p.noteSelection, max(0, p.notes.count - 1))
                    if let n = p.snapshot?.noteCounts[subject], n > 0 { p.snapshot?.noteCounts[subject] = n - 1 }
                }
                ui.append(.banner(Banner(.key(.pulseDeleted))))
            case .failure(let e):
                ui.append(.banner(Banner(e.phrase, level: .warning)))
            }
            return []
        case .reported(_, let result):
            if case .failure(let e) = result { ui.append(.banner(Banner(e.phrase, level: .warning))) }
            if let s = p.notesSubject, case .notes? = c.box(Self.self) {
                return [effect(.loadNotes(s, viewer: p.identity?.credentials.visitor))]
            }
            return []
        }
    }

    /// Enter in the editor (or in the visit code box that came before sending): the note goes,
    /// or the reason it cannot.
    static func sendNote(_ p: inout PulseState, _ subject: PulseSubject, _ c: FeatureContext, _ ui: inout [UIRequest]) -> [DocentCore.Effect] {
        switch NoteText.clean(p.draft) {
        case .failure(let problem):
            ui.append(.banner(Banner(PulseStoreError.badText(problem).phrase, level: .warning)))
            return []
        case .success:
            guard p.ready, var identity = p.identity else {
                ui.append(.banner(notReady(p)))
                return []
            }
            switch gateRefusal(p, c) {
            case .visitCodeRequired?:
                askCode(&p, &ui, subject, thenSend: true, wrong: false)
                return []
            case .memberRequired?:
                ui.append(.banner(memberNeeded(c)))
                return []
            default: break
            }
            // The sequence never goes back, even if the clock does (see DECISIONS.md).
            let millis = UInt64(max(0, (c.now.timeIntervalSince1970 * 1000).rounded(.down)).clamped(to: 0...9e15))
            // Bounded before the + 1 (a damaged identity's sequence could be UInt64.max).
            let seq = min(max(identity.nextSequence, millis), UInt64.max - 1)
            identity.nextSequence = seq + 1
            p.identity = identity
            p.sending = true
            let draft = NoteDraft(
                id: NoteID(visitor: identity.credentials.visitor, sequence: seq), subject: subject, language: c.language, text: p.draft,
                pass: pass(p, c))
            ui.append(.persist)
            return [effect(.post(draft, identity.credentials))]
        }
    }

    /// The notes as a reader of `language` sees them (issue 33 #9): the museum's own notes once,
    /// in the reader's language where the museum wrote in it (else in English, else as they
    /// are: a curator's note comes in one copy per language), and every visitor's note, those
    /// in the reader's language first; each group in the store's order.
    static func arranged(_ notes: [PulseNote], for language: Language) -> [PulseNote] {
        let museum = notes.filter { $0.author != .visitor }
        let visitors = notes.filter { $0.author == .visitor }
        let mine = museum.filter { $0.language == language }
        let english = museum.filter { $0.language == .english }
        let museumShown = !mine.isEmpty ? mine : (!english.isEmpty ? english : museum)
        let shown = Set(museumShown.map(\.id))
        let first = Set(visitors.filter { $0.language == language }.map(\.id))
        let kept = notes.filter { $0.author == .visitor || shown.contains($0.id) }
        return kept.filter { shown.contains($0.id) || first.contains($0.id) } + kept.filter { !shown.contains($0.id) && !first.contains($0.id) }
    }

    /// What a visitor is told when Pulse is not ready: why, when the store could not be opened
    /// (it is being tried again), or that it is still starting.
    static func notReady(_ p: PulseState) -> Banner {
        Banner(p.openFailure?.phrase ?? .key(.pulseNotReady), level: .warning)
    }

    /// What the service's posting gate would say of a note sent now (nil: it may go): no code
    /// given today, or no member card saved. The embedded store is always open.
    static func gateRefusal(_ p: PulseState, _ c: FeatureContext) -> PostingRefusal? {
        switch p.snapshot?.posting ?? .open {
        case .open: return nil
        case .visitCode: return p.visitCode?.day == dayStart(c) ? nil : .visitCodeRequired
        case .members: return c.state(of: MemberFeature.self).card == nil ? .memberRequired : nil
        }
    }

    /// What a note carries through the gate.
    static func pass(_ p: PulseState, _ c: FeatureContext) -> PostingPass? {
        switch p.snapshot?.posting ?? .open {
        case .open: return nil
        case .visitCode: return p.visitCode.map { .visitCode($0.code) }
        case .members: return c.state(of: MemberFeature.self).card.map { .memberCard($0.memberID) }
        }
    }

    static func askCode(_ p: inout PulseState, _ ui: inout [UIRequest], _ subject: PulseSubject, thenSend: Bool, wrong: Bool) {
        p.codeField = ""
        p.codeWrong = wrong
        p.codeProblem = nil
        ui.append(.show(show(.visitCode(subject, thenSend: thenSend))))
    }

    /// Notes are for members: where to add a card (when the guide has the member card), else
    /// just that; a card the museum does not know, said so.
    static func memberNeeded(_ c: FeatureContext, _ r: PostingRefusal = .memberRequired) -> Banner {
        if r == .memberUnknown { return Banner(.key(.pulseGateMemberUnknown), level: .warning) }
        return Banner(.key(c.state(of: MemberFeature.self).serviceURL == nil ? .pulseGateMembersOnly : .pulseGateMemberRequired), level: .warning)
    }

    /// A reaction: the same choice again withdraws it. Shown at once; the store's counts
    /// follow.
    static func react(
        _ p: inout PulseState, _ c: FeatureContext, _ ui: inout [UIRequest], _ chosen: ReactionValue, _ subject: PulseSubject
    ) -> [DocentCore.Effect] {
        guard p.ready, let creds = p.identity?.credentials, p.snapshot != nil else {
            ui.append(.banner(notReady(p)))
            return []
        }
        let old = p.snapshot?.mine[subject]
        let new = PulseRules.toggled(old, pressing: chosen)
        let counts = (p.snapshot?.counts[subject] ?? .zero).changed(from: old, to: new)
        p.snapshot?.mine[subject] = new
        p.snapshot?.counts[subject] = counts
        ui.append(.banner(Banner(.key(new == nil ? .pulseWithdrawn : .pulseReacted))))
        return [effect(.react(new, subject, creds))]
    }

    static func edit(_ p: inout PulseState, _ a: PulseAction) {
        var chars = Array(p.draft)
        let at = min(max(0, p.cursor), chars.count)
        switch a {
        case .cursorLeft: p.cursor = max(0, at - 1)
        case .cursorRight: p.cursor = min(chars.count, at + 1)
        case .cursorHome: p.cursor = 0
        case .cursorEnd: p.cursor = chars.count
        case .cursorTo(let i): p.cursor = min(max(0, i), chars.count)
        case .deleteBackward:
            guard at > 0 else { return }
            chars.remove(at: at - 1)
            p.cursor = at - 1
        case .deleteForward:
            guard at < chars.count else { return }
            chars.remove(at: at)
        default: return
        }
        p.draft = String(chars)
    }

    /// A warning about the draft given on Enter ("The note is empty.") no longer describes it
    /// once it changed: it goes (issue 33 #8).
    static func forgetDraftProblem(_ c: FeatureContext, _ ui: inout [UIRequest]) {
        switch c.banner?.phrase {
        case .key(.pulseErrorEmpty, _)?, .key(.pulseErrorTooLong, _)?: ui.append(.clearBanner)
        default: break
        }
    }

    /// The note said to be "saved, will be sent" has left the outbox: "Your note was sent."
    /// replaces that sentence if it still shows (another message since is left alone); a note
    /// the store refused is said whatever shows, as nobody else will tell its writer.
    static func sayQueuedNoteSent(_ p: inout PulseState, _ snap: PulseSnapshot, _ c: FeatureContext, _ ui: inout [UIRequest]) {
        guard let id = p.queuedNote, !snap.waitingNotes.contains(id) else { return }
        p.queuedNote = nil
        if let e = snap.refusedNotes[id] {
            ui.append(.banner(Banner(e.phrase, level: .warning)))
        } else if c.banner == Banner(.key(.pulseNoteQueued)) {
            ui.append(.banner(Banner(.key(.pulseNoteSent))))
        }
    }

    /// `pulse/seed.json` beside a local appData (a remote museum's seed is loaded by its
    /// service, issue 13).
    static func seedPath(_ c: FeatureContext) -> String? {
        // The museum's source (not only while it loads: the store may open again later).
        var path = c.source
        if path.hasPrefix("file://") { path = String(path.dropFirst(7)) }
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[...slash]) + "pulse/seed.json"
    }

    /// The start of the visitor's day, in the museum's zone.
    /// The version of the empty snapshot used before a store ever answered: lower than any.
    static let unknownVersion = PulseVersion(-1)

    static func dayStart(_ c: FeatureContext) -> Date {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = c.timeZone
        return cal.startOfDay(for: c.now)
    }

    /// What `f` is about: the page open (an exhibition, a tour), else the highlighted row of a
    /// list when it is a tour, an exhibition or an artwork (issue 33 #9: on Home, with a tour
    /// highlighted, `f` opened the museum's), else what is playing (the stop of a tour, an
    /// artwork), else the museum.
    public static func currentSubject(_ c: FeatureContext) -> PulseSubject? {
        guard c.museum != nil else { return nil }
        if let r = c.route(of: HomeFeature.self), case .exhibition(let id) = r { return .exhibition(id) }
        if let r = c.route(of: TourFeature.self), case .detail(let id) = r { return .tour(id) }
        if let row = c.highlightedRow, let s = highlighted(row) { return s }
        if let track = c.playerTrack {
            if let a = track.artworkID { return .artwork(a) }
            if let t = track.tourID { return .tour(t) }
        }
        return .museum
    }

    /// A subject's name as the visitor knows it.
    public static func title(_ subject: PulseSubject, _ c: FeatureContext) -> String {
        let s = c.strings
        guard let app = c.museum else { return subject.key }
        let parts = subject.key.split(separator: ":", maxSplits: 1)
        let id = parts.count == 2 ? Int(parts[1]) : nil
        switch subject.kind {
        case "artwork":
            if let id, let a = app.artworks[id] {
                // In the visitor's language where its commentary has a translated title.
                if let audio = a.commentaries.first.flatMap({ app.audioFiles[$0.audioID] }) {
                    // (The museum's Chinese is one content language: a Traditional reader gets
                    // it too, drawn in their script; issue 47 #9.)
                    let (version, _) = audio.version(for: c.language)
                    if version.language == c.language.content, !version.trackTitle.isEmpty { return version.trackTitle }
                }
                return a.title
            }
        case "tour": if let id, let t = app.tour(id) { return t.text(c.language).text.title }
        case "exhibition":
            if let id, case .loaded(let items) = c.state(of: HomeFeature.self).exhibitions, let e = items.first(where: { $0.id == id }) { return e.title }
            return s(.pulseExhibition)
        case "museum": return s(.pulseMuseum)
        default: break
        }
        return subject.key
    }

    // MARK: Hooks

    public static func react(to event: FeatureEvent, _ p: inout PulseState, _ c: FeatureContext) -> Outcome {
        switch event {
        case .launched:
            switch PulseLocation.parse(c.config[configKey]) {
            case .success(let l): p.location = l
            case .failure(let f):
                return Outcome(requests: [.banner(Banner(.key(.pulseErrorUnavailable, ["reason": .verbatim(f.message)]), level: .warning))])
            }
            return Outcome(effects: [effect(.open(p.location, identity: p.identity?.credentials, seed: seedPath(c)))])
        case .playerChanged(let before):
            // A commentary that starts counts as a play (anonymous).
            guard let track = c.playerTrack, let a = track.artworkID, c.playerSnapshot.token != before.token, p.ready else { return .none }
            return Outcome(effects: [effect(.recordPlay(.artwork(a)))])
        case .startOver:
            // The next visitor (at a kiosk) finds no draft, no open list and no undo of a report.
            p.draft = ""
            p.draftSubject = nil
            p.cursor = 0
            p.queuedNote = nil
            p.notes = []
            p.notesSubject = nil
            p.noteSelection = 0
            p.boxSelection = 0
            p.exactTimes = false
            p.lastReport = nil
            // …nor the last visitor's visit code (their ticket, not the next one's)…
            p.visitCode = nil
            p.codeField = ""
            p.codeWrong = false
            // …and is a new visitor for Pulse (issue 32): a fresh identity (so no reactions,
            // reports, limits or hidden writers of the last one), asked of the store at once;
            // the box shows nothing of the last visitor's meanwhile.
            guard p.ready || p.identity != nil else { return .none }
            p.identity = nil
            p.ready = false
            p.snapshot?.mine = [:]
            p.snapshot?.myReports = []
            return Outcome(effects: [effect(.open(p.location, identity: nil, seed: seedPath(c)))], requests: [.persist])
        default:  // not listened to (`listensTo`): never sent here
            return .none
        }
    }

    public static func overlay(_ input: OverlayInput, _ o: Overlay, _ p: inout PulseState, _ c: FeatureContext) -> Outcome {
        switch (o, input) {
        case (.box, .move(let d)):
            p.boxSelection = min(4, max(0, p.boxSelection + d))
            return .none
        case (.box, .activate): return reduce(&p, .choose(p.boxSelection + 1), c)
        case (.box, .choose(let i)): return reduce(&p, .choose(i + 1), c)
        case (.editor, .activate): return reduce(&p, .send, c)
        case (.visitCode, .activate): return reduce(&p, .codeEntered, c)
        case (.visitCode(let subject, true), .dismissed):
            // Back to the note, as it was typed.
            return Outcome(requests: [.show(show(.editor(subject)))])
        case (.notes, .move(let d)):
            p.noteSelection = min(max(0, p.notes.count - 1), max(0, p.noteSelection + d))
            return .none
        case (.notes, .activate): return reduce(&p, .toggleTimes, c)
        case (.keys(let back), .dismissed), (.confirmDelete(_, let back), .dismissed):
            return Outcome(requests: [.show(show(back))])
        case (.keys, .move(let d)):
            return Outcome(requests: [.scrollBox(d)])
        case (.keys(let back), .activate):
            return Outcome(requests: [.show(show(back))])
        case (_, .dismissed), (.editor, _), (.notes, _), (.box, _), (.keys, _), (.confirmDelete, _), (.visitCode, _): return .none
        }
    }

    /// Whether a check is in flight is the feature's own bookkeeping: nothing shows it, so a
    /// check that starts and finds nothing new draws nothing (it was two whole frames every
    /// five seconds, a tenth of the guide's CPU while a recording played).
    public static func drawsAlike(_ a: PulseState, _ b: PulseState) -> Bool {
        var a = a
        a.checking = b.checking
        return a == b
    }

    public static func saved(_ state: PulseState) -> PulseIdentity? { state.identity }
    public static func restore(_ saved: PulseIdentity, _ state: inout PulseState) { state.identity = saved }
}

extension Double {
    fileprivate func clamped(to r: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, r.lowerBound), r.upperBound) }
}

extension AppState {
    /// Pulse's state, for the root and the cores (its view reads `PulseState` and the context).
    var pulse: PulseState {
        get { self[PulseFeature.self] }
        _modify { yield &self[PulseFeature.self] }
        set { self[PulseFeature.self] = newValue }
    }
}

extension AppAction {
    public static func pulse(_ a: PulseAction) -> AppAction { PulseFeature.action(a) }
}

extension Effect {
    public static func pulse(_ e: PulseEffect) -> Effect { PulseFeature.effect(e) }
}

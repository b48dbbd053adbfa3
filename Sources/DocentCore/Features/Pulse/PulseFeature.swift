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
    public init() {}
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
/// and the notes list are drawn by `PulseView`.
public enum PulseFeature: Feature {
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
    public static let order: [Capability: Int] = [.events: 110, .keysAnywhere: 110, .rows: 110, .decorate: 110, .help: 110]
    public static let listensTo: Set<FeatureEvent.Kind> = [.launched, .playerChanged, .startOver]
    public static let initialState = PulseState()
    public static let configKey = "pulse"
    public static let configKeys = [configKey]
    /// The change check's timer, and how often it runs.
    public static let checkTimer = TimerID("pulseCheck")
    public static let checkMilliseconds = 5_000
    /// Opening the store again after a failure: 2 s, then doubling up to a minute.
    public static let reopenTimer = TimerID("pulseReopen")
    public static func reopenMilliseconds(after attempts: Int) -> Int {
        min(60_000, 2_000 << min(max(attempts - 1, 0), 5))
    }
    public static let rules = PulseRules.standard

    public static func reduce(_ state: inout AppState, _ a: PulseAction) -> [DocentCore.Effect] {
        switch a {
        case .open:
            guard let subject = currentSubject(state) else { return [] }
            state.pulse.boxSelection = 0
            state.overlay = show(.box(subject))
            return []
        case .choose(let n):
            guard case .box(let subject)? = overlay(in: state), (1...5).contains(n) else { return [] }
            state.pulse.boxSelection = n - 1
            switch n {
            case 1, 2, 3: return react(&state, [.up, .meh, .down][n - 1], subject)
            case 4:
                // Asked before a long note is typed, not after (the gate is in the snapshot).
                let refusal = gateRefusal(state)
                if refusal == .memberRequired {
                    state.banner = memberNeeded(state)
                    return []
                }
                if state.pulse.draftSubject != subject {
                    state.pulse.draft = ""
                    state.pulse.cursor = 0
                    state.pulse.draftSubject = subject
                }
                if refusal == .visitCodeRequired {
                    askCode(&state, subject, thenSend: false, wrong: false)
                    return []
                }
                state.overlay = show(.editor(subject))
                return []
            default:
                state.pulse.notes = []
                state.pulse.notesSubject = subject
                state.pulse.noteSelection = 0
                state.pulse.lastReport = nil
                state.overlay = show(.notes(subject))
                return [effect(.loadNotes(subject, viewer: state.pulse.identity?.credentials.visitor))]
            }
        case .typed(let text):
            guard case .editor? = overlay(in: state), !state.pulse.sending else { return [] }
            var chars = Array(state.pulse.draft)
            // Cut at once (`PulseBounds.input`): a 112 KB paste is never measured cell by cell.
            let clean = Array(PulseBounds.input(text).filter { c in !c.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) } })
            let at = min(max(0, state.pulse.cursor), chars.count)
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
            state.pulse.draft = String(chars)
            state.pulse.cursor = at + fitting.count
            if !fitting.isEmpty { forgetDraftProblem(&state) }
            return []
        case .cursorLeft, .cursorRight, .cursorHome, .cursorEnd, .cursorTo, .deleteBackward, .deleteForward:
            guard case .editor? = overlay(in: state) else { return [] }
            let before = state.pulse.draft
            edit(&state.pulse, a)
            if state.pulse.draft != before { forgetDraftProblem(&state) }
            return []
        case .send:
            guard case .editor(let subject)? = overlay(in: state), !state.pulse.sending else { return [] }
            switch NoteText.clean(state.pulse.draft) {
            case .failure(let p):
                state.banner = Banner(PulseStoreError.badText(p).phrase, level: .warning)
                return []
            case .success:
                guard state.pulse.ready, var identity = state.pulse.identity else {
                    state.banner = notReady(state)
                    return []
                }
                switch gateRefusal(state) {
                case .visitCodeRequired?:
                    askCode(&state, subject, thenSend: true, wrong: false)
                    return []
                case .memberRequired?:
                    state.banner = memberNeeded(state)
                    return []
                default: break
                }
                // The sequence never goes back, even if the clock does (see DECISIONS.md).
                let millis = UInt64(max(0, (state.now.timeIntervalSince1970 * 1000).rounded(.down)).clamped(to: 0...9e15))
                let seq = max(identity.nextSequence, millis)
                identity.nextSequence = seq + 1
                state.pulse.identity = identity
                state.pulse.sending = true
                let draft = NoteDraft(
                    id: NoteID(visitor: identity.credentials.visitor, sequence: seq), subject: subject, language: state.language, text: state.pulse.draft,
                    pass: pass(state))
                return [effect(.post(draft, identity.credentials)), .persist(state.settings)]
            }
        case .report, .undoReport:
            guard case .notes? = overlay(in: state), let creds = state.pulse.identity?.credentials, state.pulse.ready else { return [] }
            if a == .report {
                guard state.pulse.notes.indices.contains(state.pulse.noteSelection) else { return [] }
                let note = state.pulse.notes[state.pulse.noteSelection]
                // One's own note is not reported (issue 33 #9): deleting it (`d`) is the way.
                guard note.id.visitor != creds.visitor else {
                    state.banner = Banner(.key(.pulseReportOwn), level: .warning)
                    return []
                }
                // Gone for the reporter at once; the store is told.
                state.pulse.notes.remove(at: state.pulse.noteSelection)
                state.pulse.noteSelection = min(state.pulse.noteSelection, max(0, state.pulse.notes.count - 1))
                state.pulse.lastReport = note.id
                state.pulse.snapshot?.myReports.insert(note.id)
                state.banner = Banner(.key(.pulseReported))
                return [effect(.report(note.id, true, creds))]
            }
            guard let id = state.pulse.lastReport else { return [] }
            state.pulse.lastReport = nil
            state.pulse.snapshot?.myReports.remove(id)
            state.banner = Banner(.key(.pulseReportUndone))
            return [effect(.report(id, false, creds))]
        case .toggleTimes:
            state.pulse.exactTimes.toggle()
            return []
        case .hideWriter:
            guard case .notes? = overlay(in: state), state.pulse.identity != nil, state.pulse.notes.indices.contains(state.pulse.noteSelection) else { return [] }
            let note = state.pulse.notes[state.pulse.noteSelection]
            // The museum's own notes, and one's own, are not a visitor to hide.
            guard note.author == .visitor, note.id.visitor != state.pulse.identity?.credentials.visitor else {
                state.banner = Banner(.key(.pulseHiddenCannot), level: .warning)
                return []
            }
            if state.pulse.identity?.hidden.contains(where: { $0.visitor == note.id.visitor }) == false {
                state.pulse.identity?.hidden.append(HiddenWriter(visitor: note.id.visitor, sample: note.text))
            }
            state.pulse.notes.removeAll { $0.id.visitor == note.id.visitor }
            state.pulse.noteSelection = min(state.pulse.noteSelection, max(0, state.pulse.notes.count - 1))
            state.banner = Banner(.key(.pulseHiddenDone))
            return [.persist(state.settings)]
        case .deleteOwn:
            guard case .notes? = overlay(in: state), let o = overlay(in: state), state.pulse.notes.indices.contains(state.pulse.noteSelection) else { return [] }
            let note = state.pulse.notes[state.pulse.noteSelection]
            // Only one's own (a visitor's note of this identity; the museum's are staff's).
            guard note.author == .visitor, note.id.visitor == state.pulse.identity?.credentials.visitor else {
                state.banner = Banner(.key(.pulseDeleteNotOwn), level: .warning)
                return []
            }
            state.overlay = show(.confirmDelete(note.id, o))
            return []
        case .confirmDelete:
            guard case .confirmDelete(let id, let back)? = overlay(in: state) else { return [] }
            state.overlay = show(back)
            guard state.pulse.ready, let creds = state.pulse.identity?.credentials else {
                state.banner = notReady(state)
                return []
            }
            // Gone from the list once the store says so (a delete is not kept offline).
            return [effect(.deleteNote(id, creds))]
        case .cancelDelete:
            guard case .confirmDelete(_, let back)? = overlay(in: state) else { return [] }
            state.overlay = show(back)
            return []
        case .codeTyped(let text):
            guard case .visitCode? = overlay(in: state) else { return [] }
            let room = VisitCodeText.length * 2 - state.pulse.codeField.count
            state.pulse.codeField += String(text.filter(VisitCodeText.accepts).uppercased().prefix(max(0, room)))
            return []
        case .codeDeleteBackward:
            guard case .visitCode? = overlay(in: state), !state.pulse.codeField.isEmpty else { return [] }
            state.pulse.codeField.removeLast()
            return []
        case .codeEntered:
            guard case .visitCode(let subject, let thenSend)? = overlay(in: state) else { return [] }
            let code = VisitCodeText.normalized(state.pulse.codeField)
            guard !code.isEmpty else { return [] }
            // Kept for the museum's day; whether it is right, the service says when the note goes.
            state.pulse.visitCode = VisitCodeEntry(code: code, day: dayStart(state))
            state.pulse.codeWrong = false
            state.overlay = show(.editor(subject))
            return thenSend ? reduce(&state, .send) : []
        case .unhide(let visitor):
            guard let before = state.pulse.identity?.hidden, before.contains(where: { $0.visitor == visitor }) else { return [] }
            state.pulse.identity?.hidden.removeAll { $0.visitor == visitor }
            state.banner = Banner(.key(.pulseHiddenUndone))
            return [.persist(state.settings)]
        case .showKeys:
            guard let o = overlay(in: state) else { return [] }
            switch o {
            case .box, .notes:
                state.overlayScroll = 0
                state.overlay = show(.keys(o))
            case .editor, .keys, .confirmDelete, .visitCode: break
            }
            return []
        case .check:
            var out: [DocentCore.Effect] = [.timer(checkTimer, milliseconds: checkMilliseconds, action: action(.check))]
            if state.pulse.ready, !state.pulse.checking {
                state.pulse.checking = true
                out.append(effect(.check(viewer: state.pulse.identity?.credentials.visitor, dayStart: dayStart(state), since: state.pulse.snapshot?.version)))
            }
            return out
        case .opened(.success(let creds)):
            state.pulse.ready = true
            // The reason it could not be opened is no longer true.
            if let failure = state.pulse.openFailure, state.banner?.phrase == failure.phrase { state.banner = nil }
            state.pulse.openFailure = nil
            state.pulse.openAttempts = 0
            var out: [DocentCore.Effect] = []
            if state.pulse.identity?.credentials != creds {
                state.pulse.identity = PulseIdentity(credentials: creds, nextSequence: 0)
                out.append(.persist(state.settings))
            }
            state.pulse.checking = true
            out.append(effect(.check(viewer: creds.visitor, dayStart: dayStart(state), since: nil)))
            out.append(.timer(checkTimer, milliseconds: checkMilliseconds, action: action(.check)))
            return out
        case .opened(.failure(let e)):
            // Said, and tried again with backoff: a lock held at start, a file being repaired
            // or a disk being freed is not the end of Pulse for the session.
            state.banner = Banner(e.phrase, level: .warning)
            state.pulse.openFailure = e
            state.pulse.openAttempts += 1
            return [.timer(reopenTimer, milliseconds: reopenMilliseconds(after: state.pulse.openAttempts), action: action(.reopen))]
        case .reopen:
            guard !state.pulse.ready else { return [] }
            return [effect(.open(state.pulse.location, identity: state.pulse.identity?.credentials, seed: seedPath(state)))]
        case .checked(let result):
            state.pulse.checking = false
            switch result {
            case .success(nil):
                state.pulse.offline = false
                return []
            case .success(var snap?):
                state.pulse.offline = false
                sayQueuedNoteSent(&state, snap)
                // Bounded before it is kept: matching runs on every drawn list.
                snap.announcements = PulseAnnouncements.kept(snap.announcements, now: state.now)
                state.pulse.snapshot = snap
                // Something changed: the open notes list is read again.
                if case .notes(let s)? = overlay(in: state) { return [effect(.loadNotes(s, viewer: state.pulse.identity?.credentials.visitor))] }
                return []
            case .failure(let e):
                // The next check tries again; meanwhile the visitor is told (not for a refusal).
                if case .unavailable = e {
                    state.pulse.offline = true
                    // Never reached since the guide started: an empty picture (a version no store
                    // has), so the visitor can still react and write; a store with an outbox
                    // keeps those writes until it is back, and the next snapshot replaces this.
                    if state.pulse.snapshot == nil { state.pulse.snapshot = PulseSnapshot(version: Self.unknownVersion, takenAt: state.now) }
                }
                return []
            }
        case .reacted(let subject, let result):
            switch result {
            case .success(let counts): state.pulse.snapshot?.counts[subject] = counts
            case .failure(let e):
                state.banner = Banner(e.phrase, level: .warning)
                // The optimistic change is undone by the next snapshot, whatever its version.
                if let v = state.pulse.snapshot?.version { state.pulse.snapshot?.version = PulseVersion(v.value - 1) }
            }
            return []
        case .posted(let result):
            state.pulse.sending = false
            switch result {
            case .success(let outcome):
                let note: PulseNote
                switch outcome {
                case .created(let n), .alreadyStored(let n):
                    note = n
                    state.banner = Banner(.key(.pulseNoteSent))
                case .queued(let n):
                    note = n
                    state.banner = Banner(.key(.pulseNoteQueued))
                    state.pulse.queuedNote = n.id
                }
                state.pulse.draft = ""
                state.pulse.cursor = 0
                state.pulse.draftSubject = nil
                if case .editor? = overlay(in: state) { state.overlay = nil }
                state.pulse.snapshot?.noteCounts[note.subject, default: 0] += 1
                return []
            case .failure(.postingRefused(let r)):
                // The service's gate, learnt even if the snapshot did not say it (a service
                // switched to a gate since): the note stays as it was typed.
                if let gate = r.gate { state.pulse.snapshot?.posting = gate }
                if r == .visitCodeRequired || r == .visitCodeWrong {
                    let typed = state.pulse.visitCode?.code
                    state.pulse.visitCode = nil
                    if case .editor(let subject)? = overlay(in: state) {
                        askCode(&state, subject, thenSend: true, wrong: r == .visitCodeWrong)
                        // A wrong code is shown to be corrected (one letter misread is likely).
                        if r == .visitCodeWrong { state.pulse.codeField = typed ?? "" }
                        return []
                    }
                }
                state.banner = r.gate == .members ? memberNeeded(state, r) : Banner(PulseStoreError.postingRefused(r).phrase, level: .warning)
                return []
            case .failure(let e):
                state.banner = Banner(e.phrase, level: .warning)
                return []
            }
        case .notesLoaded(let subject, let result):
            guard state.pulse.notesSubject == subject else { return [] }
            switch result {
            case .success(let all):
                let hidden = Set(state.pulse.identity?.hidden.map(\.visitor) ?? [])
                let notes = arranged(all.filter { rules.hidden($0, viewerReported: false, hiddenWriters: hidden) != .writerHidden }, for: state.language)
                let selected = state.pulse.notes.indices.contains(state.pulse.noteSelection) ? state.pulse.notes[state.pulse.noteSelection].id : nil
                state.pulse.notes = notes
                state.pulse.noteSelection = selected.flatMap { id in notes.firstIndex { $0.id == id } } ?? min(state.pulse.noteSelection, max(0, notes.count - 1))
            case .failure(let e): state.banner = Banner(e.phrase, level: .warning)
            }
            return []
        case .deleted(let id, let result):
            switch result {
            case .success, .failure(.noSuchNote):
                // Not there (a second `y` on a note already gone) is deleted too.
                if let i = state.pulse.notes.firstIndex(where: { $0.id == id }) {
                    let subject = state.pulse.notes[i].subject
                    state.pulse.notes.remove(at: i)
                    // The highlight stays on the note it was on (the one after, if it was this).
                    if i < state.pulse.noteSelection { state.pulse.noteSelection -= 1 }
                    state.pulse.noteSelection = min(state.pulse.noteSelection, max(0, state.pulse.notes.count - 1))
                    if let n = state.pulse.snapshot?.noteCounts[subject], n > 0 { state.pulse.snapshot?.noteCounts[subject] = n - 1 }
                }
                state.banner = Banner(.key(.pulseDeleted))
            case .failure(let e):
                state.banner = Banner(e.phrase, level: .warning)
            }
            return []
        case .reported(_, let result):
            if case .failure(let e) = result { state.banner = Banner(e.phrase, level: .warning) }
            if let s = state.pulse.notesSubject, case .notes? = overlay(in: state) {
                return [effect(.loadNotes(s, viewer: state.pulse.identity?.credentials.visitor))]
            }
            return []
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
    static func notReady(_ state: AppState) -> Banner {
        Banner(state.pulse.openFailure?.phrase ?? .key(.pulseNotReady), level: .warning)
    }

    /// What the service's posting gate would say of a note sent now (nil: it may go): no code
    /// given today, or no member card saved. The embedded store is always open.
    static func gateRefusal(_ state: AppState) -> PostingRefusal? {
        switch state.pulse.snapshot?.posting ?? .open {
        case .open: return nil
        case .visitCode: return state.pulse.visitCode?.day == dayStart(state) ? nil : .visitCodeRequired
        case .members: return state.member.card == nil ? .memberRequired : nil
        }
    }

    /// What a note carries through the gate.
    static func pass(_ state: AppState) -> PostingPass? {
        switch state.pulse.snapshot?.posting ?? .open {
        case .open: return nil
        case .visitCode: return state.pulse.visitCode.map { .visitCode($0.code) }
        case .members: return state.member.card.map { .memberCard($0.memberID) }
        }
    }

    static func askCode(_ state: inout AppState, _ subject: PulseSubject, thenSend: Bool, wrong: Bool) {
        state.pulse.codeField = ""
        state.pulse.codeWrong = wrong
        state.overlay = show(.visitCode(subject, thenSend: thenSend))
    }

    /// Notes are for members: where to add a card (when the guide has the member card), else
    /// just that; a card the museum does not know, said so.
    static func memberNeeded(_ state: AppState, _ r: PostingRefusal = .memberRequired) -> Banner {
        if r == .memberUnknown { return Banner(.key(.pulseGateMemberUnknown), level: .warning) }
        return Banner(.key(state.member.serviceURL == nil ? .pulseGateMembersOnly : .pulseGateMemberRequired), level: .warning)
    }

    /// A reaction: the same choice again withdraws it. Shown at once; the store's counts
    /// follow.
    static func react(_ state: inout AppState, _ chosen: ReactionValue, _ subject: PulseSubject) -> [DocentCore.Effect] {
        guard state.pulse.ready, let creds = state.pulse.identity?.credentials, state.pulse.snapshot != nil else {
            state.banner = notReady(state)
            return []
        }
        let old = state.pulse.snapshot?.mine[subject]
        let new = PulseRules.toggled(old, pressing: chosen)
        let counts = (state.pulse.snapshot?.counts[subject] ?? .zero).changed(from: old, to: new)
        state.pulse.snapshot?.mine[subject] = new
        state.pulse.snapshot?.counts[subject] = counts
        state.banner = Banner(.key(new == nil ? .pulseWithdrawn : .pulseReacted))
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
    static func forgetDraftProblem(_ state: inout AppState) {
        switch state.banner?.phrase {
        case .key(.pulseErrorEmpty, _)?, .key(.pulseErrorTooLong, _)?: state.banner = nil
        default: break
        }
    }

    /// The note said to be "saved, will be sent" has left the outbox: "Your note was sent."
    /// replaces that sentence if it still shows (another message since is left alone); a note
    /// the store refused is said whatever shows, as nobody else will tell its writer.
    static func sayQueuedNoteSent(_ state: inout AppState, _ snap: PulseSnapshot) {
        guard let id = state.pulse.queuedNote, !snap.waitingNotes.contains(id) else { return }
        state.pulse.queuedNote = nil
        if let e = snap.refusedNotes[id] {
            state.banner = Banner(e.phrase, level: .warning)
        } else if state.banner == Banner(.key(.pulseNoteQueued)) {
            state.banner = Banner(.key(.pulseNoteSent))
        }
    }

    /// `pulse/seed.json` beside a local appData (a remote museum's seed is loaded by its
    /// service, issue 13).
    static func seedPath(_ state: AppState) -> String? {
        // The museum's source (not only while it loads: the store may open again later).
        var path = state.source
        if path.hasPrefix("file://") { path = String(path.dropFirst(7)) }
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[...slash]) + "pulse/seed.json"
    }

    /// The start of the visitor's day, in the museum's zone.
    /// The version of the empty snapshot used before a store ever answered: lower than any.
    static let unknownVersion = PulseVersion(-1)

    static func dayStart(_ state: AppState) -> Date {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = state.timeZone
        return cal.startOfDay(for: state.now)
    }

    /// What `f` is about: the page open (an exhibition, a tour), else the highlighted row of a
    /// list when it is a tour, an exhibition or an artwork (issue 33 #9: on Home, with a tour
    /// highlighted, `f` opened the museum's), else what is playing (the stop of a tour, an
    /// artwork), else the museum.
    public static func currentSubject(_ state: AppState) -> PulseSubject? {
        guard state.museum != nil else { return nil }
        if let r = HomeFeature.route(in: state), case .exhibition(let id) = r { return .exhibition(id) }
        if let r = TourFeature.route(in: state), case .detail(let id) = r { return .tour(id) }
        if let rows = Reducer.rows(state), let i = Row.effectiveSelection(rows, state.page.selection), let s = highlighted(rows[i]) {
            return s
        }
        if let track = state.player.track {
            if let a = track.artworkID { return .artwork(a) }
            if let t = track.tourID { return .tour(t) }
        }
        return .museum
    }

    /// A subject's name as the visitor knows it.
    public static func title(_ subject: PulseSubject, _ state: AppState) -> String {
        let s = state.strings
        guard let app = state.museum else { return subject.key }
        let parts = subject.key.split(separator: ":", maxSplits: 1)
        let id = parts.count == 2 ? Int(parts[1]) : nil
        switch subject.kind {
        case "artwork":
            if let id, let a = app.artworks[id] {
                // In the visitor's language where its commentary has a translated title.
                if let audio = a.commentaries.first.flatMap({ app.audioFiles[$0.audioID] }) {
                    let (version, _) = audio.version(for: state.language)
                    if version.language == state.language, !version.trackTitle.isEmpty { return version.trackTitle }
                }
                return a.title
            }
        case "tour": if let id, let t = app.tour(id) { return t.text(state.language).text.title }
        case "exhibition":
            if let id, case .loaded(let items) = state[HomeFeature.self].exhibitions, let e = items.first(where: { $0.id == id }) { return e.title }
            return s(.pulseExhibition)
        case "museum": return s(.pulseMuseum)
        default: break
        }
        return subject.key
    }

    // MARK: Hooks

    public static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] {
        switch event {
        case .launched:
            switch PulseLocation.parse(state.config[configKey]) {
            case .success(let l): state.pulse.location = l
            case .failure(let f):
                state.banner = Banner(.key(.pulseErrorUnavailable, ["reason": .verbatim(f.message)]), level: .warning)
                return []
            }
            return [effect(.open(state.pulse.location, identity: state.pulse.identity?.credentials, seed: seedPath(state)))]
        case .playerChanged(let before):
            // A commentary that starts counts as a play (anonymous).
            guard let track = state.player.track, let a = track.artworkID, state.player.snapshot.token != before.token, state.pulse.ready else { return [] }
            return [effect(.recordPlay(.artwork(a)))]
        case .startOver:
            // Kiosk: the next visitor finds no draft, no open list and no undo of a report.
            state.pulse.draft = ""
            state.pulse.draftSubject = nil
            state.pulse.cursor = 0
            state.pulse.queuedNote = nil
            state.pulse.notes = []
            state.pulse.notesSubject = nil
            state.pulse.noteSelection = 0
            state.pulse.boxSelection = 0
            state.pulse.exactTimes = false
            state.pulse.lastReport = nil
            // …nor the last visitor's visit code (their ticket, not the next one's)…
            state.pulse.visitCode = nil
            state.pulse.codeField = ""
            state.pulse.codeWrong = false
            // …and is a new visitor for Pulse (issue 32): a fresh identity (so no reactions,
            // reports, limits or hidden writers of the last one), asked of the store at once;
            // the box shows nothing of the last visitor's meanwhile.
            guard state.pulse.ready || state.pulse.identity != nil else { return [] }
            state.pulse.identity = nil
            state.pulse.ready = false
            state.pulse.snapshot?.mine = [:]
            state.pulse.snapshot?.myReports = []
            return [.persist(state.settings), effect(.open(state.pulse.location, identity: nil, seed: seedPath(state)))]
        default:  // not listened to (`listensTo`): never sent here
            return []
        }
    }

    public static func overlay(_ input: OverlayInput, _ o: Overlay, _ state: inout AppState) -> [DocentCore.Effect] {
        switch (o, input) {
        case (.box, .move(let d)):
            state.pulse.boxSelection = min(4, max(0, state.pulse.boxSelection + d))
            return []
        case (.box, .activate): return reduce(&state, .choose(state.pulse.boxSelection + 1))
        case (.box, .choose(let i)): return reduce(&state, .choose(i + 1))
        case (.editor, .activate): return reduce(&state, .send)
        case (.visitCode, .activate): return reduce(&state, .codeEntered)
        case (.visitCode(let subject, true), .dismissed):
            // Back to the note, as it was typed.
            state.overlay = show(.editor(subject))
            return []
        case (.notes, .move(let d)):
            state.pulse.noteSelection = min(max(0, state.pulse.notes.count - 1), max(0, state.pulse.noteSelection + d))
            return []
        case (.notes, .activate): return reduce(&state, .toggleTimes)
        case (.keys(let back), .dismissed), (.confirmDelete(_, let back), .dismissed):
            state.overlay = show(back)
            return []
        case (.keys, .move(let d)):
            state.overlayScroll = min(max(0, state.overlayScroll + d), 60)
            return []
        case (.keys(let back), .activate):
            state.overlayScroll = 0
            state.overlay = show(back)
            return []
        case (_, .dismissed), (.editor, _), (.notes, _), (.box, _), (.keys, _), (.confirmDelete, _), (.visitCode, _): return []
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

    public static func saved(_ state: AppState) -> PulseIdentity? { state.pulse.identity }
    public static func restore(_ saved: PulseIdentity, _ state: inout AppState) { state.pulse.identity = saved }
}

extension Double {
    fileprivate func clamped(to r: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, r.lowerBound), r.upperBound) }
}

extension AppState {
    public var pulse: PulseState {
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

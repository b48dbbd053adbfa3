/// Where a visitor was in a tour, saved so they can pick it up again tomorrow.
public struct TourProgress: Equatable, Sendable {
    public var tourID: Int
    /// The stop playing or next (nil: the intro).
    public var stopIndex: Int?
    /// Seconds into that clip.
    public var seconds: Double
    public var language: Language
    public var mode: TourMode

    public init(tourID: Int, stopIndex: Int?, seconds: Double, language: Language, mode: TourMode) {
        self.tourID = tourID
        self.stopIndex = stopIndex
        self.seconds = seconds
        self.language = language
        self.mode = mode
    }
}

/// A running tour: the machine, its language, and which player token is its clip.
public struct TourSession: Equatable, Sendable {
    public var machine: TourMachine
    public var language: Language
    /// The player token of the clip the tour started, to recognise its end.
    public var clipToken: Int?
    /// The clip failed (404, dropped): offer retry or skip.
    public var failed = false
    /// Last position saved, so progress is written every 5 s of listening.
    public var savedAt: Double = 0

    public init(machine: TourMachine, language: Language) {
        self.machine = machine
        self.language = language
    }
}

/// Tour actions.
public enum TourAction: Equatable, Sendable {
    /// Ask for the tour language, then start at the intro (nil) or a stop.
    case start(tourID: Int, stop: Int?)
    /// Start now, in `language`, from the intro or a stop, at `seconds` into it.
    case begin(tourID: Int, stop: Int?, language: Language, seconds: Double)
    /// Arrived / next / previous / jump / retry.
    case event(TourEvent)
    case toggleMode
    /// Ask before leaving.
    case askLeave
    case leave
    /// Accept the resume offer shown at start.
    case resume
}

extension Reducer {
    static func reduceTour(_ state: inout AppState, _ action: AppAction) -> [Effect]? {
        guard case .tour(let a) = action else { return nil }
        switch a {
        case .start(let id, let stop):
            guard state.museum?.tour(id) != nil else { return [] }
            let langs = state.audioLanguages
            state.overlay = .tourLanguage(tourID: id, stop: stop, selection: langs.firstIndex(of: state.language) ?? 0)
            return []
        case .begin(let id, let stop, let lang, let seconds):
            return beginTour(&state, id, stop: stop, language: lang, seconds: seconds)
        case .event(let e):
            guard var session = state.tour else { return [] }
            var event = e
            if case .previous = e { event = .previous(secondsIntoClip: state.player.snapshot.position) }
            let command = session.machine.handle(event)
            state.tour = session
            return tourPlay(&state, command) + progressEffects(&state)
        case .toggleMode:
            guard var session = state.tour else { return [] }
            let mode: TourMode = session.machine.mode == .guided ? .continuous : .guided
            let command = session.machine.handle(.setMode(mode))
            state.tour = session
            return tourPlay(&state, command) + progressEffects(&state)
        case .askLeave:
            guard state.tour != nil, state.overlay == nil else { return [] }
            state.overlay = .leaveTour
            return []
        case .leave:
            guard let session = state.tour else { return [] }
            state.overlay = nil
            state.tour = nil
            state.progress.current = nil
            var effects: [Effect] = []
            if state.player.track?.tourID == session.machine.tourID {
                state.player.track = nil
                state.player.snapshot = PlayerSnapshot(token: state.player.snapshot.token, volume: state.player.volume)
                effects.append(.audio(.stop))
            }
            state.messageQueue += (state.museum?.messages ?? []).filter { $0.kind == .tourExit(tourID: session.machine.tourID) }.map(\.id)
            showNextMessage(&state)
            return effects + [.persist(state.settings)]
        case .resume:
            guard let p = state.progress.current else { return [] }
            state.overlay = nil
            var effects = beginTour(&state, p.tourID, stop: p.stopIndex, language: p.language, seconds: p.seconds)
            if var s = state.tour, s.machine.mode != p.mode {
                s.machine.handle(.setMode(p.mode))
                state.tour = s
                effects += [.persist(state.settings)]
            }
            return effects
        }
    }

    static func beginTour(_ state: inout AppState, _ id: Int, stop: Int?, language: Language, seconds: Double) -> [Effect] {
        guard let tour = state.museum?.tour(id) else { return [] }
        state.overlay = nil
        let start: TourPosition = stop.map { tour.stops.indices.contains($0) ? .stop($0) : .intro } ?? .intro
        let listened = state.progress.listenedStops[id] ?? []
        let mode = state.tour?.machine.mode ?? .guided
        state.tour = TourSession(machine: TourMachine(tour: tour, mode: mode, start: start, listened: listened), language: language)
        state.progress.started.insert(id)
        if state.page.route != .player { push(&state, .player) }
        return tourPlay(&state, state.tour?.machine.command, at: seconds) + progressEffects(&state, force: true)
    }

    /// Plays what the machine asks for, in the tour's language (English when missing, marked).
    static func tourPlay(_ state: inout AppState, _ command: TourCommand?, at seconds: Double = 0) -> [Effect] {
        guard let command, var session = state.tour else { return [] }
        session.failed = false
        switch command {
        case .play(let audioID, let artworkID, _):
            state.tour = session
            let effects = play(&state, audioID: audioID, artworkID: artworkID, tourID: session.machine.tourID, language: session.language, at: seconds)
            state.tour?.clipToken = state.player.snapshot.token
            state.tour?.savedAt = seconds
            return effects
        case .silence:
            session.clipToken = nil
            state.tour = session
            if session.machine.position == .complete {
                state.progress.finished.insert(session.machine.tourID)
            }
            guard state.player.track?.tourID == session.machine.tourID, state.player.isActive,
                state.player.snapshot.status != .ended
            else { return [] }
            state.player.snapshot.status = .idle
            return [.audio(.stop)]
        }
    }

    /// The tour's side of a player snapshot: a finished clip moves the tour on; a failed one
    /// offers retry or skip; listening time is saved every 5 s.
    static func tourSnapshot(_ state: inout AppState, before: PlayerSnapshot, after snap: PlayerSnapshot) -> [Effect] {
        guard var session = state.tour, session.clipToken == snap.token else { return [] }
        if snap.status == .ended, before.status != .ended {
            if case .stop(let k) = session.machine.position, let a = session.machine.stops[safe: k]?.artworkID {
                state.progress.listenedArtworks.insert(a)
            }
            let command = session.machine.handle(.clipEnded)
            state.tour = session
            return tourPlay(&state, command) + progressEffects(&state, force: true)
        }
        if snap.status == .failed, before.status != .failed {
            if case .noSoundServer? = snap.failure { return [] }
            session.failed = true
            state.tour = session
            return []
        }
        if snap.status == .playing, snap.position >= session.savedAt + 5 {
            session.savedAt = snap.position
            state.tour = session
            return progressEffects(&state, force: true)
        }
        return []
    }

    /// Records where the tour is and asks the shell to save it.
    static func progressEffects(_ state: inout AppState, force: Bool = true) -> [Effect] {
        guard let session = state.tour else { return [] }
        let m = session.machine
        for k in m.listened { state.progress.listenedStops[m.tourID, default: []].insert(k) }
        if m.position == .complete {
            state.progress.current = nil
            state.progress.finished.insert(m.tourID)
        } else {
            let seconds = session.clipToken != nil && session.clipToken == state.player.snapshot.token ? state.player.snapshot.position : 0
            state.progress.current = TourProgress(
                tourID: m.tourID, stopIndex: m.currentStop, seconds: isStopPosition(m.position) ? seconds : 0,
                language: session.language, mode: m.mode)
        }
        return force ? [.persist(state.settings)] : []
    }

    static func isStopPosition(_ p: TourPosition) -> Bool {
        if case .stop = p { return true }
        return false
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

/// What the visitor has heard and where they were, kept across runs.
public struct ListeningProgress: Equatable, Sendable {
    public var current: TourProgress?
    /// Stop indices heard, per tour.
    public var listenedStops: [Int: Set<Int>] = [:]
    public var listenedArtworks: Set<Int> = []
    public var started: Set<Int> = []
    public var finished: Set<Int> = []

    public init(current: TourProgress? = nil, listenedStops: [Int: Set<Int>] = [:], listenedArtworks: Set<Int> = [], started: Set<Int> = [], finished: Set<Int> = []) {
        self.current = current
        self.listenedStops = listenedStops
        self.listenedArtworks = listenedArtworks
        self.started = started
        self.finished = finished
    }
}

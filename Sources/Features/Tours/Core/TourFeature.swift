/// Where a visitor was in a tour, saved so they can pick it up again tomorrow.
public struct TourProgress: Equatable, Sendable {
    public var tourID: Int
    /// The stop playing or next (nil: the intro).
    public var stopIndex: Int?
    /// Seconds into that clip (the stop's commentary or its walking directions).
    public var seconds: Double
    public var language: Language
    public var mode: TourMode
    /// Which part of that stop: its own commentary, the walking directions to it, or waiting
    /// there for the visitor (a guided tour).
    public var part: TourPart

    public init(tourID: Int, stopIndex: Int?, seconds: Double, language: Language, mode: TourMode, part: TourPart = .stop) {
        self.tourID = tourID
        self.stopIndex = stopIndex
        self.seconds = seconds
        self.language = language
        self.mode = mode
        self.part = part
    }
}

/// The part of a stop a saved place is in.
public enum TourPart: String, Equatable, Sendable, CaseIterable {
    /// The stop's commentary.
    case stop
    /// The bumper: the walking directions to the stop.
    case walk
    /// Guided: waiting for the visitor at the stop.
    case waiting
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
    case begin(tourID: Int, stop: Int?, language: Language, seconds: Double, part: TourPart = .stop)
    /// Arrived / next / previous / jump / retry.
    case event(TourEvent)
    case toggleMode
    /// Ask before leaving.
    case askLeave
    case leave
    /// Accept the resume offer shown at start.
    case resume
}

/// Tours: the list and a tour's page, the tour machine driving the player, the tour-language
/// question, "leave the tour?", the offer to resume, and what was heard (kept between runs).
/// Scoped (issue 28): it changes only its `State`; its boxes, the full player, the playing
/// (`PlayerFeature.play`), the museum's messages after a tour and the saving are requests.
public enum TourFeature: ScopedFeature, HearsEvents, ScopedAddsRows, ScopedWantsPictures, ScopedContent, ScopedPlaces {
    public struct State: Equatable, Sendable {
        /// The running tour, if any.
        public var session: TourSession?
        /// What was heard and where the visitor was (saved).
        public var progress = ListeningProgress()
        /// The resume offer is made once per run.
        public var resumeOffered = false
        public init() {}
    }
    public typealias Action = TourAction
    public enum Route: Hashable, Sendable {
        /// Every tour (the Tours tab's root; "See all tours" from Home).
        case all
        case detail(Int)
    }
    public enum Overlay: Equatable, Sendable {
        /// Choose the language of a tour before it starts; indexes `AppState.audioLanguages`.
        case language(tourID: Int, stop: Int?, selection: Int)
        /// "Leave the tour?"
        case leave
        /// "Welcome back" at start, with a saved place: resume there, not now (the place is kept),
        /// or forget it.
        case resume(selection: Int)
    }
    public typealias Saved = ListeningProgress

    public static let id = FeatureID("tours")
    // Its keys and help come before the player's (Space says "arrived" while a guided tour
    // waits), its status over the player's lines.
    public static let after = [KeypadFeature.id]
    public static let listensTo: Set<FeatureEvent.Kind> = [.playerChanged, .settled, .startOver]
    public static let initialState = State()

    /// Nothing heard and no place kept saves nothing (a first run's database stays empty).
    public static func saved(_ state: State) -> ListeningProgress? { state.progress == ListeningProgress() ? nil : state.progress }
    public static func restore(_ saved: ListeningProgress, _ state: inout State) { state.progress = saved }

    public static func reduce(_ t: inout State, _ a: TourAction, _ context: FeatureContext) -> Outcome {
        switch a {
        case .start(let id, let stop):
            guard context.museum?.tour(id) != nil else { return .none }
            let langs = context.audioLanguages
            return Outcome(requests: [.show(show(.language(tourID: id, stop: stop, selection: langs.firstIndex(of: context.language.content) ?? 0)))])
        case .begin(let id, let stop, let lang, let seconds, let part):
            return beginTour(&t, context, id, stop: stop, language: lang, seconds: seconds, part: part)
        case .event(let e):
            guard var session = t.session else { return .none }
            var event = e
            if case .previous = e { event = .previous(secondsIntoClip: context.playerSnapshot.position) }
            let command = session.machine.handle(event)
            t.session = session
            var heard = Heard(context)
            let requests = tourPlay(&t, context, command, heard: &heard)
            return Outcome(requests: requests + progress(&t, heard))
        case .toggleMode:
            guard var session = t.session else { return .none }
            let mode: TourMode = session.machine.mode == .guided ? .continuous : .guided
            let command = session.machine.handle(.setMode(mode))
            t.session = session
            var heard = Heard(context)
            let requests = tourPlay(&t, context, command, heard: &heard)
            return Outcome(requests: requests + progress(&t, heard))
        case .askLeave:
            guard t.session != nil, context.overlay == nil else { return .none }
            return Outcome(requests: [.show(show(.leave))])
        case .leave:
            guard let session = t.session else { return .none }
            // The place is kept (as after `q`): the tour's page and the next start offer it.
            _ = progress(&t, Heard(context), force: false)
            t.session = nil
            // The start's "welcome back" is not for a visitor who has just left this tour (it
            // showed as soon as the exit message was read, when no tour had been offered yet).
            t.resumeOffered = true
            var requests: [UIRequest] = [.close]
            if context.playerTrack?.tourID == session.machine.tourID { requests.append(.send(.player(.stop))) }
            requests.append(.messages((context.museum?.messages ?? []).filter { $0.kind == .tourExit(tourID: session.machine.tourID) }.map(\.id)))
            return Outcome(requests: requests + [.persist])
        case .resume:
            guard let p = t.progress.current else { return .none }
            // In the saved mode from the start, so the place saved on starting keeps it.
            let begun = beginTour(&t, context, p.tourID, stop: p.stopIndex, language: p.language, seconds: p.seconds, part: p.part, mode: p.mode)
            return begun == .none ? Outcome(requests: [.close]) : begun
        }
    }

    public static func overlay(_ input: OverlayInput, _ o: Overlay, _ t: inout State, _ context: FeatureContext) -> Outcome {
        switch (o, input) {
        case (.language(let id, let stop, let sel), .move(let d)):
            return Outcome(requests: [.show(show(.language(tourID: id, stop: stop, selection: Reducer.clamp(sel, d, context.audioLanguages.count))))])
        case (.language(let id, let stop, _), .choose(let i)):
            let chosen = overlay(.activate, .language(tourID: id, stop: stop, selection: i), &t, context)
            return Outcome(effects: chosen.effects, requests: [.show(show(.language(tourID: id, stop: stop, selection: i)))] + chosen.requests)
        case (.language(let id, let stop, let sel), .activate):
            guard context.audioLanguages.indices.contains(sel) else { return .none }
            return beginTour(&t, context, id, stop: stop, language: context.audioLanguages[sel], seconds: 0)
        case (.leave, .activate):
            return reduce(&t, .leave, context)
        case (.resume(let sel), .move(let d)):
            return Outcome(requests: [.show(show(.resume(selection: Reducer.clamp(sel, d, resumeChoices))))])
        case (.resume, .choose(let i)):
            let chosen = overlay(.activate, .resume(selection: i), &t, context)
            return Outcome(effects: chosen.effects, requests: [.show(show(.resume(selection: i)))] + chosen.requests)
        case (.resume(let sel), .activate):
            switch sel {
            case 0: return reduce(&t, .resume, context)
            case 1:
                // Not now: the place stays for the tour's page and the next start.
                return Outcome(requests: [.close])
            default:
                // Forget it (the stops heard stay marked).
                t.progress.current = nil
                return Outcome(requests: [.close, .persist])
            }
        case (.leave, .choose):
            return overlay(.activate, o, &t, context)
        case (.language, .dismissed), (.leave, .dismissed), (.leave, .move), (.resume, .dismissed):
            // Esc on "welcome back" is "not now": the place is kept.
            return .none
        }
    }

    public static func react(to event: FeatureEvent, _ t: inout State, _ context: FeatureContext) -> Outcome {
        switch event {
        case .playerChanged(let before):
            return playerChanged(&t, context, before: before, after: context.playerSnapshot)
        case .settled:
            return Outcome(requests: offerResume(&t, context))
        case .startOver:
            // The tour and where this visitor was in it are forgotten (the player stops the
            // sound); the resume offer is not made to the next visitor.
            t.session = nil
            t.progress = ListeningProgress()
            return .none
        default:  // not listened to (`listensTo`): never sent here
            return .none
        }
    }

    public static func content(_ route: Route, _ own: State, _ context: FeatureContext) -> PageContent {
        guard let app = context.museum else { return .message("") }
        let s = context.strings
        switch route {
        case .all: return .list(title: context.tab == .tours && context.depth == 1 ? nil : s(.homeAllTours), rows: allTourRows(app, own, context))
        case .detail(let id):
            guard let t = app.tour(id) else { return .message(s(.errorGone)) }
            return .list(title: nil, rows: tourRows(t, app, own, context))
        }
    }

    /// On a tour's page: its picture, a banner over the stops (beside them on a wide screen).
    public static func pictureWanted(_ own: State, _ context: FeatureContext) -> PictureWish? {
        guard case .detail(let id)? = context.route(of: Self.self), let tour = context.museum?.tour(id), let url = tour.imageURL else { return nil }
        return PictureWish(url: url, slot: .list, rows: context.viewportRows, about: tour.text(context.language).text.title)
    }

    /// A tour's page is about where it starts (its own place, else its first stop).
    public static func place(_ route: Route, _ own: State, _ context: FeatureContext) -> MapItemID? {
        guard case .detail(let id) = route, let t = context.museum?.tour(id) else { return nil }
        if t.location != nil, t.floor != nil { return .tour(id) }
        return t.stops.first.map { .artwork($0.artworkID) }
    }

    /// Over the player: where the tour is and what to do next.
    public static func rows(for slot: RowSlot, _ own: State, _ context: FeatureContext) -> [Row] {
        guard slot == .playerStatus else { return [] }
        return tourStatus(own, context).map { Row(.note, $0) }
    }

    /// The resume box's choices: resume, not now, forget.
    static let resumeChoices = 3

    /// At start, after the intro and messages: offer to resume an unfinished tour.
    static func offerResume(_ t: inout State, _ context: FeatureContext) -> [UIRequest] {
        guard context.overlay == nil, t.session == nil, !t.resumeOffered, let p = t.progress.current,
            context.museum?.tour(p.tourID) != nil
        else { return [] }
        t.resumeOffered = true
        return [.show(show(.resume(selection: 0)))]
    }

    /// The player's report as it will be once the requests made so far are applied: the
    /// token and position of a clip asked for, else the report the context holds.
    struct Heard {
        var token: Int
        var position: Double
        init(_ context: FeatureContext) {
            token = context.playerSnapshot.token
            position = context.playerSnapshot.position
        }
        init(token: Int, position: Double) {
            self.token = token
            self.position = position
        }
    }

    /// Starts tour `id` in `mode` (nil: the running tour's mode, else guided).
    static func beginTour(
        _ t: inout State, _ context: FeatureContext, _ id: Int, stop: Int?, language: Language, seconds: Double, part: TourPart = .stop, mode: TourMode? = nil
    ) -> Outcome {
        guard let tour = context.museum?.tour(id) else { return .none }
        let start: TourPosition = stop.map { k in
            guard tour.stops.indices.contains(k) else { return .intro }
            switch part {
            case .stop: return .stop(k)
            // Back to the walking directions where they were (if the stop still has them).
            case .walk: return tour.stops[k].bumperID != nil ? .bumper(to: k) : .stop(k)
            case .waiting: return .waiting(at: k)
            }
        } ?? .intro
        let listened = t.progress.listenedStops[id] ?? []
        let mode = mode ?? t.session?.machine.mode ?? .guided
        t.session = TourSession(machine: TourMachine(tour: tour, mode: mode, start: start, listened: listened), language: language)
        t.progress.started.insert(id)
        var heard = Heard(context)
        let requests = [.close] + PlayerFeature.showPlayer(context) + tourPlay(&t, context, t.session?.machine.command, at: seconds, heard: &heard)
        return Outcome(requests: requests + progress(&t, heard))
    }

    /// Asks the player for what the machine wants, in the tour's language (English when
    /// missing, marked); `heard` becomes the player's report once that is done.
    static func tourPlay(_ t: inout State, _ context: FeatureContext, _ command: TourCommand?, at seconds: Double = 0, heard: inout Heard) -> [UIRequest] {
        guard let command, var session = t.session else { return [] }
        session.failed = false
        switch command {
        case .play(let audioID, let artworkID, _):
            // The player gives the clip its next token (the tour knows its clip by it); a
            // recording it cannot load leaves its report as it was.
            if let token = PlayerFeature.nextToken(audioID: audioID, context) { heard = Heard(token: token, position: seconds) }
            session.clipToken = heard.token
            session.savedAt = seconds
            t.session = session
            return [PlayerFeature.play(audioID: audioID, artworkID: artworkID, tourID: session.machine.tourID, language: session.language, at: seconds)]
        case .silence:
            session.clipToken = nil
            t.session = session
            if session.machine.position == .complete {
                t.progress.finished.insert(session.machine.tourID)
            }
            guard context.playerTrack?.tourID == session.machine.tourID else { return [] }
            return [.send(.player(.hush))]
        }
    }

    /// The tour's side of a player snapshot: a finished clip moves the tour on; a failed one
    /// offers retry or skip; listening time is saved every 5 s.
    static func playerChanged(_ t: inout State, _ context: FeatureContext, before: PlayerSnapshot, after snap: PlayerSnapshot) -> Outcome {
        guard var session = t.session, session.clipToken == snap.token else { return .none }
        var heard = Heard(context)
        if snap.status == .ended, before.status != .ended {
            if case .stop(let k) = session.machine.position, let a = session.machine.stops[safe: k]?.artworkID {
                t.progress.listenedArtworks.insert(a)
            }
            let command = session.machine.handle(.clipEnded)
            t.session = session
            let requests = tourPlay(&t, context, command, heard: &heard)
            return Outcome(requests: requests + progress(&t, heard))
        }
        if snap.status == .failed, snap.failure?.isSoundServer == true {
            // The tour's own clip goes on where it was once a sound server answers (as its
            // own request, so the tour still knows its clip by the token).
            guard snap.outputAvailable, !before.outputAvailable || before.status != .failed else { return .none }
            return Outcome(requests: tourPlay(&t, context, session.machine.command, at: snap.position, heard: &heard))
        }
        if snap.status == .failed, before.status != .failed {
            session.failed = true
            t.session = session
            return .none
        }
        if snap.status == .playing, snap.position >= session.savedAt + 5 {
            session.savedAt = snap.position
            t.session = session
            return Outcome(requests: progress(&t, heard))
        }
        return .none
    }

    /// Records where the tour is (`heard`: the player's report after this step) and asks
    /// the root to save it.
    static func progress(_ t: inout State, _ heard: Heard, force: Bool = true) -> [UIRequest] {
        guard let session = t.session else { return [] }
        let m = session.machine
        for k in m.listened { t.progress.listenedStops[m.tourID, default: []].insert(k) }
        if m.position == .complete {
            t.progress.current = nil
            t.progress.finished.insert(m.tourID)
        } else {
            let seconds = session.clipToken != nil && session.clipToken == heard.token ? heard.position : 0
            let part: TourPart
            switch m.position {
            case .bumper: part = .walk
            case .waiting: part = .waiting
            case .intro, .stop, .complete: part = .stop
            }
            t.progress.current = TourProgress(
                // Where in the clip, for a stop, the walk to it and the introduction (issue 33
                // #13: a 60 s introduction left at 15 s resumed from 0:00).
                tourID: m.tourID, stopIndex: m.currentStop, seconds: isStopPosition(m.position) || part == .walk || m.position == .intro ? seconds : 0,
                language: session.language, mode: m.mode, part: part)
        }
        return force ? [.persist] : []
    }

    static func isStopPosition(_ p: TourPosition) -> Bool {
        if case .stop = p { return true }
        return false
    }

    // MARK: Pages (Home lists the featured ones)

    /// The featured tours (every tour when none is featured).
    public static func featuredTours(_ app: AppData) -> [Tour] {
        let featured = app.featuredTourIDs.compactMap { app.tour($0) }
        return featured.isEmpty ? app.tours : featured
    }

    /// A tour's row, from the tours' progress (started, finished) and the context: the same
    /// row on Home, the tours' list and Pulse's featured tours.
    public static func tourRow(_ t: Tour, _ progress: ListeningProgress, _ context: FeatureContext) -> Row {
        let s = context.strings
        let (text, fellBack) = t.text(context.language)
        var detail = [stopsText(t.stops.count, s)]
        if let d = text.duration { detail.insert(d, at: 0) }
        let title = t.banner.map { "\(text.title) [\(tourBanner($0, s))]" } ?? text.title
        if progress.finished.contains(t.id) {
            detail.append(s(.tourFinished))
        } else if progress.started.contains(t.id) {
            detail.append(s(.tourStarted))
        }
        return Row(.item, title, detail: detail.joined(separator: " · "), action: .push(.tourDetail(t.id)), fellBack: fellBack && !t.translations.isEmpty && context.language != .english,
            number: t.selectorNumber.map(String.init))
    }

    /// The CMS's tour banners we translate ("New", "Featured"); any other is the museum's own
    /// word, shown as written rather than as a missing key.
    static let tourBanners: [String: StringKey] = ["featured": .bannerFeatured, "new": .bannerNew]

    static func tourBanner(_ banner: String, _ s: Strings) -> String {
        tourBanners[banner.lowercased()].map { s($0) } ?? banner
    }

    static func allTourRows(_ app: AppData, _ own: State, _ context: FeatureContext) -> [Row] {
        var rows: [Row] = []
        if let intro = app.generalInfo.text("see_all_tours_intro", context.language), !intro.text.isEmpty {
            rows.append(Row(.note, intro.text, fellBack: intro.fellBack))
        }
        let grouped = !app.tours.isEmpty && app.tours.allSatisfy { $0.category != nil }
        if grouped {
            for c in app.tourCategories {
                let inCategory = app.tours.filter { $0.category == c.name }
                guard !inCategory.isEmpty else { continue }
                rows.append(Row(.header, c.name(context.language)))
                rows += inCategory.map { tourRow($0, own.progress, context) }
            }
        } else {
            rows += app.tours.map { tourRow($0, own.progress, context) }
        }
        return rows
    }

    /// A tour: its texts, a start row, and one row per stop (Enter starts there).
    static func tourRows(_ t: Tour, _ app: AppData, _ own: State, _ context: FeatureContext) -> [Row] {
        let s = context.strings
        let (text, fellBack) = t.text(context.language)
        var rows: [Row] = [Row(.header, text.title)]
        var facts: [String] = []
        if let d = text.duration { facts.append(d) }
        facts.append(stopsText(t.stops.count, s))
        if let f = t.floor { facts.append(s(.floorLabel, ["floor": f.label])) }
        if let n = t.selectorNumber { facts.append(s(.tourKeypad, ["number": String(n)])) }
        rows.append(Row(.note, facts.joined(separator: " · ")))
        for para in [text.description, text.intro] where !para.isEmpty {
            rows.append(Row(.note, para, fellBack: fellBack && context.language != .english))
        }
        let running = own.session?.machine.tourID == t.id
        if !running, let p = own.progress.current, p.tourID == t.id {
            let text = p.stopIndex.map { s(p.part == .walk ? .tourResumeRowWalk : .tourResumeRow, ["n": String(min($0, Int.max - 1) + 1), "time": PlayerFeature.clock(p.seconds)]) }
                ?? s(.tourResumeRowIntro)
            rows.append(Row(.item, text, action: .send(.tour(.resume))))
        }
        rows.append(Row(.item, s(running ? .tourRestart : .tourStart), action: .send(.tour(.start(tourID: t.id, stop: nil)))))
        // What other features add to a tour's page (Pulse's notes line).
        rows += context.rows(.tourPage(t.id))
        rows.append(Row(.header, s(.tourStopsHeading)))
        let heard = own.progress.listenedStops[t.id] ?? []
        for (i, stop) in t.stops.enumerated() {
            guard let a = app.artworks[stop.artworkID] else { continue }
            let mark = heard.contains(i) ? " ✓" : ""
            rows.append(Row(
                .item, "\(i + 1). \(a.title)\(mark)",
                detail: PageBuilder.galleryAndFloor(a.galleryTitle, a.floor, s),
                action: .send(.tour(.start(tourID: t.id, stop: i))), number: a.keypadLabel))
        }
        return rows
    }

    /// The running tour, as lines over the player: where we are, what to do next.
    public static func tourStatus(_ own: State, _ context: FeatureContext) -> [String] {
        guard let session = own.session, let app = context.museum, let tour = app.tour(session.machine.tourID) else { return [] }
        let s = context.strings
        let m = session.machine
        var out: [String] = []
        let mode = s(m.mode.nameKey)
        let title = tour.text(session.language).text.title
        switch m.position {
        case .intro: out.append(s(.tourStatusIntro, ["tour": title, "mode": mode]))
        case .complete: out.append(s(.tourStatusComplete, ["tour": title]))
        case .bumper(let k), .waiting(let k), .stop(let k):
            out.append(s(.tourStatusStop, ["tour": title, "n": String(k + 1), "count": String(m.stops.count), "mode": mode]))
        }
        if case .waiting(let k) = m.position, let a = app.artworks[m.stops[k].artworkID] {
            out.append(s(.tourArrive, ["title": a.title, "gallery": PageBuilder.galleryLabel(a.galleryTitle, s)]))
        }
        if session.failed { out.append(s(.tourFailed)) }
        out.append(keyHints(session, s))
        return out
    }

    /// The tour's keys that do something now: "arrived" only while a guided tour waits, next
    /// and mode not once the tour is complete, retry only after a failure.
    static func keyHints(_ session: TourSession, _ s: Strings) -> String {
        let m = session.machine
        var keys: [String] = []
        if case .waiting = m.position { keys.append(s(.tourKeyArrived)) }
        if m.position != .complete {
            keys.append(s(.tourKeyNext))
        }
        if m.position != .intro { keys.append(s(.tourKeyPrevious)) }
        if m.position != .complete { keys.append(s(.tourKeyMode)) }
        if session.failed { keys.append(s(.tourKeyRetry)) }
        keys.append(s(.tourKeyLeave))
        return keys.joined(separator: " · ")
    }

    public static func stopsText(_ n: Int, _ s: Strings) -> String {
        Plural.isOne(n, s.language) ? s(.tourStopsOne, ["count": Plural.number(n, s.language)]) : s(.tourStops, ["count": Plural.number(n, s.language)])
    }
}

extension AppAction {
    public static func tour(_ a: TourAction) -> AppAction { TourFeature.action(a) }
}

extension Route {
    /// Every tour.
    public static var allTours: Route { TourFeature.route(.all) }
    /// One tour's page.
    public static func tourDetail(_ id: Int) -> Route { TourFeature.route(.detail(id)) }
}

extension Overlay {
    public static func tourLanguage(tourID: Int, stop: Int?, selection: Int) -> Overlay {
        TourFeature.show(.language(tourID: tourID, stop: stop, selection: selection))
    }
    public static var leaveTour: Overlay { TourFeature.show(.leave) }
    public static var resumeTour: Overlay { TourFeature.show(.resume(selection: 0)) }
}

extension PersistedSettings {
    /// Tours' part of what is kept (nothing heard, no place: empty).
    public var progress: ListeningProgress {
        get { saves[TourFeature.self] ?? ListeningProgress() }
        set { saves[TourFeature.self] = newValue == ListeningProgress() ? nil : newValue }
    }
}

extension AppState {
    /// The running tour, if any.
    var tour: TourSession? {
        get { self[TourFeature.self].session }
        set { self[TourFeature.self].session = newValue }
    }
    /// Tours and artworks heard, and where the visitor was.
    var progress: ListeningProgress {
        get { self[TourFeature.self].progress }
        set { self[TourFeature.self].progress = newValue }
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

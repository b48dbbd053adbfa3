/// Saving a tour for offline: every recording of a tour in the visitor's language (its intro,
/// each stop, the walking directions) downloaded ahead into the guide's kept recordings, so the
/// tour plays with no network (the player reads a kept copy when the server cannot be reached).
/// A row on the tour's page offers it, shows the progress and the space used, and removes it.
/// Resumable: what is kept already is not fetched again. Only recordings on a web server are
/// saved (files on this machine play offline anyway).
public enum OfflineFeature: ScopedFeature, HearsEvents, ScopedAddsRows {
    /// A tour's recordings in one language, as the runner counts them on disk.
    public struct Tally: Equatable, Sendable {
        public var total: Int
        public var kept: Int
        public var bytes: Int
        public init(total: Int, kept: Int, bytes: Int) {
            self.total = total
            self.kept = kept
            self.bytes = bytes
        }
    }

    public struct TourState: Equatable, Sendable {
        public var language: Language
        public var tally: Tally
        public var saving = false
        /// Why the last save stopped short.
        public var problem: FetchProblem?
        public init(language: Language, tally: Tally) {
            self.language = language
            self.tally = tally
        }
    }

    public struct State: Equatable, Sendable {
        /// By tour id, for the language last counted.
        public var tours: [Int: TourState] = [:]
        public init() {}
    }

    public enum Action: Equatable, Sendable {
        case save(tourID: Int)
        case remove(tourID: Int)
        /// Stop a save in progress, in the middle of a recording too (what came of it is
        /// thrown away; what was kept stays).
        case cancel(tourID: Int)
        /// The runner counted (or one more recording was kept).
        case counted(tourID: Int, Language, Tally)
        /// A save ended: all kept, or stopped by `problem`.
        case saveEnded(tourID: Int, Language, FetchProblem?)
    }

    public enum Effect: Equatable, Sendable {
        /// Count what of these recordings is kept (answered by `.counted`).
        case count(tourID: Int, Language, urls: [String])
        /// Fetch the ones not kept yet, one by one (`.counted` after each, `.saveEnded` at the end).
        case save(tourID: Int, Language, urls: [String])
        /// Delete the kept copies (answered by `.counted`).
        case remove(tourID: Int, Language, urls: [String])
        /// Stop the save of these tours at once (answered by `.saveEnded` with no problem).
        case cancel(tourIDs: [Int])
    }

    public static let id = FeatureID("offline")
    // Its row on a tour's page comes after the tour's own.
    public static let after = [TourFeature.id]
    /// The tour on screen, to save it.
    public static let reads = [TourFeature.id]
    public static let before = [PlayerFeature.id]
    public static let listensTo: Set<FeatureEvent.Kind> = [.navigated, .languageChanged, .startOver, .quitting]
    public static let initialState = State()

    /// The recordings of a tour in `language` (its content form) that live on a web server,
    /// in playing order, each once.
    public static func urls(tour: Tour, language: Language, app: AppData) -> [String] {
        var ids = [tour.introAudioID]
        for stop in tour.stops {
            if let b = stop.bumperID { ids.append(b) }
            ids.append(stop.audioID)
        }
        var seen = Set<String>()
        return ids.compactMap { app.audioFiles[$0]?.version(for: language.content).0.url }
            .filter { ($0.hasPrefix("http://") || $0.hasPrefix("https://")) && seen.insert($0).inserted }
    }

    public static func reduce(_ state: inout State, _ action: Action, _ context: FeatureContext) -> Outcome {
        guard let app = context.museum else { return .none }
        let language = context.language.content
        switch action {
        case .save(let id), .remove(let id):
            guard let tour = app.tour(id) else { return .none }
            let urls = urls(tour: tour, language: language, app: app)
            guard !urls.isEmpty, state.tours[id]?.saving != true else { return .none }
            var t = state.tours[id] ?? TourState(language: language, tally: Tally(total: urls.count, kept: 0, bytes: 0))
            t.problem = nil
            if case .save = action {
                t.saving = true
                state.tours[id] = t
                return Outcome(effects: [effect(.save(tourID: id, language, urls: urls))])
            }
            state.tours[id] = t
            return Outcome(effects: [effect(.remove(tourID: id, language, urls: urls))])
        case .cancel(let id):
            guard state.tours[id]?.saving == true else { return .none }
            state.tours[id]?.saving = false
            return Outcome(effects: [effect(.cancel(tourIDs: [id]))])
        case .counted(let id, let lang, let tally):
            guard lang == language else { return .none }
            var t = state.tours[id] ?? TourState(language: lang, tally: tally)
            t.language = lang
            t.tally = tally
            state.tours[id] = t
            return .none
        case .saveEnded(let id, let lang, let problem):
            guard var t = state.tours[id], t.language == lang else { return .none }
            t.saving = false
            t.problem = problem
            state.tours[id] = t
            return .none
        }
    }

    /// On a tour's page, ask what is kept (in the visitor's language) when not known yet.
    public static func react(to event: FeatureEvent, _ state: inout State, _ context: FeatureContext) -> Outcome {
        switch event {
        case .navigated, .languageChanged:
            guard let app = context.museum, case .detail(let id)? = context.route(of: TourFeature.self), let tour = app.tour(id) else { return .none }
            let language = context.language.content
            if let t = state.tours[id], t.language == language { return .none }
            let urls = urls(tour: tour, language: language, app: app)
            guard !urls.isEmpty else { return .none }
            state.tours[id] = TourState(language: language, tally: Tally(total: urls.count, kept: 0, bytes: 0))
            return Outcome(effects: [effect(.count(tourID: id, language, urls: urls))])
        case .startOver, .quitting:
            // Issue 45 #6: the next visitor does not wait on (nor pay for) the last one's
            // save, and quitting does not wait for a recording to come whole.
            let saving = state.tours.filter(\.value.saving).keys.sorted()
            if event == .startOver { state = State() }
            for id in saving { state.tours[id]?.saving = false }
            return saving.isEmpty ? .none : Outcome(effects: [effect(.cancel(tourIDs: saving))])
        default:  // not listened to (`listensTo`): never sent here
            return .none
        }
    }

    public static func rows(for slot: RowSlot, _ state: State, _ context: FeatureContext) -> [Row] {
        guard case .tourPage(let id) = slot, let t = state.tours[id], t.language == context.language.content, t.tally.total > 0 else { return [] }
        let s = context.strings
        let n = t.tally
        let size = megabytes(n.bytes)
        let l = context.language
        func one(_ k: Int) -> Bool { Plural.isOne(k, l) }
        func num(_ k: Int) -> String { Plural.number(k, l) }
        if t.saving {
            return [
                Row(.note, s(one(n.total) ? .offlineSavingOne : .offlineSaving, ["kept": num(n.kept), "total": num(n.total), "size": size])),
                Row(.item, s(.offlineCancel), action: .send(action(.cancel(tourID: id)))),
            ]
        }
        if n.kept >= n.total {
            return [
                Row(.note, s(one(n.total) ? .offlineSavedOne : .offlineSaved, ["total": num(n.total), "size": size])),
                Row(.item, s(.offlineRemove), action: .send(action(.remove(tourID: id)))),
            ]
        }
        var rows: [Row] = []
        if let p = t.problem {
            rows.append(Row(.note, s(.offlineStopped, ["kept": num(n.kept), "total": num(n.total), "reason": p.phrase.text(s)])))
        }
        let text = n.kept > 0
            ? s(one(n.total - n.kept) ? .offlineResumeOne : .offlineResume, ["left": num(n.total - n.kept), "size": size])
            : s(one(n.total) ? .offlineSaveOne : .offlineSave, ["total": num(n.total), "language": context.language.content.nativeName])
        rows.append(Row(.item, text, action: .send(action(.save(tourID: id)))))
        return rows
    }

    /// "3.2 MB" (one decimal under 10 MB).
    static func megabytes(_ bytes: Int) -> String {
        let mb = Double(bytes) / 1_000_000
        if mb < 10 { return String(format: "%.1f MB", mb) }
        return "\(Int(mb.rounded())) MB"
    }
}

extension AppState {
    /// Saving tours for offline.
    var offline: OfflineFeature.State {
        get { self[OfflineFeature.self] }
        set { self[OfflineFeature.self] = newValue }
    }
}

extension AppAction {
    public static func offline(_ a: OfflineFeature.Action) -> AppAction { OfflineFeature.action(a) }
}

extension Effect {
    public static func offline(_ e: OfflineFeature.Effect) -> Effect { OfflineFeature.effect(e) }
}

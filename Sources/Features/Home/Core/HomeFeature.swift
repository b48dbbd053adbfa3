import Foundation

/// Home: the featured tours, the exhibitions on view and today's events (both from the
/// museum's Data Aggregator, fetched by `HomeRunner` when the museum loads), and their pages.
public enum HomeFeature: ScopedFeature, HearsEvents, ScopedWantsPictures, ScopedContent, ScopedPlaces {
    public struct State: Equatable, Sendable {
        public var exhibitions: Remote<[Exhibition]> = .idle
        public var events: Remote<[Event]> = .idle
        /// Why a section failed, as the visitor is told it (the detail is in `Remote.failed`).
        public var problems: [FetchPurpose: FetchProblem] = [:]
        public init() {}
    }

    public enum Action: Equatable, Sendable {
        /// A Data Aggregator answer arrived.
        case fetched(FetchPurpose, Result<[UInt8], FetchError>)
        /// `r` on Home: ask again for the sections that failed.
        case retry
        /// An exhibition found elsewhere (the live search) joins the list, so its page opens.
        case joined(Exhibition)
    }

    public enum Effect: Equatable, Sendable {
        /// Ask the Data Aggregator; the answer comes back as `.fetched` with the same purpose.
        case fetch(FetchPurpose, FetchRequest)
    }

    public enum Route: Hashable, Sendable {
        case home, allExhibitions, allEvents
        case exhibition(Int)
        case event(String)
    }

    public static let id = FeatureID("home")
    /// The tours' progress: a featured tour's row says whether it was started or finished.
    public static let reads = [TourFeature.id]
    public static let listensTo: Set<FeatureEvent.Kind> = [.documentLoaded]
    public static let initialState = State()
    /// Home shows this many of each kind before "see all".
    public static let homeTours = 6
    public static let homeExhibitions = 6
    public static let homeEvents = 8

    public static func reduce(_ state: inout State, _ action: Action, _ context: FeatureContext) -> Outcome {
        switch action {
        case .fetched(let purpose, let result):
            guard let app = context.museum else { return .none }
            let bytes: [UInt8]
            var requests: [UIRequest] = []
            switch result {
            case .failure(let e):
                state.problems[purpose] = FetchProblem(e)
                switch purpose {
                case .exhibitions: state.exhibitions = .failed(e.description)
                case .events: state.events = .failed(e.description)
                }
                return .none
            case .success(let b):
                bytes = b
                // The museum's servers answer again: the offline banner is no longer true (the saved
                // copy of the appData stays in use until the next start; Info still says so).
                if case .key(.bannerOfflineCopy, _)? = context.banner?.phrase { requests.append(.clearBanner) }
            }
            state.problems[purpose] = .unreadable
            switch purpose {
            case .exhibitions:
                state.exhibitions = DataAggregator.exhibitions(from: bytes, app: app, now: context.now).map(Remote.loaded).fold { .failed($0.message) }
                if state.exhibitions.value != nil { state.problems[purpose] = nil }
            case .events:
                state.events = DataAggregator.events(from: bytes, now: context.now).map(Remote.loaded).fold { .failed($0.message) }
                if state.events.value != nil { state.problems[purpose] = nil }
            }
            return Outcome(requests: requests)
        case .retry:
            guard let app = context.museum else { return .none }
            var effects: [DocentCore.Effect] = []
            if case .failed = state.exhibitions, let r = DataAggregator.exhibitionsRequest(app: app, now: context.now) {
                state.exhibitions = .loading
                state.problems[.exhibitions] = nil
                effects.append(effect(.fetch(.exhibitions, r)))
            }
            if case .failed = state.events, let r = DataAggregator.eventsRequest(app: app, now: context.now) {
                state.events = .loading
                state.problems[.events] = nil
                effects.append(effect(.fetch(.events, r)))
            }
            return Outcome(effects: effects)
        case .joined(let e):
            switch state.exhibitions {
            case .loaded(let list):
                if !list.contains(where: { $0.id == e.id }) { state.exhibitions = .loaded(list + [e]) }
            default:
                state.exhibitions = .loaded([e])
            }
            return .none
        }
    }

    /// Whether `r` has something to ask again for.
    public static func canRetry(_ state: State) -> Bool {
        if case .failed = state.exhibitions { return true }
        if case .failed = state.events { return true }
        return false
    }

    /// A museum arrived: ask for what is on view and today's events, where it publishes them.
    public static func react(to event: FeatureEvent, _ state: inout State, _ context: FeatureContext) -> Outcome {
        guard event == .documentLoaded, let app = context.museum else { return .none }
        var effects: [DocentCore.Effect] = []
        state.problems = [:]
        if let r = DataAggregator.exhibitionsRequest(app: app, now: context.now) {
            state.exhibitions = .loading
            effects.append(effect(.fetch(.exhibitions, r)))
        } else {
            state.exhibitions = .notPublished
        }
        if let r = DataAggregator.eventsRequest(app: app, now: context.now) {
            state.events = .loading
            effects.append(effect(.fetch(.events, r)))
        } else {
            state.events = .notPublished
        }
        return Outcome(effects: effects)
    }

    public static func content(_ route: Route, _ home: State, _ context: FeatureContext) -> PageContent {
        let s = context.strings
        guard let app = context.museum else { return .message("") }
        switch route {
        case .home: return .list(title: nil, rows: homeRows(app, home, context))
        case .allExhibitions:
            return .list(title: s(.homeAllExhibitions), rows: remoteRows(home.exhibitions, limit: nil, home, context, for: .exhibitions, row: { exhibitionRow($0, context) }))
        case .allEvents:
            return .list(title: s(.homeAllEvents), rows: remoteRows(home.events, limit: nil, home, context, for: .events, row: { eventRow($0, context) }))
        case .exhibition(let id):
            guard let e = home.exhibitions.value?.first(where: { $0.id == id }) else { return .message(s(.errorGone)) }
            return .text(exhibitionPage(e, app, context))
        case .event(let id):
            guard let e = home.events.value?.first(where: { $0.id == id }) else { return .message(s(.errorGone)) }
            return .text(eventPage(e, context))
        }
    }

    /// An exhibition's page is about its gallery; an event's about the gallery its location
    /// names ("Gallery 201", "Gallery 104 (Lantern Court)", "Lantern Court").
    /// On an exhibition's page: its picture, beside or above the text.
    public static func pictureWanted(_ home: State, _ context: FeatureContext) -> PictureWish? {
        guard case .exhibition(let id)? = context.route(of: Self.self), let e = home.exhibitions.value?.first(where: { $0.id == id }), let url = e.imageURL else { return nil }
        return PictureWish(url: url, slot: .page, rows: context.viewportRows, about: e.title)
    }

    public static func place(_ route: Route, _ home: State, _ context: FeatureContext) -> MapItemID? {
        guard let app = context.museum else { return nil }
        switch route {
        case .exhibition(let id):
            guard let gid = home.exhibitions.value?.first(where: { $0.id == id })?.galleryID else { return nil }
            return app.galleries.values.filter { $0.galleryID == gid && !$0.closed }.map(\.id).min().map(MapItemID.gallery)
        case .event(let id):
            guard let e = home.events.value?.first(where: { $0.id == id }) else { return nil }
            return gallery(named: e.location, app).map(MapItemID.gallery)
        case .home, .allExhibitions, .allEvents:
            return nil
        }
    }

    /// The open gallery a free-text location names: a named gallery whose name it contains
    /// (the longest wins), else a numbered gallery whose number stands in it as a word.
    static func gallery(named location: String, _ app: AppData) -> Int? {
        let text = location.lowercased()
        guard !text.isEmpty else { return nil }
        let open = app.galleries.values.filter { !$0.closed }.sorted { $0.id < $1.id }
        let named = open.filter { !$0.displayTitle.allSatisfy(\.isNumber) && text.contains($0.displayTitle.lowercased()) }
        if let best = named.max(by: { $0.displayTitle.count < $1.displayTitle.count }) { return best.id }
        let words = Set(text.split(whereSeparator: { !$0.isNumber }).map(String.init))
        return open.first { !$0.displayTitle.isEmpty && $0.displayTitle.allSatisfy(\.isNumber) && words.contains($0.displayTitle) }?.id
    }

    static func homeRows(_ app: AppData, _ home: State, _ context: FeatureContext) -> [Row] {
        let s = context.strings
        var rows: [Row] = []
        if let intro = app.generalInfo.text("home_member_prompt_text", context.language), !intro.text.isEmpty {
            rows.append(Row(.note, intro.text, fellBack: intro.fellBack))
        }
        // Sections other features add (Pulse's "Popular right now").
        rows += context.rows(.home)
        rows.append(Row(.header, s(.homeFeaturedTours)))
        let tours = TourFeature.featuredTours(app)
        // Tours other features feature (Pulse's staff picks) come too, once each (issue 33 #9:
        // a tour featured with `docent-pulse feature` was starred on Tours, missing here).
        let progress = context.state(of: TourFeature.self).progress
        var tourRows = tours.prefix(HomeFeature.homeTours).map { TourFeature.tourRow($0, progress, context) }
        for r in context.rows(.homeTours) where !tourRows.contains(where: { $0.action == r.action }) { tourRows.append(r) }
        if tourRows.isEmpty { rows.append(Row(.note, s(.homeNoTours))) }
        rows += tourRows
        if app.tours.count > 0 {
            rows.append(Row(.item, s(.homeSeeAllTours, ["count": String(app.tours.count)]), action: .push(.allTours)))
        }
        rows.append(Row(.header, s(.homeOnView)))
        rows += remoteRows(home.exhibitions, limit: homeExhibitions, home, context, for: .exhibitions, row: { exhibitionRow($0, context) })
        if let list = home.exhibitions.value, list.count > homeExhibitions {
            rows.append(Row(.item, s(.homeSeeAllExhibitions, ["count": String(list.count)]), action: .push(.allExhibitions)))
        }
        rows.append(Row(.header, s(.homeEvents)))
        rows += remoteRows(home.events, limit: homeEvents, home, context, for: .events, row: { eventRow($0, context) })
        if let list = home.events.value, list.count > homeEvents {
            rows.append(Row(.item, s(.homeSeeAllEvents, ["count": String(list.count)]), action: .push(.allEvents)))
        }
        return rows
    }

    static func remoteRows<T>(_ remote: Remote<[T]>, limit: Int?, _ home: State, _ context: FeatureContext, for purpose: FetchPurpose, row: (T) -> Row) -> [Row] {
        let s = context.strings
        switch remote {
        case .idle, .loading: return [Row(.note, s(purpose.loadingKey))]
        case .failed:
            // A plain sentence; libcurl's words and the URL are in the log file.
            let problem = home.problems[purpose] ?? .unreachable
            return [Row(.note, s(purpose.unavailableKey, ["reason": problem.phrase.text(s)]))]
        // Not "unavailable right now": this museum never publishes them (issue 17 #12).
        case .notPublished: return [Row(.note, s(purpose.notPublishedKey))]
        case .loaded(let items):
            if items.isEmpty { return [Row(.note, s(purpose.noneKey))] }
            return (limit.map { Array(items.prefix($0)) } ?? items).map(row)
        }
    }

    /// Exhibitions and events come from the museum's API in English only: in another language
    /// they are marked "(English)" as a tour that fell back is (issue 33 #18).
    static func exhibitionRow(_ e: Exhibition, _ context: FeatureContext) -> Row {
        Row(.item, e.title, detail: context.strings(.exhibitionThrough, ["date": PageBuilder.formatDay(e.endAt, writtenWith: e.utcOffset, context)]), action: .push(.exhibitionDetail(e.id)),
            fellBack: context.language.content != .english)
    }

    static func eventRow(_ e: Event, _ context: FeatureContext) -> Row {
        Row(.item, e.title, detail: PageBuilder.formatDateTime(e.startAt, context, zone: PageBuilder.museumZone(utcOffset: e.utcOffset, context)), action: .push(.eventDetail(e.id)),
            fellBack: context.language.content != .english)
    }

    static func exhibitionPage(_ e: Exhibition, _ app: AppData, _ context: FeatureContext) -> TextPage {
        let s = context.strings
        var facts = [s(.exhibitionThrough, ["date": PageBuilder.formatDay(e.endAt, writtenWith: e.utcOffset, context)])]
        if let gid = e.galleryID, let g = app.galleries.values.first(where: { $0.galleryID == gid && !$0.closed }) {
            facts.append(PageBuilder.galleryAndFloor(g.displayTitle, g.floor, s))
        }
        var links: [(String, String)] = []
        if let u = e.webURL, !u.isEmpty { links.append((s(.linkWebsite), u)) }
        return TextPage(title: e.title, facts: facts, body: e.shortDescription, links: links)
    }

    static func eventPage(_ e: Event, _ context: FeatureContext) -> TextPage {
        let zone = PageBuilder.museumZone(utcOffset: e.utcOffset, context)
        var facts = [PageBuilder.formatDateTime(e.startAt, context, zone: zone) + " – " + PageBuilder.formatTime(e.endAt, context, zone: zone)]
        if !e.location.isEmpty { facts.append(e.location) }
        var links: [(String, String)] = []
        if let u = e.buttonURL, !u.isEmpty { links.append((e.buttonText ?? context.strings(.linkRegister), u)) }
        let body = e.description.isEmpty ? e.shortDescription : e.description
        return TextPage(title: e.title, facts: facts, body: body, links: links)
    }
}

/// What a Data Aggregator fetch was for.
public enum FetchPurpose: String, Hashable, Sendable {
    case exhibitions
    case events

    /// Home's line while it loads.
    public var loadingKey: StringKey {
        switch self {
        case .exhibitions: return .homeLoadingExhibitions
        case .events: return .homeLoadingEvents
        }
    }

    /// Home's line when the fetch failed (with a `{reason}`).
    public var unavailableKey: StringKey {
        switch self {
        case .exhibitions: return .homeUnavailableExhibitions
        case .events: return .homeUnavailableEvents
        }
    }

    /// Home's line when this museum does not publish them.
    public var notPublishedKey: StringKey {
        switch self {
        case .exhibitions: return .homeNotPublishedExhibitions
        case .events: return .homeNotPublishedEvents
        }
    }

    /// Home's line when there are none.
    public var noneKey: StringKey {
        switch self {
        case .exhibitions: return .homeNoneExhibitions
        case .events: return .homeNoneEvents
        }
    }
}

extension AppState {
    /// Home's state.
    var home: HomeFeature.State {
        get { self[HomeFeature.self] }
        set { self[HomeFeature.self] = newValue }
    }

    /// The exhibitions on view (Home's).
    var exhibitions: Remote<[Exhibition]> {
        get { self[HomeFeature.self].exhibitions }
        set { self[HomeFeature.self].exhibitions = newValue }
    }

    /// Today's events (Home's).
    var events: Remote<[Event]> {
        get { self[HomeFeature.self].events }
        set { self[HomeFeature.self].events = newValue }
    }
}

extension AppAction {
    public static func fetched(_ purpose: FetchPurpose, _ result: Result<[UInt8], FetchError>) -> AppAction {
        HomeFeature.action(.fetched(purpose, result))
    }
}

extension Effect {
    public static func fetch(_ purpose: FetchPurpose, _ request: FetchRequest) -> Effect { HomeFeature.effect(.fetch(purpose, request)) }
}

extension Route {
    public static var home: Route { HomeFeature.route(.home) }
    public static var allExhibitions: Route { HomeFeature.route(.allExhibitions) }
    public static var allEvents: Route { HomeFeature.route(.allEvents) }
    public static func exhibitionDetail(_ id: Int) -> Route { HomeFeature.route(.exhibition(id)) }
    public static func eventDetail(_ id: String) -> Route { HomeFeature.route(.event(id)) }
}

extension Result {
    /// Collapses a result into one value.
    func fold(_ onFailure: (Failure) -> Success) -> Success {
        switch self {
        case .success(let v): return v
        case .failure(let e): return onFailure(e)
        }
    }
}

import Foundation

/// The result groups a visitor can narrow the list to (the seed app's filter menu).
public enum SearchFilter: Int, CaseIterable, Hashable, Sendable {
    case all, artworks, tours, exhibitions, onMap

    /// The groups this filter shows, in screen order.
    public var kinds: [SearchKind] {
        switch self {
        case .all: return SearchKind.allCases
        case .artworks: return [.artwork]
        case .tours: return [.tour]
        case .exhibitions: return [.exhibition]
        case .onMap: return [.place]
        }
    }

    /// The filter showing only `kind`.
    public static func only(_ kind: SearchKind) -> SearchFilter {
        switch kind {
        case .artwork: return .artworks
        case .tour: return .tours
        case .exhibition: return .exhibitions
        case .place: return .onMap
        }
    }

    /// UI string key of its name.
    public var titleKey: StringKey {
        switch self {
        case .all: return .searchFilterAll
        case .artworks: return .searchFilterArtworks
        case .tours: return .searchFilterTours
        case .exhibitions: return .searchFilterExhibitions
        case .onMap: return .searchFilterOnMap
        }
    }
}

/// Something search asks the map to show; `SearchAction.showOnMap` turns it into the map's
/// own `MapAction.show` (the map switches tab and floor, centres and highlights).
public enum SearchMapTarget: Hashable, Sendable {
    /// A CMS artwork: its gallery, floor and location.
    case artwork(Int)
    /// An artwork only the live search knows: its gallery's floor and its location.
    case liveArtwork(LiveArtwork)
    /// A gallery by nid.
    case gallery(Int)
    /// A map annotation (amenity, space, landmark…) by nid: centred, on its floor.
    case annotation(Int)
    /// The nearest amenity of these types (the facility shortcuts: dining, restrooms…).
    case amenities([AmenityType])
}

/// Where the live search stands for the current query.
public struct LiveSearchState: Equatable, Sendable {
    /// The live search's progress for the current query.
    public enum Status: Equatable, Sendable {
        /// The museum publishes no live search.
        case off
        /// Nothing asked (no query).
        case idle
        /// Waiting for the visitor to stop typing.
        case waiting
        /// The multisearch request is out.
        case loading
        /// The answer arrived and was merged.
        case done
        /// Offline, slow or failing: local results only.
        case unavailable(String)
    }

    public var status: Status = .off
    /// The current request token; answers carrying another token are stale and ignored.
    public var token = 0
    /// Autocomplete suggestions for the current query (at most three).
    public var suggestions: [String] = []
    /// What the live answer adds to the local results (duplicates already removed).
    public var extra = LiveSearchResults()
    /// Whether `extra` arrived after the visitor moved in the results: it is then listed below
    /// them rather than in its groups, so nothing moves under the cursor.
    public var extraBelow = false

    public init() {}
}

/// The Search tab's state: the query, the local and live results, the selection.
public struct SearchState: Equatable, Sendable {
    /// Hits kept per group (a filter shows up to this many; type more to narrow).
    public static let groupCap = 50
    /// "Did you mean" waits for a pause in the typing this long: finding the closest words
    /// reads the whole vocabulary (15 ms on a museum of 300,000 distinct words), which no
    /// keystroke should pay for a line the visitor reads only once they stop.
    public static let didYouMeanDelayMs = 150
    /// Hits per group on the "All" overview (as the seed app shows).
    public static let overviewCount = 3
    public static let maxQueryLength = 80

    /// What the visitor typed.
    public var query = ""
    public var filter: SearchFilter = .all
    /// Index of the selected row of `SearchPage.rows`.
    public var selection = 0
    /// The local results of the query; nil before any letter is typed.
    public var results: SearchResults?
    public var live = LiveSearchState()
    /// The tab `/` came from (Esc on an empty query returns there).
    public var returnTab: Tab?
    /// When nothing matches: the closest query that does ("did you mean", Enter searches it).
    public var didYouMean: String?
    /// Whether the visitor moved in the results of this query: what arrives later (live
    /// results, suggestions) then only goes below what is shown.
    public var moved = false

    /// The museum's index (built when the document loads). A cache: not compared.
    public internal(set) var index: SearchIndex?
    /// The exhibitions on view, indexed when they change. A cache: not compared.
    var exhibitionIndex: SearchIndex?
    var exhibitionIDs: [Int]?
    /// Every local match of the current query, to refine on the next keystroke. A cache.
    var matches = SearchMatches()

    public init() {}

    /// The Traditional → Simplified table the museum's index folds with (none before it is
    /// built).
    public var variants: ChineseVariants? { index?.variants }

    /// `text` folded as the museum's index folds its texts.
    public func fold(_ text: some StringProtocol) -> [UInt8] {
        SearchText.fold(text, variants: variants)
    }

    /// Compares what the visitor sees and what drives it; the indexes and the full match list
    /// are caches derived from the museum and the query, so they are left out.
    public static func == (a: SearchState, b: SearchState) -> Bool {
        a.query == b.query && a.filter == b.filter && a.selection == b.selection && a.results == b.results
            && a.live == b.live && a.returnTab == b.returnTab && a.didYouMean == b.didYouMean && a.moved == b.moved
    }
}

/// Search actions: typing, moving, acting on a result, live answers.
public enum SearchAction: Equatable, Sendable {
    /// The search screen is shown: index the exhibitions if they changed.
    case appeared
    /// `/` from any tab: go to the search field.
    case open
    /// Text typed into the query (one key, or pasted text).
    case typed(String)
    case deleteBackward
    /// Empty the query (Ctrl-U).
    case clear
    /// Esc: clear the query, or leave Search when it is already empty.
    case escape
    /// Replace the query (a suggestion was chosen).
    case setQuery(String)
    case move(Int)
    case page(Int)
    case moveToStart
    case moveToEnd
    case nextFilter
    case previousFilter
    case setFilter(SearchFilter)
    /// Enter: act on the selected row (play, open, show on the map, search a suggestion).
    case activate
    /// Show the selected result on the map instead of its default action (Ctrl-O).
    case showSelectionOnMap
    /// Show a result on the map (through `MapAction.show`).
    case showOnMap(SearchMapTarget)
    /// A debounce timer fired for request `token`.
    /// A click on result row `index`: select it, then open it.
    case clickRow(Int)
    /// The museum's index is ready (see `SearchEffect.buildIndex`).
    case indexBuilt(BuiltIndex)
    case liveDue(token: Int, LiveSearchStage)
    /// The visitor paused on a query (folded) that matches nothing: time to say "did you mean".
    case suggestDue([UInt8])
    case autocompleteLoaded(token: Int, Result<[UInt8], LoadFailure>)
    case multisearchLoaded(token: Int, Result<[UInt8], LoadFailure>)
}

/// The two live requests, in the order the debounce timer sends them.
public enum LiveSearchStage: Hashable, Sendable {
    case autocomplete
    case multisearch
}

/// Work the shell does for search: the live API calls. Results come back as
/// `SearchAction.autocompleteLoaded` / `.multisearchLoaded` with the same token.
public enum SearchEffect: Equatable, Sendable {
    case autocomplete(token: Int, FetchRequest)
    case multisearch(token: Int, FetchRequest)
    /// Index the museum (off the loop thread: a large collection takes a while); the index
    /// comes back as `SearchAction.indexBuilt`.
    case buildIndex(Museum)
}

/// A built index as an action carries it: compared by identity.
public struct BuiltIndex: Equatable, Sendable {
    public let index: SearchIndex
    public init(_ index: SearchIndex) { self.index = index }
    public static func == (a: BuiltIndex, b: BuiltIndex) -> Bool { a.index === b.index }
}

/// The Search tab as a feature: the query, results by kind, live API results, "show on map".
/// Drawn by `SearchScreen` (DocentUI); live requests run in its runner in the shell.
public enum SearchFeature: Feature {
    public typealias State = SearchState
    public typealias Action = SearchAction
    public typealias Effect = SearchEffect
    /// The feature's pages: the field and the results; the card of an artwork only the live
    /// search knows (what it is and where it hangs; `v` shows it on the map).
    public enum Route: Hashable, Sendable {
        case query
        case liveArtwork(LiveArtwork)
    }
    public static let id = FeatureID("search")
    public static let order: [Capability: Int] = [.events: 90, .keysAnywhere: 90, .picture: 90]
    public static let listensTo: Set<FeatureEvent.Kind> = [.documentLoaded, .navigated, .startOver]
    public static let initialState = SearchState()

    public static func reduce(_ state: inout AppState, _ action: SearchAction) -> [DocentCore.Effect] {
        let before = state.search
        let effects = Reducer.reduce(&state, search: action)
        // Another result selected (or other results): its picture beside the list, if shown.
        guard state.search != before else { return effects }
        return effects + PicturesFeature.request(&state)
    }

    /// On the search page, where there is room beside the results: the selected result's
    /// picture (an artwork's, a tour's, an exhibition's).
    public static func pictureWanted(_ state: AppState) -> PictureWish? {
        guard route(in: state) == .query, state.viewportWidth >= FigureLayout.besideFromWidth, let app = state.museum else { return nil }
        let url: String?, about: String
        switch SearchPage.selectedAction(state) {
        case .open(.artwork(let id))?: (url, about) = (app.artworks[id]?.imageURL, app.artworks[id]?.title ?? "")
        case .open(.tour(let id))?: (url, about) = (app.tour(id)?.imageURL, app.tour(id)?.text(state.language).text.title ?? "")
        case .open(.exhibition(let id))?:
            let e = state.exhibitions.value?.first { $0.id == id }
            (url, about) = (e?.imageURL, e?.title ?? "")
        case .openExhibition(let e)?: (url, about) = (e.imageURL, e.title)
        default: (url, about) = (nil, "")
        }
        // The query line, the filter line and the hints take three rows.
        return url.map { PictureWish(url: $0, slot: .list, rows: max(1, state.viewportRows - 3), about: about) }
    }

    public static func content(_ route: Route, _ state: AppState) -> PageContent {
        switch route {
        case .query: return .custom(id, title: nil)
        case .liveArtwork(let a): return .text(SearchPage.liveArtworkPage(a, state))
        }
    }

    /// The mouse wheel on the results (the keys are search's own).
    public static func move(_ delta: Int, _ state: inout AppState) -> [DocentCore.Effect] {
        reduce(&state, .move(delta))
    }

    /// A new museum: a new index, built off the loop thread (the query typed so far is
    /// dropped with the old one). Until it arrives the guide answers keys as usual.
    public static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] {
        // However the visitor came to Search (F5, Tab, a click, `/`), Esc on an empty query
        // goes back there (issue 33 #7: it went Home, where the next letters were commands).
        if case .navigated(let from) = event {
            if state.tab == .search, from != .search { state.search.returnTab = from }
            return []
        }
        if event == .startOver {
            // What this visitor typed and found goes; the index stays.
            state.search.query = ""
            state.search.filter = .all
            state.search.selection = 0
            state.search.results = nil
            state.search.matches = SearchMatches()
            var live = LiveSearchState()
            live.status = state.search.live.status == .off ? .off : .idle
            live.token = state.search.live.token &+ 1
            state.search.live = live
            state.search.returnTab = nil
            state.search.didYouMean = nil
            state.search.moved = false
            return []
        }
        guard event == .documentLoaded, case .ready(let museum) = state.document else { return [] }
        guard state.search.index.map({ $0.source !== museum }) ?? true else { return [] }
        var fresh = SearchState()
        fresh.live.status = LiveSearch.isAvailable(app: museum.data) ? .idle : .off
        fresh.returnTab = state.search.returnTab
        state.search = fresh
        return [effect(.buildIndex(museum))]
    }
}

extension AppState {
    /// Search's state.
    public var search: SearchState {
        get { self[SearchFeature.self] }
        _modify { yield &self[SearchFeature.self] }
        set { self[SearchFeature.self] = newValue }
    }
}

extension AppAction {
    public static func search(_ a: SearchAction) -> AppAction { SearchFeature.action(a) }
}

extension TimerID {
    /// Search: autocomplete 0.3 s, then multisearch 0.5 s after the last keystroke.
    public static let searchDebounce = TimerID("searchDebounce")
    /// Search: "did you mean" after a pause on a query that matches nothing.
    public static let searchDidYouMean = TimerID("searchDidYouMean")
}

extension Effect {
    public static func search(_ e: SearchEffect) -> Effect { SearchFeature.effect(e) }
}

extension Route {
    /// The search field and results.
    public static var search: Route { SearchFeature.route(.query) }

    /// The card of an artwork only the live search knows.
    public static func liveArtwork(_ a: LiveArtwork) -> Route { SearchFeature.route(.liveArtwork(a)) }
}

extension Reducer {
    static func reduce(_ state: inout AppState, search action: SearchAction) -> [Effect] {
        switch action {
        case .appeared:
            if syncExhibitions(&state) { return rerun(&state) }
            return []
        case .open:
            return openSearch(&state)
        case .typed(let text):
            let clean = text.filter { !$0.isNewline && !($0.unicodeScalars.first?.properties.generalCategory == .control) }
            guard !clean.isEmpty, state.museum != nil else { return [] }
            state.search.query = String((state.search.query + clean).prefix(SearchState.maxQueryLength))
            return queryChanged(&state)
        case .deleteBackward:
            guard !state.search.query.isEmpty else { return [] }
            state.search.query.removeLast()
            return queryChanged(&state)
        case .clear:
            guard !state.search.query.isEmpty else { return [] }
            state.search.query = ""
            return queryChanged(&state)
        case .escape:
            if !state.search.query.isEmpty { return reduce(&state, search: .clear) }
            let back = state.search.returnTab.flatMap { $0 != .search && state.tabs.contains($0) ? $0 : nil } ?? .home
            state.search.returnTab = nil
            return dispatch(&state, .selectTab(back))
        case .setQuery(let q):
            state.search.query = String(q.prefix(SearchState.maxQueryLength))
            state.search.filter = .all
            return queryChanged(&state)
        case .move(let delta):
            state.search.moved = state.search.results != nil
            moveSearchSelection(&state, by: delta)
            return []
        case .page(let pages):
            state.search.moved = state.search.results != nil
            moveSearchSelection(&state, by: pages * max(1, state.viewportRows - 3))
            return []
        case .moveToStart:
            state.search.moved = state.search.results != nil
            moveSearchSelection(&state, by: Int.min / 2)
            return []
        case .moveToEnd:
            state.search.moved = state.search.results != nil
            moveSearchSelection(&state, by: Int.max / 2)
            return []
        case .indexBuilt(let built):
            // An index of a museum that is no longer the one loaded is dropped.
            guard case .ready(let museum) = state.document, built.index.source === museum else { return [] }
            state.search.index = built.index
            // The exhibitions are indexed again, folded as the museum's index folds.
            state.search.exhibitionIDs = nil
            _ = syncExhibitions(&state)
            return state.search.results != nil ? rerun(&state) : state.search.query.isEmpty ? [] : queryChanged(&state)
        case .clickRow(let i):
            guard state.overlay == nil, state.page.route == .search else { return [] }
            let rows = SearchPage.rows(state)
            guard rows.indices.contains(i), rows[i].row.isSelectable else { return [] }
            state.search.selection = i
            state.search.moved = true
            return reduce(&state, search: .activate)
        case .nextFilter, .previousFilter:
            guard state.search.results != nil else { return [] }
            let all = SearchFilter.allCases
            let i = state.search.filter.rawValue
            let j = action == .nextFilter ? (i + 1) % all.count : (i + all.count - 1) % all.count
            return reduce(&state, search: .setFilter(all[j]))
        case .setFilter(let f):
            state.search.filter = f
            state.search.selection = SearchPage.firstSelectable(state)
            return []
        case .activate:
            guard let action = SearchPage.selectedAction(state) else { return [] }
            return performSearch(&state, action)
        case .showSelectionOnMap:
            guard let action = SearchPage.selectedAction(state), let target = mapTarget(action) else { return [] }
            return dispatch(&state, .search(.showOnMap(target)))
        case .showOnMap(let target):
            guard state.tabs.contains(.map) else {
                state.banner = Banner(.key(.searchNoMap))
                return []
            }
            guard let item = mapItem(target, state) else { return [] }
            return dispatch(&state, .map(.show(item)))
        case .liveDue(let token, let stage):
            return liveDue(&state, token, stage)
        case .suggestDue(let q):
            // Still that query, still nothing: the closest words that match something.
            guard q == state.search.matches.query, state.search.results?.total == 0, let index = state.search.index else { return [] }
            state.search.didYouMean = index.suggestion(for: q)
            if !state.search.moved { state.search.selection = SearchPage.firstSelectable(state) }
            return []
        case .autocompleteLoaded(let token, let result):
            guard token == state.search.live.token, let app = state.museum else { return [] }
            keepingSelection(&state) { s in
                let q = s.search.fold(s.search.query)
                let list = (try? result.flatMap { LiveSearch.suggestions(from: $0, query: s.search.query, app: app, variants: s.search.variants) }.get()) ?? []
                // Only suggestions that lead somewhere: the local index answers them (a
                // suggestion leading to "Nothing matches" is not offered).
                s.search.live.suggestions = Array(list.filter { s.search.fold($0) != q && leadsSomewhere($0, s.search) }.prefix(LiveSearch.suggestionCount))
            }
            return []
        case .multisearchLoaded(let token, let result):
            guard token == state.search.live.token, let app = state.museum else { return [] }
            keepingSelection(&state) { s in
                switch result.flatMap({ LiveSearch.results(from: $0, query: s.search.query, app: app, now: s.now, variants: s.search.variants) }) {
                case .success(let live):
                    s.search.live.extra = dedupe(live, s.search)
                    s.search.live.extraBelow = s.search.moved
                    s.search.live.status = .done
                case .failure(let f):
                    s.search.live.extra = LiveSearchResults()
                    s.search.live.status = .unavailable(f.message)
                }
            }
            return []
        }
    }

    // MARK: Query

    /// `/`: the Search tab, on its field, keeping where the visitor came from; from another tab,
    /// with an empty field.
    static func openSearch(_ state: inout AppState) -> [Effect] {
        guard state.tabs.contains(.search) else { return [] }
        if state.overlay != nil {
            guard isPassive(state.overlay) else { return [] }
            state.overlay = nil
        }
        var effects: [Effect] = []
        let fromElsewhere = state.tab != .search
        if fromElsewhere {
            state.search.returnTab = state.tab
            state.tab = .search
            effects.append(.persist(state.settings))
        }
        state.stacks[.search] = [Page(.search)]
        // `/` from another tab starts a new query: what is typed next must not add to the
        // last one (Tab back to Search keeps it, to look at its results again).
        if fromElsewhere, !state.search.query.isEmpty {
            state.search.query = ""
            effects += queryChanged(&state)
        }
        if syncExhibitions(&state) { effects += rerun(&state) }
        return effects
    }

    /// Re-indexes the exhibitions when the list on view changed; true when it did.
    static func syncExhibitions(_ state: inout AppState) -> Bool {
        let list = state.exhibitions.value ?? []
        let ids = list.map(\.id)
        guard ids != state.search.exhibitionIDs else { return false }
        state.search.exhibitionIDs = ids
        state.search.exhibitionIndex = list.isEmpty ? nil : SearchIndex(exhibitions: list, variants: state.search.variants)
        return true
    }

    /// Runs the current query again (its meaning did not change, the data did).
    static func rerun(_ state: inout AppState) -> [Effect] {
        guard state.search.results != nil else { return [] }
        state.search.matches = SearchMatches()
        keepingSelection(&state) { s in s.search.results = localResults(&s) }
        return didYouMeanLater(state)
    }

    /// The query text changed: local results now, live ones after the debounce.
    static func queryChanged(_ state: inout AppState) -> [Effect] {
        let folded = state.search.fold(state.search.query)
        state.search.moved = false
        if folded.isEmpty {
            let wasEmpty = state.search.results == nil
            state.search.results = nil
            state.search.didYouMean = nil
            state.search.matches = SearchMatches()
            state.search.filter = .all
            resetLive(&state)
            if !wasEmpty { state.search.selection = SearchPage.firstSelectable(state) }
            return []
        }
        // Same meaning (a trailing space, a changed case): keep everything, live included.
        if state.search.results != nil, folded == state.search.matches.query { return [] }
        _ = syncExhibitions(&state)
        state.search.results = localResults(&state)
        resetLive(&state)
        var effects: [Effect] = []
        if state.search.live.status != .off {
            state.search.live.status = .waiting
            effects.append(.timer(.searchDebounce, milliseconds: LiveSearch.autocompleteDelayMs, action: .search(.liveDue(token: state.search.live.token, .autocomplete))))
        }
        state.search.selection = SearchPage.firstSelectable(state)
        return effects + didYouMeanLater(state)
    }

    /// Nothing matches: "did you mean" after a pause (`suggestDue`), not on this keystroke.
    static func didYouMeanLater(_ state: AppState) -> [Effect] {
        guard state.search.results?.total == 0, state.search.index != nil, !state.search.matches.query.isEmpty else { return [] }
        return [.timer(.searchDidYouMean, milliseconds: SearchState.didYouMeanDelayMs, action: .search(.suggestDue(state.search.matches.query)))]
    }

    /// New token (so late answers are ignored) and no live results for the new text.
    static func resetLive(_ state: inout AppState) {
        state.search.live.token += 1
        state.search.live.suggestions = []
        state.search.live.extra = LiveSearchResults()
        state.search.live.extraBelow = false
        if state.search.live.status != .off { state.search.live.status = .idle }
    }

    /// Local results of the current query, refining the previous matches when possible.
    static func localResults(_ state: inout AppState) -> SearchResults {
        let q = state.search.fold(state.search.query)
        var results = SearchResults()
        if let index = state.search.index {
            let m = index.matches(q, refining: state.search.matches)
            state.search.matches = m
            results = index.results(m, cap: SearchState.groupCap)
        } else {
            state.search.matches = SearchMatches(query: q)
        }
        let e = SearchKind.exhibition.rawValue
        if let ex = state.search.exhibitionIndex {
            let r = ex.results(ex.matches(q), cap: SearchState.groupCap)
            results.counts[e] = r.counts[e]
            results.hits[e] = r.hits[e]
        }
        // "Did you mean" comes after a pause (`didYouMeanLater`).
        state.search.didYouMean = nil
        return results
    }

    /// Whether searching `query` finds something here (the local index): suggestions that lead
    /// to "Nothing matches" are not offered.
    static func leadsSomewhere(_ query: String, _ search: SearchState) -> Bool {
        let q = search.fold(query)
        guard !q.isEmpty else { return false }
        if let index = search.index, !index.matches(q).entries.isEmpty { return true }
        if let ex = search.exhibitionIndex, !ex.matches(q).entries.isEmpty { return true }
        return false
    }

    static func liveDue(_ state: inout AppState, _ token: Int, _ stage: LiveSearchStage) -> [Effect] {
        guard token == state.search.live.token, let app = state.museum, state.search.results != nil else { return [] }
        let q = state.search.query.trimmingCharacters(in: .whitespaces)
        switch stage {
        case .autocomplete:
            var effects: [Effect] = []
            if let r = LiveSearch.autocompleteRequest(q, app: app) { effects.append(.search(.autocomplete(token: token, r))) }
            if LiveSearch.multisearchURL(app: app) != nil {
                effects.append(.timer(
                    .searchDebounce, milliseconds: LiveSearch.multisearchDelayMs - LiveSearch.autocompleteDelayMs,
                    action: .search(.liveDue(token: token, .multisearch))))
            } else {
                state.search.live.status = .done
            }
            return effects
        case .multisearch:
            guard let r = LiveSearch.multisearchRequest(q, app: app) else { return [] }
            state.search.live.status = .loading
            return [.search(.multisearch(token: token, r))]
        }
    }

    /// Drops what the local results already have: artworks and tours by id (live artworks
    /// were tied to CMS ones by collection id), exhibitions by id.
    static func dedupe(_ live: LiveSearchResults, _ search: SearchState) -> LiveSearchResults {
        var out = live
        if let index = search.index {
            let numbers = index.documentNumbers()
            func isLocal(_ t: SearchTarget) -> Bool { numbers[t].map { index.contains(search.matches, document: $0) } ?? false }
            out.artworks = live.artworks.filter { !isLocal(.artwork($0)) }
            out.tours = live.tours.filter { !isLocal(.tour($0)) }
        }
        let q = search.matches.query
        if let ex = search.exhibitionIndex {
            let local = Set(ex.matches(q).entries.map { ex.targets[Int($0 >> SearchIndex.tierBits)] })
            out.exhibitions = live.exhibitions.filter { !local.contains(.exhibition($0.id)) }
        }
        return out
    }

    // MARK: Selection and actions

    /// Runs `change` and keeps the same row selected when rows appear above it.
    static func keepingSelection(_ state: inout AppState, _ change: (inout AppState) -> Void) {
        let before = SearchPage.selectedAction(state)
        change(&state)
        let rows = SearchPage.rows(state)
        if let before, let i = rows.firstIndex(where: { $0.action == before && $0.row.isSelectable }) {
            state.search.selection = i
        } else if !(rows.indices.contains(state.search.selection) && rows[state.search.selection].row.isSelectable) {
            state.search.selection = SearchPage.firstSelectable(state)
        }
    }

    static func moveSearchSelection(_ state: inout AppState, by delta: Int) {
        let rows = SearchPage.rows(state).map(\.row)
        let selectable = rows.indices.filter { rows[$0].isSelectable }
        guard !selectable.isEmpty else { return }
        let effective = Row.effectiveSelection(rows, state.search.selection) ?? selectable[0]
        let current = selectable.firstIndex(of: effective) ?? 0
        let target = min(max(0, current.addingReportingOverflow(delta).partialValue), selectable.count - 1)
        state.search.selection = selectable[target]
    }

    /// What "show on the map" means for a row, if anything.
    static func mapTarget(_ action: SearchRowAction) -> SearchMapTarget? {
        switch action {
        case .open(.artwork(let id)): return .artwork(id)
        case .open(.gallery(let id)): return .gallery(id)
        case .open(.annotation(let id)): return .annotation(id)
        case .openLiveArtwork(let a): return .liveArtwork(a)
        case .amenities(let types): return .amenities(types)
        case .open(.tour), .open(.exhibition), .openExhibition, .query, .filter: return nil
        }
    }

    /// The map item that stands for a target: a live-only artwork is shown by its gallery;
    /// a facility shortcut by the first such amenity on the floor the map shows, else the
    /// lowest floor.
    static func mapItem(_ target: SearchMapTarget, _ state: AppState) -> MapItemID? {
        switch target {
        case .artwork(let id): return .artwork(id)
        case .gallery(let id): return .gallery(id)
        case .annotation(let id): return .annotation(id)
        case .liveArtwork(let a): return .gallery(a.galleryID)
        case .amenities(let types):
            let candidates = (state.museum?.annotations ?? []).filter { n in
                if case .amenity(let t) = n.kind { return types.contains(t) }
                return false
            }
            let here = candidates.filter { $0.floor == state.map.floor }
            let pick = (here.isEmpty ? candidates : here).min { a, b in
                (a.floor?.number ?? .max, a.id) < (b.floor?.number ?? .max, b.id)
            }
            return pick.map { .annotation($0.id) }
        }
    }

    static func performSearch(_ state: inout AppState, _ action: SearchRowAction) -> [Effect] {
        switch action {
        case .open(.artwork(let id)):
            guard let a = state.museum?.artworks[id] else { return [] }
            guard let c = a.commentaries.first else { return dispatch(&state, .search(.showOnMap(.artwork(id)))) }
            let effects = dispatch(&state, .play(audioID: c.audioID, artworkID: id, tourID: nil))
            if state.player.track?.artworkID == id, state.page.route != .player { push(&state, .player) }
            return effects
        case .open(.tour(let id)):
            return perform(&state, .push(.tourDetail(id)))
        case .open(.exhibition(let id)):
            guard let e = state.exhibitions.value?.first(where: { $0.id == id }) else { return [] }
            return performSearch(&state, .openExhibition(e))
        case .openExhibition(let e):
            // Detail pages read `state.exhibitions`: a live-only exhibition joins that list.
            switch state.exhibitions {
            case .loaded(let list):
                if !list.contains(where: { $0.id == e.id }) { state.exhibitions = .loaded(list + [e]) }
            default:
                state.exhibitions = .loaded([e])
            }
            _ = syncExhibitions(&state)
            return perform(&state, .push(.exhibitionDetail(e.id)))
        case .openLiveArtwork(let a):
            // Its card first (what it is, where it hangs); `v` there shows it on the map.
            return perform(&state, .push(.liveArtwork(a)))
        case .open(.gallery), .open(.annotation), .amenities:
            guard let target = mapTarget(action) else { return [] }
            return dispatch(&state, .search(.showOnMap(target)))
        case .query(let q):
            return reduce(&state, search: .setQuery(q))
        case .filter(let f):
            return reduce(&state, search: .setFilter(f))
        }
    }
}

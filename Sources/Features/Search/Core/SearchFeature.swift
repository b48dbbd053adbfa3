import Foundation

/// The result groups a visitor can narrow the list to (the seed app's filter menu).
public enum SearchFilter: Int, CaseIterable, Hashable, Sendable {
    case all, artworks, tours, exhibitions, events, onMap

    /// The groups this filter shows, in screen order.
    public var kinds: [SearchKind] {
        switch self {
        case .all: return SearchKind.allCases
        case .artworks: return [.artwork]
        case .tours: return [.tour]
        case .exhibitions: return [.exhibition]
        case .events: return [.event]
        case .onMap: return [.place]
        }
    }

    /// The filter showing only `kind`.
    public static func only(_ kind: SearchKind) -> SearchFilter {
        switch kind {
        case .artwork: return .artworks
        case .tour: return .tours
        case .exhibition: return .exhibitions
        case .event: return .events
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
        case .events: return .searchFilterEvents
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
        /// No network, slow or failing: local results only.
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
    /// The exhibitions on view and the events coming (Home's lists), indexed when they
    /// change. A cache: not compared.
    var exhibitionIndex: SearchIndex?
    var exhibitionIDs: [SearchTarget]?
    /// The kinds' names (`search.words.*` in every interface language), folded as the index
    /// folds, to the kinds they name: made once with the index, looked up at each keystroke.
    /// A cache: not compared.
    var kindWords: [[UInt8]: [SearchKind]] = [:]
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
    /// A result's recording was asked to play: the full player comes up if it plays (sent to
    /// itself after the play, so it reads what the player did).
    case playing(artworkID: Int)
    /// The exhibitions on view changed (a live-only one joined Home's list): index them again.
    case exhibitionsChanged
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
public enum SearchFeature: ScopedFeature, HearsEvents, ScopedWantsPictures, ScopedContent {
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
    public static let after = [MapFeature.id]
    /// Home's exhibitions and events are searched; the map's page is where results are shown.
    public static let reads = [HomeFeature.id, MapFeature.id]
    public static let listensTo: Set<FeatureEvent.Kind> = [.documentLoaded, .navigated, .startOver]
    public static let initialState = SearchState()

    public static func reduce(_ state: inout SearchState, _ action: SearchAction, _ context: FeatureContext) -> Outcome {
        let before = state
        var outcome = step(&state, action, context)
        // Another result selected (or other results): its picture beside the list, if shown.
        if state != before, context.isHeard(.pageChanged) { outcome.requests.append(.broadcast(.pageChanged, unheard: nil)) }
        return outcome
    }

    /// On the search page, where there is room beside the results: the selected result's
    /// picture (an artwork's, a tour's, an exhibition's).
    public static func pictureWanted(_ search: SearchState, _ context: FeatureContext) -> PictureWish? {
        guard context.route(of: Self.self) == .query, context.viewportWidth >= FigureLayout.besideFromWidth, let app = context.museum else { return nil }
        let url: String?, about: String
        switch SearchPage.selectedAction(search, context) {
        case .open(.artwork(let id))?: (url, about) = (app.artworks[id]?.imageURL, app.artworks[id]?.title ?? "")
        case .open(.tour(let id))?: (url, about) = (app.tour(id)?.imageURL, app.tour(id)?.text(context.language).text.title ?? "")
        case .open(.exhibition(let id))?:
            let e = context.state(of: HomeFeature.self).exhibitions.value?.first { $0.id == id }
            (url, about) = (e?.imageURL, e?.title ?? "")
        case .openExhibition(let e)?: (url, about) = (e.imageURL, e.title)
        default: (url, about) = (nil, "")
        }
        // The query line, the filter line and the hints take three rows.
        return url.map { PictureWish(url: $0, slot: .list, rows: max(1, context.viewportRows - 3), about: about) }
    }

    public static func content(_ route: Route, _ search: SearchState, _ context: FeatureContext) -> PageContent {
        switch route {
        case .query: return .custom(id, title: nil)
        case .liveArtwork(let a): return .text(SearchPage.liveArtworkPage(a, search, context))
        }
    }

    /// The mouse wheel on the results (the keys are search's own).
    public static func move(_ delta: Int, _ state: inout SearchState, _ context: FeatureContext) -> Outcome {
        reduce(&state, .move(delta), context)
    }

    /// A new museum: a new index, built off the loop thread (the query typed so far is
    /// dropped with the old one). Until it arrives the guide answers keys as usual.
    public static func react(to event: FeatureEvent, _ state: inout SearchState, _ context: FeatureContext) -> Outcome {
        // However the visitor came to Search (F5, Tab, a click, `/`), Esc on an empty query
        // goes back there (issue 33 #7: it went Home, where the next letters were commands).
        if case .navigated(let from) = event {
            if context.tab == .search, from != .search { state.returnTab = from }
            return .none
        }
        if event == .startOver {
            // What this visitor typed and found goes; the index stays.
            state.query = ""
            state.filter = .all
            state.selection = 0
            state.results = nil
            state.matches = SearchMatches()
            var live = LiveSearchState()
            live.status = state.live.status == .off ? .off : .idle
            live.token = state.live.token &+ 1
            state.live = live
            state.returnTab = nil
            state.didYouMean = nil
            state.moved = false
            return .none
        }
        guard event == .documentLoaded, case .ready(let museum) = context.document else { return .none }
        guard state.index.map({ $0.source !== museum }) ?? true else { return .none }
        var fresh = SearchState()
        fresh.live.status = LiveSearch.isAvailable(app: museum.data) ? .idle : .off
        fresh.returnTab = state.returnTab
        state = fresh
        return Outcome(effects: [effect(.buildIndex(museum))])
    }
}

extension AppState {
    /// Search's state.
    var search: SearchState {
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

extension SearchFeature {
    static func step(_ state: inout SearchState, _ action: SearchAction, _ context: FeatureContext) -> Outcome {
        switch action {
        case .appeared:
            if syncExhibitions(&state, context) { return Outcome(effects: rerun(&state, context)) }
            return .none
        case .open:
            return openSearch(&state, context)
        case .typed(let text):
            let clean = text.filter { !$0.isNewline && !($0.unicodeScalars.first?.properties.generalCategory == .control) }
            guard !clean.isEmpty, context.museum != nil else { return .none }
            state.query = String((state.query + clean).prefix(SearchState.maxQueryLength))
            return Outcome(effects: queryChanged(&state, context))
        case .deleteBackward:
            guard !state.query.isEmpty else { return .none }
            state.query.removeLast()
            return Outcome(effects: queryChanged(&state, context))
        case .clear:
            guard !state.query.isEmpty else { return .none }
            state.query = ""
            return Outcome(effects: queryChanged(&state, context))
        case .escape:
            if !state.query.isEmpty { return step(&state, .clear, context) }
            let tabs = context.tabs
            let back = state.returnTab.flatMap { $0 != .search && tabs.contains($0) ? $0 : nil } ?? .home
            state.returnTab = nil
            return Outcome(requests: [.send(.selectTab(back))])
        case .setQuery(let q):
            state.query = String(q.prefix(SearchState.maxQueryLength))
            state.filter = .all
            return Outcome(effects: queryChanged(&state, context))
        case .move(let delta):
            state.moved = state.results != nil
            moveSearchSelection(&state, by: delta, context)
            return .none
        case .page(let pages):
            state.moved = state.results != nil
            moveSearchSelection(&state, by: pages * max(1, context.viewportRows - 3), context)
            return .none
        case .moveToStart:
            state.moved = state.results != nil
            moveSearchSelection(&state, by: Int.min / 2, context)
            return .none
        case .moveToEnd:
            state.moved = state.results != nil
            moveSearchSelection(&state, by: Int.max / 2, context)
            return .none
        case .indexBuilt(let built):
            // An index of a museum that is no longer the one loaded is dropped.
            guard case .ready(let museum) = context.document, built.index.source === museum else { return .none }
            // The same museum's index with the transcripts' words added (the second half of the
            // build): the results shown are searched again only while the visitor has not moved
            // in them (nothing moves under the cursor); else the next keystroke uses it.
            let secondHalf = state.index?.source === museum && built.index.transcriptsIndexed
            state.index = built.index
            state.kindWords = kindWordTable(state, context)
            // The exhibitions are indexed again, folded as the museum's index folds.
            state.exhibitionIDs = nil
            _ = syncExhibitions(&state, context)
            if secondHalf, state.moved {
                state.matches = SearchMatches()
                return .none
            }
            return Outcome(effects: state.results != nil ? rerun(&state, context) : state.query.isEmpty ? [] : queryChanged(&state, context))
        case .clickRow(let i):
            guard context.overlay == nil, context.route == .search else { return .none }
            let rows = SearchPage.rows(state, context)
            guard rows.indices.contains(i), rows[i].row.isSelectable else { return .none }
            state.selection = i
            state.moved = true
            return step(&state, .activate, context)
        case .nextFilter, .previousFilter:
            guard state.results != nil else { return .none }
            let all = SearchFilter.allCases
            let i = state.filter.rawValue
            let j = action == .nextFilter ? (i + 1) % all.count : (i + all.count - 1) % all.count
            return step(&state, .setFilter(all[j]), context)
        case .setFilter(let f):
            state.filter = f
            state.selection = SearchPage.firstSelectable(state, context)
            return .none
        case .activate:
            guard let action = SearchPage.selectedAction(state, context) else { return .none }
            return perform(&state, action, context)
        case .showSelectionOnMap:
            guard let action = SearchPage.selectedAction(state, context), let target = Reducer.mapTarget(action) else { return .none }
            return step(&state, .showOnMap(target), context)
        case .showOnMap(let target):
            guard context.tabs.contains(.map) else { return Outcome(requests: [.banner(Banner(.key(.searchNoMap)))]) }
            guard let item = mapItem(target, context) else { return .none }
            return Outcome(requests: [.send(.map(.show(item)))])
        case .liveDue(let token, let stage):
            return Outcome(effects: liveDue(&state, token, stage, context))
        case .suggestDue(let q):
            // Still that query, still nothing: the closest words that match something.
            guard q == state.matches.query, state.results?.total == 0, let index = state.index else { return .none }
            state.didYouMean = index.suggestion(for: q)
            if !state.moved { state.selection = SearchPage.firstSelectable(state, context) }
            return .none
        case .autocompleteLoaded(let token, let result):
            guard token == state.live.token, let app = context.museum else { return .none }
            keepingSelection(&state, context) { s in
                let q = s.fold(s.query)
                let list = (try? result.flatMap { LiveSearch.suggestions(from: $0, query: s.query, app: app, variants: s.variants) }.get()) ?? []
                // Only suggestions that lead somewhere: the local index answers them (a
                // suggestion leading to "Nothing matches" is not offered).
                s.live.suggestions = Array(list.filter { s.fold($0) != q && Reducer.leadsSomewhere($0, s) }.prefix(LiveSearch.suggestionCount))
            }
            return .none
        case .multisearchLoaded(let token, let result):
            guard token == state.live.token, let app = context.museum else { return .none }
            keepingSelection(&state, context) { s in
                switch result.flatMap({ LiveSearch.results(from: $0, query: s.query, app: app, now: context.now, variants: s.variants) }) {
                case .success(let live):
                    s.live.extra = Reducer.dedupe(live, s)
                    s.live.extraBelow = s.moved
                    s.live.status = .done
                case .failure(let f):
                    s.live.extra = LiveSearchResults()
                    s.live.status = .unavailable(f.message)
                }
            }
            return .none
        case .playing(let id):
            guard context.playerTrack?.artworkID == id, context.route != .player else { return .none }
            return Outcome(requests: [.push(.player)])
        case .exhibitionsChanged:
            _ = syncExhibitions(&state, context)
            return .none
        }
    }

    // MARK: Query

    /// `/`: the Search tab, on its field, keeping where the visitor came from; from another tab,
    /// with an empty field.
    static func openSearch(_ state: inout SearchState, _ context: FeatureContext) -> Outcome {
        guard context.tabs.contains(.search) else { return .none }
        var requests: [UIRequest] = []
        if context.overlay != nil {
            guard Reducer.isPassive(context.overlay) else { return .none }
            requests.append(.close)
        }
        var effects: [DocentCore.Effect] = []
        let fromElsewhere = context.tab != .search
        if fromElsewhere {
            state.returnTab = context.tab
            requests += [.select(.search), .persist]
        }
        requests.append(.resetTab(.search))
        // `/` from another tab starts a new query: what is typed next must not add to the
        // last one (Tab back to Search keeps it, to look at its results again).
        if fromElsewhere, !state.query.isEmpty {
            state.query = ""
            effects += queryChanged(&state, context)
        }
        if syncExhibitions(&state, context) { effects += rerun(&state, context) }
        return Outcome(effects: effects, requests: requests)
    }

    /// Re-indexes the exhibitions and events when Home's lists changed; true when they did.
    static func syncExhibitions(_ state: inout SearchState, _ context: FeatureContext) -> Bool {
        let home = context.state(of: HomeFeature.self)
        let list = home.exhibitions.value ?? []
        let events = home.events.value ?? []
        let ids = list.map { SearchTarget.exhibition($0.id) } + events.map { SearchTarget.event($0.id) }
        guard ids != state.exhibitionIDs else { return false }
        state.exhibitionIDs = ids
        state.exhibitionIndex = ids.isEmpty ? nil : SearchIndex(exhibitions: list, events: events, variants: state.variants)
        return true
    }

    /// Runs the current query again (its meaning did not change, the data did).
    static func rerun(_ state: inout SearchState, _ context: FeatureContext) -> [DocentCore.Effect] {
        guard state.results != nil else { return [] }
        state.matches = SearchMatches()
        keepingSelection(&state, context) { s in s.results = localResults(&s, context) }
        return didYouMeanLater(state)
    }

    /// The query text changed: local results now, live ones after the debounce.
    static func queryChanged(_ state: inout SearchState, _ context: FeatureContext) -> [DocentCore.Effect] {
        let folded = state.fold(state.query)
        state.moved = false
        if folded.isEmpty {
            let wasEmpty = state.results == nil
            state.results = nil
            state.didYouMean = nil
            state.matches = SearchMatches()
            state.filter = .all
            resetLive(&state)
            if !wasEmpty { state.selection = SearchPage.firstSelectable(state, context) }
            return []
        }
        // Same meaning (a trailing space, a changed case): keep everything, live included.
        if state.results != nil, folded == state.matches.query { return [] }
        _ = syncExhibitions(&state, context)
        state.results = localResults(&state, context)
        resetLive(&state)
        var effects: [DocentCore.Effect] = []
        if state.live.status != .off {
            state.live.status = .waiting
            effects.append(.timer(.searchDebounce, milliseconds: LiveSearch.autocompleteDelayMs, action: .search(.liveDue(token: state.live.token, .autocomplete))))
        }
        state.selection = SearchPage.firstSelectable(state, context)
        return effects + didYouMeanLater(state)
    }

    /// Nothing matches: "did you mean" after a pause (`suggestDue`), not on this keystroke.
    static func didYouMeanLater(_ state: SearchState) -> [DocentCore.Effect] {
        guard state.results?.total == 0, state.index != nil, !state.matches.query.isEmpty else { return [] }
        return [.timer(.searchDidYouMean, milliseconds: SearchState.didYouMeanDelayMs, action: .search(.suggestDue(state.matches.query)))]
    }

    /// New token (so late answers are ignored) and no live results for the new text.
    static func resetLive(_ state: inout SearchState) {
        state.live.token += 1
        state.live.suggestions = []
        state.live.extra = LiveSearchResults()
        state.live.extraBelow = false
        if state.live.status != .off { state.live.status = .idle }
    }

    /// Local results of the current query, refining the previous matches when possible.
    static func localResults(_ state: inout SearchState, _ context: FeatureContext) -> SearchResults {
        let q = state.fold(state.query)
        var results = SearchResults()
        if let index = state.index {
            let m = index.matches(q, refining: state.matches)
            state.matches = m
            results = index.results(m, cap: SearchState.groupCap)
        } else {
            state.matches = SearchMatches(query: q)
        }
        if let ex = state.exhibitionIndex {
            let r = ex.results(ex.matches(q), cap: SearchState.groupCap)
            for e in [SearchKind.exhibition.rawValue, SearchKind.event.rawValue] {
                results.counts[e] = r.counts[e]
                results.hits[e] = r.hits[e]
            }
        }
        // A kind's own name ("tour", "exhibitions", "活动") lists every one of that kind, after
        // those it names (issue 47 #8: "tour" asked "Did you mean 'four'?").
        for kind in kindsNamed(q, state, context) {
            let all = everyTarget(of: kind, context)
            var have = Set(results.hits[kind.rawValue].map(\.target))
            for t in all where have.insert(t).inserted {
                results.hits[kind.rawValue].append(SearchHit(t, tier: SearchTier.typo))
            }
            results.counts[kind.rawValue] = have.count
            results.hits[kind.rawValue] = Array(results.hits[kind.rawValue].prefix(SearchState.groupCap))
        }
        // "Did you mean" comes after a pause (`didYouMeanLater`).
        state.didYouMean = nil
        return results
    }

    /// The kinds whose name (`search.words.*`, in every interface language: a visitor may
    /// type the English word in another) the folded query is, whole.
    static func kindsNamed(_ q: [UInt8], _ state: SearchState, _ context: FeatureContext) -> [SearchKind] {
        state.kindWords[q] ?? []
    }

    /// Every kind's names folded, once (with the index: folding follows its Chinese table).
    static func kindWordTable(_ state: SearchState, _ context: FeatureContext) -> [[UInt8]: [SearchKind]] {
        let keys: [(SearchKind, StringKey)] = [(.tour, .searchWordsTours), (.exhibition, .searchWordsExhibitions), (.event, .searchWordsEvents)]
        var table: [[UInt8]: [SearchKind]] = [:]
        for (kind, key) in keys {
            for l in context.catalog.languages {
                for word in context.catalog.strings(for: l)(key).split(separator: "|") {
                    let folded = state.fold(word.trimmingCharacters(in: .whitespaces))
                    guard !folded.isEmpty, !(table[folded] ?? []).contains(kind) else { continue }
                    table[folded, default: []].append(kind)
                }
            }
        }
        return table
    }

    /// Every tour, exhibition on view or coming event, in the order their lists show them.
    static func everyTarget(of kind: SearchKind, _ context: FeatureContext) -> [SearchTarget] {
        let home = context.state(of: HomeFeature.self)
        switch kind {
        case .tour: return context.museum?.tours.map { .tour($0.id) } ?? []
        case .exhibition: return (home.exhibitions.value ?? []).map { .exhibition($0.id) }
        case .event: return (home.events.value ?? []).map { .event($0.id) }
        case .artwork, .place: return []
        }
    }

    static func liveDue(_ state: inout SearchState, _ token: Int, _ stage: LiveSearchStage, _ context: FeatureContext) -> [DocentCore.Effect] {
        guard token == state.live.token, let app = context.museum, state.results != nil else { return [] }
        let q = state.query.trimmingCharacters(in: .whitespaces)
        switch stage {
        case .autocomplete:
            var effects: [DocentCore.Effect] = []
            if let r = LiveSearch.autocompleteRequest(q, app: app) { effects.append(.search(.autocomplete(token: token, r))) }
            if LiveSearch.multisearchURL(app: app) != nil {
                effects.append(.timer(
                    .searchDebounce, milliseconds: LiveSearch.multisearchDelayMs - LiveSearch.autocompleteDelayMs,
                    action: .search(.liveDue(token: token, .multisearch))))
            } else {
                state.live.status = .done
            }
            return effects
        case .multisearch:
            guard let r = LiveSearch.multisearchRequest(q, app: app) else { return [] }
            state.live.status = .loading
            return [.search(.multisearch(token: token, r))]
        }
    }

    // MARK: Selection and actions

    /// Runs `change` and keeps the same row selected when rows appear above it.
    static func keepingSelection(_ state: inout SearchState, _ context: FeatureContext, _ change: (inout SearchState) -> Void) {
        let before = SearchPage.selectedAction(state, context)
        change(&state)
        let rows = SearchPage.rows(state, context)
        if let before, let i = rows.firstIndex(where: { $0.action == before && $0.row.isSelectable }) {
            state.selection = i
        } else if !(rows.indices.contains(state.selection) && rows[state.selection].row.isSelectable) {
            state.selection = SearchPage.firstSelectable(state, context)
        }
    }

    static func moveSearchSelection(_ state: inout SearchState, by delta: Int, _ context: FeatureContext) {
        let rows = SearchPage.rows(state, context).map(\.row)
        let selectable = rows.indices.filter { rows[$0].isSelectable }
        guard !selectable.isEmpty else { return }
        let effective = Row.effectiveSelection(rows, state.selection) ?? selectable[0]
        let current = selectable.firstIndex(of: effective) ?? 0
        let target = min(max(0, current.addingReportingOverflow(delta).partialValue), selectable.count - 1)
        state.selection = selectable[target]
    }

    /// The map item that stands for a target: a live-only artwork is shown by its gallery;
    /// a facility shortcut by the first such amenity on the floor the map shows, else the
    /// lowest floor.
    static func mapItem(_ target: SearchMapTarget, _ context: FeatureContext) -> MapItemID? {
        switch target {
        case .artwork(let id): return .artwork(id)
        case .gallery(let id): return .gallery(id)
        case .annotation(let id): return .annotation(id)
        case .liveArtwork(let a): return .gallery(a.galleryID)
        case .amenities(let types):
            let candidates = (context.museum?.annotations ?? []).filter { n in
                if case .amenity(let t) = n.kind { return types.contains(t) }
                return false
            }
            let floor = context.state(of: MapFeature.self).floor
            let here = candidates.filter { $0.floor == floor }
            let pick = (here.isEmpty ? candidates : here).min { a, b in
                (a.floor?.number ?? .max, a.id) < (b.floor?.number ?? .max, b.id)
            }
            return pick.map { .annotation($0.id) }
        }
    }

    /// Enter on a row: what it asks of the shared UI (play, a page, the map) as requests.
    static func perform(_ state: inout SearchState, _ action: SearchRowAction, _ context: FeatureContext) -> Outcome {
        switch action {
        case .open(.artwork(let id)):
            guard let a = context.museum?.artworks[id] else { return .none }
            guard let c = a.commentaries.first else { return step(&state, .showOnMap(.artwork(id)), context) }
            // The full player comes up once it plays (`.playing` reads what the play did).
            return Outcome(requests: [.send(.play(audioID: c.audioID, artworkID: id, tourID: nil)), .send(.search(.playing(artworkID: id)))])
        case .open(.tour(let id)):
            return Outcome(requests: [.push(.tourDetail(id))])
        case .open(.exhibition(let id)):
            guard let e = context.state(of: HomeFeature.self).exhibitions.value?.first(where: { $0.id == id }) else { return .none }
            return perform(&state, .openExhibition(e), context)
        case .open(.event(let id)):
            return Outcome(requests: [.push(.eventDetail(id))])
        case .openExhibition(let e):
            // Detail pages read Home's exhibitions: a live-only exhibition joins that list
            // (Home's to change), and is indexed with them.
            let joining: [UIRequest] = context.has(HomeFeature.self) ? [.send(HomeFeature.action(.joined(e)))] : []
            return Outcome(requests: joining + [.send(.search(.exhibitionsChanged)), .push(.exhibitionDetail(e.id))])
        case .openLiveArtwork(let a):
            // Its card first (what it is, where it hangs); `v` there shows it on the map.
            return Outcome(requests: [.push(.liveArtwork(a))])
        case .open(.gallery), .open(.annotation), .amenities:
            guard let target = Reducer.mapTarget(action) else { return .none }
            return step(&state, .showOnMap(target), context)
        case .query(let q):
            return step(&state, .setQuery(q), context)
        case .filter(let f):
            return step(&state, .setFilter(f), context)
        }
    }
}

extension Reducer {
    /// Whether searching `query` finds something here (the local index): suggestions that lead
    /// to "Nothing matches" are not offered.
    static func leadsSomewhere(_ query: String, _ search: SearchState) -> Bool {
        let q = search.fold(query)
        guard !q.isEmpty else { return false }
        if let index = search.index, !index.matches(q).entries.isEmpty { return true }
        if let ex = search.exhibitionIndex, !ex.matches(q).entries.isEmpty { return true }
        return false
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

    /// What "show on the map" means for a row, if anything.
    static func mapTarget(_ action: SearchRowAction) -> SearchMapTarget? {
        switch action {
        case .open(.artwork(let id)): return .artwork(id)
        case .open(.gallery(let id)): return .gallery(id)
        case .open(.annotation(let id)): return .annotation(id)
        case .openLiveArtwork(let a): return .liveArtwork(a)
        case .amenities(let types): return .amenities(types)
        case .open(.tour), .open(.exhibition), .open(.event), .openExhibition, .query, .filter: return nil
        }
    }
}

import Foundation

/// What a scoped feature may read of the shared state, and nothing it may write: the museum,
/// the language, the clock, the room on screen, what is on screen, the player's last report,
/// the configuration. Built by the root for each call (`ScopedFeature`).
public struct FeatureContext: Equatable, Sendable {
    /// The whole state, read through the properties below and the read-only hooks (the
    /// page's picture, `pictureWish`) when a feature asks; never handed to a feature (`root`
    /// serves DocentUI's own hooks, `FeatureReadsTests` keeps it out of features). Each property is
    /// worked out when read: a context is made for every feature that hears a moment (five a
    /// second while a recording plays), and most read one or two of them.
    private let whole: AppState

    public init(_ s: AppState) { whole = s }

    public var museum: AppData? { whole.museum }
    /// Where the museum's document is (loading, ready with its museum, failed).
    public var document: DocumentState { whole.document }
    public var source: String { whole.source }
    public var language: Language { whole.language }
    public var strings: Strings { whole.strings }
    /// Every interface language's table (words a visitor may type in any of them).
    public var catalog: StringCatalog { whole.catalog }
    public var now: Date { whole.now }
    /// The machine's zone (UTC in tests), and the museum's (`time_zone`), if configured.
    public var timeZone: TimeZone { whole.timeZone }
    public var museumTimeZone: TimeZone? { whole.museumTimeZone }
    public var viewportRows: Int { whole.viewportRows }
    public var viewportWidth: Int { whole.viewportWidth }
    public var tab: Tab { whole.tab }
    public var route: Route { whole.page.route }
    /// How many pages the current tab has (1: its first page alone).
    public var depth: Int { whole.depth }
    /// How far the page on top is scrolled (the full player's text under its controls).
    public var pageScroll: Int { whole.page.scroll }
    /// How far the box on screen is scrolled (a box showing the key help).
    public var overlayScroll: Int { whole.overlayScroll }
    /// The box on screen, whoever's it is (a feature reads its own through `box(_:)`).
    public var overlay: Overlay? { whole.overlay }
    /// The player's track and the engine's last report (other features read, the player writes).
    public var playerTrack: Track? { whole.player.track }
    public var playerSnapshot: PlayerSnapshot { whole.player.snapshot }
    /// The configuration file's settings that belong to features (`AppState.config`).
    public var config: [String: String] { whole.config }
    /// The languages recordings may be asked in (`AppState.audioLanguages`).
    public var audioLanguages: [Language] { whole.audioLanguages }
    /// A note about where the document came from ("offline: using the copy from …").
    public var documentNote: Phrase? { whole.documentNote }
    /// The notice in the status bar, if one shows (a feature may clear one of its own).
    public var banner: Banner? { whole.banner }
    /// The tabs this guide has, and the visitor's location setting (Info's).
    public var tabs: [Tab] { whole.tabs }
    public var locationEnabled: Bool { whole.locationEnabled }

    /// Whether `F` is part of this guide (an action sent to a feature that is not is a mistake).
    public func has<F: Feature>(_: F.Type) -> Bool { whole.has(F.self) }

    /// Whether a feature of this guide listens to `moment` (telling nobody is not a request).
    public func isHeard(_ moment: FeatureEvent.Kind) -> Bool { !whole.features.listening(to: moment).isEmpty }

    /// The picture for `slot` that the features drawing pictures give now (`GivesFigures`, the
    /// first that has one): a read-only hook, so a scoped view draws it beside its own rows.
    public func figure(_ slot: FigureSlot) -> Figure? {
        whole.features.taking(.figure).lazy.compactMap { $0.figure(slot, whole) }.first
    }

    /// The rows the features that add rows give for `slot` (`AddsRows`, in their order): a
    /// read-only hook (the player's page shows what a running tour says over it).
    public func rows(_ slot: RowSlot) -> [Row] {
        whole.features.taking(.rows).flatMap { $0.rows(for: slot, whole) }
    }

    /// The picture the page on screen shows, if any: the first feature's wish with a picture
    /// (`WantsPictures`, in their order): a read-only hook (the pictures feature fetches it and
    /// gives the figure).
    public var pictureWish: PictureWish? {
        guard let wish = whole.features.taking(.picture).lazy.compactMap({ $0.pictureWanted(whole) }).first, !wish.url.isEmpty else { return nil }
        return wish
    }

    /// Where on the museum's map the page on top is about, as its feature says (`Feature.place`:
    /// a tour's start, an exhibition's gallery): a read-only hook. nil: nowhere, or not a
    /// feature's page.
    public var place: MapItemID? {
        guard case .feature(let r) = whole.page.route, let f = whole.features[id: r.feature] else { return nil }
        return f.place(r, whole)
    }

    /// The row highlighted on the page on top, if it is a list: its rows as the screen draws
    /// them (`PageBuilder.content`, every feature's rows and marks), the selection as Enter
    /// takes it. A read-only hook: what `f` opens Pulse about is read off the page on screen.
    public var highlightedRow: Row? {
        guard let rows = Reducer.rows(whole), let i = Row.effectiveSelection(rows, whole.page.selection) else { return nil }
        return rows[i]
    }

    /// The whole state, for the shared UI's read-only hooks on the context that only the root
    /// answers (DocentUI's `keyAction(_:)`, what a key does on the screen now, and `keyHelp`,
    /// the key help now). Not for features: they read the properties and hooks above.
    package var root: AppState { whole }

    /// `F`'s state, read-only.
    public func state<F: Feature>(of _: F.Type) -> F.State { whole[F.self] }

    /// `F`'s box on screen, if one of its boxes is.
    public func box<F: Feature>(_: F.Type) -> F.Overlay? {
        if case .feature(let v)? = overlay { return v.as(F.Overlay.self) }
        return nil
    }

    /// `F`'s page on top of the current tab, if one of its pages is.
    public func route<F: Feature>(of _: F.Type) -> F.Route? {
        if case .feature(let v) = route { return v.as(F.Route.self) }
        return nil
    }

    /// Whether something is playing or about to (loading, buffering), not paused or over.
    public var isPlaying: Bool {
        guard playerTrack != nil else { return false }
        switch playerSnapshot.status {
        case .loading, .buffering, .playing: return true
        case .idle, .paused, .ended, .failed: return false
        }
    }
}

/// What a scoped feature asks of the shared UI. It never writes a shared field: the root
/// applies these, in order, in one place (`Reducer.apply`).
public enum UIRequest: Equatable, Sendable {
    /// Put one of its boxes on screen (over whatever was there).
    case show(Overlay)
    /// Take its box off the screen (no `.dismissed` follows: it asked).
    case close
    /// A one-line notice in the status bar.
    case banner(Banner)
    /// Put a page on top of the current tab.
    case push(Route)
    /// Bring a tab forward.
    case select(Tab)
    /// A shared action, reduced at once by the root (starting over, quitting): so a feature
    /// never calls the root reducer itself.
    case send(AppAction)
    /// Take the notice off the status bar (one that is no longer true).
    case clearBanner
    /// Save what is kept between runs (`Effect.persist` with the settings after everything
    /// the step did), after the feature's own effects.
    case persist
    /// The page on top goes back to its first selectable row (its top, if it has no rows).
    case firstRow
    /// Museum messages now due (by id), shown after those waiting: ones seen already (unless
    /// persistent), waiting or on screen are left out; the first shows at once if nothing is on top.
    case queueMessages([Int])
    /// The tab's pages back to its root page alone, fresh (at its top).
    case resetTab(Tab)
    /// Tell the features that listen to it about a shared moment; if none of them did
    /// anything with it, reduce `unheard` (the player going on after an outage that no tour
    /// took up).
    case broadcast(FeatureEvent, unheard: AppAction?)
    /// Take a tab back to its first page (without bringing it forward), unless that page is
    /// on top already.
    case root(Tab)
    /// Queue the museum's messages with these ids, whether seen or not (a tour's exit
    /// messages); the next one shows if nothing is on screen.
    case messages([Int])
    /// Scroll the text of the box on screen by `delta` lines (0…60), as the shared box keys do.
    case scrollBox(Int)
    /// Take this page off every tab where it is on top (the full player once nothing plays:
    /// a tab left on it would show "Nothing is playing" instead of its own page, issue 47 #2).
    case dropPage(Route)
    /// Scroll the page on top by `delta` lines, kept within 0…`max` (the full player's text
    /// under its controls: the feature knows how long its text is, the root where it is).
    case scrollPage(Int, max: Int)
}

/// What a scoped feature's reducer gives back: effects for the shell, requests for the root.
public struct Outcome: Equatable, Sendable {
    public var effects: [Effect]
    public var requests: [UIRequest]
    public init(effects: [Effect] = [], requests: [UIRequest] = []) {
        self.effects = effects
        self.requests = requests
    }
    public static let none = Outcome()
}

/// A feature whose reducers see only its own state (`inout State`) and a read-only
/// `FeatureContext`, and return what they want of the shared UI as `UIRequest`s. Shaped after
/// TCA's `Scope`. It still conforms to `Feature` (the registry and the views are the same):
/// the `Feature` hooks that took the whole `AppState` are written here once, for every scoped
/// feature, as "read the context, run the scoped reducer, apply the requests".
public protocol ScopedFeature: Feature {
    /// Its own actions.
    static func reduce(_ state: inout State, _ action: Action, _ context: FeatureContext) -> Outcome
    /// A moment it listens to (`HearsEvents.listensTo`).
    static func react(to event: FeatureEvent, _ state: inout State, _ context: FeatureContext) -> Outcome
    /// The visitor's keys on one of its boxes.
    static func overlay(_ input: OverlayInput, _ overlay: Overlay, _ state: inout State, _ context: FeatureContext) -> Outcome
    /// Whether the visitor may quit now.
    static func allowsQuit(_ state: State) -> Bool
    /// The mouse wheel (or a list move) on one of its own screens.
    static func move(_ delta: Int, _ state: inout State, _ context: FeatureContext) -> Outcome
    /// What it keeps between runs, from its own state (nil: nothing to keep).
    static func saved(_ state: State) -> Saved?
    /// Restores what it kept, into its own state.
    static func restore(_ saved: Saved, _ state: inout State)
}

extension ScopedFeature {
    public static func react(to event: FeatureEvent, _ state: inout State, _ context: FeatureContext) -> Outcome { .none }
    public static func overlay(_ input: OverlayInput, _ overlay: Overlay, _ state: inout State, _ context: FeatureContext) -> Outcome { .none }
    public static func allowsQuit(_ state: State) -> Bool { true }
    public static func move(_ delta: Int, _ state: inout State, _ context: FeatureContext) -> Outcome { .none }
    public static func saved(_ state: State) -> Saved? { nil }
    public static func restore(_ saved: Saved, _ state: inout State) {}

    // The whole-state hooks, written once for every scoped feature (issue 46: `move`,
    // `saved` and `restore` see only the feature's own state).
    public static func move(_ delta: Int, _ state: inout AppState) -> [DocentCore.Effect] {
        let context = FeatureContext(state)
        let outcome = move(delta, &state[Self.self], context)
        return Reducer.apply(outcome, &state)
    }

    public static func saved(_ state: AppState) -> Saved? { saved(state[Self.self]) }

    public static func restore(_ saved: Saved, _ state: inout AppState) { restore(saved, &state[Self.self]) }

    public static func reduce(_ state: inout AppState, _ action: Action) -> [DocentCore.Effect] {
        let context = FeatureContext(state)
        let outcome = reduce(&state[Self.self], action, context)
        return Reducer.apply(outcome, &state)
    }

    public static func overlay(_ input: OverlayInput, _ overlay: Overlay, _ state: inout AppState) -> [DocentCore.Effect] {
        let context = FeatureContext(state)
        let outcome = self.overlay(input, overlay, &state[Self.self], context)
        return Reducer.apply(outcome, &state)
    }

    public static func allowsQuit(_ state: AppState) -> Bool { allowsQuit(state[Self.self]) }
}

extension Reducer {
    /// Applies what a feature asked of the shared UI, in order; the effects of the shared
    /// actions it sent come first, then the feature's own (as they happened in that order).
    public static func apply(_ outcome: Outcome, _ state: inout AppState) -> [Effect] {
        var effects: [Effect] = []
        var persist = false
        for r in outcome.requests {
            switch r {
            case .show(let o):
                // A box shown starts at its top.
                state.overlay = o
                state.overlayScroll = 0
            case .close:
                state.overlay = nil
            case .banner(let b):
                state.banner = b
            case .push(let route):
                push(&state, route)
                state.page.selection = firstSelectable(route, state)
            case .select(let t):
                if state.tabs.contains(t) { state.tab = t }
            case .send(let a):
                effects += dispatch(&state, a)
            case .clearBanner:
                state.banner = nil
            case .persist:
                persist = true
            case .firstRow:
                state.page.selection = firstSelectable(state.page.route, state)
            case .queueMessages(let ids):
                effects += queueMessages(&state, ids)
            case .resetTab(let t):
                state.stacks[t] = [Page(Route.root(of: t))]
            case .broadcast(let event, let unheard):
                let heard = broadcast(event, &state)
                effects += heard
                if heard.isEmpty, let a = unheard { effects += dispatch(&state, a) }
            case .root(let t):
                let root = Route.root(of: t)
                if (state.stacks[t]?.last?.route ?? root) != root { state.stacks[t] = [Page(root)] }
            case .messages(let ids):
                state.messageQueue += ids
                effects += showNextMessage(&state)
            case .scrollBox(let d):
                state.overlayScroll = min(max(0, state.overlayScroll.addingReportingOverflow(d).partialValue), 60)
            case .scrollPage(let d, let most):
                state.page.scroll = min(max(0, state.page.scroll.addingReportingOverflow(d).partialValue), most)
            case .dropPage(let route):
                for (t, stack) in state.stacks where stack.count > 1 && stack.last?.route == route {
                    state.stacks[t] = Array(stack.dropLast())
                }
            }
        }
        return effects + outcome.effects + (persist ? [.persist(state.settings)] : [])
    }
}

extension Reducer {
    /// `UIRequest.queueMessages`.
    static func queueMessages(_ state: inout AppState, _ ids: [Int]) -> [Effect] {
        let persistent = Set(state.museum?.messages.filter(\.persistent).map(\.id) ?? [])
        var waiting = Set(state.messageQueue)
        if case .message(let id)? = state.overlay { waiting.insert(id) }
        let new = ids.filter { (persistent.contains($0) || !state.seenMessageIDs.contains($0)) && !waiting.contains($0) }
        guard !new.isEmpty else { return [] }
        state.messageQueue += new
        return state.overlay == nil ? showNextMessage(&state) : []
    }
}

/// What dates and times are written with: the language and the zones. The whole state has it,
/// and so does a feature's context, so `PageBuilder`'s dates serve the scoped read side too.
public protocol DatesAndLanguage {
    var language: Language { get }
    var timeZone: TimeZone { get }
    var museumTimeZone: TimeZone? { get }
}

extension AppState: DatesAndLanguage {}
extension FeatureContext: DatesAndLanguage {}

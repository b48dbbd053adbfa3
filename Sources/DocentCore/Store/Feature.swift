import Foundation

/// A feature's name in the registry, in actions, effects, routes and saved state.
public struct FeatureID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static func < (a: FeatureID, b: FeatureID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { rawValue }
}

/// A value of one feature's own type (an action, an effect, a route, an overlay, saved
/// state), carried through the shared types without them knowing it. Equality and hashing
/// are the value's own; a value of another type is never equal.
public struct FeatureValue: Hashable, Sendable, CustomStringConvertible {
    public let feature: FeatureID
    public let value: any Sendable
    private let equals: @Sendable (any Sendable) -> Bool
    private let hashInto: @Sendable (inout Hasher) -> Void

    public init<T: Equatable & Sendable>(_ feature: FeatureID, _ value: T) {
        self.feature = feature
        self.value = value
        equals = { ($0 as? T) == value }
        // Equal values have the same type, so they take the same branch and hash alike.
        if let h = value as? any Hashable {
            let key = UncheckedHashable(AnyHashable(h))
            hashInto = { $0.combine(key.value) }
        } else {
            hashInto = { _ in }
        }
    }

    /// The value, when it is a `T`.
    public func `as`<T>(_: T.Type) -> T? { value as? T }

    public static func == (a: FeatureValue, b: FeatureValue) -> Bool { a.feature == b.feature && a.equals(b.value) }
    public func hash(into h: inout Hasher) {
        h.combine(feature)
        hashInto(&h)
    }
    public var description: String { "\(feature):\(value)" }
}

/// A hashable copy of a Sendable value (it came from one, so sharing it is safe).
private struct UncheckedHashable: @unchecked Sendable {
    let value: AnyHashable
    init(_ v: AnyHashable) { value = v }
}

/// Every feature's state, by feature. A feature reads and writes its own part through
/// `AppState[F.self]`; nothing else knows its type.
public struct FeatureStates: Equatable, Sendable {
    /// One feature's state, boxed once per write. A box is shared by the copies of the state
    /// it is in (the loop's "before", a feature's context), so comparing two states skips
    /// every feature whose box is the same object: the features an action did not touch.
    /// (A struct of closures and an existential made five allocations per write, and every
    /// comparison cast and compared every feature's state: a third of reducing one player
    /// report a second.)
    fileprivate class AnyBox: @unchecked Sendable {
        func equals(_ other: AnyBox) -> Bool { false }
        /// `Feature.drawsAlike` against another box of the same feature.
        func drawsAlike(_ other: AnyBox) -> Bool { false }
        /// Whether it holds the feature's initial state (asked only when comparing).
        func isInitial() -> Bool { false }
        func drawsAsInitial() -> Bool { false }
    }
    fileprivate final class Box<F: Feature>: AnyBox, @unchecked Sendable {
        let value: F.State
        init(_ v: F.State) { value = v }
        override func equals(_ other: AnyBox) -> Bool { other === self || (other as? Box<F>)?.value == value }
        override func drawsAlike(_ other: AnyBox) -> Bool { other === self || (other as? Box<F>).map { F.drawsAlike($0.value, value) } ?? false }
        override func isInitial() -> Bool { value == F.initialState }
        override func drawsAsInitial() -> Bool { F.drawsAlike(value, F.initialState) }
    }
    fileprivate var boxes: [FeatureID: AnyBox] = [:]
    public init() {}

    /// A feature never written and one holding its initial state compare equal.
    public static func == (a: FeatureStates, b: FeatureStates) -> Bool {
        for (k, box) in a.boxes {
            if let other = b.boxes[k] {
                guard other === box || box.equals(other) else { return false }
            } else if !box.isInitial() {
                return false
            }
        }
        for (k, box) in b.boxes where a.boxes[k] == nil && !box.isInitial() { return false }
        return true
    }

    /// `==` with each feature's `drawsAlike` in place of its state's `==`: whether a frame
    /// drawn from one would be the frame drawn from the other.
    public func drawsAlike(_ b: FeatureStates) -> Bool {
        for (k, box) in boxes {
            if let other = b.boxes[k] {
                guard other === box || box.drawsAlike(other) else { return false }
            } else if !box.drawsAsInitial() {
                return false
            }
        }
        for (k, box) in b.boxes where boxes[k] == nil && !box.drawsAsInitial() { return false }
        return true
    }

    public subscript<F: Feature>(_ feature: F.Type) -> F.State {
        get { (boxes[F.id] as? Box<F>)?.value ?? F.initialState }
        _modify {
            // Take the value out first so it is uniquely referenced while it changes.
            var v = (boxes.removeValue(forKey: F.id) as? Box<F>)?.value ?? F.initialState
            defer { boxes[F.id] = Box<F>(v) }
            yield &v
        }
        set { boxes[F.id] = Box<F>(newValue) }
    }
}

/// Saved values of the features, by feature, as the state database hands them back and takes
/// them (each feature's storage in the shell reads and writes its own).
public struct FeatureSaves: Equatable, Sendable {
    public var values: [FeatureID: FeatureValue] = [:]
    public init() {}
    public subscript<F: Feature>(_ feature: F.Type) -> F.Saved? {
        get { values[F.id]?.as(F.Saved.self) }
        set { values[F.id] = newValue.map { FeatureValue(F.id, $0) } }
    }
}

/// Moments every feature may react to, after the shared reducer has handled them.
public enum FeatureEvent: Equatable, Sendable {
    /// Start-up; saved values are already in state.
    case launched
    /// The museum arrived (or failed).
    case documentLoaded
    /// The visitor chose another language.
    case languageChanged
    /// The clock moved (every 30 s, and on demand).
    case tick
    /// The tab or the page on top changed (something may have come on screen); `from` is the
    /// tab the visitor was on (the same tab when only the page changed).
    case navigated(from: Tab)
    /// The player's engine reported a change; `before` is what the player showed until now
    /// (the new report is in `state.player.snapshot`).
    case playerChanged(before: PlayerSnapshot)
    /// Start-up's boxes (the welcome, the museum's messages) are done and nothing is on top:
    /// a feature may offer something once (tours offer to resume).
    case settled
    /// The visitor quits; what a feature must stop (the player's sound) is said here.
    case quitting
    /// The room for pages changed (`viewportRows`/`viewportWidth`): the terminal was resized.
    case resized
    /// A key, click or wheel turn arrived (before what it does): the visitor is there.
    case visitorInput
    /// The guide starts over for the next visitor (`AppAction.startOver`): each feature
    /// forgets what this visitor chose (a tour's place, a card, what was typed) and stops
    /// what it runs for them (the sound). The shared part is done already.
    case startOver
    /// The page on top changed what it shows without navigating (another search result
    /// selected): what depends on the page (its picture) is worked out again.
    case pageChanged
}

extension FeatureEvent {
    /// An event without its values: what a feature subscribes to (`HearsEvents.listensTo`).
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case launched, documentLoaded, languageChanged, tick, navigated, playerChanged, settled, quitting, resized, visitorInput, startOver, pageChanged
    }

    public var kind: Kind {
        switch self {
        case .launched: .launched
        case .documentLoaded: .documentLoaded
        case .languageChanged: .languageChanged
        case .tick: .tick
        case .navigated: .navigated
        case .playerChanged: .playerChanged
        case .settled: .settled
        case .quitting: .quitting
        case .resized: .resized
        case .visitorInput: .visitorInput
        case .startOver: .startOver
        case .pageChanged: .pageChanged
        }
    }
}

/// A mistake in the features' registration, found when the registry is built (at start, in
/// every build): the guide says it and does not start.
public struct RegistryError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What the visitor does to a feature's box (`Feature.Overlay`); the shared keys send these.
public enum OverlayInput: Equatable, Sendable {
    /// Up/down by this many rows.
    case move(Int)
    /// Enter on the box.
    case activate
    /// A click on choice `index`: select it, then activate it.
    case choose(Int)
    /// Esc: the box has already been taken off the screen.
    case dismissed
}

/// Where in a shared list a feature may add rows.
public enum RowSlot: Hashable, Sendable {
    /// Info, under "The museum".
    case infoMuseum
    /// Lines over the full player (a running tour says where it is).
    case playerStatus
    /// A section of Home, above the featured tours ("Popular right now").
    case home
    /// One line above the status line, on every page (the first row any feature gives; an
    /// announcement's banner).
    case aboveStatus
    /// A tour's page, under its start rows (saving the tour for offline).
    case tourPage(Int)
    /// Home's featured tours, after the museum's own (the tours staff featured in Pulse).
    case homeTours
}

/// Where on a shared page a feature may put a figure (a picture).
public enum FigureSlot: Hashable, Sendable {
    /// The full player, beside or above the transcript.
    case player
    /// A text page (an exhibition's), beside or above its text.
    case page
    /// A list (a tour's page, the search results): beside the rows on a wide screen, above
    /// them only on a tall one (the rows matter more than a banner).
    case list
}

/// A picture a page on screen would show in one of its figure slots, and the rows of the area
/// the figure shares with the page's text or rows. The feature that draws pictures fetches,
/// draws and hands it back through `figure(_:_:)` (`GivesFigures`).
public struct PictureWish: Hashable, Sendable {
    public var url: String
    public var slot: FigureSlot
    public var rows: Int
    /// What the picture shows, in words (an artwork's title and artist, an exhibition's or a
    /// tour's title): said instead of the picture in screen-reader mode. Empty: "Picture".
    public var about: String
    public init(url: String, slot: FigureSlot, rows: Int, about: String = "") {
        self.url = url
        self.slot = slot
        self.rows = rows
        self.about = about
    }
}

/// What a feature puts in a figure slot.
public enum Figure: Equatable, Sendable {
    /// Room kept for something on its way (the page does not jump when it comes).
    case pending(columns: Int, rows: Int)
    /// A picture to draw.
    case picture(Picture)
    /// One line instead (why there is no picture).
    case note(Phrase)
}

/// One feature of the guide: its state, actions, routes, effects, hooks and saved values.
/// Registered once (`Registry` in DocentUI); the shared reducer forwards to it by id and
/// knows nothing of its types. Its screens live beside it in DocentUI, its effect runner in
/// the executable. Shaped after TCA's scoped reducers.
public protocol Feature {
    associatedtype State: Equatable & Sendable
    associatedtype Action: Equatable & Sendable
    associatedtype Route: Hashable & Sendable = Never
    associatedtype Effect: Equatable & Sendable = Never
    associatedtype Saved: Equatable & Sendable = Never
    /// Its boxes drawn over the screen (a chooser, a question).
    associatedtype Overlay: Equatable & Sendable = Never

    static var id: FeatureID { get }
    static var initialState: State { get }
    /// The features it goes after wherever both take part in one thing (who hears a moment
    /// first, whose key wins, whose rows come first): `FeatureOrder`, checked when the registry
    /// is built. A feature not registered in a guide is skipped, its stated relations kept.
    static var after: [FeatureID] { get }
    /// The other features whose state it reads (`context.state(of:)`, their `AppState`
    /// accessors in its read hooks and views), declared so that a reader sees what a feature
    /// depends on; `FeatureReadsTests` checks the declaration against the feature's folder. The
    /// modes a feature publishes on the context (`context.screenReader`, `sharedTerminal`) are
    /// not state and are not declared.
    static var reads: [FeatureID] { get }
    /// The features it goes before (the same relation, stated from this side: a feature that
    /// cuts across the guide says where it goes, so the others need not name it).
    static var before: [FeatureID] { get }
    /// Its keys in config.toml (string values, handed to it in `AppState.config`).
    static var configKeys: [String] { get }
    /// What one of its keys' values should be when `value` cannot be used (English, for the
    /// message that stops the guide before it starts, with the file and line); nil: usable.
    static func configProblem(_ key: String, _ value: String) -> String?

    /// The feature's own actions.
    static func reduce(_ state: inout AppState, _ action: Action) -> [DocentCore.Effect]
    /// Whether two of its states draw the same frames: `==` unless part of the state is its
    /// own bookkeeping that nothing shows (a check in flight), so that changing only that
    /// part draws nothing.
    static func drawsAlike(_ a: State, _ b: State) -> Bool
    /// What one of its routes shows.
    static func content(_ route: Route, _ state: AppState) -> PageContent
    /// The mouse wheel (or a list move) on one of its own screens (`PageContent.custom`).
    static func move(_ delta: Int, _ state: inout AppState) -> [DocentCore.Effect]
    /// What it keeps between runs (nil: nothing to keep).
    static func saved(_ state: AppState) -> Saved?
    /// Restores what it kept.
    static func restore(_ saved: Saved, _ state: inout AppState)
    /// The visitor's keys on one of its boxes.
    static func overlay(_ input: OverlayInput, _ overlay: Overlay, _ state: inout AppState) -> [DocentCore.Effect]
    /// Where on the museum's map one of its pages is about (`v` shows it): a tour's start, an
    /// exhibition's gallery. nil: nowhere in particular.
    static func place(_ route: Route, _ state: AppState) -> MapItemID?
    /// Whether the visitor may quit now (`AppAction.quit`); any feature saying no keeps the
    /// guide open (a kiosk until staff unlock it). A system stop (`.terminate`) is never refused.
    static func allowsQuit(_ state: AppState) -> Bool

    // The capabilities it conforms to, each answered when the compiler checks its conformance:
    // `nil` here, itself in the capability's own extension (Capabilities.swift), the more
    // specialised witness winning. The registry asks these instead of `F.self as? any P.Type`,
    // which for a feature that does not conform scans every conformance record of the program
    // (about 7,000): 13 such casts for each of 20 features were a tenth of a start (issue 48).
    // `CapabilityWitnessTests` checks each against the runtime's cast for every registered one.
    static var asHearsEvents: (any HearsEvents.Type)? { get }
    static var asAddsRows: (any AddsRows.Type)? { get }
    static var asDecoratesRows: (any DecoratesRows.Type)? { get }
    static var asGivesFigures: (any GivesFigures.Type)? { get }
    static var asWantsPictures: (any WantsPictures.Type)? { get }
    static var asFillsPlaceholders: (any FillsPlaceholders.Type)? { get }
}

extension Feature {
    public static var configKeys: [String] { [] }
    public static func configProblem(_ key: String, _ value: String) -> String? { nil }
    public static var after: [FeatureID] { [] }
    public static var reads: [FeatureID] { [] }
    public static var before: [FeatureID] { [] }
    public static func drawsAlike(_ a: State, _ b: State) -> Bool { a == b }
    public static func move(_ delta: Int, _ state: inout AppState) -> [DocentCore.Effect] { [] }
    public static func saved(_ state: AppState) -> Saved? { nil }
    public static func restore(_ saved: Saved, _ state: inout AppState) {}
    public static func place(_ route: Route, _ state: AppState) -> MapItemID? { nil }
    public static func allowsQuit(_ state: AppState) -> Bool { true }
    public static var asHearsEvents: (any HearsEvents.Type)? { nil }
    public static var asAddsRows: (any AddsRows.Type)? { nil }
    public static var asDecoratesRows: (any DecoratesRows.Type)? { nil }
    public static var asGivesFigures: (any GivesFigures.Type)? { nil }
    public static var asWantsPictures: (any WantsPictures.Type)? { nil }
    public static var asFillsPlaceholders: (any FillsPlaceholders.Type)? { nil }

    /// Wraps one of its actions for the shared loop.
    public static func action(_ a: Action) -> AppAction { .feature(FeatureValue(id, a)) }
    /// Wraps one of its effects for the shell.
    public static func effect(_ e: Effect) -> DocentCore.Effect { .feature(FeatureValue(id, e)) }
    /// One of its routes as a shared route.
    public static func route(_ r: Route) -> DocentCore.Route { .feature(FeatureValue(id, r)) }
    /// One of its boxes as the shared overlay.
    public static func show(_ o: Overlay) -> DocentCore.Overlay { .feature(FeatureValue(id, o)) }
    /// Its box on screen, if one of its boxes is.
    public static func overlay(in state: AppState) -> Overlay? {
        if case .feature(let v)? = state.overlay { return v.as(Overlay.self) }
        return nil
    }
    /// Its route on top of the current tab, if one of its routes is.
    public static func route(in state: AppState) -> Route? {
        if case .feature(let v) = state.page.route { return v.as(Route.self) }
        return nil
    }
}

extension Feature where Overlay == Never {
    public static func overlay(_ input: OverlayInput, _ overlay: Never, _ state: inout AppState) -> [DocentCore.Effect] {}
}

extension Feature where Route == Never {
    public static func content(_ route: Never, _ state: AppState) -> PageContent { switch route {} }
}

/// A feature, type-erased, as the registry holds it.
public struct AnyFeature: Sendable {
    /// The feature's hooks, made once: a copy of the feature (every broadcast, every lookup)
    /// is then one reference, not twenty closures.
    final class Hooks: Sendable {
        let id: FeatureID
        let configKeys: [String]
        let configProblem: @Sendable (String, String) -> String?
        /// The capabilities it takes part in: the protocols it conforms to.
        let capabilities: Set<Capability>
        let after: [FeatureID]
        let before: [FeatureID]
        let listensTo: Set<FeatureEvent.Kind>
        let reduce: @Sendable (inout AppState, FeatureValue) -> [Effect]?
        let react: @Sendable (FeatureEvent, inout AppState) -> [Effect]
        let content: @Sendable (FeatureValue, AppState) -> PageContent?
        let rows: @Sendable (RowSlot, AppState) -> [Row]
        let decorate: @Sendable ([Row], Route, AppState) -> [Row]
        let figureOf: @Sendable (FigureSlot, AppState) -> Figure?
        let pictureOf: @Sendable (AppState) -> PictureWish?
        let move: @Sendable (Int, inout AppState) -> [Effect]
        let placeholders: @Sendable (AppState) -> [String: String]
        let saved: @Sendable (AppState) -> FeatureValue?
        let restore: @Sendable (FeatureValue, inout AppState) -> Void
        let overlay: @Sendable (OverlayInput, FeatureValue, inout AppState) -> [Effect]?
        let placeOf: @Sendable (FeatureValue, AppState) -> MapItemID?
        let allowsQuit: @Sendable (AppState) -> Bool
        let type: @Sendable () -> any Feature.Type

        init<F: Feature>(_: F.Type) {
            id = F.id
            configKeys = F.configKeys
            configProblem = { F.configProblem($0, $1) }
            let events = F.asHearsEvents
            let rowsOf = F.asAddsRows
            let decorator = F.asDecoratesRows
            let figures = F.asGivesFigures
            let pictures = F.asWantsPictures
            let filler = F.asFillsPlaceholders
            var capabilities: Set<Capability> = []
            if events != nil { capabilities.insert(.events) }
            if rowsOf != nil { capabilities.insert(.rows) }
            if decorator != nil { capabilities.insert(.decorate) }
            if figures != nil { capabilities.insert(.figure) }
            if pictures != nil { capabilities.insert(.picture) }
            if filler != nil { capabilities.insert(.placeholders) }
            self.capabilities = capabilities
            after = F.after
            before = F.before
            listensTo = events?.listensTo ?? []
            reduce = { state, v in v.as(F.Action.self).map { F.reduce(&state, $0) } }
            react = { event, state in events?.react(to: event, &state) ?? [] }
            content = { r, state in r.as(F.Route.self).map { F.content($0, state) } }
            rows = { slot, state in rowsOf?.rows(for: slot, state) ?? [] }
            decorate = { rows, route, state in decorator?.decorate(rows, on: route, state) ?? rows }
            figureOf = { slot, state in figures?.figure(slot, state) }
            pictureOf = { state in pictures?.pictureWanted(state) }
            move = { F.move($0, &$1) }
            placeholders = { state in filler?.placeholders(state) ?? [:] }
            saved = { F.saved($0).map { FeatureValue(F.id, $0) } }
            restore = { v, state in if let s = v.as(F.Saved.self) { F.restore(s, &state) } }
            overlay = { input, v, state in v.as(F.Overlay.self).map { F.overlay(input, $0, &state) } }
            placeOf = { r, state in r.as(F.Route.self).flatMap { F.place($0, state) } }
            allowsQuit = { F.allowsQuit($0) }
            type = { F.self }
        }
    }
    let hooks: Hooks
    /// Its part in the UI target (`FeatureEntry` in DocentUI), carried so that one registry
    /// value serves the reducer and the views.
    public var view: (any Sendable)?
    /// The capabilities its view takes part in (set with `view`, in DocentUI).
    public var viewCapabilities: Set<Capability> = []

    public init<F: Feature>(_ f: F.Type) { hooks = Hooks(F.self) }

    public var id: FeatureID { hooks.id }
    /// The feature's type, for what the shell finds by conformance (its runner).
    public var type: any Feature.Type { hooks.type() }
    public var configKeys: [String] { hooks.configKeys }
    /// The capabilities it takes part in, its view's included.
    public var capabilities: Set<Capability> { hooks.capabilities.union(viewCapabilities) }
    public var after: [FeatureID] { hooks.after }
    public var before: [FeatureID] { hooks.before }
    public var listensTo: Set<FeatureEvent.Kind> { hooks.listensTo }
    var reduce: @Sendable (inout AppState, FeatureValue) -> [Effect]? { hooks.reduce }
    var react: @Sendable (FeatureEvent, inout AppState) -> [Effect] { hooks.react }
    var content: @Sendable (FeatureValue, AppState) -> PageContent? { hooks.content }
    var rows: @Sendable (RowSlot, AppState) -> [Row] { hooks.rows }
    var decorate: @Sendable ([Row], Route, AppState) -> [Row] { hooks.decorate }
    var figureOf: @Sendable (FigureSlot, AppState) -> Figure? { hooks.figureOf }
    var pictureOf: @Sendable (AppState) -> PictureWish? { hooks.pictureOf }
    var move: @Sendable (Int, inout AppState) -> [Effect] { hooks.move }
    var placeholders: @Sendable (AppState) -> [String: String] { hooks.placeholders }
    var saved: @Sendable (AppState) -> FeatureValue? { hooks.saved }
    var restore: @Sendable (FeatureValue, inout AppState) -> Void { hooks.restore }
    var overlay: @Sendable (OverlayInput, FeatureValue, inout AppState) -> [Effect]? { hooks.overlay }
    var placeOf: @Sendable (FeatureValue, AppState) -> MapItemID? { hooks.placeOf }
    var allowsQuit: @Sendable (AppState) -> Bool { hooks.allowsQuit }

    /// The rows this feature adds to a shared list.
    public func rows(for slot: RowSlot, _ state: AppState) -> [Row] { rows(slot, state) }
    /// Its figure in `slot`, if any.
    public func figure(_ slot: FigureSlot, _ state: AppState) -> Figure? { figureOf(slot, state) }
    /// The picture its page on screen shows, if any.
    public func pictureWanted(_ state: AppState) -> PictureWish? { pictureOf(state) }

    /// Where the page `route` (one of this feature's) is about on the map.
    public func place(_ route: FeatureValue, _ state: AppState) -> MapItemID? { placeOf(route, state) }
}

/// The features of this guide: the one registry, built at the root (`Registry.make()` in
/// DocentUI for the guide) and injected into the state, where the reducer and the views read
/// it. Who goes first comes from the relations the features state (`Feature.after`,
/// `Feature.before`), never from a feature's place in the list; building it checks them (no
/// cycle, no two features of one capability, or of one moment, left unordered). Compared by
/// the ids.
public struct FeatureSet: Equatable, Sendable {
    public let all: [AnyFeature]
    private let byID: [FeatureID: Int]
    private let ordered: [Capability: [Int]]
    private let listeners: [FeatureEvent.Kind: [Int]]
    /// The order stated as relations between the features.
    let relations: FeatureOrder

    /// Fails on a duplicate id, on a cycle in the features' order, on two features taking part
    /// in one capability (or hearing one moment) that no relation orders, and on a feature that
    /// hears moments but listens to none.
    public init(_ features: [AnyFeature]) throws(RegistryError) {
        var m: [FeatureID: Int] = [:]
        for (i, f) in features.enumerated() {
            if m[f.id] != nil { throw RegistryError("two features are registered as \(f.id)") }
            m[f.id] = i
            if f.capabilities.contains(.events), f.listensTo.isEmpty { throw RegistryError("\(f.id) hears events but listens to none") }
        }
        let relations = try FeatureOrder(features)
        func sorted(_ indices: [Int], _ what: String) throws(RegistryError) -> [Int] {
            try relations.sorted(indices.map { features[$0].id }, for: what).map { m[$0]! }
        }
        var listeners: [FeatureEvent.Kind: [Int]] = [:]
        for k in FeatureEvent.Kind.allCases {
            listeners[k] = try sorted(features.indices.filter { features[$0].listensTo.contains(k) }, "events (\(k.rawValue))")
        }
        var ordered: [Capability: [Int]] = [:]
        for c in Set(features.flatMap(\.capabilities)).sorted() {
            let taking = features.indices.filter { features[$0].capabilities.contains(c) }
            // Moments are ordered per moment (above): two features that hear none in common
            // need no relation.
            if c == .events || !c.isOrdered {
                ordered[c] = relations.ranked(taking.map { features[$0].id }).map { m[$0]! }
            } else {
                ordered[c] = try sorted(taking, c.name)
            }
        }
        all = features
        byID = m
        self.ordered = ordered
        self.listeners = listeners
        self.relations = relations
    }

    public subscript(id id: FeatureID) -> AnyFeature? { byID[id].map { all[$0] } }
    public var ids: [FeatureID] { all.map(\.id) }
    /// The features taking part in `capability`, first first.
    public func taking(_ capability: Capability) -> [AnyFeature] { (ordered[capability] ?? []).map { all[$0] } }
    /// The features that hear `event`, in their events order.
    public func listening(to event: FeatureEvent.Kind) -> [AnyFeature] { (listeners[event] ?? []).map { all[$0] } }
    /// Every feature's config.toml keys.
    public var configKeys: Set<String> { Set(all.flatMap(\.configKeys)) }
    /// What the value of a feature's key should be, if it cannot be used (the feature that owns
    /// the key says); nil: usable, or not a feature's key.
    public func configProblem(_ key: String, _ value: String) -> String? {
        all.lazy.filter { $0.configKeys.contains(key) }.compactMap { $0.hooks.configProblem(key, value) }.first
    }
    public static func == (a: FeatureSet, b: FeatureSet) -> Bool { a.ids == b.ids }
    public static let none = FeatureSet()
    private init() {
        all = []
        byID = [:]
        ordered = [:]
        listeners = [:]
        relations = FeatureOrder()
    }
}

extension AppState {
    /// A feature's own state.
    public subscript<F: Feature>(_ feature: F.Type) -> F.State {
        get { featureStates[F.self] }
        _modify { yield &featureStates[F.self] }
        set { featureStates[F.self] = newValue }
    }

    /// Whether a feature is part of this guide.
    public func has<F: Feature>(_ feature: F.Type) -> Bool { features[id: F.id] != nil }
}

/// Something several features take part in, where their order decides something: who hears a
/// moment first, whose key wins, whose line is under every page, whose figure or picture a
/// page shows, in which order rows are added, marks put on and help sections listed. Each is a
/// protocol a feature (or its view, in DocentUI) conforms to, with the hook it implements: the
/// conformance is the declaration, so a hook cannot be implemented and not asked, nor asked
/// and not implemented. The order among those taking part comes from the relations the
/// features state (`Feature.after`, `Feature.before`), checked when the registry is built
/// (`FeatureOrder`). A `Capability` is the name the registry finds them by.
public struct Capability: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let name: String
    /// Whether the order among those taking part decides something (false: their parts are
    /// merged so that no order can matter, and the registry asks for no relation).
    public let isOrdered: Bool
    public init(_ name: String, ordered: Bool = true) {
        self.name = name
        isOrdered = ordered
    }
    public static func < (a: Capability, b: Capability) -> Bool { a.name < b.name }
    public var description: String { name }

    /// `HearsEvents`. (The registry orders its listeners per moment, `listening(to:)`.)
    public static let events = Capability("events")
    /// `GivesFigures`.
    public static let figure = Capability("figure")
    /// `WantsPictures`.
    public static let picture = Capability("picture")
    /// `AddsRows`.
    public static let rows = Capability("rows")
    /// `DecoratesRows`.
    public static let decorate = Capability("decorate")
    /// `FillsPlaceholders`.
    public static let placeholders = Capability("placeholders")
}

/// Hears the shared moments it listens to, after the shared reducer has handled them, in the
/// features' order for that moment (`Capability.events`). A scoped feature writes the scoped
/// `react(to:_:_:)`; the whole-state form below is then written for it (`ScopedFeature`).
public protocol HearsEvents: Feature {
    /// The moments it hears; no other reaches `react`.
    static var listensTo: Set<FeatureEvent.Kind> { get }
    /// A shared moment (after the shared reducer ran).
    static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect]
}

/// Adds rows to shared lists (`RowSlot`: Info's "The museum", over the full player, Home, the
/// line above the status line, a tour's page), in the features' order (`Capability.rows`).
public protocol AddsRows: Feature {
    static func rows(for slot: RowSlot, _ state: AppState) -> [Row]
}

/// Changes every list page before it is shown and acted on (marks, rows put in at positions,
/// a stable reordering); `route` is the page's. The same rows reach the renderer and the
/// reducer, so Enter does what is drawn. Applied in the features' order (`Capability.decorate`).
public protocol DecoratesRows: Feature {
    static func decorate(_ rows: [Row], on route: DocentCore.Route, _ state: AppState) -> [Row]
}

/// Puts a figure in a shared page's figure slot (nil: none); the first feature with one wins
/// (`Capability.figure`).
public protocol GivesFigures: Feature {
    static func figure(_ slot: FigureSlot, _ state: AppState) -> Figure?
}

/// The picture one of its pages on screen shows (the player's artwork, a tour's banner, the
/// selected search result), if any: the feature that draws pictures fetches it. The first
/// feature with one wins (`Capability.picture`).
public protocol WantsPictures: Feature {
    static func pictureWanted(_ state: AppState) -> PictureWish?
}

/// Fills `%NAME%` placeholders in museum messages; the first feature's value of a name wins
/// (`Capability.placeholders`).
public protocol FillsPlaceholders: Feature {
    static func placeholders(_ state: AppState) -> [String: String]
}

extension HearsEvents where Self: ScopedFeature {
    public static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] {
        let context = FeatureContext(state)
        let outcome = react(to: event, &state[Self.self], context)
        return Reducer.apply(outcome, &state)
    }
}

/// The scoped read side (issue 46, begun with two features): a scoped feature whose rows
/// are made from its own state and the context alone writes them in this form, and the
/// whole-state hook is written for it. (Every feature's read hooks take this shape in the end;
/// then the whole-state forms go.)
public protocol ScopedAddsRows: ScopedFeature, AddsRows {
    static func rows(for slot: RowSlot, _ state: State, _ context: FeatureContext) -> [Row]
}

extension ScopedAddsRows {
    public static func rows(for slot: RowSlot, _ state: AppState) -> [Row] { rows(for: slot, state[Self.self], FeatureContext(state)) }
}

/// `DecoratesRows` from the feature's own state and the context (the scoped read side).
public protocol ScopedDecoratesRows: ScopedFeature, DecoratesRows {
    static func decorate(_ rows: [Row], on route: DocentCore.Route, _ state: State, _ context: FeatureContext) -> [Row]
}

extension ScopedDecoratesRows {
    public static func decorate(_ rows: [Row], on route: DocentCore.Route, _ state: AppState) -> [Row] {
        decorate(rows, on: route, state[Self.self], FeatureContext(state))
    }
}

/// `GivesFigures` from the feature's own state and the context (the scoped read side).
public protocol ScopedGivesFigures: ScopedFeature, GivesFigures {
    static func figure(_ slot: FigureSlot, _ state: State, _ context: FeatureContext) -> Figure?
}

extension ScopedGivesFigures {
    public static func figure(_ slot: FigureSlot, _ state: AppState) -> Figure? { figure(slot, state[Self.self], FeatureContext(state)) }
}

/// `WantsPictures` from the feature's own state and the context (the scoped read side).
public protocol ScopedWantsPictures: ScopedFeature, WantsPictures {
    static func pictureWanted(_ state: State, _ context: FeatureContext) -> PictureWish?
}

extension ScopedWantsPictures {
    public static func pictureWanted(_ state: AppState) -> PictureWish? { pictureWanted(state[Self.self], FeatureContext(state)) }
}

/// Where on the museum's map one of its routes is about (`Feature.place`), from its own state
/// and the context (the scoped read side).
public protocol ScopedPlaces: ScopedFeature {
    static func place(_ route: Route, _ state: State, _ context: FeatureContext) -> MapItemID?
}

extension ScopedPlaces {
    public static func place(_ route: Route, _ state: AppState) -> MapItemID? { place(route, state[Self.self], FeatureContext(state)) }
}

/// What one of its routes shows, from its own state and the context (the scoped read side,
/// issue 46 #4); the whole-state `Feature.content` is written for it.
public protocol ScopedContent: ScopedFeature {
    static func content(_ route: Route, _ state: State, _ context: FeatureContext) -> PageContent
}

extension ScopedContent {
    public static func content(_ route: Route, _ state: AppState) -> PageContent { content(route, state[Self.self], FeatureContext(state)) }
}

/// `FillsPlaceholders` from the feature's own state and the context (the scoped read side).
public protocol ScopedFillsPlaceholders: ScopedFeature, FillsPlaceholders {
    static func placeholders(_ state: State, _ context: FeatureContext) -> [String: String]
}

extension ScopedFillsPlaceholders {
    public static func placeholders(_ state: AppState) -> [String: String] { placeholders(state[Self.self], FeatureContext(state)) }
}

// Each capability answers for itself when a feature's conformance is checked (`Feature.asHearsEvents`…).
extension HearsEvents { public static var asHearsEvents: (any HearsEvents.Type)? { Self.self } }
extension AddsRows { public static var asAddsRows: (any AddsRows.Type)? { Self.self } }
extension DecoratesRows { public static var asDecoratesRows: (any DecoratesRows.Type)? { Self.self } }
extension GivesFigures { public static var asGivesFigures: (any GivesFigures.Type)? { Self.self } }
extension WantsPictures { public static var asWantsPictures: (any WantsPictures.Type)? { Self.self } }
extension FillsPlaceholders { public static var asFillsPlaceholders: (any FillsPlaceholders.Type)? { Self.self } }

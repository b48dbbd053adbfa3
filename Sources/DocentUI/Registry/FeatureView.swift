/// A feature's part of the screen: how it draws its own pages and which keys it takes there.
/// Lives beside the feature's core part (`Feature`), in the feature's folder of this target.
/// What it takes part in with other features' views is a protocol of its own (below), found
/// by conformance: keys before all (`TakesKeysFirst`), keys on every page
/// (`TakesKeysAnywhere`), the line under every page (`DrawsFooter`), a section of the key help
/// (`GivesHelp`), what the hints and help say once all gave theirs (`FiltersHints`), a change
/// over every drawn frame (`TransformsFrame`), the terminal's mode (`ChoosesRenderOptions`),
/// the rows of its page that move each second by themselves (`RedrawsMoving`).
public protocol FeatureView {
    associatedtype Core: Feature
    /// Draws one of its own screens (`PageContent.custom`).
    static func render(_ screen: inout Screen, _ area: Rect, state: AppState)
    /// Its keys on its own pages, before the shared ones; nil: the shared ones.
    static func action(for key: Key, in state: AppState) -> AppAction?
    /// The status line's hints on its own pages; nil: the usual ones.
    static func hints(_ state: AppState) -> String?
    /// Its keys while one of its boxes is on screen, before the shared box keys (the Pulse
    /// box's digits, typing in a box); nil: the shared ones.
    static func overlayKeys(_ key: Key, _ overlay: Core.Overlay, state: AppState) -> AppAction?
    /// Draws one of its boxes over the screen.
    static func renderOverlay(_ screen: inout Screen, _ overlay: Core.Overlay, state: AppState)

    // The capabilities it conforms to, answered when the compiler checks its conformance
    // (as `Feature.asHearsEvents`…: a runtime cast would scan every conformance record).
    static var asTakesKeysFirst: (any TakesKeysFirst.Type)? { get }
    static var asTakesKeysAnywhere: (any TakesKeysAnywhere.Type)? { get }
    static var asDrawsFooter: (any DrawsFooter.Type)? { get }
    static var asGivesHelp: (any GivesHelp.Type)? { get }
    static var asFiltersHints: (any FiltersHints.Type)? { get }
    static var asTransformsFrame: (any TransformsFrame.Type)? { get }
    static var asChoosesRenderOptions: (any ChoosesRenderOptions.Type)? { get }
    static var asRedrawsMoving: (any RedrawsMoving.Type)? { get }
}

extension FeatureView {
    public static func render(_ screen: inout Screen, _ area: Rect, state: AppState) {}
    public static func action(for key: Key, in state: AppState) -> AppAction? { nil }
    public static func hints(_ state: AppState) -> String? { nil }
    public static func overlayKeys(_ key: Key, _ overlay: Core.Overlay, state: AppState) -> AppAction? { nil }
    public static var asTakesKeysFirst: (any TakesKeysFirst.Type)? { nil }
    public static var asTakesKeysAnywhere: (any TakesKeysAnywhere.Type)? { nil }
    public static var asDrawsFooter: (any DrawsFooter.Type)? { nil }
    public static var asGivesHelp: (any GivesHelp.Type)? { nil }
    public static var asFiltersHints: (any FiltersHints.Type)? { nil }
    public static var asTransformsFrame: (any TransformsFrame.Type)? { nil }
    public static var asChoosesRenderOptions: (any ChoosesRenderOptions.Type)? { nil }
    public static var asRedrawsMoving: (any RedrawsMoving.Type)? { nil }
}

// Each capability answers for itself when a view's conformance is checked.
extension TakesKeysFirst { public static var asTakesKeysFirst: (any TakesKeysFirst.Type)? { Self.self } }
extension TakesKeysAnywhere { public static var asTakesKeysAnywhere: (any TakesKeysAnywhere.Type)? { Self.self } }
extension DrawsFooter { public static var asDrawsFooter: (any DrawsFooter.Type)? { Self.self } }
extension GivesHelp { public static var asGivesHelp: (any GivesHelp.Type)? { Self.self } }
extension FiltersHints { public static var asFiltersHints: (any FiltersHints.Type)? { Self.self } }
extension TransformsFrame { public static var asTransformsFrame: (any TransformsFrame.Type)? { Self.self } }
extension ChoosesRenderOptions { public static var asChoosesRenderOptions: (any ChoosesRenderOptions.Type)? { Self.self } }
extension RedrawsMoving { public static var asRedrawsMoving: (any RedrawsMoving.Type)? { Self.self } }

extension FeatureView where Core.Overlay == Never {
    public static func renderOverlay(_ screen: inout Screen, _ overlay: Never, state: AppState) {}
}

/// A view drawn from its feature's own state and the context, nothing else of the shared state
/// (the scoped read side, issue 46: begun with `MemberView`). The whole-state forms of
/// `FeatureView` are written for it.
public protocol ScopedFeatureView: FeatureView where Core: ScopedFeature {
    /// Draws one of its own screens.
    static func render(_ screen: inout Screen, _ area: Rect, _ state: Core.State, _ context: FeatureContext)
    /// Its keys on its own pages; nil: the shared ones.
    static func action(for key: Key, _ state: Core.State, _ context: FeatureContext) -> AppAction?
    /// The status line's hints on its own pages; nil: the usual ones.
    static func hints(_ state: Core.State, _ context: FeatureContext) -> String?
}

extension ScopedFeatureView {
    public static func render(_ screen: inout Screen, _ area: Rect, _ state: Core.State, _ context: FeatureContext) {}
    public static func action(for key: Key, _ state: Core.State, _ context: FeatureContext) -> AppAction? { nil }
    public static func hints(_ state: Core.State, _ context: FeatureContext) -> String? { nil }

    public static func render(_ screen: inout Screen, _ area: Rect, state: AppState) {
        render(&screen, area, state[Core.self], FeatureContext(state))
    }
    public static func action(for key: Key, in state: AppState) -> AppAction? { action(for: key, state[Core.self], FeatureContext(state)) }
    public static func hints(_ state: AppState) -> String? { hints(state[Core.self], FeatureContext(state)) }
}

/// A scoped view's boxes, drawn from its own state and the context (`ScopedFeatureView`), and
/// its keys on them (nil: the shared box keys).
public protocol ScopedDrawsOverlay: ScopedFeatureView {
    static func renderOverlay(_ screen: inout Screen, _ overlay: Core.Overlay, _ state: Core.State, _ context: FeatureContext)
    static func overlayKeys(_ key: Key, _ overlay: Core.Overlay, _ state: Core.State, _ context: FeatureContext) -> AppAction?
}

extension ScopedDrawsOverlay {
    public static func overlayKeys(_ key: Key, _ overlay: Core.Overlay, _ state: Core.State, _ context: FeatureContext) -> AppAction? { nil }

    public static func renderOverlay(_ screen: inout Screen, _ overlay: Core.Overlay, state: AppState) {
        renderOverlay(&screen, overlay, state[Core.self], FeatureContext(state))
    }
    public static func overlayKeys(_ key: Key, _ overlay: Core.Overlay, state: AppState) -> AppAction? {
        overlayKeys(key, overlay, state[Core.self], FeatureContext(state))
    }
}

/// `DrawsFooter`, from its own state and the context.
public protocol ScopedDrawsFooter: DrawsFooter, ScopedFeatureView {
    static func footer(_ screen: inout Screen, _ area: Rect, _ state: Core.State, _ context: FeatureContext) -> Bool
}

extension ScopedDrawsFooter {
    public static func footer(_ screen: inout Screen, _ area: Rect, state: AppState) -> Bool {
        footer(&screen, area, state[Core.self], FeatureContext(state))
    }
}

/// `RedrawsMoving`, from its own state and the context.
public protocol ScopedRedrawsMoving: RedrawsMoving, ScopedFeatureView {
    static func redrawMoving(_ screen: inout Screen, _ page: Rect, _ state: Core.State, _ context: FeatureContext) -> Range<Int>?
}

extension ScopedRedrawsMoving {
    public static func redrawMoving(_ screen: inout Screen, _ page: Rect, state: AppState) -> Range<Int>? {
        redrawMoving(&screen, page, state[Core.self], FeatureContext(state))
    }
}

/// `TakesKeysFirst`, from its own state and the context.
public protocol ScopedTakesKeysFirst: TakesKeysFirst, ScopedFeatureView {
    static func first(_ key: Key, _ state: Core.State, _ context: FeatureContext) -> AppAction?
}

extension ScopedTakesKeysFirst {
    public static func first(_ key: Key, in state: AppState) -> AppAction? { first(key, state[Core.self], FeatureContext(state)) }
}

/// `TakesKeysAnywhere`, from its own state and the context.
public protocol ScopedTakesKeysAnywhere: TakesKeysAnywhere, ScopedFeatureView {
    static func anywhere(_ key: Key, _ state: Core.State, _ context: FeatureContext) -> AppAction?
    static func anywhereHint(_ state: Core.State, _ context: FeatureContext) -> String?
}

extension ScopedTakesKeysAnywhere {
    public static func anywhereHint(_ state: Core.State, _ context: FeatureContext) -> String? { nil }
    public static func anywhere(_ key: Key, in state: AppState) -> AppAction? { anywhere(key, state[Core.self], FeatureContext(state)) }
    public static func anywhereHint(_ state: AppState) -> String? { anywhereHint(state[Core.self], FeatureContext(state)) }
}

/// `GivesHelp`, from its own state and the context.
public protocol ScopedGivesHelp: GivesHelp, ScopedFeatureView {
    static func help(_ state: Core.State, _ context: FeatureContext) -> HelpSection?
}

extension ScopedGivesHelp {
    public static func help(_ state: AppState) -> HelpSection? { help(state[Core.self], FeatureContext(state)) }
}

/// `FiltersHints`, from its own state and the context.
public protocol ScopedFiltersHints: FiltersHints, ScopedFeatureView {
    static func filterHints(_ hints: String, _ state: Core.State, _ context: FeatureContext) -> String
    static func filterHelp(_ section: HelpSection, _ state: Core.State, _ context: FeatureContext) -> HelpSection
}

extension ScopedFiltersHints {
    public static func filterHints(_ hints: String, _ state: AppState) -> String { filterHints(hints, state[Core.self], FeatureContext(state)) }
    public static func filterHelp(_ section: HelpSection, _ state: AppState) -> HelpSection {
        filterHelp(section, state[Core.self], FeatureContext(state))
    }
}

/// Keys it takes before every other, even over a box (a screen that waits for any key, a code
/// being typed), in the features' order (`Capability.keysFirst`). nil: not now.
public protocol TakesKeysFirst: FeatureView {
    static func first(_ key: Key, in state: AppState) -> AppAction?
}

/// Its keys on every page, after the page's own and before the shared ones (the keypad's
/// digits, the player's Space), in the features' order (`Capability.keysAnywhere`): the first
/// that takes a key has it. nil: not one of its keys here.
public protocol TakesKeysAnywhere: FeatureView {
    static func anywhere(_ key: Key, in state: AppState) -> AppAction?
    /// A hint line segment for one of its keys on the page now ("f notes (2)"), put before
    /// "? help" in the usual hints when the line has room; nil: nothing to say.
    static func anywhereHint(_ state: AppState) -> String?
}

extension TakesKeysAnywhere {
    public static func anywhereHint(_ state: AppState) -> String? { nil }
}

/// Draws the line under every page when it owns it (the mini player); false: not its line.
/// The first in the features' order that draws owns it (`Capability.footer`).
public protocol DrawsFooter: FeatureView {
    static func footer(_ screen: inout Screen, _ area: Rect, state: AppState) -> Bool
}

/// Its part of the key help (`?`) now: nil when its keys do nothing in this state. Sections in
/// the features' order (`Capability.help`).
public protocol GivesHelp: FeatureView {
    static func help(_ state: AppState) -> HelpSection?
}

/// Rewrites what the status line's hints and the key help say once every feature gave its
/// part (a kiosk leaves out the keys that quit while visitors cannot quit), in the features'
/// order (`Capability.hints`).
public protocol FiltersHints: FeatureView {
    /// The hint line ("key word · key word · …") as it will be drawn.
    static func filterHints(_ hints: String, _ state: AppState) -> String
    /// One section of the key help.
    static func filterHelp(_ section: HelpSection, _ state: AppState) -> HelpSection
}

/// A change over every drawn frame, after the widgets drew (`FrameTransform`: the reader's
/// Chinese script, a screen reader's frame), applied in the features' order
/// (`Capability.frame`).
public protocol TransformsFrame: FeatureView {
    static var frameTransform: FrameTransform { get }
}

/// What it needs of the terminal, decided once at start from the configuration (a kiosk's raw
/// keys, a screen reader's cursor). Order-free by construction: the options asked are merged
/// (`RenderOptions.merged`), so no feature goes before another.
public protocol ChoosesRenderOptions: FeatureView {
    static func renderOptions(_ config: [String: String]) -> RenderOptions
}

/// Rows of the page on screen that change each second by themselves (a playing track's
/// position), drawn again over the last frame without the rest of it
/// (`RootView.redrawPosition`). The first in the features' order that answers has them
/// (`Capability.moving`).
public protocol RedrawsMoving: FeatureView {
    /// Clears and draws again the rows of `page` (the page's area, under the tabs) that moved,
    /// without click regions (the last frame's stay); nil: nothing of its moves on this page.
    static func redrawMoving(_ screen: inout Screen, _ page: Rect, state: AppState) -> Range<Int>?
}

extension Capability {
    /// `RedrawsMoving`.
    public static let moving = Capability("moving")
    /// `FiltersHints`.
    public static let hints = Capability("hints")
    /// `TransformsFrame`.
    public static let frame = Capability("frame")
    /// `ChoosesRenderOptions` (merged, so unordered).
    public static let renderOptions = Capability("renderOptions", ordered: false)
    /// `TakesKeysFirst`.
    public static let keysFirst = Capability("keysFirst")
    /// `TakesKeysAnywhere`.
    public static let keysAnywhere = Capability("keysAnywhere")
    /// `DrawsFooter`.
    public static let footer = Capability("footer")
    /// `GivesHelp`.
    public static let help = Capability("help")
}

/// One registered feature: its core part and its view, type-erased.
public struct FeatureEntry: Sendable {
    public let core: AnyFeature
    /// Its view's type (nil: a feature without pages of its own to draw).
    public let viewType: (any FeatureView.Type)?
    /// The capabilities its view takes part in: the protocols it conforms to.
    let capabilities: Set<Capability>
    let render: @Sendable (inout Screen, Rect, AppState) -> Void
    let keys: @Sendable (Key, AppState) -> AppAction?
    let hints: @Sendable (AppState) -> String?
    let anywhere: @Sendable (Key, AppState) -> AppAction?
    let anywhereHint: @Sendable (AppState) -> String?
    let overlay: @Sendable (inout Screen, FeatureValue, AppState) -> Void
    let overlayKeys: @Sendable (Key, FeatureValue, AppState) -> AppAction?
    let footer: @Sendable (inout Screen, Rect, AppState) -> Bool
    let help: @Sendable (AppState) -> HelpSection?
    let first: @Sendable (Key, AppState) -> AppAction?
    let filterHints: @Sendable (String, AppState) -> String
    let filterHelp: @Sendable (HelpSection, AppState) -> HelpSection
    let transform: FrameTransform?
    let renderOptions: @Sendable ([String: String]) -> RenderOptions?
    let moving: @Sendable (inout Screen, Rect, AppState) -> Range<Int>?

    public init<V: FeatureView>(_ view: V.Type) {
        core = AnyFeature(V.Core.self)
        viewType = V.self
        let first = V.asTakesKeysFirst
        let anywhere = V.asTakesKeysAnywhere
        let footer = V.asDrawsFooter
        let help = V.asGivesHelp
        let filter = V.asFiltersHints
        let frame = V.asTransformsFrame
        let options = V.asChoosesRenderOptions
        let moving = V.asRedrawsMoving
        var capabilities: Set<Capability> = []
        if filter != nil { capabilities.insert(.hints) }
        if frame != nil { capabilities.insert(.frame) }
        if options != nil { capabilities.insert(.renderOptions) }
        if first != nil { capabilities.insert(.keysFirst) }
        if anywhere != nil { capabilities.insert(.keysAnywhere) }
        if footer != nil { capabilities.insert(.footer) }
        if help != nil { capabilities.insert(.help) }
        if moving != nil { capabilities.insert(.moving) }
        self.capabilities = capabilities
        render = { V.render(&$0, $1, state: $2) }
        keys = { V.action(for: $0, in: $1) }
        hints = { V.hints($0) }
        self.anywhere = { key, state in anywhere?.anywhere(key, in: state) }
        anywhereHint = { state in anywhere?.anywhereHint(state) }
        overlay = { screen, v, state in if let o = v.as(V.Core.Overlay.self) { V.renderOverlay(&screen, o, state: state) } }
        overlayKeys = { key, v, state in v.as(V.Core.Overlay.self).flatMap { V.overlayKeys(key, $0, state: state) } }
        self.footer = { screen, area, state in footer?.footer(&screen, area, state: state) ?? false }
        self.help = { state in help?.help(state) }
        self.first = { key, state in first?.first(key, in: state) }
        filterHints = { hints, state in filter?.filterHints(hints, state) ?? hints }
        filterHelp = { section, state in filter?.filterHelp(section, state) ?? section }
        transform = frame?.frameTransform
        renderOptions = { config in options?.renderOptions(config) }
        self.moving = { screen, page, state in moving?.redrawMoving(&screen, page, state: state) }
    }

    /// A feature without pages of its own to draw (its pages are lists and texts).
    public init<F: Feature>(core: F.Type) {
        self.core = AnyFeature(F.self)
        viewType = nil
        capabilities = []
        render = { _, _, _ in }
        keys = { _, _ in nil }
        hints = { _ in nil }
        anywhere = { _, _ in nil }
        anywhereHint = { _ in nil }
        overlay = { _, _, _ in }
        overlayKeys = { _, _, _ in nil }
        footer = { _, _, _ in false }
        help = { _ in nil }
        first = { _, _ in nil }
        filterHints = { hints, _ in hints }
        filterHelp = { section, _ in section }
        transform = nil
        renderOptions = { _ in nil }
        moving = { _, _, _ in nil }
    }

    public var id: FeatureID { core.id }
}

extension FeatureSet {
    /// The registry of these entries (each core part carrying its view), checked.
    public init(_ entries: [FeatureEntry]) throws(RegistryError) {
        try self.init(entries.map { e in
            var core = e.core
            core.view = e
            core.viewCapabilities = e.capabilities
            return core
        })
    }

    /// The views of the features taking part in `capability`, first first.
    func views(_ capability: Capability) -> [FeatureEntry] { taking(capability).compactMap { $0.view as? FeatureEntry } }

    /// The view of one feature, if it has one.
    func view(_ id: FeatureID) -> FeatureEntry? { self[id: id]?.view as? FeatureEntry }

    /// The view of the feature whose page is on top, if it is a feature's own page.
    func view(for state: AppState) -> FeatureEntry? {
        if case .feature(let r) = state.page.route { return view(r.feature) }
        return nil
    }
}

extension FeatureContext {
    /// What `key` does on the screen now (`KeyMap`: the page's own keys, every feature's keys,
    /// the shared ones): a read-only hook of the shared UI, so a scoped view can tell whether
    /// one of its keys reaches it here (Pulse's `f` is a floor on the map, text in a query).
    public func keyAction(_ key: Key) -> AppAction? { KeyMap.action(for: key, in: root) }

    /// The key help now, every feature's section and the general keys, as `?` shows it
    /// (`HelpSection.current`): a read-only hook of the shared UI (Pulse's box shows it).
    public var keyHelp: [HelpSection] { HelpSection.current(root) }
}

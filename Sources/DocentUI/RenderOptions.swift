/// How the guide draws, decided in one place: the terminal's mode (from the configuration,
/// decoded once at start, as the features that need something of the terminal ask it:
/// `ChoosesRenderOptions`) and the transforms over every drawn frame (from the state, as the
/// features register them: `TransformsFrame`), which the partial redraw applies to the rows
/// it draws again.
public struct RenderOptions: Equatable, Sendable {
    public enum TerminalMode: Equatable, Sendable {
        /// Ctrl-C, Ctrl-Z and Ctrl-\ are keys like others, not signals (a kiosk: visitors
        /// cannot stop the guide).
        case raw
        /// The usual: Ctrl-C and Ctrl-\ quit through the signal handlers.
        case cbreak
    }

    public var terminalMode: TerminalMode
    /// The terminal's cursor sits on what has the visitor's attention (`Screen.focus`).
    public var screenReader: Bool

    public init(terminalMode: TerminalMode = .cbreak, screenReader: Bool = false) {
        self.terminalMode = terminalMode
        self.screenReader = screenReader
    }

    /// From the configuration's feature settings, as each feature of `features` that needs
    /// something of the terminal decodes them (`ChoosesRenderOptions`), merged.
    public static func decode(_ config: [String: String], features: FeatureSet = Registry.features) -> RenderOptions {
        merged(features.views(.renderOptions).compactMap { $0.renderOptions(config) })
    }

    /// What several features asked, together: raw keys if one asks them, the cursor on the
    /// focus if one asks it (so the order they are asked in cannot matter).
    public static func merged(_ asked: [RenderOptions]) -> RenderOptions {
        RenderOptions(
            terminalMode: asked.contains { $0.terminalMode == .raw } ? .raw : .cbreak,
            screenReader: asked.contains { $0.screenReader })
    }
}

/// A change over the drawn frame, after every widget drew: it sees the cells, not who drew
/// them, so every page, box and note follows without knowing.
public struct FrameTransform: Sendable {
    public let name: String
    /// Whether it applies to a frame drawn for this state.
    let applies: @Sendable (AppState) -> Bool
    /// Whether it can be applied to some rows only (a frame drawn again in part, as the
    /// player's clock is); false: such a frame is drawn whole.
    let partial: Bool
    /// Applies it to `rows` of `screen` (nil: every row).
    let apply: @Sendable (inout Screen, [Int]?, AppState) -> Void

    public init(
        name: String, applies: @escaping @Sendable (AppState) -> Bool, partial: Bool,
        apply: @escaping @Sendable (inout Screen, [Int]?, AppState) -> Void
    ) {
        self.name = name
        self.applies = applies
        self.partial = partial
        self.apply = apply
    }

    /// The transforms for a frame of `state`: the registered features' (`TransformsFrame`),
    /// in their order, those that apply.
    public static func active(_ state: AppState) -> [FrameTransform] {
        state.features.views(.frame).compactMap(\.transform).filter { $0.applies(state) }
    }
}

/// How the guide draws, decided in one place: the terminal's mode (from the configuration,
/// decoded once at start) and the transforms over every drawn frame (from the state), which
/// the partial redraw applies to the rows it draws again.
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

    /// From the configuration's feature settings (`kiosk`, `screen_reader`), through the same
    /// decoding the features use.
    public static func decode(_ config: [String: String]) -> RenderOptions {
        RenderOptions(
            terminalMode: KioskConfig.decode(config).enabled ? .raw : .cbreak,
            screenReader: ScreenReaderFeature.isEnabled(config: config))
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

    /// Chinese in the reader's script (issue 16 #2), whoever drew it (content, notes, the
    /// museum's texts).
    public static let readersScript = FrameTransform(
        name: "readersScript",
        applies: { $0.language == .chinese || $0.language == .traditionalChinese },
        partial: true,
        apply: { screen, rows, state in screen.mapText(rows: rows, state.inReadersScript) })

    /// A screen reader's frame: plain lines and the cursor on the focus. The player's clock does
    /// not tick for it, so it is never drawn in part.
    public static let screenReader = FrameTransform(
        name: "screenReader", applies: { $0.screenReader }, partial: false, apply: { _, _, _ in })

    /// Every transform, in the order applied.
    public static let all: [FrameTransform] = [.readersScript, .screenReader]

    /// The transforms for a frame of `state`.
    public static func active(_ state: AppState) -> [FrameTransform] { all.filter { $0.applies(state) } }
}

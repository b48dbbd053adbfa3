/// Screen-reader mode (`--screen-reader` or `screen_reader = true`): the terminal's cursor sits
/// on what has the visitor's attention (the selected row, a box's title or choice; drawn by
/// `ListView` and `OverlayView` as `Screen.focus`, placed by the terminal adapter) so Orca,
/// speakup or brltty read it; the player's time and bar do not tick while a recording plays
/// (they show when it is paused: the position on request); the map opens as its text list.
/// A feature of its own for its configuration key only: it writes no state (the map reads the
/// mode and opens as text; the frame's cursor and plain lines are `RenderOptions` and
/// `FrameTransform.screenReader`); the views ask `AppState.screenReader`.
public enum ScreenReaderFeature: ScopedFeature {
    public struct State: Equatable, Sendable { public init() {} }
    public enum Action: Equatable, Sendable {}
    public static let id = FeatureID("screenReader")
    public static let initialState = State()
    public static let configKeys = ["screen_reader"]

    public static func configProblem(_ key: String, _ value: String) -> String? {
        ["true", "false"].contains(value.trimmingCharacters(in: .whitespaces).lowercased()) ? nil : "must be true or false"
    }

    public static func isEnabled(config: [String: String]) -> Bool {
        config["screen_reader"]?.trimmingCharacters(in: .whitespaces).lowercased() == "true"
    }

    public static func reduce(_ state: inout State, _ action: Action, _ context: FeatureContext) -> Outcome {}
}

extension AppState {
    /// Screen-reader mode is on (the configuration's `screen_reader`, or `--screen-reader`).
    public var screenReader: Bool { ScreenReaderFeature.isEnabled(config: config) }
}

extension FeatureContext {
    /// Screen-reader mode is on: features that draw differently for it read this.
    public var screenReader: Bool { ScreenReaderFeature.isEnabled(config: config) }
}

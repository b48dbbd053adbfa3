/// Chinese content in the reader's script (issue 16 #2, issue 33 #1): a museum's Chinese is one
/// language in its data (often in one script whatever its tag says), and a reader of Traditional
/// Chinese sees it in Traditional, a reader of Simplified in Simplified, where a conversion
/// exists; text already in the reader's script is left as written (`ReadersScript`). The shell
/// opens the conversion once, when a Chinese reader first appears (`ScriptsRunner`, OpenCC
/// through `ScriptConversion`); a frame transform (`FrameTransform.readersScript`) converts
/// what was drawn, so every page, box and note follows without knowing.
public enum ScriptsFeature: ScopedFeature, HearsEvents {
    public struct State: Equatable, Sendable {
        public var script: ReadersScript?
        /// Asked of the shell already (once, the first time a Chinese reader is there).
        public var requested = false
        public init() {}
    }

    public enum Action: Equatable, Sendable {
        /// The conversion, or nil when it cannot be had (OpenCC's data missing: text as written).
        case built(ReadersScript?)
    }

    public enum Effect: Equatable, Sendable {
        case build
    }

    public static let id = FeatureID("scripts")
    public static let listensTo: Set<FeatureEvent.Kind> = [.launched, .languageChanged]
    /// Its frame transform before the screen reader's (the reader's script is drawn text).
    public static let before = [ScreenReaderFeature.id]
    public static let initialState = State()

    public static func reduce(_ state: inout State, _ action: Action, _ context: FeatureContext) -> Outcome {
        switch action {
        case .built(let t): state.script = t
        }
        return .none
    }

    /// The conversion is opened the first time the reader's language is Chinese (nobody else
    /// needs it: its dictionaries stay unread on every other start).
    public static func react(to event: FeatureEvent, _ state: inout State, _ context: FeatureContext) -> Outcome {
        guard event == .launched || event == .languageChanged, context.language == .chinese || context.language == .traditionalChinese,
            !state.requested
        else { return .none }
        state.requested = true
        return Outcome(effects: [effect(.build)])
    }
}

extension AppState {
    /// What to draw `text` as for this reader: Chinese in the reader's script.
    public func inReadersScript(_ text: String) -> String {
        guard let t = self[ScriptsFeature.self].script else { return text }
        return t.convert(text, for: language)
    }
}

/// Chinese content in the reader's script (issue 16 #2): a museum's Chinese is one language in
/// its data (often in one script whatever its tag says), and a reader of Traditional Chinese
/// sees it in Traditional, a reader of Simplified in Simplified, where a conversion exists. The
/// shell builds the tables once, when a Chinese reader first appears (`ScriptsRunner`, ICU
/// through `ScriptConversion`);
/// `RootView` converts what it drew, so every page, box and note follows without knowing.
public enum ScriptsFeature: Feature {
    public struct State: Equatable, Sendable {
        public var tables: ChineseScriptTables?
        /// Asked of the shell already (once, the first time a Chinese reader is there).
        public var requested = false
        public init() {}
    }

    public enum Action: Equatable, Sendable {
        case built(ChineseScriptTables)
    }

    public enum Effect: Equatable, Sendable {
        case build
    }

    public static let id = FeatureID("scripts")
    public static let order: [Capability: Int] = [.events: 140]
    public static let listensTo: Set<FeatureEvent.Kind> = [.launched, .languageChanged]
    public static let initialState = State()

    public static func reduce(_ state: inout AppState, _ action: Action) -> [DocentCore.Effect] {
        switch action {
        case .built(let t): state[ScriptsFeature.self].tables = t
        }
        return []
    }

    /// The tables are built the first time the reader's language is Chinese (nobody else
    /// needs them: 0.2 s of work saved for every other start).
    public static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] {
        guard event == .launched || event == .languageChanged, state.language == .chinese || state.language == .traditionalChinese,
            !state[ScriptsFeature.self].requested
        else { return [] }
        state[ScriptsFeature.self].requested = true
        return [effect(.build)]
    }
}

extension AppState {
    /// What to draw `text` as for this reader: Chinese in the reader's script.
    public func inReadersScript(_ text: String) -> String {
        guard let t = self[ScriptsFeature.self].tables else { return text }
        return t.convert(text, for: language)
    }
}

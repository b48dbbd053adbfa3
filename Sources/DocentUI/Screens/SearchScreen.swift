/// The Search tab. (Drawn by the search feature from `AppState.search`.)
public enum SearchScreen {
    public static func render(_ screen: inout Screen, _ area: Rect, state: AppState) {
        screen.put(TextWidth.truncate(state.strings("title.search"), to: area.width), x: area.x, y: area.y, style: Style(role: .muted), clip: area)
    }

    /// Keys the search screen handles itself (typing goes to the query); nil lets the global
    /// key map decide.
    public static func action(for key: Key, in state: AppState) -> AppAction? { nil }
}

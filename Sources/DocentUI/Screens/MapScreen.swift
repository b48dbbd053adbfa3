/// The Map tab. (Drawn by the map feature from `AppState.map`.)
public enum MapScreen {
    public static func render(_ screen: inout Screen, _ area: Rect, state: AppState) {
        screen.put(TextWidth.truncate(state.strings("title.map"), to: area.width), x: area.x, y: area.y, style: Style(role: .muted), clip: area)
    }

    /// Keys the map handles itself (zoom, pan, floors); nil lets the global key map decide.
    public static func action(for key: Key, in state: AppState) -> AppAction? { nil }
}

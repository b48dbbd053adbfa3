/// Home draws no page of its own (its pages are lists and texts); it brings `r`, which asks
/// again for the exhibitions or events that could not be fetched.
public enum HomeView: FeatureView, TakesKeysAnywhere {
    public typealias Core = HomeFeature

    public static func anywhere(_ key: Key, in state: AppState) -> AppAction? {
        guard key == .char("r"), state.tab == .home, state.overlay == nil, HomeFeature.canRetry(state) else { return nil }
        return HomeFeature.action(.retry)
    }
}

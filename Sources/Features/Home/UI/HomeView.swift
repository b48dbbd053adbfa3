/// Home draws no page of its own (its pages are lists and texts); it brings `r`, which asks
/// again for the exhibitions or events that could not be fetched.
public enum HomeView: ScopedTakesKeysAnywhere {
    public typealias Core = HomeFeature

    public static func anywhere(_ key: Key, _ state: HomeFeature.State, _ context: FeatureContext) -> AppAction? {
        guard key == .char("r"), context.tab == .home, context.overlay == nil, HomeFeature.canRetry(state) else { return nil }
        return HomeFeature.action(.retry)
    }
}

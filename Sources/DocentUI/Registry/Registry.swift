/// The features of the guide. Adding a feature is one line here (see ARCHITECTURE.md,
/// "Adding a feature"); its effect runner, if it has effects, is one line in the executable's
/// `Runners.swift`. The order of this list decides nothing: what a feature takes part in is
/// the capability protocols it conforms to, the order among them the relations it states
/// (`Feature.after`, `Feature.before`), and `make()` checks them.
public enum Registry {
    public static let entries: [FeatureEntry] = [
        FeatureEntry(HomeView.self),
        FeatureEntry(KeypadView.self),
        FeatureEntry(ToursView.self),
        FeatureEntry(core: OfflineFeature.self),
        FeatureEntry(PlayerView.self),
        FeatureEntry(core: PicturesFeature.self),
        FeatureEntry(core: InfoFeature.self),
        FeatureEntry(MapScreen.self),
        FeatureEntry(SearchScreen.self),
        FeatureEntry(MemberView.self),
        FeatureEntry(PulseView.self),
        FeatureEntry(KioskView.self),
        FeatureEntry(ScreenReaderView.self),
        FeatureEntry(ScriptsView.self),
    ]

    /// The guide's registry, checked (a duplicate id, a cycle in the order or two features of
    /// one capability left unordered is an error): the composition root builds it once and
    /// injects it.
    public static func make() throws(RegistryError) -> FeatureSet { try FeatureSet(entries) }

    /// The same registry, for tests and benchmarks (the guide calls `make()` and says what is
    /// wrong instead); `RegistryTests` prove it builds.
    public static let features: FeatureSet = {
        do { return try make() } catch { preconditionFailure("the registry is wrong: \(error)") }
    }()
}

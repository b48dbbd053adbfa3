/// The features of the guide, in the order they hear shared moments. Adding a feature is one
/// line here (see ARCHITECTURE.md, "Adding a feature"); its effect runner, if it has effects,
/// is one line in the executable's `Runners.swift`.
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
        FeatureEntry(core: ScreenReaderFeature.self),
        FeatureEntry(core: ScriptsFeature.self),
    ]
}

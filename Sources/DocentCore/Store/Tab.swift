/// The guide's tabs, in order. Digits belong to the keypad, so tabs switch with Tab,
/// Shift-Tab, F1–F6 and Alt+1–6.
public enum Tab: String, CaseIterable, Hashable, Sendable {
    case home, audioGuide, map, tours, search, info

    /// Compared and hashed by case, not by name: the raw value's string was hashed at every
    /// `AppState.page` (the tabs' stacks are keyed by tab), many times a frame.
    public static func == (a: Tab, b: Tab) -> Bool { a.ordinal == b.ordinal }
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }
    private var ordinal: UInt8 {
        switch self {
        case .home: return 0
        case .audioGuide: return 1
        case .map: return 2
        case .tours: return 3
        case .search: return 4
        case .info: return 5
        }
    }

    /// The tabs built so far; others appear as their features land.
    public static let available: [Tab] = [.home, .audioGuide, .map, .tours, .search, .info]

    /// UI string key of the tab's name in the tab bar.
    public var titleKey: StringKey {
        switch self {
        case .home: return .tabHome
        case .audioGuide: return .tabAudioGuide
        case .map: return .tabMap
        case .tours: return .tabTours
        case .search: return .tabSearch
        case .info: return .tabInfo
        }
    }

    /// UI string key of the title over the tab's first page.
    public var screenTitleKey: StringKey {
        switch self {
        case .home: return .titleHome
        case .audioGuide: return .titleAudioGuide
        case .map: return .titleMap
        case .tours: return .titleTours
        case .search: return .titleSearch
        case .info: return .titleInfo
        }
    }
}

/// A place in a tab's navigation stack.
public enum Route: Hashable, Sendable {
    /// A page of a feature's own (see `Feature.Route`).
    case feature(FeatureValue)

    /// The root of each tab.
    public static func root(of tab: Tab) -> Route {
        switch tab {
        case .info: return .info
        case .audioGuide: return .keypad
        case .map: return .map
        case .search: return .search
        case .tours: return .allTours
        default: return .home
        }
    }
}

/// One level of navigation: where, which row is selected, how far a text is scrolled.
public struct Page: Hashable, Sendable {
    public var route: Route
    public var selection: Int
    public var scroll: Int

    public init(_ route: Route, selection: Int = 0, scroll: Int = 0) {
        self.route = route
        self.selection = selection
        self.scroll = scroll
    }
}

/// The Search tab's state. (Filled in by the search feature: query, results, live status.)
public struct SearchState: Equatable, Sendable {
    public init() {}
}

/// Search actions (typing, results).
public enum SearchAction: Equatable, Sendable {
    case appeared
}

/// Work the shell does for search (live API calls).
public enum SearchEffect: Equatable, Sendable {
    case none
}

extension Reducer {
    /// The search part of the reducer; nil when the action is not search's.
    static func reduceSearch(_ state: inout AppState, _ action: AppAction) -> [Effect]? {
        guard case .search = action else { return nil }
        return []
    }
}

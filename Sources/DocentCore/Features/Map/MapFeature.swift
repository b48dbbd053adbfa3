/// The Map tab's state. (Filled in by the map feature: floor, zoom, centre, selection, raster.)
public struct MapState: Equatable, Sendable {
    public init() {}
}

/// Map actions (keys, raster results).
public enum MapAction: Equatable, Sendable {
    /// The map tab was opened or the floor changed and a plan is needed.
    case appeared
}

/// Work the shell does for the map (rasterising a floor plan).
public enum MapEffect: Equatable, Sendable {
    case none
}

extension Reducer {
    /// The map's part of the reducer; nil when the action is not the map's.
    static func reduceMap(_ state: inout AppState, _ action: AppAction) -> [Effect]? {
        guard case .map = action else { return nil }
        return []
    }
}

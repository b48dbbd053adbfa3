@testable import DocentCore
import Foundation

// Steps the tests describe the state after an action with, on the whole state. They were in
// the features' folders, the last of the features' functions taking `inout AppState` besides
// the hooks (issue 46: the features' code sees its own state and the context).

extension PlayerFeature {
    /// What `.playFor` does to the player's state, and its effects.
    public static func play(_ state: inout AppState, audioID: Int, artworkID: Int?, tourID: Int?, language: Language, at position: Double = 0) -> [DocentCore.Effect] {
        let museum = state.museum
        return play(&state.player, audioID: audioID, artworkID: artworkID, tourID: tourID, language: language, at: position, museum: museum)
    }

    /// What `.stop` does to the player's state, and its effects.
    public static func stop(_ state: inout AppState) -> [DocentCore.Effect] { stop(&state.player) }

    /// What the root does with `showPlayer`'s request.
    public static func showPlayer(_ state: inout AppState) {
        if state.page.route != .player { Reducer.push(&state, .player) }
    }
}

extension Reducer {
    /// Enter on a search row, through the root (what the feature asks applied at once).
    public static func performSearch(_ state: inout AppState, _ action: SearchRowAction) -> [Effect] {
        let context = FeatureContext(state)
        var own = state.search
        let outcome = SearchFeature.perform(&own, action, context)
        state.search = own
        return apply(outcome, &state)
    }
}

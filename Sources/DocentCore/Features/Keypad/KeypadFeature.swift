import Foundation

/// The Audio Guide keypad: digits typed so far, the key to light up, what the last GO said.
public struct KeypadState: Equatable, Sendable {
    public enum Notice: Equatable, Sendable {
        /// GO with nothing typed.
        case empty
        /// No artwork or tour has this number.
        case unknown(String)
        /// A sixth digit was refused.
        case tooLong
    }

    public var input = ""
    /// The key shown pressed ("0"…"9", "del", "go"); cleared by a short timer.
    public var pressed: String?
    public var notice: Notice?

    public init() {}
}

/// The Audio Guide tab: the keypad (digits work from every tab), GO, and the box that asks
/// which of several things share a number. What it finds plays through the player.
public enum KeypadFeature: Feature {
    public typealias State = KeypadState
    public typealias Action = KeypadAction
    public enum Route: Hashable, Sendable {
        /// The Audio Guide keypad (the tab's root).
        case pad
    }
    public enum Overlay: Equatable, Sendable {
        /// A keypad number shared by several things: choose one.
        case chooser(number: String, selection: Int)
    }

    public static let id = FeatureID("keypad")
    // Its digits come before every other feature's keys anywhere.
    public static let order: [Capability: Int] = [.events: 20, .keysAnywhere: 20]
    public static let listensTo: Set<FeatureEvent.Kind> = [.navigated, .startOver]
    public static let initialState = KeypadState()

    public static func reduce(_ state: inout AppState, _ action: KeypadAction) -> [DocentCore.Effect] {
        switch action {
        case .digit(let d):
            return digit(&state, d)
        case .delete:
            guard state.overlay == nil else { return [] }
            if !state.keypad.input.isEmpty { state.keypad.input.removeLast() }
            state.keypad.notice = nil
            return flash(&state, "del")
        case .clear:
            state.keypad.input = ""
            state.keypad.notice = nil
            return []
        case .go:
            return go(&state)
        case .flashEnded:
            state.keypad.pressed = nil
            return []
        case .notOnMap:
            // `v` with a number no artwork or tour has: said as GO would say it.
            guard !state.keypad.input.isEmpty else { return [] }
            state.keypad.notice = .unknown(state.keypad.input)
            return []
        }
    }

    /// Leaving the Audio Guide puts the half-typed number away: a digit later starts afresh
    /// (a number is never finished on another tab, and nothing typed waits unseen).
    public static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] {
        if event == .startOver {
            state.keypad = KeypadState()
            return []
        }
        guard event.kind == .navigated, state.tab != .audioGuide, !state.keypad.input.isEmpty || state.keypad.notice != nil else { return [] }
        state.keypad.input = ""
        state.keypad.notice = nil
        return []
    }

    public static func overlay(_ input: OverlayInput, _ o: Overlay, _ state: inout AppState) -> [DocentCore.Effect] {
        guard case .chooser(let number, let sel) = o else { return [] }
        switch input {
        case .move(let d):
            let n = state.museum?.keypad.lookup(number).count ?? 0
            state.overlay = show(.chooser(number: number, selection: Reducer.clamp(sel, d, n)))
            return []
        case .choose(let i):
            state.overlay = show(.chooser(number: number, selection: i))
            return overlay(.activate, .chooser(number: number, selection: i), &state)
        case .activate:
            let targets = state.museum?.keypad.lookup(number) ?? []
            guard targets.indices.contains(sel) else { return [] }
            return open(&state, targets[sel])
        case .dismissed:
            return []
        }
    }

    public static func content(_ route: Route, _ state: AppState) -> PageContent { .custom(id, title: nil) }

    static func flash(_ state: inout AppState, _ key: String) -> [DocentCore.Effect] {
        state.keypad.pressed = key
        return [.timer(.keypadFlash, milliseconds: 150, action: .keypadFlashEnded)]
    }

    static func digit(_ state: inout AppState, _ d: Character) -> [DocentCore.Effect] {
        guard d.isASCII, d.isNumber, state.overlay == nil else { return [] }
        var effects: [DocentCore.Effect] = []
        if state.tab != .audioGuide, state.tabs.contains(.audioGuide) {
            state.tab = .audioGuide
            effects.append(.persist(state.settings))
        }
        // Typing starts a new number from the keypad itself, not from a player on top of it.
        if state.page.route != .keypad { state.stacks[.audioGuide] = [Page(.keypad)] }
        // After a GO that found nothing, the next digit starts a new number (the old one is
        // still shown with its notice until then).
        if case .unknown? = state.keypad.notice { state.keypad.input = "" }
        guard state.keypad.input.count < KeypadIndex.maxDigits else {
            state.keypad.notice = .tooLong
            return effects + flash(&state, String(d))
        }
        state.keypad.input.append(d)
        state.keypad.notice = nil
        return effects + flash(&state, String(d))
    }

    static func go(_ state: inout AppState) -> [DocentCore.Effect] {
        guard state.overlay == nil, let app = state.museum else { return [] }
        let effects = flash(&state, "go")
        let input = state.keypad.input
        guard !input.isEmpty else {
            state.keypad.notice = .empty
            return effects
        }
        let targets = app.keypad.lookup(input)
        switch targets.count {
        case 0:
            state.keypad.notice = .unknown(input)
            return effects
        case 1:
            return effects + open(&state, targets[0])
        default:
            state.overlay = show(.chooser(number: input, selection: 0))
            return effects
        }
    }

    /// A keypad hit: clear the input, play, show the player.
    static func open(_ state: inout AppState, _ target: KeypadIndex.Target) -> [DocentCore.Effect] {
        guard let app = state.museum else { return [] }
        state.keypad.input = ""
        state.keypad.notice = nil
        state.overlay = nil
        let effects: [DocentCore.Effect]
        switch target {
        case .artwork(let artworkID, let audioID):
            effects = PlayerFeature.play(&state, audioID: audioID, artworkID: artworkID, tourID: nil, language: state.language)
        case .tour(let tourID):
            guard let t = app.tour(tourID) else { return [] }
            effects = PlayerFeature.play(&state, audioID: t.introAudioID, artworkID: nil, tourID: tourID, language: state.language)
        }
        PlayerFeature.showPlayer(&state)
        return effects
    }
}

/// The keypad's actions.
public enum KeypadAction: Equatable, Sendable {
    case digit(Character)
    /// ⌫: the last digit.
    case delete
    /// Esc with digits typed: all of them.
    case clear
    case go
    /// The pressed key's light goes out.
    case flashEnded
    /// `v` with a number typed that nothing has.
    case notOnMap
}

extension TimerID {
    /// The pressed key's light on the keypad.
    public static let keypadFlash = TimerID("keypadFlash")
}

extension AppAction {
    public static func keypad(_ a: KeypadAction) -> AppAction { KeypadFeature.action(a) }
    public static func keypadDigit(_ c: Character) -> AppAction { .keypad(.digit(c)) }
    public static var keypadDelete: AppAction { .keypad(.delete) }
    public static var keypadGo: AppAction { .keypad(.go) }
    public static var keypadFlashEnded: AppAction { .keypad(.flashEnded) }
}

extension Route {
    /// The Audio Guide keypad.
    public static var keypad: Route { KeypadFeature.route(.pad) }
}

extension Overlay {
    public static func keypadChooser(number: String, selection: Int) -> Overlay {
        KeypadFeature.show(.chooser(number: number, selection: selection))
    }
}

extension AppState {
    /// The Audio Guide keypad.
    public var keypad: KeypadState {
        get { self[KeypadFeature.self] }
        set { self[KeypadFeature.self] = newValue }
    }
}

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
/// which of several things share a number. What it finds plays through the player. Scoped
/// (issue 28): it changes only `KeypadState`; the tab, the page, its box and the playing are
/// requests.
public enum KeypadFeature: ScopedFeature, HearsEvents, ScopedContent {
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
    public static let after = [HomeFeature.id]
    public static let listensTo: Set<FeatureEvent.Kind> = [.navigated, .startOver]
    public static let initialState = KeypadState()

    public static func reduce(_ k: inout KeypadState, _ action: KeypadAction, _ context: FeatureContext) -> Outcome {
        switch action {
        case .digit(let d):
            return digit(&k, d, context)
        case .delete:
            guard context.overlay == nil else { return .none }
            if !k.input.isEmpty { k.input.removeLast() }
            k.notice = nil
            return Outcome(effects: flash(&k, "del"))
        case .clear:
            k.input = ""
            k.notice = nil
            return .none
        case .go:
            return go(&k, context)
        case .flashEnded:
            k.pressed = nil
            return .none
        case .notOnMap:
            // `v` with a number no artwork or tour has: said as GO would say it.
            guard !k.input.isEmpty else { return .none }
            k.notice = .unknown(k.input)
            return .none
        }
    }

    /// Leaving the Audio Guide puts the half-typed number away: a digit later starts afresh
    /// (a number is never finished on another tab, and nothing typed waits unseen).
    public static func react(to event: FeatureEvent, _ k: inout KeypadState, _ context: FeatureContext) -> Outcome {
        if event == .startOver {
            k = KeypadState()
            return .none
        }
        guard event.kind == .navigated, context.tab != .audioGuide, !k.input.isEmpty || k.notice != nil else { return .none }
        k.input = ""
        k.notice = nil
        return .none
    }

    public static func overlay(_ input: OverlayInput, _ o: Overlay, _ k: inout KeypadState, _ context: FeatureContext) -> Outcome {
        guard case .chooser(let number, let sel) = o else { return .none }
        switch input {
        case .move(let d):
            let n = context.museum?.keypad.lookup(number).count ?? 0
            return Outcome(requests: [.show(show(.chooser(number: number, selection: Reducer.clamp(sel, d, n))))])
        case .choose(let i):
            let chosen = overlay(.activate, .chooser(number: number, selection: i), &k, context)
            return Outcome(effects: chosen.effects, requests: [.show(show(.chooser(number: number, selection: i)))] + chosen.requests)
        case .activate:
            let targets = context.museum?.keypad.lookup(number) ?? []
            guard targets.indices.contains(sel) else { return .none }
            return open(&k, targets[sel], context)
        case .dismissed:
            return .none
        }
    }

    public static func content(_ route: Route, _ state: State, _ context: FeatureContext) -> PageContent { .custom(id, title: nil) }

    static func flash(_ k: inout KeypadState, _ key: String) -> [DocentCore.Effect] {
        k.pressed = key
        return [.timer(.keypadFlash, milliseconds: 150, action: .keypadFlashEnded)]
    }

    static func digit(_ k: inout KeypadState, _ d: Character, _ context: FeatureContext) -> Outcome {
        guard d.isASCII, d.isNumber, context.overlay == nil else { return .none }
        // Digits bring the Audio Guide forward (the root saves the tab, as for a tab key)...
        var requests: [UIRequest] = context.tab == .audioGuide ? [] : [.send(.selectTab(.audioGuide))]
        // ...and typing starts a new number from the keypad itself, not from a player on top of it.
        requests.append(.root(.audioGuide))
        // After a GO that found nothing, the next digit starts a new number (the old one is
        // still shown with its notice until then).
        if case .unknown? = k.notice { k.input = "" }
        guard k.input.count < KeypadIndex.maxDigits else {
            k.notice = .tooLong
            return Outcome(effects: flash(&k, String(d)), requests: requests)
        }
        k.input.append(d)
        k.notice = nil
        return Outcome(effects: flash(&k, String(d)), requests: requests)
    }

    static func go(_ k: inout KeypadState, _ context: FeatureContext) -> Outcome {
        guard context.overlay == nil, let app = context.museum else { return .none }
        let effects = flash(&k, "go")
        let input = k.input
        guard !input.isEmpty else {
            k.notice = .empty
            return Outcome(effects: effects)
        }
        let targets = app.keypad.lookup(input)
        switch targets.count {
        case 0:
            k.notice = .unknown(input)
            return Outcome(effects: effects)
        case 1:
            let opened = open(&k, targets[0], context)
            return Outcome(effects: effects + opened.effects, requests: opened.requests)
        default:
            return Outcome(effects: effects, requests: [.show(show(.chooser(number: input, selection: 0)))])
        }
    }

    /// A keypad hit: clear the input, ask the player to play it and to show itself.
    static func open(_ k: inout KeypadState, _ target: KeypadIndex.Target, _ context: FeatureContext) -> Outcome {
        guard let app = context.museum else { return .none }
        k.input = ""
        k.notice = nil
        var requests: [UIRequest] = [.close]
        switch target {
        case .artwork(let artworkID, let audioID):
            requests.append(PlayerFeature.play(audioID: audioID, artworkID: artworkID, tourID: nil, language: context.language))
        case .tour(let tourID):
            guard let t = app.tour(tourID) else { return Outcome(requests: requests) }
            requests.append(PlayerFeature.play(audioID: t.introAudioID, artworkID: nil, tourID: tourID, language: context.language))
        }
        return Outcome(requests: requests + PlayerFeature.showPlayer(context))
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
    var keypad: KeypadState {
        get { self[KeypadFeature.self] }
        set { self[KeypadFeature.self] = newValue }
    }
}

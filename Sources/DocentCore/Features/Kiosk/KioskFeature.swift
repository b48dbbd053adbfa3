import Foundation

/// Kiosk mode (the AIC "rental" build, for a terminal the museum owns): visitors cannot leave
/// the guide, personal sign-ins are not offered (`isEnabled`), and after a while with nobody there (no key, no
/// click, nothing playing) the guide starts over for the next visitor and waits on a "press
/// any key" screen. Staff quit with Ctrl-X, the PIN (`kiosk_pin`) and Enter; nothing is shown
/// while it is typed.
///
/// Configuration: `kiosk = true` (or `--kiosk`), `kiosk_pin = "…"`, `kiosk_idle_seconds = 180`.
/// Time comes from the loop's timers (a monotonic clock), never from the wall clock.
public struct KioskState: Equatable, Sendable {
    public var enabled = false
    /// Seconds without input (and nothing playing) before the guide starts over.
    public var idleSeconds = KioskFeature.defaultIdleSeconds
    /// The staff code; nil: no way out from the keyboard (stop the service instead).
    public var pin: String?
    /// What staff typed after Ctrl-X so far (nil: not typing a code).
    public var typed: String?
    /// Staff gave the code: quitting is allowed.
    public var unlocked = false

    public init() {}
}

public enum KioskAction: Equatable, Sendable {
    /// The idle timer ran out.
    case idle
    /// A key on the "press any key" screen.
    case wake
    /// Ctrl-X: staff begin typing the code.
    case staffKey
    case pinTyped(Character)
    case pinEnter
    /// Any other key while typing the code: forget it.
    case pinCancel
}

public enum KioskFeature: Feature {
    public typealias State = KioskState
    public typealias Action = KioskAction
    public enum Overlay: Equatable, Sendable {
        /// The screen that invites the next visitor in.
        case waiting
    }

    public static let id = FeatureID("kiosk")
    public static let initialState = KioskState()
    public static let defaultIdleSeconds = 180
    /// The longest idle time accepted (a day); longer values are a typo.
    public static let maxIdleSeconds = 86_400
    static let maxPINLength = 64
    public static let configKeys = ["kiosk", "kiosk_pin", "kiosk_idle_seconds"]

    public static func reduce(_ state: inout AppState, _ a: KioskAction) -> [DocentCore.Effect] {
        guard state.kiosk.enabled else { return [] }
        switch a {
        case .idle:
            // Someone is listening: look again after another idle period.
            if isPlaying(state) { return [idleTimer(state)] }
            state.kiosk.typed = nil
            let effects = Reducer.reduce(&state, .startOver)
            state.overlay = show(.waiting)
            return effects
        case .wake:
            if overlay(in: state) == .waiting { state.overlay = nil }
            return []
        case .staffKey:
            guard state.kiosk.pin != nil else { return [] }
            state.kiosk.typed = ""
            return []
        case .pinTyped(let c):
            guard let typed = state.kiosk.typed, typed.count < maxPINLength else { return [] }
            state.kiosk.typed = typed + String(c)
            return []
        case .pinEnter:
            guard let typed = state.kiosk.typed else { return [] }
            state.kiosk.typed = nil
            guard let pin = state.kiosk.pin, typed == pin else { return [] }
            state.kiosk.unlocked = true
            return Reducer.reduce(&state, .quit)
        case .pinCancel:
            state.kiosk.typed = nil
            return []
        }
    }

    public static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] {
        switch event {
        case .launched:
            configure(&state)
            guard state.kiosk.enabled else { return [] }
            return [idleTimer(state)]
        case .visitorInput:
            return state.kiosk.enabled ? [idleTimer(state)] : []
        case .playerChanged(let before):
            // The idle time counts from the end of what played.
            guard state.kiosk.enabled, isPlaying(before), !isPlaying(state) else { return [] }
            return [idleTimer(state)]
        case .documentLoaded, .languageChanged, .tick, .navigated, .settled, .quitting, .startOver, .resized:
            return []
        }
    }

    public static func overlay(_ input: OverlayInput, _ o: Overlay, _ state: inout AppState) -> [DocentCore.Effect] {
        switch input {
        case .move, .activate, .choose: state.overlay = nil
        case .dismissed: break
        }
        return []
    }

    public static func allowsQuit(_ state: AppState) -> Bool { !state.kiosk.enabled || state.kiosk.unlocked }

    /// The idle timer, started again (scheduling it replaces the pending one).
    static func idleTimer(_ state: AppState) -> DocentCore.Effect {
        .timer(.kioskIdle, milliseconds: state.kiosk.idleSeconds * 1000, action: action(.idle))
    }

    static func isPlaying(_ state: AppState) -> Bool { state.player.track != nil && isPlaying(state.player.snapshot) }

    static func isPlaying(_ s: PlayerSnapshot) -> Bool {
        switch s.status {
        case .loading, .buffering, .playing: return true
        case .idle, .paused, .ended, .failed: return false
        }
    }

    /// Reads `kiosk`, `kiosk_pin` and `kiosk_idle_seconds`; a value that cannot be used is
    /// said in a banner and the default taken.
    /// Whether the configuration makes this a shared terminal. Features that must not offer
    /// something personal there (a sign-in, say) ask this, in any order of the registry.
    public static func isEnabled(config: [String: String]) -> Bool {
        config["kiosk"]?.trimmingCharacters(in: .whitespaces).lowercased() == "true"
    }

    static func configure(_ state: inout AppState) {
        let config = state.config
        let flag = config["kiosk"]?.trimmingCharacters(in: .whitespaces).lowercased()
        state.kiosk.enabled = isEnabled(config: config)
        if let flag, flag != "true", flag != "false" {
            state.banner = Banner(.key("banner.kioskFlagInvalid", ["value": .verbatim(flag)]), level: .warning)
        }
        if let text = config["kiosk_idle_seconds"] {
            if let n = Int(text.trimmingCharacters(in: .whitespaces)), (1...maxIdleSeconds).contains(n) {
                state.kiosk.idleSeconds = n
            } else {
                state.kiosk.idleSeconds = defaultIdleSeconds
                state.banner = Banner(
                    .key("banner.kioskIdleInvalid", ["value": .verbatim(text), "default": .verbatim(String(defaultIdleSeconds))]),
                    level: .warning)
            }
        }
        let pin = config["kiosk_pin"]?.trimmingCharacters(in: .whitespaces) ?? ""
        state.kiosk.pin = pin.isEmpty ? nil : String(pin.prefix(maxPINLength))
    }
}

extension TimerID {
    public static let kioskIdle = TimerID("kioskIdle")
}

extension AppState {
    /// Kiosk mode's state.
    public var kiosk: KioskState {
        get { self[KioskFeature.self] }
        _modify { yield &self[KioskFeature.self] }
    }
}

extension AppAction {
    public static func kiosk(_ a: KioskAction) -> AppAction { KioskFeature.action(a) }
}

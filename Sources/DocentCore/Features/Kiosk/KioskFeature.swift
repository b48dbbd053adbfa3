import Foundation

/// Kiosk mode (the AIC "rental" build, for a terminal the museum owns): visitors cannot leave
/// the guide, personal sign-ins are not offered (`isEnabled`), and after a while with nobody there (no key, no
/// click, nothing playing) the guide starts over for the next visitor and waits on a "press
/// any key" screen. Staff quit with Ctrl-X, the PIN (`kiosk_pin`) and Enter; nothing is shown
/// while it is typed.
///
/// Configuration: `kiosk = true` (or `--kiosk`), `kiosk_pin = "…"`, `kiosk_idle_seconds = 180`,
/// `kiosk_reload_at = "06:00"` (museum time: the appData is loaded again, revalidated, once a
/// day, while nobody is there). Idle time comes from the loop's timers (a monotonic clock); the
/// daily reload from the ticks' wall clock (`state.now`) in the museum's time zone.
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
    /// Wrong codes in a row (a right one clears it).
    public var wrongCodes = 0
    /// No code is taken before this time (after `KioskFeature.freeTries` wrong ones).
    public var lockedUntil: Date?
    /// Where the recording was at the last idle look that found someone listening: buffering
    /// counts as listening only while the position still moves between looks.
    public var heardAt: Double?
    /// `kiosk_reload_at`: the time of day (museum time) the appData is loaded again.
    public var reloadAt: TimeOfDay?
    /// The clock at the last look for a reload time (a reload time after it and up to now is due).
    public var reloadCheckedAt: Date?
    /// The reload time passed while a visitor was there: done when the guide next starts over.
    public var reloadDue = false

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

/// What kiosk mode asks of its runner: staff code attempts go to the guide's log.
public enum KioskEffect: Equatable, Sendable {
    /// A code was given: right or wrong, how many wrong in a row, locked until when.
    case logCode(accepted: Bool, wrongInARow: Int, lockedUntil: Date?)
}

public enum KioskFeature: Feature {
    public typealias State = KioskState
    public typealias Action = KioskAction
    public typealias Effect = KioskEffect
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
    /// Wrong codes allowed before a lockout; each wrong one after them doubles it.
    public static let freeTries = 3
    public static let firstLockSeconds = 30.0
    public static let longestLockSeconds = 3_600.0

    /// How long codes are refused after `wrong` wrong ones in a row (0 within the free tries).
    public static func lockSeconds(afterWrong wrong: Int) -> Double {
        guard wrong >= freeTries else { return 0 }
        return min(longestLockSeconds, firstLockSeconds * Double(1 << min(wrong - freeTries, 12)))
    }
    public static let configKeys = ["kiosk", "kiosk_pin", "kiosk_idle_seconds", "kiosk_reload_at"]

    public static func reduce(_ state: inout AppState, _ a: KioskAction) -> [DocentCore.Effect] {
        guard state.kiosk.enabled else { return [] }
        switch a {
        case .idle:
            // Someone is listening: look again after another idle period.
            if isListening(state) {
                state.kiosk.heardAt = state.player.snapshot.position
                return [idleTimer(state)]
            }
            state.kiosk.heardAt = nil
            state.kiosk.typed = nil
            let effects = Reducer.reduce(&state, .startOver)
            state.overlay = show(.waiting)
            return effects + (state.kiosk.reloadDue ? reload(&state) : [])
        case .wake:
            // The next visitor is new here: they get the welcome a first start shows (issue 33
            // #3: after a start over there was no introduction at all).
            if overlay(in: state) == .waiting {
                state.overlay = .help(firstRun: true)
                state.overlayScroll = 0
            }
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
            guard let pin = state.kiosk.pin else { return [] }
            // Locked out: not even looked at (a script trying codes learns nothing), but logged.
            if let until = state.kiosk.lockedUntil, state.now < until {
                return [effect(.logCode(accepted: false, wrongInARow: state.kiosk.wrongCodes, lockedUntil: until))]
            }
            guard typed == pin else {
                state.kiosk.wrongCodes += 1
                let lock = lockSeconds(afterWrong: state.kiosk.wrongCodes)
                state.kiosk.lockedUntil = lock > 0 ? state.now.addingTimeInterval(lock) : nil
                return [effect(.logCode(accepted: false, wrongInARow: state.kiosk.wrongCodes, lockedUntil: state.kiosk.lockedUntil))]
            }
            state.kiosk.wrongCodes = 0
            state.kiosk.lockedUntil = nil
            state.kiosk.unlocked = true
            return [effect(.logCode(accepted: true, wrongInARow: 0, lockedUntil: nil))] + Reducer.reduce(&state, .quit)
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
            state.kiosk.reloadCheckedAt = state.now
            return [idleTimer(state)]
        case .tick:
            return reloadIfDue(&state)
        case .visitorInput:
            return state.kiosk.enabled ? [idleTimer(state)] : []
        case .playerChanged(let before):
            // The idle time counts from the end of what played.
            guard state.kiosk.enabled, isPlaying(before), !isPlaying(state) else { return [] }
            return [idleTimer(state)]
        case .documentLoaded, .languageChanged, .navigated, .settled, .quitting, .startOver, .resized:
            return []
        }
    }

    /// On a tick: a reload time between the last look and now makes the reload due; it is done
    /// at once when nobody is there (the waiting screen), else when the guide next starts over.
    static func reloadIfDue(_ state: inout AppState) -> [DocentCore.Effect] {
        guard state.kiosk.enabled, let at = state.kiosk.reloadAt else { return [] }
        let now = state.now
        let since = state.kiosk.reloadCheckedAt ?? now
        state.kiosk.reloadCheckedAt = now
        if let next = at.next(after: since, in: state.timeZone), next <= now { state.kiosk.reloadDue = true }
        guard state.kiosk.reloadDue, overlay(in: state) == .waiting else { return [] }
        return reload(&state)
    }

    /// The appData loaded again from its source (a remote one revalidated with its ETag; a
    /// failure keeps the museum on screen, see `Reducer.documentLoaded`).
    static func reload(_ state: inout AppState) -> [DocentCore.Effect] {
        state.kiosk.reloadDue = false
        return [.loadDocument(source: state.source)]
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

    /// At the idle time: is someone listening? Sound coming out is; a recording that never
    /// started (stuck "Loading…" on a server sending a byte every half second) is not, and
    /// neither is one buffering without having moved since the last look.
    static func isListening(_ state: AppState) -> Bool {
        guard state.player.track != nil else { return false }
        let s = state.player.snapshot
        switch s.status {
        case .playing: return true
        case .buffering: return state.kiosk.heardAt != s.position
        case .loading, .idle, .paused, .ended, .failed: return false
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
        state.kiosk.reloadAt = nil
        if let text = config["kiosk_reload_at"] {
            if let t = TimeOfDay(text) {
                state.kiosk.reloadAt = t
            } else {
                state.banner = Banner(.key("banner.kioskReloadInvalid", ["value": .verbatim(text)]), level: .warning)
            }
        }
        let pin = config["kiosk_pin"]?.trimmingCharacters(in: .whitespaces) ?? ""
        state.kiosk.pin = pin.isEmpty ? nil : String(pin.prefix(maxPINLength))
    }
}

extension TimerID {
    public static let kioskIdle = TimerID("kioskIdle")
}

/// A time of day, `HH:MM` on a 24-hour clock (`06:00`, `6:30`, `23:59`).
public struct TimeOfDay: Hashable, Sendable {
    public let hour: Int
    public let minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }), let h = Int(parts[0]), let m = Int(parts[1])
        else { return nil }
        self.init(hour: h, minute: m)
    }

    /// The first instant strictly after `date` when clocks in `zone` show this time (on a day
    /// the time does not exist, as in a spring-forward gap, the next existing time).
    public func next(after date: Date, in zone: TimeZone) -> Date? {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        return cal.nextDate(after: date, matching: DateComponents(hour: hour, minute: minute, second: 0), matchingPolicy: .nextTime)
    }
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

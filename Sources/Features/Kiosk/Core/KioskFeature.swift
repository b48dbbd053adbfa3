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
    /// Wrong codes in a row (a right one clears it). Kept between runs (`KioskSaved`): a
    /// restart does not give a script trying codes its free tries back.
    public var wrongCodes = 0
    /// No code is looked at (after `KioskFeature.freeTries` wrong ones) until the lock timer
    /// fires (`KioskAction.lockOver`): the loop's monotonic clock counts the lock's seconds, not
    /// `state.now`, which moves only on the 30 s tick (issue 45 #8: a lock ended after 2 s).
    public var locked = false
    /// Where the recording was at the last idle look that found someone listening: buffering
    /// counts as listening only while the position still moves between looks.
    public var heardAt: Double?
    /// `kiosk_reload_at`: the time of day (museum time) the appData is loaded again.
    public var reloadAt: TimeOfDay?
    /// The clock at the last look for a reload time (a reload time after it and up to now is due).
    public var reloadCheckedAt: Date?
    /// The reload time passed while a visitor was there: done when the guide next starts over.
    public var reloadDue = false
    /// `museum_name` (or `DOCENT_MUSEUM_NAME`): the name the waiting screen welcomes visitors
    /// to (the appData has no name of its own); nil: a welcome without a name.
    public var museumName: String?

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
    /// The lockout's time is over (its timer, `TimerID.kioskLock`).
    case lockOver
}

/// What kiosk mode keeps between runs: the wrong codes in a row.
public struct KioskSaved: Equatable, Sendable {
    public var wrongCodes: Int
    public init(wrongCodes: Int) { self.wrongCodes = wrongCodes }
}

/// Kiosk mode's configuration, decoded once from the configuration's strings (`decode`): the
/// feature keeps it in its state at launch, and the composition root reads `enabled` from the
/// same decoding for the terminal's raw mode (`RenderOptions`).
public struct KioskConfig: Equatable, Sendable {
    public var enabled = false
    public var idleSeconds = KioskFeature.defaultIdleSeconds
    public var pin: String?
    public var reloadAt: TimeOfDay?
    public var museumName: String?
    /// What could not be used, said in a banner (the default taken instead).
    public var problems: [Phrase] = []

    public init() {}

    /// Reads `kiosk`, `kiosk_pin`, `kiosk_idle_seconds` and `kiosk_reload_at`.
    public static func decode(_ config: [String: String]) -> KioskConfig {
        var c = KioskConfig()
        let flag = config["kiosk"]?.trimmingCharacters(in: .whitespaces).lowercased()
        c.enabled = flag == "true"
        if let flag, flag != "true", flag != "false" {
            c.problems.append(.key(.bannerKioskFlagInvalid, ["value": .verbatim(flag)]))
        }
        if let text = config["kiosk_idle_seconds"] {
            if let n = Int(text.trimmingCharacters(in: .whitespaces)), (1...KioskFeature.maxIdleSeconds).contains(n) {
                c.idleSeconds = n
            } else {
                c.problems.append(
                    .key(.bannerKioskIdleInvalid, ["value": .verbatim(text), "default": .verbatim(String(KioskFeature.defaultIdleSeconds))]))
            }
        }
        if let text = config["kiosk_reload_at"] {
            if let t = TimeOfDay(text) {
                c.reloadAt = t
            } else {
                c.problems.append(.key(.bannerKioskReloadInvalid, ["value": .verbatim(text)]))
            }
        }
        let name = config["museum_name"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        c.museumName = name.isEmpty ? nil : String(name.prefix(KioskFeature.maxMuseumNameLength))
        let pin = config["kiosk_pin"]?.trimmingCharacters(in: .whitespaces) ?? ""
        c.pin = pin.isEmpty ? nil : String(pin.prefix(KioskFeature.maxPINLength))
        return c
    }
}

/// What kiosk mode asks of its runner: staff code attempts go to the guide's log.
public enum KioskEffect: Equatable, Sendable {
    /// A code was given: right or wrong, how many wrong in a row, and the lock it starts
    /// (seconds; nil: none). The runner says until when, on its own clock.
    case logCode(accepted: Bool, wrongInARow: Int, lockSeconds: Double?)
    /// A code given while codes are refused: not looked at.
    case logRefused(wrongInARow: Int)
}

/// Scoped (issue 28): its reducers change only `KioskState` and ask the root for the rest
/// (starting over, quitting, its screen, the banners about its configuration).
public enum KioskFeature: ScopedFeature, HearsEvents {
    public typealias State = KioskState
    public typealias Action = KioskAction
    public typealias Effect = KioskEffect
    public typealias Saved = KioskSaved
    public enum Overlay: Equatable, Sendable {
        /// The screen that invites the next visitor in.
        case waiting
    }

    public static let id = FeatureID("kiosk")
    // Its keys come before every other (the "press any key" screen, the staff code).
    public static let after = [PulseFeature.id]
    public static let before = [ScriptsFeature.id]
    public static let listensTo: Set<FeatureEvent.Kind> = [.launched, .tick, .visitorInput, .playerChanged]
    public static let initialState = KioskState()
    public static let defaultIdleSeconds = 180
    /// The longest idle time accepted (a day); longer values are a typo.
    public static let maxIdleSeconds = 86_400
    static let maxPINLength = 64
    /// A longer `museum_name` is cut: the waiting screen is not a place for a paragraph.
    static let maxMuseumNameLength = 120
    /// Wrong codes allowed before a lockout; each wrong one after them doubles it.
    public static let freeTries = 3
    public static let firstLockSeconds = 30.0
    public static let longestLockSeconds = 3_600.0
    /// The most wrong codes counted (a damaged database's number is brought down to it).
    public static let mostWrongCodes = 1_000

    /// How long codes are refused after `wrong` wrong ones in a row (0 within the free tries).
    public static func lockSeconds(afterWrong wrong: Int) -> Double {
        guard wrong >= freeTries else { return 0 }
        return min(longestLockSeconds, firstLockSeconds * Double(1 << min(wrong - freeTries, 12)))
    }
    public static let configKeys = ["kiosk", "kiosk_pin", "kiosk_idle_seconds", "kiosk_reload_at", "museum_name"]

    /// A value in the file that cannot be used stops the guide (issue 47 #17: "three" only
    /// warned, in a banner cut short). Given otherwise (the flag), `KioskConfig.decode` still
    /// says it in a banner and takes the default.
    public static func configProblem(_ key: String, _ value: String) -> String? {
        let c = KioskConfig.decode([key: value])
        guard !c.problems.isEmpty else { return nil }
        switch key {
        case "kiosk": return "must be true or false"
        case "kiosk_idle_seconds": return "must be a whole number of seconds from 1 to \(maxIdleSeconds)"
        case "kiosk_reload_at": return "must be a time of day as \"HH:MM\", for example \"06:00\""
        default: return nil
        }
    }

    public static func reduce(_ state: inout KioskState, _ a: KioskAction, _ context: FeatureContext) -> Outcome {
        guard state.enabled else { return .none }
        switch a {
        case .idle:
            // Someone is listening: look again after another idle period.
            if isListening(state, context) {
                state.heardAt = context.playerSnapshot.position
                return Outcome(effects: [idleTimer(state)])
            }
            state.heardAt = nil
            state.typed = nil
            let reloading = state.reloadDue ? reload(&state, context) : []
            return Outcome(effects: reloading, requests: [.send(.startOver), .show(show(.waiting))])
        case .wake:
            // The next visitor is new here: they get the welcome a first start shows (issue 33
            // #3: after a start over there was no introduction at all).
            return context.box(Self.self) == .waiting ? Outcome(requests: [.show(.help(firstRun: true))]) : .none
        case .staffKey:
            guard state.pin != nil else { return .none }
            state.typed = ""
            return .none
        case .pinTyped(let c):
            guard let typed = state.typed, typed.count < maxPINLength else { return .none }
            state.typed = typed + String(c)
            return .none
        case .pinEnter:
            guard let typed = state.typed else { return .none }
            state.typed = nil
            guard let pin = state.pin else { return .none }
            // Locked out: not even looked at (a script trying codes learns nothing), but logged.
            // Staff see that it was refused (issue 47 #12: a wrong code got no feedback); the
            // lock's length is said, not whether the code was right.
            if state.locked {
                return Outcome(effects: [effect(.logRefused(wrongInARow: state.wrongCodes))], requests: [.banner(Banner(.key(.kioskCodesRefused), level: .warning))])
            }
            guard typed == pin else {
                state.wrongCodes = min(mostWrongCodes, state.wrongCodes + 1)
                let lock = lockSeconds(afterWrong: state.wrongCodes)
                var effects = [effect(.logCode(accepted: false, wrongInARow: state.wrongCodes, lockSeconds: lock > 0 ? lock : nil))]
                if lock > 0 { effects.append(startLock(&state, seconds: lock)) }
                let said: Phrase = lock > 0 ? .key(.kioskWrongCodeLocked, ["seconds": .verbatim(String(Int(lock)))]) : .key(.kioskWrongCode)
                return Outcome(effects: effects, requests: [.persist, .banner(Banner(said, level: .warning))])
            }
            state.wrongCodes = 0
            state.locked = false
            state.unlocked = true
            // Quitting saves the state, the cleared count with it.
            return Outcome(effects: [effect(.logCode(accepted: true, wrongInARow: 0, lockSeconds: nil))], requests: [.send(.quit)])
        case .pinCancel:
            state.typed = nil
            return .none
        case .lockOver:
            state.locked = false
            return .none
        }
    }

    public static func react(to event: FeatureEvent, _ state: inout KioskState, _ context: FeatureContext) -> Outcome {
        switch event {
        case .launched:
            let config = KioskConfig.decode(context.config)
            state.enabled = config.enabled
            state.idleSeconds = config.idleSeconds
            state.reloadAt = config.reloadAt
            state.pin = config.pin
            state.museumName = config.museumName
            let banners = config.problems.map { UIRequest.banner(Banner($0, level: .warning)) }
            guard state.enabled else { return Outcome(requests: banners) }
            state.reloadCheckedAt = context.now
            // Wrong codes kept from the last run: their lock starts again, whole (a restart
            // never shortens it; staff who know the code wait it out once).
            let lock = lockSeconds(afterWrong: state.wrongCodes)
            let locking = lock > 0 ? [startLock(&state, seconds: lock)] : []
            return Outcome(effects: [idleTimer(state)] + locking, requests: banners)
        case .tick:
            return Outcome(effects: reloadIfDue(&state, context))
        case .visitorInput:
            return state.enabled ? Outcome(effects: [idleTimer(state)]) : .none
        case .playerChanged(let before):
            // The idle time counts from the end of what played.
            guard state.enabled, isPlaying(before), !context.isPlaying else { return .none }
            return Outcome(effects: [idleTimer(state)])
        default:  // not listened to (`listensTo`): never sent here
            return .none
        }
    }

    /// On a tick: a reload time between the last look and now makes the reload due; it is done
    /// at once when nobody is there (the waiting screen), else when the guide next starts over.
    static func reloadIfDue(_ state: inout KioskState, _ context: FeatureContext) -> [DocentCore.Effect] {
        guard state.enabled, let at = state.reloadAt else { return [] }
        let now = context.now
        let since = state.reloadCheckedAt ?? now
        state.reloadCheckedAt = now
        if let next = at.next(after: since, in: context.timeZone), next <= now { state.reloadDue = true }
        guard state.reloadDue, context.box(Self.self) == .waiting else { return [] }
        return reload(&state, context)
    }

    /// The appData loaded again from its source (a remote one revalidated with its ETag; a
    /// failure keeps the museum on screen, see `Reducer.documentLoaded`).
    static func reload(_ state: inout KioskState, _ context: FeatureContext) -> [DocentCore.Effect] {
        state.reloadDue = false
        return [.loadDocument(source: context.source)]
    }

    public static func overlay(_ input: OverlayInput, _ o: Overlay, _ state: inout KioskState, _ context: FeatureContext) -> Outcome {
        switch input {
        case .move, .activate, .choose: return Outcome(requests: [.close])
        case .dismissed: return .none
        }
    }

    public static func allowsQuit(_ state: KioskState) -> Bool { !state.enabled || state.unlocked }

    public static func saved(_ state: KioskState) -> KioskSaved? {
        state.wrongCodes > 0 ? KioskSaved(wrongCodes: state.wrongCodes) : nil
    }

    public static func restore(_ saved: KioskSaved, _ state: inout KioskState) {
        state.wrongCodes = min(mostWrongCodes, max(0, saved.wrongCodes))
    }

    /// Codes refused for `seconds`, on the loop's monotonic clock (`TimerID.kioskLock`).
    static func startLock(_ state: inout KioskState, seconds: Double) -> DocentCore.Effect {
        state.locked = true
        return .timer(.kioskLock, milliseconds: Int(seconds * 1000), action: action(.lockOver))
    }

    /// The idle timer, started again (scheduling it replaces the pending one).
    static func idleTimer(_ state: KioskState) -> DocentCore.Effect {
        .timer(.kioskIdle, milliseconds: state.idleSeconds * 1000, action: action(.idle))
    }

    /// At the idle time: is someone listening? Sound coming out is; a recording that never
    /// started (stuck "Loading…" on a server sending a byte every half second) is not, and
    /// neither is one buffering without having moved since the last look.
    static func isListening(_ state: KioskState, _ context: FeatureContext) -> Bool {
        guard context.playerTrack != nil else { return false }
        let s = context.playerSnapshot
        switch s.status {
        case .playing: return true
        case .buffering: return state.heardAt != s.position
        case .loading, .idle, .paused, .ended, .failed: return false
        }
    }

    static func isPlaying(_ s: PlayerSnapshot) -> Bool {
        switch s.status {
        case .loading, .buffering, .playing: return true
        case .idle, .paused, .ended, .failed: return false
        }
    }

    /// Whether the configuration makes this a shared terminal. Features that must not offer
    /// something personal there (a sign-in, say) ask this.
    public static func isEnabled(config: [String: String]) -> Bool { KioskConfig.decode(config).enabled }
}

extension TimerID {
    public static let kioskIdle = TimerID("kioskIdle")
    public static let kioskLock = TimerID("kioskLock")
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

extension FeatureContext {
    /// The configuration makes this a shared terminal (`KioskFeature.isEnabled`): features that
    /// must not offer something personal there read this.
    public var sharedTerminal: Bool { KioskFeature.isEnabled(config: config) }
}

extension AppState {
    /// `FeatureContext.sharedTerminal`, for the hooks that read the whole state.
    public var sharedTerminal: Bool { KioskFeature.isEnabled(config: config) }

    /// Kiosk mode's state.
    var kiosk: KioskState {
        get { self[KioskFeature.self] }
        _modify { yield &self[KioskFeature.self] }
    }
}

extension AppAction {
    public static func kiosk(_ a: KioskAction) -> AppAction { KioskFeature.action(a) }
}

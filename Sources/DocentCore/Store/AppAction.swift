import Foundation

/// Every event the guide reacts to: keys (already mapped), results of effects, time.
public indirect enum AppAction: Equatable, Sendable {
    /// Start-up: what was restored from the last run (nil when nothing was, first run).
    case launched(restored: PersistedSettings?, languageOverride: Language?)
    /// The appData arrived (with a note such as "offline copy"), or could not be used.
    case documentLoaded(Result<Museum, LoadFailure>, note: Phrase?)
    /// Saving state failed: say so once, keep running on what is in memory.
    case persistenceFailed(String)

    case selectTab(Tab)
    case nextTab
    case previousTab
    /// Move the selection (or scroll a text) by this many rows.
    case move(Int)
    /// Move by a page.
    case page(Int)
    case moveToStart
    case moveToEnd
    /// Enter: open the selected row.
    case activate
    /// Esc/Backspace: up one level, or close the overlay.
    case back
    case showHelp
    case openLanguagePicker
    case setLanguage(Language)
    case dismissOverlay
    /// A click on row `index` of the list on screen: select it, then activate it.
    case clickRow(Int)
    /// A click on choice `index` of the box on screen: select it, then activate it.
    case clickChoice(Int)
    /// The content area changed size (rows available to lists).
    case viewportChanged(rows: Int, width: Int)
    case tick(Date)
    /// The visitor asks to quit (`q`, Ctrl-C); a feature may refuse (`Feature.allowsQuit`).
    case quit
    /// The system asks the guide to stop (SIGTERM, SIGHUP): saved and ended, never refused.
    case terminate
    /// A key, click or wheel turn arrived; the loop sends it before what the input does.
    case visitorInput
    /// Start over for the next visitor: Home, the default language, nothing on top, and every
    /// feature forgets this visitor's choices (`FeatureEvent.startOver`).
    case startOver
    /// A banner appeared (sent by the run loop after the action that set it): it joins the
    /// recent messages and its time to go is set.
    case bannerShown(Banner)
    /// A banner's time is up: it goes if it is still the one on the bottom line.
    case bannerExpired(Banner)

    /// One feature's own action (see `Feature`); the registry finds who handles it.
    case feature(FeatureValue)
}

/// What the shell must do. Values, not closures, so reducer tests compare them exactly.
public indirect enum Effect: Equatable, Sendable {
    case loadDocument(source: String)
    case audio(AudioCommand)
    /// Send `action` after `milliseconds`, replacing a pending timer with the same id.
    case timer(TimerID, milliseconds: Int, action: AppAction)
    case persist(PersistedSettings)
    /// One feature's own effect, run by that feature's runner in the shell.
    case feature(FeatureValue)
    case quit
}

/// A named timer: scheduling one again replaces it. Each feature names its own
/// (`TimerID.keypadFlash` lives with the keypad).
public struct TimerID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The bottom line's banner going away (`AppAction.bannerExpired`).
    public static let banner = TimerID("banner")
}

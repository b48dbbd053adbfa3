import Foundation

/// The player's screens: the one-line player under every tab, the full player (controls over
/// the page), its keys on every tab and the commentary-language box.
public enum PlayerView: ScopedTakesKeysAnywhere, ScopedDrawsFooter, ScopedGivesHelp, ScopedDrawsOverlay, ScopedRedrawsMoving {
    public typealias Core = PlayerFeature

    /// The full player: the controls, then the page of the track under them.
    public static func render(_ screen: inout Screen, _ area: Rect, _ p: PlayerState, _ context: FeatureContext) {
        guard let app = context.museum, let page = PlayerFeature.page(app, p, context) else { return }
        let (controlArea, rest) = area.splitTop(PlayerLayout.controlRows)
        controls(&screen, controlArea, p, context)
        // A picture of the artwork (another feature's figure): beside the text on a wide
        // page, above it on a narrow one.
        let text = FigureView.renderBeside(&screen, context.figure(.player), in: rest, strings: context.strings)
        TextView.render(&screen, text, page: page, scroll: context.pageScroll, strings: context.strings)
    }

    /// On the full player, `a` chooses the commentary's language.
    public static func action(for key: Key, _ p: PlayerState, _ context: FeatureContext) -> AppAction? {
        key == .char("a") ? .openAudioLanguages : nil
    }

    /// The player's keys work on every tab: Space pause, ←/→ seek 10 s, +/- volume, [/] speed
    /// (the map's own page keeps them for floors, as it takes them first), s stop, p open the
    /// full player.
    public static func anywhere(_ key: Key, _ p: PlayerState, _ context: FeatureContext) -> AppAction? {
        switch key {
        case .char(" "): return .togglePause
        case .left: return .seekBy(-10)
        case .right: return .seekBy(10)
        case .char("+"), .char("="): return .volumeBy(0.05)
        case .char("-"), .char("_"): return .volumeBy(-0.05)
        case .char("["): return .speedStep(-1)
        case .char("]"): return .speedStep(1)
        case .char("s"): return .stopAudio
        case .char("p"): return .openPlayer
        default: return nil
        }
    }

    /// With a recording loaded: the player's keys.
    public static func help(_ p: PlayerState, _ context: FeatureContext) -> HelpSection? {
        guard p.track != nil else { return nil }
        return HelpSection(title: context.strings(.helpSectionPlayer), table: context.strings(.helpPlayerKeys))
    }

    /// The keys that do something now, for the full player's hint line: Space says what it
    /// will do (pause, play, play again), seeking only while there is sound to seek in.
    public static func keyHints(_ p: PlayerState, _ context: FeatureContext) -> String {
        let s = context.strings
        var keys: [String] = []
        var sounding = false
        switch p.snapshot.status {
        case .playing, .buffering, .loading:
            keys.append(s(.playerKeyPause))
            sounding = true
        case .paused:
            keys.append(s(.playerKeyPlay))
            sounding = true
        case .ended, .failed, .idle: if p.track != nil { keys.append(s(.playerKeyAgain)) }
        }
        if sounding { keys.append(s(.playerKeySeek)) }
        keys.append(s(.playerKeyVolume))
        if p.track != nil { keys.append(s(.playerKeyLanguage)) }
        if MapAction.showOnMap(from: context) != nil { keys.append(s(.playerKeyMap)) }
        if p.track != nil { keys.append(s(.playerKeyStop)) }
        keys.append(s(.playerKeyText))
        // Last: where the line is short it is the one cut (it is in the help, and a speed
        // other than 1× shows beside the volume).
        keys.append(s(.playerKeySpeed))
        return keys.joined(separator: " · ")
    }

    public static func footer(_ screen: inout Screen, _ area: Rect, _ p: PlayerState, _ context: FeatureContext) -> Bool {
        mini(&screen, area, p, context)
        return true
    }

    public static func renderOverlay(_ screen: inout Screen, _ overlay: PlayerFeature.Overlay, _ p: PlayerState, _ context: FeatureContext) {
        guard case .language(let sel) = overlay else { return }
        let s = context.strings
        let audio = p.track.flatMap { context.museum?.audioFiles[$0.audioID] }
        let lines = OverlayView.audioLanguageLines(context) { audio?.translations[$0] != nil }
        OverlayView.choices(&screen, title: s(.playerAudioLanguageTitle), lines: lines, selection: sel, footer: s(.languageFooter))
    }

    /// "1:05" / "12:03" (and "1:02:03" past an hour).
    public static func time(_ seconds: Double) -> String { PlayerFeature.clock(seconds) }

    /// The playback state's mark. There is no asking the terminal's font whether it has a
    /// glyph, so every mark is one DejaVu Sans Mono has (xterm's and most Linux terminals'
    /// monospace font; `PlayerGlyphFontTests` asks fontconfig): ⏸ (U+23F8) is not in it and
    /// showed as tofu (issue 47 #13), so a pause is ‖ (U+2016), narrow everywhere.
    static func glyph(_ status: PlaybackStatus) -> String {
        switch status {
        case .idle: return "■"
        case .loading, .buffering: return "…"
        case .playing: return "▶"
        case .paused: return "‖"
        case .ended: return "✓"
        case .failed: return "!"
        }
    }

    /// Every playback state's mark (for the font test).
    public static var stateGlyphs: [String] {
        PlaybackStatus.allCases.map(glyph)
    }

    static func statusText(_ p: PlayerState, _ s: Strings) -> String {
        if p.snapshot.status == .failed, let f = p.snapshot.failure {
            if case .noSoundServer = f { return s(.playerNoSound) }
            return s(.playerFailed, ["reason": reason(f, s)])
        }
        return s(statusKey(p.snapshot.status))
    }

    static func statusKey(_ status: PlaybackStatus) -> StringKey {
        switch status {
        case .idle: return .playerStatusIdle
        case .loading: return .playerStatusLoading
        case .buffering: return .playerStatusBuffering
        case .playing: return .playerStatusPlaying
        case .paused: return .playerStatusPaused
        case .ended: return .playerStatusEnded
        case .failed: return .playerStatusFailed
        }
    }

    /// Why a recording stopped, as a sentence in the visitor's language (the technical detail,
    /// a libcurl message say, is for the log, not the screen). Words that are not ours (a
    /// failure the adapters could not classify) are shown as they came.
    static func reason(_ f: AudioFailure, _ s: Strings) -> String {
        switch f {
        case .noSoundServer: return s(.playerNoSound)
        case .soundServerLost: return s(.playerReasonSoundServerLost)
        // Only 404 and 410 say the recording is not there (issue 45: a 429 said so too).
        case .http(let status) where status == 404 || status == 410: return s(.playerReasonHttp, ["status": String(status)])
        // 429 and 503: busy, not broken (issue 45 #9).
        case .http(let status) where status == 429 || status == 503: return s(.playerReasonBusy, ["status": String(status)])
        case .http(let status): return s(.playerReasonHttpError, ["status": String(status)])
        case .tooManyRedirects: return s(.playerReasonRedirects)
        case .headersTooLarge: return s(.playerReasonHeaders)
        case .fileNotFound: return s(.playerReasonFileNotFound)
        case .network: return s(.playerReasonNetwork)
        case .notAudio: return s(.playerReasonNotAudio)
        case .contentLengthTooShort: return s(.playerReasonShortLength)
        case .other(let why): return why
        }
    }

    /// `━━━━━━──────` filled to `fraction`.
    static func bar(_ fraction: Double?, width: Int) -> String {
        guard width > 0 else { return "" }
        let f = min(1, max(0, fraction ?? 0))
        let filled = Int((Double(width) * f).rounded())
        return String(repeating: "━", count: filled) + String(repeating: "─", count: width - filled)
    }

    /// "1.5×", "1,5×", "1.5배속": the speed when it is not 1× (nil at 1×).
    static func speedText(_ p: PlayerState, _ s: Strings) -> String? {
        guard p.speed != 1 else { return nil }
        var number = String(format: "%.2f", p.speed)
        while number.hasSuffix("0") { number.removeLast() }
        if number.hasSuffix(".") { number.removeLast() }
        return s(.playerSpeed, ["speed": number.replacingOccurrences(of: ".", with: s(.numberDecimalSeparator))])
    }

    static func timing(_ snap: PlayerSnapshot) -> String {
        "\(time(snap.position)) / \(snap.duration.map(time) ?? "–:––")"
    }

    /// Screen-reader mode: while a recording plays, its time and bar stand still (a screen
    /// reader would read every tick); pausing shows where it is.
    static func ticks(_ p: PlayerState, _ context: FeatureContext) -> Bool { !(context.screenReader && p.snapshot.status == .playing) }

    /// Whether the player's lines may look different after `new` than after `old`: anything
    /// but the position, or a position in another whole second (the clock shows whole seconds
    /// and the bar is drawn again with it, at most a second late by a cell).
    public static func looksDifferent(_ old: PlayerSnapshot, _ new: PlayerSnapshot) -> Bool {
        !new.differsOnlyInPosition(from: old) || old.position.rounded(.down) != new.position.rounded(.down)
    }

    static func fraction(_ snap: PlayerSnapshot) -> Double? {
        guard let d = snap.duration, d > 0 else { return nil }
        return snap.position / d
    }

    /// The mini player: glyph, title, state or bar, time. Clicking it opens the full player.
    public static func mini(_ screen: inout Screen, _ area: Rect, _ p: PlayerState, _ context: FeatureContext) {
        let s = context.strings
        screen.fill(area, style: Style(role: .accent))
        guard let track = p.track else {
            screen.put(" ♪ " + TextWidth.truncate(s(.playerIdleHint), to: area.width - 4), x: area.x, y: area.y, style: Style(role: .muted), clip: area)
            return
        }
        let speed = speedText(p, s).map { $0 + " " } ?? ""
        let right = ticks(p, context) ? " " + speed + timing(p.snapshot) + " " : " " + speed
        let rw = TextWidth.width(right)
        let title = " \(glyph(p.snapshot.status)) " + track.title + (track.fellBack ? " " + s(.contentInEnglishShort) : "")
        // A failure's reason needs the room more than the title does (issue 47 #14: "…no
        // connection to the muse…").
        let failed = p.snapshot.status == .failed
        let titleRoom = failed ? max(10, area.width / 4) : max(10, area.width / 2 - 2)
        let t = TextWidth.truncate(title, to: titleRoom)
        let tw = screen.put(t, x: area.x, y: area.y, style: Style(role: .accent, bold: true), clip: area)
        let middle = area.width - tw - rw - 2
        // On the full player its own bar is above: one bar on screen (issue 47 #14).
        let onPlayer = context.route == .player
        if middle > 3 {
            // (Its bar opens the full player, whose bar seeks: the mini bar's width moves with
            // the time's, and a partial redraw keeps the frame's click regions.)
            if (p.snapshot.status == .playing || p.snapshot.status == .paused) && ticks(p, context) && !onPlayer {
                screen.put(bar(fraction(p.snapshot), width: middle), x: area.x + tw + 1, y: area.y, style: Style(role: .accent), clip: area)
            } else {
                // "✓ Indigo Field Coverlet · Finished": the status apart from the title.
                screen.put(TextWidth.truncate("· " + statusText(p, s), to: middle), x: area.x + tw + 1, y: area.y, style: Style(role: failed ? .error : .muted), clip: area)
            }
        }
        screen.put(right, x: area.maxX - rw, y: area.y, style: Style(role: .accent), clip: area)
        screen.addHitRegion(area, action: .openPlayer)
    }

    /// The controls of the full player: state and bar, time and volume, key hints.
    public static func controls(_ screen: inout Screen, _ area: Rect, _ p: PlayerState, _ context: FeatureContext) {
        position(&screen, area, p, context)
        screen.put(TextWidth.fitHints(keyHints(p, context), to: area.width), x: area.x, y: area.y + 2, style: Style(role: .muted), clip: area)
    }

    /// The controls' lines that a new position changes: status with time and volume, and the
    /// bar (the keys' line under them does not change with the position).
    public static let positionRows = 2

    /// Each second on the full player: the position's rows, drawn again over the last frame.
    public static func redrawMoving(_ screen: inout Screen, _ page: Rect, _ p: PlayerState, _ context: FeatureContext) -> Range<Int>? {
        guard context.route == .player, context.museum != nil, p.track != nil else { return nil }
        let (controls, _) = page.splitTop(PlayerLayout.controlRows)
        let (moving, _) = controls.splitTop(positionRows)
        screen.fill(moving)
        position(&screen, controls, p, context, clickable: false)
        return moving.y..<moving.maxY
    }

    /// The first `positionRows` lines of the controls. `clickable`: with the bar's click
    /// regions (a redraw of the position over the last frame keeps that frame's).
    public static func position(_ screen: inout Screen, _ area: Rect, _ p: PlayerState, _ context: FeatureContext, clickable: Bool = true) {
        let s = context.strings
        let status = "\(glyph(p.snapshot.status)) " + statusText(p, s)
        let vol = s(.playerVolume, ["percent": String(Int((p.volume * 100).rounded()))]) + (speedText(p, s).map { "  " + $0 } ?? "")
        let timingText = ticks(p, context) ? timing(p.snapshot) : ""
        // The volume goes before the time is shortened (never "Vol 8…").
        let full = timingText.isEmpty ? vol : timingText + "  " + vol
        let detail = TextWidth.width(full) <= area.width / 2 ? full : timingText
        Widgets.line(&screen, area, y: area.y, text: status, detail: detail, style: Style(role: p.snapshot.status == .failed ? .error : .accent, bold: true), detailStyle: Style(role: .muted))
        if ticks(p, context) { screen.put(bar(fraction(p.snapshot), width: area.width), x: area.x, y: area.y + 1, style: Style(role: .accent), clip: area) }
        if clickable { seekRegions(&screen, Rect(x: area.x, y: area.y + 1, width: area.width, height: 1), p) }
    }

    /// A click on a cell of the bar seeks to that share of the recording (issue 47 #14): the
    /// cell's middle, so the first cell is near the start and the last near the end. Only with
    /// a length to take a share of, and sound to seek in.
    static func seekRegions(_ screen: inout Screen, _ bar: Rect, _ p: PlayerState) {
        let snap = p.snapshot
        guard bar.width > 0, snap.duration.map({ $0 > 0 }) == true, [.playing, .paused, .buffering].contains(snap.status) else { return }
        for i in 0..<bar.width {
            let share = (Double(i) + 0.5) / Double(bar.width)
            screen.addHitRegion(Rect(x: bar.x + i, y: bar.y, width: 1, height: 1), action: .player(.seekTo(share)))
        }
    }
}


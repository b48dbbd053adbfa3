import Foundation

/// The player, reachable from every tab: what is loaded, the engine's reports, the full
/// player page and its language box. Other features play through `PlayerFeature.play`.
public enum PlayerFeature: Feature {
    /// "m:ss" (or "h:mm:ss"); a position that is not a number, or absurd, reads as 0:00 or
    /// the largest shown, never a trap.
    public static func clock(_ seconds: Double) -> String {
        let t = seconds.isFinite ? Int(min(max(0, seconds), 359_999).rounded(.down)) : 0
        let (h, m, s) = (t / 3600, (t % 3600) / 60, t % 60)
        // Built by hand: String(format:) went through Foundation's formatter once a second.
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    public typealias State = PlayerState
    public typealias Action = PlayerAction
    public enum Route: Hashable, Sendable {
        /// The full player: title, tombstone, gallery, transcript, credits.
        case full
    }
    public enum Overlay: Equatable, Sendable {
        /// Play the current commentary in another language; indexes `AppState.audioLanguages`.
        case language(selection: Int)
    }

    /// The volume and speed kept between runs (nil: both the defaults, nothing to keep).
    public typealias Saved = PlayerSettings

    public static let id = FeatureID("player")
    // It owns the line under every page (the mini player).
    public static let order: [Capability: Int] = [.events: 50, .keysAnywhere: 50, .footer: 50, .picture: 50, .help: 50]
    public static let listensTo: Set<FeatureEvent.Kind> = [.launched, .quitting, .startOver]
    public static let initialState = PlayerState()

    /// The speeds `[` and `]` step through (the Nordic Museum guide's, with 0.75× for
    /// listening slowly).
    public static let speeds: [Double] = [0.75, 1, 1.25, 1.5, 2]

    /// The offered speed nearest to `value` (a hand-edited or older saved value).
    public static func nearestSpeed(_ value: Double) -> Double {
        guard value.isFinite else { return 1 }
        return speeds.min { abs($0 - value) < abs($1 - value) } ?? 1
    }

    public static func saved(_ state: AppState) -> PlayerSettings? {
        let kept = PlayerSettings(volume: state.player.volume, speed: state.player.speed)
        return kept == PlayerSettings() ? nil : kept
    }

    public static func restore(_ saved: PlayerSettings, _ state: inout AppState) {
        if saved.volume.isFinite {
            state.player.volume = min(1, max(0, saved.volume))
            state.player.snapshot.volume = state.player.volume
        }
        state.player.speed = nearestSpeed(saved.speed)
    }

    public static func reduce(_ state: inout AppState, _ action: PlayerAction) -> [DocentCore.Effect] {
        switch action {
        case .play(let audioID, let artworkID, let tourID):
            return play(&state, audioID: audioID, artworkID: artworkID, tourID: tourID, language: state.language)
        case .snapshot(let snap):
            return snapshot(&state, snap)
        case .togglePause:
            guard state.player.track != nil else { return [] }
            switch state.player.snapshot.status {
            case .playing, .buffering, .loading:
                state.player.snapshot.status = .paused
                return [.audio(.pause)]
            case .paused:
                state.player.snapshot.status = .playing
                return [.audio(.resume)]
            case .ended, .idle:
                return replay(&state, from: 0)
            case .failed:
                // Failed mid-track (sound server gone, connection dropped): go on from there.
                return replay(&state, from: state.player.snapshot.position)
            }
        case .seekBy(let delta):
            guard state.player.isActive else { return [] }
            let snap = state.player.snapshot
            var target = max(0, snap.position + delta)
            if let d = snap.duration { target = min(target, max(0, d - 0.5)) }
            state.player.snapshot.position = target
            return [.audio(.seek(target))]
        case .volumeBy(let delta):
            let v = min(1, max(0, ((state.player.volume + delta) * 20).rounded() / 20))
            guard v != state.player.volume else { return [] }
            state.player.volume = v
            state.player.snapshot.volume = v
            return [.audio(.volume(v)), .persist(state.settings)]
        case .speedStep(let step):
            let here = speeds.firstIndex(of: state.player.speed) ?? speeds.firstIndex(of: 1) ?? 0
            let next = speeds[min(speeds.count - 1, max(0, here + step))]
            guard next != state.player.speed else { return [] }
            state.player.speed = next
            return [.audio(.speed(next)), .persist(state.settings)]
        case .stop:
            return stop(&state)
        case .open:
            guard state.player.track != nil, state.overlay == nil else { return [] }
            showPlayer(&state)
            return []
        case .openLanguages:
            guard let t = state.player.track, state.overlay == nil else { return [] }
            state.overlay = show(.language(selection: state.audioLanguages.firstIndex(of: t.requested) ?? 0))
            return []
        }
    }

    public static func overlay(_ input: OverlayInput, _ o: Overlay, _ state: inout AppState) -> [DocentCore.Effect] {
        guard case .language(let sel) = o else { return [] }
        switch input {
        case .move(let d):
            state.overlay = show(.language(selection: Reducer.clamp(sel, d, state.audioLanguages.count)))
            return []
        case .choose(let i):
            state.overlay = show(.language(selection: i))
            return overlay(.activate, .language(selection: i), &state)
        case .activate:
            state.overlay = nil
            guard let t = state.player.track, state.audioLanguages.indices.contains(sel) else { return [] }
            return play(&state, audioID: t.audioID, artworkID: t.artworkID, tourID: t.tourID, language: state.audioLanguages[sel])
        case .dismissed:
            return []
        }
    }

    public static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] {
        switch event {
        case .launched:
            // A volume and speed kept from the last run are the engine's from the start.
            var effects: [DocentCore.Effect] = []
            if state.player.volume != PlayerState().volume { effects.append(.audio(.volume(state.player.volume))) }
            if state.player.speed != 1 { effects.append(.audio(.speed(state.player.speed))) }
            return effects
        case .quitting:
            return state.player.isActive ? [.audio(.stop)] : []
        case .startOver:
            // The sound stops and the next visitor starts at the usual volume and speed.
            var effects = stop(&state)
            let fresh = PlayerState()
            if state.player.volume != fresh.volume { effects.append(.audio(.volume(fresh.volume))) }
            if state.player.speed != fresh.speed { effects.append(.audio(.speed(fresh.speed))) }
            let token = state.player.nextToken, shown = state.player.snapshot.token
            state.player = fresh
            state.player.nextToken = token
            state.player.snapshot = PlayerSnapshot(token: shown, volume: fresh.volume)
            return effects
        default:  // not listened to (`listensTo`): never sent here
            return []
        }
    }

    public static func content(_ route: Route, _ state: AppState) -> PageContent {
        guard let app = state.museum, page(app, state) != nil else { return .message(state.strings(.playerNothing)) }
        return .custom(id, title: nil)
    }

    /// The mouse wheel or the arrows on the full player: scroll the page under the controls.
    public static func move(_ delta: Int, _ state: inout AppState) -> [DocentCore.Effect] {
        guard let app = state.museum, let text = page(app, state) else { return [] }
        // The text beside or under a picture, if a feature puts one there.
        let room = FigureLayout.split(width: state.viewportWidth, rows: state.viewportRows - PlayerLayout.controlRows, figure: figure(state))
        let total = text.lines(width: room.textWidth, strings: state.strings).count
        let maxScroll = max(0, total - room.textRows)
        state.page.scroll = min(max(0, state.page.scroll.addingReportingOverflow(delta).partialValue), maxScroll)
        return []
    }

    /// On the full player: the artwork's picture.
    public static func pictureWanted(_ state: AppState) -> PictureWish? {
        guard state.page.route == .player, let art = state.player.track?.artworkID.flatMap({ state.museum?.artworks[$0] }), let url = art.imageURL else { return nil }
        // In words for a screen reader: the title and the artist (the tombstone's first line).
        let artist = art.tombstone.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let about = [art.title, artist].filter { !$0.isEmpty }.joined(separator: ", ")
        return PictureWish(url: url, slot: .player, rows: state.viewportRows - PlayerLayout.controlRows, about: about)
    }

    /// The figure another feature puts on the full player (the artwork's picture), if any.
    public static func figure(_ state: AppState) -> Figure? {
        state.features.taking(.figure).lazy.compactMap { $0.figure(.player, state) }.first
    }

    // MARK: For other features

    /// Loads a recording in `language` (English when it has none, marked) and starts it.
    public static func play(_ state: inout AppState, audioID: Int, artworkID: Int?, tourID: Int?, language: Language, at position: Double = 0) -> [DocentCore.Effect] {
        let language = language.content
        guard let audio = state.museum?.audioFiles[audioID] else { return [] }
        let (version, _) = audio.version(for: language)
        let token = state.player.nextToken
        state.player.nextToken += 1
        state.player.track = Track(
            audioID: audioID, artworkID: artworkID, tourID: tourID, language: version.language, requested: language,
            title: version.trackTitle.isEmpty ? audio.title : version.trackTitle, url: version.url, transcript: version.transcript)
        state.player.snapshot = PlayerSnapshot(token: token, status: .loading, position: position, volume: state.player.volume)
        state.player.transcriptScroll = 0
        return [.audio(.play(AudioRequest(token: token, url: version.url, title: state.player.track?.title ?? "", startAt: position)))]
    }

    /// Unloads the track and silences the engine.
    public static func stop(_ state: inout AppState) -> [DocentCore.Effect] {
        guard state.player.track != nil else { return [] }
        state.player.track = nil
        state.player.snapshot = PlayerSnapshot(token: state.player.snapshot.token, volume: state.player.volume)
        return [.audio(.stop)]
    }

    /// Puts the full player on top of the current tab (once).
    public static func showPlayer(_ state: inout AppState) {
        if state.page.route != .player { Reducer.push(&state, .player) }
    }

    static func replay(_ state: inout AppState, from position: Double) -> [DocentCore.Effect] {
        guard let t = state.player.track else { return [] }
        return play(&state, audioID: t.audioID, artworkID: t.artworkID, tourID: t.tourID, language: t.requested, at: position)
    }

    static func snapshot(_ state: inout AppState, _ snap: PlayerSnapshot) -> [DocentCore.Effect] {
        guard state.player.track != nil, snap.token == state.player.snapshot.token else { return [] }
        let before = state.player.snapshot
        state.player.snapshot = snap
        let others = Reducer.broadcast(.playerChanged(before: before), &state)
        if !others.isEmpty { return others }
        // No sound server (or it went away), one now: go on where we were.
        if snap.status == .failed, snap.failure?.isSoundServer == true, snap.outputAvailable, !before.outputAvailable || before.status != .failed {
            return replay(&state, from: snap.position)
        }
        return []
    }

    // MARK: The page

    /// The loaded track as a page: what other features say over it (a running tour), the
    /// artwork's facts, then the transcript in the language playing.
    public static func page(_ app: AppData, _ state: AppState) -> TextPage? {
        let s = state.strings
        let over = state.features.taking(.rows).flatMap { $0.rows(.playerStatus, state) }.map(\.text)
        guard let track = state.player.track else {
            return over.isEmpty ? nil : TextPage(title: over[0], facts: Array(over.dropFirst()), body: "")
        }
        var facts: [String] = over
        var title = track.title
        var credits = ""
        if let a = track.artworkID.flatMap({ app.artworks[$0] }) {
            if a.title != track.title { facts.append(a.title) }
            title = track.title.isEmpty ? a.title : track.title
            facts += a.tombstone.split(separator: "\n").map(String.init)
            facts.append(PageBuilder.galleryAndFloor(a.galleryTitle, a.floor, s))
            credits = a.credits
        } else if let t = track.tourID.flatMap({ app.tour($0) }) {
            facts.append(t.text(state.language).text.title)
        }
        facts.append(s(.playerLanguage, ["language": track.language.nativeName]))
        if track.fellBack {
            facts.append(s(.playerFellBack, ["language": track.requested.nativeName]))
        }
        if state.player.snapshot.keptCopy { facts.append(s(.playerKeptCopy)) }
        var body = track.transcript.isEmpty ? s(.playerNoTranscript) : track.transcript
        if !credits.isEmpty { body += "\n\n" + s(.playerCredits) + "\n" + credits }
        return TextPage(title: title, facts: facts, body: body)
    }
}

/// The player's actions.
public enum PlayerAction: Equatable, Sendable {
    /// Play a recording: an artwork's commentary or a tour's intro.
    case play(audioID: Int, artworkID: Int?, tourID: Int?)
    /// The engine's state changed (polled by the loop).
    case snapshot(PlayerSnapshot)
    case togglePause
    case seekBy(Double)
    case volumeBy(Double)
    /// One step slower (-1) or faster (+1) through `PlayerFeature.speeds`.
    case speedStep(Int)
    case stop
    /// Open the full player view on the current tab.
    case open
    /// Choose another language for the commentary that is loaded.
    case openLanguages
}

extension AppAction {
    public static func player(_ a: PlayerAction) -> AppAction { PlayerFeature.action(a) }
    public static func play(audioID: Int, artworkID: Int?, tourID: Int?) -> AppAction { .player(.play(audioID: audioID, artworkID: artworkID, tourID: tourID)) }
    public static func playerSnapshot(_ s: PlayerSnapshot) -> AppAction { .player(.snapshot(s)) }
    public static var togglePause: AppAction { .player(.togglePause) }
    public static func seekBy(_ d: Double) -> AppAction { .player(.seekBy(d)) }
    public static func volumeBy(_ d: Double) -> AppAction { .player(.volumeBy(d)) }
    public static func speedStep(_ step: Int) -> AppAction { .player(.speedStep(step)) }
    public static var stopAudio: AppAction { .player(.stop) }
    public static var openPlayer: AppAction { .player(.open) }
    public static var openAudioLanguages: AppAction { .player(.openLanguages) }
}

extension Route {
    /// The full player.
    public static var player: Route { PlayerFeature.route(.full) }
}

extension Overlay {
    public static func audioLanguage(selection: Int) -> Overlay { PlayerFeature.show(.language(selection: selection)) }
}

extension AppState {
    /// The shared player: every tab reads it, only the player's actions change it.
    public var player: PlayerState {
        get { self[PlayerFeature.self] }
        set { self[PlayerFeature.self] = newValue }
    }
}

import Foundation

/// The player, reachable from every tab: what is loaded, the engine's reports, the full
/// player page and its language box. Scoped (issue 28): it changes only `PlayerState`; other
/// features ask it to play with the request `PlayerFeature.play(...)`.
public enum PlayerFeature: ScopedFeature, HearsEvents, ScopedWantsPictures, ScopedContent {
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
    /// After Tours: a tour's keys (`> < m x r`) and Space while a guided tour waits come first.
    public static let after = [TourFeature.id]
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

    public static func saved(_ state: State) -> PlayerSettings? {
        let kept = PlayerSettings(volume: state.volume, speed: state.speed)
        return kept == PlayerSettings() ? nil : kept
    }

    public static func restore(_ saved: PlayerSettings, _ state: inout State) {
        if saved.volume.isFinite {
            state.volume = min(1, max(0, saved.volume))
            state.snapshot.volume = state.volume
        }
        state.speed = nearestSpeed(saved.speed)
    }

    public static func reduce(_ p: inout PlayerState, _ action: PlayerAction, _ context: FeatureContext) -> Outcome {
        switch action {
        case .play(let audioID, let artworkID, let tourID):
            return Outcome(effects: play(&p, audioID: audioID, artworkID: artworkID, tourID: tourID, language: context.language, museum: context.museum))
        case .playFor(let audioID, let artworkID, let tourID, let language, let position):
            return Outcome(effects: play(&p, audioID: audioID, artworkID: artworkID, tourID: tourID, language: language, at: position, museum: context.museum))
        case .snapshot(let snap):
            guard p.track != nil, snap.token == p.snapshot.token else { return .none }
            let before = p.snapshot
            p.snapshot = snap
            // No sound server (or it went away), one now: go on where we were, unless a
            // listener (a tour with its own clip) took it up.
            let resumes = snap.status == .failed && snap.failure?.isSoundServer == true && snap.outputAvailable
                && (!before.outputAvailable || before.status != .failed)
            return Outcome(requests: [.broadcast(.playerChanged(before: before), unheard: resumes ? .player(.replay(from: snap.position)) : nil)])
        case .replay(let position):
            return Outcome(effects: replay(&p, from: position, museum: context.museum))
        case .hush:
            guard p.isActive, p.snapshot.status != .ended else { return .none }
            p.snapshot.status = .idle
            return Outcome(effects: [.audio(.stop)])
        case .togglePause:
            guard p.track != nil else { return .none }
            switch p.snapshot.status {
            case .playing, .buffering, .loading:
                p.snapshot.status = .paused
                return Outcome(effects: [.audio(.pause)])
            case .paused:
                p.snapshot.status = .playing
                return Outcome(effects: [.audio(.resume)])
            case .ended, .idle:
                return Outcome(effects: replay(&p, from: 0, museum: context.museum))
            case .failed:
                // Failed mid-track (sound server gone, connection dropped): go on from there.
                return Outcome(effects: replay(&p, from: p.snapshot.position, museum: context.museum))
            }
        case .seekBy(let delta):
            guard p.isActive else { return .none }
            let snap = p.snapshot
            var target = max(0, snap.position + delta)
            if let d = snap.duration { target = min(target, max(0, d - 0.5)) }
            p.snapshot.position = target
            return Outcome(effects: [.audio(.seek(target))])
        case .seekTo(let fraction):
            // A click on the bar: that share of the recording (its length known).
            guard p.isActive, let d = p.snapshot.duration, d > 0 else { return .none }
            let target = min(max(0, d * min(1, max(0, fraction))), max(0, d - 0.5))
            p.snapshot.position = target
            return Outcome(effects: [.audio(.seek(target))])
        case .volumeBy(let delta):
            let v = min(1, max(0, ((p.volume + delta) * 20).rounded() / 20))
            guard v != p.volume else { return .none }
            p.volume = v
            p.snapshot.volume = v
            return Outcome(effects: [.audio(.volume(v))], requests: [.persist])
        case .speedStep(let step):
            let here = speeds.firstIndex(of: p.speed) ?? speeds.firstIndex(of: 1) ?? 0
            let next = speeds[min(speeds.count - 1, max(0, here + step))]
            guard next != p.speed else { return .none }
            p.speed = next
            return Outcome(effects: [.audio(.speed(next))], requests: [.persist])
        case .stop:
            // Nothing left to show on the full player: every tab it is on top of shows its own
            // page again (the Audio Guide its keypad).
            guard p.track != nil else { return .none }
            return Outcome(effects: stop(&p), requests: [.dropPage(.player)])
        case .open:
            guard p.track != nil, context.overlay == nil else { return .none }
            return Outcome(requests: showPlayer(context))
        case .openLanguages:
            guard let t = p.track, context.overlay == nil else { return .none }
            return Outcome(requests: [.show(show(.language(selection: context.audioLanguages.firstIndex(of: t.requested) ?? 0)))])
        }
    }

    public static func overlay(_ input: OverlayInput, _ o: Overlay, _ p: inout PlayerState, _ context: FeatureContext) -> Outcome {
        guard case .language(let sel) = o else { return .none }
        switch input {
        case .move(let d):
            return Outcome(requests: [.show(show(.language(selection: Reducer.clamp(sel, d, context.audioLanguages.count))))])
        case .choose(let i):
            let chosen = overlay(.activate, .language(selection: i), &p, context)
            return Outcome(effects: chosen.effects, requests: [.show(show(.language(selection: i)))] + chosen.requests)
        case .activate:
            guard let t = p.track, context.audioLanguages.indices.contains(sel) else { return Outcome(requests: [.close]) }
            let language = context.audioLanguages[sel]
            return Outcome(
                effects: play(&p, audioID: t.audioID, artworkID: t.artworkID, tourID: t.tourID, language: language, museum: context.museum), requests: [.close])
        case .dismissed:
            return .none
        }
    }

    public static func react(to event: FeatureEvent, _ p: inout PlayerState, _ context: FeatureContext) -> Outcome {
        switch event {
        case .launched:
            // A volume and speed kept from the last run are the engine's from the start.
            var effects: [DocentCore.Effect] = []
            if p.volume != PlayerState().volume { effects.append(.audio(.volume(p.volume))) }
            if p.speed != 1 { effects.append(.audio(.speed(p.speed))) }
            return Outcome(effects: effects)
        case .quitting:
            return p.isActive ? Outcome(effects: [.audio(.stop)]) : .none
        case .startOver:
            // The sound stops and the next visitor starts at the usual volume and speed.
            var effects = stop(&p)
            let fresh = PlayerState()
            if p.volume != fresh.volume { effects.append(.audio(.volume(fresh.volume))) }
            if p.speed != fresh.speed { effects.append(.audio(.speed(fresh.speed))) }
            let token = p.nextToken, shown = p.snapshot.token
            p = fresh
            p.nextToken = token
            p.snapshot = PlayerSnapshot(token: shown, volume: fresh.volume)
            return Outcome(effects: effects)
        default:  // not listened to (`listensTo`): never sent here
            return .none
        }
    }

    public static func content(_ route: Route, _ p: PlayerState, _ context: FeatureContext) -> PageContent {
        guard let app = context.museum, page(app, p, context) != nil else { return .message(context.strings(.playerNothing)) }
        return .custom(id, title: nil)
    }

    /// The mouse wheel or the arrows on the full player: scroll the page under the controls.
    public static func move(_ delta: Int, _ p: inout PlayerState, _ context: FeatureContext) -> Outcome {
        guard let app = context.museum, let text = page(app, p, context) else { return .none }
        // The text beside or under a picture, if a feature puts one there.
        let room = FigureLayout.split(
            width: context.viewportWidth, rows: context.viewportRows - PlayerLayout.controlRows, figure: context.figure(.player))
        let total = text.lines(width: room.textWidth, strings: context.strings).count
        return Outcome(requests: [.scrollPage(delta, max: max(0, total - room.textRows))])
    }

    /// On the full player: the artwork's picture.
    public static func pictureWanted(_ p: PlayerState, _ context: FeatureContext) -> PictureWish? {
        guard context.route == .player, let art = p.track?.artworkID.flatMap({ context.museum?.artworks[$0] }), let url = art.imageURL else { return nil }
        // In words for a screen reader: the title and the artist (the tombstone's first line).
        let artist = art.tombstone.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let about = [art.title, artist].filter { !$0.isEmpty }.joined(separator: ", ")
        return PictureWish(url: url, slot: .player, rows: context.viewportRows - PlayerLayout.controlRows, about: about)
    }

    // MARK: For other features

    /// What another feature asks to play a recording in `language` (English when it has
    /// none, marked) from `position`: the player loads it and starts it.
    public static func play(audioID: Int, artworkID: Int?, tourID: Int?, language: Language, at position: Double = 0) -> UIRequest {
        .send(.player(.playFor(audioID: audioID, artworkID: artworkID, tourID: tourID, language: language, at: position)))
    }

    /// The token the player gives the next recording it loads, if `audioID` can be loaded (a
    /// feature that recognises its clip by its token, the tours, reads it before asking).
    public static func nextToken(audioID: Int, _ context: FeatureContext) -> Int? {
        context.museum?.audioFiles[audioID] == nil ? nil : context.state(of: PlayerFeature.self).nextToken
    }

    /// Puts the full player on top of the current tab (once).
    public static func showPlayer(_ context: FeatureContext) -> [UIRequest] {
        context.route == .player ? [] : [.push(.player)]
    }

    /// Loads a recording in `language` (English when it has none, marked) and starts it.
    static func play(
        _ p: inout PlayerState, audioID: Int, artworkID: Int?, tourID: Int?, language: Language, at position: Double = 0, museum: AppData?
    ) -> [DocentCore.Effect] {
        let language = language.content
        guard let audio = museum?.audioFiles[audioID] else { return [] }
        let (version, _) = audio.version(for: language)
        let token = p.nextToken
        p.nextToken += 1
        p.track = Track(
            audioID: audioID, artworkID: artworkID, tourID: tourID, language: version.language, requested: language,
            title: version.trackTitle.isEmpty ? audio.title : version.trackTitle, url: version.url, transcript: version.transcript)
        p.snapshot = PlayerSnapshot(token: token, status: .loading, position: position, volume: p.volume)
        p.transcriptScroll = 0
        return [.audio(.play(AudioRequest(token: token, url: version.url, title: p.track?.title ?? "", startAt: position)))]
    }

    /// Unloads the track and silences the engine.
    static func stop(_ p: inout PlayerState) -> [DocentCore.Effect] {
        guard p.track != nil else { return [] }
        p.track = nil
        p.snapshot = PlayerSnapshot(token: p.snapshot.token, volume: p.volume)
        return [.audio(.stop)]
    }

    static func replay(_ p: inout PlayerState, from position: Double, museum: AppData?) -> [DocentCore.Effect] {
        guard let t = p.track else { return [] }
        return play(&p, audioID: t.audioID, artworkID: t.artworkID, tourID: t.tourID, language: t.requested, at: position, museum: museum)
    }

    // MARK: The page

    /// The loaded track as a page: what other features say over it (a running tour), the
    /// artwork's facts, then the transcript in the language playing.
    public static func page(_ app: AppData, _ p: PlayerState, _ context: FeatureContext) -> TextPage? {
        let s = context.strings
        let over = context.rows(.playerStatus).map(\.text)
        guard let track = p.track else {
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
            facts.append(t.text(context.language).text.title)
        }
        facts.append(s(.playerLanguage, ["language": track.language.name(in: context.language)]))
        if track.fellBack {
            facts.append(s(.playerFellBack, ["language": track.requested.name(in: context.language)]))
        }
        if p.snapshot.keptCopy { facts.append(s(.playerKeptCopy)) }
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
    /// To this share (0…1) of the recording: a click on the progress bar.
    case seekTo(Double)
    case volumeBy(Double)
    /// One step slower (-1) or faster (+1) through `PlayerFeature.speeds`.
    case speedStep(Int)
    case stop
    /// Open the full player view on the current tab.
    case open
    /// Another feature's recording (a keypad hit, a tour's clip) in `language` (English when
    /// it has none), from `at` seconds (`PlayerFeature.play(...)`).
    case playFor(audioID: Int, artworkID: Int?, tourID: Int?, language: Language, at: Double)
    /// Go on from `from` seconds (after an outage of the sound server no tour took up).
    case replay(from: Double)
    /// Silence the engine but keep the track (a guided tour waiting between clips).
    case hush
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
    /// The shared player: every tab reads it, only the player's actions change it. (The
    /// views, the loop and the bench read `state[PlayerFeature.self]`.)
    var player: PlayerState {
        get { self[PlayerFeature.self] }
        set { self[PlayerFeature.self] = newValue }
    }
}

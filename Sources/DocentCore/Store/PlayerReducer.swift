import Foundation

/// The player and the Audio Guide keypad.
extension Reducer {
    static func reducePlayer(_ state: inout AppState, _ action: AppAction) -> [Effect]? {
        switch action {
        case .play(let audioID, let artworkID, let tourID):
            return play(&state, audioID: audioID, artworkID: artworkID, tourID: tourID, language: state.language)
        case .playerSnapshot(let snap):
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
            case .ended, .failed, .idle:
                return replay(&state, from: 0)
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
            return [.audio(.volume(v))]
        case .stopAudio:
            guard state.player.track != nil else { return [] }
            state.player.track = nil
            state.player.snapshot = PlayerSnapshot(token: state.player.snapshot.token, volume: state.player.volume)
            return [.audio(.stop)]
        case .openPlayer:
            guard state.player.track != nil, state.overlay == nil else { return [] }
            if state.page.route != .player { push(&state, .player) }
            return []
        case .openAudioLanguages:
            guard let t = state.player.track, state.overlay == nil else { return [] }
            state.overlay = .audioLanguage(selection: state.audioLanguages.firstIndex(of: t.requested) ?? 0)
            return []
        case .keypadDigit(let d):
            return keypadDigit(&state, d)
        case .keypadDelete:
            guard state.overlay == nil else { return [] }
            if !state.keypad.input.isEmpty { state.keypad.input.removeLast() }
            state.keypad.notice = nil
            return flash(&state, "del")
        case .keypadGo:
            return keypadGo(&state)
        case .keypadFlashEnded:
            state.keypad.pressed = nil
            return []
        default:
            return nil
        }
    }

    /// Loads a recording in `language` (English when it has none, marked) and starts it.
    static func play(_ state: inout AppState, audioID: Int, artworkID: Int?, tourID: Int?, language: Language, at position: Double = 0) -> [Effect] {
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

    static func replay(_ state: inout AppState, from position: Double) -> [Effect] {
        guard let t = state.player.track else { return [] }
        return play(&state, audioID: t.audioID, artworkID: t.artworkID, tourID: t.tourID, language: t.requested, at: position)
    }

    static func snapshot(_ state: inout AppState, _ snap: PlayerSnapshot) -> [Effect] {
        guard state.player.track != nil, snap.token == state.player.snapshot.token else { return [] }
        let before = state.player.snapshot
        state.player.snapshot = snap
        let tourEffects = tourSnapshot(&state, before: before, after: snap)
        if !tourEffects.isEmpty { return tourEffects }
        // No sound server earlier, one now: try again where we were.
        if snap.status == .failed, case .noSoundServer? = snap.failure, snap.outputAvailable, !before.outputAvailable || before.status != .failed {
            return replay(&state, from: before.position)
        }
        return []
    }

    static func push(_ state: inout AppState, _ route: Route) {
        var stack = state.stacks[state.tab] ?? [Page(Route.root(of: state.tab))]
        stack.append(Page(route))
        state.stacks[state.tab] = stack
    }

    static func flash(_ state: inout AppState, _ key: String) -> [Effect] {
        state.keypad.pressed = key
        return [.timer(.keypadFlash, milliseconds: 150, action: .keypadFlashEnded)]
    }

    static func keypadDigit(_ state: inout AppState, _ d: Character) -> [Effect] {
        guard d.isASCII, d.isNumber, state.overlay == nil else { return [] }
        var effects: [Effect] = []
        if state.tab != .audioGuide, state.tabs.contains(.audioGuide) {
            state.tab = .audioGuide
            effects.append(.persist(state.settings))
        }
        // Typing starts a new number from the keypad itself, not from a player on top of it.
        if state.page.route != .keypad { state.stacks[.audioGuide] = [Page(.keypad)] }
        guard state.keypad.input.count < KeypadIndex.maxDigits else {
            state.keypad.notice = .tooLong
            return effects + flash(&state, String(d))
        }
        state.keypad.input.append(d)
        state.keypad.notice = nil
        return effects + flash(&state, String(d))
    }

    static func keypadGo(_ state: inout AppState) -> [Effect] {
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
            state.overlay = .keypadChooser(number: input, selection: 0)
            return effects
        }
    }

    /// A keypad hit: clear the input, play, show the player.
    static func open(_ state: inout AppState, _ target: KeypadIndex.Target) -> [Effect] {
        guard let app = state.museum else { return [] }
        state.keypad.input = ""
        state.keypad.notice = nil
        state.overlay = nil
        let effects: [Effect]
        switch target {
        case .artwork(let artworkID, let audioID):
            effects = play(&state, audioID: audioID, artworkID: artworkID, tourID: nil, language: state.language)
        case .tour(let tourID):
            guard let t = app.tour(tourID) else { return [] }
            effects = play(&state, audioID: t.introAudioID, artworkID: nil, tourID: tourID, language: state.language)
        }
        if state.page.route != .player { push(&state, .player) }
        return effects
    }
}

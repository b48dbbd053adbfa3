import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Keypad rules (shared, unknown, leading zeros, sixth digit) and the player's reducer.
final class KeypadPlayerTests: XCTestCase {
    /// The test museum plus a shared number and a second number on one artwork.
    static let museum: Museum = {
        var json = String(decoding: UIFixtures.bytes("museum.json"), as: UTF8.self)
        json = json.replacingOccurrences(
            of: #"[{"object_selector_number": "102", "audio": "12"}]"#,
            with: #"[{"object_selector_number": "102", "audio": "12"}, {"object_selector_number": "101", "audio": "10"}, {"object_selector_number": "103", "audio": "10"}]"#)
        json = json.replacingOccurrences(of: #""tour_audio": 10, "weight": 2,"#, with: #""tour_audio": 10, "weight": 2, "selector_number": "900","#)
        json = json.replacingOccurrences(
            of: #""audio_transcript": "A quiet harbor.", "translations": []"#,
            with: #""audio_transcript": "A quiet harbor.", "translations": [{"language": "es", "audio_file_url": "audio/11-es.mp3", "audio_transcript": "Un puerto tranquilo."}]"#)
        switch AppDataReader.read(Array(json.utf8), source: "/museum/appData.json") {
        case .success(let a): return Museum(a)
        case .failure(let e): fatalError("\(e)")
        }
    }()

    func loaded(_ lang: Language = .english) -> AppState {
        var s = UIFixtures.loadedState(language: lang)
        s.document = .ready(Self.museum)
        return s
    }

    static let flash: Effect = .timer(.keypadFlash, milliseconds: 150, action: .keypadFlashEnded)

    /// Types `digits`, stating each change: the Audio Guide's keypad comes forward (saved), the digit is
    /// added (a sixth is refused), its key lights up.
    func type(_ s: inout AppState, _ digits: String, file: StaticString = #filePath, line: UInt = #line) {
        for d in digits {
            var after = s
            after.tab = .audioGuide
            // From the keypad itself, not from a player on top of it.
            if after.page.route != .keypad { after.stacks[.audioGuide] = [Page(.keypad)] }
            if case .unknown? = after.keypad.notice { after.keypad.input = "" }
            if after.keypad.input.count < 5 {
                after.keypad.input.append(d)
                after.keypad.notice = nil
            } else {
                after.keypad.notice = .tooLong
            }
            after.keypad.pressed = String(d)
            let saved: [Effect] = s.tab == .audioGuide ? [] : [.persist(after.settings)]
            send(&s, .keypadDigit(d), effects: saved + [Self.flash], file: file, line: line) { $0 = after }
        }
    }

    func request(_ token: Int, _ url: String, _ title: String, at start: Double = 0) -> Effect {
        .audio(.play(AudioRequest(token: token, url: url, title: title, startAt: start)))
    }

    /// GO on a number with one artwork: the number goes, the player opens and loads it.
    func goPlays(_ s: inout AppState, token: Int, audio: Int, artwork: Int?, tour: Int? = nil, url: String, title: String,
                 language: Language, requested: Language? = nil, transcript: String, file: StaticString = #filePath, line: UInt = #line) {
        // The player's load first: what the keypad asked of it runs before its own flash (issue 28).
        send(&s, .keypadGo, effects: [request(token, url, title), Self.flash], file: file, line: line) {
            $0.keypad = KeypadState()
            $0.keypad.pressed = "go"
            $0.stacks[.audioGuide] = [Page(.keypad), Page(.player)]
            $0.player.track = Track(audioID: audio, artworkID: artwork, tourID: tour, language: language, requested: requested ?? language,
                                    title: title, url: url, transcript: transcript)
            $0.player.nextToken = token + 1
            $0.player.snapshot = PlayerSnapshot(token: token, status: .loading, position: 0, volume: $0.player.volume)
        }
    }

    func testDigitFromAnyTabGoesToTheKeypad() {
        var s = loaded()
        XCTAssertEqual(s.tab, .home)
        type(&s, "1")
        XCTAssertEqual(s.page.route, .keypad)
        send(&s, .keypadFlashEnded) { $0.keypad.pressed = nil }
    }

    func testHitClearsInputPlaysAndOpensThePlayer() {
        var s = loaded()
        type(&s, "102")
        goPlays(&s, token: 1, audio: 12, artwork: 101, url: "/museum/audio/12.mp3", title: "Clay Vessel", language: .english, transcript: "Made of river clay.")
        XCTAssertEqual(s.page.route, .player)
    }

    func testLeadingZerosAreIgnored() {
        var s = loaded()
        type(&s, "00102")
        goPlays(&s, token: 1, audio: 12, artwork: 101, url: "/museum/audio/12.mp3", title: "Clay Vessel", language: .english, transcript: "Made of river clay.")
    }

    func testSixthDigitIsRefused() {
        var s = loaded()
        type(&s, "123456")
        XCTAssertEqual(s.keypad.input, "12345")
        XCTAssertEqual(s.keypad.notice, .tooLong)
    }

    func testUnknownNumberSaysSoAndKeepsTheInput() {
        var s = loaded()
        type(&s, "777")
        send(&s, .keypadGo, effects: [Self.flash]) {
            $0.keypad.pressed = "go"
            $0.keypad.notice = .unknown("777")
        }
        send(&s, .keypadDelete, effects: [Self.flash]) {
            $0.keypad.input = "77"
            $0.keypad.pressed = "del"
            $0.keypad.notice = nil
        }
        XCTAssertEqual(KeyMap.action(for: .escape, in: s), .keypad(.clear), "Esc on the keypad with a number typed")
        send(&s, .keypad(.clear)) { $0.keypad.input = "" }
        XCTAssertEqual(KeyMap.action(for: .escape, in: s), .back, "with nothing typed, Esc is the usual back")
    }

    /// Digits left on the keypad are put away when the visitor leaves the Audio Guide, so a digit
    /// typed later starts a new number (issue 17 #3).
    func testLeavingTheAudioGuidePutsTheNumberAway() {
        var s = loaded()
        type(&s, "99")
        send(&s, .keypadGo, effects: [Self.flash]) {
            $0.keypad.pressed = "go"
            $0.keypad.notice = .unknown("99")
        }
        type(&s, "1")
        var after = s
        after.tab = .tours
        send(&s, .selectTab(.tours), effects: [.persist(after.settings)]) {
            $0.tab = .tours
            $0.keypad.input = ""
            $0.keypad.notice = nil
        }
        type(&s, "2")
        XCTAssertEqual(s.keypad.input, "2")
    }

    /// `v` with a number typed shows that number's artwork on the map; with a number nothing has,
    /// it says so as GO would (issue 17 #3).
    func testVWithANumberTypedShowsThatNumbersArtwork() {
        var s = loaded()
        s.player.track = Track(audioID: 11, artworkID: 100, tourID: nil, language: .english, requested: .english,
                               title: "Harbor at Dawn", url: "/museum/audio/11.mp3", transcript: "")
        type(&s, "102")
        XCTAssertEqual(KeyMap.action(for: .char("v"), in: s), .map(.show(.artwork(101))), "the typed number's artwork, not the one playing")
        type(&s, "9")
        send(&s, .keypad(.clear)) { $0.keypad.input = "" }
        XCTAssertEqual(KeyMap.action(for: .char("v"), in: s), .map(.show(.artwork(100))), "with nothing typed: the artwork playing")
        type(&s, "999")
        XCTAssertEqual(KeyMap.action(for: .char("v"), in: s), .keypad(.notOnMap))
        send(&s, .keypad(.notOnMap)) { $0.keypad.notice = .unknown("999") }
    }

    /// "999 Enter" finds nothing; typing 102 then is a new number, not "99910" and "at most 5
    /// digits" (issue 17 #3).
    func testAfterAnUnknownNumberTheNextDigitStartsANewOne() {
        var s = loaded()
        type(&s, "999")
        send(&s, .keypadGo, effects: [Self.flash]) {
            $0.keypad.pressed = "go"
            $0.keypad.notice = .unknown("999")
        }
        send(&s, .keypadDigit("1"), effects: [Self.flash]) {
            $0.keypad.input = "1"
            $0.keypad.notice = nil
            $0.keypad.pressed = "1"
        }
        type(&s, "02")
        goPlays(&s, token: 1, audio: 12, artwork: 101, url: "/museum/audio/12.mp3", title: "Clay Vessel", language: .english, transcript: "Made of river clay.")
    }

    func testEmptyGo() {
        var s = loaded()
        send(&s, .selectTab(.audioGuide), effects: [.persist({ var a = s; a.tab = .audioGuide; return a.settings }())]) { $0.tab = .audioGuide }
        send(&s, .keypadGo, effects: [Self.flash]) {
            $0.keypad.pressed = "go"
            $0.keypad.notice = .empty
        }
    }

    func testSharedNumberOpensAChooser() {
        var s = loaded()
        type(&s, "101")
        send(&s, .keypadGo, effects: [Self.flash]) {
            $0.keypad.pressed = "go"
            $0.overlay = .keypadChooser(number: "101", selection: 0)
        }
        send(&s, .move(1)) { $0.overlay = .keypadChooser(number: "101", selection: 1) }
        send(&s, .activate, effects: [request(1, "/museum/audio/10.mp3", "Welcome")]) {
            $0.overlay = nil
            $0.keypad.input = ""
            $0.stacks[.audioGuide] = [Page(.keypad), Page(.player)]
            $0.player.track = Track(audioID: 10, artworkID: 101, tourID: nil, language: .english, requested: .english,
                                    title: "Welcome", url: "/museum/audio/10.mp3", transcript: "Welcome to the tour.")
            $0.player.nextToken = 2
            $0.player.snapshot = PlayerSnapshot(token: 1, status: .loading, position: 0, volume: 0.8)
        }
    }

    func testTourNumberWinsAndPlaysTheIntro() {
        var s = loaded()
        type(&s, "900")
        goPlays(&s, token: 1, audio: 10, artwork: nil, tour: 501, url: "/museum/audio/10.mp3", title: "Welcome", language: .english, transcript: "Welcome to the tour.")
    }

    func testLanguageFallbackIsMarked() {
        var s = loaded(.chinese)
        type(&s, "102")
        goPlays(&s, token: 1, audio: 12, artwork: 101, url: "/museum/audio/12.mp3", title: "Clay Vessel", language: .english, requested: .chinese, transcript: "Made of river clay.")
        XCTAssertEqual(s.player.track?.fellBack, true)
    }

    func testSwitchingTheTrackLanguage() {
        var s = loaded()
        type(&s, "102")
        goPlays(&s, token: 1, audio: 12, artwork: 101, url: "/museum/audio/12.mp3", title: "Clay Vessel", language: .english, transcript: "Made of river clay.")
        send(&s, .stopAudio, effects: [.audio(.stop)]) {
            $0.player.track = nil
            $0.player.snapshot = PlayerSnapshot(token: 1, volume: 0.8)
            // Nothing to show on the full player: the Audio Guide shows its keypad again.
            $0.stacks[.audioGuide] = [Page(.keypad)]
        }
        // Artwork 100 (number 101 is shared; the chooser's first entry) has Spanish.
        type(&s, "101")
        XCTAssertEqual(s.stacks[.audioGuide], [Page(.keypad)], "typing starts from the keypad, not the player on top")
        send(&s, .keypadGo, effects: [Self.flash]) {
            $0.keypad.pressed = "go"
            $0.overlay = .keypadChooser(number: "101", selection: 0)
        }
        let harbor = Track(audioID: 11, artworkID: 100, tourID: nil, language: .english, requested: .english,
                           title: "Harbor at Dawn", url: "/museum/audio/11.mp3", transcript: "A quiet harbor.")
        send(&s, .activate, effects: [request(2, "/museum/audio/11.mp3", "Harbor at Dawn")]) {
            $0.overlay = nil
            $0.keypad.input = ""
            $0.stacks[.audioGuide] = [Page(.keypad), Page(.player)]
            $0.player.track = harbor
            $0.player.nextToken = 3
            $0.player.snapshot = PlayerSnapshot(token: 2, status: .loading, position: 0, volume: 0.8)
        }
        send(&s, .openAudioLanguages) { $0.overlay = .audioLanguage(selection: 0) }
        send(&s, .move(1)) { $0.overlay = .audioLanguage(selection: 1) }
        send(&s, .activate, effects: [request(3, "/museum/audio/11-es.mp3", "Harbor at Dawn")]) {
            $0.overlay = nil
            $0.player.track = Track(audioID: 11, artworkID: 100, tourID: nil, language: .spanish, requested: .spanish,
                                    title: "Harbor at Dawn", url: "/museum/audio/11-es.mp3", transcript: "Un puerto tranquilo.")
            $0.player.nextToken = 4
            $0.player.snapshot = PlayerSnapshot(token: 3, status: .loading, position: 0, volume: 0.8)
        }
    }

    func testSnapshotsOnlyForTheCurrentToken() {
        var s = loaded()
        type(&s, "102")
        goPlays(&s, token: 1, audio: 12, artwork: 101, url: "/museum/audio/12.mp3", title: "Clay Vessel", language: .english, transcript: "Made of river clay.")
        send(&s, .playerSnapshot(PlayerSnapshot(token: 99, status: .playing, position: 3)))
        let fresh = PlayerSnapshot(token: 1, status: .playing, position: 3, duration: 20, volume: 0.8)
        send(&s, .playerSnapshot(fresh)) { $0.player.snapshot = fresh }
    }

    func testPauseSeekVolumeStop() {
        var s = loaded()
        type(&s, "102")
        goPlays(&s, token: 1, audio: 12, artwork: 101, url: "/museum/audio/12.mp3", title: "Clay Vessel", language: .english, transcript: "Made of river clay.")
        let playing = PlayerSnapshot(token: 1, status: .playing, position: 5, duration: 12, volume: 0.8)
        send(&s, .playerSnapshot(playing)) { $0.player.snapshot = playing }
        send(&s, .togglePause, effects: [.audio(.pause)]) { $0.player.snapshot.status = .paused }
        send(&s, .togglePause, effects: [.audio(.resume)]) { $0.player.snapshot.status = .playing }
        send(&s, .seekBy(10), effects: [.audio(.seek(11.5))]) { $0.player.snapshot.position = 11.5 }
        send(&s, .seekBy(-30), effects: [.audio(.seek(0))]) { $0.player.snapshot.position = 0 }
        for v in [0.85, 0.9, 0.95, 1.0] {
            var after = s
            after.player.volume = v
            after.player.snapshot.volume = v
            send(&s, .volumeBy(0.05), effects: [.audio(.volume(v)), .persist(after.settings)]) { $0 = after }
        }
        XCTAssertEqual(s.settings.saves[PlayerFeature.self], PlayerSettings(volume: 1), "the volume is kept between runs")
        send(&s, .volumeBy(0.05))  // at 100 % nothing changes
        send(&s, .stopAudio, effects: [.audio(.stop)]) {
            $0.player.track = nil
            $0.player.snapshot = PlayerSnapshot(token: 1, volume: 1)
            // Nothing to show on the full player: the Audio Guide shows its keypad again.
            $0.stacks[.audioGuide] = [Page(.keypad)]
        }
        send(&s, .togglePause)
    }

    /// Set to 65 %, the volume comes back at 65 % on the next start, and the engine hears it
    /// before anything plays.
    func testVolumeIsKeptBetweenRuns() {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        var saved = PersistedSettings(introSeen: true)
        saved.saves[PlayerFeature.self] = PlayerSettings(volume: 0.65)
        send(&s, .launched(restored: saved, languageOverride: nil), effects: [.loadDocument(source: "/museum/appData.json"), .audio(.volume(0.65)), .pulse(.open(.defaultFile, identity: nil, seed: "/museum/pulse/seed.json"))]) {
            $0.introSeen = true
            $0.player.volume = 0.65
            $0.player.snapshot.volume = 0.65
        }
        XCTAssertEqual(s.settings.saves[PlayerFeature.self], PlayerSettings(volume: 0.65))
        // The default is not written at all.
        XCTAssertNil(UIFixtures.loadedState().settings.saves[PlayerFeature.self])
    }

    /// Issue 16 #4: `[` and `]` step through 0.75×, 1×, 1.25×, 1.5×, 2× (no further at the
    /// ends), the engine hears each step, the speed is kept and shown; on the map the same
    /// keys stay floors.
    func testSpeedStepsThroughTheOfferedSpeedsAndIsKept() {
        var s = loaded()
        type(&s, "102")
        goPlays(&s, token: 1, audio: 12, artwork: 101, url: "/museum/audio/12.mp3", title: "Clay Vessel", language: .english, transcript: "Made of river clay.")
        XCTAssertEqual(KeyMap.action(for: .char("]"), in: s), .speedStep(1))
        XCTAssertEqual(KeyMap.action(for: .char("["), in: s), .speedStep(-1))
        for speed in [1.25, 1.5, 2] {
            var after = s
            after.player.speed = speed
            send(&s, .speedStep(1), effects: [.audio(.speed(speed)), .persist(after.settings)]) { $0.player.speed = speed }
        }
        send(&s, .speedStep(1))  // 2× is the fastest: nothing changes, nothing is saved
        XCTAssertEqual(s.settings.saves[PlayerFeature.self], PlayerSettings(volume: 0.8, speed: 2))
        for speed in [1.5, 1.25, 1, 0.75] {
            var after = s
            after.player.speed = speed
            send(&s, .speedStep(-1), effects: [.audio(.speed(speed)), .persist(after.settings)]) { $0.player.speed = speed }
        }
        send(&s, .speedStep(-1))  // 0.75× is the slowest
        var normal = s
        normal.player.speed = 1
        send(&s, .speedStep(1), effects: [.audio(.speed(1)), .persist(normal.settings)]) { $0.player.speed = 1 }
        XCTAssertNil(s.settings.saves[PlayerFeature.self], "1× at the usual volume is nothing to keep")
        prepare(&s, .selectTab(.map))
        XCTAssertEqual(KeyMap.action(for: .char("]"), in: s), .map(.floorStep(1)), "on the map [ and ] change floors")
    }

    /// A speed kept from the last run is the engine's before anything plays; an odd saved
    /// value becomes the nearest offered speed; the next kiosk visitor starts at 1×.
    func testSpeedIsKeptBetweenRunsAndForgottenForTheNextVisitor() {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        var saved = PersistedSettings(introSeen: true)
        saved.saves[PlayerFeature.self] = PlayerSettings(speed: 1.4)
        send(&s, .launched(restored: saved, languageOverride: nil), effects: [.loadDocument(source: "/museum/appData.json"), .audio(.speed(1.5)), .pulse(.open(.defaultFile, identity: nil, seed: "/museum/pulse/seed.json"))]) {
            $0.introSeen = true
            $0.player.speed = 1.5
            $0.player.snapshot.volume = 0.8
        }
        let effects = prepare(&s, .startOver)
        XCTAssertTrue(effects.contains(.audio(.speed(1))), "\(effects)")
        XCTAssertEqual(s.player.speed, 1)
    }

    func testNoSoundServerRetriesWhenOneAppears() {
        var s = loaded()
        type(&s, "102")
        goPlays(&s, token: 1, audio: 12, artwork: 101, url: "/museum/audio/12.mp3", title: "Clay Vessel", language: .english, transcript: "Made of river clay.")
        let down = PlayerSnapshot(token: 1, status: .failed, position: 0, volume: 0.8, failure: .noSoundServer("Connection refused"), outputAvailable: false)
        send(&s, .playerSnapshot(down)) { $0.player.snapshot = down }
        XCTAssertEqual(s.page.route, .player, "the transcript stays on screen")
        var up = down
        up.outputAvailable = true
        send(&s, .playerSnapshot(up), effects: [request(2, "/museum/audio/12.mp3", "Clay Vessel")]) {
            $0.player.nextToken = 3
            $0.player.snapshot = PlayerSnapshot(token: 2, status: .loading, position: 0, volume: 0.8)
        }
    }

    /// The sound server went away mid-commentary and came back (issue 17 #19): it goes on
    /// where it was, by itself; Space after any mid-track failure does the same.
    func testSoundServerLostResumesWhereItWasWhenOneAnswers() {
        var s = loaded()
        type(&s, "102")
        goPlays(&s, token: 1, audio: 12, artwork: 101, url: "/museum/audio/12.mp3", title: "Clay Vessel", language: .english, transcript: "Made of river clay.")
        let lost = PlayerSnapshot(token: 1, status: .failed, position: 7.3, duration: 12, volume: 0.8, failure: .soundServerLost("Connection terminated"), outputAvailable: false)
        send(&s, .playerSnapshot(lost)) { $0.player.snapshot = lost }
        var back = lost
        back.outputAvailable = true
        send(&s, .playerSnapshot(back), effects: [request(2, "/museum/audio/12.mp3", "Clay Vessel", at: 7.3)]) {
            $0.player.nextToken = 3
            $0.player.snapshot = PlayerSnapshot(token: 2, status: .loading, position: 7.3, volume: 0.8)
        }
        let dropped = PlayerSnapshot(token: 2, status: .failed, position: 9.1, duration: 12, volume: 0.8, failure: .network("connection dropped"))
        send(&s, .playerSnapshot(dropped)) { $0.player.snapshot = dropped }
        send(&s, .togglePause, effects: [request(3, "/museum/audio/12.mp3", "Clay Vessel", at: 9.1)]) {
            $0.player.nextToken = 4
            $0.player.snapshot = PlayerSnapshot(token: 3, status: .loading, position: 9.1, volume: 0.8)
        }
    }

    func testEndedReplaysFromTheStart() {
        var s = loaded()
        type(&s, "102")
        goPlays(&s, token: 1, audio: 12, artwork: 101, url: "/museum/audio/12.mp3", title: "Clay Vessel", language: .english, transcript: "Made of river clay.")
        let ended = PlayerSnapshot(token: 1, status: .ended, position: 12, duration: 12, volume: 0.8)
        send(&s, .playerSnapshot(ended)) { $0.player.snapshot = ended }
        send(&s, .togglePause, effects: [request(2, "/museum/audio/12.mp3", "Clay Vessel")]) {
            $0.player.nextToken = 3
            $0.player.snapshot = PlayerSnapshot(token: 2, status: .loading, position: 0, volume: 0.8)
        }
    }

    func testPlayerKeysWorkOnEveryTab() {
        let s = loaded()
        XCTAssertEqual(KeyMap.action(for: .char(" "), in: s), .togglePause)
        XCTAssertEqual(KeyMap.action(for: .right, in: s), .seekBy(10))
        XCTAssertEqual(KeyMap.action(for: .char("-"), in: s), .volumeBy(-0.05))
        XCTAssertEqual(KeyMap.action(for: .char("7"), in: s), .keypadDigit("7"))
        var k = s
        k.tab = .audioGuide
        XCTAssertEqual(KeyMap.action(for: .enter, in: k), .keypadGo)
        XCTAssertEqual(KeyMap.action(for: .backspace, in: k), .keypadDelete)
    }

    func testKeypadAndPlayerSnapshots() {
        let big = Size(width: 80, height: 24)
        let small = RootView.minimumSize
        var k = loaded()
        type(&k, "10")
        assertSnapshot(RootView.render(k, size: big), named: "keypad-80x24")
        assertSnapshot(RootView.render(k, size: small), named: "keypad-40x12")
        var unknown = loaded(.chinese)
        type(&unknown, "777")
        prepare(&unknown, .keypadGo)
        assertSnapshot(RootView.render(unknown, size: big), named: "keypad-unknown-zh-80x24")
        var chooser = loaded()
        type(&chooser, "101")
        prepare(&chooser, .keypadGo)
        assertSnapshot(RootView.render(chooser, size: big), named: "keypad-chooser-80x24")
        var p = loaded()
        type(&p, "102")
        prepare(&p, .keypadGo)
        prepare(&p, .playerSnapshot(PlayerSnapshot(token: 1, status: .playing, position: 4.2, duration: 12.5, volume: 0.8)))
        assertSnapshot(RootView.render(p, size: big), named: "player-80x24")
        assertSnapshot(RootView.render(p, size: small), named: "player-40x12")
        prepare(&p, .selectTab(.home))
        assertSnapshot(RootView.render(p, size: big), named: "mini-player-home-80x24")
        var zh = loaded(.chinese)
        type(&zh, "102")
        prepare(&zh, .keypadGo)
        prepare(&zh, .playerSnapshot(PlayerSnapshot(token: 1, status: .failed, volume: 0.8, failure: .noSoundServer("Connection refused"), outputAvailable: false)))
        assertSnapshot(RootView.render(zh, size: big), named: "player-nosound-zh-80x24")
        prepare(&zh, .openAudioLanguages)
        assertSnapshot(RootView.render(zh, size: big), named: "audio-language-zh-80x24")
    }

    /// A speed other than 1× shows beside the volume on the full player and before the time
    /// on the mini player, with the language's decimal mark (1,5× in French).
    func testSpeedSnapshots() {
        for (language, name, steps) in [(Language.english, "en", 2), (.french, "fr", 2), (.korean, "ko", -1)] {
            var p = loaded(language)
            type(&p, "102")
            prepare(&p, .keypadGo)
            prepare(&p, .playerSnapshot(PlayerSnapshot(token: 1, status: .playing, position: 4.2, duration: 12.5, volume: 0.8)))
            for _ in 0..<abs(steps) { prepare(&p, .speedStep(steps > 0 ? 1 : -1)) }
            assertSnapshot(RootView.render(p, size: Size(width: 80, height: 24)), named: "player-speed-\(name)-80x24")
            prepare(&p, .selectTab(.home))
            assertSnapshot(RootView.render(p, size: RootView.minimumSize), named: "mini-player-speed-\(name)-40x12")
        }
    }
}

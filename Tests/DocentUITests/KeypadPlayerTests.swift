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

    func type(_ s: inout AppState, _ digits: String) {
        for d in digits { _ = Reducer.reduce(&s, .keypadDigit(d)) }
    }

    func request(_ token: Int, _ url: String, _ title: String) -> Effect {
        .audio(.play(AudioRequest(token: token, url: url, title: title)))
    }

    func testDigitFromAnyTabGoesToTheKeypad() {
        var s = loaded()
        let e = Reducer.reduce(&s, .keypadDigit("1"))
        XCTAssertEqual(s.tab, .audioGuide)
        XCTAssertEqual(s.page.route, .keypad)
        XCTAssertEqual(s.keypad.input, "1")
        XCTAssertEqual(s.keypad.pressed, "1")
        XCTAssertEqual(e, [.persist(s.settings), .timer(.keypadFlash, milliseconds: 150, action: .keypadFlashEnded)])
        _ = Reducer.reduce(&s, .keypadFlashEnded)
        XCTAssertNil(s.keypad.pressed)
    }

    func testHitClearsInputPlaysAndOpensThePlayer() {
        var s = loaded()
        type(&s, "102")
        let e = Reducer.reduce(&s, .keypadGo)
        XCTAssertEqual(e, [.timer(.keypadFlash, milliseconds: 150, action: .keypadFlashEnded), request(1, "/museum/audio/12.mp3", "Clay Vessel")])
        XCTAssertEqual(s.keypad.input, "")
        XCTAssertEqual(s.page.route, .player)
        XCTAssertEqual(s.player.track?.artworkID, 101)
        XCTAssertEqual(s.player.snapshot.status, .loading)
    }

    func testLeadingZerosAreIgnored() {
        var s = loaded()
        type(&s, "00102")
        _ = Reducer.reduce(&s, .keypadGo)
        XCTAssertEqual(s.player.track?.audioID, 12)
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
        _ = Reducer.reduce(&s, .keypadGo)
        XCTAssertEqual(s.keypad.input, "777")
        XCTAssertEqual(s.keypad.notice, .unknown("777"))
        XCTAssertNil(s.player.track)
        _ = Reducer.reduce(&s, .keypadDelete)
        XCTAssertEqual(s.keypad.input, "77")
        XCTAssertNil(s.keypad.notice)
        _ = Reducer.reduce(&s, .back)
        XCTAssertEqual(s.keypad.input, "", "Esc clears the number")
    }

    func testEmptyGo() {
        var s = loaded()
        _ = Reducer.reduce(&s, .selectTab(.audioGuide))
        _ = Reducer.reduce(&s, .keypadGo)
        XCTAssertEqual(s.keypad.notice, .empty)
    }

    func testSharedNumberOpensAChooser() {
        var s = loaded()
        type(&s, "101")
        _ = Reducer.reduce(&s, .keypadGo)
        XCTAssertEqual(s.overlay, .keypadChooser(number: "101", selection: 0))
        XCTAssertNil(s.player.track)
        _ = Reducer.reduce(&s, .move(1))
        XCTAssertEqual(s.overlay, .keypadChooser(number: "101", selection: 1))
        let e = Reducer.reduce(&s, .activate)
        XCTAssertEqual(e, [request(1, "/museum/audio/10.mp3", "Welcome")])
        XCTAssertEqual(s.player.track?.artworkID, 101)
        XCTAssertNil(s.overlay)
        XCTAssertEqual(s.keypad.input, "")
    }

    func testTourNumberWinsAndPlaysTheIntro() {
        var s = loaded()
        type(&s, "900")
        _ = Reducer.reduce(&s, .keypadGo)
        XCTAssertEqual(s.player.track?.tourID, 501)
        XCTAssertEqual(s.player.track?.audioID, 10)
    }

    func testLanguageFallbackIsMarked() {
        var s = loaded(.chinese)
        type(&s, "102")
        _ = Reducer.reduce(&s, .keypadGo)
        XCTAssertEqual(s.player.track?.language, .english)
        XCTAssertEqual(s.player.track?.requested, .chinese)
        XCTAssertEqual(s.player.track?.fellBack, true)
    }

    func testSwitchingTheTrackLanguage() {
        var s = loaded()
        type(&s, "102")
        _ = Reducer.reduce(&s, .keypadGo)
        _ = Reducer.reduce(&s, .stopAudio)
        // Artwork 100 (number 101 is shared; use the chooser's first entry) has Spanish.
        type(&s, "101")
        _ = Reducer.reduce(&s, .keypadGo)
        _ = Reducer.reduce(&s, .activate)
        XCTAssertEqual(s.player.track?.artworkID, 100)
        _ = Reducer.reduce(&s, .openAudioLanguages)
        XCTAssertEqual(s.overlay, .audioLanguage(selection: 0))
        _ = Reducer.reduce(&s, .move(1))
        let e = Reducer.reduce(&s, .activate)
        XCTAssertEqual(e, [request(3, "/museum/audio/11-es.mp3", "Harbor at Dawn")])
        XCTAssertEqual(s.player.track?.language, .spanish)
        XCTAssertEqual(s.player.track?.transcript, "Un puerto tranquilo.")
    }

    func testSnapshotsOnlyForTheCurrentToken() {
        var s = loaded()
        type(&s, "102")
        _ = Reducer.reduce(&s, .keypadGo)
        let stale = PlayerSnapshot(token: 99, status: .playing, position: 3)
        XCTAssertEqual(Reducer.reduce(&s, .playerSnapshot(stale)), [])
        XCTAssertEqual(s.player.snapshot.status, .loading)
        let fresh = PlayerSnapshot(token: 1, status: .playing, position: 3, duration: 20, volume: 0.8)
        _ = Reducer.reduce(&s, .playerSnapshot(fresh))
        XCTAssertEqual(s.player.snapshot, fresh)
    }

    func testPauseSeekVolumeStop() {
        var s = loaded()
        type(&s, "102")
        _ = Reducer.reduce(&s, .keypadGo)
        _ = Reducer.reduce(&s, .playerSnapshot(PlayerSnapshot(token: 1, status: .playing, position: 5, duration: 12, volume: 0.8)))
        XCTAssertEqual(Reducer.reduce(&s, .togglePause), [.audio(.pause)])
        XCTAssertEqual(s.player.snapshot.status, .paused)
        XCTAssertEqual(Reducer.reduce(&s, .togglePause), [.audio(.resume)])
        XCTAssertEqual(Reducer.reduce(&s, .seekBy(10)), [.audio(.seek(11.5))], "clamped before the end")
        XCTAssertEqual(Reducer.reduce(&s, .seekBy(-30)), [.audio(.seek(0))])
        XCTAssertEqual(Reducer.reduce(&s, .volumeBy(0.05)), [.audio(.volume(0.85))])
        for _ in 0..<10 { _ = Reducer.reduce(&s, .volumeBy(0.05)) }
        XCTAssertEqual(s.player.volume, 1)
        XCTAssertEqual(Reducer.reduce(&s, .volumeBy(0.05)), [])
        XCTAssertEqual(Reducer.reduce(&s, .stopAudio), [.audio(.stop)])
        XCTAssertNil(s.player.track)
        XCTAssertEqual(Reducer.reduce(&s, .togglePause), [])
    }

    func testNoSoundServerRetriesWhenOneAppears() {
        var s = loaded()
        type(&s, "102")
        _ = Reducer.reduce(&s, .keypadGo)
        let down = PlayerSnapshot(token: 1, status: .failed, position: 0, volume: 0.8, failure: .noSoundServer("Connection refused"), outputAvailable: false)
        XCTAssertEqual(Reducer.reduce(&s, .playerSnapshot(down)), [])
        XCTAssertEqual(s.page.route, .player, "the transcript stays on screen")
        var up = down
        up.outputAvailable = true
        XCTAssertEqual(Reducer.reduce(&s, .playerSnapshot(up)), [request(2, "/museum/audio/12.mp3", "Clay Vessel")])
    }

    func testEndedReplaysFromTheStart() {
        var s = loaded()
        type(&s, "102")
        _ = Reducer.reduce(&s, .keypadGo)
        _ = Reducer.reduce(&s, .playerSnapshot(PlayerSnapshot(token: 1, status: .ended, position: 12, duration: 12, volume: 0.8)))
        XCTAssertEqual(Reducer.reduce(&s, .togglePause), [request(2, "/museum/audio/12.mp3", "Clay Vessel")])
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
        _ = Reducer.reduce(&unknown, .keypadGo)
        assertSnapshot(RootView.render(unknown, size: big), named: "keypad-unknown-zh-80x24")
        var chooser = loaded()
        type(&chooser, "101")
        _ = Reducer.reduce(&chooser, .keypadGo)
        assertSnapshot(RootView.render(chooser, size: big), named: "keypad-chooser-80x24")
        var p = loaded()
        type(&p, "102")
        _ = Reducer.reduce(&p, .keypadGo)
        _ = Reducer.reduce(&p, .playerSnapshot(PlayerSnapshot(token: 1, status: .playing, position: 4.2, duration: 12.5, volume: 0.8)))
        assertSnapshot(RootView.render(p, size: big), named: "player-80x24")
        assertSnapshot(RootView.render(p, size: small), named: "player-40x12")
        _ = Reducer.reduce(&p, .selectTab(.home))
        assertSnapshot(RootView.render(p, size: big), named: "mini-player-home-80x24")
        var zh = loaded(.chinese)
        type(&zh, "102")
        _ = Reducer.reduce(&zh, .keypadGo)
        _ = Reducer.reduce(&zh, .playerSnapshot(PlayerSnapshot(token: 1, status: .failed, volume: 0.8, failure: .noSoundServer("Connection refused"), outputAvailable: false)))
        assertSnapshot(RootView.render(zh, size: big), named: "player-nosound-zh-80x24")
        _ = Reducer.reduce(&zh, .openAudioLanguages)
        assertSnapshot(RootView.render(zh, size: big), named: "audio-language-zh-80x24")
    }
}

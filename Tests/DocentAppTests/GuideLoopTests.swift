import DocentTestSupport
import XCTest

@testable import DocentApp
@testable import DocentCore
@testable import DocentUI

/// The run loop, headless: a fake terminal, recorded effects, clocks the test moves.
final class GuideLoopTests: XCTestCase {
    static let catalog = StringCatalog(tables: [.english: [StringKey.tabHome.rawValue: "Home", StringKey.smallText.rawValue: "Too small: {have}, need {need}"]])

    func makeLoop(size: Size = Size(width: 80, height: 24), script: [[InputEvent]] = [], audio: FakeAudioEngine? = nil, config: [String: String] = [:]) -> (GuideLoop, FakeBackend, RecordingEffects, TestClock) {
        let backend = FakeBackend(size: size, script: script)
        let effects = RecordingEffects()
        let clock = TestClock()
        var state = AppState(source: "/museum/appData.json", catalog: Self.catalog, now: clock.wall, features: Registry.features)
        state.introSeen = true
        state.config = config
        let loop = GuideLoop(state: state, backend: backend, effects: effects, audio: audio, clock: clock.clock, monotonic: clock.monotonic)
        return (loop, backend, effects, clock)
    }

    // MARK: Drawing

    func testFirstStepDrawsAndIdleStepsDrawNothing() {
        let (loop, backend, _, _) = makeLoop()
        loop.step()
        XCTAssertEqual(backend.drawn.count, 1)
        XCTAssertEqual(loop.state.viewportRows, RootView.viewport(for: backend.size).rows, "the first frame tells the state its size")
        loop.step()
        loop.step()
        XCTAssertEqual(backend.drawn.count, 1, "nothing changed: nothing drawn")
        XCTAssertEqual(backend.waits, [100, 100, 100], "an idle loop waits its full turn")
    }

    /// Visitor Pulse checks every five seconds: one that starts and finds nothing new changes
    /// only the feature's own bookkeeping and draws nothing; one that finds the store gone
    /// changes what is shown and draws.
    func testAPulseCheckThatFindsNothingNewDrawsNothing() {
        let (loop, backend, effects, _) = makeLoop()
        loop.send(.pulse(.opened(.success(VisitorCredentials(visitor: VisitorID("visitor01")!, secret: "s")))))
        loop.send(.pulse(.checked(.success(nil))))
        loop.step()
        let drawn = backend.drawn.count
        XCTAssertEqual(drawn, 1)
        let ran = effects.ran.count
        loop.send(.pulse(.check))
        XCTAssertTrue(loop.state.pulse.checking, "the check is in flight")
        XCTAssertEqual(effects.ran.count, ran + 1, "and asked of the store")
        loop.step()
        XCTAssertEqual(backend.drawn.count, drawn, "a check starting draws nothing")
        loop.send(.pulse(.checked(.success(nil))))
        XCTAssertFalse(loop.state.pulse.checking)
        loop.step()
        XCTAssertEqual(backend.drawn.count, drawn, "nothing new: nothing drawn")
        loop.send(.pulse(.check))
        loop.send(.pulse(.checked(.failure(.unavailable("gone")))))
        XCTAssertTrue(loop.state.pulse.offline)
        loop.step()
        XCTAssertEqual(backend.drawn.count, drawn + 1, "the store gone is shown")
    }

    /// `drawsLike` is `==` but for a feature's own bookkeeping, in either direction and for a
    /// feature never written.
    func testDrawsLikeIgnoresOnlyWhatAFeatureKeepsForItself() {
        let (loop, _, _, _) = makeLoop()
        let base = loop.state
        var checking = base
        checking.pulse.checking = true
        XCTAssertNotEqual(checking, base)
        XCTAssertTrue(checking.drawsLike(base))
        XCTAssertTrue(base.drawsLike(checking))
        var offline = checking
        offline.pulse.offline = true
        XCTAssertFalse(offline.drawsLike(base))
        XCTAssertFalse(base.drawsLike(offline))
        var tab = base
        tab.tab = .search
        XCTAssertFalse(tab.drawsLike(base), "a shared field still counts")
    }

    /// A feature's state compares by value however it was written (each write is a new box;
    /// an untouched one is the same box, which compares without looking inside), and a
    /// feature never written equals one holding its initial state.
    func testFeatureStatesCompareByValueWhereverTheyWereWritten() {
        let (loop, _, _, _) = makeLoop()
        let base = loop.state
        var rewritten = base
        rewritten.pulse.checking = base.pulse.checking
        XCTAssertEqual(rewritten, base)
        XCTAssertTrue(rewritten.drawsLike(base))
        var changed = base
        changed.pulse.offline = !base.pulse.offline
        XCTAssertNotEqual(changed, base)
        XCTAssertFalse(changed.drawsLike(base))
        var back = changed
        back.pulse.offline = base.pulse.offline
        XCTAssertEqual(back, base)
        var written = FeatureStates()
        written[KioskFeature.self] = KioskFeature.initialState
        XCTAssertEqual(written, FeatureStates())
        XCTAssertTrue(written.drawsAlike(FeatureStates()))
        written[KioskFeature.self].idleSeconds += 1
        XCTAssertNotEqual(written, FeatureStates())
        XCTAssertNotEqual(FeatureStates(), written)
    }

    /// Each player command reaches the engine's own call (`AudioEngine.run`, what the shell's
    /// effects hand them to).
    func testAudioCommandsReachTheEngine() {
        let audio = FakeAudioEngine()
        let request = AudioRequest(token: 3, url: "/museum/audio/11.mp3", title: "Harbor at Dawn")
        for c in [AudioCommand.play(request), .pause, .resume, .seek(12.5), .volume(0.4), .speed(1.5), .stop] { audio.run(c) }
        XCTAssertEqual(audio.calls, [.play(request), .pause, .resume, .seek(12.5), .volume(0.4), .speed(1.5), .stop])
    }

    /// Issue 48: the engine opens what playing needs (libcurl) once the guide is on screen,
    /// not while it starts: opening it held the dynamic loader's lock and the start waited.
    func testTheEngineAndTheRunnersWarmUpOnceAfterTheFirstFrameWithTheMuseum() throws {
        let audio = FakeAudioEngine()
        let (loop, backend, effects, _) = makeLoop(audio: audio)
        loop.step()
        XCTAssertEqual(backend.drawn.count, 1)
        XCTAssertEqual(audio.warmUps, 0, "no museum yet: the start is not over")
        XCTAssertEqual(effects.warmUps, 0, "no museum yet: nothing kept for the first frame runs")
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleData/appData.json")
        guard case .success(let app) = AppDataReader.read([UInt8](try Data(contentsOf: sample)), source: sample.path) else {
            return XCTFail("SampleData reads")
        }
        loop.send(.documentLoaded(.success(Museum(app)), note: nil))
        loop.step()
        XCTAssertEqual(audio.warmUps, 1, "the first frame with the museum is drawn: warm up")
        XCTAssertEqual(effects.warmUps, 1, "and the runners' work kept for it (the pictures' libraries)")
        loop.step()
        loop.step()
        XCTAssertEqual(audio.warmUps, 1, "once")
        XCTAssertEqual(effects.warmUps, 1, "once")
        XCTAssertEqual(audio.calls, [], "warming up plays nothing")
    }

    func testResizeRedrawsAndTellsTheState() {
        let (loop, backend, _, _) = makeLoop(script: [[], [.resize(Size(width: 100, height: 30))]])
        loop.step()
        // The terminal grows while the loop waits; the resize event comes with it.
        backend.duringWait = { $0.size = Size(width: 100, height: 30) }
        loop.step()
        backend.duringWait = nil
        loop.step()
        XCTAssertEqual(backend.drawn.count, 2)
        XCTAssertEqual(backend.drawn.last?.width, 100)
        XCTAssertEqual(loop.state.viewportWidth, RootView.viewport(for: Size(width: 100, height: 30)).width)
    }

    /// Ctrl-L (issue 47 #6): the terminal is told to forget what it shows and the same frame is
    /// drawn again, though nothing in the state changed; the state is as it was.
    func testCtrlLDrawsTheSameFrameAgainWhole() {
        let (loop, backend, effects, _) = makeLoop(script: [[], [.key(.ctrl("l"))]])
        loop.step()
        let state = loop.state
        loop.step()  // reads Ctrl-L
        XCTAssertEqual(backend.drawn.count, 1)
        loop.step()  // draws
        XCTAssertEqual(backend.redrawAllCount, 1)
        XCTAssertEqual(backend.drawn.count, 2, "the frame is drawn again")
        XCTAssertEqual(backend.drawn.last, backend.drawn.first, "the same frame")
        XCTAssertTrue(loop.state.drawsLike(state), "nothing shown changed")
        XCTAssertEqual(effects.ran, [], "no effect")
        loop.step()
        XCTAssertEqual(backend.drawn.count, 2, "and once only")
    }

    func testTooSmallScreenTakesOnlyQuitAndPause() throws {
        let (loop, backend, effects, _) = makeLoop(size: Size(width: 20, height: 5), script: [[.key(.char("L")), .key(.tab), .key(.char("?"))], [.key(.char(" "))], [.key(.char("q"))]])
        loop.step()
        let screen = try XCTUnwrap(backend.drawn.last)
        XCTAssertTrue((0..<screen.height).contains { screen.row($0).contains("Too small") }, screen.dump())
        loop.step()
        XCTAssertNil(loop.state.overlay, "L and ? do nothing on the too-small screen")
        XCTAssertEqual(loop.state.tab, .home, "Tab does nothing on the too-small screen")
        loop.step()  // Space: toggles pause (nothing is playing: no effect, but it is taken)
        XCTAssertFalse(loop.step(), "q quits even here")
        XCTAssertEqual(effects.ran.filter { if case .persist = $0 { return true } else { return false } }.count, 1, "the quit saves once")
    }

    // MARK: Timers

    func testTimersFireInOrderOnTheMonotonicClockAndReplaceByID() {
        let (loop, backend, _, clock) = makeLoop()
        loop.step()
        // Two timers of the keypad flash: the second replaces the first.
        loop.send(.keypadDigit("1"))
        XCTAssertEqual(loop.state.keypad.pressed, "1")
        XCTAssertEqual(loop.timers.count, 1)
        loop.send(.keypadDigit("2"))
        XCTAssertEqual(loop.timers.count, 1, "same id: replaced")
        loop.step()
        XCTAssertLessThanOrEqual(backend.waits.last ?? 1000, 150, "the wait ends by the timer's due time")
        XCTAssertEqual(loop.state.keypad.pressed, "2", "not due yet")
        clock.advance(milliseconds: 1_000)
        loop.step()
        XCTAssertNil(loop.state.keypad.pressed, "fired once due")
        XCTAssertTrue(loop.timers.isEmpty)
    }

    /// Issue 47 #1: a banner goes after its time (a warning 20 s) and the key hints come back;
    /// it stays in the recent messages; a newer banner keeps its own time.
    func testABannerGoesAfterItsTimeAndStaysInTheRecentMessages() {
        let (loop, backend, _, clock) = makeLoop()
        loop.step()
        let hints = backend.drawn.last?.row(23)
        loop.send(.persistenceFailed("disk full"))
        let warning = loop.state.banner
        XCTAssertEqual(warning?.level, .warning)
        XCTAssertEqual(loop.state.recentBanners, warning.map { [$0] })
        XCTAssertNotNil(loop.timers[.banner])
        clock.advance(milliseconds: 19_000)
        loop.step()
        XCTAssertEqual(loop.state.banner, warning, "a warning stays 20 s")
        clock.advance(milliseconds: 1_000)
        loop.step()
        XCTAssertNil(loop.state.banner, "gone after 20 s")
        XCTAssertEqual(loop.state.recentBanners.count, 1, "still listed in help")
        XCTAssertEqual(backend.drawn.last?.row(23), hints, "the key hints are back on the bottom line")
        // A banner replaced before its time: the old timer does not take the new one away.
        loop.send(.persistenceFailed("first"))
        clock.advance(milliseconds: 15_000)
        loop.step()
        loop.send(.persistenceFailed("second"))
        clock.advance(milliseconds: 6_000)
        loop.step()
        XCTAssertEqual(loop.state.banner, Banner(.key(.bannerStateNotSaved, ["reason": .verbatim("second")]), level: .warning))
        XCTAssertEqual(loop.state.recentBanners.count, 3)
    }

    func testTickComesEveryThirtySecondsOfMonotonicTime() {
        let (loop, _, _, clock) = makeLoop()
        // Not loading (a failed load here): the loading page's second ticks are over.
        loop.send(.documentLoaded(.failure(LoadFailure("file not found: /museum/appData.json")), note: nil))
        loop.step()
        let before = loop.state.now
        clock.advance(milliseconds: 29_000)
        loop.step()
        XCTAssertEqual(loop.state.now, before)
        clock.advance(milliseconds: 1_000)
        loop.step()
        XCTAssertEqual(loop.state.now, clock.wall, "the tick carries the wall clock")
    }

    /// Issue 47 #7: a source that accepts and never answers showed "Loading…" for a minute with
    /// nothing moving. While loading the loop ticks every second and the page counts them.
    func testWhileLoadingTheLoopTicksEverySecondAndThePageCountsThem() {
        let catalog = StringCatalog(tables: [.english: [
            StringKey.tabHome.rawValue: "Home", StringKey.statusLoading.rawValue: "Loading…",
            StringKey.statusLoadingWaited.rawValue: "Loading… {seconds} s", StringKey.statusLoadingWaiting.rawValue: "Waiting for {source}. q quits.",
        ]])
        let backend = FakeBackend(size: Size(width: 80, height: 24))
        let clock = TestClock()
        var state = AppState(source: "http://127.0.0.1:9/appData.json", catalog: catalog, now: clock.wall, features: Registry.features)
        state.introSeen = true
        let loop = GuideLoop(state: state, backend: backend, effects: RecordingEffects(), clock: clock.clock, monotonic: clock.monotonic)
        loop.step()
        func rows() -> [String] { backend.drawn.last.map { d in (0..<24).map { d.row($0) } } ?? [] }
        XCTAssertTrue(rows().contains { $0.contains("Loading…") })
        for _ in 0..<3 {
            clock.advance(milliseconds: 1_000)
            loop.step()
        }
        XCTAssertEqual(loop.state.now, clock.wall, "a tick came with the third second")
        loop.step()
        let shown = rows()
        XCTAssertTrue(shown.contains { $0.contains("Loading… 3 s") }, shown.joined(separator: "\n"))
        XCTAssertTrue(shown.contains { $0.contains("Waiting for http://127.0.0.1:9/appData.json. q quits.") }, shown.joined(separator: "\n"))
    }

    // MARK: The mailbox

    func testAResultPostedDuringTheWaitWakesItAndIsHandledNextTurn() {
        let (loop, backend, effects, _) = makeLoop()
        loop.send(.launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        XCTAssertEqual(effects.ran, [.loadDocument(source: "/museum/appData.json"), .pulse(.open(.defaultFile, identity: nil, seed: "/museum/pulse/seed.json"))])
        let failure = AppAction.documentLoaded(.failure(LoadFailure("file not found: /museum/appData.json")), note: nil)
        backend.duringWait = { _ in loop.mailbox.post(failure) }
        loop.step()
        XCTAssertEqual(backend.wakes, 1, "posting woke the terminal wait")
        backend.duringWait = nil
        loop.step()
        XCTAssertEqual(loop.state.document, .failed("file not found: /museum/appData.json"))
        XCTAssertEqual(backend.waits.last, 100)
    }

    func testAResultAlreadyWaitingMeansNoWait() {
        let (loop, backend, _, _) = makeLoop()
        loop.step()
        backend.duringWait = { _ in loop.mailbox.post(.tick(Date(timeIntervalSince1970: 0))) }
        loop.step()
        backend.duringWait = nil
        // The result came after this turn drained the mailbox; the next turn takes it first.
        loop.step()
        XCTAssertEqual(loop.state.now, Date(timeIntervalSince1970: 0))
    }

    // MARK: Audio

    func testPlayerSnapshotSentOnlyWhenSomethingVisibleChanged() {
        let audio = FakeAudioEngine()
        let (loop, _, _, _) = makeLoop(audio: audio)
        audio.current = PlayerSnapshot(token: 0, status: .idle, position: 0, volume: 1)
        loop.step()
        let first = loop.state.player.snapshot
        audio.current.position = 0.01  // rounds to the same tenth: not visible
        loop.step()
        XCTAssertEqual(loop.state.player.snapshot, first)
        XCTAssertEqual(audio.snapshotsTaken, 2)
    }

    /// A loop whose state plays "Harbor at Dawn" (token 1, 60 s) and whose fake engine says so.
    func playingLoop(at position: Double = 0, notifying: Bool = false, script: [[InputEvent]] = []) -> (GuideLoop, FakeBackend, FakeAudioEngine, RecordingEffects) {
        let audio = FakeAudioEngine()
        audio.notifies = notifying
        let backend = FakeBackend(size: Size(width: 80, height: 24), script: script)
        let clock = TestClock()
        var state = AppState(source: "/museum/appData.json", catalog: Self.catalog, now: clock.wall, features: Registry.features)
        state.introSeen = true
        state.player.track = Track(audioID: 11, artworkID: nil, tourID: nil, language: .english, requested: .english,
                                   title: "Harbor at Dawn", url: "/museum/audio/11.mp3", transcript: "")
        state.player.snapshot = PlayerSnapshot(token: 1, status: .playing, position: 0, duration: 60)
        audio.current = PlayerSnapshot(token: 1, status: .playing, position: position, duration: 60)
        let effects = RecordingEffects()
        let loop = GuideLoop(state: state, backend: backend, effects: effects, audio: audio, clock: clock.clock, monotonic: clock.monotonic)
        return (loop, backend, audio, effects)
    }

    func testPositionTicksReachTheStateOncePerShownSecondAndExactlyBeforeAKey() {
        let (loop, backend, audio, effects) = playingLoop(script: [[], [], [], [], [], [], [], [], [], [], [], [], [], [.key(.right)]])
        loop.step()
        XCTAssertEqual(backend.drawn.count, 1)
        for tenth in 1...9 {
            audio.current.position = Double(tenth) / 10
            loop.step()
        }
        XCTAssertEqual(loop.state.player.snapshot.position, 0, "0:00 all along: nothing new to reduce")
        XCTAssertEqual(backend.drawn.count, 1, "nor to draw")
        audio.current.position = 1.0
        loop.step()
        XCTAssertEqual(loop.state.player.snapshot.position, 1.0)
        XCTAssertEqual(backend.drawn.count, 2, "0:01 is drawn")
        XCTAssertTrue(backend.drawn.last.map { s in (0..<s.height).contains { s.row($0).contains("0:01 / 1:00") } } ?? false, "the clock moved on")
        audio.current.position = 1.1
        audio.current.status = .paused
        loop.step()
        XCTAssertEqual(loop.state.player.snapshot.status, .paused)
        XCTAssertEqual(backend.drawn.count, 3, "anything else that changes is drawn at once")
        audio.current.position = 1.7
        loop.step()
        XCTAssertEqual(loop.state.player.snapshot.position, 1.1)
        // The next turn reads → (seek 10 s): the state takes 1.7 first, so the seek goes to 11.7.
        loop.step()
        XCTAssertEqual(loop.state.player.snapshot.position, 11.7, accuracy: 1e-9)
        XCTAssertEqual(effects.ran.last, .audio(.seek(11.7)))
    }

    func testWhilePlayingTheLoopWaitsForTheNextSecondWhenTheEngineSaysWhatElseChanged() {
        let (quiet, quietBackend, _, _) = playingLoop(at: 4.3)
        quiet.step()
        XCTAssertEqual(quietBackend.waits, [100], "an engine that does not say: looked at every turn")

        let (l, backend, audio, _) = playingLoop(at: 4.3, notifying: true)
        XCTAssertNotNil(audio.wake, "the loop gave the engine its wake")
        l.step()
        XCTAssertEqual(backend.waits, [715], "0.7 s to 0:05, and a little")
        audio.current.position = 4.99
        l.step()
        XCTAssertEqual(backend.waits.last, 25)
        audio.current.status = .paused
        l.step()
        XCTAssertEqual(backend.waits.last, 100, "paused: a plain turn")
        audio.current.status = .playing
        audio.current.position = 4.5
        l.send(.speedStep(1))
        l.step()
        XCTAssertGreaterThan(l.state.player.speed, 1)
        XCTAssertEqual(backend.waits.last, Int((500 / l.state.player.speed).rounded()) + 15, "faster: sooner")
    }

    func testLooksDifferentIsTheWholeSecondOrAnythingButThePosition() {
        let a = PlayerSnapshot(token: 1, status: .playing, position: 4.0, duration: 60)
        var b = a
        b.position = 4.9
        XCTAssertFalse(PlayerView.looksDifferent(a, b))
        b.position = 5.0
        XCTAssertTrue(PlayerView.looksDifferent(a, b))
        b.position = 3.9
        XCTAssertTrue(PlayerView.looksDifferent(a, b), "a seek back")
        b = a
        b.duration = 61
        XCTAssertTrue(PlayerView.looksDifferent(a, b))
        b = a
        XCTAssertFalse(PlayerView.looksDifferent(a, b))
    }

    // MARK: Quitting

    func testEveryQuitPathEndsRunAndShutsTheEffectsDown() {
        for (name, events) in [("q", [InputEvent.key(.char("q"))]), ("Ctrl-C", [.key(.ctrl("c"))]), ("signal", [.quitSignal])] {
            let (loop, _, effects, _) = makeLoop(script: [[], events])
            let final = loop.run()
            XCTAssertTrue(final.quitting, name)
            XCTAssertEqual(effects.shutdowns, 1, "\(name): effects shut down once")
            XCTAssertTrue(effects.ran.contains { if case .persist = $0 { return true } else { return false } }, "\(name): settings saved")
        }
        // The quit effect from the reducer ends it too (the kiosk or a test may send it).
        let (loop, _, _, _) = makeLoop()
        loop.send(.quit)
        XCTAssertFalse(loop.step())
    }

    /// Kiosk mode through the loop: q and Ctrl-C are refused, every key starts the idle time
    /// again (on the loop's monotonic clock), the idle time starts over, and a signal still
    /// ends the guide.
    func testKioskIdleTimeIsTheLoopsTimerAndOnlySignalsEndIt() {
        let (loop, _, effects, clock) = makeLoop(
            script: [[], [.key(.char("q")), .key(.ctrl("c"))], [], [.key(.char("j"))], [], [], [.quitSignal]],
            config: ["kiosk": "true", "kiosk_idle_seconds": "2"])
        loop.send(.launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        XCTAssertTrue(loop.step())
        clock.advance(milliseconds: 1500)
        XCTAssertTrue(loop.step(), "q and Ctrl-C do not quit")
        clock.advance(milliseconds: 1500)
        XCTAssertTrue(loop.step())
        XCTAssertNil(loop.state.overlay, "3 s after start, but only 1.5 s after the last key")
        clock.advance(milliseconds: 1900)
        XCTAssertTrue(loop.step())  // j, at 1.9 s: the idle time starts again
        clock.advance(milliseconds: 1900)
        XCTAssertTrue(loop.step())
        // Not the waiting screen: j woke the guide, which shows the next visitor its welcome.
        XCTAssertEqual(loop.state.overlay, .help(firstRun: true))
        clock.advance(milliseconds: 100)
        XCTAssertTrue(loop.step())
        XCTAssertEqual(loop.state.overlay, KioskFeature.show(.waiting), "2 s after the last key: waiting for the next visitor")
        XCTAssertFalse(loop.step(), "a signal ends it")
        XCTAssertTrue(loop.state.quitting)
        XCTAssertEqual(effects.ran.last, .persist(loop.state.settings))
    }

    /// Issue 45 #8: the staff code lockout lasts its 30 s on the loop's monotonic clock. It
    /// was counted from `state.now`, which moves only on the 30 s tick: three wrong codes 28 s
    /// after the last tick locked until a time the next tick, 5 s later, had already passed.
    func testTheStaffCodeLockoutLastsItsThirtySecondsOfLoopTime() {
        func code(_ c: String) -> [InputEvent] { [.key(.ctrl("x"))] + c.map { .key(.char($0)) } + [.key(.enter)] }
        let (loop, _, effects, clock) = makeLoop(
            script: [[], code("1111") + code("1112") + code("1113"), [], code("2468"), [], code("2468")],
            config: ["kiosk": "true", "kiosk_idle_seconds": "600", "kiosk_pin": "2468"])
        loop.send(.launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        XCTAssertTrue(loop.step())
        clock.advance(milliseconds: 28_000)
        XCTAssertTrue(loop.step())
        XCTAssertTrue(loop.state.kiosk.locked)
        XCTAssertEqual(loop.state.kiosk.wrongCodes, 3)
        clock.advance(milliseconds: 5_000)
        let start = loop.state.now
        XCTAssertTrue(loop.step())
        XCTAssertGreaterThan(loop.state.now, start, "the tick came and moved the state's clock")
        XCTAssertTrue(loop.step(), "the right code 5 s into the lock is refused")
        XCTAssertFalse(loop.state.kiosk.unlocked)
        XCTAssertEqual(effects.ran.last, KioskFeature.effect(.logRefused(wrongInARow: 3)))
        clock.advance(milliseconds: 25_001)
        XCTAssertTrue(loop.step())
        XCTAssertFalse(loop.state.kiosk.locked, "30 s after the third wrong code the lock is over")
        XCTAssertFalse(loop.step(), "the right code now quits")
        XCTAssertTrue(loop.state.kiosk.unlocked)
    }
}

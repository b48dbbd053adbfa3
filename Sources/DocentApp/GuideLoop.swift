import Foundation
import DocentCore
import DocentUI

/// The run loop: render, wait for input or a result (the mailbox wakes the wait), map keys to
/// actions, reduce, run effects, drain their results. One thread owns the state; it only
/// decides and draws (I/O runs in effect handlers on their own threads).
public final class GuideLoop {
    public private(set) var state: AppState
    public private(set) var lastScreen: Screen?
    let backend: TerminalBackend
    let effects: EffectHandling
    public let mailbox = Mailbox()
    /// The wall clock, for `.tick` (what the screen shows as "now").
    let clock: () -> Date
    /// A monotonic clock in nanoseconds, for timers and the tick interval: a wall clock that
    /// jumps (NTP, a suspended laptop) must not fire or starve them.
    let monotonic: () -> UInt64
    /// Polled every turn; its changes arrive as `.playerSnapshot`.
    let audio: AudioEngine?
    var lastSnapshot: PlayerSnapshot?
    /// The engine's last snapshot as it was (not rounded), for when its next second comes.
    var lastPolled: PlayerSnapshot?
    /// The engine wakes the loop when anything but the position changes.
    var audioNotifies = false
    var timers: [TimerID: (due: UInt64, action: AppAction)] = [:]
    var lastSize: Size?
    var lastTick: UInt64
    var quit = false
    /// Set by every action that changes the state; the frame is rendered only then.
    var needsDraw = true
    /// Since the last frame only the player's position moved: its lines are drawn again over
    /// the last frame (`RootView.redrawPosition`), not the whole frame.
    var onlyPositionMoved = false
    /// What a benchmark observes (`.none` in the guide): told of the first frame drawn with the
    /// museum loaded, once, and may end the loop there.
    let instrumentation: Instrumentation
    var firstLoadedFrameSeen = false
    /// How often `.tick` is sent.
    public static let tickInterval: UInt64 = 30_000_000_000
    /// How often `.tick` is sent while the museum's data is loading.
    public static let loadingTickInterval: UInt64 = 1_000_000_000

    public init(
        state: AppState, backend: TerminalBackend, effects: EffectHandling, audio: AudioEngine? = nil, clock: @escaping () -> Date,
        monotonic: @escaping () -> UInt64, instrumentation: Instrumentation = .none
    ) {
        self.instrumentation = instrumentation
        self.state = state
        self.backend = backend
        self.effects = effects
        self.audio = audio
        self.clock = clock
        self.monotonic = monotonic
        self.lastTick = monotonic()
        mailbox.wakes(backend.waker)
        // A banner the state starts with (a configuration warning) goes after its time too.
        if let b = state.banner { mailbox.post(.bannerShown(b)) }
        audioNotifies = audio?.notifiesChanges { [mailbox] in mailbox.nudge() } ?? false
    }

    /// Sends one action: reduce, then run what it returns. An action that leaves the state
    /// as it was, or changes only what a feature keeps for itself (a Visitor Pulse check
    /// starting and finding nothing new, every few seconds), draws nothing: the frame is the
    /// state's.
    public func send(_ action: AppAction) { send(action, draws: nil) }

    /// `draws`: whether the action is known to change the frame (a position in a new whole
    /// second: the state is not compared with the one before, a tenth of the loop's time
    /// while a recording plays), nil to find out.
    func send(_ action: AppAction, draws: Bool?) {
        let before = state
        let produced = Reducer.reduce(&state, action)
        if draws ?? (state != before && !state.drawsLike(before)) {
            needsDraw = true
            onlyPositionMoved = false
        }
        defer {
            // A new banner on the bottom line: recorded, and its time to go set (issue 47 #1).
            // Sent from here, after the action that set it, so no feature that sets a banner
            // has to remember it, and each reducer test still sees only what its action did.
            if let b = state.banner, b != before.banner { send(.bannerShown(b)) }
        }
        for effect in produced {
            switch effect {
            case .quit:
                quit = true
            case .timer(let id, let ms, let action):
                timers[id] = (monotonic() &+ UInt64(max(0, ms)) &* 1_000_000, action)
            default:
                effects.run(effect, mailbox: mailbox)
            }
        }
    }

    /// One turn of the loop; false once the guide should exit.
    @discardableResult
    public func step(timeoutMilliseconds: Int = 100) -> Bool {
        for a in mailbox.drain() { send(a) }
        fireTimers()
        pollAudio()
        if quit { return false }
        draw()
        if state.museum != nil, !firstLoadedFrameSeen {
            firstLoadedFrameSeen = true
            if !instrumentation.firstLoadedFrame() { return false }
            audio?.warmUp()
            effects.warmUp()
        }
        var wait = mailbox.isEmpty ? audioTurn(timeoutMilliseconds) : 0
        if let next = timers.values.map(\.due).min() {
            let now = monotonic()
            wait = min(wait, next <= now ? 0 : Int(min(UInt64(Int.max), (next - now + 999_999) / 1_000_000)))
        }
        let events = backend.readEvents(timeoutMilliseconds: wait)
        for e in events { handle(e) }
        let now = monotonic()
        // While the museum loads, a tick a second: the loading page counts the seconds on the
        // loop's clock (issue 47 #7: a source that never answered showed no progress for 60 s).
        let interval: UInt64
        if case .loading = state.document { interval = Self.loadingTickInterval } else { interval = Self.tickInterval }
        if now &- lastTick >= interval {
            lastTick = now
            send(.tick(clock()))
        }
        return !quit
    }

    /// Runs until quit, then lets the effect handler finish (pending saves, running threads).
    /// Returns the final state (already persisted by the quit action).
    public func run() -> AppState {
        while step() {}
        effects.shutdown()
        return state
    }

    func fireTimers() {
        let now = monotonic()
        // Most turns none is due: no sorted copy of them then.
        guard timers.values.contains(where: { $0.due <= now }) else { return }
        for (id, t) in timers.sorted(by: { $0.value.due < $1.value.due }) where t.due <= now {
            timers[id] = nil
            send(t.action)
        }
    }

    /// The engine's changes go to the state when the player's lines would show them (a
    /// position in the same whole second does not: ten reductions and frames a second cost
    /// the guide five times mpg123's CPU for the same minute of audio). `exact` (before every
    /// input) brings the position to the tenth, so a seek, a saved place or a key that asks
    /// "how far in" starts from where the recording really is.
    func pollAudio(exact: Bool = false) {
        guard let audio else { return }
        let polled = audio.snapshot()
        lastPolled = polled
        let snap = polled.visible
        guard snap != lastSnapshot else { return }
        if !exact, let last = lastSnapshot, !PlayerView.looksDifferent(last, snap) { return }
        let positionOnly = lastSnapshot.map { snap.differsOnlyInPosition(from: $0) } ?? false
        let drawPending = needsDraw
        lastSnapshot = snap
        // A position only, in another whole second (`looksDifferent`; not said of an `exact`
        // one, which may be in the same second): the player's lines change, so the frame does.
        send(.playerSnapshot(snap), draws: positionOnly && !exact ? true : nil)
        onlyPositionMoved = positionOnly && !drawPending
    }

    /// How long to wait for input: a turn, or while a recording plays and the engine says
    /// what else changes, until the position reaches its next whole second (what the clock
    /// shows next), at most a second.
    func audioTurn(_ turn: Int) -> Int {
        guard audioNotifies, let s = lastPolled, s.status == .playing, s.position.isFinite else { return turn }
        let toNext = (s.position.rounded(.down) + 1 - s.position) / max(0.25, state[PlayerFeature.self].speed)
        return max(10, min(1000, Int((toNext * 1000).rounded()) + 15))
    }

    func draw() {
        let size = backend.size
        if size != lastSize {
            lastSize = size
            let vp = RootView.viewport(for: size)
            send(.viewportChanged(rows: vp.rows, width: vp.width))
        }
        guard needsDraw || lastScreen == nil else { return }
        needsDraw = false
        var screen = lastScreen ?? Screen(width: 0, height: 0)
        // Let go of it first: the player's lines are then drawn into the frame in place, not
        // into a copy of its 3,000 cells every second.
        lastScreen = nil
        if onlyPositionMoved, screen.width == size.width, screen.height == size.height, let rows = RootView.redrawPosition(&screen, state) {
            backend.draw(screen, onlyRows: rows)
        } else {
            screen = RootView.render(state, size: size)
            backend.draw(screen)
        }
        onlyPositionMoved = false
        lastScreen = screen
    }

    func handle(_ event: InputEvent) {
        pollAudio(exact: true)
        switch event {
        case .quitSignal:
            send(.terminate)
        case .resize:
            needsDraw = true
            draw()
        case .key(.ctrl("l")):
            // Ctrl-L, as in every full-screen program: the whole screen written again, whatever
            // the terminal shows now (issue 47 #6). No state changes; the frame is the same.
            send(.visitorInput)
            backend.redrawAll()
            needsDraw = true
            onlyPositionMoved = false
        case .key(let k):
            send(.visitorInput)
            let size = backend.size
            if size.width < RootView.minimumSize.width || size.height < RootView.minimumSize.height {
                // Only quit and pause work on the "too small" screen.
                if k == .char("q") || k == .ctrl("c") { send(.quit) }
                if k == .char(" ") { send(.togglePause) }
                return
            }
            if let a = KeyMap.action(for: k, in: state) { send(a) }
        case .click(let x, let y):
            send(.visitorInput)
            if let screen = lastScreen, let a = KeyMap.click(x: x, y: y, on: screen) { send(a) }
        case .scrollUp:
            send(.visitorInput)
            send(.move(-3))
        case .scrollDown:
            send(.visitorInput)
            send(.move(3))
        }
    }
}

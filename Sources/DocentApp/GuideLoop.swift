import Foundation
import DocentCore
import DocentUI

/// The run loop: render, wait for input (up to 100 ms), map keys to actions, reduce, run
/// effects, drain their results. One thread owns the state.
public final class GuideLoop {
    public private(set) var state: AppState
    public private(set) var lastScreen: Screen?
    let backend: TerminalBackend
    let effects: EffectHandling
    let mailbox = Mailbox()
    let clock: () -> Date
    /// Polled every turn; its changes arrive as `.playerSnapshot`.
    let audio: AudioEngine?
    var lastSnapshot: PlayerSnapshot?
    var timers: [TimerID: (due: Date, action: AppAction)] = [:]
    var lastSize: Size?
    var lastTick: Date
    var quit = false
    /// Set by every action; the frame is rendered only when something may have changed.
    var needsDraw = true
    /// For `make bench`: `step()` returns false right after the first frame drawn with the
    /// museum loaded (DOCENT_BENCH_FIRST_FRAME=1).
    public var exitAfterFirstLoadedFrame = false

    public init(state: AppState, backend: TerminalBackend, effects: EffectHandling, audio: AudioEngine? = nil, clock: @escaping () -> Date = Date.init) {
        self.state = state
        self.backend = backend
        self.effects = effects
        self.audio = audio
        self.clock = clock
        self.lastTick = clock()
    }

    /// Sends one action: reduce, then run what it returns.
    public func send(_ action: AppAction) {
        needsDraw = true
        for effect in Reducer.reduce(&state, action) {
            switch effect {
            case .quit:
                quit = true
            case .timer(let id, let ms, let action):
                timers[id] = (clock().addingTimeInterval(Double(ms) / 1000), action)
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
        if exitAfterFirstLoadedFrame && state.museum != nil { return false }
        // While the museum is still loading its result arrives through the mailbox, which
        // does not wake the terminal wait: poll it often so the first frame is not late.
        var wait = mailbox.isEmpty ? (state.museum == nil ? min(timeoutMilliseconds, 5) : timeoutMilliseconds) : 0
        if let next = timers.values.map(\.due).min() {
            wait = min(wait, max(0, Int(next.timeIntervalSince(clock()) * 1000)))
        }
        let events = backend.readEvents(timeoutMilliseconds: wait)
        for e in events { handle(e) }
        let now = clock()
        if now.timeIntervalSince(lastTick) >= 30 {
            lastTick = now
            send(.tick(now))
        }
        return !quit
    }

    /// Runs until quit. Returns the final state (already persisted by the quit action).
    public func run() -> AppState {
        while step() {}
        return state
    }

    func fireTimers() {
        let now = clock()
        for (id, t) in timers where t.due <= now {
            timers[id] = nil
            send(t.action)
        }
    }

    func pollAudio() {
        guard let audio else { return }
        let snap = audio.snapshot().visible
        if snap != lastSnapshot {
            lastSnapshot = snap
            send(.playerSnapshot(snap))
        }
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
        let screen = RootView.render(state, size: size)
        backend.draw(screen)
        lastScreen = screen
    }

    func handle(_ event: InputEvent) {
        switch event {
        case .quitSignal:
            send(.quit)
        case .resize:
            needsDraw = true
            draw()
        case .key(let k):
            let size = backend.size
            if size.width < RootView.minimumSize.width || size.height < RootView.minimumSize.height {
                // Only quit and pause work on the "too small" screen.
                if k == .char("q") || k == .ctrl("c") { send(.quit) }
                if k == .char(" ") { send(.togglePause) }
                return
            }
            if let a = KeyMap.action(for: k, in: state) { send(a) }
        case .click(let x, let y):
            if let screen = lastScreen, let a = KeyMap.click(x: x, y: y, on: screen) { send(a) }
        case .scrollUp:
            send(.move(-3))
        case .scrollDown:
            send(.move(3))
        }
    }
}

/// Keys are data: the current context and a key give a named action (cmus's bindings).
/// Digits are left free for the Audio Guide keypad.
public enum KeyMap {
    public static func action(for key: Key, in state: AppState) -> AppAction? {
        if state.overlay != nil { return overlayAction(key, state) }
        // A feature's own page takes its keys first (search takes typed text, the map pans).
        if let a = Registry.entry(for: state)?.keys(key, state) { return a }
        if let a = playerAction(key, state) { return a }
        let onKeypad = state.page.route == .keypad
        switch key {
        case .char(let c) where c.isASCII && c.isNumber: return .keypadDigit(c)
        case .backspace where onKeypad, .delete where onKeypad: return .keypadDelete
        case .enter where onKeypad: return .keypadGo
        case .char("a") where state.page.route == .player: return .openAudioLanguages
        case .char("v"): return MapAction.showOnMap(from: state)
        case .tab: return .nextTab
        case .backTab: return .previousTab
        case .function(let n) where (1...6).contains(n): return tabAction(n)
        case .alt(let c): return c.wholeNumberValue.flatMap { (1...6).contains($0) ? tabAction($0) : nil }
        case .up, .char("k"): return .move(-1)
        case .down, .char("j"): return .move(1)
        case .pageUp: return .page(-1)
        case .pageDown: return .page(1)
        case .home, .char("g"): return .moveToStart
        case .end, .char("G"): return .moveToEnd
        case .enter, .char("l"): return .activate
        case .escape, .backspace, .char("h"): return .back
        case .char("?"): return .showHelp
        case .char("/"): return .search(.open)
        case .char("L"): return .openLanguagePicker
        case .char("q"), .ctrl("c"): return .quit
        default: return nil
        }
    }

    /// The player's keys work on every tab: Space pause, ←/→ seek 10 s, +/- volume, s stop,
    /// p open the full player.
    static func playerAction(_ key: Key, _ state: AppState) -> AppAction? {
        if let t = state.tour {
            switch key {
            case .char(" "):
                if case .waiting = t.machine.position { return .tour(.event(.arrived)) }
            case .char(">"), .char("."): return .tour(.event(.next))
            case .char("<"), .char(","): return .tour(.event(.previous(secondsIntoClip: 0)))
            case .char("m"): return .tour(.toggleMode)
            case .char("x"): return .tour(.askLeave)
            case .char("r") where t.failed: return .tour(.event(.retry))
            default: break
            }
        }
        switch key {
        case .char(" "): return .togglePause
        case .left: return .seekBy(-10)
        case .right: return .seekBy(10)
        case .char("+"), .char("="): return .volumeBy(0.05)
        case .char("-"), .char("_"): return .volumeBy(-0.05)
        case .char("s"): return .stopAudio
        case .char("p"): return .openPlayer
        default: return nil
        }
    }

    /// F1–F6 and Alt+1–6 pick a tab by its position in the full tab order.
    static func tabAction(_ n: Int) -> AppAction? {
        let all = Tab.allCases
        guard (1...all.count).contains(n) else { return nil }
        return .selectTab(all[n - 1])
    }

    static func overlayAction(_ key: Key, _ state: AppState) -> AppAction? {
        switch key {
        case .up, .char("k"): return .move(-1)
        case .down, .char("j"): return .move(1)
        case .enter, .char(" "): return .activate
        case .escape, .backspace, .char("?"): return .dismissOverlay
        case .char("q"), .ctrl("c"): return .quit
        case .char("L"):
            if case .languagePicker = state.overlay { return .dismissOverlay }
            return .openLanguagePicker
        case .function(let n) where (1...6).contains(n): return tabAction(n)
        default: return nil
        }
    }

    /// A click: whatever the renderer tagged at that cell.
    public static func click(x: Int, y: Int, on screen: Screen) -> AppAction? {
        screen.hitAction(x: x, y: y)
    }
}

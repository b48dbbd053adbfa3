/// Keys are data: the current context and a key give a named action (cmus's bindings).
/// Precedence: the features that take keys before all (`FeatureView.first`, in their
/// `keysFirst` order), a box on screen, the page's own feature, the keys features take
/// everywhere (in their `keysAnywhere` order: digits for the keypad, a tour's, the player's),
/// then these shared ones. The registry is the one in the state.
public enum KeyMap {
    public static func action(for key: Key, in state: AppState) -> AppAction? {
        for e in state.features.views(.keysFirst) { if let a = e.first(key, state) { return a } }
        if state.overlay != nil { return overlayAction(key, state) }
        // A feature's own page takes its keys first (search takes typed text, the map pans).
        if let a = state.features.view(for: state)?.keys(key, state) { return a }
        // Then the keys features take on every page (digits, the player's, a tour's).
        for e in state.features.views(.keysAnywhere) { if let a = e.anywhere(key, state) { return a } }
        switch key {
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
        case .char("L"): return .openLanguagePicker
        case .char("q"), .ctrl("c"): return .quit
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
        // A feature's box may take keys of its own first (digits, typed text).
        if case .feature(let v)? = state.overlay, let a = state.features.view(v.feature)?.overlayKeys(key, v, state) { return a }
        switch key {
        case .up, .char("k"): return .move(-1)
        case .down, .char("j"): return .move(1)
        // A long box (the key help at 40×12) pages like a page (issue 33 #19).
        case .pageUp: return .page(-1)
        case .pageDown: return .page(1)
        case .home: return .moveToStart
        case .end: return .moveToEnd
        case .enter, .char(" "): return .activate
        case .escape, .backspace, .char("?"): return .dismissOverlay
        case .char("q"), .ctrl("c"): return .quit
        case .char("L"):
            if case .languagePicker = state.overlay { return .dismissOverlay }
            return .openLanguagePicker
        case .function(let n) where (1...6).contains(n): return tabAction(n)
        // The help and the welcome teach the tab keys: they close on them and do them.
        case .tab: return isHelp(state.overlay) ? .nextTab : nil
        case .backTab: return isHelp(state.overlay) ? .previousTab : nil
        case .alt(let c): return isHelp(state.overlay) ? c.wholeNumberValue.flatMap { (1...6).contains($0) ? tabAction($0) : nil } : nil
        default: return nil
        }
    }

    static func isHelp(_ o: Overlay?) -> Bool {
        if case .help? = o { return true }
        return false
    }

    /// A click: whatever the renderer tagged at that cell.
    public static func click(x: Int, y: Int, on screen: Screen) -> AppAction? {
        screen.hitAction(x: x, y: y)
    }
}

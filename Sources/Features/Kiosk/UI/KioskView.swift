import Foundation

/// Kiosk mode's part of the screen: the "press any key" screen that waits for the next
/// visitor, and the keys it takes before all others (any key on that screen, the staff code).
public enum KioskView: ScopedTakesKeysFirst, ScopedDrawsOverlay {
    public typealias Core = KioskFeature

    public static func first(_ key: Key, _ k: KioskState, _ context: FeatureContext) -> AppAction? {
        guard k.enabled else { return nil }
        if context.box(KioskFeature.self) == .waiting { return .kiosk(.wake) }
        if k.typed != nil {
            switch key {
            case .enter: return .kiosk(.pinEnter)
            case .char(let c): return .kiosk(.pinTyped(c))
            default: return .kiosk(.pinCancel)
            }
        }
        if key == .ctrl("x"), k.pin != nil { return .kiosk(.staffKey) }
        return nil
    }

    /// The whole screen: a welcome (to the museum by its name, `museum_name`, when set) and
    /// "press any key" in the language on screen, then both in each of the guide's other
    /// languages (the last visitor's language is not the next one's; issue 47 #12: the welcome
    /// was English only).
    public static func renderOverlay(_ screen: inout Screen, _ overlay: KioskFeature.Overlay, _ state: KioskState, _ context: FeatureContext) {
        let area = screen.bounds
        screen.fill(area)
        let width = max(1, area.width - 4)
        func welcome(_ strings: Strings) -> String {
            guard let name = state.museumName else { return strings(.kioskWelcome) }
            return strings(.kioskWelcomeMuseum, ["museum": name])
        }
        var lines: [(String, Style)] = []
        for l in Wrap.lines(welcome(context.strings), width: width) { lines.append((l, Style(role: .title, bold: true))) }
        lines.append(("", .plain))
        for l in Wrap.lines(context.strings(.kioskPressAnyKey), width: width) { lines.append((l, Style(role: .accent, bold: true))) }
        let others = context.catalog.languages.filter { $0 != context.language }
        for lang in others {
            let strings = context.catalog.strings(for: lang)
            lines.append(("", .plain))
            for l in Wrap.lines(welcome(strings), width: width) { lines.append((l, Style(role: .muted, bold: true))) }
            for l in Wrap.lines(strings(.kioskPressAnyKey), width: width) { lines.append((l, Style(role: .muted))) }
        }
        let shown = lines.prefix(area.height)
        var y = area.y + max(0, (area.height - shown.count) / 2)
        for (text, style) in shown {
            let line = TextWidth.truncate(text, to: area.width)
            screen.put(line, x: area.x + max(0, (area.width - TextWidth.width(line)) / 2), y: y, style: style)
            y += 1
        }
        screen.addHitRegion(area, action: .kiosk(.wake))
    }
}

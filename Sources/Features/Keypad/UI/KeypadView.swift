import Foundation

/// The Audio Guide: the big 3×4 keypad, what was typed, and what GO found; digits from
/// every tab; the box that asks which of several things shares a number.
public enum KeypadView: ScopedTakesKeysAnywhere, ScopedDrawsOverlay {
    public typealias Core = KeypadFeature

    static let keys: [[String]] = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["del", "0", "go"]]

    public static func render(_ screen: inout Screen, _ area: Rect, _ k: KeypadState, _ context: FeatureContext) {
        let s = context.strings
        var y = area.y
        let subtitle = context.museum?.generalInfo.text("audio_subtitle", context.language)?.text ?? ""
        let prompt = subtitle.isEmpty ? s(.keypadPrompt) : subtitle
        for l in Wrap.lines(prompt, width: area.width).prefix(2) {
            screen.put(l, x: area.x, y: y, style: Style(role: .muted), clip: area)
            y += 1
        }
        // The number typed so far, in a wide field.
        let field = k.input.isEmpty ? "_ _ _ _ _" : k.input.map(String.init).joined(separator: " ")
        let fieldX = area.x + max(0, (area.width - 13) / 2)
        screen.put("[ " + field.padding(toLength: 9, withPad: " ", startingAt: 0) + " ]", x: fieldX, y: y, style: Style(role: .title, bold: true), clip: area)
        y += 1
        // Key size shrinks with the space available.
        let rowsLeft = area.maxY - y - 1
        let keyH = rowsLeft >= 12 ? 3 : 1
        let keyW = area.width >= 40 ? 9 : 7
        let gridW = keyW * 3 + 2
        let x0 = area.x + max(0, (area.width - gridW) / 2)
        for (r, row) in keys.enumerated() {
            for (c, key) in row.enumerated() {
                let rect = Rect(x: x0 + c * (keyW + 1), y: y + r * keyH, width: keyW, height: keyH)
                guard rect.maxY <= area.maxY else { continue }
                let label = key == "del" ? "⌫" : key == "go" ? s(.keypadGo) : key
                let pressed = k.pressed == key
                let style = pressed ? Style(role: .highlight, bold: true, reverse: true) : key == "go" ? Style(role: .accent, bold: true) : .plain
                if keyH == 3 {
                    screen.fill(rect, style: style)
                    Widgets.box(&screen, rect, style: style)
                } else {
                    screen.fill(rect, style: pressed ? style : Style(reverse: false))
                    screen.put("[", x: rect.x, y: rect.y, style: style)
                    screen.put("]", x: rect.maxX - 1, y: rect.y, style: style)
                }
                let lw = TextWidth.width(label)
                screen.put(label, x: rect.x + max(1, (keyW - lw) / 2), y: rect.y + keyH / 2, style: style, clip: rect)
                screen.addHitRegion(rect, action: key == "del" ? .keypadDelete : key == "go" ? .keypadGo : .keypadDigit(Character(key)))
            }
        }
        y += keyH * 4
        if y < area.maxY, let n = k.notice {
            let text: String
            switch n {
            case .empty: text = s(.keypadEmpty)
            case .unknown(let num): text = s(.keypadUnknown, ["number": num])
            case .tooLong: text = s(.keypadTooLong)
            }
            let line = TextWidth.truncate(text, to: area.width)
            screen.put(line, x: area.x + max(0, (area.width - TextWidth.width(line)) / 2), y: y, style: Style(role: .warning, bold: true), clip: area)
        } else if y < area.maxY, let title = preview(k, context) {
            // What GO will play, as the number is typed (issue 47 #4).
            let line = TextWidth.truncate(title, to: area.width)
            screen.put(line, x: area.x + max(0, (area.width - TextWidth.width(line)) / 2), y: y, style: Style(role: .accent, bold: true), clip: area)
        }
    }

    /// The title of what the number typed so far opens ("Moon Jar"); several, joined; nil
    /// when nothing has that number (yet: more digits may follow).
    static func preview(_ state: KeypadState, _ context: FeatureContext) -> String? {
        guard let app = context.museum, !state.input.isEmpty else { return nil }
        let titles = app.keypad.lookup(state.input).compactMap { t -> String? in
            switch t {
            case .artwork(let id, _): return app.artworks[id]?.title
            case .tour(let id): return app.tour(id)?.text(context.language).text.title
            }
        }
        return titles.isEmpty ? nil : titles.joined(separator: " · ")
    }

    /// On the keypad: ⌫ deletes, Enter is GO, Esc clears what was typed (then goes back).
    public static func action(for key: Key, _ state: KeypadState, _ context: FeatureContext) -> AppAction? {
        switch key {
        case .backspace, .delete: return .keypadDelete
        case .enter: return .keypadGo
        case .escape, .char("h"): return state.input.isEmpty ? nil : .keypad(.clear)
        default: return nil
        }
    }

    /// Digits type a number from every tab (the Audio Guide comes forward). `v` with a
    /// number typed that nothing has says so here; a number something has is shown on the map
    /// by the map's own `v` (`MapAction.showOnMap`).
    public static func anywhere(_ key: Key, _ state: KeypadState, _ context: FeatureContext) -> AppAction? {
        if case .char(let c) = key, c.isASCII, c.isNumber { return .keypadDigit(c) }
        if key == .char("v"), context.route == .keypad, !state.input.isEmpty,
            context.museum?.keypad.lookup(state.input).isEmpty ?? false
        {
            return .keypad(.notOnMap)
        }
        return nil
    }

    public static func renderOverlay(_ screen: inout Screen, _ overlay: KeypadFeature.Overlay, _ state: KeypadState, _ context: FeatureContext) {
        guard case .chooser(let number, let sel) = overlay, let app = context.museum else { return }
        let s = context.strings
        let lines = app.keypad.lookup(number).map { t -> String in
            switch t {
            case .artwork(let id, _):
                guard let a = app.artworks[id] else { return "?" }
                return "\(a.title) — \(PageBuilder.galleryLabel(a.galleryTitle, s))"
            case .tour(let id): return app.tour(id)?.text(context.language).text.title ?? "?"
            }
        }
        OverlayView.choices(&screen, title: s(.keypadChooseTitle, ["number": number]), lines: lines, selection: sel, footer: s(.languageFooter))
    }
}

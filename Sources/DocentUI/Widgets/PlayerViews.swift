import Foundation

/// The one-line player under every tab and the controls at the top of the full player.
public enum PlayerViews {
    /// "1:05" / "12:03" (and "1:02:03" past an hour).
    public static func time(_ seconds: Double) -> String {
        let t = max(0, Int(seconds.rounded(.down)))
        let (h, m, s) = (t / 3600, (t % 3600) / 60, t % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }

    static func glyph(_ status: PlaybackStatus) -> String {
        switch status {
        case .idle: return "■"
        case .loading, .buffering: return "…"
        case .playing: return "▶"
        case .paused: return "⏸"
        case .ended: return "✓"
        case .failed: return "!"
        }
    }

    static func statusText(_ p: PlayerState, _ s: Strings) -> String {
        if p.snapshot.status == .failed, let f = p.snapshot.failure {
            if case .noSoundServer = f { return s("player.noSound") }
            return s("player.failed", ["reason": f.description])
        }
        return s("player.status.\(p.snapshot.status.rawValue)")
    }

    /// `━━━━━━──────` filled to `fraction`.
    static func bar(_ fraction: Double?, width: Int) -> String {
        guard width > 0 else { return "" }
        let f = min(1, max(0, fraction ?? 0))
        let filled = Int((Double(width) * f).rounded())
        return String(repeating: "━", count: filled) + String(repeating: "─", count: width - filled)
    }

    static func timing(_ snap: PlayerSnapshot) -> String {
        "\(time(snap.position)) / \(snap.duration.map(time) ?? "–:––")"
    }

    static func fraction(_ snap: PlayerSnapshot) -> Double? {
        guard let d = snap.duration, d > 0 else { return nil }
        return snap.position / d
    }

    /// The mini player: glyph, title, state or bar, time. Clicking it opens the full player.
    public static func mini(_ screen: inout Screen, _ area: Rect, state: AppState) {
        let s = state.strings
        screen.fill(area, style: Style(role: .accent))
        guard let track = state.player.track else {
            screen.put(" ♪ " + TextWidth.truncate(s("player.idleHint"), to: area.width - 4), x: area.x, y: area.y, style: Style(role: .muted), clip: area)
            return
        }
        let p = state.player
        let right = " " + timing(p.snapshot) + " "
        let rw = TextWidth.width(right)
        let title = " \(glyph(p.snapshot.status)) " + track.title + (track.fellBack ? " " + s("content.inEnglishShort") : "")
        let titleRoom = max(10, area.width / 2 - 2)
        let t = TextWidth.truncate(title, to: titleRoom)
        let tw = screen.put(t, x: area.x, y: area.y, style: Style(role: .accent, bold: true), clip: area)
        let middle = area.width - tw - rw - 2
        if middle > 3 {
            if p.snapshot.status == .playing || p.snapshot.status == .paused {
                screen.put(bar(fraction(p.snapshot), width: middle), x: area.x + tw + 1, y: area.y, style: Style(role: .accent), clip: area)
            } else {
                screen.put(TextWidth.truncate(statusText(p, s), to: middle), x: area.x + tw + 1, y: area.y, style: Style(role: p.snapshot.status == .failed ? .error : .muted), clip: area)
            }
        }
        screen.put(right, x: area.maxX - rw, y: area.y, style: Style(role: .accent), clip: area)
        screen.addHitRegion(area, action: .openPlayer)
    }

    /// The controls of the full player: state and bar, time and volume, key hints.
    public static func controls(_ screen: inout Screen, _ area: Rect, state: AppState) {
        let s = state.strings
        let p = state.player
        let status = "\(glyph(p.snapshot.status)) " + statusText(p, s)
        let vol = s("player.volume", ["percent": String(Int((p.volume * 100).rounded()))])
        let timingText = timing(p.snapshot)
        Widgets.line(&screen, area, y: area.y, text: status, detail: timingText + "  " + vol, style: Style(role: p.snapshot.status == .failed ? .error : .accent, bold: true), detailStyle: Style(role: .muted))
        screen.put(bar(fraction(p.snapshot), width: area.width), x: area.x, y: area.y + 1, style: Style(role: .accent), clip: area)
        screen.put(TextWidth.truncate(s("player.keys"), to: area.width), x: area.x, y: area.y + 2, style: Style(role: .muted), clip: area)
    }
}

/// The Audio Guide: the big 3×4 keypad, what was typed, and what GO found.
public enum KeypadView {
    static let keys: [[String]] = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["del", "0", "go"]]

    public static func render(_ screen: inout Screen, _ area: Rect, state: AppState) {
        let s = state.strings
        let k = state.keypad
        var y = area.y
        let subtitle = state.museum?.generalInfo.text("audio_subtitle", state.language)?.text ?? ""
        let prompt = subtitle.isEmpty ? s("keypad.prompt") : subtitle
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
                let label = key == "del" ? "⌫" : key == "go" ? s("keypad.go") : key
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
            case .empty: text = s("keypad.empty")
            case .unknown(let num): text = s("keypad.unknown", ["number": num])
            case .tooLong: text = s("keypad.tooLong")
            }
            let line = TextWidth.truncate(text, to: area.width)
            screen.put(line, x: area.x + max(0, (area.width - TextWidth.width(line)) / 2), y: y, style: Style(role: .warning, bold: true), clip: area)
        }
    }
}

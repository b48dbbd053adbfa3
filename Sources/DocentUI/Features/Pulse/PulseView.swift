import Foundation

/// Visitor Pulse on screen: the numbered box that `f` opens, the note editor and the notes
/// list. Counts next to art are likes only: no negative number is ever drawn.
public enum PulseView: FeatureView {
    public typealias Core = PulseFeature

    /// `f` from any page (the page's own keys come first: search's query takes it as text).
    public static func anywhere(_ key: Key, in state: AppState) -> AppAction? {
        key == .char("f") && state.museum != nil ? .pulse(.open) : nil
    }

    /// Where a work, a tour or an exhibition is on screen and `f` opens Pulse for it (not on
    /// the map, where `f` changes floor), the hint line says so with its number of notes
    /// (issue 33 #4: `f` was in no hint line and no help).
    public static func anywhereHint(_ state: AppState) -> String? {
        guard state.overlay == nil, let subject = PulseFeature.currentSubject(state), subject != .museum,
            KeyMap.action(for: .char("f"), in: state) == .pulse(.open)
        else { return nil }
        return state.strings("pulse.hint", ["count": String(state.pulse.snapshot?.noteCounts[subject] ?? 0)])
    }

    public static func overlayKeys(_ key: Key, _ overlay: PulseFeature.Overlay, state: AppState) -> AppAction? {
        switch overlay {
        case .box:
            if case .char(let c) = key, let n = c.wholeNumberValue, c.isASCII, (1...5).contains(n) { return .pulse(.choose(n)) }
            if key == .char("f") { return .dismissOverlay }
            if key == .char("?") { return .pulse(.showKeys) }
            return nil
        case .editor:
            switch key {
            case .char(let c): return .pulse(.typed(String(c)))
            case .left: return .pulse(.cursorLeft)
            case .right: return .pulse(.cursorRight)
            case .home, .ctrl("a"): return .pulse(.cursorHome)
            case .end, .ctrl("e"): return .pulse(.cursorEnd)
            case .backspace: return .pulse(.deleteBackward)
            case .delete: return .pulse(.deleteForward)
            case .enter: return .pulse(.send)
            default: return nil  // Esc closes (the draft stays), Ctrl-C quits
            }
        case .notes:
            switch key {
            case .char("!"): return .pulse(.report)
            case .char("u"): return .pulse(.undoReport)
            case .char("t"): return .pulse(.toggleTimes)
            case .char("h"): return .pulse(.hideWriter)
            case .char("?"): return .pulse(.showKeys)
            default: return nil
            }
        case .keys:
            return nil  // the shared box keys: Esc, ? or Enter go back to the box
        }
    }

    public static func renderOverlay(_ screen: inout Screen, _ overlay: PulseFeature.Overlay, state: AppState) {
        switch overlay {
        case .box(let subject): box(&screen, subject, state)
        case .editor(let subject): editor(&screen, subject, state)
        case .notes(let subject): notes(&screen, subject, state)
        case .keys(let back):
            renderOverlay(&screen, back, state: state)
            let s = state.strings
            OverlayView.box(&screen, title: s("help.title"), text: HelpSection.text(HelpSection.current(state)), footer: s("pulse.keys.footer"), scroll: state.overlayScroll)
        }
    }

    /// The Pulse keys, while one of its boxes is open (the help `?` opens from the box or the
    /// notes list; in the editor `?` is text, and its keys are listed here too).
    public static func help(_ state: AppState) -> HelpSection? {
        guard PulseFeature.overlay(in: state) != nil else { return nil }
        return HelpSection(title: state.strings("help.section.pulse"), table: state.strings("help.pulseKeys"))
    }

    /// The box's lines: the visitor's current reaction marked, likes counted, notes counted.
    static func boxLines(_ subject: PulseSubject, _ state: AppState) -> [String] {
        let s = state.strings
        let snap = state.pulse.snapshot
        let mine = snap?.mine[subject]
        let likes = snap?.counts[subject]?.shownLikes ?? 0
        func mark(_ v: ReactionValue) -> String { mine == v ? "● " : "  " }
        return [
            "1 " + mark(.up) + s("pulse.like") + (likes > 0 ? "  · " + s("pulse.likes", ["n": String(likes)]) : ""),
            "2 " + mark(.meh) + s("pulse.meh"),
            "3 " + mark(.down) + s("pulse.down"),
            "4   " + s(state.pulse.draftSubject == subject && !state.pulse.draft.isEmpty ? "pulse.continue" : "pulse.write"),
            "5   " + s("pulse.read", ["count": String(snap?.noteCounts[subject] ?? 0)]),
        ]
    }

    static func box(_ screen: inout Screen, _ subject: PulseSubject, _ state: AppState) {
        let s = state.strings
        OverlayView.choices(
            &screen, title: s("pulse.box.title", ["title": PulseFeature.title(subject, state)]), lines: boxLines(subject, state),
            selection: state.pulse.boxSelection, footer: s("pulse.box.footer"))
    }

    static func editor(_ screen: inout Screen, _ subject: PulseSubject, _ state: AppState) {
        let s = state.strings
        let p = state.pulse
        let area = OverlayView.boxArea(screen, contentWidth: 70, contentHeight: 3)
        OverlayView.frame(&screen, area, title: s("pulse.editor.title", ["title": PulseFeature.title(subject, state)]), footer: s("pulse.editor.footer"))
        let field = Rect(x: area.x + 2, y: area.y + 2, width: max(1, area.width - 4), height: 1)
        screen.fill(field, style: Style(underline: true))
        // The part of the draft around the cursor that fits, the cursor in reverse.
        let chars = Array(p.draft)
        let cursor = min(max(0, p.cursor), chars.count)
        var start = cursor
        var used = 0
        while start > 0, used + TextWidth.width(of: chars[start - 1]) <= field.width - 2 {
            start -= 1
            used += TextWidth.width(of: chars[start])
        }
        var x = field.x
        for i in start..<chars.count {
            let w = TextWidth.width(of: chars[i])
            if x + w > field.maxX - (i == cursor ? 0 : 1) { break }
            let style = i == cursor ? Style(role: .highlight, reverse: true) : Style(underline: true)
            screen.put(String(chars[i]), x: x, y: field.y, style: style, clip: field)
            x += max(w, 0)
        }
        if cursor == chars.count, x < field.maxX { screen.put(" ", x: x, y: field.y, style: Style(role: .highlight, reverse: true), clip: field) }
        let cells = NoteText.cells(p.draft)
        let counter = p.sending ? s("pulse.editor.sending") : s("pulse.editor.counter", ["cells": String(cells), "max": String(NoteText.maxCells)])
        let cy = area.y + 3
        if cy < area.maxY - 1 {
            screen.put(counter, x: area.maxX - 2 - TextWidth.width(counter), y: cy, style: Style(role: cells >= NoteText.maxCells ? .error : .muted))
        }
    }

    /// "just now", "12 min ago", "3 h ago", "2 d ago"; or the date and time.
    static func age(_ date: Date, _ state: AppState) -> String {
        if state.pulse.exactTimes { return PageBuilder.formatDateTime(date, state) }
        return PulseFeature.ago(date, state)
    }

    static func notes(_ screen: inout Screen, _ subject: PulseSubject, _ state: AppState) {
        let s = state.strings
        let p = state.pulse
        let width = min(screen.width - 2, 72)
        let inner = max(1, width - 6)
        // Every note: a heading line (language, age, likes, who) and its wrapped text.
        var lines: [(String, Style, Int)] = []
        for (i, n) in p.notes.enumerated() {
            var head = "[\(n.language.code)] " + age(n.createdAt, state)
            let likes = n.counts.shownLikes
            if likes > 0 { head += " · " + s("pulse.likes", ["n": String(likes)]) }
            if n.author == .curator { head += " · " + s("pulse.curator") }
            let selected = i == p.noteSelection
            lines.append(((selected ? "› " : "  ") + head, selected ? Style(role: .highlight, bold: true) : Style(role: .muted), i))
            for l in Wrap.lines(n.text, width: inner) { lines.append(("  " + l, .plain, i)) }
        }
        if lines.isEmpty { lines = Wrap.lines(s("pulse.notes.none"), width: inner).map { ($0, Style(role: .muted), -1) } }
        let area = OverlayView.boxArea(screen, contentWidth: width - 4, contentHeight: lines.count)
        OverlayView.frame(
            &screen, area, title: s("pulse.notes.title", ["title": PulseFeature.title(subject, state), "count": String(p.notes.count)]),
            footer: s("pulse.notes.footer"))
        let visible = max(0, area.height - 4)
        // Keep the selected note's heading in view.
        let first = lines.firstIndex { $0.2 == p.noteSelection } ?? 0
        let top = max(0, min(first, lines.count - visible))
        for (k, l) in lines.dropFirst(top).prefix(visible).enumerated() {
            screen.put(TextWidth.truncate(l.0, to: area.width - 4), x: area.x + 2, y: area.y + 2 + k, style: l.1, clip: area.inset(1))
        }
    }
}

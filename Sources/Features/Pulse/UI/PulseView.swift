import Foundation

/// Visitor Pulse on screen: the numbered box that `f` opens, the note editor and the notes
/// list. Counts next to art are likes only: no negative number is ever drawn.
public enum PulseView: ScopedTakesKeysAnywhere, ScopedGivesHelp, ScopedDrawsOverlay {
    public typealias Core = PulseFeature

    /// `f` from any page (the page's own keys come first: search's query takes it as text).
    public static func anywhere(_ key: Key, _ p: PulseState, _ c: FeatureContext) -> AppAction? {
        key == .char("f") && c.museum != nil ? .pulse(.open) : nil
    }

    /// Where a work, a tour or an exhibition is on screen and `f` opens Pulse for it (not on
    /// the map, where `f` changes floor), the hint line says so with its number of notes
    /// (issue 33 #4: `f` was in no hint line and no help).
    public static func anywhereHint(_ p: PulseState, _ c: FeatureContext) -> String? {
        guard c.overlay == nil, let subject = PulseFeature.currentSubject(c), subject != .museum,
            c.keyAction(.char("f")) == .pulse(.open)
        else { return nil }
        return c.strings(.pulseHint, ["count": String(p.snapshot?.noteCounts[subject] ?? 0)])
    }

    public static func overlayKeys(_ key: Key, _ overlay: PulseFeature.Overlay, _ p: PulseState, _ c: FeatureContext) -> AppAction? {
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
            case .up: return editorVertical(p, c, by: -1) ?? .pulse(.cursorHome)
            case .down: return editorVertical(p, c, by: 1) ?? .pulse(.cursorEnd)
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
            // `H`, not `h`: `h` is back everywhere (issue 47 #10: a vim user hid the curators).
            case .char("H"): return .pulse(.hideWriter)
            case .char("d"): return .pulse(.deleteOwn)
            case .char("?"): return .pulse(.showKeys)
            default: return nil
            }
        case .keys:
            return nil  // the shared box keys: Esc, ? or Enter go back to the box
        case .visitCode:
            switch key {
            case .char(let c): return .pulse(.codeTyped(String(c)))
            case .backspace: return .pulse(.codeDeleteBackward)
            case .ctrl("u"): return .pulse(.codeCleared)
            case .enter: return .pulse(.codeEntered)
            default: return nil  // Esc: back (to the note, when it was being sent)
            }
        case .confirmDelete:
            // Only a plain `y` deletes: Enter, a stray key or Esc leave the note as it is.
            switch key {
            case .char("y"), .char("Y"): return .pulse(.confirmDelete)
            case .char("n"), .char("N"): return .pulse(.cancelDelete)
            default: return nil
            }
        }
    }

    public static func renderOverlay(_ screen: inout Screen, _ overlay: PulseFeature.Overlay, _ p: PulseState, _ c: FeatureContext) {
        switch overlay {
        case .box(let subject): box(&screen, subject, p, c)
        case .editor(let subject): editor(&screen, subject, p, c)
        case .notes(let subject): notes(&screen, subject, p, c)
        case .keys(let back):
            renderOverlay(&screen, back, p, c)
            let s = c.strings
            OverlayView.box(&screen, title: s(.helpTitle), text: HelpSection.text(c.keyHelp), footer: s(.pulseKeysFooter), scroll: c.overlayScroll)
        case .visitCode(let subject, _):
            // Alone (the note under it would show only at its edges): the text says it is kept.
            codeBox(&screen, subject, p, c)
        case .confirmDelete(let id, let back):
            renderOverlay(&screen, back, p, c)
            let s = c.strings
            // The note itself, so the visitor sees what goes.
            let text = p.notes.first { $0.id == id }.map { "“" + $0.text + "”\n\n" } ?? ""
            OverlayView.box(&screen, title: s(.pulseDeleteTitle), text: text + s(.pulseDeleteConfirm), footer: s(.pulseDeleteFooter))
        }
    }

    /// The Pulse keys, while one of its boxes is open (the help `?` opens from the box or the
    /// notes list; in the editor `?` is text, and its keys are listed here too).
    public static func help(_ p: PulseState, _ c: FeatureContext) -> HelpSection? {
        guard c.box(PulseFeature.self) != nil else { return nil }
        return HelpSection(title: c.strings(.helpSectionPulse), table: c.strings(.helpPulseKeys))
    }

    /// The box's lines: the visitor's current reaction marked, likes counted, notes counted.
    static func boxLines(_ subject: PulseSubject, _ p: PulseState, _ c: FeatureContext) -> [String] {
        let s = c.strings
        let snap = p.snapshot
        let mine = snap?.mine[subject]
        let likes = snap?.counts[subject]?.shownLikes ?? 0
        func mark(_ v: ReactionValue) -> String { mine == v ? "● " : "  " }
        return [
            "1 " + mark(.up) + s(.pulseLike) + (likes > 0 ? "  · " + s(.pulseLikes, ["n": String(likes)]) : ""),
            "2 " + mark(.meh) + s(.pulseMeh),
            "3 " + mark(.down) + s(.pulseDown),
            "4   " + s(p.draftSubject == subject && !p.draft.isEmpty ? .pulseContinue : .pulseWrite),
            "5   " + s(.pulseRead, ["count": String(snap?.noteCounts[subject] ?? 0)]),
        ]
    }

    static func box(_ screen: inout Screen, _ subject: PulseSubject, _ p: PulseState, _ c: FeatureContext) {
        let s = c.strings
        OverlayView.choices(
            &screen, title: s(.pulseBoxTitle, ["title": PulseFeature.title(subject, c)]), lines: boxLines(subject, p, c),
            selection: p.boxSelection, footer: s(.pulseBoxFooter))
    }

    static func editor(_ screen: inout Screen, _ subject: PulseSubject, _ p: PulseState, _ c: FeatureContext) {
        let s = c.strings
        let layout = EditorLayout(draft: p.draft, cursor: p.cursor, screen: Size(width: screen.width, height: screen.height))
        let area = layout.area
        OverlayView.frame(&screen, area, title: s(.pulseEditorTitle, ["title": PulseFeature.title(subject, c)]), footer: s(.pulseEditorFooter))
        let field = layout.field
        screen.fill(field, style: Style(underline: true))
        // The rows around the cursor's, each as the draft has it (its spaces too), the cursor in
        // reverse where it is.
        let cursorStyle = Style(role: .highlight, reverse: true)
        var cursorDrawn = false
        for (k, row) in (layout.top..<min(layout.rows.count, layout.top + field.height)).enumerated() {
            let y = field.y + k
            var x = field.x
            for i in layout.rows[row] {
                let w = TextWidth.width(of: layout.chars[i])
                if x + w > field.maxX { break }
                screen.put(String(layout.chars[i]), x: x, y: y, style: i == layout.cursor ? cursorStyle : Style(underline: true), clip: field)
                if i == layout.cursor { cursorDrawn = true }
                x += max(w, 0)
            }
        }
        // After the last letter (or on spaces past the row's end): a reversed blank.
        let cursorCell = Rect(x: field.x + layout.cursorColumn, y: field.y + layout.cursorRow - layout.top, width: 1, height: 1)
        if !cursorDrawn { screen.put(" ", x: cursorCell.x, y: cursorCell.y, style: cursorStyle, clip: field) }
        // Attention (a screen reader, the terminal's cursor) is where the next letter goes.
        screen.focus = cursorCell
        let cells = NoteText.cells(p.draft)
        let counter = p.sending ? s(.pulseEditorSending) : s(.pulseEditorCounter, ["cells": String(cells), "max": String(NoteText.maxCells)])
        let cy = field.maxY
        if cy < area.maxY - 1 {
            // More of the draft above or below the rows shown: an arrow at the counter's left.
            let more = (layout.top > 0 ? "↑" : "") + (layout.top + field.height < layout.rows.count ? "↓" : "")
            if !more.isEmpty { screen.put(more, x: field.x, y: cy, style: Style(role: .muted)) }
            screen.put(counter, x: area.maxX - 2 - TextWidth.width(counter), y: cy, style: Style(role: cells >= NoteText.maxCells ? .error : .muted))
        }
    }

    /// The visit code box: why it is asked and where to find it, what went wrong with the last
    /// code, and the field.
    static func codeBox(_ screen: inout Screen, _ subject: PulseSubject, _ p: PulseState, _ c: FeatureContext) {
        let s = c.strings
        let width = OverlayView.boxTextWidth(screen)
        var lines = Wrap.lines(s(.pulseGateCodeIntro), width: width).map { ($0, Style.plain) }
        if p.codeWrong { lines += Wrap.lines(s(.pulseGateCodeWrong), width: width).map { ($0, Style(role: .error)) } }
        switch p.codeProblem {
        case .notInCodes(let c)?:
            lines += Wrap.lines(s(.pulseGateCodeNotInCodes, ["char": String(c)]), width: width).map { ($0, Style(role: .error)) }
        case .length?:
            lines += Wrap.lines(s(.pulseGateCodeLength, ["count": String(VisitCodeText.length)]), width: width).map { ($0, Style(role: .error)) }
        case nil: break
        }
        let label = s(.pulseGateCodeLabel)
        let footer = s(.pulseGateCodeFooter)
        let fieldWidth = VisitCodeText.length * 2 + 1
        let contentWidth = max(lines.map { TextWidth.width($0.0) }.max() ?? 0, TextWidth.width(label) + 1 + fieldWidth, TextWidth.width(footer) + 4)
        let area = OverlayView.boxArea(screen, contentWidth: contentWidth, contentHeight: lines.count + 2)
        OverlayView.frame(&screen, area, title: s(.pulseGateCodeTitle, ["title": PulseFeature.title(subject, c)]), footer: footer)
        let inside = area.inset(1)
        // The field's row first: on a small screen the text gives way to it.
        let y = min(area.y + 3 + lines.count, area.maxY - 2)
        for (k, l) in lines.enumerated() where area.y + 2 + k < y {
            screen.put(l.0, x: area.x + 2, y: area.y + 2 + k, style: l.1, clip: inside)
        }
        screen.put(label, x: area.x + 2, y: y, style: .bold, clip: inside)
        let field = Rect(x: area.x + 3 + TextWidth.width(label), y: y, width: fieldWidth, height: 1)
        screen.fill(field, style: Style(underline: true))
        screen.put(p.codeField, x: field.x, y: y, style: Style(underline: true), clip: field)
        let cursor = Rect(x: field.x + min(p.codeField.count, fieldWidth - 1), y: y, width: 1, height: 1)
        screen.put(" ", x: cursor.x, y: y, style: Style(role: .highlight, reverse: true), clip: field)
        // Attention (a screen reader, the terminal's cursor) is where the next letter goes.
        screen.focus = cursor
    }

    /// ↑/↓ in the editor: the cursor to the nearest column of the wrapped row above or below
    /// (nil on the first or last row: the key then goes to the start or the end).
    static func editorVertical(_ p: PulseState, _ c: FeatureContext, by d: Int) -> AppAction? {
        // The terminal's size, back from the viewport the guide keeps (`RootView.viewport`).
        let size = Size(width: c.viewportWidth + 2, height: c.viewportRows + 4)
        let layout = EditorLayout(draft: p.draft, cursor: p.cursor, screen: size)
        let row = layout.cursorRow + d
        guard layout.rows.indices.contains(row) else { return nil }
        return .pulse(.cursorTo(layout.index(row: row, column: layout.cursorColumn)))
    }

    /// The highlighted note is the visitor's own: the list's keys are then `d` (delete), not
    /// `!` and `h`, which do not apply to it.
    static func ownSelected(_ p: PulseState) -> Bool {
        guard p.notes.indices.contains(p.noteSelection), let me = p.identity?.credentials.visitor else { return false }
        let n = p.notes[p.noteSelection]
        return n.author == .visitor && n.id.visitor == me
    }

    /// "just now", "12 min ago", "3 h ago", "2 d ago"; or the date and time.
    static func age(_ date: Date, _ p: PulseState, _ c: FeatureContext) -> String {
        if p.exactTimes { return PageBuilder.formatDateTime(date, c) }
        return PulseFeature.ago(date, c)
    }

    static func notes(_ screen: inout Screen, _ subject: PulseSubject, _ p: PulseState, _ c: FeatureContext) {
        let s = c.strings
        let width = min(screen.width - 2, 72)
        let inner = max(1, width - 6)
        // Every note: a heading line (language, age, likes, who) and its wrapped text.
        var lines: [(String, Style, Int)] = []
        for (i, n) in p.notes.enumerated() {
            var head = "[\(n.language.code)] " + age(n.createdAt, p, c)
            let likes = n.counts.shownLikes
            if likes > 0 { head += " · " + s(.pulseLikes, ["n": String(likes)]) }
            if n.author == .curator { head += " · " + s(.pulseCurator) }
            // One's own note says so (issue 47 #11).
            if n.author == .visitor, n.id.visitor == p.identity?.credentials.visitor { head += " · " + s(.pulseNotesYours) }
            // The author still sees their note while reports or votes hide it from others, and
            // is told so (issue 33 #9).
            if n.author == .visitor, n.id.visitor == p.identity?.credentials.visitor,
                let why = PulseFeature.rules.hidden(n, viewerReported: false), why == .reported || why == .lowScore {
                head += " · " + s(.pulseNotesHiddenOwn)
            }
            let selected = i == p.noteSelection
            lines.append(((selected ? "› " : "  ") + head, selected ? Style(role: .highlight, bold: true) : Style(role: .muted), i))
            for l in Wrap.lines(n.text, width: inner) { lines.append(("  " + l, .plain, i)) }
        }
        if lines.isEmpty { lines = Wrap.lines(s(.pulseNotesNone), width: inner).map { ($0, Style(role: .muted), -1) } }
        // The museum's notes are shown in the visitor's language, else English, else every
        // language it wrote (`PulseFeature.arranged`): when none is in the interface's, the
        // list says so, so a count that grows when the last English one is hidden is explained
        // (issue 47 #11). The count is the notes in this list.
        let museumNotes = p.notes.filter { $0.author != .visitor }
        if !museumNotes.isEmpty, !museumNotes.contains(where: { $0.language == c.language || $0.language == c.language.content }) {
            lines = Wrap.lines(s(.pulseNotesOtherLanguages), width: inner).map { ($0, Style(role: .muted), -1) } + lines
        }
        let area = OverlayView.boxArea(screen, contentWidth: width - 4, contentHeight: lines.count)
        OverlayView.frame(
            &screen, area, title: s(.pulseNotesTitle, ["title": PulseFeature.title(subject, c), "count": String(p.notes.count)]),
            footer: s(ownSelected(p) ? .pulseNotesFooterOwn : .pulseNotesFooter))
        let visible = max(0, area.height - 4)
        // Keep the selected note's heading in view.
        let first = lines.firstIndex { $0.2 == p.noteSelection } ?? 0
        let top = max(0, min(first, lines.count - visible))
        for (k, l) in lines.dropFirst(top).prefix(visible).enumerated() {
            screen.put(TextWidth.truncate(l.0, to: area.width - 4), x: area.x + 2, y: area.y + 2 + k, style: l.1, clip: area.inset(1))
        }
    }
}

/// The note editor on a screen (issue 33 #8): the draft wrapped as `Wrap.lines` wraps text,
/// over as many rows as it takes, from `minRows` up to `maxRows` or what the screen leaves
/// (a 40×12 terminal: 5); past that the rows scroll so the cursor's row shows. The drawing and
/// ↑/↓ read the same layout.
struct EditorLayout {
    /// The box starts this tall, so it reads as room to write.
    static let minRows = 3
    /// And grows to this: a 280-cell note in 70-cell rows fits whole at 80 columns.
    static let maxRows = 8
    /// Rows of the box around the text rows: the frame, a blank row above, the counter row and
    /// a blank row below.
    static let chrome = 5

    let chars: [Character]
    let cursor: Int
    /// Each wrapped row's characters (indices into `chars`): a row runs to the next row's first
    /// character, so the spaces where a line broke stay on the row before.
    let rows: [Range<Int>]
    let cursorRow: Int
    /// Cells from the row's start to the cursor (at most the field's last column).
    let cursorColumn: Int
    /// The first row shown.
    let top: Int
    let area: Rect
    let field: Rect

    init(draft: String, cursor: Int, screen: Size) {
        let chars = Array(draft)
        let cursor = min(max(0, cursor), chars.count)
        self.chars = chars
        self.cursor = cursor
        let frameScreen = Screen(width: screen.width, height: screen.height)
        let width = OverlayView.boxArea(frameScreen, contentWidth: 70, contentHeight: 1).width - 4
        // A cell kept free at each row's end, for the cursor after its last letter.
        let lines = Wrap.lines(draft, width: max(1, width - 1))
        // Where each line starts in the draft: `Wrap` only drops spaces (at a break, and
        // before the first word), so its lines are found in order, skipping spaces.
        var starts: [Int] = []
        var at = 0
        for line in lines {
            var first: Int?
            for c in line {
                while at < chars.count, chars[at] != c, chars[at] == " " { at += 1 }
                if first == nil { first = at }
                at += 1
            }
            starts.append(starts.isEmpty ? 0 : min(first ?? at, chars.count))
        }
        if starts.isEmpty { starts = [0] }
        var rows: [Range<Int>] = []
        for (k, s) in starts.enumerated() { rows.append(s..<(k + 1 < starts.count ? max(s, starts[k + 1]) : chars.count)) }
        self.rows = rows
        let row = rows.lastIndex { $0.lowerBound <= cursor } ?? 0
        cursorRow = row
        let shown = max(1, min(max(rows.count, Self.minRows), Self.maxRows, screen.height - 2 - Self.chrome))
        area = OverlayView.boxArea(frameScreen, contentWidth: 70, contentHeight: shown + 1)
        field = Rect(x: area.x + 2, y: area.y + 2, width: max(1, area.width - 4), height: shown)
        cursorColumn = min(TextWidth.width(String(chars[rows[row].lowerBound..<cursor])), field.width - 1)
        top = max(0, min(row - shown + 1, rows.count - shown))
    }

    /// The character of `row` at `column` cells from its start (the one under that column, or
    /// the row's last one; after the last row's end, the draft's end).
    func index(row: Int, column: Int) -> Int {
        let r = rows[row]
        var x = 0
        for i in r {
            let w = TextWidth.width(of: chars[i])
            if column < x + max(w, 1) { return i }
            x += w
        }
        return row == rows.count - 1 ? r.upperBound : max(r.lowerBound, r.upperBound - 1)
    }
}

/// Renders the whole state into a screen. Pure: the same state and size give the same cells.
public enum RootView {
    /// Below this the guide shows "window too small" (quit and pause still work).
    public static let minimumSize = Size(width: 40, height: 12)

    /// Rows and columns left for a page's content at a terminal size.
    public static func viewport(for size: Size) -> (rows: Int, width: Int) {
        (max(1, size.height - 4), max(1, size.width - 2))
    }

    public static func render(_ state: AppState, size: Size) -> Screen {
        var screen = Screen(width: size.width, height: size.height)
        screen.plain = state.screenReader
        let s = state.strings
        guard size.width >= minimumSize.width, size.height >= minimumSize.height else {
            renderTooSmall(&screen, size: size, strings: s)
            return screen
        }
        let areas = Areas(state, screen.bounds)
        if let above = areas.above { AboveStatus.render(&screen, above.line, row: above.row) }
        TabBar.render(&screen, areas.top, tabs: state.tabs, current: state.tab, strings: s, right: state.language.nativeName)
        let content = PageBuilder.content(state.page.route, state)
        var title: String?
        if case .list(let t, _) = content { title = t }
        if case .custom(_, let t) = content { title = t }
        if title == nil && state.depth == 1 { title = s(state.tab.screenTitleKey) }
        Widgets.rule(&screen, areas.titleRow, title: title)
        let inner = areas.inner
        let mini = areas.mini
        let marks = areas.marks
        let status = areas.status
        switch content {
        case .list(_, let rows):
            // A feature's figure on the list (a tour's picture): beside the rows, or above them.
            let figure = state.features.taking(.figure).lazy.compactMap { $0.figure(.list, state) }.first
            let area = FigureView.renderBeside(&screen, figure, in: inner, slot: .list, strings: s)
            ListView.render(&screen, area, rows: rows, selection: state.page.selection, strings: s, marks: marks)
        case .text(let page):
            // A feature's figure on the page (an exhibition's picture), beside or above the text.
            let figure = state.features.taking(.figure).lazy.compactMap { $0.figure(.page, state) }.first
            let text = FigureView.renderBeside(&screen, figure, in: inner, strings: s)
            TextView.render(&screen, text, page: page, scroll: state.page.scroll, strings: s, marks: marks)
        case .message(let text):
            for (k, l) in Wrap.lines(text, width: inner.width).prefix(inner.height).enumerated() {
                screen.put(l, x: inner.x, y: inner.y + k, style: Style(role: .muted))
            }
        case .custom(let id, _):
            state.features.view(id)?.render(&screen, inner, state)
        }
        // A page with nothing highlighted (the full player, a text page, the keypad) still
        // has a place for the visitor's attention: its first line. Else the terminal's cursor
        // stays where the last cell was written (the status line, every time the frame is
        // drawn while a recording plays) and a screen reader reads that.
        if screen.focus == nil, inner.width > 0, inner.height > 0 { screen.focus = Rect(x: inner.x, y: inner.y, width: 1, height: 1) }
        // The line under every page belongs to one feature (the mini player).
        for e in state.features.views(.footer) where e.footer(&screen, mini, state) { break }
        StatusLine.render(&screen, status, state: state)
        if let o = state.overlay {
            OverlayView.render(&screen, o, state: state)
            screen.graphics = []  // images come back when the box closes
        }
        // The transforms over the drawn frame (`FrameTransform`: the reader's Chinese script…).
        for t in FrameTransform.active(state) { t.apply(&screen, nil, state) }
        return screen
    }

    /// Where the parts of a frame go.
    struct Areas {
        var top: Rect, titleRow: Rect, inner: Rect, mini: Rect, status: Rect
        /// A page's ↑ and ↓: in the right margin of the title rule and of the mini player's line.
        var marks: ListView.Marks { ListView.Marks(x: inner.maxX, up: titleRow.y, down: mini.y) }
        /// One line above the status line when a feature has one for this page (an
        /// announcement's banner): the first such row of any feature.
        var above: (line: Rect, row: Row)?

        init(_ state: AppState, _ full: Rect) {
            let (top, rest) = full.splitTop(1)
            var (withMini, status) = rest.splitBottom(1)
            if let row = state.features.taking(.rows).lazy.flatMap({ $0.rows(for: .aboveStatus, state) }).first {
                let (upper, line) = withMini.splitBottom(1)
                withMini = upper
                above = (line, row)
            }
            let (body, mini) = withMini.splitBottom(1)
            let (titleRow, contentArea) = body.splitTop(1)
            self.top = top
            self.titleRow = titleRow
            self.inner = Rect(x: contentArea.x + 1, y: contentArea.y, width: contentArea.width - 2, height: contentArea.height)
            // The mini player's line leaves its last column to the page's ↓ (the title rule's
            // last column has the ↑): marks outside the lines that scroll.
            self.mini = Rect(x: mini.x, y: mini.y, width: max(0, mini.width - 1), height: mini.height)
            self.status = status
        }
    }

    /// Draws again only what a new position changes on `screen`, the frame drawn for the same
    /// state with another position: the mini player, and the full player's controls when it
    /// is open (the clock ticks once a second; the whole frame cost the guide more than
    /// mpg123 spends playing). Returns the rows drawn, or nil when that cannot be done
    /// exactly (a box open, the screen too small, a transform that cannot apply in part: a
    /// screen reader's frame): draw the whole frame. The frame's transforms (the reader's
    /// script) are applied to the rows drawn again.
    public static func redrawPosition(_ screen: inout Screen, _ state: AppState) -> [Int]? {
        let size = Size(width: screen.width, height: screen.height)
        let transforms = FrameTransform.active(state)
        guard size.width >= minimumSize.width, size.height >= minimumSize.height, state.overlay == nil,
            transforms.allSatisfy(\.partial)
        else { return nil }
        let areas = Areas(state, screen.bounds)
        // Set aside and put back: what the views add to them here is the same again, and
        // adding to the frame's own arrays while they are also held here copied them whole.
        let (links, regions) = (screen.links, screen.hitRegions)
        screen.links = []
        screen.hitRegions = []
        var footer = false
        for e in state.features.views(.footer) where e.footer(&screen, areas.mini, state) {
            footer = true
            break
        }
        if !footer { screen.fill(areas.mini) }
        var rows = [areas.mini.y]
        // The page's own rows that move (the full player's position): the first that has some.
        for e in state.features.views(.moving) {
            guard let moved = e.moving(&screen, areas.inner, state) else { continue }
            rows += moved
            break
        }
        for t in transforms { t.apply(&screen, rows, state) }
        // The same state drew the same links and click regions.
        screen.links = links
        screen.hitRegions = regions
        return rows
    }

    static func renderTooSmall(_ screen: inout Screen, size: Size, strings s: Strings) {
        let lines = Wrap.lines(
            s(.smallText, ["need": "\(minimumSize.width)×\(minimumSize.height)", "have": "\(size.width)×\(size.height)"]),
            width: max(1, size.width))
        let y0 = max(0, (size.height - lines.count) / 2)
        for (k, l) in lines.enumerated() where y0 + k < size.height {
            let x = max(0, (size.width - TextWidth.width(l)) / 2)
            screen.put(l, x: x, y: y0 + k, style: Style(role: .warning, bold: true))
        }
    }
}

/// The bottom line: the banner when there is one, else the keys that matter here.
public enum StatusLine {
    public static func render(_ screen: inout Screen, _ area: Rect, state: AppState) {
        let s = state.strings
        if let b = state.banner {
            let role: Style.Role = b.level == .error ? .error : b.level == .warning ? .warning : .accent
            // Screen-reader mode: a plain line of text (no reversed bar to wade through).
            let style = Style(role: role, reverse: !screen.plain)
            screen.fill(area, style: style)
            screen.put(" " + TextWidth.fit(b.text(s), to: area.width - 2), x: area.x, y: area.y, style: style, clip: area)
            return
        }
        screen.fill(area, style: Style(role: .muted, reverse: true))
        // A feature's own page may say its own (where typed keys are text, say).
        let own = state.features.view(for: state)?.hints(state)
        var hints = own ?? (state.depth > 1 ? s(.hintsDetail) : s(.hintsList))
        // The usual hints also name the features' keys that work here (Pulse's `f`, the map's `v`).
        // (When they fit: at a narrow width the page's own keys and "? help" come first, and the
        // key help lists them.)
        func filtered(_ h: String) -> String {
            var h = h
            for e in state.features.views(.hints) { h = e.filterHints(h, state) }
            return h
        }
        if own == nil {
            // Room is made by leaving out the arrows' segment, then the tabs' (issue 47 #11:
            // `f notes (N)` never showed on an 80-column Home); help lists both.
            var more = inserting(state.features.views(.keysAnywhere).compactMap { $0.anywhereHint(state) }, into: hints)
            for prefix in ["↑↓", "Tab"] where TextWidth.width(filtered(more)) > area.width - 2 {
                more = more.components(separatedBy: " · ").filter { !$0.hasPrefix(prefix) }.joined(separator: " · ")
            }
            if TextWidth.width(filtered(more)) <= area.width - 2 { hints = more }
        }
        hints = filtered(hints)
        screen.put(" " + TextWidth.fitHints(hints, to: area.width - 2), x: area.x, y: area.y, style: Style(role: .muted, reverse: true), clip: area)
    }
}

/// `segments` put before the "? help" segment of `hints` (at the end if it has none).
func inserting(_ segments: [String], into hints: String) -> String {
    guard !segments.isEmpty else { return hints }
    var parts = hints.components(separatedBy: " · ")
    let at = parts.firstIndex { $0.hasPrefix("? ") } ?? parts.count
    parts.insert(contentsOf: segments, at: at)
    return parts.joined(separator: " · ")
}

/// The line above the status line: a feature's row (its mark in its colour, then its text).
public enum AboveStatus {
    public static func render(_ screen: inout Screen, _ area: Rect, row: Row) {
        guard !area.isEmpty else { return }
        screen.fill(area, style: .plain)
        var x = area.x + 1
        if let m = row.mark {
            screen.put(m.symbol, x: x, y: area.y, style: ListView.markStyle(m.tone), clip: area)
            x += TextWidth.width(m.symbol) + 1
        }
        let room = max(0, area.maxX - 1 - x)
        screen.put(TextWidth.truncate(row.text, to: room), x: x, y: area.y, style: Style(role: .accent), clip: area)
    }
}

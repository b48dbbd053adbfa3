/// The Search tab: the query line, the filter line, the results (drawn from its own state
/// through `SearchPage.rows`, the same rows the reducer acts on) and a line of keys.
public enum SearchScreen: ScopedTakesKeysAnywhere {
    public typealias Core = SearchFeature

    /// Every printable key is typed into the query, so q, ? and digits are not keys here. On a
    /// live artwork's card: `v` for the map, then the usual keys of a text page.
    public static func hints(_ state: SearchState, _ context: FeatureContext) -> String? {
        if case .liveArtwork? = context.route(of: SearchFeature.self) { return context.strings(.searchLiveArtworkHints) }
        return context.strings(.hintsSearch)
    }

    public static func render(_ screen: inout Screen, _ area: Rect, _ state: SearchState, _ context: FeatureContext) {
        guard !area.isEmpty else { return }
        let s = context.strings
        let (queryLine, rest) = area.splitTop(1)
        renderQuery(&screen, queryLine, state, context)
        guard rest.height > 1 else { return }
        let (filterLine, below) = rest.splitTop(1)
        if state.results != nil { renderFilters(&screen, filterLine, state, context) }
        var listArea = below
        if below.height >= 10 {
            let (list, hints) = below.splitBottom(1)
            listArea = list
            screen.put(TextWidth.truncate(s(.searchHints), to: hints.width), x: hints.x, y: hints.y, style: Style(role: .muted), clip: hints)
        }
        // The selected result's picture beside the list, where there is room.
        let figure = context.figure(.list)
        listArea = FigureView.renderBeside(&screen, figure, in: listArea, slot: .list, strings: s)
        // Narrow windows give the whole line to titles: details (artist, gallery) would leave
        // only a few letters of each; which language matched stays.
        let narrow = listArea.width < 60
        let rows = SearchPage.rows(state, context).map { r -> Row in
            var row = r.row
            if narrow, row.kind == .item { row.detail = r.matchedIn }
            return row
        }
        // Clicks on rows are search's own (the list's rows belong to list pages).
        // The ↑ and ↓ in the right margin beside the filter line and the line under the results
        // (the keys, or the mini player's), not on the lines that scroll.
        let marks = ListView.Marks(x: area.maxX, up: listArea.y - 1, down: listArea.maxY)
        ListView.render(&screen, listArea, rows: rows, selection: state.selection, strings: s, marks: marks, click: { .search(.clickRow($0)) })
    }

    /// `Search: query▌` and, on the right, a quiet note about the live search.
    static func renderQuery(_ screen: inout Screen, _ area: Rect, _ state: SearchState, _ context: FeatureContext) {
        let s = context.strings
        let prompt = s(.searchPrompt) + " "
        var note = ""
        switch state.live.status {
        case .loading: note = s(.searchLiveSearching)
        case .unavailable: note = s(.searchLiveUnavailable)
        default: break
        }
        var noteWidth = TextWidth.width(note)
        if noteWidth > area.width / 2 {
            note = TextWidth.truncate(note, to: area.width / 2)
            noteWidth = TextWidth.width(note)
        }
        if noteWidth > 0 { screen.put(note, x: area.maxX - noteWidth, y: area.y, style: Style(role: .muted), clip: area) }
        let room = area.width - (noteWidth > 0 ? noteWidth + 1 : 0)
        var x = area.x
        x += screen.put(TextWidth.truncate(prompt, to: room), x: x, y: area.y, style: Style(role: .title, bold: true), clip: area)
        let left = area.x + room - x
        guard left > 1 else { return }
        if state.query.isEmpty {
            screen.put(" ", x: x, y: area.y, style: .reverse, clip: area)
            screen.put(TextWidth.truncate(s(.searchPlaceholder), to: left - 2), x: x + 2, y: area.y, style: .dim, clip: area)
            return
        }
        // Show the end of a long query: that is where typing happens.
        var q = state.query
        while TextWidth.width(q) > left - 1, !q.isEmpty { q.removeFirst() }
        x += screen.put(q, x: x, y: area.y, style: .plain, clip: area)
        screen.put(" ", x: x, y: area.y, style: .reverse, clip: area)
    }

    /// `All 12 · Artworks 8 · Tours 1 · …`, the current one reversed; when that does not fit,
    /// `‹ Artworks 8 ›`.
    static func renderFilters(_ screen: inout Screen, _ area: Rect, _ state: SearchState, _ context: FeatureContext) {
        guard state.results != nil else { return }
        let s = context.strings
        func count(_ f: SearchFilter) -> Int { SearchPage.count(f, state, context) }
        let labels = SearchFilter.allCases.map { " \(s($0.titleKey)) \(count($0)) " }
        let full = labels.reduce(0) { $0 + TextWidth.width($1) } + labels.count - 1
        let current = state.filter
        if full <= area.width {
            var x = area.x
            for (i, f) in SearchFilter.allCases.enumerated() {
                let w = TextWidth.width(labels[i])
                let style = f == current ? Style(role: .highlight, bold: true, reverse: true) : Style(role: count(f) == 0 ? .muted : .normal)
                screen.put(labels[i], x: x, y: area.y, style: style, clip: area)
                screen.addHitRegion(Rect(x: x, y: area.y, width: w, height: 1), action: .search(.setFilter(f)))
                x += w + 1
            }
        } else {
            let label = TextWidth.truncate(labels[current.rawValue], to: max(1, area.width - 4))
            screen.put("‹", x: area.x, y: area.y, style: .dim, clip: area)
            let w = screen.put(label, x: area.x + 1, y: area.y, style: Style(role: .highlight, bold: true, reverse: true), clip: area)
            screen.put("›", x: area.x + 1 + w, y: area.y, style: .dim, clip: area)
        }
    }

    /// Keys the search screen handles itself: typed characters (digits too) go to the query,
    /// `/` on any page opens the search.
    public static func anywhere(_ key: Key, _ state: SearchState, _ context: FeatureContext) -> AppAction? {
        key == .char("/") ? .search(.open) : nil
    }

    /// Backspace deletes, Ctrl-U clears, Esc clears or leaves, ↑↓ PgUp PgDn Home End move,
    /// ←→ change the filter, Enter acts, Ctrl-O shows the selection on the map. Anything else
    /// (Tab, F-keys, Ctrl-C) is left to the global key map.
    public static func action(for key: Key, _ state: SearchState, _ context: FeatureContext) -> AppAction? {
        // A live artwork's card is a text page: `v` shows the work's gallery on the map, the
        // shared keys do the rest.
        if case .liveArtwork(let a)? = context.route(of: SearchFeature.self) {
            return key == .char("v") ? .search(.showOnMap(.liveArtwork(a))) : nil
        }
        switch key {
        case .char(let c):
            guard !(c.unicodeScalars.first?.properties.generalCategory == .control) else { return nil }
            return .search(.typed(String(c)))
        case .backspace, .delete: return .search(.deleteBackward)
        case .ctrl("u"): return .search(.clear)
        case .ctrl("o"): return .search(.showSelectionOnMap)
        case .escape: return .search(.escape)
        case .up, .ctrl("p"): return .search(.move(-1))
        case .down, .ctrl("n"): return .search(.move(1))
        case .pageUp: return .search(.page(-1))
        case .pageDown: return .search(.page(1))
        case .home: return .search(.moveToStart)
        case .end: return .search(.moveToEnd)
        case .left: return .search(.previousFilter)
        case .right: return .search(.nextFilter)
        case .enter: return .search(.activate)
        default: return nil
        }
    }
}

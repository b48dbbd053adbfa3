/// Modal boxes: help (also the first-run introduction), the language picker, messages; a
/// feature's own boxes are drawn by its view (`FeatureView.renderOverlay`) in the same frames.
public enum OverlayView {
    public static func render(_ screen: inout Screen, _ overlay: Overlay, state: AppState) {
        let s = state.strings
        switch overlay {
        case .help(let firstRun):
            var text = ""
            if firstRun { text = s(.helpIntro) + "\n\n" }
            // The messages the bottom line showed, newest first and whole (a link's address
            // too): first, as whoever opens help after one went is looking for it.
            if !state.recentBanners.isEmpty {
                text += s(.helpRecentMessages) + "\n" + state.recentBanners.map { "• " + $0.text(s) }.joined(separator: "\n") + "\n\n"
            }
            text += HelpSection.text(HelpSection.current(state), width: boxTextWidth(screen))
            box(&screen, title: s(firstRun ? .helpWelcomeTitle : .helpTitle), text: text, footer: s(.overlayDismiss), scroll: state.overlayScroll)
        case .languagePicker(let sel):
            let langs = state.catalog.languages
            let lines = langs.map { ($0 == state.language ? "● " : "○ ") + $0.interfaceName }
            let area = boxArea(screen, contentWidth: max(24, lines.map(TextWidth.width).max() ?? 0, TextWidth.width(s(.languageFooter)) + 2), contentHeight: lines.count)
            frame(&screen, area, title: s(.languageTitle), footer: s(.languageFooter))
            for (i, l) in lines.enumerated() {
                let y = area.y + 2 + i
                let row = Rect(x: area.x + 2, y: y, width: area.width - 4, height: 1)
                let style = i == sel ? Style(role: .highlight, reverse: true) : .plain
                screen.fill(row, style: style)
                screen.put(l, x: row.x + 1, y: y, style: style, clip: row)
                if i == sel { screen.focus = Rect(x: row.x, y: y, width: 1, height: 1) }
                screen.addHitRegion(row, action: .setLanguage(langs[i]))
            }
        case .message(let id):
            guard let m = state.museum?.messages.first(where: { $0.id == id }) else { return }
            let t = PageBuilder.messageText(m, state)
            var body = t.body
            if let url = t.actionURL {
                // The address on lines of its own, never cut inside a name (issue 33 #17).
                let room = boxTextWidth(Size(width: screen.width, height: screen.height))
                let label = (t.actionTitle ?? s(.linkMore)) + ":"
                let oneLine = label + " " + url
                body += "\n\n" + (TextWidth.width(oneLine) <= room ? oneLine : label + "\n" + Wrap.link(url, width: room).joined(separator: "\n"))
            }
            box(&screen, title: t.title, text: body, footer: s(.overlayDismiss))
        case .feature(let v):
            state.features.view(v.feature)?.overlay(&screen, v, state)
        }
    }

    /// The languages a recording can be asked in, each marked when English will play instead
    /// (`translated`: whether the recording has that language; English always plays as itself).
    static func audioLanguageLines(_ state: AppState, translated: (Language) -> Bool) -> [String] {
        audioLanguageLines(FeatureContext(state), translated: translated)
    }

    /// The same, for a scoped view.
    static func audioLanguageLines(_ context: FeatureContext, translated: (Language) -> Bool) -> [String] {
        let instead = " " + context.strings(.playerEnglishInstead)
        return context.audioLanguages.map { $0.nativeName + ($0 == .english || translated($0) ? "" : instead) }
    }

    static func choices(_ screen: inout Screen, title: String, lines: [String], selection: Int, footer: String) {
        let width = max(30, lines.map(TextWidth.width).max() ?? 0, TextWidth.width(footer) + 4) + 2
        let area = boxArea(screen, contentWidth: width, contentHeight: lines.count)
        frame(&screen, area, title: title, footer: footer)
        for (i, l) in lines.enumerated() where 2 + i < area.height - 1 {
            let y = area.y + 2 + i
            let row = Rect(x: area.x + 2, y: y, width: area.width - 4, height: 1)
            let style = i == selection ? Style(role: .highlight, reverse: true) : .plain
            screen.fill(row, style: style)
            screen.put(TextWidth.truncate(l, to: row.width - 1), x: row.x + 1, y: y, style: style, clip: row)
            if i == selection { screen.focus = Rect(x: row.x, y: y, width: 1, height: 1) }
            screen.addHitRegion(row, action: .clickChoice(i))
        }
    }

    static func boxArea(_ screen: Screen, contentWidth: Int, contentHeight: Int) -> Rect {
        let w = min(screen.width - 2, max(contentWidth + 4, 30))
        let h = min(screen.height - 2, contentHeight + 4)
        return Rect(x: (screen.width - w) / 2, y: (screen.height - h) / 2, width: w, height: h)
    }

    static func frame(_ screen: inout Screen, _ area: Rect, title: String, footer: String) {
        // A box without borders (screen-reader mode) takes its rows whole: a line read out
        // must not mix the page behind with the box's words (issue 47 #5).
        if screen.plain { screen.fill(Rect(x: 0, y: area.y, width: screen.width, height: area.height), style: .plain) }
        screen.fill(area, style: .plain)
        Widgets.box(&screen, area, style: Style(role: .accent))
        screen.put(" " + TextWidth.fit(title, to: area.width - 6) + " ", x: area.x + 2, y: area.y, style: Style(role: .title, bold: true))
        // A box on top: attention is on its title (a choice below moves it there).
        screen.focus = Rect(x: area.x + 3, y: area.y, width: 1, height: 1)
        let f = " " + TextWidth.fitHints(footer, to: area.width - 6) + " "
        screen.put(f, x: area.maxX - 2 - TextWidth.width(f), y: area.maxY - 1, style: Style(role: .muted))
        screen.addHitRegion(area, action: .dismissOverlay)
    }

    /// A box with wrapped text, as large as the screen allows (the text is cut if it must be).
    /// Lines of wrapped text a box shows on this screen (the help overlay scrolls by them).
    /// The width of text inside a text box on this screen.
    static func boxTextWidth(_ screen: Screen) -> Int { max(1, min(screen.width - 2, 72) - 4) }

    /// The cells a text box's lines may take on `screen` (the link lines are cut to it too).
    static func boxTextWidth(_ screen: Size) -> Int { max(1, min(screen.width - 2, 72) - 4) }

    public static func boxLines(_ text: String, screen: Size) -> (lines: [String], visible: Int) {
        let lines = Wrap.lines(text, width: boxTextWidth(screen))
        let height = min(screen.height - 2, lines.count + 4)
        return (lines, max(0, height - 4))
    }

    static func box(_ screen: inout Screen, title: String, text: String, footer: String, scroll: Int = 0) {
        let (lines, visible) = boxLines(text, screen: Size(width: screen.width, height: screen.height))
        let contentWidth = lines.map(TextWidth.width).max() ?? 0
        let area = boxArea(screen, contentWidth: max(contentWidth, TextWidth.width(footer) + 4), contentHeight: lines.count)
        frame(&screen, area, title: title, footer: footer)
        let top = max(0, min(scroll, lines.count - visible))
        for (k, l) in lines.dropFirst(top).prefix(visible).enumerated() {
            screen.put(l, x: area.x + 2, y: area.y + 2 + k, style: .plain, clip: area.inset(1))
        }
        if top + visible < lines.count { screen.put("↓", x: area.maxX - 2, y: area.maxY - 2, style: .dim) }
        if top > 0 { screen.put("↑", x: area.maxX - 2, y: area.y + 1, style: .dim) }
    }
}

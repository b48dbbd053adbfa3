import Foundation

/// Builds what each route shows, in the current language, from the state.
public enum PageBuilder {
    /// Home shows this many tours before "see all".
    public static let homeTours = 6

    public static func content(_ route: Route, _ state: AppState) -> PageContent {
        let s = state.strings
        switch state.document {
        case .loading: return .message(s("status.loading"))
        case .failed(let why): return .message(s("error.document", ["reason": why]))
        case .ready: break
        }
        guard let app = state.museum else { return .message("") }
        switch route {
        case .allTours: return .list(title: state.tab == .tours && state.depth == 1 ? nil : s("home.allTours"), rows: allTourRows(app, state))
        case .tourDetail(let id):
            guard let t = app.tour(id) else { return .message(s("error.gone")) }
            return .list(title: nil, rows: tourRows(t, app, state))
        case .keypad: return .keypad
        case .feature(let r):
            guard let f = state.features[id: r.feature], let content = f.content(r, state) else { return .message(s("error.gone")) }
            return content
        case .player:
            guard let page = playerPage(app, state) else { return .message(s("player.nothing")) }
            return .player(page)
        }
    }

    // MARK: Tours (Home lists the featured ones)

    static func featuredTours(_ app: AppData) -> [Tour] {
        let featured = app.featuredTourIDs.compactMap { app.tour($0) }
        return featured.isEmpty ? app.tours : featured
    }

    static func tourRow(_ t: Tour, _ state: AppState) -> Row {
        let (text, fellBack) = t.text(state.language)
        var detail = [stopsText(t.stops.count, state.strings)]
        if let d = text.duration { detail.insert(d, at: 0) }
        let title = t.banner.map { "\(text.title) [\(tourBanner($0, state.strings))]" } ?? text.title
        if state.progress.finished.contains(t.id) {
            detail.append(state.strings("tour.finished"))
        } else if state.progress.started.contains(t.id) {
            detail.append(state.strings("tour.started"))
        }
        return Row(.item, title, detail: detail.joined(separator: " · "), action: .push(.tourDetail(t.id)), fellBack: fellBack && !t.translations.isEmpty && state.language != .english)
    }

    /// The CMS's tour banners we translate ("New", "Featured"); any other is the museum's own
    /// word, shown as written rather than as a missing key.
    static let tourBanners = ["featured", "new"]

    static func tourBanner(_ banner: String, _ s: Strings) -> String {
        let k = banner.lowercased()
        return tourBanners.contains(k) ? s("banner.\(k)") : banner
    }

    static func allTourRows(_ app: AppData, _ state: AppState) -> [Row] {
        var rows: [Row] = []
        if let intro = app.generalInfo.text("see_all_tours_intro", state.language), !intro.text.isEmpty {
            rows.append(Row(.note, intro.text, fellBack: intro.fellBack))
        }
        let grouped = !app.tours.isEmpty && app.tours.allSatisfy { $0.category != nil }
        if grouped {
            for c in app.tourCategories {
                let inCategory = app.tours.filter { $0.category == c.name }
                guard !inCategory.isEmpty else { continue }
                rows.append(Row(.header, c.name(state.language)))
                rows += inCategory.map { tourRow($0, state) }
            }
        } else {
            rows += app.tours.map { tourRow($0, state) }
        }
        return rows
    }

    // MARK: Details

    /// A tour: its texts, a start row, and one row per stop (Enter starts there).
    static func tourRows(_ t: Tour, _ app: AppData, _ state: AppState) -> [Row] {
        let s = state.strings
        let (text, fellBack) = t.text(state.language)
        var rows: [Row] = [Row(.header, text.title)]
        var facts: [String] = []
        if let d = text.duration { facts.append(d) }
        facts.append(stopsText(t.stops.count, s))
        if let f = t.floor { facts.append(s("floor.label", ["floor": f.label])) }
        if let n = t.selectorNumber { facts.append(s("tour.keypad", ["number": String(n)])) }
        rows.append(Row(.note, facts.joined(separator: " · ")))
        for para in [text.description, text.intro] where !para.isEmpty {
            rows.append(Row(.note, para, fellBack: fellBack && state.language != .english))
        }
        let running = state.tour?.machine.tourID == t.id
        rows.append(Row(.item, s(running ? "tour.restart" : "tour.start"), action: .startTour(t.id, stop: nil)))
        rows.append(Row(.header, s("tour.stopsHeading")))
        let heard = state.progress.listenedStops[t.id] ?? []
        for (i, stop) in t.stops.enumerated() {
            guard let a = app.artworks[stop.artworkID] else { continue }
            let mark = heard.contains(i) ? " ✓" : ""
            rows.append(Row(
                .item, "\(i + 1). \(a.title)\(mark)",
                detail: "\(galleryLabel(a.galleryTitle, s)), \(s("floor.label", ["floor": a.floor.label]))",
                action: .startTour(t.id, stop: i)))
        }
        return rows
    }

    /// The running tour, as lines over the player: where we are, what to do next.
    public static func tourStatus(_ state: AppState) -> [String] {
        guard let session = state.tour, let app = state.museum, let tour = app.tour(session.machine.tourID) else { return [] }
        let s = state.strings
        let m = session.machine
        var out: [String] = []
        let mode = s("tour.mode.\(m.mode.rawValue)")
        let title = tour.text(session.language).text.title
        switch m.position {
        case .intro: out.append(s("tour.status.intro", ["tour": title, "mode": mode]))
        case .complete: out.append(s("tour.status.complete", ["tour": title]))
        case .bumper(let k), .waiting(let k), .stop(let k):
            out.append(s("tour.status.stop", ["tour": title, "n": String(k + 1), "count": String(m.stops.count), "mode": mode]))
        }
        if case .waiting(let k) = m.position, let a = app.artworks[m.stops[k].artworkID] {
            out.append(s("tour.arrive", ["title": a.title, "gallery": galleryLabel(a.galleryTitle, s)]))
        }
        if session.failed { out.append(s("tour.failed")) }
        out.append(s("tour.keys"))
        return out
    }

    // MARK: Info

    /// "Gallery 201" for numbered galleries, the name itself for named ones.
    public static func galleryLabel(_ displayTitle: String, _ s: Strings) -> String {
        displayTitle.first?.isNumber == true ? s("gallery.short", ["gallery": displayTitle]) : displayTitle
    }

    static func stopsText(_ n: Int, _ s: Strings) -> String {
        n == 1 ? s("tour.stopsOne") : s("tour.stops", ["count": String(n)])
    }

    // MARK: Player

    /// The loaded track as a page: artwork facts, then the transcript in the language playing.
    public static func playerPage(_ app: AppData, _ state: AppState) -> TextPage? {
        let s = state.strings
        let tourLines = tourStatus(state)
        guard let track = state.player.track else {
            return tourLines.isEmpty ? nil : TextPage(title: tourLines[0], facts: Array(tourLines.dropFirst()), body: "")
        }
        var facts: [String] = tourLines
        var title = track.title
        var credits = ""
        if let a = track.artworkID.flatMap({ app.artworks[$0] }) {
            if a.title != track.title { facts.append(a.title) }
            title = track.title.isEmpty ? a.title : track.title
            facts += a.tombstone.split(separator: "\n").map(String.init)
            facts.append("\(galleryLabel(a.galleryTitle, s)), \(s("floor.label", ["floor": a.floor.label]))")
            credits = a.credits
        } else if let t = track.tourID.flatMap({ app.tour($0) }) {
            facts.append(t.text(state.language).text.title)
        }
        facts.append(s("player.language", ["language": track.language.nativeName]))
        if track.fellBack {
            facts.append(s("player.fellBack", ["language": track.requested.nativeName]))
        }
        var body = track.transcript.isEmpty ? s("player.noTranscript") : track.transcript
        if !credits.isEmpty { body += "\n\n" + s("player.credits") + "\n" + credits }
        return TextPage(title: title, facts: facts, body: body)
    }

    // MARK: Dates

    static func formatter(_ state: AppState, date: DateFormatter.Style, time: DateFormatter.Style) -> DateFormatter {
        DateFormats.shared.formatter(language: state.language, timeZone: state.timeZone, date: date, time: time)
    }

    // MARK: Messages

    /// A message in the current language with the CMS's `%NAME%` placeholders filled by the
    /// features that know them (a placeholder no feature fills stays as written).
    public static func messageText(_ m: Message, _ state: AppState) -> (title: String, body: String, actionTitle: String?, actionURL: String?) {
        let t = m.text(state.language)
        var values: [String: String] = [:]
        for f in state.features.all { values.merge(f.placeholders(state)) { a, _ in a } }
        let fill = { (text: String) -> String in
            guard text.contains("%") else { return text }
            var out = text
            for (k, v) in values.sorted(by: { $0.key < $1.key }) { out = out.replacingOccurrences(of: "%\(k)%", with: v) }
            return out
        }
        return (fill(t.title), fill(t.body), t.actionTitle.map(fill), m.actionURL.map(fill))
    }

    /// A calendar day (a date without a time, such as a card's expiry): shown as that day in
    /// every time zone.
    public static func formatDay(_ d: Date, _ state: AppState) -> String {
        var utc = state
        utc.timeZone = TimeZone(identifier: "UTC") ?? state.timeZone
        return formatDate(d, utc)
    }

    public static func formatDate(_ d: Date, _ state: AppState) -> String {
        formatter(state, date: .long, time: .none).string(from: d)
    }

    public static func formatDateTime(_ d: Date, _ state: AppState) -> String {
        formatter(state, date: .medium, time: .short).string(from: d)
    }

    public static func formatTime(_ d: Date, _ state: AppState) -> String {
        formatter(state, date: .none, time: .short).string(from: d)
    }
}

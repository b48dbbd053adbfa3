import Foundation

/// Builds what each route shows, in the current language, from the state.
public enum PageBuilder {
    public static func content(_ route: Route, _ state: AppState) -> PageContent {
        let s = state.strings
        switch state.document {
        case .loading:
            // After a second, how long it has waited, for what, and the way out.
            let waited = Int(state.now.timeIntervalSince(state.loadingSince))
            guard waited >= 1 else { return .message(s(.statusLoading)) }
            // On a museum's own terminal q does not quit: the line is not said there.
            let waiting = s(.statusLoadingWaiting, ["source": state.source])
            let quit = state.sharedTerminal ? "" : (waiting.hasSuffix("。") ? "" : " ") + s(.statusLoadingQuit)
            return .message(s(.statusLoadingWaited, ["seconds": String(waited)]) + "\n\n" + waiting + quit)
        case .failed(let why): return .message(s(.errorDocument, ["reason": why, "source": state.source]))
        case .ready: break
        }
        guard state.museum != nil, case .feature(let r) = route, let f = state.features[id: r.feature], let content = f.content(r, state) else {
            return .message(s(.errorGone))
        }
        if case .list(let title, var rows) = content {
            for f in state.features.taking(.decorate) { rows = f.decorate(rows, route, state) }
            return .list(title: title, rows: rows)
        }
        return content
    }

    // MARK: Info

    /// "Gallery 201, Floor 2": the separator is the language's (`101 號展間，1層`, not an ASCII
    /// comma in Chinese; issue 33 #18).
    public static func galleryAndFloor(_ galleryTitle: String, _ floor: Floor, _ s: Strings) -> String {
        s(.placeGalleryFloor, ["gallery": galleryLabel(galleryTitle, s), "floor": s(.floorLabel, ["floor": floor.label])])
    }

    /// "Gallery 201" for numbered galleries, the name itself for named ones.
    public static func galleryLabel(_ displayTitle: String, _ s: Strings) -> String {
        guard displayTitle.first?.isNumber == true else { return displayTitle }
        // "104 (Lantern Court)": the number where the language puts it, the name after it
        // (not "104 (Lantern Court)号展厅").
        if displayTitle.hasSuffix(")"), let open = displayTitle.firstIndex(of: "(") {
            let number = displayTitle[..<open].trimmingCharacters(in: .whitespaces)
            let name = displayTitle[displayTitle.index(after: open)..<displayTitle.index(before: displayTitle.endIndex)].trimmingCharacters(in: .whitespaces)
            if !number.isEmpty, !name.isEmpty, !number.contains(" ") {
                return s(.galleryShortNamed, ["gallery": number, "name": name])
            }
        }
        return s(.galleryShort, ["gallery": displayTitle])
    }

    // MARK: Dates

    static func formatter(_ state: some DatesAndLanguage, zone: TimeZone?, date: DateFormatter.Style, time: DateFormatter.Style) -> DateFormatter {
        DateFormats.shared.formatter(language: state.language, timeZone: zone ?? state.museumTimeZone ?? state.timeZone, date: date, time: time)
    }

    /// Where the museum's clocks are for something the museum dated with `utcOffset` (an event,
    /// an exhibition): the configured `time_zone`, else the offset the museum wrote. Never the
    /// machine's zone, so every machine shows the same Home.
    public static func museumZone(utcOffset: Int, _ state: some DatesAndLanguage) -> TimeZone {
        state.museumTimeZone ?? TimeZone(secondsFromGMT: utcOffset) ?? TimeZone(secondsFromGMT: 0)!
    }
    // MARK: Messages

    /// A message in the current language with the CMS's `%NAME%` placeholders filled by the
    /// features that know them (a placeholder no feature fills stays as written).
    public static func messageText(_ m: Message, _ state: AppState) -> (title: String, body: String, actionTitle: String?, actionURL: String?) {
        let t = m.text(state.language)
        var values: [String: String] = [:]
        for f in state.features.taking(.placeholders) { values.merge(f.placeholders(state)) { a, _ in a } }
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
    public static func formatDay(_ d: Date, _ state: some DatesAndLanguage) -> String { formatDay(d, language: state.language) }

    /// The same in `language` (a calendar day needs no zone but UTC's: from a feature's context).
    public static func formatDay(_ d: Date, language: Language) -> String {
        // Never nil (offset 0 is always a zone); nothing to show rather than a trap.
        let utc = TimeZone(secondsFromGMT: 0) ?? TimeZone(identifier: "UTC")
        guard let utc else { return "" }
        return firstOfTheMonth(DateFormats.shared.formatter(language: language, timeZone: utc, date: .long, time: .none).string(from: d), language)
    }

    /// The day as the museum wrote it (an exhibition's last day: "-06:00" in the feed means
    /// that day in that offset, whatever the machine's zone or the configured one).
    public static func formatDay(_ d: Date, writtenWith utcOffset: Int, _ state: some DatesAndLanguage) -> String {
        formatDate(d, state, zone: TimeZone(secondsFromGMT: utcOffset))
    }

    /// `zone` nil: the museum's configured zone, else the machine's (for instants that are the
    /// visitor's own, such as when a card was checked).
    public static func formatDate(_ d: Date, _ state: some DatesAndLanguage, zone: TimeZone? = nil) -> String {
        firstOfTheMonth(formatter(state, zone: zone, date: .long, time: .none).string(from: d), state.language)
    }

    public static func formatDateTime(_ d: Date, _ state: some DatesAndLanguage, zone: TimeZone? = nil) -> String {
        firstOfTheMonth(formatter(state, zone: zone, date: .medium, time: .short).string(from: d), state.language)
    }

    /// French writes the first of a month as an ordinal, "1er mars", which Foundation's
    /// formatter does not (issue 33 #18).
    static func firstOfTheMonth(_ date: String, _ language: Language) -> String {
        guard language.code == "fr", date.hasPrefix("1 ") else { return date }
        return "1er " + date.dropFirst(2)
    }

    public static func formatTime(_ d: Date, _ state: some DatesAndLanguage, zone: TimeZone? = nil) -> String {
        formatter(state, zone: zone, date: .none, time: .short).string(from: d)
    }
}

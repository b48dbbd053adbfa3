import Foundation

/// Info: the museum's hours and services, its links, the settings, and about the guide.
/// Other features add their rows under "The museum" (`rows(for: .infoMuseum)`).
public enum InfoFeature: ScopedContent {
    public struct State: Equatable, Sendable { public init() {} }
    public enum Action: Equatable, Sendable {}
    public enum Route: Hashable, Sendable { case info, museum, about }
    public static let id = FeatureID("info")
    public static let initialState = State()

    public static func reduce(_ state: inout State, _ action: Action, _ context: FeatureContext) -> Outcome {}

    public static func content(_ route: Route, _ state: State, _ context: FeatureContext) -> PageContent {
        guard let app = context.museum else { return .message("") }
        switch route {
        case .info: return .list(title: nil, rows: infoRows(app, context))
        case .museum: return .text(museumInfoPage(app, context))
        case .about: return .text(aboutPage(app, context))
        }
    }

    static func infoRows(_ app: AppData, _ context: FeatureContext) -> [Row] {
        let s = context.strings
        var rows: [Row] = []
        // The museum's subtitle describes its app's Info ("Access your member card…"); a kiosk
        // has no member card, so it gets the guide's own line (issue 33 #18).
        if context.sharedTerminal {
            rows.append(Row(.note, s(.infoKioskIntro)))
        } else if let sub = app.generalInfo.text("info_subtitle", context.language), !sub.text.isEmpty {
            rows.append(Row(.note, sub.text, fellBack: sub.fellBack))
        }
        rows.append(Row(.header, s(.infoMuseum)))
        rows.append(Row(.item, s(.infoHours), action: .push(.museumInfo)))
        rows += context.rows(.infoMuseum)
        let e = app.endpoints
        for (key, url) in [(StringKey.infoTickets, e.ticketsURL), (StringKey.infoMembership, e.membershipURL), (StringKey.infoWebsite, e.websiteURL)] {
            if let u = url { rows.append(Row(.link(url: u), s(key), detail: u)) }
        }
        rows.append(Row(.header, s(.infoSettings)))
        rows.append(Row(.item, s(.infoLanguage), detail: context.language.nativeName, action: .openLanguagePicker))
        rows.append(Row(.item, s(.infoLocation), detail: s(context.locationEnabled ? .settingOn : .settingOff), action: .toggleLocation))
        rows.append(Row(.header, s(.infoAboutHeader)))
        rows.append(Row(.item, s(.infoAbout), action: .push(.about)))
        return rows
    }

    static func museumInfoPage(_ app: AppData, _ context: FeatureContext) -> TextPage {
        let s = context.strings
        let gi = app.generalInfo
        var parts: [String] = []
        var fellBack = false
        func add(_ titleKey: String, _ textKey: String) {
            guard let body = gi.text(textKey, context.language), !body.text.isEmpty else { return }
            let title = gi.text(titleKey, context.language)?.text ?? ""
            parts.append(title.isEmpty ? body.text : "\(title)\n\(body.text)")
            fellBack = fellBack || body.fellBack
        }
        if let h = gi.text("museum_hours", context.language), !h.text.isEmpty {
            parts.append(s(.infoHoursHeading) + "\n" + h.text)
            fellBack = fellBack || h.fellBack
        }
        add("gift_shops_title", "gift_shops_text")
        add("members_lounge_title", "members_lounge_text")
        add("restrooms_title", "restrooms_text")
        if parts.isEmpty { parts.append(s(.infoNoInfo)) }
        return TextPage(title: s(.infoHours), body: parts.joined(separator: "\n\n"), fellBack: fellBack && context.language != .english)
    }

    static func aboutPage(_ app: AppData, _ context: FeatureContext) -> TextPage {
        let s = context.strings
        let c = ValidationReport(app: app).counts
        let facts = [
            s(.aboutVersion, ["version": DocentVersion.string]),
            s(.aboutSource, ["source": app.source]),
            s(.aboutCounts, ["artworks": String(c.artworks), "tours": String(c.tours), "galleries": String(c.galleries)]),
        ] + (context.documentNote.map { [$0.text(s)] } ?? [])
        return TextPage(title: s(.aboutTitle), facts: facts, body: s(.aboutBody) + "\n\n" + s(.aboutCredits))
    }
}

extension Route {
    public static var info: Route { InfoFeature.route(.info) }
    public static var museumInfo: Route { InfoFeature.route(.museum) }
    public static var about: Route { InfoFeature.route(.about) }
}

import Foundation

/// What Pulse adds to the guide's shared lists: "Popular right now" on Home, featured rows
/// (a mark and the tagline), announcement cards at their positions, the banner line above the
/// status line, and the hidden visitors under Info. All drawn from the last snapshot and the
/// injected clock (the context's `now`): an expired or future announcement or featured item never
/// shows.
extension PulseFeature {
    /// How many subjects "Popular right now" shows.
    public static let popularLimit = 3
    /// Below this many columns of content, "last activity 4 min ago" is "4 min ago".
    public static let narrowWidth = 60

    /// The mark of a featured row: a star (higher tiers filled), in colour.
    public static func featuredMark(tier: Int) -> Row.Mark { Row.Mark(tier >= 2 ? "★" : "☆", .warning) }
    /// The three-level marker of "popular right now": it reads without colour too.
    public static func heatMark(_ heat: PulseHeat) -> Row.Mark {
        switch heat {
        case .hot: return Row.Mark("▰▰▰", .warning, decorative: true)
        case .warm: return Row.Mark("▰▰▱", .accent, decorative: true)
        case .cold: return Row.Mark("▰▱▱", .muted, decorative: true)
        }
    }
    /// The mark of an announcement card.
    public static let cardMark = Row.Mark("◆", .accent)
    /// The mark of a banner.
    public static let bannerMark = Row.Mark("◆", .accent)

    public static func rows(for slot: RowSlot, _ p: PulseState, _ c: FeatureContext) -> [Row] {
        switch slot {
        case .home: return popularRows(p, c)
        case .homeTours: return featuredTourRows(p, c)
        case .aboveStatus: return bannerRows(p, c)
        case .infoMuseum: return hiddenRow(p, c)
        case .playerStatus, .tourPage: return []
        }
    }

    public static func decorate(_ rows: [Row], on route: DocentCore.Route, _ p: PulseState, _ c: FeatureContext) -> [Row] {
        guard let snap = p.snapshot else { return rows }
        let featured = featuredRows(rows, snap, c)
        return withCards(featured, on: route, snap, c)
    }

    // MARK: Popular right now

    /// Home's section: a header and up to `popularLimit` subjects, ranked by `PulseRanking`
    /// among the museum's tours, the exhibitions on view and the artworks (in that order, the
    /// appData order within each). Nothing until the store has answered.
    static func popularRows(_ p: PulseState, _ c: FeatureContext) -> [Row] {
        guard let snap = p.snapshot, let app = c.museum else { return [] }
        var candidates: [PulseSubject] = app.tours.map { .tour($0.id) }
        if let list = c.state(of: HomeFeature.self).exhibitions.value { candidates += list.map { .exhibition($0.id) } }
        // Only the artworks that can rank (featured, active or picked), in id order as all of
        // them were: Home drew this list by sorting a large museum's 20,000 ids on every frame
        // (issue 48: 10 ms of its first frame). Same candidates in the same order otherwise.
        var ranked = Set(snap.featured.map(\.subject)).union(snap.curatorPicks)
        ranked.formUnion(snap.activity.keys)
        candidates += ranked.compactMap { s in number(s).flatMap { s == .artwork($0) && app.artworks[$0] != nil ? $0 : nil } }.sorted().map { .artwork($0) }
        let entries = PulseRanking.rank(
            candidates, featured: snap.featured, activity: snap.activity, curatorPicks: snap.curatorPicks, now: c.now, limit: popularLimit)
        guard !entries.isEmpty else { return [] }
        let s = c.strings
        var rows = [Row(.header, s(.pulsePopularTitle))]
        for e in entries {
            let detail: String
            if let last = e.activity.last {
                // A narrow terminal gets the age alone, so the number is never cut off.
                detail = c.viewportWidth < narrowWidth ? ago(last, c) : s(.pulsePopularLast, ["age": ago(last, c)])
            } else if e.tier > 0 {
                detail = s(.pulsePopularFeatured)
            } else {
                detail = s(.pulsePopularPick)
            }
            rows.append(Row(.item, title(e.subject, c), detail: detail, action: open(e.subject, c), mark: heatMark(e.heat)))
        }
        return rows
    }

    /// What Enter does on a subject's row: its page, or for an artwork its commentary.
    static func open(_ subject: PulseSubject, _ c: FeatureContext) -> RowAction? {
        guard let id = number(subject) else { return nil }
        switch subject.kind {
        case "tour": return .push(.tourDetail(id))
        case "exhibition": return .push(.exhibitionDetail(id))
        case "artwork":
            guard let commentary = c.museum?.artworks[id]?.commentaries.first else { return nil }
            return .send(.play(audioID: commentary.audioID, artworkID: id, tourID: nil))
        default: return nil
        }
    }

    /// "just now", "12 min ago", "3 h ago", "2 d ago" before the context's `now`.
    public static func ago(_ date: Date, _ c: FeatureContext) -> String {
        let s = c.strings
        // A time from a damaged store or a hostile service (-1e300) is bounded before Int().
        let secs = c.now.timeIntervalSince(date)
        if !(secs >= 60) { return s(.pulseAgeNow) }
        if secs < 3600 { return s(.pulseAgeMinutes, ["n": String(PulseBounds.whole(secs, per: 60))]) }
        if secs < 86400 { return s(.pulseAgeHours, ["n": String(PulseBounds.whole(secs, per: 3600))]) }
        return s(.pulseAgeDays, ["n": String(PulseBounds.whole(secs, per: 86400))])
    }

    // MARK: Featured rows

    /// The subject a row opens (a tour's or an exhibition's page), if Pulse knows it.
    public static func subject(of row: Row) -> PulseSubject? {
        guard row.kind == .item, case .push(let route)? = row.action, case .feature(let v) = route else { return nil }
        if case .detail(let id)? = v.as(TourFeature.Route.self) { return .tour(id) }
        if case .exhibition(let id)? = v.as(HomeFeature.Route.self) { return .exhibition(id) }
        return nil
    }

    /// What a highlighted row is about for `f`: the page it opens, or the artwork whose
    /// commentary it plays.
    static func highlighted(_ row: Row) -> PulseSubject? {
        if let s = subject(of: row) { return s }
        guard row.kind == .item, case .send(.feature(let v))? = row.action, case .play(_, let artwork?, _)? = v.as(PlayerAction.self) else { return nil }
        return .artwork(artwork)
    }

    /// Featured rows marked, their tagline under them, and each run of rows about subjects
    /// ordered by tier (higher first; ties keep their order). Rows already marked are kept as
    /// they are.
    static func featuredRows(_ rows: [Row], _ snap: PulseSnapshot, _ c: FeatureContext) -> [Row] {
        var tiers: [PulseSubject: PulseFeatured] = [:]
        for f in snap.featured where f.isActive(at: c.now) && f.tier > 0 {
            if (tiers[f.subject]?.tier ?? 0) < f.tier { tiers[f.subject] = f }
        }
        guard !tiers.isEmpty else { return rows }
        var out: [Row] = []
        var run: [Row] = []
        func flush() {
            let sorted = PulseRanking.byTier(run, subject: { subject(of: $0) ?? .museum }, featured: Array(tiers.values), now: c.now)
            for var r in sorted {
                guard let s = subject(of: r), let f = tiers[s] else {
                    out.append(r)
                    continue
                }
                r.mark = featuredMark(tier: f.tier)
                out.append(r)
                // A tagline staff wrote only in English is marked so (issue 33 #18).
                let own = f.taglines[c.language] ?? f.taglines[c.language.content]
                if let t = f.tagline(c.language), !t.isEmpty { out.append(Row(.note, t, fellBack: own == nil && c.language.content != .english)) }
            }
            run = []
        }
        // A row another part already marked (Popular right now's) is left as it is.
        for r in rows {
            if r.mark == nil, subject(of: r) != nil {
                run.append(r)
            } else {
                flush()
                out.append(r)
            }
        }
        flush()
        return out
    }

    /// The tours staff feature now, as Home's tour rows (Home adds those it does not list;
    /// `decorate` then stars and orders them by tier).
    static func featuredTourRows(_ p: PulseState, _ c: FeatureContext) -> [Row] {
        guard let snap = p.snapshot, let app = c.museum else { return [] }
        var seen = Set<Int>()
        return snap.featured
            .filter { $0.isActive(at: c.now) && $0.tier > 0 }
            .sorted { $0.tier > $1.tier }
            .compactMap { f -> Row? in
                let parts = f.subject.key.split(separator: ":")
                guard parts.count == 2, parts[0] == "tour", let id = Int(parts[1]), seen.insert(id).inserted, let tour = app.tour(id) else { return nil }
                return TourFeature.tourRow(tour, c.state(of: TourFeature.self).progress, c)
            }
    }

    // MARK: Announcements

    /// The keys a list page is matched by: its tab at the tab's root, the page's subject and
    /// what it lists (a tour page's stops, their artworks and galleries; an exhibition's
    /// gallery).
    static func listKeys(_ rows: [Row], on route: DocentCore.Route, _ c: FeatureContext) -> [String] {
        var keys: [String] = []
        if route == DocentCore.Route.root(of: c.tab) { keys.append("tab:\(c.tab.rawValue)") }
        // The page's subject with what it contains (a tour page lists its stops); a listed
        // row by its own key and, for an exhibition, its gallery (a tour listed on Home does
        // not bring in every gallery its stops are in).
        if let page = pageSubject(route) { keys += expand(page, c) }
        for s in rows.compactMap(subject(of:)) { keys += s.kind == "tour" ? [s.key] : expand(s, c) }
        var seen = Set<String>()
        return keys.filter { seen.insert($0).inserted }
    }

    /// A subject's key and the keys of what it contains.
    static func expand(_ subject: PulseSubject, _ c: FeatureContext) -> [String] {
        var keys = [subject.key]
        guard let app = c.museum, let id = number(subject) else { return keys }
        switch subject.kind {
        case "tour":
            guard let t = app.tour(id) else { break }
            for stop in t.stops {
                keys.append(PulseSubject.stop(tour: id, sort: stop.sort).key)
                keys.append(PulseSubject.artwork(stop.artworkID).key)
                if let a = app.artworks[stop.artworkID] { keys.append(PulseSubject.gallery(a.galleryID).key) }
            }
        case "exhibition":
            if let gid = c.state(of: HomeFeature.self).exhibitions.value?.first(where: { $0.id == id })?.galleryID,
                let g = app.galleries.values.filter({ $0.galleryID == gid }).map(\.id).min()
            {
                keys.append(PulseSubject.gallery(g).key)
            }
        default: break
        }
        return keys
    }

    /// The subject of a page (a tour's, an exhibition's).
    static func pageSubject(_ route: DocentCore.Route) -> PulseSubject? {
        guard case .feature(let v) = route else { return nil }
        if case .detail(let id)? = v.as(TourFeature.Route.self) { return .tour(id) }
        if case .exhibition(let id)? = v.as(HomeFeature.Route.self) { return .exhibition(id) }
        return nil
    }

    /// Cards of the announcements matching the list, each at its positions (0: first row;
    /// a position past the end of the list is left out).
    static func withCards(_ rows: [Row], on route: DocentCore.Route, _ snap: PulseSnapshot, _ c: FeatureContext) -> [Row] {
        let active = snap.announcements.filter { $0.style == .card && $0.isActive(at: c.now) }
        guard !active.isEmpty else { return rows }
        let matched = PulseAnnouncements.matching(active, style: .card, keys: listKeys(rows, on: route, c), language: c.language, now: c.now)
        let cards = matched.count > PulseAnnouncements.maxCardsPerList ? Array(matched.sorted { $0.id < $1.id }.prefix(PulseAnnouncements.maxCardsPerList)) : matched
        guard !cards.isEmpty else { return rows }
        var placed: [(Int, Int, Row)] = []
        for (k, a) in cards.enumerated() {
            let text = PulseAnnouncements.text(a, c.language)
            let row = a.link.map { Row(.link(url: $0), text, detail: $0, mark: cardMark) } ?? Row(.note, text, mark: cardMark)
            for p in Set(a.positions.isEmpty ? [0] : a.positions) where p >= 0 && p <= rows.count { placed.append((p, k, row)) }
        }
        var out = rows
        // From the last position back, so earlier positions still mean the list as it was.
        for (p, _, row) in placed.sorted(by: { ($0.0, $0.1) > ($1.0, $1.1) }) { out.insert(row, at: p) }
        return out
    }

    /// The banner for this page: the first active one (by id) whose patterns match the tab or
    /// the page's subject.
    static func bannerRows(_ p: PulseState, _ c: FeatureContext) -> [Row] {
        guard c.museum != nil else { return [] }
        if p.offline { return [Row(.note, c.strings(.pulseOffline), mark: bannerMark)] }
        guard let snap = p.snapshot else { return [] }
        let route = c.route
        var keys = ["tab:\(c.tab.rawValue)"]
        if let s = pageSubject(route) { keys += expand(s, c) }
        let found = PulseAnnouncements.matching(snap.announcements, style: .banner, keys: keys, language: c.language, now: c.now)
        guard let a = found.min(by: { $0.id < $1.id }) else { return [] }
        return [Row(.note, PulseAnnouncements.text(a, c.language), mark: bannerMark)]
    }

    static func number(_ subject: PulseSubject) -> Int? {
        let parts = subject.key.split(separator: ":", maxSplits: 1)
        return parts.count == 2 ? Int(parts[1]) : nil
    }

    // MARK: Hidden visitors

    /// Info's row to the visitors whose notes this visitor hides (only when there are some).
    static func hiddenRow(_ p: PulseState, _ c: FeatureContext) -> [Row] {
        let hidden = p.identity?.hidden ?? []
        guard !hidden.isEmpty else { return [] }
        return [Row(.item, c.strings(.pulseHiddenRow), detail: String(hidden.count), action: .push(route(.hidden)))]
    }

    public static func content(_ route: Route, _ p: PulseState, _ c: FeatureContext) -> PageContent {
        let s = c.strings
        switch route {
        case .hidden:
            let hidden = p.identity?.hidden ?? []
            var rows = [Row(.note, s(.pulseHiddenIntro))]
            if hidden.isEmpty { rows.append(Row(.note, s(.pulseHiddenNone))) }
            for h in hidden {
                rows.append(Row(.item, "“" + h.sample + "”", detail: s(.pulseHiddenShow), action: .send(action(.unhide(h.visitor)))))
            }
            return .list(title: s(.pulseHiddenTitle), rows: rows)
        }
    }
}

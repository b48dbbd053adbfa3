import Foundation

/// What Enter does on a search row.
public enum SearchRowAction: Hashable, Sendable {
    /// An indexed thing: artwork (play, or the map when silent), tour or exhibition (detail),
    /// gallery or annotation (the map).
    case open(SearchTarget)
    /// An artwork only the live search knows: its card (Ctrl-O: the map).
    case openLiveArtwork(LiveArtwork)
    /// An exhibition (from the Home list or the live search): its detail.
    case openExhibition(Exhibition)
    /// A suggestion: search for it.
    case query(String)
    /// A facility shortcut: the nearest of these amenities on the map.
    case amenities([AmenityType])
    /// "See all": narrow the list to one group.
    case filter(SearchFilter)
}

/// One line of the search list: how it looks and what Enter does.
public struct SearchRow: Equatable, Sendable {
    public var row: Row
    public var action: SearchRowAction?
    /// Which language matched, when not the interface's ("in Español"): also in `row.detail`,
    /// and kept alone where a narrow window leaves the details out.
    public var matchedIn: String?
    public init(_ row: Row, _ action: SearchRowAction? = nil) {
        self.row = row
        self.action = action
    }
}

/// Builds the search list from the state, in the current language. The reducer reads the
/// actions (Enter, clicks, moves), the screen draws the rows: both call this.
public enum SearchPage {
    /// The facility shortcuts shown before typing (spec §f), when the museum has them.
    static let facilities: [(key: StringKey, types: [AmenityType])] = [
        (StringKey.searchFacilityDining, [.dining]),
        (StringKey.searchFacilityMembersLounge, [.membersLounge]),
        (StringKey.searchFacilityGiftShops, [.giftShop]),
        (StringKey.searchFacilityRestrooms, [.womensRoom, .mensRoom, .familyRestroom]),
    ]

    public static func rows(_ search: SearchState, _ context: FeatureContext) -> [SearchRow] {
        guard let app = context.museum else { return [] }
        let s = context.strings
        guard let results = search.results else { return suggestionRows(app, search, context) }
        var out: [SearchRow] = []
        let filter = search.filter
        // Live results that arrived after the visitor moved go below everything shown.
        let below = filter == .all && search.live.extraBelow
        var total = 0
        for kind in filter.kinds {
            let items = groupRows(kind, results, app, search, context, limit: filter == .all ? SearchState.overviewCount : Int.max, live: !below)
            // (Counted apart when the live results are listed below: this part does not change.)
            let count = results.count(kind) + (below ? 0 : extraCount(kind, search.live.extra))
            total += count
            let title = s(SearchFilter.only(kind).titleKey) + " (\(count))"
            if filter == .all {
                guard count > 0 else { continue }
                out.append(SearchRow(Row(.header, title)))
                out += items
                if count > SearchState.overviewCount {
                    out.append(SearchRow(Row(.item, s(.searchSeeAll, ["count": String(count)])), .filter(SearchFilter.only(kind))))
                }
            } else {
                out.append(SearchRow(Row(.header, title)))
                if count == 0 { out.append(SearchRow(Row(.note, s(.searchNoneHere, ["query": search.query])))) }
                out += items
                if count > items.count {
                    out.append(SearchRow(Row(.note, s(.searchMore, ["count": String(count - items.count)]))))
                }
            }
        }
        if filter == .all, total == 0 {
            out.append(SearchRow(Row(.note, s(.searchNoMatches, ["query": search.query]))))
            if let q = search.didYouMean {
                out.append(SearchRow(Row(.item, s(.searchDidYouMean, ["query": q])), .query(q)))
            }
        }
        // Suggestions arrive after the results: they go below them, never above.
        if filter == .all, !search.live.suggestions.isEmpty {
            out.append(SearchRow(Row(.header, s(.searchSuggestions))))
            for q in search.live.suggestions { out.append(SearchRow(Row(.item, q), .query(q))) }
        }
        if below {
            for kind in filter.kinds {
                let live = liveRows(kind, app, search, context)
                guard !live.isEmpty else { continue }
                out.append(SearchRow(Row(.header, s(SearchFilter.only(kind).titleKey) + " (+\(live.count))")))
                out += live.prefix(SearchState.overviewCount)
                if live.count > SearchState.overviewCount {
                    out.append(SearchRow(Row(.item, s(.searchSeeAll, ["count": String(results.count(kind) + live.count)])), .filter(SearchFilter.only(kind))))
                }
            }
        }
        return out
    }

    /// Before any letter: the museum's suggested searches, then "On the map": its chosen
    /// objects and the facility shortcuts.
    static func suggestionRows(_ app: AppData, _ search: SearchState, _ context: FeatureContext) -> [SearchRow] {
        let s = context.strings
        var out: [SearchRow] = []
        // Only the museum's suggested searches that find something here.
        let suggested = app.search.strings.filter { Reducer.leadsSomewhere($0, search) || search.index == nil }
        if !suggested.isEmpty {
            out.append(SearchRow(Row(.header, s(.searchSuggested))))
            for q in suggested { out.append(SearchRow(Row(.item, q), .query(q))) }
        }
        var onMap: [SearchRow] = app.search.artworkIDs.compactMap { id in
            app.artworks[id].map { artworkRow($0, search, context) }
        }
        let present = Set(app.annotations.compactMap { n -> AmenityType? in
            if case .amenity(let t) = n.kind { return t }
            return nil
        })
        for f in facilities where f.types.contains(where: present.contains) {
            onMap.append(SearchRow(Row(.item, s(f.key)), .amenities(f.types.filter(present.contains))))
        }
        if !onMap.isEmpty {
            out.append(SearchRow(Row(.header, s(.searchFilterOnMap))))
            out += onMap
        }
        if out.isEmpty { out.append(SearchRow(Row(.note, s(.searchPlaceholder)))) }
        return out
    }

    /// How many results a filter holds (local and live), for the filter line.
    public static func count(_ filter: SearchFilter, _ search: SearchState, _ context: FeatureContext) -> Int {
        guard let results = search.results else { return 0 }
        return filter.kinds.reduce(0) { $0 + results.count($1) + extraCount($1, search.live.extra) }
    }

    static func extraCount(_ kind: SearchKind, _ extra: LiveSearchResults) -> Int {
        switch kind {
        case .artwork: return extra.artworks.count + extra.liveArtworks.count
        case .tour: return extra.tours.count
        case .exhibition: return extra.exhibitions.count
        case .event, .place: return 0
        }
    }

    /// A group's first `limit` rows: local hits (best first), then what the live search added.
    static func groupRows(_ kind: SearchKind, _ results: SearchResults, _ app: AppData, _ search: SearchState, _ context: FeatureContext, limit: Int, live: Bool = true) -> [SearchRow] {
        var out = results.hits(kind).prefix(limit).compactMap { hit in
            hitRow(hit.target, app, search, context).map { withLanguage($0, hit.language, search, context) }
        }
        guard out.count < limit, live else { return out }
        out += liveRows(kind, app, search, context)
        return Array(out.prefix(limit))
    }

    /// A result found through a text in another language than the interface's (a Spanish
    /// commentary in the English guide): its detail says which.
    static func withLanguage(_ row: SearchRow, _ language: Language?, _ search: SearchState, _ context: FeatureContext) -> SearchRow {
        guard let language, language != context.language.content else { return row }
        var r = row
        let note = context.strings(.searchMatchedIn, ["language": language.name(in: context.language)])
        // First, so a detail cut at the window's edge keeps it.
        r.row.detail = [note, r.row.detail ?? ""].filter { !$0.isEmpty }.joined(separator: " · ")
        r.matchedIn = note
        return r
    }

    /// What the live search added to a group.
    static func liveRows(_ kind: SearchKind, _ app: AppData, _ search: SearchState, _ context: FeatureContext) -> [SearchRow] {
        var out: [SearchRow] = []
        let extra = search.live.extra
        switch kind {
        case .artwork:
            out += extra.artworks.compactMap { app.artworks[$0].map { artworkRow($0, search, context) } }
            out += extra.liveArtworks.map { a in
                let detail = [a.artist.split(whereSeparator: \.isNewline).first.map(String.init) ?? "", galleryText(a.galleryTitle, context.strings)]
                return SearchRow(Row(.item, a.title, detail: detail.filter { !$0.isEmpty }.joined(separator: " · ")), .openLiveArtwork(a))
            }
        case .tour:
            out += extra.tours.compactMap { app.tour($0).map { tourRow($0, search, context) } }
        case .exhibition:
            out += extra.exhibitions.map { exhibitionRow($0, search, context) }
        case .event, .place:
            break
        }
        return out
    }

    static func hitRow(_ target: SearchTarget, _ app: AppData, _ search: SearchState, _ context: FeatureContext) -> SearchRow? {
        switch target {
        case .artwork(let id):
            return app.artworks[id].map { artworkRow($0, search, context) }
        case .tour(let id):
            return app.tour(id).map { tourRow($0, search, context) }
        case .exhibition(let id):
            return context.state(of: HomeFeature.self).exhibitions.value?.first { $0.id == id }.map { exhibitionRow($0, search, context) }
        case .event(let id):
            return context.state(of: HomeFeature.self).events.value?.first { $0.id == id }.map { e in
                let zone = PageBuilder.museumZone(utcOffset: e.utcOffset, context)
                return SearchRow(Row(.item, e.title, detail: PageBuilder.formatDateTime(e.startAt, context, zone: zone)), .open(.event(e.id)))
            }
        case .gallery(let id):
            guard let g = app.galleries[id] else { return nil }
            return SearchRow(Row(.item, g.title, detail: context.strings(.floorLabel, ["floor": g.floor.label])), .open(target))
        case .annotation(let id):
            guard let n = app.annotations.first(where: { $0.id == id }) else { return nil }
            var title = n.label.split(whereSeparator: \.isNewline).joined(separator: " ")
            if case .amenity(let type) = n.kind {
                let name = AmenityNames.name(type, context.language)
                title = title.isEmpty ? name : "\(title) (\(name))"
            }
            let detail = n.floor.map { context.strings(.floorLabel, ["floor": $0.label]) }
            return SearchRow(Row(.item, title, detail: detail), .open(target))
        }
    }

    static func galleryText(_ galleryTitle: String, _ strings: Strings) -> String {
        // "Gallery 301" for a numbered one, the name alone for a named hall.
        PageBuilder.galleryLabel(Gallery.displayTitle(for: galleryTitle), strings)
    }

    /// An artwork: its title; the artist and the gallery as detail.
    static func artworkRow(_ a: Artwork, _ search: SearchState, _ context: FeatureContext) -> SearchRow {
        let artist = a.tombstone.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let detail = [artist, galleryText(a.galleryTitle, context.strings)].filter { !$0.isEmpty }.joined(separator: " · ")
        return SearchRow(Row(.item, a.title, detail: detail, number: a.keypadLabel), .open(.artwork(a.id)))
    }

    static func tourRow(_ t: Tour, _ search: SearchState, _ context: FeatureContext) -> SearchRow {
        let (text, fellBack) = t.text(context.language)
        return SearchRow(
            Row(.item, text.title, detail: TourFeature.stopsText(t.stops.count, context.strings), fellBack: fellBack && !t.translations.isEmpty && context.language != .english, number: t.selectorNumber.map(String.init)),
            .open(.tour(t.id)))
    }

    /// The card of an artwork only the live search knows: its title, artist lines, gallery and
    /// floor, and that it has no commentary here.
    public static func liveArtworkPage(_ a: LiveArtwork, _ search: SearchState, _ context: FeatureContext) -> TextPage {
        let s = context.strings
        var facts = a.artist.split(whereSeparator: \.isNewline).map { String($0) }.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        facts.append(s(.searchLiveArtworkPlace, [
            "gallery": PageBuilder.galleryLabel(Gallery.displayTitle(for: a.galleryTitle), s), "floor": s(.floorLabel, ["floor": a.floor.label]),
        ]))
        return TextPage(title: a.title, facts: facts, body: s(.searchLiveArtworkBody))
    }

    static func exhibitionRow(_ e: Exhibition, _ search: SearchState, _ context: FeatureContext) -> SearchRow {
        SearchRow(Row(.item, e.title, detail: context.strings(.exhibitionThrough, ["date": PageBuilder.formatDay(e.endAt, writtenWith: e.utcOffset, context)])), .openExhibition(e))
    }

    // MARK: Selection

    static func firstSelectable(_ search: SearchState, _ context: FeatureContext) -> Int {
        let rows = rows(search, context)
        return rows.indices.first { rows[$0].row.isSelectable } ?? 0
    }

    /// The action of the selected row (the effective selection, as lists do).
    public static func selectedAction(_ search: SearchState, _ context: FeatureContext) -> SearchRowAction? {
        let rows = rows(search, context)
        guard let i = Row.effectiveSelection(rows.map(\.row), search.selection) else { return nil }
        return rows[i].action
    }
}

/// `tours`: an array. v2 tours have `tour_stops` with bumpers; v1 tours have `stops`.
/// A tour with no surviving stop is dropped. Stops are sorted by `sort` (stable).
enum TourReader {
    static func read(_ v: JSON?, app: AppData, _ ctx: ReadContext) -> [Tour] {
        var tours: [Tour] = []
        var seen: Set<Int> = []
        let categoryNames = Set(app.tourCategories.map(\.name))
        for (index, e) in Records.entries(v, name: "tours", ctx).enumerated() {
            guard let id = Records.id(e, ctx) else { continue }
            let sid = String(id)
            guard !seen.contains(id) else {
                ctx.dropped(e.path, id: sid, "a second tour with id \(id)")
                continue
            }
            if let t = tour(e, id: id, index: index, app: app, categories: categoryNames, ctx) {
                seen.insert(id)
                tours.append(t)
            }
        }
        return tours.sorted { ($0.weight, $0.id) < ($1.weight, $1.id) }
    }

    static func tour(_ e: Records.Entry, id: Int, index: Int, app: AppData, categories: Set<String>, _ ctx: ReadContext) -> Tour? {
        guard let title = Records.title(e, id: id, ctx) else { return nil }
        let r = e.reader
        let sid = String(id)
        let description = r.isMissing("description_html") ? r.string("description", .rich) : r.string("description_html", .rich)
        let intro = r.isMissing("intro_html") ? r.string("intro", .rich) : r.string("intro_html", .rich)
        let introAudio: Int
        switch r.requiredInt("tour_audio") {
        case .success(let a) where app.audioFiles[a] != nil: introAudio = a
        case .success(let a):
            ctx.dropped(e.path, id: sid, "tour_audio \(a) is not in audio_files")
            return nil
        case .failure(let f):
            ctx.dropped(e.path, id: sid, f.message)
            return nil
        }
        let stops = readStops(r, sid: sid, app: app, ctx)
        guard !stops.isEmpty else {
            ctx.dropped(e.path, id: sid, "no usable stop")
            return nil
        }
        var weight = index
        switch r.optionalInt("weight") {
        case .success(let w?): weight = w
        case .success(nil): if app.format != .v1 { ctx.note(e.path, id: sid, "no weight; ordered by position") }
        case .failure(let f): ctx.warning(e.path, id: sid, "\(f.message); ordered by position")
        }
        let firstArtwork = app.artworks[stops[0].artworkID]
        var location = r.location().value
        if location == nil {
            location = firstArtwork?.location
            if app.format != .v1 { ctx.note(e.path, id: sid, "no usable location; starts at its first stop") }
        }
        var floor: Floor? = firstArtwork?.floor
        switch r.optionalFloor() {
        case .success(let f?): floor = f
        case .success(nil): break
        case .failure(let f): ctx.warning(e.path, id: sid, f.message)
        }
        var selector: Int?
        switch r.optionalInt("selector_number") {
        case .success(let n): selector = n
        case .failure(let f): ctx.warning(e.path, id: sid, "\(f.message); not reachable from the keypad")
        }
        var category: String? = r.string("category", .title)
        if category?.isEmpty == true { category = nil }
        if let c = category, !categories.contains(c) {
            ctx.warning(e.path, id: sid, "category \"\(c)\" is not in tour_categories")
            category = nil
        }
        let duration = r.string("tour_duration", .title)
        let english = TourText(title: title, description: description, intro: intro, duration: duration.isEmpty ? nil : duration)
        var translations: [Language: TourText] = [:]
        if r.isMissing("translations") && app.format != .v1 {
            ctx.note(e.path, id: sid, "no translations array (the AIC app would crash); English only")
        }
        Translations.each(r, id: sid, ctx) { lang, t in
            let d = t.isMissing("description_html") ? t.string("description", .rich) : t.string("description_html", .rich)
            let i = t.isMissing("intro_html") ? t.string("intro", .rich) : t.string("intro_html", .rich)
            let dur = t.string("tour_duration", .title)
            translations[lang] = TourText(title: t.string("title", .title), description: d, intro: i, duration: dur.isEmpty ? nil : dur)
        }
        let banner = r.string("tour_banner", .title)
        return Tour(
            id: id, english: english, translations: translations,
            imageURL: ctx.imageURL(r.rawString("image_url"), path: e.path, id: sid), introAudioID: introAudio,
            weight: weight, location: location, floor: floor, selectorNumber: selector, category: category,
            banner: banner.isEmpty ? nil : banner.uppercased(), stops: stops)
    }

    static func readStops(_ r: FieldReader, sid: String, app: AppData, _ ctx: ReadContext) -> [TourStop] {
        let useV2 = !r.isMissing("tour_stops")
        let field = useV2 ? "tour_stops" : "stops"
        if useV2 && !r.isMissing("stops") {
            ctx.note(r.path, id: sid, "legacy stops ignored; tour_stops used")
        }
        guard case .array(let items)? = r[field] else {
            if let v = r[field], v != .null {
                ctx.warning(r.path, id: sid, "\(field) should be an array, found \(v.kindName)")
            }
            return []
        }
        var stops: [TourStop] = []
        for (i, item) in items.enumerated() {
            let path = JSONPath.fieldIndex(r.path, field, i)
            guard case .object(let o) = item else {
                ctx.dropped(path, id: sid, "expected an object, found \(item.kindName)")
                continue
            }
            let s = FieldReader(o, path: path)
            let sort = s.optionalInt("sort").value.flatMap { $0 } ?? i
            guard let artwork = s.requiredInt("object").value else {
                ctx.dropped(path, id: sid, s.requiredInt("object").failureMessage ?? "missing object")
                continue
            }
            guard app.artworks[artwork] != nil else {
                ctx.dropped(path, id: sid, "artwork \(artwork) is not available (missing, or its gallery is closed or unknown)")
                continue
            }
            let audioKey = useV2 ? "audio_id" : "audio"
            guard let audio = s.requiredInt(audioKey).value else {
                ctx.dropped(path, id: sid, s.requiredInt(audioKey).failureMessage ?? "missing \(audioKey)")
                continue
            }
            guard app.audioFiles[audio] != nil else {
                ctx.dropped(path, id: sid, "audio \(audio) is not in audio_files")
                continue
            }
            var bumper: Int?
            switch s.optionalInt("audio_bumper") {
            case .success(let b?) where app.audioFiles[b] != nil: bumper = b
            case .success(let b?): ctx.warning(path, id: sid, "bumper audio \(b) is not in audio_files; no bumper")
            case .success(nil): break
            case .failure(let f): ctx.warning(path, id: sid, "\(f.message); no bumper")
            }
            stops.append(TourStop(sort: sort, artworkID: artwork, audioID: audio, bumperID: bumper))
        }
        // Stable sort by `sort`.
        return stops.enumerated().sorted { ($0.element.sort, $0.offset) < ($1.element.sort, $1.offset) }.map(\.element)
    }
}

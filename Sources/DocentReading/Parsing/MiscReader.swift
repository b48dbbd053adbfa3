/// The smaller sections: exhibitions order, tour categories, search suggestions, messages,
/// dashboard. Empty sections may be `{}` or `[]` (both CMSs write either).
enum MiscReader {
    static func exhibitions(_ v: JSON?, _ ctx: ReadContext) -> [ExhibitionOrder] {
        var out: [ExhibitionOrder] = []
        for (i, e) in Records.entries(v, name: "exhibitions", ctx).enumerated() {
            guard let id = e.reader.requiredInt("exhibition_id").value else {
                ctx.dropped(e.path, e.reader.requiredInt("exhibition_id").failureMessage ?? "missing exhibition_id")
                continue
            }
            let sort = e.reader.optionalInt("sort").value.flatMap { $0 } ?? i
            out.append(ExhibitionOrder(exhibitionID: id, sort: sort, imageURL: ctx.imageURL(e.reader.rawString("image_url"), path: e.path, id: String(id))))
        }
        return out.sorted { ($0.sort, $0.exhibitionID) < ($1.sort, $1.exhibitionID) }
    }

    static func categories(_ v: JSON?, _ ctx: ReadContext) -> [TourCategory] {
        var out: [TourCategory] = []
        for (i, e) in Records.entries(v, name: "tour_categories", ctx).enumerated() {
            let id = e.key.flatMap { Int($0) } ?? i
            guard let name = e.reader.requiredString("category", .title).value, !name.isEmpty else {
                ctx.dropped(e.path, id: e.key, "missing category name")
                continue
            }
            var tr: [Language: String] = [:]
            Translations.each(e.reader, id: e.key, ctx) { lang, t in
                let n = t.string("category", .title)
                if !n.isEmpty { tr[lang] = n }
            }
            out.append(TourCategory(id: id, name: name, translations: tr))
        }
        return out.sorted { $0.id < $1.id }
    }

    /// `search_strings` as an object with gapped numeric keys (sorted by key) or an array;
    /// `search_objects` resolved to artworks, skipping (and reporting) unknown ids.
    static func search(_ v: JSON?, artworks: [Int: Artwork], _ ctx: ReadContext) -> SearchSuggestions {
        var s = SearchSuggestions()
        guard let o = v?.objectValue else { return s }
        switch o["search_strings"] {
        case .object(let m)?:
            let sorted = m.fields.enumerated().sorted {
                (Int($0.element.key) ?? .max, $0.offset) < (Int($1.element.key) ?? .max, $1.offset)
            }
            s.strings = sorted.compactMap { $0.element.value.stringValue.map { TextCleaner.clean($0, .title) } }
        case .array(let a)?:
            s.strings = a.compactMap { $0.stringValue.map { TextCleaner.clean($0, .title) } }
        default: break
        }
        s.strings = s.strings.filter { !$0.isEmpty }
        if case .array(let ids)? = o["search_objects"] {
            for (i, item) in ids.enumerated() {
                let path = JSONPath.index("search.search_objects", i)
                switch FieldReader.int(item) {
                case .success(let id) where artworks[id] != nil: s.artworkIDs.append(id)
                case .success(let id): ctx.warning(path, id: String(id), "artwork \(id) is not available; suggestion skipped")
                case .failure(let f): ctx.warning(path, f.message)
                }
            }
        }
        return s
    }

    static func messages(_ v: JSON?, tours: [Tour], _ ctx: ReadContext) -> [Message] {
        var out: [Message] = []
        for (i, e) in Records.entries(v, name: "messages", ctx).enumerated() {
            let r = e.reader
            let id = e.key.flatMap { Int($0) } ?? r.optionalInt("nid").value.flatMap { $0 } ?? i
            let sid = String(id)
            let kind: Message.Kind
            switch r.rawString("message_type") {
            case "launch": kind = .launch
            case "tour_exit":
                guard let t = r.requiredInt("tour_exit").value else {
                    ctx.dropped(e.path, id: sid, "tour_exit message without a tour")
                    continue
                }
                if !tours.contains(where: { $0.id == t }) { ctx.warning(e.path, id: sid, "tour \(t) is not available") }
                kind = .tourExit(tourID: t)
            case "member_expiration":
                guard let s = r.requiredInt("expiration_threshold").value else {
                    ctx.dropped(e.path, id: sid, "member_expiration message without expiration_threshold")
                    continue
                }
                kind = .memberExpiration(thresholdSeconds: s)
            case let other:
                ctx.dropped(e.path, id: sid, "unknown message_type \"\(other.map(FieldReader.clip) ?? "none")\"")
                continue
            }
            guard let title = r.requiredString("title", .title).value, let body = r.requiredString("message", .rich).value else {
                ctx.dropped(e.path, id: sid, "missing title or message")
                continue
            }
            let persistent = r.requiredBool("persistent").value ?? false
            let actionTitle = r.string("action_title", .title)
            var tr: [Language: Message.Text] = [:]
            Translations.each(r, id: sid, ctx) { lang, t in
                let tt = t.string("title", .title)
                let tb = t.string("message", .rich)
                guard !tt.isEmpty || !tb.isEmpty else { return }
                let at = t.string("action_title", .title)
                tr[lang] = Message.Text(title: tt.isEmpty ? title : tt, body: tb.isEmpty ? body : tb, actionTitle: at.isEmpty ? nil : at)
            }
            out.append(Message(
                id: id, kind: kind, persistent: persistent,
                english: Message.Text(title: title, body: body, actionTitle: actionTitle.isEmpty ? nil : actionTitle),
                translations: tr, actionURL: ctx.url(r.rawString("action"), path: e.path, field: "action", id: sid)))
        }
        return out.sorted { $0.id < $1.id }
    }

    static func dashboard(_ v: JSON?, tours: [Tour], _ ctx: ReadContext) -> ([Int], [Int]) {
        guard let o = v?.objectValue else { return ([], []) }
        let ids = Set(tours.map(\.id))
        var featured: [Int] = []
        if case .array(let a)? = o["featured_tours"] {
            for (i, item) in a.enumerated() {
                guard let id = FieldReader.int(item).value else { continue }
                if ids.contains(id) {
                    featured.append(id)
                } else {
                    ctx.warning(JSONPath.index("dashboard.featured_tours", i), id: String(id), "tour \(id) is not available")
                }
            }
        }
        var exhibitions: [Int] = []
        if case .array(let a)? = o["featured_exhibitions"] {
            exhibitions = a.compactMap { FieldReader.int($0).value }
        }
        return (featured, exhibitions)
    }
}

/// Builds the keypad index and reports numbers shared by several targets.
enum KeypadBuilder {
    static func build(_ app: AppData, _ ctx: ReadContext) -> KeypadIndex {
        var k = KeypadIndex()
        for t in app.tours {
            if let n = t.selectorNumber {
                if n < 0 || n > 99_999 {
                    ctx.warning(JSONPath.key("tours", String(t.id)), id: String(t.id), "keypad number \(n) has more than 5 digits")
                    continue
                }
                k.addTour(number: n, tourID: t.id)
            }
        }
        // The artworks read in place (a loop over `values` copied each one, all its fields
        // retained and released); an artwork has a few commentaries, so the numbers already
        // given are looked for in them rather than in a set made for each.
        var i = app.artworks.values.startIndex
        while i != app.artworks.values.endIndex {
            let id = app.artworks.values[i].id
            let commentaries = app.artworks.values[i].commentaries
            for (j, c) in commentaries.enumerated() {
                guard let n = c.selectorNumber, !commentaries[..<j].contains(where: { $0.selectorNumber == n }) else { continue }
                k.addArtwork(number: n, artworkID: id, audioID: c.audioID)
            }
            app.artworks.values.formIndex(after: &i)
        }
        k.finish(tourOrder: app.tours.map(\.id))
        for n in k.sharedNumbers {
            let targets = k.lookup(String(n))
            let names = targets.map { t -> String in
                switch t {
                case .tour(let id): return "tour \(id)"
                case .artwork(let id, _): return "artwork \(id)"
                }
            }
            ctx.warning("keypad", id: String(n), "number \(n) is shared by \(names.joined(separator: ", ")); the guide offers a choice")
        }
        for (n, tourIDs) in k.tours where k.artworks[n] != nil {
            ctx.warning("keypad", id: String(n), "number \(n) opens tour \(tourIDs[0]) before artwork(s) with the same number")
        }
        return k
    }
}

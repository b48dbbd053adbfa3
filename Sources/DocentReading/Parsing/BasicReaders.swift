/// `data`: the Data Aggregator settings. Every key is optional; either events key works.
enum EndpointsReader {
    static func read(_ v: JSON?, _ ctx: ReadContext) -> DataEndpoints {
        var e = DataEndpoints()
        guard let v, v != .null else { return e }
        guard case .object(let o) = v else {
            ctx.warning("data", "expected an object, found \(v.kindName)")
            return e
        }
        let r = FieldReader(o, path: "data")
        func s(_ k: String) -> String? {
            guard let t = r.rawString(k).map(Trim.spaces), !t.isEmpty else { return nil }
            return t
        }
        e.imageServerURL = s("image_server_url").flatMap { ctx.resolve($0) }
        e.dataAPIURL = s("data_api_url")
        e.exhibitionsEndpoint = s("exhibitions_endpoint")
        e.eventsEndpoint = s("events_endpoint_v2") ?? s("events_endpoint")
        e.autocompleteEndpoint = s("autocomplete_endpoint")
        e.multisearchEndpoint = s("multisearch_endpoint")
        e.artworksEndpoint = s("artworks_endpoint")
        e.toursEndpoint = s("tours_endpoint")
        e.membershipURL = s("membership_url").flatMap { ctx.resolve($0) }
        e.websiteURL = s("website_url").flatMap { ctx.resolve($0) }
        e.ticketsURL = s("tickets_url").flatMap { ctx.resolve($0) }
        if s("events_endpoint_v2") == nil, s("events_endpoint") != nil {
            ctx.note("data", "no events_endpoint_v2; using the older events_endpoint")
        }
        return e
    }
}

/// `general_info`: texts per language. A missing `nid` (newer CMS) is accepted.
enum GeneralInfoReader {
    static func read(_ v: JSON?, _ ctx: ReadContext) -> GeneralInfo {
        guard let v, v != .null else { return .empty }
        guard case .object(let o) = v else {
            ctx.warning("general_info", "expected an object, found \(v.kindName)")
            return .empty
        }
        let r = FieldReader(o, path: "general_info")
        if r.isMissing("nid") { ctx.note("general_info", "no nid (newer CMS export); accepted") }
        if r.isMissing("translations") { ctx.note("general_info", "no translations array; English only") }
        var english: [String: String] = [:]
        for k in GeneralInfo.keys {
            if let s = r.rawString(k) { english[k] = TextCleaner.clean(s, .plain) }
        }
        if english["restrooms_text"] == nil, let s = r.rawString("restrooms_subtitle") {
            english["restrooms_text"] = TextCleaner.clean(s)
        }
        var translations: [Language: [String: String]] = [:]
        Translations.each(r, id: nil, ctx) { lang, t in
            var rec: [String: String] = [:]
            for k in GeneralInfo.keys {
                if let s = t.rawString(k) { rec[k] = TextCleaner.clean(s, .plain) }
            }
            translations[lang] = rec
        }
        return GeneralInfo(english: english, translations: translations)
    }
}

/// `galleries`: rooms with a title (the join key for artworks), floor and position.
enum GalleryReader {
    static func read(_ v: JSON?, _ ctx: ReadContext) -> [Int: Gallery] {
        var out: [Int: Gallery] = [:]
        var byTitle: [String: Int] = [:]
        for e in Records.entries(v, name: "galleries", ctx) {
            guard let id = Records.id(e, ctx), let title = Records.title(e, id: id, ctx) else { continue }
            let r = e.reader
            let sid = String(id)
            let closed: Bool
            switch r.requiredBool("closed") {
            case .success(let b): closed = b
            case .failure:
                if r.isMissing("closed") {
                    closed = false
                    ctx.note(e.path, id: sid, "no closed flag; taken as open")
                } else {
                    ctx.dropped(e.path, id: sid, "closed should be true or false")
                    continue
                }
            }
            guard let location = r.location().value else {
                ctx.dropped(e.path, id: sid, r.location().failureMessage ?? "bad location")
                continue
            }
            let floor: Floor
            switch r.optionalFloor() {
            case .success(let f?): floor = f
            case .success(nil):
                ctx.dropped(e.path, id: sid, "missing floor")
                continue
            case .failure(let f):
                ctx.dropped(e.path, id: sid, f.message)
                continue
            }
            let galleryID: Int?
            switch r.optionalInt("gallery_id") {
            case .success(let g): galleryID = g
            case .failure(let f):
                galleryID = nil
                ctx.warning(e.path, id: sid, f.message)
            }
            if out[id] != nil {
                ctx.dropped(e.path, id: sid, "a second gallery with id \(id)")
                continue
            }
            if let other = byTitle[title] {
                ctx.warning(e.path, id: sid, "same title as gallery \(other); artworks in \"\(title)\" go to the lower id")
            }
            byTitle[title] = min(byTitle[title] ?? id, id)
            out[id] = Gallery(id: id, title: title, galleryID: galleryID, closed: closed, location: location, floor: floor)
        }
        return out
    }
}

extension Result where Failure == FieldReader.Failure {
    var failureMessage: String? {
        if case .failure(let f) = self { return f.message }
        return nil
    }
}

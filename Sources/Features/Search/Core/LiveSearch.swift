import Foundation

/// An artwork the live search found that this guide's data does not describe, shown when it
/// is on view in an open gallery (spec §d.3). It has no commentary: acting on it shows its
/// place on the map.
public struct LiveArtwork: Hashable, Sendable {
    /// The Data Aggregator (collection) id.
    public let id: Int
    public let title: String
    /// `artist_display`: artist, then nationality and dates, one per line.
    public let artist: String
    /// The CMS gallery it hangs in.
    public let galleryID: Int
    public let galleryTitle: String
    public let floor: Floor
    public let location: LatLon

    public init(id: Int, title: String, artist: String, galleryID: Int, galleryTitle: String, floor: Floor, location: LatLon) {
        self.id = id
        self.title = title
        self.artist = artist
        self.galleryID = galleryID
        self.galleryTitle = galleryTitle
        self.floor = floor
        self.location = location
    }
}

/// What one multisearch answer contributes, already tied to this guide's data.
public struct LiveSearchResults: Equatable, Sendable {
    /// CMS artworks (by CMS id) the API matched through their collection id, in API order.
    public var artworks: [Int] = []
    /// On-view artworks the guide's data does not have.
    public var liveArtworks: [LiveArtwork] = []
    /// Tours (by id) the API matched.
    public var tours: [Int] = []
    /// Exhibitions on view that the API matched.
    public var exhibitions: [Exhibition] = []

    public init(artworks: [Int] = [], liveArtworks: [LiveArtwork] = [], tours: [Int] = [], exhibitions: [Exhibition] = []) {
        self.artworks = artworks
        self.liveArtworks = liveArtworks
        self.tours = tours
        self.exhibitions = exhibitions
    }

    public var isEmpty: Bool { artworks.isEmpty && liveArtworks.isEmpty && tours.isEmpty && exhibitions.isEmpty }
}

/// Requests and responses of the museum's live search (spec §d.3 multisearch, §d.4
/// autocomplete). An http(s) endpoint gets the real requests; a file endpoint (a museum with
/// no server, like SampleData) is read as it is and its answer filtered by the query here, so
/// the whole flow works offline.
public enum LiveSearch {
    /// Autocomplete is sent this long after the last keystroke (spec §d.4).
    public static let autocompleteDelayMs = 300
    /// Multisearch is sent this long after the last keystroke (spec §d.3).
    public static let multisearchDelayMs = 500
    /// A live answer slower than this is given up (local results stay).
    public static let timeoutSeconds = 4.0
    /// How many autocomplete suggestions are shown (the app shows 3).
    public static let suggestionCount = 3
    /// Results asked per resource (the API allows at most 100).
    public static let size = 99

    /// The autocomplete endpoint's full URL, or nil when the museum has none.
    public static func autocompleteURL(app: AppData) -> String? {
        DataAggregator.endpointURL(app.endpoints.autocompleteEndpoint, app: app)
    }

    /// The multisearch endpoint's full URL, or nil when the museum has none.
    public static func multisearchURL(app: AppData) -> String? {
        DataAggregator.endpointURL(app.endpoints.multisearchEndpoint, app: app)
    }

    /// Whether the museum publishes any live search.
    public static func isAvailable(app: AppData) -> Bool {
        autocompleteURL(app: app) != nil || multisearchURL(app: app) != nil
    }

    static func isHTTP(_ url: String) -> Bool { DataAggregator.isHTTP(url) }

    /// `GET base + autocomplete_endpoint ?q=<text>&resources=artworks,tours,exhibitions,artists`.
    public static func autocompleteRequest(_ query: String, app: AppData) -> FetchRequest? {
        guard let url = autocompleteURL(app: app) else { return nil }
        guard isHTTP(url) else { return FetchRequest(url: url, timeoutSeconds: timeoutSeconds, maxBytes: 4 << 20) }
        // RFC 3986 unreserved characters only (`CharacterSet.alphanumerics` is all of Unicode).
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let q = query.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let sep = url.contains("?") ? "&" : "?"
        return FetchRequest(url: url + sep + "q=" + q + "&resources=artworks,tours,exhibitions,artists", timeoutSeconds: timeoutSeconds, maxBytes: 4 << 20)
    }

    /// `POST base + multisearch_endpoint` with a JSON array of three queries: artworks on view,
    /// tours, exhibitions on view (spec §d.3).
    public static func multisearchRequest(_ query: String, app: AppData) -> FetchRequest? {
        guard let url = multisearchURL(app: app) else { return nil }
        guard isHTTP(url) else { return FetchRequest(url: url, timeoutSeconds: timeoutSeconds, maxBytes: 32 << 20) }
        let body: [[String: Any]] = [
            [
                "resources": "artworks", "from": 0, "size": size,
                "fields": ["id", "is_on_view", "title", "artist_display", "image_id", "gallery_id", "latlon"],
                "q": query,
                "query": ["term": ["is_on_view": "true"]],
            ],
            ["resources": "tours", "from": 0, "size": size, "fields": ["id"], "q": query],
            [
                "resources": "exhibitions", "from": 0, "size": size,
                "fields": ["id", "title", "short_description", "image_url", "gallery_id", "web_url", "aic_start_at", "aic_end_at"],
                "q": query,
                "query": ["bool": ["must": [["range": ["aic_start_at": ["lte": "now"]]], ["range": ["aic_end_at": ["gte": "now"]]]]]],
            ],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data("[]".utf8)
        return FetchRequest(url: url, method: .post, body: [UInt8](data), headers: ["Content-Type": "application/json"], timeoutSeconds: timeoutSeconds, maxBytes: 32 << 20)
    }

    // MARK: Responses

    /// The suggestions of an autocomplete answer (a bare JSON array of strings). A file
    /// answer is filtered to the suggestions containing the query (folded with `variants`).
    public static func suggestions(from bytes: [UInt8], query: String, app: AppData, variants: ChineseVariants? = nil) -> Result<[String], LoadFailure> {
        let json: JSON
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            return .failure(LoadFailure("the autocomplete answer is not JSON"))
        }
        guard let items = json.arrayValue else { return .failure(LoadFailure("the autocomplete answer is not a list")) }
        var out: [String] = []
        let fromFile = !(autocompleteURL(app: app).map(isHTTP) ?? false)
        let q = SearchText.fold(query, variants: variants)
        for item in items {
            guard let s = item.stringValue ?? item["title"]?.stringValue else { continue }
            let clean = TextCleaner.clean(s, .title)
            guard !clean.isEmpty, !out.contains(clean) else { continue }
            if fromFile, !SearchText.matches([SearchText.fold(clean, variants: variants)], q) { continue }
            out.append(clean)
        }
        return .success(out)
    }

    /// A multisearch answer: a JSON array of three search responses (artworks, tours,
    /// exhibitions). Artworks are tied to the guide's artworks by collection id; others are
    /// kept only when on view in an open gallery with a title and an artist. Tours are tied by
    /// id; exhibitions are read as for Home (on view at `now`). A file answer is filtered to
    /// the items whose title (or artist) contains the query (folded with `variants`).
    public static func results(from bytes: [UInt8], query: String, app: AppData, now: Date, variants: ChineseVariants? = nil) -> Result<LiveSearchResults, LoadFailure> {
        let json: JSON
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            return .failure(LoadFailure("the search answer is not JSON"))
        }
        guard let parts = json.arrayValue, parts.count >= 3 else {
            return .failure(LoadFailure("the search answer is not a list of three results"))
        }
        func items(_ i: Int) -> [JSONObject] { parts[i]["data"]?.arrayValue?.compactMap(\.objectValue) ?? [] }
        let fromFile = !(multisearchURL(app: app).map(isHTTP) ?? false)
        let q = SearchText.fold(query, variants: variants)
        func keep(_ texts: String...) -> Bool {
            !fromFile || SearchText.matches(texts.map { SearchText.fold($0, variants: variants) }, q)
        }
        var out = LiveSearchResults()
        // Artworks.
        var byCollection: [Int: Int] = [:]
        for a in app.artworks.values {
            if let c = a.collectionID, byCollection[c].map({ a.id < $0 }) ?? true { byCollection[c] = a.id }
        }
        let openGalleries = Dictionary(app.galleries.values.filter { !$0.closed }.compactMap { g in g.galleryID.map { ($0, g) } }, uniquingKeysWith: { a, b in a.id < b.id ? a : b })
        var seenArtworks: Set<Int> = []
        for o in items(0) {
            let r = FieldReader(o, path: "[0].data")
            guard let id = r.requiredInt("id").value else { continue }
            if let cms = byCollection[id] {
                guard let a = app.artworks[cms], keep(a.title, a.tombstone), seenArtworks.insert(cms).inserted else { continue }
                out.artworks.append(cms)
                continue
            }
            guard case .bool(true)? = o["is_on_view"], let title = r.requiredString("title", .title).value,
                let artist = r.requiredString("artist_display", .plain).value, !title.isEmpty,
                let gid = r.optionalInt("gallery_id").value ?? nil, let g = openGalleries[gid], keep(title, artist),
                !out.liveArtworks.contains(where: { $0.id == id })
            else { continue }
            let location = r.rawString("latlon").flatMap({ FieldReader.latLon($0) }) ?? g.location
            out.liveArtworks.append(LiveArtwork(id: id, title: title, artist: artist, galleryID: g.id, galleryTitle: g.title, floor: g.floor, location: location))
        }
        // Tours.
        for o in items(1) {
            guard let id = FieldReader(o, path: "[1].data").requiredInt("id").value, let t = app.tour(id), !out.tours.contains(id) else { continue }
            if fromFile, !(([t.english] + Array(t.translations.values)).contains { keep($0.title) }) { continue }
            out.tours.append(id)
        }
        // Exhibitions (read as for Home: required fields, on view now).
        for o in items(2) {
            let r = FieldReader(o, path: "[2].data")
            guard let id = r.requiredInt("id").value, let title = r.requiredString("title", .title).value,
                let start = r.rawString("aic_start_at").flatMap(DataAggregator.parseDate),
                let end = r.rawString("aic_end_at").flatMap(DataAggregator.parseDate),
                start <= now, end >= now, r.rawString("status") != "Closed", keep(title),
                !out.exhibitions.contains(where: { $0.id == id })
            else { continue }
            let override = app.exhibitionOrder.first { $0.exhibitionID == id }?.imageURL
            out.exhibitions.append(Exhibition(
                id: id, title: title, shortDescription: r.string("short_description", .rich),
                imageURL: override ?? r.rawString("image_url"), galleryID: r.optionalInt("gallery_id").value ?? nil,
                webURL: r.rawString("web_url"), startAt: start, endAt: end,
                utcOffset: r.rawString("aic_end_at").map(DataAggregator.utcOffset) ?? 0))
        }
        return .success(out)
    }
}

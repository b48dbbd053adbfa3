import Foundation

/// Requests to the museum's Data Aggregator and readers of its responses (spec §d).
/// http(s) endpoints get Elasticsearch-style POST bodies; file endpoints (a museum without a
/// server, like SampleData) are read as they are and filtered here.
public enum DataAggregator {
    /// The full URL of an endpoint: `data_api_url` + endpoint, resolved against the document.
    public static func endpointURL(_ endpoint: String?, app: AppData) -> String? {
        guard let endpoint, !endpoint.isEmpty else { return nil }
        let resolver = URLResolver(base: app.source)
        if URLResolver.hasScheme(endpoint) { return endpoint }
        let api = app.endpoints.dataAPIURL ?? ""
        if api.isEmpty || api == "." { return resolver.resolve(endpoint) }
        let joined = (api.hasSuffix("/") ? String(api.dropLast()) : api) + (endpoint.hasPrefix("/") ? endpoint : "/" + endpoint)
        return resolver.resolve(joined)
    }

    static func isHTTP(_ url: String) -> Bool { url.hasPrefix("http://") || url.hasPrefix("https://") }

    /// The largest answer read for exhibitions or events (the requests ask for 99 and 100
    /// items; SampleData's events file of 1,722 is 1 MB). Issue 45: 650,000 events, 1.6 MB
    /// gzipped, took 726 MB to read under the general 256 MB cap.
    public static let maxAnswerBytes = 8 << 20
    /// The most events kept, the soonest first: every key on "See all events" walks them.
    public static let maxEvents = 2_000

    /// The request for exhibitions on view at `now`.
    public static func exhibitionsRequest(app: AppData, now: Date) -> FetchRequest? {
        guard let url = endpointURL(app.endpoints.exhibitionsEndpoint, app: app) else { return nil }
        guard isHTTP(url) else { return FetchRequest(url: url, timeoutSeconds: 10, maxBytes: maxAnswerBytes) }
        let body: [String: Any] = [
            "fields": ["id", "title", "short_description", "image_url", "gallery_id", "web_url", "aic_start_at", "aic_end_at"],
            "sort": ["aic_start_at", "aic_end_at"],
            "query": ["bool": [
                "must": [["range": ["aic_start_at": ["lte": "now"]]], ["range": ["aic_end_at": ["gte": "now"]]]],
                "must_not": [["term": ["status": "Closed"]]],
            ]],
        ]
        return post(searchURL(url) + "?limit=99", body)
    }

    /// The request for events of the next two weeks.
    public static func eventsRequest(app: AppData, now: Date) -> FetchRequest? {
        guard let url = endpointURL(app.endpoints.eventsEndpoint, app: app) else { return nil }
        guard isHTTP(url) else { return FetchRequest(url: url, timeoutSeconds: 10, maxBytes: maxAnswerBytes) }
        let body: [String: Any] = [
            "fields": ["id", "title", "description", "short_description", "image_url", "location", "start_at", "end_at", "button_text", "button_url", "is_private"],
            "sort": ["start_at", "end_at"],
            "query": ["bool": ["must": [
                ["range": ["start_at": ["lte": "now+2w"]]], ["range": ["end_at": ["gte": "now"]]], ["term": ["is_private": false]],
            ]]],
        ]
        return post(searchURL(url) + "?limit=100", body)
    }

    static func searchURL(_ url: String) -> String {
        url.contains("/search") ? url : (url.hasSuffix("/") ? url + "search" : url + "/search")
    }

    static func post(_ url: String, _ body: [String: Any]) -> FetchRequest {
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data("{}".utf8)
        return FetchRequest(url: url, method: .post, body: [UInt8](data), headers: ["Content-Type": "application/json"], timeoutSeconds: 10, maxBytes: maxAnswerBytes)
    }

    // MARK: responses

    /// Exhibitions on view at `now`, in the CMS order (listed ones by `sort`, others after,
    /// by start date), with CMS image overrides. Items missing required fields are skipped.
    public static func exhibitions(from bytes: [UInt8], app: AppData, now: Date) -> Result<[Exhibition], LoadFailure> {
        items(bytes).map { items in
            var list: [Exhibition] = []
            for o in items {
                let r = FieldReader(o, path: "data")
                guard let id = r.requiredInt("id").value, let title = r.requiredString("title", .title).value,
                    let start = r.rawString("aic_start_at").flatMap(parseDate), let end = r.rawString("aic_end_at").flatMap(parseDate)
                else { continue }
                guard start <= now, end >= now else { continue }
                if r.rawString("status") == "Closed" { continue }
                let override = app.exhibitionOrder.first { $0.exhibitionID == id }?.imageURL
                list.append(Exhibition(
                    id: id, title: title, shortDescription: r.string("short_description", .rich),
                    imageURL: override ?? r.rawString("image_url"), galleryID: r.optionalInt("gallery_id").value ?? nil,
                    webURL: r.rawString("web_url"), startAt: start, endAt: end,
                    utcOffset: r.rawString("aic_end_at").map(utcOffset) ?? 0))
            }
            let rank = Dictionary(app.exhibitionOrder.map { ($0.exhibitionID, $0.sort) }, uniquingKeysWith: { a, _ in a })
            return list.sorted { a, b in
                let ra = rank[a.id] ?? .max
                let rb = rank[b.id] ?? .max
                return ra != rb ? ra < rb : (a.startAt, a.id) < (b.startAt, b.id)
            }
        }
    }

    /// Events that overlap [now, now + 14 days], by start time; private ones skipped.
    public static func events(from bytes: [UInt8], now: Date) -> Result<[Event], LoadFailure> {
        let horizon = now.addingTimeInterval(14 * 24 * 3600)
        return items(bytes).map { items in
            var list: [Event] = []
            for o in items {
                let r = FieldReader(o, path: "data")
                guard let title = r.requiredString("title", .title).value,
                    let start = r.rawString("start_at").flatMap(parseDate), let end = r.rawString("end_at").flatMap(parseDate)
                else { continue }
                let id = r.rawString("id") ?? r.optionalInt("id").value.flatMap { $0.map(String.init) } ?? title
                if case .bool(true)? = o["is_private"] { continue }
                guard start <= horizon, end >= now, end >= start else { continue }
                let bt = r.string("button_text", .title)
                list.append(Event(
                    id: id, title: title, shortDescription: r.string("short_description", .rich),
                    description: r.string("description", .rich), location: r.string("location", .title), startAt: start,
                    endAt: end, buttonText: bt.isEmpty ? nil : bt, buttonURL: r.rawString("button_url"),
                    utcOffset: r.rawString("start_at").map(utcOffset) ?? 0))
            }
            return Array(list.sorted { ($0.startAt, $0.id) < ($1.startAt, $1.id) }.prefix(maxEvents))
        }
    }

    /// The `data` array of a search response.
    static func items(_ bytes: [UInt8]) -> Result<[JSONObject], LoadFailure> {
        let json: JSON
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            return .failure(LoadFailure("the response is not JSON (\(error))"))
        }
        guard case .array(let data)? = json["data"] else { return .failure(LoadFailure("the response has no \"data\" list")) }
        return .success(data.compactMap(\.objectValue))
    }

    /// ISO 8601 with or without fractional seconds, or "yyyy-MM-dd HH:mm:ss" (older feeds).
    public static func parseDate(_ s: String) -> Date? {
        // Formatters are expensive to make: a feed of 1 700 events made one per date took
        // seconds on the loop thread. These are made once (and only used from one thread).
        let f = Formatters.shared
        if let d = f.iso.date(from: s) { return d }
        if let d = f.isoFractional.date(from: s) { return d }
        for p in f.plain {
            if let d = p.date(from: s) { return d }
        }
        return nil
    }

    /// The offset from UTC a date was written with, in seconds east ("…-06:00" is -21600; "Z",
    /// no offset, and the older "yyyy-MM-dd HH:mm:ss", which is read as UTC, are 0). Bounded to
    /// the ±18 hours `TimeZone(secondsFromGMT:)` accepts.
    public static func utcOffset(_ s: String) -> Int {
        let chars = Array(s.utf8)
        // The offset follows the time: look after the 'T' (or the space) only, so the date's
        // own hyphens are never read as a sign.
        guard let t = chars.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: " ") }),
            let sign = chars[t...].lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") })
        else { return 0 }
        let digits = chars[(sign + 1)...].filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 4 || digits.count == 2, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return 0 }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
        let hours = digits.count == 4 ? value / 100 : value, minutes = digits.count == 4 ? value % 100 : 0
        guard hours <= 18, minutes < 60 else { return 0 }
        let seconds = hours * 3600 + minutes * 60
        return chars[sign] == UInt8(ascii: "-") ? -seconds : seconds
    }

    final class Formatters: @unchecked Sendable {
        static let shared = Formatters()
        let iso = ISO8601DateFormatter()
        let isoFractional: ISO8601DateFormatter = {
            let f = ISO8601DateFormatter()
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return f
        }()
        let plain: [DateFormatter] = ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ssZ", "yyyy-MM-dd"].map { format in
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = format
            return f
        }
    }
}

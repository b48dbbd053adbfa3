import DocentText
import DocentJSON
import Foundation

/// The Pulse service's JSON (issue 13, `Resources/pulse-openapi.yaml`), written and read in one
/// place so the service (`PulseService`) and the guide's HTTP store (`NetCurl.HTTPPulseStore`)
/// cannot drift. Pure: bytes in, values out. Reading is strict: a field of the wrong type, an
/// unknown field or a missing one is an error with a sentence naming the field, never a guess.
/// Times are seconds since 1970 (numbers), so a note's time survives the trip exactly.
public enum PulseWire {
    /// Request bodies are capped at this many bytes (the service answers 413 above it).
    public static let maxBodyBytes = 16 * 1024
    /// The most a staff seed may weigh (`POST /v1/staff/seed`): a museum's curated content.
    public static let maxSeedBytes = 1024 * 1024

    // MARK: Writing

    /// Compact JSON; every character outside printable ASCII is escaped, so an answer never
    /// carries a raw control or escape character, whatever a note held.
    public static func encode(_ value: JSON) -> [UInt8] {
        var out: [UInt8] = []
        write(value, &out)
        return out
    }

    private static func write(_ value: JSON, _ out: inout [UInt8]) {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .integer(let i): out += Array(String(i).utf8)
        case .double(let d): out += Array((d.isFinite ? "\(d)" : "null").utf8)
        case .bigNumber: out += Array("null".utf8)
        case .string(let s): writeString(s, &out)
        case .rawString(let r): writeString(r.string, &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(v, &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, f) in o.fields.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(f.key, &out)
                out.append(UInt8(ascii: ":"))
                write(f.value, &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ s: String, _ out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        func unit(_ u: UInt16) {
            out += Array("\\u".utf8)
            out += [hex[Int(u >> 12) & 15], hex[Int(u >> 8) & 15], hex[Int(u >> 4) & 15], hex[Int(u) & 15]]
        }
        out.append(UInt8(ascii: "\""))
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += Array("\\\"".utf8)
            case "\\": out += Array("\\\\".utf8)
            case " "..."~": out.append(UInt8(scalar.value))
            default:
                for u in String(scalar).utf16 { unit(u) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A JSON object from its fields, in this order.
    public static func fields(_ fields: [(String, JSON)]) -> JSON { .object(JSONObject(fields.map { (key: $0.0, value: $0.1) })) }
    static func time(_ d: Date?) -> JSON { d.map { .double($0.timeIntervalSince1970) } ?? .null }
    static func texts(_ t: [Language: String]) -> JSON { fields(t.sorted { $0.key < $1.key }.map { ($0.key.code, .string($0.value)) }) }

    public static func counts(_ c: PulseCounts) -> JSON { fields([("up", .integer(c.up)), ("meh", .integer(c.meh)), ("down", .integer(c.down))]) }

    public static func note(_ n: PulseNote) -> JSON {
        fields([
            ("id", .string(n.id.key)), ("subject", .string(n.subject.key)), ("language", .string(n.language.code)), ("text", .string(n.text)),
            ("created_at", .double(n.createdAt.timeIntervalSince1970)), ("up", .integer(n.counts.up)), ("meh", .integer(n.counts.meh)),
            ("down", .integer(n.counts.down)), ("author", .string(n.author == .curator ? "curator" : "visitor")), ("reports", .integer(n.reports)),
            ("decision", n.decision.map { .string($0.rawValue) } ?? .null),
        ])
    }

    public static func notes(_ ns: [PulseNote]) -> JSON { fields([("notes", .array(ns.map(note)))]) }

    /// What a staff seed put in, and what it left out and why.
    public static func seedApplied(_ s: PulseSeed) -> JSON {
        fields([
            ("featured", .integer(s.featured.count)), ("notes", .integer(s.notes.count)), ("announcements", .integer(s.announcements.count)),
            ("problems", .array(s.problems.map { .string($0) })),
        ])
    }

    public static func snapshot(_ s: PulseSnapshot) -> JSON {
        fields([
            ("version", .integer(Int(s.version.value))), ("taken_at", time(s.takenAt)),
            ("counts", fields(s.counts.sorted { $0.key < $1.key }.map { ($0.key.key, counts($0.value)) })),
            ("note_counts", fields(s.noteCounts.sorted { $0.key < $1.key }.map { ($0.key.key, .integer($0.value)) })),
            ("mine", fields(s.mine.sorted { $0.key < $1.key }.map { ($0.key.key, .integer($0.value.rawValue)) })),
            ("my_reports", .array(s.myReports.sorted().map { .string($0.key) })),
            (
                "featured",
                .array(
                    s.featured.map { f in
                        fields([("subject", .string(f.subject.key)), ("tier", .integer(f.tier)), ("taglines", texts(f.taglines)), ("from", time(f.from)), ("until", time(f.until))])
                    })
            ),
            (
                "announcements",
                .array(
                    s.announcements.map { a in
                        fields([
                            ("id", .string(a.id)), ("feeds", .array(a.feeds.map { .string($0.source) })), ("positions", .array(a.positions.map { .integer($0) })),
                            ("style", .string(a.style.rawValue)), ("languages", .array(a.languages.map { .string($0.code) })), ("from", time(a.from)),
                            ("until", time(a.until)), ("text", texts(a.text)), ("link", a.link.map { .string($0) } ?? .null),
                        ])
                    })
            ),
            (
                "activity",
                fields(
                    s.activity.sorted { $0.key < $1.key }.map {
                        ($0.key.key, fields([("recent", .integer($0.value.recent)), ("today", .integer($0.value.today)), ("last", time($0.value.last))]))
                    })
            ),
            ("curator_picks", .array(s.curatorPicks.sorted().map { .string($0.key) })),
            ("posting", .string(s.posting.rawValue)),
        ])
    }

    // MARK: Errors

    /// An error's HTTP status, its code and its JSON body (with the sentence in English).
    public static func error(_ e: PulseStoreError) -> (status: Int, body: JSON, retryAfter: Int?) {
        switch e {
        case .rateLimited(.notes(let s)):
            return (429, problem("rate_limited_notes", "too many notes: try again in \(s) s", [("retry_after", .integer(s))]), s)
        case .rateLimited(.reactions(let s)):
            return (429, problem("rate_limited_reactions", "too many reactions: try again in \(s) s", [("retry_after", .integer(s))]), s)
        case .conflict(let id): return (409, problem("conflict", "note \(id.key) exists with other text", [("note", .string(id.key))]), nil)
        case .badText(.empty): return (400, problem("empty_text", "the note is empty"), nil)
        case .badText(.tooLong(let n)):
            return (400, problem("text_too_long", "the note is \(n) cells wide, at most \(NoteText.maxCells) are kept", [("cells", .integer(n))]), nil)
        case .badCredentials: return (401, problem("bad_credentials", "unknown visitor or wrong token"), nil)
        case .noSuchNote(let id): return (404, problem("no_such_note", "no note \(id.key)", [("note", .string(id.key))]), nil)
        case .badSubject(let s): return (400, problem("bad_subject", "not a subject: \(s)"), nil)
        case .unavailable(let why): return (503, problem("unavailable", "Pulse is unavailable (\(why))"), 5)
        // The guide's own (its outbox); a store behind the service never says it.
        case .notKept: return (503, problem("unavailable", "Pulse is unavailable"), 5)
        case .postingRefused(.tooManyTries(let s)):
            return (429, problem("rate_limited_passes", "too many wrong codes or cards from your address: try again in \(s) s", [("retry_after", .integer(s))]), s)
        case .postingRefused(let r):
            let sentence: String
            switch r {
            case .visitCodeRequired: sentence = "posting a note needs today's visit code (printed on the ticket): send it as visit_code"
            case .visitCodeWrong: sentence = "that is not today's visit code"
            case .memberRequired: sentence = "posting a note is for members: send the member card number as member_card"
            default: sentence = "that member card is not on the museum's list"
            }
            return (403, problem(r.code, sentence, [("posting", .string(r.gate?.rawValue ?? PostingGate.open.rawValue))]), nil)
        }
    }

    /// `{"error": sentence, "code": code, …}`.
    public static func problem(_ code: String, _ message: String, _ extra: [(String, JSON)] = []) -> JSON {
        fields([("error", .string(message)), ("code", .string(code))] + extra)
    }

    /// The store error an error answer stands for (the client's side of `error(_:)`).
    public static func storeError(status: Int, body: [UInt8]) -> PulseStoreError {
        let json = try? JSONParser.parse(body, maxDepth: 8)
        let code = json?["code"]?.stringValue ?? ""
        let message = json?["error"]?.stringValue ?? "HTTP \(status)"
        func int(_ k: String) -> Int? { if case .integer(let i)? = json?[k] { return i } else { return nil } }
        func note() -> NoteID? { json?["note"]?.stringValue.flatMap { NoteID(key: $0) } }
        switch (status, code) {
        // A wait is bounded as it is read (1 s ... a day), like every number from the wire.
        case (429, "rate_limited_notes"): return .rateLimited(.notes(retryAfter: PulseRules.Limit.bounded(int("retry_after") ?? 60)))
        case (429, "rate_limited_passes"): return .postingRefused(.tooManyTries(seconds: PulseRules.Limit.bounded(int("retry_after") ?? 60)))
        case (429, _): return .rateLimited(.reactions(retryAfter: PulseRules.Limit.bounded(int("retry_after") ?? 60)))
        case (409, _): if let n = note() { return .conflict(n) }
        case (400, "empty_text"): return .badText(.empty)
        case (400, "text_too_long"): return .badText(.tooLong(int("cells") ?? NoteText.maxCells + 1))
        case (400, "bad_subject"): return .badSubject(message)
        case (401, _): return .badCredentials
        case (403, _): return PostingRefusal(code: code).map(PulseStoreError.postingRefused) ?? .badCredentials
        case (404, "no_such_note"): if let n = note() { return .noSuchNote(n) }
        default: break
        }
        return .unavailable(Text.clean(message, maxBytes: 200))
    }

    // MARK: Reading

    /// Why a body or an answer could not be read: a sentence naming the field.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// The body as a JSON object with exactly the `required` fields and some of `optional`.
    public static func object(_ bytes: [UInt8], required: [String], optional: [String] = []) throws(Problem) -> JSONObject {
        let json: JSON
        do {
            json = try JSONParser.parse(bytes, maxDepth: 8)
        } catch {
            throw Problem("the body is not JSON: \(error)")
        }
        guard case .object(let o) = json else { throw Problem("the body must be a JSON object, not \(json.kindName)") }
        let allowed = Set(required + optional)
        var seen = Set<String>()
        for k in o.keys {
            guard allowed.contains(k) else { throw Problem("unknown field '\(Text.clean(k, maxBytes: 40))'") }
            guard seen.insert(k).inserted else { throw Problem("field '\(k)' given twice") }
        }
        for k in required where o[k] == nil { throw Problem("missing field '\(k)'") }
        return o
    }

    public static func string(_ o: JSONObject, _ k: String) throws(Problem) -> String {
        guard case .string(let s)? = o[k] else { throw Problem("field '\(k)' must be a string") }
        return s
    }

    public static func integer(_ o: JSONObject, _ k: String) throws(Problem) -> Int {
        guard case .integer(let i)? = o[k] else { throw Problem("field '\(k)' must be an integer") }
        return i
    }

    /// `{"value": 1|0|-1}`.
    public static func reaction(_ bytes: [UInt8]) throws(Problem) -> ReactionValue {
        let o = try object(bytes, required: ["value"])
        guard let v = ReactionValue(rawValue: try integer(o, "value")) else { throw Problem("field 'value' must be 1, 0 or -1") }
        return v
    }

    public static func reactionBody(_ v: ReactionValue) -> JSON { fields([("value", .integer(v.rawValue))]) }

    /// `{"id","subject","language","text"}`, and for a posting gate `visit_code` or
    /// `member_card` (not both).
    public static func draft(_ bytes: [UInt8]) throws(Problem) -> NoteDraft {
        let o = try object(bytes, required: ["id", "subject", "language", "text"], optional: ["visit_code", "member_card"])
        guard let id = NoteID(key: try string(o, "id")) else { throw Problem("field 'id' must be VISITOR.SEQUENCE") }
        let subjectKey = try string(o, "subject")
        guard let subject = PulseSubject(subjectKey) else { throw Problem("field 'subject' is not a subject (artwork:ID, tour:ID, stop:TOUR/N, exhibition:ID, gallery:ID, museum)") }
        guard let language = Language.fromTag(try string(o, "language")) else { throw Problem("field 'language' must be a language tag such as en") }
        var pass: PostingPass?
        for (k, make) in [("visit_code", PostingPass.visitCode), ("member_card", PostingPass.memberCard)] where o[k] != nil {
            guard pass == nil else { throw Problem("give visit_code or member_card, not both") }
            let v = try string(o, k)
            guard (1...PostingPass.maxLength).contains(v.count) else { throw Problem("field '\(k)' must be 1 to \(PostingPass.maxLength) characters") }
            pass = make(v)
        }
        return NoteDraft(id: id, subject: subject, language: language, text: try string(o, "text"), pass: pass)
    }

    public static func draftBody(_ d: NoteDraft) -> JSON {
        var f: [(String, JSON)] = [("id", .string(d.id.key)), ("subject", .string(d.subject.key)), ("language", .string(d.language.code)), ("text", .string(d.text))]
        switch d.pass {
        case .visitCode(let c)?: f.append(("visit_code", .string(c)))
        case .memberCard(let c)?: f.append(("member_card", .string(c)))
        case nil: break
        }
        return fields(f)
    }

    public static func readCounts(_ json: JSON?) throws(Problem) -> PulseCounts {
        guard case .object(let o)? = json else { throw Problem("counts must be an object") }
        return PulseCounts(up: PulseBounds.wireCount(try integer(o, "up")), meh: PulseBounds.wireCount(try integer(o, "meh")), down: PulseBounds.wireCount(try integer(o, "down")))
    }

    /// A time from the wire, bounded (`PulseBounds.time`): a hostile -1e300 is 1970.
    static func readTime(_ json: JSON?) -> Date? {
        switch json {
        case .double(let d)?: return PulseBounds.time(d)
        case .integer(let i)?: return PulseBounds.time(Double(i))
        default: return nil
        }
    }

    static func readTexts(_ json: JSON?) -> [Language: String] {
        var out: [Language: String] = [:]
        for f in json?.objectValue?.fields ?? [] {
            if let l = Language.fromTag(f.key), let t = f.value.stringValue { out[l] = t }
        }
        return out
    }

    public static func readNote(_ json: JSON) throws(Problem) -> PulseNote {
        guard case .object(let o) = json else { throw Problem("a note must be an object") }
        guard let id = NoteID(key: try string(o, "id")), let subject = PulseSubject(try string(o, "subject")),
            let lang = Language.fromTag(try string(o, "language")), let created = readTime(o["created_at"])
        else { throw Problem("a note has a bad id, subject, language or time") }
        return PulseNote(
            id: id, subject: subject, language: lang, text: try string(o, "text"), createdAt: created,
            author: o["author"]?.stringValue == "curator" ? .curator : .visitor,
            counts: PulseCounts(up: PulseBounds.wireCount(try integer(o, "up")), meh: PulseBounds.wireCount(try integer(o, "meh")), down: PulseBounds.wireCount(try integer(o, "down"))),
            reports: PulseBounds.wireCount((try? integer(o, "reports")) ?? 0), decision: o["decision"]?.stringValue.flatMap(StaffDecision.init(rawValue:)))
    }

    public static func readNotes(_ bytes: [UInt8]) throws(Problem) -> [PulseNote] {
        let json: JSON
        do { json = try JSONParser.parse(bytes) } catch { throw Problem("the answer is not JSON: \(error)") }
        guard let list = json["notes"]?.arrayValue else { throw Problem("the answer has no notes") }
        var out: [PulseNote] = []
        for n in list { out.append(try readNote(n)) }
        return out
    }

    /// A snapshot answer; entries that cannot be read (a subject this guide does not know) are
    /// left out, as the SQLite store leaves out rows it cannot read.
    public static func readSnapshot(_ bytes: [UInt8]) throws(Problem) -> PulseSnapshot {
        let json: JSON
        do { json = try JSONParser.parse(bytes) } catch { throw Problem("the answer is not JSON: \(error)") }
        guard case .integer(let v)? = json["version"], let taken = readTime(json["taken_at"]) else { throw Problem("the answer has no version") }
        var s = PulseSnapshot(version: PulseVersion(Int64(v)), takenAt: taken)
        for f in json["counts"]?.objectValue?.fields ?? [] {
            if let k = PulseSubject(f.key), let c = try? readCounts(f.value) { s.counts[k] = c }
        }
        for f in json["note_counts"]?.objectValue?.fields ?? [] {
            if let k = PulseSubject(f.key), case .integer(let n) = f.value { s.noteCounts[k] = PulseBounds.wireCount(n) }
        }
        for f in json["mine"]?.objectValue?.fields ?? [] {
            if let k = PulseSubject(f.key), case .integer(let n) = f.value, let r = ReactionValue(rawValue: n) { s.mine[k] = r }
        }
        s.myReports = Set((json["my_reports"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { NoteID(key: $0) } })
        for f in json["featured"]?.arrayValue ?? [] {
            guard let subject = f["subject"]?.stringValue.flatMap(PulseSubject.init), case .integer(let tier)? = f["tier"] else { continue }
            s.featured.append(PulseFeatured(subject: subject, tier: tier, taglines: readTexts(f["taglines"]), from: readTime(f["from"]), until: readTime(f["until"])))
        }
        for a in json["announcements"]?.arrayValue ?? [] {
            guard let id = a["id"]?.stringValue, let style = a["style"]?.stringValue.flatMap(PulseAnnouncement.Style.init) else { continue }
            let feeds = (a["feeds"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(PulsePattern.init) }
            guard !feeds.isEmpty else { continue }
            s.announcements.append(
                PulseAnnouncement(
                    id: id, feeds: feeds, positions: (a["positions"]?.arrayValue ?? []).compactMap { if case .integer(let i) = $0 { return i } else { return nil } },
                    style: style, languages: (a["languages"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(Language.fromTag) }, from: readTime(a["from"]),
                    until: readTime(a["until"]), text: readTexts(a["text"]), link: a["link"]?.stringValue))
        }
        for f in json["activity"]?.objectValue?.fields ?? [] {
            guard let k = PulseSubject(f.key), case .integer(let r)? = f.value["recent"], case .integer(let t)? = f.value["today"] else { continue }
            s.activity[k] = PulseActivitySummary(recent: PulseBounds.wireCount(r), today: PulseBounds.wireCount(t), last: readTime(f.value["last"]))
        }
        s.curatorPicks = Set((json["curator_picks"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(PulseSubject.init) })
        // A service before the gate says nothing: open. A gate this guide does not know is
        // taken as open too; the service's 403 then says what it wants.
        s.posting = json["posting"]?.stringValue.flatMap(PostingGate.init(rawValue:)) ?? .open
        return s
    }
}

extension PulseWire {
    /// Text for a message: control characters dropped, at most `maxBytes` UTF-8 bytes.
    enum Text {
        static func clean(_ s: String, maxBytes: Int) -> String {
            var out = ""
            for ch in s where !ch.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                if out.utf8.count + ch.utf8.count > maxBytes { break }
                out.append(ch)
            }
            return out
        }
    }
}

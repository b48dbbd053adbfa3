import Foundation

/// Why a document cannot be used at all (as opposed to records that were dropped).
public enum AppDataError: Error, Equatable, Sendable, CustomStringConvertible {
    case notJSON(JSONError)
    /// The top level is not an object (e.g. a bare list of tours).
    case notAnObject(found: String, hint: String?)
    /// Parsed, but nothing a guide can show survived.
    case nothingUsable(String)
    /// The file was cut short while it was read (a mapped file rewritten in place).
    case changedWhileRead

    public var description: String {
        switch self {
        case .notJSON(let e) where e.kind == .blank: return "the file holds no museum data (only spaces and line breaks)"
        case .notJSON(let e): return "not valid JSON: \(e)"
        case .notAnObject(let found, let hint):
            return "not an appData document: the top level is \(found), not an object" + (hint.map { " (\($0))" } ?? "")
        case .nothingUsable(let why): return "nothing usable: \(why)"
        case .changedWhileRead: return "the file changed while it was read (rewritten in place?); read it again once it is written"
        }
    }
}

/// Options a museum's configuration can set.
public struct ReadOptions: Sendable {
    /// Runs `first` here and `second` on another core, and returns when both are done.
    public typealias Both = @Sendable (_ first: () -> Void, _ second: () -> Void) -> Void

    /// The v1 internal→external URL prefix rewrite.
    public var rewrite: URLResolver.Rewrite?
    /// Given by the adapter (a pure reader starts no thread): the audio files and artworks of
    /// a large document are read in two halves at once. Nil: one after the other.
    public var both: Both?
    public init(rewrite: URLResolver.Rewrite? = nil, both: Both? = nil) {
        self.rewrite = rewrite
        self.both = both
    }
}

/// Reads every appData dialect (v1, v2, newer CMS) into one `AppData`. Each record is read on
/// its own; a bad record is dropped and reported, never repaired silently, never fatal.
public enum AppDataReader {
    /// Fields whose long string values are left in the document's bytes until read.
    static let deferredFields = ["audio_transcript"]

    /// Parses bytes fetched from `source` (a path or URL; relative URLs resolve against it).
    /// The bytes are taken over (`consume`): long transcripts are left in them, checked but
    /// not decoded, until the player reads one, so they are kept as long as the museum is;
    /// nothing else is, and a large document is never held twice over with its models.
    /// `handOff` receives the parsed tree after reading, so a caller in a hurry can let it go
    /// later (freeing a large tree object by object takes a while) rather than before it gets
    /// the museum.
    public static func read(
        _ bytes: consuming [UInt8], source: String, options: ReadOptions = ReadOptions(), handOff: ((JSON) -> Void)? = nil
    ) -> Result<AppData, AppDataError> {
        read(JSONBytes(bytes), source: source, options: options, handOff: handOff)
    }

    /// `read(_:source:options:handOff:)` of bytes the adapter holds (a mapped file): the museum
    /// keeps `document` for its transcripts.
    public static func read(
        _ document: JSONBytes, source: String, options: ReadOptions = ReadOptions(), handOff: ((JSON) -> Void)? = nil
    ) -> Result<AppData, AppDataError> {
        let bom = document.hasBOM
        let json: JSON
        // The audio files (most of a document's records) are read as they are parsed and let
        // go at once: their tree never exists whole beside the file's bytes.
        let audio = Records.Streamed<AudioFile>(
            name: "audio_files", what: "audio file", context: ReadContext(resolver: URLResolver(base: source, rewrite: options.rewrite)), id: \.id,
            read: AudioReader.record)
        var parsed: Result<JSON, JSONError> = .success(.null)
        // The artworks are only placed while parsing and read afterwards, one record at a time:
        // they need the audio files that follow them.
        let objects = Records.Ranged(name: "objects", bytes: document)
        // Past the first 50 (looked at for the v1 sign) each is only checked, not built: its
        // tree would be let go at once.
        let placing = JSONStreaming(key: "objects", treesFor: v1Sample, begin: { objects.begin($0) }, member: { objects.member($0, $1, $2) })
        if let both = options.both {
            // Parsed here, read on the other core as the records come.
            let pipe = Records.Pipe()
            let streaming = JSONStreaming(key: "audio_files", begin: { pipe.put(.begin($0)) }, member: { k, v, _ in pipe.put(.member(k, v)) })
            both({
                // Transcripts stay in the bytes until the player reads one (checked as parsed).
                do throws(JSONError) {
                    parsed = .success(try JSONParser.parse(document, deferring: deferredFields, streaming: [streaming, placing]))
                } catch { parsed = .failure(error) }
                pipe.close()
            }, {
                while let batch = pipe.take() {
                    for item in batch {
                        switch item {
                        case .begin(let streamed): audio.begin(streamed)
                        case .member(let key, let value): audio.member(key, value)
                        }
                    }
                }
            })
        } else {
            let streaming = JSONStreaming(key: "audio_files", begin: { audio.begin($0) }, member: { k, v, _ in audio.member(k, v) })
            do throws(JSONError) {
                parsed = .success(try JSONParser.parse(document, deferring: deferredFields, streaming: [streaming, placing]))
            } catch { parsed = .failure(error) }
        }
        if document.changed { return .failure(.changedWhileRead) }
        switch parsed {
        case .success(let j): json = j
        case .failure(let error): return .failure(.notJSON(error))
        }
        let result = read(json, source: source, options: options, hadBOM: bom, streamedAudio: audio, placedObjects: objects)
        handOff?(json)
        // Reading the artworks again brought their pages back (a mapped file): let them go.
        document.letGo()
        if document.changed { return .failure(.changedWhileRead) }
        return result
    }

    public static func read(_ json: JSON, source: String, options: ReadOptions = ReadOptions(), hadBOM: Bool = false) -> Result<AppData, AppDataError> {
        read(json, source: source, options: options, hadBOM: hadBOM, streamedAudio: nil, placedObjects: nil)
    }

    static func read(
        _ json: JSON, source: String, options: ReadOptions, hadBOM: Bool, streamedAudio: Records.Streamed<AudioFile>?,
        placedObjects: Records.Ranged?
    ) -> Result<AppData, AppDataError> {
        guard case .object(let root) = json else {
            var hint: String?
            if case .array(let items) = json, let first = items.first?.objectValue,
                first["tour_stops"] != nil || first["stops"] != nil
            {
                hint = "it looks like a list of tours; point Docent at the whole appData.json"
            }
            return .failure(.notAnObject(found: json.kindName, hint: hint))
        }
        let ctx = ReadContext(resolver: URLResolver(base: source, rewrite: options.rewrite))
        if hadBOM { ctx.note("$", "the file starts with a UTF-8 byte-order mark (ignored)") }
        let placed = placedObjects?.lastStreamed == true ? placedObjects : nil
        var app = AppData(format: detectFormat(root, objectsLookV1: placed?.looksV1 ?? false), source: source)
        let known = Set([
            "dashboard", "general_info", "galleries", "objects", "audio_files", "tours", "map_annontations",
            "map_annotations", "map_floors", "messages", "tour_categories", "exhibitions", "data", "search",
        ])
        for key in root.keys where !known.contains(key) {
            ctx.note("$.\(key)", "unknown top-level key ignored")
        }
        // Order matters: references resolve against what was already accepted.
        app.endpoints = EndpointsReader.read(root["data"], ctx)
        ctx.imageServerURL = app.endpoints.imageServerURL
        app.generalInfo = GeneralInfoReader.read(root["general_info"], ctx)
        app.galleries = GalleryReader.read(root["galleries"], ctx)
        if let streamedAudio, streamedAudio.lastStreamed {
            app.audioFiles = streamedAudio.merge(into: ctx)
        } else {
            app.audioFiles = AudioReader.read(root["audio_files"], ctx, both: options.both)
        }
        if let placed {
            app.artworks = ArtworkReader.read(placed, galleries: app.galleries, audio: app.audioFiles, format: app.format, ctx, both: options.both)
        } else {
            app.artworks = ArtworkReader.read(root["objects"], galleries: app.galleries, audio: app.audioFiles, format: app.format, ctx, both: options.both)
        }
        app.exhibitionOrder = MiscReader.exhibitions(root["exhibitions"], ctx)
        app.tourCategories = MiscReader.categories(root["tour_categories"], ctx)
        app.tours = TourReader.read(root["tours"], app: app, ctx)
        app.search = MiscReader.search(root["search"], artworks: app.artworks, ctx)
        app.mapFloors = MapReader.floors(root["map_floors"], ctx)
        app.annotations = MapReader.annotations(root["map_annontations"] ?? root["map_annotations"], ctx)
        app.messages = MiscReader.messages(root["messages"], tours: app.tours, ctx)
        (app.featuredTourIDs, app.featuredExhibitionIDs) = MiscReader.dashboard(root["dashboard"], tours: app.tours, ctx)
        app.keypad = KeypadBuilder.build(app, ctx)
        app.diagnostics = ctx.diagnostics
        if app.artworks.isEmpty && app.tours.isEmpty {
            let why: String
            if root["objects"] == nil && root["tours"] == nil {
                why = "the document has neither \"objects\" nor \"tours\""
            } else {
                let dropped = ctx.diagnostics.filter { $0.severity == .dropped }.count
                why = "no artwork and no tour survived (\(dropped) records dropped; run `docent validate` for the list)"
            }
            return .failure(.nothingUsable(why))
        }
        return .success(app)
    }

    /// v1 if tours use `stops` without `tour_stops` or objects use `audio` arrays without
    /// `audio_commentary`; the newer CMS if `search_strings` is an array or `general_info`
    /// has no `nid`; v2 otherwise.
    /// How many artworks (the first) are looked at for the v1 sign.
    static let v1Sample = 50

    /// A v1 artwork: an `audio` array of ids and no `audio_commentary`.
    static func looksV1(_ artwork: JSONObject) -> Bool {
        if case .array? = artwork["audio"], artwork["audio_commentary"] == nil { return true }
        return false
    }

    /// `objectsLookV1`: what the first 50 artworks said when they were placed rather than kept
    /// in the tree (`Records.Ranged.looksV1`).
    static func detectFormat(_ root: JSONObject, objectsLookV1: Bool = false) -> AppDataFormat {
        if case .array(let tours)? = root["tours"] {
            for t in tours {
                if let o = t.objectValue, o["stops"] != nil, o["tour_stops"] == nil { return .v1 }
            }
        }
        if objectsLookV1 { return .v1 }
        if case .object(let objects)? = root["objects"] {
            for (_, v) in objects.fields.prefix(v1Sample) {
                if let o = v.objectValue, looksV1(o) { return .v1 }
            }
        }
        if case .array? = root["search"]?["search_strings"] { return .cms }
        if let gi = root["general_info"]?.objectValue, gi["nid"] == nil { return .cms }
        return .v2
    }
}

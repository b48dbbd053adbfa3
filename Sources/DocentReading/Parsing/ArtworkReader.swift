/// `objects`: artworks. An artwork belongs to the open gallery whose title equals its
/// `gallery_location`; v1 artworks list audio ids in `audio`, v2 ones use `audio_commentary`.
enum ArtworkReader {
    static func read(
        _ v: JSON?, galleries: [Int: Gallery], audio: [Int: AudioFile], format: AppDataFormat, _ ctx: ReadContext, both: ReadOptions.Both? = nil
    ) -> [Int: Artwork] {
        var byTitle: [String: Gallery] = [:]
        for g in galleries.values.sorted(by: { $0.id > $1.id }) { byTitle[g.title] = g }  // lowest id wins
        return Records.readAll(Records.entries(v, name: "objects", ctx), ctx, both: both, what: "artwork", id: \.id) { e, ctx in
            record(e, byTitle: byTitle, audio: audio, format: format, ctx)
        }
    }

    /// The artworks kept as places in the document while it was parsed (`Records.Ranged`),
    /// each parsed again and read in turn; the same records and diagnostics as from the tree.
    static func read(
        _ ranged: Records.Ranged, galleries: [Int: Gallery], audio: [Int: AudioFile], format: AppDataFormat, _ ctx: ReadContext,
        both: ReadOptions.Both? = nil
    ) -> [Int: Artwork] {
        var byTitle: [String: Gallery] = [:]
        for g in galleries.values.sorted(by: { $0.id > $1.id }) { byTitle[g.title] = g }  // lowest id wins
        ctx.diagnostics.append(contentsOf: ranged.shapeFaults)
        return Records.readAll(count: ranged.count, walk: ranged.walk, ctx, both: both, what: "artwork", id: \.id) { e, ctx in
            record(e, byTitle: byTitle, audio: audio, format: format, ctx)
        }
    }

    /// One record, or nil (dropped, and said).
    static func record(_ e: Records.Entry, byTitle: [String: Gallery], audio: [Int: AudioFile], format: AppDataFormat, _ ctx: ReadContext) -> Artwork? {
        guard let id = Records.id(e, ctx), let title = Records.title(e, id: id, ctx) else { return nil }
        let r = e.reader
        let sid = String(id)
        guard let galleryName = r.rawString("gallery_location").map({ TextCleaner.clean($0, .title) }), !galleryName.isEmpty else {
            ctx.dropped(e.path, id: sid, "missing gallery_location")
            return nil
        }
        guard let gallery = byTitle[galleryName] else {
            ctx.dropped(e.path, id: sid, "gallery \"\(FieldReader.clip(galleryName))\" is not in galleries")
            return nil
        }
        if gallery.closed {
            ctx.dropped(e.path, id: sid, "gallery \"\(gallery.title)\" is closed")
            return nil
        }
        var location: LatLon?
        switch r.location() {
        case .success(let ll): location = ll
        case .failure(let f):
            location = gallery.location
            ctx.warning(e.path, id: sid, "\(f.message); placed at its gallery")
        }
        let commentaries = format == .v1 ? v1Commentaries(r, sid: sid, audio: audio, ctx) : v2Commentaries(r, sid: sid, audio: audio, ctx)
        var credits: [String] = []
        for k in ["credit_line", "copyright_notice"] {
            let c = r.string(k)
            if !c.isEmpty { credits.append(c) }
        }
        let collectionID = r.optionalInt("id").value ?? nil
        let image = ctx.imageURL(r.rawString("image_url"), path: e.path, id: sid)
            ?? ctx.imageURL(r.rawString("large_image_full_path"), path: e.path, id: sid)
        return Artwork(
            id: id, title: title, tombstone: r.string("artist_culture_place_delim", [.entities, .barIsBreak]),
            credits: credits.joined(separator: "\n\n"), galleryID: gallery.id, galleryTitle: gallery.displayTitle,
            floor: gallery.floor, location: location, collectionID: collectionID, imageURL: image,
            commentaries: commentaries)
    }

    static func v2Commentaries(_ r: FieldReader, sid: String, audio: [Int: AudioFile], _ ctx: ReadContext) -> [Commentary] {
        if !r.isMissing("object_selector_number") {
            ctx.note(r.path, id: sid, "object-level object_selector_number is a v1 field; ignored")
        }
        guard let v = r["audio_commentary"], v != .null else { return [] }
        guard case .array(let items) = v else {
            ctx.warning(r.path, id: sid, "audio_commentary should be an array, found \(v.kindName)")
            return []
        }
        var out: [Commentary] = []
        for (i, item) in items.enumerated() {
            let path = JSONPath.fieldIndex(r.path, "audio_commentary", i)
            guard case .object(let o) = item else {
                ctx.dropped(path, id: sid, "expected an object, found \(item.kindName)")
                continue
            }
            let c = FieldReader(o, path: path)
            let audioID: Int
            switch c.requiredInt("audio") {
            case .success(let a): audioID = a
            case .failure(let f):
                ctx.dropped(path, id: sid, f.message)
                continue
            }
            guard audio[audioID] != nil else {
                ctx.dropped(path, id: sid, "audio \(audioID) is not in audio_files")
                continue
            }
            var number: Int?
            switch c.optionalInt("object_selector_number") {
            case .success(let n): number = n
            case .failure(let f): ctx.warning(path, id: sid, "\(f.message); not reachable from the keypad")
            }
            if let n = number, n < 0 || n > 99_999 {
                ctx.warning(path, id: sid, "keypad number \(n) has more than 5 digits; not reachable from the keypad")
                number = nil
            }
            out.append(Commentary(selectorNumber: number, audioID: audioID))
        }
        return out
    }

    static func v1Commentaries(_ r: FieldReader, sid: String, audio: [Int: AudioFile], _ ctx: ReadContext) -> [Commentary] {
        var audioIDs: [Int] = []
        if case .array(let items)? = r["audio"] {
            for (i, item) in items.enumerated() {
                let path = JSONPath.fieldIndex(r.path, "audio", i)
                switch FieldReader.int(item) {
                case .success(let a) where audio[a] != nil: audioIDs.append(a)
                case .success(let a): ctx.dropped(path, id: sid, "audio \(a) is not in audio_files")
                case .failure(let f): ctx.dropped(path, id: sid, f.message)
                }
            }
        }
        var numbers: [Int] = []
        if case .array(let items)? = r["object_selector_numbers"] {
            numbers = items.compactMap { FieldReader.int($0).value }
        } else if let n = r.optionalInt("object_selector_number").value ?? nil {
            numbers = [n]
        }
        guard !audioIDs.isEmpty else { return [] }
        var out: [Commentary] = []
        if numbers.count == audioIDs.count {
            out = zip(numbers, audioIDs).map { Commentary(selectorNumber: $0, audioID: $1) }
        } else {
            out = numbers.map { Commentary(selectorNumber: $0, audioID: audioIDs[0]) }
            let rest = numbers.isEmpty ? audioIDs : Array(audioIDs.dropFirst())
            out += rest.map { Commentary(selectorNumber: nil, audioID: $0) }
        }
        return out
    }
}

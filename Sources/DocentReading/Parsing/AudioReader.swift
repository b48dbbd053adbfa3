/// `audio_files`: English at the top level; a translation counts only with a file URL.
enum AudioReader {
    static func read(_ v: JSON?, _ ctx: ReadContext, both: ReadOptions.Both? = nil) -> [Int: AudioFile] {
        Records.readAll(Records.entries(v, name: "audio_files", ctx), ctx, both: both, what: "audio file", id: \.id, read: record)
    }

    /// One record, or nil (dropped, and said).
    static func record(_ e: Records.Entry, _ ctx: ReadContext) -> AudioFile? {
        guard let id = Records.id(e, ctx) else { return nil }
        let r = e.reader
        let sid = String(id)
        let title = r.string("title", .title)
        guard let rawURL = r.rawString("audio_file_url"), !Trim.isBlank(rawURL) else {
            ctx.dropped(e.path, id: sid, "no audio_file_url for the English recording")
            return nil
        }
        guard let url = ctx.url(rawURL, path: e.path, field: "audio_file_url", id: sid) else {
            ctx.dropped(e.path, id: sid, "audio_file_url is not usable")
            return nil
        }
        if title.isEmpty { ctx.warning(e.path, id: sid, "no title") }
        let trackTitle = r.string("track_title", .title)
        let englishTrack = trackTitle.isEmpty ? title : trackTitle
        let english = AudioVersion(
            language: .english, url: url, transcriptText: r.text("audio_transcript", .plain), trackTitle: englishTrack)
        if r.isMissing("translations") {
            ctx.note(e.path, id: sid, "no translations array (the AIC app would crash); English only")
        }
        // Collected first, then kept in a dictionary of exactly their number (grown one by one
        // it took twice the room: 11 MB of a 25,000-recording museum, issue 30).
        var versions: [AudioVersion] = []
        Translations.each(r, id: sid, ctx) { lang, t in
            guard let raw = t.rawString("audio_file_url"), !Trim.isBlank(raw) else {
                ctx.note(t.path, id: sid, "\(lang.code) has no audio file; English plays instead")
                return
            }
            guard let u = ctx.url(raw, path: t.path, field: "audio_file_url", id: sid) else { return }
            let tt = t.string("track_title", .title)
            versions.append(
                AudioVersion(
                    language: lang, url: u, transcriptText: t.text("audio_transcript", .plain),
                    trackTitle: tt.isEmpty ? englishTrack : tt))
        }
        var translations: [Language: AudioVersion] = [:]
        translations.reserveCapacity(versions.count)
        // A language given twice: the last one, as before.
        for v in versions { translations[v.language] = v }
        return AudioFile(id: id, title: title.isEmpty ? englishTrack : title, english: english, translations: translations)
    }
}

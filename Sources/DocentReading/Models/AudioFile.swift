/// A recording in one language: the file to play, what it says, and its title.
public struct AudioVersion: Hashable, Sendable {
    public let language: Language
    /// Resolved URL (path, file:// or http(s)://).
    public let url: String
    /// What the recording says (read from a prepared copy only when asked for).
    public var transcript: String { transcriptText.string }
    let transcriptText: DeferredText
    public let trackTitle: String

    /// Lets the pages of a mapped appData go from memory after transcripts were read from it
    /// (search reads them all once, to index their words; the file's pages stay in the page
    /// cache). Nothing for a transcript held as text or in a prepared copy.
    public func letTranscriptSourceGo() { transcriptText.letSourceGo() }

    /// Calls `body` with `transcript`'s UTF-8 bytes, read where they lie when they need no work
    /// (no `String` made): search reads every transcript's words once.
    public func withTranscriptUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { transcriptText.withUTF8(body) }

    /// The transcript's source alone (one reference, not the whole version): what a reader that
    /// keeps every transcript of a museum for a while holds (search's words, issue 30's peak).
    public var transcriptSource: TranscriptSource { TranscriptSource(text: transcriptText) }

    public init(language: Language, url: String, transcript: String, trackTitle: String) {
        self.init(language: language, url: url, transcriptText: DeferredText(transcript), trackTitle: trackTitle)
    }

    init(language: Language, url: String, transcriptText: DeferredText, trackTitle: String) {
        self.language = language
        self.url = url
        self.transcriptText = transcriptText
        self.trackTitle = trackTitle
    }
}

/// An audio record: English at the top level, other languages as translations that only
/// count when they have a file.
public struct AudioFile: Hashable, Sendable, Identifiable {
    public let id: Int
    public let title: String
    public let english: AudioVersion
    /// Usable translations by language (never contains English).
    public let translations: [Language: AudioVersion]

    public init(id: Int, title: String, english: AudioVersion, translations: [Language: AudioVersion]) {
        self.id = id
        self.title = title
        self.english = english
        self.translations = translations
    }

    /// The version to play for `language`, and whether it fell back to English.
    public func version(for language: Language) -> (version: AudioVersion, fellBack: Bool) {
        let language = language.content
        if language == .english { return (english, false) }
        if let v = translations[language] { return (v, false) }
        return (english, true)
    }

    /// Every language this recording exists in, English first.
    public var languages: [Language] { [.english] + translations.keys.sorted() }
}

/// A recording's transcript as `AudioVersion` reads it: its bytes where they lie, and its
/// mapped pages let go.
public struct TranscriptSource: Sendable {
    let text: DeferredText
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { text.withUTF8(body) }
    public func letSourceGo() { text.letSourceGo() }
}

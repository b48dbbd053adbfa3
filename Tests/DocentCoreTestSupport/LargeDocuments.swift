/// Generated appData documents shared by the tests of the pure reader and of the adapters.
public enum LargeDocuments {
    /// 3,000 recordings (English and Spanish) with transcripts long enough to stay in the
    /// document's bytes, and 3,000 artworks with a commentary each: about `3000 × 2 × repeats ×
    /// 74` bytes (3.2 MB at 12 repeats, a prepared copy of several pieces; 7 MB at 14).
    public static func longTranscripts(repeats: Int = 12) -> [UInt8] {
        let words = String(repeating: "Monet painted the water lilies of his garden at Giverny again and again. ", count: repeats)
        var audio: [String] = []
        var objects: [String] = []
        for i in 0..<3000 {
            audio.append(
                #""\#(i)": {"nid": \#(i), "title": "Audio \#(i)", "audio_file_url": "a/\#(i).mp3", "audio_transcript": "\#(i) \#(words)", "#
                    + #""translations": [{"language": "es", "audio_file_url": "a/\#(i)-es.mp3", "audio_transcript": "Hola \#(i) \#(words)"}]}"#)
            objects.append(
                #""o\#(i)": {"nid": \#(i + 10000), "title": "Work \#(i)", "gallery_location": "Gallery 1", "#
                    + #""audio_commentary": [{"audio": "\#(i)", "object_selector_number": "\#(1000 + i)"}]}"#)
        }
        return Array(
            """
            {"galleries": {"1": {"nid": "1", "title": "Gallery 1", "floor": "1", "location": "41.88,-87.62"}},
             "objects": {\(objects.joined(separator: ","))}, "audio_files": {\(audio.joined(separator: ","))}, "tours": []}
            """.utf8)
    }
}

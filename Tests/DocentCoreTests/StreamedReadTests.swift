import Foundation
import XCTest

@testable import DocentCore

/// The audio files read as the parser hands them over (issue 14: their tree never exists
/// whole) give exactly what reading them from the tree gives: the same museum and the same
/// diagnostics in the same order, whatever shape the collection has.
final class StreamedReadTests: XCTestCase {
    private func bothWays(_ bytes: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let source = "/srv/museum/appData.json"
        try oneWay(AppDataReader.read(bytes, source: source), bytes, source, name + " (streamed here)", file: file, line: line)
        // With two cores the records are read on the other one as the parser hands them over.
        try oneWay(AppDataReader.read(bytes, source: source, options: ReadOptions(both: ParallelReadTests.both)), bytes, source, name + " (two cores)", file: file, line: line)
    }

    private func oneWay(
        _ streamed: Result<AppData, AppDataError>, _ bytes: [UInt8], _ source: String, _ name: String, file: StaticString, line: UInt
    ) throws {
        let tree: Result<AppData, AppDataError>
        do {
            tree = AppDataReader.read(try JSONParser.parse(JSONBytes(bytes), deferring: ["audio_transcript"]), source: source)
        } catch {
            tree = .failure(.notJSON(error))
        }
        switch (streamed, tree) {
        case (.success(let a), .success(let b)):
            XCTAssertEqual(a, b, name, file: file, line: line)
            XCTAssertEqual(a.diagnostics, b.diagnostics, name, file: file, line: line)
        case (.failure(let a), .failure(let b)):
            XCTAssertEqual(a.description, b.description, name, file: file, line: line)
        default:
            XCTFail("\(name): streamed \(streamed), from the tree \(tree)", file: file, line: line)
        }
    }

    func testEveryDocumentReadsTheSameStreamed() throws {
        let sample = Fixtures.repoRoot.appendingPathComponent("SampleData/appData.json")
        try bothWays(try Fixtures.bytes(sample), "SampleData")
        for name in ["appData-v1.json", "appData-v2.json"] { try bothWays(try Fixtures.aicBytes(name), name) }
        try bothWays(ParallelReadTests.document(), "3,000 records with faults and duplicate ids")
    }

    func testEveryShapeOfTheCollectionReadsTheSameStreamed() throws {
        let gallery = #""galleries": {"1": {"nid": "1", "title": "Gallery 1", "floor": "1", "location": "41.88,-87.62"}}"#
        let object = #""objects": {"7": {"nid": "7", "title": "Work", "gallery_location": "Gallery 1", "audio_commentary": [{"audio": "9", "object_selector_number": "42"}]}}"#
        let good = #"{"nid": 9, "title": "Nine", "audio_file_url": "a/9.mp3", "translations": []}"#
        let shapes = [
            #""audio_files": {"9": \#(good), "x": 3, "10": {"title": "no file"}, "11": [1], "9b": \#(good)}"#,
            #""audio_files": [\#(good), "not a record", null, {"nid": 12, "audio_file_url": "a/12.mp3"}]"#,
            #""audio_files": {}"#,
            #""audio_files": []"#,
            #""audio_files": null"#,
            #""audio_files": "a string""#,
            #""audio_files": {"9": \#(good)}, "audio_files": "then a string""#,
            #""audio_files": "first a string", "audio_files": {"9": \#(good)}"#,
            #""audio_files": {"1": {"nid": 1, "audio_file_url": "a/1.mp3"}}, "audio_files": {"9": \#(good)}"#,
            #""tours": []"#,
        ]
        for (k, shape) in shapes.enumerated() {
            try bothWays(Array("{\(gallery), \(object), \(shape)}".utf8), "shape \(k): \(shape)")
        }
        // Broken documents fail with the same message, the fault inside the streamed collection or after it.
        try bothWays(Array(#"{"audio_files": {"9": \#(good), "10": {"nid": 10,, }}}"#.utf8), "a fault inside")
        try bothWays(Array(#"{"audio_files": {"9": \#(good)}, "objects": [1, }"#.utf8), "a fault after")
        try bothWays(Array(#"{"audio_files": {"9": \#(good)"#.utf8), "cut short")
    }

    /// The artworks are placed while parsing and read afterwards record by record (issue 14):
    /// every shape of `objects`, wherever it is in the document, reads as from the tree,
    /// including which appData dialect the document is taken for.
    func testEveryShapeOfTheArtworksReadsTheSamePlaced() throws {
        let gallery = #""galleries": {"1": {"nid": "1", "title": "Gallery 1", "floor": "1", "location": "41.88,-87.62"}}"#
        let audio = #""audio_files": {"9": {"nid": 9, "title": "Nine", "audio_file_url": "a/9.mp3", "translations": []}}"#
        let work = #"{"nid": "7", "title": "Work", "gallery_location": "Gallery 1", "audio_commentary": [{"audio": "9", "object_selector_number": "42"}]}"#
        let v1 = #"{"nid": "8", "title": "Old", "gallery_location": "Gallery 1", "audio": ["9"], "object_selector_number": "43"}"#
        let tour = #""tours": [{"nid": 1, "title": "T", "tour_stops": [{"object": "7", "sort": 0}]}]"#
        let fifty = (0..<50).map { #""f\#($0)": 1"# }.joined(separator: ", ")
        let shapes = [
            #"\#(gallery), "objects": {"7": \#(work), "x": 3, "8": {"title": "no id"}, "7b": \#(work), "10": [1]}, \#(audio)"#,
            #"\#(gallery), "objects": [\#(work), "not a record", null, \#(work)], \#(audio)"#,
            #"\#(gallery), "objects": {}, \#(audio), \#(tour)"#,
            #"\#(gallery), "objects": [], \#(audio), \#(tour)"#,
            #"\#(gallery), "objects": null, \#(audio), \#(tour)"#,
            #"\#(gallery), "objects": "a string", \#(audio), \#(tour)"#,
            #"\#(gallery), "objects": {"7": \#(work)}, "objects": "then a string", \#(audio), \#(tour)"#,
            #"\#(gallery), "objects": "first a string", "objects": {"7": \#(work)}, \#(audio)"#,
            #"\#(gallery), "objects": {"1": \#(work)}, "objects": {"7": \#(work)}, \#(audio)"#,
            // Before the galleries and the audio files it needs, or after both.
            #""objects": {"7": \#(work)}, \#(audio), \#(gallery), \#(tour)"#,
            #"\#(audio), \#(gallery), \#(tour), "objects": {"7": \#(work)}"#,
            // v1: an artwork with an `audio` array among the first 50, or only after them.
            #"\#(gallery), "objects": {"8": \#(v1)}, \#(audio)"#,
            #"\#(gallery), "objects": {\#(fifty), "8": \#(v1)}, \#(audio)"#,
            #"\#(gallery), "objects": [\#(v1)], \#(audio)"#,
            #"\#(gallery), "objects": {"7": \#(work), "8": \#(v1)}, "objects": {"7": \#(work)}, \#(audio)"#,
        ]
        for (k, shape) in shapes.enumerated() {
            try bothWays(Array("{\(shape)}".utf8), "shape \(k): \(shape)")
        }
        // A document the objects make v1 is read as v1 either way.
        let app = try AppDataReader.read(Array("{\(shapes[11])}".utf8), source: "/m/appData.json").get()
        XCTAssertEqual(app.format, .v1)
        XCTAssertEqual(app.artworks[8]?.commentaries.map(\.audioID), [9])
        // Broken documents fail with the same message, the fault inside the artworks or after them.
        try bothWays(Array(#"{"objects": {"7": \#(work), "8": {"nid": 8,, }}}"#.utf8), "a fault inside")
        try bothWays(Array(#"{"objects": {"7": \#(work)}, "audio_files": [1, }"#.utf8), "a fault after")
        try bothWays(Array(#"{"objects": {"7": \#(work)"#.utf8), "cut short")
    }
}

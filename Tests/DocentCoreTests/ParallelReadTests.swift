import Foundation
import TwoCores
import XCTest

@testable import DocentCore

/// Reading the audio files and artworks in two halves at once (issue 14) gives exactly what
/// reading them in order gives: the same museum and the same diagnostics in the same order,
/// duplicates across the halves included.
final class ParallelReadTests: XCTestCase {
    /// A real second thread, as the guide's.
    static let both = TwoCores.both

    /// 3,000 audio files and artworks with every kind of fault sprinkled through both halves,
    /// and ids repeated across them (JSON keys differ, `nid`s repeat).
    static func document() -> [UInt8] {
        var audio: [String] = []
        var objects: [String] = []
        for i in 0..<3000 {
            let nid = i % 1000 == 999 ? i - 1500 : i  // a few ids again, far apart
            switch i % 97 {
            case 5: audio.append(#""k\#(i)": {"nid": \#(nid), "title": "Audio \#(i)"}"#)  // no file
            case 6: audio.append(#""k\#(i)": {"nid": \#(nid), "title": "", "audio_file_url": "a/\#(i).mp3", "translations": []}"#)
            case 7: audio.append(#""k\#(i)": {"nid": \#(nid), "audio_file_url": "a/\#(i).mp3", "translations": [{"language": "", "audio_file_url": "x"}]}"#)
            default:
                audio.append(#""k\#(i)": {"nid": \#(nid), "title": "Audio \#(i)", "audio_file_url": "a/\#(i).mp3", "translations": [{"language": "es", "audio_file_url": "a/\#(i)-es.mp3", "audio_transcript": "Hola \#(i)"}]}"#)
            }
            let gallery = i % 89 == 3 ? "Gallery 9" : (i % 89 == 4 ? "Gallery 2" : "Gallery 1")
            let commentary = i % 83 == 1 ? #"[{"audio": "99999", "object_selector_number": "\#(i)"}]"# : #"[{"audio": "\#(i)", "object_selector_number": "\#(1000 + i)"}]"#
            objects.append(#""o\#(i)": {"nid": \#(nid + 10000), "title": "Work \#(i)", "gallery_location": "\#(gallery)", "audio_commentary": \#(commentary)}"#)
        }
        let doc = """
            {"galleries": {"1": {"nid": "1", "title": "Gallery 1", "floor": "1", "location": "41.88,-87.62"},
                           "2": {"nid": "2", "title": "Gallery 2", "floor": "2", "location": "41.88,-87.62", "closed": true}},
             "audio_files": {\(audio.joined(separator: ","))},
             "objects": {\(objects.joined(separator: ","))},
             "tours": []}
            """
        return Array(doc.utf8)
    }

    func testTwoHalvesAtOnceReadExactlyAsOneAfterTheOther() throws {
        let doc = Self.document()
        let serial = try AppDataReader.read(doc, source: "/srv/appData.json").get()
        let parallel = try AppDataReader.read(doc, source: "/srv/appData.json", options: ReadOptions(both: Self.both)).get()
        XCTAssertGreaterThan(serial.audioFiles.count, 2048, "enough records to be split")
        XCTAssertGreaterThan(serial.artworks.count, 2048)
        XCTAssertEqual(parallel, serial)
        XCTAssertEqual(parallel.diagnostics, serial.diagnostics)
        let seconds = serial.diagnostics.filter { $0.message.hasPrefix("a second") }
        XCTAssertGreaterThan(seconds.count, 2, "duplicates across the halves are there to be found")
        XCTAssertGreaterThan(serial.diagnostics.count, 100)
    }

    /// A prepared copy opened on two cores (the string table's halves, then the audio files
    /// beside the rest) is the same museum; a damaged one is still a miss, never a crash.
    func testAPreparedCopyOpensTheSameOnTwoCores() throws {
        let app = try AppDataReader.read(Self.document(), source: "/srv/appData.json").get()
        let copy = PreparedMuseum.encode(app, identity: "id")
        let one = try XCTUnwrap(PreparedMuseum.decode(copy, identity: "id"))
        let two = try XCTUnwrap(PreparedMuseum.decode(copy, identity: "id", both: Self.both))
        XCTAssertEqual(one, app)
        XCTAssertEqual(two, app)
        for n in stride(from: 0, to: copy.count, by: max(1, copy.count / 211)) {
            XCTAssertNil(PreparedMuseum.decode(Array(copy[0..<n]), identity: "id", both: Self.both), "cut at \(n)")
        }
    }
}

import XCTest

@testable import DocentCore

/// The deterministic rules Docent uses where the AIC app crashes or behaves arbitrarily
/// (DECISIONS.md), and the dialect differences it accepts.
final class ReaderRulesTests: XCTestCase {
    /// A small v2 museum; `patch` edits it before reading.
    static let base = #"""
        {
          "general_info": {"nid": "1", "museum_hours": "Open &amp; free", "translations": [
            {"language": "es", "museum_hours": "Abierto"}, {"language": "", "museum_hours": "???"}]},
          "galleries": {
            "1": {"nid": 1, "title": "Gallery 1", "gallery_id": "901", "closed": false, "location": "41.88,-87.62", "floor": "LL"},
            "2": {"nid": "2", "title": "Gallery 2", "gallery_id": "902", "closed": true, "location": "41.88,-87.62", "floor": 2}
          },
          "audio_files": {
            "10": {"nid": 10, "title": "A &amp; B", "audio_file_url": "audio/10.mp3", "audio_transcript": "Hello\r\nthere",
                   "translations": [{"language": "es", "audio_file_url": "audio/10-es.mp3", "audio_transcript": "Hola"},
                                    {"language": "zh-hant", "audio_file_url": "", "audio_transcript": ""},
                                    {"language": "xx", "audio_file_url": "audio/10-xx.mp3"},
                                    {"audio_file_url": "audio/10-unknown.mp3"}]},
            "11": {"nid": "11", "title": "Second", "audio_file_url": "http://cdn.example/11.mp3"},
            "12": {"nid": 12, "title": "No file"}
          },
          "objects": {
            "100": {"nid": 100, "title": "Blue Boat", "gallery_location": "Gallery 1", "location": "41.88, -87.62",
                    "artist_culture_place_delim": "Ana Ruiz|Spanish, b. 1950",
                    "audio_commentary": [{"object_selector_number": "0042", "audio": "10"}, {"object_selector_number": "43", "audio": "11"}]},
            "101": {"nid": 101, "title": "Red Boat", "gallery_location": "Gallery 1", "location": "41.88, -87.62",
                    "audio_commentary": [{"object_selector_number": "42", "audio": "11"}, {"object_selector_number": "44", "audio": "99"}]},
            "102": {"nid": 102, "title": "Hidden", "gallery_location": "Gallery 2", "location": "41.88, -87.62"},
            "103": {"nid": 103, "title": "Lost", "gallery_location": "Gallery 77", "location": "41.88, -87.62"},
            "104": {"nid": "123456789012345678901234567890", "title": "Huge id", "gallery_location": "Gallery 1", "location": "41.88, -87.62"},
            "105": {"nid": 1e999, "title": "Inf id", "gallery_location": "Gallery 1", "location": "41.88, -87.62"}
          },
          "tours": [
            {"nid": "500", "title": "Boats", "description": "D", "intro": "I", "tour_audio": "11", "weight": "2",
             "location": "41.88, -87.62", "selector_number": "300", "translations": [],
             "tour_stops": [
               {"sort": 1, "object": "101", "audio_id": "11", "audio_bumper": "10"},
               {"sort": 0, "object": "100", "audio_id": "10", "audio_bumper": null},
               {"sort": 2, "object": "102", "audio_id": "10", "audio_bumper": null}]},
            {"nid": 501, "title": "Empty", "description": "", "intro": "", "tour_audio": 11, "weight": 1, "location": "41.88,-87.62",
             "translations": [], "tour_stops": [{"sort": 0, "object": 102, "audio_id": 10}]}
          ],
          "data": {"image_server_url": "https://iiif.example/iiif/2", "events_endpoint": "/old", "events_endpoint_v2": "/api/v1/event-occurrences"},
          "search": {"search_strings": ["Boats", "Blue"], "search_objects": [100, 999, 101]}
        }
        """#

    func read(_ json: String = base, source: String = "http://museum.example/app/appData.json") throws -> AppData {
        try Fixtures.read(json, source: source).get()
    }

    func testSharedKeypadNumberGivesEveryTargetInIdOrder() throws {
        let app = try read()
        XCTAssertEqual(app.keypad.lookup("42"), [.artwork(artworkID: 100, audioID: 10), .artwork(artworkID: 101, audioID: 11)])
        XCTAssertEqual(app.keypad.sharedNumbers, [42])
        XCTAssertTrue(app.diagnostics.contains { $0.severity == .warning && $0.id == "42" })
        // One artwork, two numbers, two recordings.
        XCTAssertEqual(app.keypad.lookup("43"), [.artwork(artworkID: 100, audioID: 11)])
        // Tours are checked before artworks; leading zeros are ignored.
        XCTAssertEqual(app.keypad.lookup("0300"), [.tour(tourID: 500)])
        XCTAssertEqual(app.keypad.lookup("7"), [])
        XCTAssertEqual(app.keypad.lookup("123456"), [], "six digits never match")
        XCTAssertEqual(app.keypad.lookup(""), [])
    }

    func testEveryDroppedRecordIsReportedWithPathIdAndReason() throws {
        let app = try read()
        let dropped = app.diagnostics.filter { $0.severity == .dropped }.map { "\($0.path)|\($0.id ?? "")|\($0.message)" }
        XCTAssertEqual(dropped.sorted(), [
            "audio_files[\"10\"].translations[3]|10|translation without a usable language tag",
            "audio_files[\"12\"]|12|no audio_file_url for the English recording",
            "general_info.translations[1]||translation without a usable language tag",
            "objects[\"101\"].audio_commentary[1]|101|audio 99 is not in audio_files",
            "objects[\"102\"]|102|gallery \"Gallery 2\" is closed",
            "objects[\"103\"]|103|gallery \"Gallery 77\" is not in galleries",
            "objects[\"104\"]|104|nid: \"123456789012345678901234567890\" is too large for an id",
            "objects[\"105\"]|105|nid: 1e999 is out of range",
            "tours[0].tour_stops[2]|500|artwork 102 is not available (missing, or its gallery is closed or unknown)",
            "tours[1]|501|no usable stop",
            "tours[1].tour_stops[0]|501|artwork 102 is not available (missing, or its gallery is closed or unknown)",
        ].sorted())
    }

    func testUnknownLanguageNeverOverwritesEnglish() throws {
        let audio = try XCTUnwrap(try read().audioFiles[10])
        XCTAssertEqual(audio.english.url, "http://museum.example/app/audio/10.mp3")
        XCTAssertEqual(audio.english.transcript, "Hello\nthere")
        XCTAssertEqual(audio.title, "A & B")
        XCTAssertEqual(Set(audio.translations.keys), [Language.spanish, Language(code: "xx")])
        // Chinese has an empty URL (Drupal's way of saying "none"): English plays, marked.
        let zh = audio.version(for: .chinese)
        XCTAssertTrue(zh.fellBack)
        XCTAssertEqual(zh.version.language, .english)
        XCTAssertEqual(audio.version(for: .spanish).version.transcript, "Hola")
    }

    /// The data's Chinese is one content language whatever its tag ("zh-hant" in the AIC's
    /// data is mostly Simplified): both interface scripts read it (issue 16 #2).
    func testChineseContentServesBothInterfaceScripts() throws {
        XCTAssertEqual(Language.fromTag("zh-hant"), .traditionalChinese)
        XCTAssertEqual(Language.fromTag("zh-Hans"), .chinese)
        XCTAssertEqual(Language.fromTag("ZH"), .chinese)
        XCTAssertEqual(Language.fromTag("zh_TW"), .traditionalChinese)
        XCTAssertEqual(Language.fromTag("zh-HK"), .traditionalChinese)
        XCTAssertEqual(Language.fromTag("zh_CN"), .chinese)
        XCTAssertEqual(Language.fromTag("fr-CA"), .french)
        XCTAssertEqual(Language.traditionalChinese.content, .chinese)
        XCTAssertEqual(Language.korean.content, .korean)
        let app = try Fixtures.app(Self.base.replacingOccurrences(
            of: #"{"language": "zh-hant", "audio_file_url": "", "audio_transcript": ""}"#,
            with: #"{"language": "zh-hant", "audio_file_url": "audio/10-zh.mp3", "audio_transcript": "你好"}"#))
        let audio = try XCTUnwrap(app.audioFiles[10])
        XCTAssertNotNil(audio.translations[.chinese], "stored as Chinese")
        XCTAssertNil(audio.translations[.traditionalChinese])
        for ui in [Language.chinese, .traditionalChinese] {
            let v = audio.version(for: ui)
            XCTAssertFalse(v.fellBack, "\(ui)")
            XCTAssertEqual(v.version.transcript, "你好", "\(ui)")
        }
        XCTAssertTrue(audio.version(for: .korean).fellBack, "no Korean: English, marked")
    }

    func testStopsSortedAndBumpersKept() throws {
        let tour = try XCTUnwrap(try read().tours.first)
        XCTAssertEqual(tour.stops.map(\.artworkID), [100, 101])
        XCTAssertEqual(tour.stops.map(\.bumperID), [nil, 10])
        XCTAssertEqual(tour.weight, 2)
        XCTAssertEqual(tour.selectorNumber, 300)
        XCTAssertEqual(tour.floor, .lowerLevel, "floor of the first stop's gallery (LL)")
    }

    func testTombstoneAndFloors() throws {
        let app = try read()
        XCTAssertEqual(app.artworks[100]?.tombstone, "Ana Ruiz\nSpanish, b. 1950")
        XCTAssertEqual(app.artworks[100]?.floor, .lowerLevel)
        XCTAssertEqual(app.galleries[2]?.floor, Floor(2))
        XCTAssertEqual(app.galleries[1]?.galleryID, 901)
    }

    func testCMSDialect() throws {
        let app = try read()
        XCTAssertEqual(app.format, .cms, "search_strings as an array")
        XCTAssertEqual(app.search.strings, ["Boats", "Blue"])
        XCTAssertEqual(app.search.artworkIDs, [100, 101], "unknown ids are skipped, not a stop")
        XCTAssertEqual(app.endpoints.eventsEndpoint, "/api/v1/event-occurrences", "events_endpoint_v2 wins")
        XCTAssertEqual(app.generalInfo.text("museum_hours", .english)?.text, "Open & free")
        XCTAssertEqual(app.generalInfo.text("museum_hours", .spanish)?.text, "Abierto")
    }

    func testGeneralInfoWithoutNidIsKept() throws {
        let doc = Self.base.replacingOccurrences(of: #""nid": "1", "museum_hours""#, with: #""museum_hours""#)
        let app = try read(doc)
        XCTAssertEqual(app.generalInfo.text("museum_hours", .english)?.text, "Open & free")
        XCTAssertTrue(app.diagnostics.contains { $0.path == "general_info" && $0.message.contains("no nid") })
    }

    func testIIIFImageIdsBecomeURLs() throws {
        let doc = Self.base.replacingOccurrences(
            of: #""title": "Blue Boat","#, with: #""title": "Blue Boat", "image_url": "1adf2696-8489-499b-cad2-821d7fde4b33","#)
        let app = try read(doc)
        XCTAssertEqual(app.artworks[100]?.imageURL, "https://iiif.example/iiif/2/1adf2696-8489-499b-cad2-821d7fde4b33/full/843,/0/default.jpg")
    }

    func testURLsResolveAgainstTheDocument() throws {
        let fromPath = try read(source: "/srv/museum/appData.json")
        XCTAssertEqual(fromPath.audioFiles[10]?.english.url, "/srv/museum/audio/10.mp3")
        XCTAssertEqual(fromPath.audioFiles[11]?.english.url, "http://cdn.example/11.mp3")
        let fromFileURL = try read(source: "file:///srv/museum/appData.json")
        XCTAssertEqual(fromFileURL.audioFiles[10]?.english.url, "file:///srv/museum/audio/10.mp3")
        XCTAssertEqual(URLResolver(base: "/a/b/c.json").resolve("../x/./y.mp3"), "/a/x/y.mp3")
        XCTAssertEqual(URLResolver(base: "https://h.example/a/c.json").resolve("/root.pdf"), "https://h.example/root.pdf")
        XCTAssertEqual(URLResolver(base: "https://h.example/a/c.json").resolve("my file.mp3"), "https://h.example/a/my%20file.mp3")
        XCTAssertNil(URLResolver(base: "/a/c.json").resolve("   "))
    }

    func testPrefixRewrite() {
        let r = URLResolver(base: "/a/c.json", rewrite: .init(from: "http://internal.lan/", to: "https://public.example/"))
        XCTAssertEqual(r.resolve("http://internal.lan/audio/1.mp3"), "https://public.example/audio/1.mp3")
        XCTAssertEqual(r.resolve("http://other/1.mp3"), "http://other/1.mp3")
    }

    func testNothingUsable() {
        guard case .failure(let e) = Fixtures.read("{}") else { return XCTFail("should fail") }
        XCTAssertEqual(e, .nothingUsable("the document has neither \"objects\" nor \"tours\""))
        guard case .failure(let e2) = Fixtures.read(#"{"objects": {"1": {"nid": 1}}, "tours": []}"#) else { return XCTFail("should fail") }
        if case .nothingUsable(let why) = e2 { XCTAssertTrue(why.contains("1 records dropped")) } else { XCTFail("\(e2)") }
        guard case .failure(.notAnObject(let found, _)) = Fixtures.read("\"just a string\"") else { return XCTFail("should fail") }
        XCTAssertEqual(found, "a string")
    }

    func testWrongShapesAreReportedNotFatal() throws {
        let doc = Self.base.replacingOccurrences(of: #""search": {"#, with: #""messages": [], "tour_categories": [], "map_floors": [1], "map_annontations": "x", "exhibitions": {}, "search": {"#)
        let app = try read(doc)
        XCTAssertTrue(app.diagnostics.contains { $0.path == "map_floors" })
        XCTAssertTrue(app.diagnostics.contains { $0.path == "map_annontations" && $0.severity == .dropped })
        XCTAssertEqual(app.messages, [])
    }

    func testHostileBytesNeverCrash() {
        let cases: [[UInt8]] = [
            Array(Self.base.utf8.prefix(700)),  // truncated
            [0xEF, 0xBB, 0xBF] + Array(Self.base.utf8),  // BOM
            [0xFF, 0xFE, 0x00, 0x7B],  // UTF-16 BOM
            Array(repeating: UInt8(ascii: "["), count: 100_000),
            Array(#"{"objects": {"1": {"nid": 1, "title": ""#.utf8) + [0xC0, 0xAF] + Array(#""}}}"#.utf8),
        ]
        for (i, bytes) in cases.enumerated() {
            switch AppDataReader.read(bytes, source: "/x/appData.json") {
            case .success(let app): XCTAssertEqual(i, 1, "only the BOM case is usable"); XCTAssertTrue(app.diagnostics.contains { $0.message.contains("byte-order mark") })
            case .failure(let e): XCTAssertFalse(e.description.isEmpty)
            }
        }
    }

    func testMissingTranslationsArraysAreAccepted() throws {
        let doc = #"""
            {"galleries": {"1": {"nid": 1, "title": "G", "closed": false, "location": "1,1", "floor": 1, "gallery_id": "5"}},
             "audio_files": {"2": {"nid": 2, "title": "T", "audio_file_url": "a.mp3"}},
             "objects": {"3": {"nid": 3, "title": "O", "gallery_location": "G", "location": "1,1", "audio_commentary": [{"object_selector_number": "7", "audio": "2"}]}},
             "tours": [{"nid": 4, "title": "Tour", "description": "d", "intro": "i", "tour_audio": 2, "weight": 0, "location": "1,1",
                        "tour_stops": [{"sort": 0, "object": 3, "audio_id": 2, "audio_bumper": null}]}]}
            """#
        let app = try read(doc)
        XCTAssertEqual(app.tours.count, 1)
        XCTAssertEqual(app.audioFiles[2]?.translations.count, 0)
        XCTAssertTrue(app.diagnostics.filter { $0.message.contains("no translations array") }.count >= 2)
        XCTAssertEqual(app.diagnostics.filter { $0.severity == .dropped }, [])
    }

    func testDocumentOrderDoesNotMatter() throws {
        // The same galleries in the opposite field order give the same result.
        let a = try read()
        let swapped = Self.base.replacingOccurrences(of: "\"100\": {\"nid\": 100", with: "\"1000\": {\"nid\": 100")
        let b = try read(swapped)
        XCTAssertEqual(a.keypad, b.keypad)
        XCTAssertEqual(a.tours, b.tours)
    }
}

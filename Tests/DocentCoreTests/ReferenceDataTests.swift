import XCTest

@testable import DocentCore

/// Pins what the reader and `validate` make of the real AIC documents in shared/reference.
final class ReferenceDataTests: XCTestCase {
    private func read(_ name: String) throws -> Result<AppData, AppDataError> {
        AppDataReader.read(try Fixtures.aicBytes(name), source: Fixtures.aic.appendingPathComponent(name).path)
    }

    func testV2SampleReadsCompletely() throws {
        let app = try read("appData-v2.json").get()
        XCTAssertEqual(app.format, .v2)
        let r = ValidationReport(app: app)
        XCTAssertEqual(r.counts.galleries, 10)
        XCTAssertEqual(r.counts.artworks, 9)
        XCTAssertEqual(r.counts.audioFiles, 11)
        XCTAssertEqual(r.counts.tours, 1)
        XCTAssertEqual(r.counts.tourStops, 9)
        XCTAssertEqual(r.counts.mapFloors, 4)
        XCTAssertEqual(r.counts.annotations, 34)
        XCTAssertEqual(r.counts.keypadNumbers, 9)
        XCTAssertEqual(r.droppedCount, 0)
        XCTAssertEqual(r.warningCount, 0)
        XCTAssertEqual(r.missingBumpers.count, 9, "the sample tour has no bumpers, to its first stop (after the intro) either")
        XCTAssertTrue(r.sharedKeypadNumbers.isEmpty)
        // The object-level 109 on 1037 is a v1 leftover: the keypad follows audio_commentary.
        XCTAssertEqual(app.keypad.lookup("109"), [.artwork(artworkID: 1254, audioID: 1025)])
        XCTAssertEqual(app.keypad.lookup("101"), [.artwork(artworkID: 1036, audioID: 1027)])
        XCTAssertEqual(app.keypad.lookup("00105"), [.artwork(artworkID: 1041, audioID: 1028)])
        XCTAssertTrue(app.diagnostics.contains { $0.message.contains("events_endpoint") })
        // Spec §b.3 sample mapping.
        let expected = [101: 1036, 102: 1037, 103: 1038, 104: 1039, 105: 1041, 106: 1043, 107: 1044, 108: 1045, 109: 1254]
        for (n, object) in expected {
            guard case .artwork(let a, _)? = app.keypad.lookup(String(n)).first else { return XCTFail("\(n) not found") }
            XCTAssertEqual(a, object, "keypad \(n)")
        }
    }

    func testV2ContentIsCleaned() throws {
        let app = try read("appData-v2.json").get()
        for a in app.audioFiles.values {
            for v in [a.english] + Array(a.translations.values) {
                XCTAssertFalse(v.transcript.contains("\r"), "audio \(a.id)")
                XCTAssertFalse(v.transcript.contains("&#039;"), "audio \(a.id)")
            }
        }
        XCTAssertEqual(app.search.strings, ["Essentials Tour", "Impressionism", "A Sunday on La Grande Jatte - 1884"])
        XCTAssertEqual(app.search.artworkIDs, [1039, 1041, 1043, 1044, 1045])
        let info = app.generalInfo.text("museum_hours", .spanish)
        XCTAssertEqual(info?.fellBack, false)
        XCTAssertTrue(info?.text.contains("\n") == true, "Spanish hours have two lines")
        XCTAssertEqual(app.galleries.values.first { $0.title == "Gallery 109" }?.displayTitle, "109")
        let tour = try XCTUnwrap(app.tours.first)
        let es = tour.text(.spanish)
        XCTAssertEqual(es.text.intro, tour.english.intro, "empty translated intro falls back to English")
        XCTAssertTrue(es.fellBack)
        // Floors resolve against the document's own location.
        XCTAssertEqual(app.mapFloors.map(\.planURL).first, "http://localhost:8888/map_floor0.pdf")
    }

    func testV1SampleReads() throws {
        let app = try read("appData-v1.json").get()
        XCTAssertEqual(app.format, .v1)
        let r = ValidationReport(app: app)
        XCTAssertEqual(r.counts.galleries, 10)
        XCTAssertEqual(r.counts.artworks, 9)
        XCTAssertEqual(r.counts.tours, 1)
        XCTAssertEqual(r.counts.tourStops, 9)
        XCTAssertEqual(r.droppedCount, 0)
        XCTAssertEqual(app.keypad.count, 2)
        XCTAssertFalse(app.keypad.lookup("109").isEmpty)
        XCTAssertFalse(app.keypad.lookup("55").isEmpty)
        // v1 tours have no weight; array position is used without complaint.
        XCTAssertEqual(app.tours.first?.weight, 0)
    }

    func testAndroidToursFileIsNotAnAppData() throws {
        guard case .failure(let e) = try read("android-welcome/tours.json") else { return XCTFail("should fail") }
        XCTAssertEqual(e, .notAnObject(found: "an array", hint: "it looks like a list of tours; point Docent at the whole appData.json"))
    }

    func testSearchResponsesAreNotAppData() throws {
        guard case .failure(let e) = try read("search/msearch.json") else { return XCTFail("should fail") }
        if case .notAnObject = e {} else { XCTFail("got \(e)") }
        guard case .failure(let e2) = try read("search/exhibitions.json") else { return XCTFail("should fail") }
        if case .nothingUsable = e2 {} else { XCTFail("got \(e2)") }
    }

    /// Issue 17 #14: the family tour's first stop has no walking directions after the intro;
    /// validate says so.
    func testSampleDataFirstStopWithoutBumperIsReported() throws {
        let url = Fixtures.repoRoot.appendingPathComponent("SampleData/appData.json")
        let app = try AppDataReader.read(try Fixtures.bytes(url), source: url.path).get()
        let r = ValidationReport(app: app)
        XCTAssertEqual(r.missingBumpers.map { "\($0.tourID)/\($0.stopIndex)/\($0.artworkID)" }, ["4003/1/1121"])
        XCTAssertTrue(r.text().contains("tour 4003 stop 1 (artwork 1121)"), r.text())
    }

    /// The languages some recordings or tours lack, counted as a visitor would: for every
    /// language in the content but English, the recordings and the tours without it.
    func testLanguageGapsCountWhatLacksEachLanguage() throws {
        let sample = Fixtures.repoRoot.appendingPathComponent("SampleData/appData.json")
        let apps = [
            try read("appData-v2.json").get(),
            try AppDataReader.read(try Fixtures.bytes(sample), source: sample.path).get(),
            try AppDataReader.read(ParallelReadTests.document(), source: "/srv/appData.json").get(),
        ]
        var checked = 0
        for app in apps {
            var expected: [String] = []
            for lang in app.contentLanguages where lang != .english {
                let a = app.audioFiles.values.filter { $0.translations[lang] == nil }.count
                let t = app.tours.filter { $0.translations[lang] == nil }.count
                if a + t > 0 { expected.append("\(lang.code) \(a) \(t)") }
            }
            XCTAssertEqual(ValidationReport(app: app).languageGaps.map { "\($0.language.code) \($0.audioWithout) \($0.toursWithout)" }, expected, app.source)
            checked += expected.count
        }
        XCTAssertGreaterThan(checked, 0, "some language is missing somewhere (the generated document lacks Spanish here and there)")
    }
}

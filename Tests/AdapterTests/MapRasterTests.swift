import DocentCore
import DocentCoreTestSupport
import DocentUI
import Foundation
import StringFiles
import MapRaster
import XCTest

/// The poppler adapter on our SampleData plans and on the real AIC plans, the raster cache
/// (keyed by URL and content), and the map screen at 120×40 on each AIC floor (fixtures in
/// `Fixtures/map-aic-floor<N>-120x40.txt`; `RECORD_SNAPSHOTS=1` rewrites them).
final class MapRasterTests: XCTestCase {
    static let testsDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repoRoot = testsDir.deletingLastPathComponent().deletingLastPathComponent()
    static let aicDir = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/reference/aic")
    static var record: Bool { !["", "0"].contains(ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] ?? "") }

    func samplePlan(_ n: Int) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.repoRoot.appendingPathComponent("SampleData/maps/floor\(n).pdf")))
    }

    func aicPlan(_ n: Int) throws -> [UInt8] {
        let u = Self.aicDir.appendingPathComponent("map_floor\(n).pdf")
        guard FileManager.default.fileExists(atPath: u.path) else { throw TestDataMissing("AIC reference plans not found at \(u.path)") }
        return [UInt8](try Data(contentsOf: u))
    }

    /// The AIC plans at 2 px/pt, rasterised once for the whole class (a debug build takes a
    /// second or two per floor).
    nonisolated(unsafe) static var aicRasters: [Int: PlanRaster] = [:]

    func aicRaster(_ n: Int) throws -> PlanRaster {
        if let r = Self.aicRasters[n] { return r }
        let r = try rasterise(try aicPlan(n))
        Self.aicRasters[n] = r
        return r
    }

    /// A one-page PDF with a square drawn on it, its page box as given (offsets computed, so
    /// poppler reads it without repairing).
    static func pdf(mediaBox: String) -> [UInt8] {
        let content = "0 0 0 RG 4 w 100 100 m 300 100 l 300 300 l 100 300 l h S"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [\(mediaBox)] /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ]
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(o)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for o in offsets { out += String(format: "%010d 00000 n \n", o) }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(out.utf8)
    }

    func testAbsurdPageSizesAreRefusedWithTheirSize() throws {
        // A sane page still works, so the refusals below are about the size alone.
        let ok = try rasterise(Self.pdf(mediaBox: "0 0 400 400"))
        XCTAssertGreaterThan(ok.width, 0)
        for box in ["0 0 20000000000 20000000000", "0 0 10000000000000000000000 10000000000000000000000", "0 0 20000000000 600"] {
            guard case .failure(let f) = PopplerRasterizer.rasterise(pdf: Self.pdf(mediaBox: box), pixelsPerPoint: 2) else {
                XCTFail("a \(box) page was rasterised")
                continue
            }
            XCTAssertTrue(f.message.contains("at most 200000 points"), f.message)
        }
        // A negative box: poppler normalises it, or the page has no size; either way a bounded
        // overview (no 2 GB image) and an answer.
        switch PopplerRasterizer.rasterise(pdf: Self.pdf(mediaBox: "0 0 -2000000000 -2000000000"), pixelsPerPoint: 2) {
        case .success(let r): XCTAssertLessThanOrEqual(r.width * r.height, PopplerRasterizer.maxPixels)
        case .failure(let f): XCTAssertFalse(f.message.isEmpty)
        }
    }

    func rasterise(_ pdf: [UInt8], scale: Double = 2) throws -> PlanRaster {
        switch PopplerRasterizer.rasterise(pdf: pdf, pixelsPerPoint: scale) {
        case .success(let r): return r
        case .failure(let f): throw TestDataMissing("poppler failed: \(f.message)")
        }
    }

    // MARK: Rasterising and trimming

    func testSamplePlansAreTrimmedToTheBuilding() throws {
        for n in 0...3 {
            let r = try rasterise(try samplePlan(n))
            let box = r.planBox
            // The building spans about x 760…1660, y 860…1540 (from the top) on a 2400 pt page.
            XCTAssertGreaterThan(box.minX, 700, "floor \(n): \(box)")
            XCTAssertLessThan(box.maxX, 1720, "floor \(n): \(box)")
            XCTAssertGreaterThan(box.minY, 2400 - 1600, "floor \(n): \(box)")
            XCTAssertLessThan(box.maxY, 2400 - 800, "floor \(n): \(box)")
            XCTAssertLessThan(box.width * box.height, 2400 * 2400 / 4, "most of the page is trimmed away")
            XCTAssertEqual(r.pixelsPerPoint, 2)
            XCTAssertEqual(r.ink.lightLimit, 256, "black walls on white paper: dark ink")
            XCTAssertGreaterThan(r.inkCount(x0: 0, y0: 0, x1: r.width, y1: r.height), 1000, "walls are ink")
        }
    }

    /// Issue 33 #10: the plan's printed text (our sample plans set room numbers and street
    /// names in Helvetica) is not ink; the walls beside it are.
    func testPrintedTextIsTakenOffThePlan() throws {
        let r = try rasterise(try samplePlan(1))
        // "101" on floor 1: x 903.5…940.2, y 1021.5…1041.9 from the top of a 2400 pt page
        // (`pdftotext -bbox`); the gallery's walls are left and right of it.
        let a = r.pixel(PlanPoint(x: 903.5, y: 2400 - 1021.5)), b = r.pixel(PlanPoint(x: 940.2, y: 2400 - 1041.9))
        XCTAssertEqual(r.inkCount(x0: Int(a.x), y0: Int(a.y), x1: Int(b.x.rounded(.up)), y1: Int(b.y.rounded(.up))), 0, "no ink where 101 is printed")
        let wide0 = r.pixel(PlanPoint(x: 760, y: 2400 - 1021.5)), wide1 = r.pixel(PlanPoint(x: 1080, y: 2400 - 1041.9))
        XCTAssertGreaterThan(r.inkCount(x0: Int(wide0.x), y0: Int(wide0.y), x1: Int(wide1.x), y1: Int(wide1.y)), 0, "the gallery's walls stay")
    }

    func testAICPlansAreTrimmedToTheBuildingInTheMiddleOfThePage() throws {
        for n in 0...3 {
            let r = try aicRaster(n)
            let box = r.planBox
            // pdftoppm shows the building at about x 840…1565, y 847…1555 from the top.
            XCTAssertEqual(box.minX, 840, accuracy: 50, "floor \(n): \(box)")
            XCTAssertEqual(box.maxX, 1560, accuracy: 60, "floor \(n): \(box)")
            XCTAssertEqual(2400 - box.maxY, 848, accuracy: 50, "floor \(n): \(box)")
            XCTAssertEqual(2400 - box.minY, 1552, accuracy: 50, "floor \(n): \(box)")
            XCTAssertLessThan(r.ink.darkLimit, 0, "white walls on a blue-grey building: light ink")
        }
    }

    func testABrokenPlanFailsWithAMessage() {
        guard case .failure(let f) = PopplerRasterizer.rasterise(pdf: Array("%PDF-1.4 not really".utf8), pixelsPerPoint: 2) else {
            return XCTFail("garbage rasterised")
        }
        XCTAssertTrue(f.message.contains("PDF"), f.message)
        guard case .failure = PopplerRasterizer.rasterise(pdf: [], pixelsPerPoint: 2) else { return XCTFail("empty rasterised") }
    }

    // MARK: Cache

    /// Serves fixed bytes (and an ETag) for any URL; counts requests.
    final class FakeFetcher: Fetching, @unchecked Sendable {
        var body: [UInt8]
        var etag: String?
        var requests: [FetchRequest] = []
        var failure: FetchError?
        init(_ body: [UInt8], etag: String? = nil) {
            self.body = body
            self.etag = etag
        }
        func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError> {
            requests.append(request)
            if let f = failure { return .failure(f) }
            if let e = etag, request.etag == e { return .success(FetchResponse(status: 304, body: [], etag: e)) }
            return .success(FetchResponse(status: 200, body: body, etag: etag))
        }
    }

    func tempCache() throws -> PlanCache {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("docent-plan-cache-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return PlanCache(directory: dir.path)
    }

    func testCacheIsKeyedByURLAndContentNotByName() throws {
        let cache = try tempCache()
        let url = "https://museum.example/maps/floor1.pdf"
        let fetcher = FakeFetcher(try samplePlan(1))
        let loader = PlanLoader(fetcher: fetcher, cache: cache)
        guard case .success(let first) = loader.load(url: url, pixelsPerPoint: 1) else { return XCTFail("load") }
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory)
        XCTAssertEqual(files.filter { $0.hasSuffix(".raster") }.count, 1)
        // Same URL, same content: from the cache (an equal raster read back from disk).
        guard case .success(let again) = loader.load(url: url, pixelsPerPoint: 1) else { return XCTFail("reload") }
        XCTAssertEqual(again.pixels, first.pixels)
        XCTAssertEqual(again.origin, first.origin)
        // Same URL and name, new content: a new raster, not the stale one (spec §h.19).
        fetcher.body = try samplePlan(3)
        guard case .success(let changed) = loader.load(url: url, pixelsPerPoint: 1) else { return XCTFail("changed") }
        XCTAssertNotEqual(changed.pixels, first.pixels)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.directory).filter { $0.hasSuffix(".raster") }.count, 2)
    }

    func testAnUnchangedETagCostsNoPDFWork() throws {
        let cache = try tempCache()
        let url = "https://museum.example/maps/floor2.pdf"
        let fetcher = FakeFetcher(try samplePlan(2), etag: "\"v1\"")
        let loader = PlanLoader(fetcher: fetcher, cache: cache)
        guard case .success(let first) = loader.load(url: url, pixelsPerPoint: 1) else { return XCTFail("load") }
        guard case .success(let second) = loader.load(url: url, pixelsPerPoint: 1) else { return XCTFail("304") }
        XCTAssertEqual(fetcher.requests.last?.etag, "\"v1\"")
        XCTAssertEqual(second.pixels, first.pixels)
    }

    /// A plan seen once is drawn from its saved raster when the server cannot be reached (with
    /// or without an ETag); a server that answers "not there" is believed.
    func testAPlanSeenOnceIsUsedOffline() throws {
        let cache = try tempCache()
        for (url, etag) in [("https://museum.example/maps/floor1.pdf", "\"v1\""), ("https://museum.example/maps/plain.pdf", nil)] {
            let fetcher = FakeFetcher(try samplePlan(1), etag: etag)
            let loader = PlanLoader(fetcher: fetcher, cache: cache)
            guard case .success(let first) = loader.load(url: url, pixelsPerPoint: 1) else { return XCTFail("load \(url)") }
            XCTAssertEqual(fetcher.requests.last?.etag, nil, "the first request asks for the plan outright")
            XCTAssertFalse(loader.loadSayingWhence(url: url, pixelsPerPoint: 1).savedCopy, "fresh (or unchanged on the server)")
            fetcher.failure = .unreachable(url: url, reason: "Couldn't connect to server")
            let (result, savedCopy) = loader.loadSayingWhence(url: url, pixelsPerPoint: 1)
            guard case .success(let offline) = result else { return XCTFail("offline \(url)") }
            XCTAssertTrue(savedCopy, "the map is told it draws the saved copy")
            XCTAssertEqual(offline.pixels, first.pixels)
            fetcher.failure = .timedOut(url: url)
            guard case .success = loader.load(url: url, pixelsPerPoint: 1) else { return XCTFail("timed out \(url)") }
            fetcher.failure = .http(status: 404, url: url)
            guard case .failure(let gone) = loader.load(url: url, pixelsPerPoint: 1) else { return XCTFail("404 \(url)") }
            XCTAssertEqual(gone.problem, .http(404))
        }
        // Never seen: offline is a failure, told plainly.
        let fetcher = FakeFetcher([])
        fetcher.failure = .unreachable(url: "https://museum.example/maps/new.pdf", reason: "Couldn't connect to server")
        guard case .failure(let f) = PlanLoader(fetcher: fetcher, cache: cache).load(url: "https://museum.example/maps/new.pdf", pixelsPerPoint: 1) else {
            return XCTFail("a plan never seen cannot be drawn offline")
        }
        XCTAssertEqual(f.problem, .unreachable)
        XCTAssertTrue(f.message.contains("Couldn't connect"), f.message)
    }

    func testFetchFailuresAreReadable() throws {
        let fetcher = FakeFetcher([])
        fetcher.failure = .http(status: 404, url: "https://museum.example/maps/floor9.pdf")
        guard case .failure(let f) = PlanLoader(fetcher: fetcher, cache: nil).load(url: "https://museum.example/maps/floor9.pdf", pixelsPerPoint: 2) else {
            return XCTFail("a 404 loaded")
        }
        XCTAssertTrue(f.message.contains("404"), f.message)
    }

    // MARK: Plans that are too much work (issue 45)

    /// A one-page PDF whose page draws form F`depth`, which draws F`depth-1` ten times, and so
    /// on down to F0, one short line: 10^depth lines from about 4 KB.
    static func nestedFormsPDF(depth: Int = 9) -> [UInt8] {
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /Resources << /XObject << /F \(5 + depth) 0 R >> >> /Contents 4 0 R >>",
        ]
        func stream(_ dict: String, _ content: String) -> String { "<< \(dict) /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream" }
        objects.append(stream("", "/F Do"))
        objects.append(stream("/Type /XObject /Subtype /Form /BBox [0 0 400 400]", "0 0 0 RG 1 w 100 100 m 300 300 l S"))
        for level in 1...depth {
            let draws = (0..<10).map { "q 1 0 0 1 \($0) 0 cm /F Do Q" }.joined(separator: " ")
            objects.append(stream("/Type /XObject /Subtype /Form /BBox [0 0 400 400] /Resources << /XObject << /F \(4 + level) 0 R >> >>", draws))
        }
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(o)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for o in offsets { out += String(format: "%010d 00000 n \n", o) }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(out.utf8)
    }

    /// The guide's own binary, which answers to `docent plan-raster` (built with the tests).
    func planWorker(timeLimit: Double) throws -> PlanWorker {
        let exe = Self.repoRoot.appendingPathComponent(".build/debug/docent").path
        guard FileManager.default.isExecutableFile(atPath: exe) else { throw TestDataMissing("\(exe) is not built (swift build)") }
        return PlanWorker(executable: exe, timeLimit: timeLimit)
    }

    /// Issue 45: a 2.6 KB plan of nested forms pinned a core for an hour, and every other floor
    /// waited behind it at "loading plan…" (one lock for every render). In a worker of its own
    /// it is stopped at its time limit and remembered; another floor draws meanwhile.
    func testANestedFormsPlanStopsAtItsLimitIsRememberedAndBlocksNoOtherFloor() throws {
        let worker = try planWorker(timeLimit: 4)
        let cache = try tempCache()
        let nested = Self.nestedFormsPDF()
        XCTAssertLessThan(nested.count, 5000)
        let bad = PlanLoader(fetcher: FakeFetcher(nested), cache: cache, worker: worker)
        let good = PlanLoader(fetcher: FakeFetcher(try samplePlan(2)), cache: cache, worker: worker)
        let start = Date()
        let badDone = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var badResult: Result<PlanRaster, PlanLoader.Failure>?
        Thread.detachNewThread {
            badResult = bad.load(url: "https://museum.example/maps/nested.pdf", pixelsPerPoint: 2)
            badDone.signal()
        }
        // The other floor, while the nested one is being worked on.
        guard case .success(let raster) = good.load(url: "https://museum.example/maps/floor2.pdf", pixelsPerPoint: 2) else {
            return XCTFail("the other floor did not draw")
        }
        let goodTime = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(raster.width, 100)
        XCTAssertLessThan(goodTime, 15, "drawn beside the nested plan, not after it (the steering check's 15 s)")
        XCTAssertEqual(badDone.wait(timeout: .now() + 15), .success, "the nested plan ends at its limit")
        let badTime = Date().timeIntervalSince(start)
        XCTAssertLessThan(badTime, 10)
        guard case .failure(let f)? = badResult else { return XCTFail("the nested plan drew: \(String(describing: badResult))") }
        XCTAssertTrue(f.message.contains("more than 4 s"), f.message)
        print("map: other floor \(Int(goodTime * 1000)) ms, nested plan stopped after \(Int(badTime * 1000)) ms")

        // Remembered: the next start says so at once, without poppler.
        let again = Date()
        guard case .failure(let remembered) = bad.load(url: "https://museum.example/maps/nested.pdf", pixelsPerPoint: 2) else {
            return XCTFail("the nested plan drew the second time")
        }
        XCTAssertLessThan(Date().timeIntervalSince(again), 1)
        XCTAssertTrue(remembered.message.contains("more than 4 s") && remembered.message.contains("last tried"), remembered.message)
    }

    /// The worker draws what the guide drew in process, and says poppler's reason for a file
    /// that is not a PDF.
    func testTheWorkerDrawsAPlanAsInProcessAndSaysWhyNot() throws {
        let worker = try planWorker(timeLimit: 30)
        let pdf = try samplePlan(1)
        guard case .success(let there) = worker.rasterise(pdf: pdf, pixelsPerPoint: 1, source: "s") else { return XCTFail("worker") }
        let here = try rasterise(pdf, scale: 1)
        XCTAssertEqual(there.pixels, here.pixels)
        XCTAssertEqual(there.width, here.width)
        XCTAssertEqual(there.origin, here.origin)
        guard case .failure(.unreadable(let why)) = worker.rasterise(pdf: Array("%PDF-1.4 not really".utf8), pixelsPerPoint: 1, source: "s") else {
            return XCTFail("garbage drew")
        }
        XCTAssertTrue(why.contains("PDF"), why)
    }

    func testCacheFileRoundTrip() throws {
        let cache = try tempCache()
        let r = PlanRaster(width: 3, height: 2, pixels: [0, 255, 128, 7, 8, 9], origin: PlanPoint(x: 1.5, y: 2400), pixelsPerPoint: 2, source: "x#y")
        cache.store(r, url: "u", contentHash: PlanCache.hash([1, 2, 3]), pixelsPerPoint: 2)
        let back = try XCTUnwrap(cache.raster(url: "u", contentHash: PlanCache.hash([1, 2, 3]), pixelsPerPoint: 2))
        XCTAssertEqual(back.pixels, r.pixels)
        XCTAssertEqual(back.origin, r.origin)
        XCTAssertEqual(back.pixelsPerPoint, 2)
        XCTAssertEqual(back.source, "x#y")
        XCTAssertNil(cache.raster(url: "u", contentHash: PlanCache.hash([1, 2, 4]), pixelsPerPoint: 2))
        XCTAssertEqual(PlanCache.hash([]), "cbf29ce484222325")
    }

    func testCacheDirectoryFollowsXDG() {
        XCTAssertEqual(PlanCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]), "/c/docent/maps")
        XCTAssertEqual(PlanCache.defaultDirectory(environment: ["HOME": "/h"]), "/h/.cache/docent/maps")
    }

    // MARK: The map screen on the real AIC plans

    /// The AIC sample document with its floor plans pointing at the local reference PDFs.
    func aicState(floor n: Int, raster: PlanRaster, size: Size) throws -> AppState {
        let docURL = Self.aicDir.appendingPathComponent("appData-v2.json")
        guard case .success(var app) = AppDataReader.read([UInt8](try Data(contentsOf: docURL)), source: docURL.path) else {
            throw TestDataMissing("appData-v2.json does not read")
        }
        app.mapFloors = app.mapFloors.map {
            MapFloor(floor: $0.floor, label: $0.label, planURL: Self.aicDir.appendingPathComponent("map_floor\($0.floor.number).pdf").path, anchorPoints: $0.anchorPoints, anchorLocations: $0.anchorLocations)
        }
        var s = AppState(source: docURL.path, catalog: Self.catalog, now: Date(timeIntervalSince1970: 1_800_000_000), features: Registry.features)
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        prepare(&s, .documentLoaded(.success(Museum(app)), note: nil))
        let vp = RootView.viewport(for: size)
        prepare(&s, .viewportChanged(rows: vp.rows, width: vp.width))
        s.overlay = nil
        s.messageQueue = []
        s.banner = nil
        prepare(&s, .selectTab(.map))
        prepare(&s, .map(.selectFloor(Floor(n))))
        let url = app.mapFloors.first { $0.floor == Floor(n) }?.planURL ?? ""
        prepare(&s, .map(.rasterReady(floor: Floor(n), url: url, raster: raster)))
        s.overlay = nil
        return s
    }

    static let catalog: StringCatalog = {
        var tables: [Language: [String: String]] = [:]
        if case .success(let all) = StringFiles.load(repoRoot.appendingPathComponent("Resources/strings")) {
            for code in ["en", "es", "zh"] { tables[Language(code: code)] = all[code] }
        }
        return StringCatalog(tables: tables)
    }()

    func assertFixture(_ screen: Screen, named name: String, file: StaticString = #filePath, line: UInt = #line) {
        let url = Self.testsDir.appendingPathComponent("Fixtures/\(name).txt")
        let actual = screen.dump()
        guard !Self.record, let expected = try? String(contentsOf: url, encoding: .utf8) else {
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            // Recording fails the run too, so nothing is recorded by a green run.
            XCTFail(Self.record ? "recorded fixture \(name); run again without RECORD_SNAPSHOTS" : "recorded a new fixture \(name); review and commit it", file: file, line: line)
            return
        }
        if expected != actual {
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let k = zip(e, a).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(e.count, a.count)
            XCTFail("fixture \(name) differs at line \(k + 1):\n expected: \(k < e.count ? String(e[k]) : "<end>")\n   actual: \(k < a.count ? String(a[k]) : "<end>")", file: file, line: line)
        }
    }

    func testAICFloorsAt120x40() throws {
        let size = Size(width: 120, height: 40)
        for n in 0...3 {
            let raster = try aicRaster(n)
            let s = try aicState(floor: n, raster: raster, size: size)
            XCTAssertEqual(s[MapFeature.self].floor, Floor(n))
            XCTAssertEqual(s[MapFeature.self].raster, raster)
            assertFixture(RootView.render(s, size: size), named: "map-aic-floor\(n)-120x40")
        }
    }

    func testAICFloorOneCloseIn() throws {
        let size = Size(width: 120, height: 40)
        let raster = try aicRaster(1)
        var s = try aicState(floor: 1, raster: raster, size: size)
        prepare(&s, .map(.zoom(2)))
        assertFixture(RootView.render(s, size: size), named: "map-aic-floor1-zoom3-120x40")
    }

    // MARK: The UI tests' raster fixture

    /// `Tests/DocentUITests/Fixtures/map-sample-floor1.pbm`: SampleData's floor 1 at 1 px/pt,
    /// trimmed, as a 1-bit PBM whose comment holds the origin. Rewritten with RECORD_SNAPSHOTS=1.
    func testSampleFloorFixtureForTheUITests() throws {
        let r = try rasterise(try samplePlan(1), scale: 1)
        let url = Self.repoRoot.appendingPathComponent("Tests/DocentUITests/Fixtures/map-sample-floor1.pbm")
        var bits = [UInt8](repeating: 0, count: (r.width + 7) / 8 * r.height)
        for y in 0..<r.height {
            for x in 0..<r.width where r.isInk(x: x, y: y) {
                bits[y * ((r.width + 7) / 8) + x / 8] |= UInt8(0x80 >> (x % 8))
            }
        }
        let header = "P4\n# origin \(r.origin.x) \(r.origin.y) ppp \(r.pixelsPerPoint)\n\(r.width) \(r.height)\n"
        let data = Data(Array(header.utf8) + bits)
        if Self.record || !FileManager.default.fileExists(atPath: url.path) {
            try data.write(to: url)
        } else {
            XCTAssertEqual(try Data(contentsOf: url), data, "the UI fixture is SampleData floor 1 as rasterised now (RECORD_SNAPSHOTS=1 to refresh)")
        }
    }
}

import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// The map screen on SampleData (our own vector plans; floor 1's raster is the committed
/// fixture `Fixtures/map-sample-floor1.pbm`, made by the adapter tests with poppler): two zoom
/// levels, a failed plan, the card, the list, the legend, "you are here", and the map's keys.
final class MapScreenTests: XCTestCase {
    static let sampleSource = UIFixtures.repoRoot.appendingPathComponent("SampleData/appData.json").path

    static let museum: Museum? = {
        guard let d = try? Data(contentsOf: URL(fileURLWithPath: sampleSource)),
            case .success(let app) = AppDataReader.read([UInt8](d), source: sampleSource)
        else { return nil }
        return Museum(app)
    }()

    /// Reads the 1-bit PBM fixture (`# origin X Y ppp S` comment) into a raster.
    static let floor1: PlanRaster? = {
        let bytes = UIFixtures.bytes("map-sample-floor1.pbm")
        var fields: [String] = []
        var comment = ""
        var i = 0
        while fields.count < 3, i < bytes.count {
            if bytes[i] == UInt8(ascii: "#") {
                let end = bytes[i...].firstIndex(of: 10) ?? bytes.count
                comment = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
                i = end + 1
                continue
            }
            if bytes[i] == 10 || bytes[i] == 32 {
                i += 1
                continue
            }
            let end = bytes[i...].firstIndex { $0 == 10 || $0 == 32 } ?? bytes.count
            fields.append(String(decoding: bytes[i..<end], as: UTF8.self))
            i = end
        }
        i += 1
        let c = comment.split(separator: " ").compactMap { Double($0) }
        guard fields.first == "P4", fields.count == 3, let w = Int(fields[1]), let h = Int(fields[2]), c.count == 3 else { return nil }
        let stride = (w + 7) / 8
        guard bytes.count - i >= stride * h else { return nil }
        var px = [UInt8](repeating: 255, count: w * h)
        for y in 0..<h {
            for x in 0..<w where bytes[i + y * stride + x / 8] & UInt8(0x80 >> (x % 8)) != 0 { px[y * w + x] = 0 }
        }
        return PlanRaster(width: w, height: h, pixels: px, origin: PlanPoint(x: c[0], y: c[1]), pixelsPerPoint: c[2], source: "fixture")
    }()

    func planURL(_ n: Int) -> String { UIFixtures.repoRoot.appendingPathComponent("SampleData/maps/floor\(n).pdf").path }

    /// SampleData loaded, on the map tab, floor 1's plan ready.
    func mapState(size: Size = Size(width: 120, height: 40), language: Language = .english) throws -> AppState {
        let m = try XCTUnwrap(Self.museum, "SampleData reads")
        let raster = try XCTUnwrap(Self.floor1, "the raster fixture reads")
        var s = AppState(source: Self.sampleSource, catalog: UIFixtures.catalog, language: language, now: UIFixtures.now, features: Registry.features)
        let vp = RootView.viewport(for: size)
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil), .documentLoaded(.success(m), note: nil), .viewportChanged(rows: vp.rows, width: vp.width))
        s.overlay = nil
        s.messageQueue = []
        s.banner = nil
        prepare(&s, .selectTab(.map), .map(.rasterReady(floor: Floor(1), url: planURL(1), raster: raster)))
        s.overlay = nil
        return s
    }

    func load(_ n: Int) -> Effect { .map(.loadPlan(floor: Floor(n), url: planURL(n), pixelsPerPoint: MapState.rasterScale)) }

    func mapItem(_ s: AppState, _ id: MapItemID, floor: Floor) throws -> MapItem {
        let app = try XCTUnwrap(s.museum)
        return try XCTUnwrap(MapContent.items(app, floor: floor).first { $0.id == id })
    }

    func render(_ s: AppState, _ size: Size = Size(width: 120, height: 40)) -> Screen { RootView.render(s, size: size) }

    // MARK: Snapshots

    func testWholeBuildingAt120x40() throws {
        let s = try mapState()
        let screen = render(s)
        assertSnapshot(screen, named: "map-sample-zoom1-120x40")
        let text = (0..<screen.height).map(screen.row).joined(separator: "\n")
        XCTAssertTrue(text.contains(" 1 "), "the current floor is visible")
        XCTAssertTrue(text.contains("Lantern Court"), "landmarks far out")
        XCTAssertTrue(text.contains("W") && text.contains("M"), "restroom glyphs")
        XCTAssertTrue(text.unicodeScalars.contains { $0.value > 0x2800 && $0.value <= 0x28FF }, "the plan in braille")
    }

    func testCloseInAt120x40() throws {
        var s = try mapState()
        send(&s, .map(.zoom(3))) { $0.map.zoom = 3 }
        // Centred on an artwork of Gallery 101, nothing selected: titles within 15 m show.
        let app = try XCTUnwrap(s.museum)
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.galleryTitle == "101" })
        let item = try XCTUnwrap(MapContent.items(app, floor: Floor(1)).first { $0.id == .artwork(art.id) })
        s.map.centre = item.point
        let screen = render(s)
        assertSnapshot(screen, named: "map-sample-zoom4-120x40")
        let text = (0..<screen.height).map(screen.row).joined(separator: "\n")
        XCTAssertTrue(text.contains("* " + art.title), "artworks near the middle show their titles close in")
    }

    /// Issue 47 #15: on the whole floor (zoom 1/5) no name is written over a line of the plan,
    /// nor next to one without a blank between, and no name is written twice ("Lantern Court"
    /// was both the gallery's and the landmark's), at the sizes the issue saw.
    func testTheWholeFloorWritesNoNameOverItsWallsNorTwice() throws {
        for size in [Size(width: 100, height: 30), Size(width: 120, height: 40), Size(width: 80, height: 24)] {
            let s = try mapState(size: size)
            XCTAssertEqual(s.map.zoom, 0)
            let screen = render(s, size)
            let vp = RootView.viewport(for: size)
            let (cols, rows) = MapLayout.canvas(rows: vp.rows, width: vp.width)
            let scene = try XCTUnwrap(MapScene(s.map, FeatureContext(s), cols: cols, rows: rows))
            let masks = MapCanvas.masks(try XCTUnwrap(s.map.raster), scene.viewport)
            let origin = (x: 1, y: 3)
            func ink(_ x: Int, _ y: Int) -> Bool {
                let c = x - origin.x, r = y - origin.y
                return c >= 0 && r >= 0 && c < cols && r < rows && masks[r * cols + c] != 0
            }
            var names: [String] = []
            for region in screen.hitRegions where region.rect.width > 1 {
                guard case .feature(let v) = region.action, case .clickItem? = v.as(MapAction.self) else { continue }
                let r = region.rect
                for y in r.y..<r.maxY {
                    for x in (r.x - 1)...r.maxX {
                        XCTAssertFalse(ink(x, y), "\(size.width)×\(size.height): a name at or beside a wall at \(x),\(y): \(screen.row(y))")
                    }
                    names.append(String(screen.row(y).dropFirst(r.x).prefix(r.width)).trimmingCharacters(in: .whitespaces))
                }
            }
            for name in names where !name.isEmpty {
                XCTAssertEqual(names.filter { $0.contains(name) }.count, 1, "\(size.width)×\(size.height): \(name) written twice: \(names)")
            }
        }
    }

    /// Issue 33 #10 at the size the issue saw (100 × 30), the whole floor: gallery numbers and
    /// artworks are drawn, no mark sits on a line of the plan, and a name that had to go over
    /// one (a court narrower than its name) stands on cleared cells, a blank either side.
    func testTheWholeFloorShowsGalleriesAndArtworksClearOfTheWalls() throws {
        let size = Size(width: 100, height: 30)
        let s = try mapState(size: size)
        XCTAssertEqual(s.map.zoom, 0)
        let screen = render(s, size)
        assertSnapshot(screen, named: "map-sample-zoom1-100x30")
        let text = (0..<screen.height).map(screen.row).joined(separator: "\n")
        for n in ["101", "102", "105"] { XCTAssertTrue(text.contains(" \(n) "), "gallery \(n) at zoom 1/5") }
        XCTAssertTrue(text.contains("*"), "artworks at zoom 1/5")
        // The canvas under the header, and the plan's dots on it.
        let vp = RootView.viewport(for: size)
        let (cols, rows) = MapLayout.canvas(rows: vp.rows, width: vp.width)
        let scene = try XCTUnwrap(MapScene(s.map, FeatureContext(s), cols: cols, rows: rows))
        let masks = MapCanvas.masks(try XCTUnwrap(s.map.raster), scene.viewport)
        let origin = (x: 1, y: 3)
        func ink(_ x: Int, _ y: Int) -> Bool {
            let c = x - origin.x, r = y - origin.y
            return c >= 0 && r >= 0 && c < cols && r < rows && masks[r * cols + c] != 0
        }
        var marks = 0
        for region in screen.hitRegions {
            guard case .feature(let v) = region.action, case .clickItem? = v.as(MapAction.self) else { continue }
            let r = region.rect
            let over = (r.y..<r.maxY).contains { y in (r.x..<r.maxX).contains { ink($0, y) } }
            if r.width == 1 {
                marks += 1
                XCTAssertFalse(over, "the mark at \(r.x),\(r.y) is on a wall: \(screen.row(r.y))")
            } else if over {
                XCTAssertEqual(screen[r.x - 1, r.y].text, " ", "cleared before the name on row \(r.y): \(screen.row(r.y))")
                XCTAssertEqual(screen[r.maxX, r.y].text, " ", "cleared after the name on row \(r.y): \(screen.row(r.y))")
            }
        }
        XCTAssertGreaterThan(marks, 5)
    }

    func testSmallTerminal() throws {
        var s = try mapState(size: Size(width: 80, height: 24))
        send(&s, .map(.zoom(2))) { $0.map.zoom = 2 }
        assertSnapshot(render(s, Size(width: 80, height: 24)), named: "map-sample-zoom3-80x24")
    }

    func testFailedPlanShowsWhyOnABlankGridWithTheMarks() throws {
        var s = try mapState(size: Size(width: 80, height: 24))
        send(&s, .map(.floorStep(1)), effects: [load(2)]) {
            $0.map.floor = Floor(2)
            $0.map.plans[Floor(2)] = .loading(url: self.planURL(2))
        }
        send(&s, .map(.rasterFailed(floor: Floor(2), url: planURL(2), message: "HTTP 404 from https://museum.example/floor2.pdf", problem: .http(404)))) {
            $0.map.plans[Floor(2)] = .failed(url: self.planURL(2), message: "HTTP 404 from https://museum.example/floor2.pdf", problem: .http(404))
        }
        let screen = render(s, Size(width: 80, height: 24))
        assertSnapshot(screen, named: "map-failed-80x24")
        let text = (0..<screen.height).map(screen.row).joined(separator: "\n")
        XCTAssertTrue(text.contains("answered with an error"), "a plain sentence: \(text)")
        XCTAssertFalse(text.contains("museum.example"), "no URL on screen (it is in the log)")
        XCTAssertTrue(text.contains("Foundry Wing"), "annotations are still drawn")
        // Issue 33 #10: the message stands on rows of its own, a blank row under it, no dot of
        // the grid among its words.
        let rows = (0..<screen.height).map(screen.row)
        let first = try XCTUnwrap(rows.firstIndex { $0.contains("Floor plan unavailable") })
        let last = try XCTUnwrap(rows.lastIndex { $0.contains("retries") })
        for y in first...last { XCTAssertNil(rows[y].unicodeScalars.first { (0x2800...0x28FF).contains($0.value) }, "dots in the message: \(rows[y])") }
        XCTAssertEqual(rows[last + 1].trimmingCharacters(in: .whitespaces), "", "a blank row under the message")
    }

    /// A plan drawn from the copy saved earlier (the server could not be reached) says so in
    /// the map's header, in the visitor's language, until a fresh one arrives.
    func testASavedCopyOfThePlanSaysSo() throws {
        var s = try mapState(size: Size(width: 80, height: 24), language: .spanish)
        let raster = try XCTUnwrap(Self.floor1)
        send(&s, .map(.rasterReady(floor: Floor(1), url: planURL(1), raster: raster, savedCopy: true))) { $0.map.savedCopies = [Floor(1)] }
        let header = render(s, Size(width: 80, height: 24)).row(2)
        XCTAssertTrue(header.contains("copia guardada (sin conexión)"), header)
        assertSnapshot(render(s, Size(width: 80, height: 24)), named: "map-saved-copy-es-80x24")
        send(&s, .map(.rasterReady(floor: Floor(1), url: planURL(1), raster: raster))) { $0.map.savedCopies = [] }
        XCTAssertFalse(render(s, Size(width: 80, height: 24)).row(2).contains("copia guardada"))
    }

    func testLoadingFloorSaysSo() throws {
        var s = try mapState(size: Size(width: 80, height: 24))
        send(&s, .map(.floorStep(1)), effects: [load(2)]) {
            $0.map.floor = Floor(2)
            $0.map.plans[Floor(2)] = .loading(url: self.planURL(2))
        }
        let text = (0..<24).map(render(s, Size(width: 80, height: 24)).row).joined(separator: "\n")
        XCTAssertTrue(text.contains("Loading the floor plan"))
        XCTAssertTrue(text.contains("loading plan"))
    }

    func testCardOfADiningAmenityShowsItsHours() throws {
        var s = try mapState(size: Size(width: 80, height: 24))
        let app = try XCTUnwrap(s.museum)
        let dining = try XCTUnwrap(app.annotations.first { $0.kind == .amenity(.dining) && $0.floor == Floor(2) })
        let item = try mapItem(s, .annotation(dining.id), floor: Floor(2))
        // Amenities show at every zoom: the nearest level show on map allows.
        send(&s, .map(.show(.annotation(dining.id))), effects: [load(2)]) {
            $0.stacks[.map] = [Page(.map)]
            $0.map.floor = Floor(2)
            $0.map.highlight = .annotation(dining.id)
            $0.map.selection = .annotation(dining.id)
            $0.map.zoom = 1
            $0.map.centre = item.point
            $0.map.plans[Floor(2)] = .loading(url: self.planURL(2))
        }
        send(&s, .map(.activate)) { $0.map.cardOpen = true }
        let screen = render(s, Size(width: 80, height: 24))
        assertSnapshot(screen, named: "map-card-dining-80x24")
        let text = (0..<24).map(screen.row).joined(separator: "\n")
        XCTAssertTrue(text.contains(String(dining.description.prefix(12))), "opening hours: \(dining.description)")
        // Nothing to do on a dining card: the hints offer no Enter (issue 33 #19).
        let hintRow = try XCTUnwrap((0..<24).map(screen.row).first { $0.contains("n/N next · Esc close") }, text)
        XCTAssertFalse(hintRow.contains("Enter"), hintRow)
    }

    func testCardOfAnArtworkOffersCommentary() throws {
        var s = try mapState(size: Size(width: 80, height: 24))
        let app = try XCTUnwrap(s.museum)
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.floor == Floor(1) && $0.hasAudio })
        send(&s, .map(.clickItem(.artwork(art.id)))) {
            $0.map.selection = .artwork(art.id)
            $0.map.cardOpen = true
        }
        let screen = render(s, Size(width: 80, height: 24))
        assertSnapshot(screen, named: "map-card-artwork-80x24")
        XCTAssertTrue((0..<24).map(screen.row).joined().contains("Enter: play commentary"))
        XCTAssertTrue((0..<24).map(screen.row).contains { $0.contains("Enter do · n/N next") }, "Enter does something here")
        // Clicking the card plays: what the shared `.play` of its first commentary does.
        var played = s
        let effects = prepare(&played, .play(audioID: art.commentaries[0].audioID, artworkID: art.id, tourID: nil))
        XCTAssertFalse(effects.isEmpty)
        send(&s, .map(.activate), effects: effects) { $0 = played }
        XCTAssertEqual(s.player.track?.artworkID, art.id)
    }

    func testTextModeListsTheFloorByArea() throws {
        var s = try mapState(size: Size(width: 80, height: 24))
        let app = try XCTUnwrap(s.museum)
        send(&s, .map(.toggleText)) {
            $0.map.textMode = true
            $0.map.selection = MapContent.listOrder(MapContent.items(app, floor: Floor(1))).first?.id
        }
        let screen = render(s, Size(width: 80, height: 24))
        assertSnapshot(screen, named: "map-text-80x24")
        let text = (0..<24).map(screen.row).joined(separator: "\n")
        XCTAssertTrue(text.contains("Gallery 101"))
        XCTAssertFalse(text.contains("⣿"), "no drawing in the list")
    }

    /// Issue 33 #11: for a screen reader the map opens as its list with its first entry
    /// highlighted, and the terminal's cursor (the frame's focus) is at the start of that row,
    /// not at the end of the header where the last cell was written.
    func testForAScreenReaderTheCursorIsAtTheStartOfTheHighlightedEntry() throws {
        let size = Size(width: 100, height: 30)
        let m = try XCTUnwrap(Self.museum, "SampleData reads")
        var s = AppState(source: Self.sampleSource, catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        s.config = ["screen_reader": "true"]
        let vp = RootView.viewport(for: size)
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil), .documentLoaded(.success(m), note: nil), .viewportChanged(rows: vp.rows, width: vp.width))
        s.overlay = nil
        s.messageQueue = []
        s.banner = nil
        prepare(&s, .selectTab(.map))
        let screen = render(s, size)
        assertSnapshot(screen, named: "map-screen-reader-list-100x30")
        let focus = try XCTUnwrap(screen.focus)
        let first = try XCTUnwrap(MapContent.listOrder(MapContent.items(m.data, floor: Floor(1))).first)
        XCTAssertEqual(focus.x, 1, "the start of the row")
        XCTAssertTrue(screen.row(focus.y).contains(MapScreen.name(first, s.strings)), screen.row(focus.y))
        XCTAssertTrue(screen[focus.x, focus.y].style.reverse, "the highlighted row")
        // Down: the cursor follows.
        prepare(&s, .map(.selectStep(1)))
        let next = render(s, size)
        XCTAssertEqual(next.focus?.y, focus.y + 1)
        XCTAssertEqual(next.focus?.x, 1)
    }

    func testLegendListsEveryAmenityGlyph() throws {
        var s = try mapState()
        send(&s, .map(.toggleLegend)) { $0.map.legendOpen = true }
        let screen = render(s)
        assertSnapshot(screen, named: "map-legend-120x40")
        let text = (0..<screen.height).map(screen.row).joined(separator: "\n")
        for t in AmenityType.allCases { XCTAssertTrue(text.contains("\(MapScreen.glyph(t))  \(UIFixtures.catalog.strings(for: .english)(MapScreen.amenityKey(t)))"), "\(t)") }
    }

    /// Issue 33 #6: the legend's keys in Korean break at spaces ("Enter 카드", not "Enter 카" / "드").
    func testKoreanLegendKeysBreakAtSpaces() throws {
        let size = Size(width: 100, height: 30)
        var s = try mapState(size: size, language: .korean)
        send(&s, .map(.toggleLegend)) { $0.map.legendOpen = true }
        let screen = render(s, size)
        let rows = LineBreakingTests.boxRows(screen)
        let words = Set(rows.flatMap { $0.split(separator: " ").map(String.init) })
        let keys = UIFixtures.catalog.strings(for: .korean)(.mapLegendKeys)
        XCTAssertTrue(rows.contains { $0.contains("카드,") }, "\(rows)")
        for w in keys.split(separator: " ").map(String.init) {
            XCTAssertTrue(words.contains(w), "\(w) is not whole on one line of \(rows)")
        }
    }

    func testYouAreHereAndChinese() throws {
        var s = try mapState(size: Size(width: 80, height: 24), language: .chinese)
        let app = try XCTUnwrap(s.museum)
        let art = try XCTUnwrap(app.sortedArtworks.first { $0.floor == Floor(1) && $0.hasAudio })
        let here = try mapItem(s, .artwork(art.id), floor: Floor(1))
        send(&s, .selectTab(.home), effects: { [.persist($0.settings)] }) { $0.tab = .home }
        prepare(&s, .play(audioID: art.commentaries[0].audioID, artworkID: art.id, tourID: nil))
        // Back on the map: centred on the artwork just played, one level in.
        send(&s, .selectTab(.map), effects: { [.persist($0.settings)] }) {
            $0.tab = .map
            $0.map.zoom = 1
            $0.map.centre = here.point
            $0.map.centredOnArtwork = art.id
        }
        XCTAssertEqual(MapScene(s.map, FeatureContext(s), cols: 78, rows: 18)?.here, .artwork(art.id))
        let screen = render(s, Size(width: 80, height: 24))
        assertSnapshot(screen, named: "map-here-zh-80x24")
        XCTAssertTrue((0..<24).map(screen.row).joined().contains("@"))
    }

    func testClosedGalleryIsMarked() throws {
        var s = try mapState()
        let gallery = try mapItem(s, .gallery(1014), floor: Floor(3))
        let zoom = try XCTUnwrap((1..<MapZoom.levels).first { gallery.isVisible(atZoom: $0) })
        send(&s, .map(.show(.gallery(1014))), effects: [load(3)]) {
            $0.stacks[.map] = [Page(.map)]
            $0.map.floor = Floor(3)
            $0.map.highlight = .gallery(1014)
            $0.map.selection = .gallery(1014)
            $0.map.zoom = zoom
            $0.map.centre = gallery.point
            $0.map.plans[Floor(3)] = .loading(url: self.planURL(3))
        }
        let screen = render(s)
        let text = (0..<screen.height).map(screen.row).joined(separator: "\n")
        XCTAssertTrue(text.contains("×303"), text)
    }

    func testARunningTourDrawsItsStopsNumbered() throws {
        var s = try mapState()
        let app = try XCTUnwrap(s.museum)
        let tour = try XCTUnwrap(app.tours.first { t in t.stops.filter { app.artworks[$0.artworkID]?.floor == Floor(1) }.count >= 2 })
        s.tour = TourSession(machine: TourMachine(tour: tour), language: .english)
        let screen = render(s)
        for (i, stop) in tour.stops.enumerated() where app.artworks[stop.artworkID]?.floor == Floor(1) {
            let region = try XCTUnwrap(screen.hitRegions.first { $0.action == .map(.clickItem(.artwork(stop.artworkID))) }, "stop \(i + 1) is drawn")
            XCTAssertEqual(screen[region.rect.x, region.rect.y].text, String(i + 1).prefix(1).description)
        }
    }

    // MARK: Canvas

    func testBrailleDotsFollowTheInk() {
        // 8×8 px raster at 1 px/pt: a vertical line at x = 0, a horizontal one at y = 6.
        var px = [UInt8](repeating: 255, count: 64)
        for y in 0..<8 { px[y * 8] = 0 }
        for x in 0..<8 { px[6 * 8 + x] = 0 }
        let r = PlanRaster(width: 8, height: 8, pixels: px, origin: PlanPoint(x: 0, y: 8), pixelsPerPoint: 1)
        // 4×2 cells = 8×8 dots, one point per dot.
        let v = MapViewport(cols: 4, rows: 2, centre: PlanPoint(x: 4, y: 4), pointsPerDot: 1)
        let chars = MapCanvas.masks(r, v).map(MapCanvas.character)
        XCTAssertEqual(String(chars), "⡇   " + "⡧⠤⠤⠤")
        // Zoomed out ×2: each dot covers 2×2 px.
        let far = MapViewport(cols: 2, rows: 1, centre: PlanPoint(x: 4, y: 4), pointsPerDot: 2)
        XCTAssertEqual(String(MapCanvas.masks(r, far).map(MapCanvas.character)), "⣇⣀")
        // Off the raster: nothing.
        let away = MapViewport(cols: 2, rows: 1, centre: PlanPoint(x: 100, y: 100), pointsPerDot: 1)
        XCTAssertEqual(MapCanvas.masks(r, away), [0, 0])
    }

    func testPanningRedrawsFromTheSameRaster() throws {
        var s = try mapState()
        send(&s, .map(.zoom(2))) { $0.map.zoom = 2 }
        let raster = s.map.raster
        let before = render(s)
        let app = try XCTUnwrap(s.museum)
        let v = try XCTUnwrap(MapReducer.viewport(s.map, MapReducer.Env(app, FeatureContext(s))))
        send(&s, .map(.pan(dx: 1, dy: 0))) { $0.map.centre = PlanPoint(x: v.centre.x + Double(v.dotsWide) * v.pointsPerDot / 4, y: v.centre.y) }
        XCTAssertTrue(s.map.raster === raster)
        XCTAssertNotEqual(render(s), before)
    }

    // MARK: Keys

    func testMapKeysTakePrecedenceOnTheMapRoute() throws {
        let s = try mapState()
        func key(_ k: Key) -> AppAction? { KeyMap.action(for: k, in: s) }
        XCTAssertEqual(key(.left), .map(.pan(dx: -1, dy: 0)))
        XCTAssertEqual(key(.char("l")), .map(.pan(dx: 1, dy: 0)))
        XCTAssertEqual(key(.char("k")), .map(.pan(dx: 0, dy: -1)))
        XCTAssertEqual(key(.down), .map(.pan(dx: 0, dy: 1)))
        XCTAssertEqual(key(.char("+")), .map(.zoom(1)), "not the player's volume")
        XCTAssertEqual(key(.char("-")), .map(.zoom(-1)))
        XCTAssertEqual(key(.char("]")), .map(.floorStep(1)))
        XCTAssertEqual(key(.char("[")), .map(.floorStep(-1)))
        // `f` is Pulse's everywhere, the map too (issue 47 #10: one key, one meaning).
        XCTAssertEqual(key(.char("f")), .pulse(.open), "the map leaves f to Pulse")
        XCTAssertEqual(key(.char("n")), .map(.selectStep(1)))
        XCTAssertEqual(key(.char("N")), .map(.selectStep(-1)))
        XCTAssertEqual(key(.enter), .map(.activate))
        XCTAssertEqual(key(.char("t")), .map(.toggleText))
        XCTAssertEqual(key(.char("?")), .map(.toggleLegend))
        XCTAssertEqual(key(.escape), .back, "nothing open: the global back")
        XCTAssertEqual(key(.tab), .nextTab, "Tab still switches tabs")
        XCTAssertEqual(key(.char("1")), .keypadDigit("1"), "digits still go to the keypad")
        XCTAssertEqual(key(.char(" ")), .togglePause)
        var t = s
        let app = try XCTUnwrap(s.museum)
        send(&t, .map(.toggleText)) {
            $0.map.textMode = true
            $0.map.selection = MapContent.listOrder(MapContent.items(app, floor: Floor(1))).first?.id
        }
        XCTAssertEqual(KeyMap.action(for: .down, in: t), .map(.selectStep(1)))
        XCTAssertEqual(KeyMap.action(for: .escape, in: t), .map(.dismiss))
        // Elsewhere the player keeps its keys.
        var home = s
        send(&home, .selectTab(.home), effects: { [.persist($0.settings)] }) { $0.tab = .home }
        XCTAssertEqual(KeyMap.action(for: .char("+"), in: home), .volumeBy(0.05))
    }

    func testClickingAFloorChipAndAMark() throws {
        var s = try mapState()
        let screen = render(s)
        // The header is row 2 (tab bar, title rule, header).
        let chip = try XCTUnwrap(screen.hitRegions.first { $0.action == .map(.selectFloor(Floor(2))) })
        let a = try XCTUnwrap(KeyMap.click(x: chip.rect.x, y: chip.rect.y, on: screen))
        XCTAssertEqual(a, chip.action)
        send(&s, a, effects: [load(2)]) {
            $0.map.floor = Floor(2)
            $0.map.plans[Floor(2)] = .loading(url: self.planURL(2))
        }
        let mark = try XCTUnwrap(render(s).hitRegions.first {
            if case .feature(let v) = $0.action, case .clickItem(.annotation)? = v.as(MapAction.self) { return true }
            return false
        })
        guard case .feature(let v) = mark.action, case .clickItem(let id)? = v.as(MapAction.self) else { return XCTFail("\(mark.action)") }
        send(&s, mark.action) {
            $0.map.selection = id
            $0.map.cardOpen = true
        }
    }
}

import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Every screen as text, at 80×24 and at the minimum size, in English and Chinese.
final class ScreenSnapshotTests: XCTestCase {
    let big = Size(width: 80, height: 24)
    let small = RootView.minimumSize

    func render(_ s: AppState, _ size: Size) -> Screen { RootView.render(s, size: size) }

    func state(_ lang: Language = .english, size: Size? = nil, actions: [AppAction] = []) -> AppState {
        var s = UIFixtures.loadedState(language: lang, size: size ?? big)
        for a in actions { prepare(&s, a) }
        return s
    }

    /// The dump is lossless: a colour change under bold and reverse shows, and so do a link and
    /// a click target (position, size, action), so a moved target fails a snapshot.
    func testDumpKeepsEveryAttributeLinksAndClickTargets() {
        var a = Screen(width: 4, height: 1)
        a.put("ab", x: 0, y: 0, style: Style(role: .accent, bold: true, reverse: true))
        var b = a
        b.restyle(Rect(x: 1, y: 0, width: 1, height: 1)) { $0.role = .warning }
        XCTAssertEqual(a.row(0), b.row(0))
        XCTAssertNotEqual(a.dump(), b.dump())
        XCTAssertEqual(b.dump(), "ab  \n----\nab..\na = accent bold reverse\nb = warning bold reverse\n")
        a.addLink(Rect(x: 0, y: 0, width: 2, height: 1), url: "https://museum.example/")
        a.addHitRegion(Rect(x: 2, y: 0, width: 2, height: 1), action: .selectTab(.map))
        XCTAssertEqual(a.dump(), "ab  \n----\naa..\na = accent bold reverse\nlink 0,0 2x1 https://museum.example/\nclick 2,0 2x1 selectTab(Tab.map)\n")
    }

    func testHome() {
        assertSnapshot(render(state(), big), named: "home-80x24")
        assertSnapshot(render(state(size: small), small), named: "home-40x12")
        assertSnapshot(render(state(.chinese), big), named: "home-zh-80x24")
        assertSnapshot(render(state(.spanish, size: small), small), named: "home-es-40x12")
    }

    /// Issue 33 #17: on a 200-column terminal a row's date stays within the list's measure,
    /// not 150 columns right of its title.
    func testAWideTerminalKeepsDetailsNearTheirTitles() {
        let huge = Size(width: 200, height: 60)
        let screen = render(state(size: huge), huge)
        let rows = (0..<60).map(screen.row)
        let dated = rows.filter { $0.contains("Through ") }
        XCTAssertFalse(dated.isEmpty, rows.joined(separator: "\n"))
        for row in dated {
            let end = TextWidth.width(row.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
            XCTAssertLessThanOrEqual(end, ListView.measure + 2, row)
        }
    }

    /// Issue 30: a list's ↑ and ↓ are where they are told (a page's: in the margin of its title
    /// rule and of the line under it), never on the lines that scroll, which the terminal moves
    /// whole; without a place they are on the first and last lines, as in a box.
    func testAListsScrollMarksAreOffTheLinesThatScroll() {
        let rows = (0..<30).map { Row(.item, "Row \($0)") }
        let strings = state().strings
        let list = Rect(x: 1, y: 2, width: 30, height: 10)
        func draw(selection: Int, marks: ListView.Marks?) -> Screen {
            var screen = Screen(width: 32, height: 14)
            ListView.render(&screen, list, rows: rows, selection: selection, strings: strings, marks: marks)
            return screen
        }
        let outside = ListView.Marks(x: 31, up: 1, down: 12)
        let middle = draw(selection: 15, marks: outside)
        XCTAssertTrue(middle.row(1).hasSuffix("↑"), middle.row(1))
        XCTAssertTrue(middle.row(12).hasSuffix("↓"), middle.row(12))
        for y in list.y..<list.maxY { XCTAssertFalse(middle.row(y).contains("↑") || middle.row(y).contains("↓"), middle.row(y)) }
        // At the top only ↓, at the end only ↑.
        let first = draw(selection: 0, marks: outside)
        XCTAssertEqual([first.row(1).contains("↑"), first.row(12).contains("↓")], [false, true])
        let last = draw(selection: 29, marks: outside)
        XCTAssertEqual([last.row(1).contains("↑"), last.row(12).contains("↓")], [true, false])
        // No place given: on the list's own first and last lines, right of it.
        let inside = draw(selection: 15, marks: nil)
        XCTAssertTrue(inside.row(list.y).hasSuffix("↑"), inside.row(list.y))
        XCTAssertTrue(inside.row(list.maxY - 1).hasSuffix("↓"), inside.row(list.maxY - 1))
        XCTAssertFalse(inside.row(1).contains("↑") || inside.row(12).contains("↓"))
        // A page's marks: the title rule's last column and the mini player's, which is left free.
        let s = state(size: small, actions: [.move(1), .move(1)])
        let areas = RootView.Areas(s, Rect(x: 0, y: 0, width: small.width, height: small.height))
        let home = render(s, small)
        XCTAssertEqual([areas.marks.up, areas.marks.down, areas.marks.x], [areas.titleRow.y, areas.mini.y, small.width - 1])
        XCTAssertTrue(home.row(areas.titleRow.y).hasSuffix("↑"), home.dump())
        XCTAssertTrue(home.row(areas.mini.y).hasSuffix("↓"), home.dump())
    }

    /// Issue 33 #18: a gallery and its floor are joined as the language joins them.
    func testAGalleryAndItsFloorAreJoinedAsTheLanguageDoes() {
        let floor = Floor(1)
        let cases: [(Language, String)] = [
            (.english, "Gallery 101, Floor 1"), (Language.fromTag("zh-Hant")!, "101 號展間，1層"), (.chinese, "101号展厅，1层"), (.korean, "101 전시실, 1층"),
        ]
        for (language, expected) in cases {
            let s = state(language)
            XCTAssertEqual(PageBuilder.galleryAndFloor("101", floor, s.strings), expected, "\(language)")
        }
    }

    func testHomeWhileLoadingAndOffline() {
        var s = AppState(source: "/museum/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        assertSnapshot(render(s, big), named: "loading-80x24")
        prepare(&s, .documentLoaded(.success(UIFixtures.museum()), note: nil))
        s.overlay = nil
        prepare(&s, .fetched(.exhibitions, .failure(.unreachable(url: "https://api.example/exhibitions", reason: "Connection refused"))))
        assertSnapshot(render(s, big), named: "home-partial-80x24")
    }

    func testDocumentFailed() {
        var s = AppState(source: "/nowhere/appData.json", catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        prepare(&s, .documentLoaded(.failure(LoadFailure("file not found: /nowhere/appData.json")), note: nil))
        assertSnapshot(render(s, big), named: "document-failed-80x24")
        assertSnapshot(render(s, small), named: "document-failed-40x12")
    }

    func testAllTours() {
        let s = state(actions: [.move(2), .activate])
        XCTAssertEqual(s.page.route, .allTours)
        assertSnapshot(render(s, big), named: "all-tours-80x24")
        assertSnapshot(render(state(size: small, actions: [.move(2), .activate]), small), named: "all-tours-40x12")
    }

    func testTourDetail() {
        let s = state(actions: [.activate])
        XCTAssertEqual(s.page.route, .tourDetail(500))
        assertSnapshot(render(s, big), named: "tour-detail-80x24")
        assertSnapshot(render(state(size: small, actions: [.activate]), small), named: "tour-detail-40x12")
        assertSnapshot(render(state(.chinese, actions: [.activate]), big), named: "tour-detail-zh-80x24")
        assertSnapshot(render(state(.chinese, size: small, actions: [.activate]), small), named: "tour-detail-zh-40x12")
    }

    func testExhibitionAndEventDetail() {
        let ex = state(actions: [.move(3), .activate])
        XCTAssertEqual(ex.page.route, .exhibitionDetail(1))
        assertSnapshot(render(ex, big), named: "exhibition-detail-80x24")
        assertSnapshot(render(state(size: small, actions: [.move(3), .activate]), small), named: "exhibition-detail-40x12")
        let ev = state(actions: [.move(4), .activate])
        XCTAssertEqual(ev.page.route, .eventDetail("e1"))
        assertSnapshot(render(ev, big), named: "event-detail-80x24")
        assertSnapshot(render(state(size: small, actions: [.move(4), .activate]), small), named: "event-detail-40x12")
    }

    func testInfo() {
        assertSnapshot(render(state(actions: [.selectTab(.info)]), big), named: "info-80x24")
        assertSnapshot(render(state(size: small, actions: [.selectTab(.info)]), small), named: "info-40x12")
        assertSnapshot(render(state(.spanish, actions: [.selectTab(.info)]), big), named: "info-es-80x24")
        assertSnapshot(render(state(.chinese, actions: [.selectTab(.info)]), big), named: "info-zh-80x24")
        let hours = state(actions: [.selectTab(.info), .activate])
        XCTAssertEqual(hours.page.route, .museumInfo)
        assertSnapshot(render(hours, big), named: "museum-info-80x24")
        assertSnapshot(render(state(size: small, actions: [.selectTab(.info), .activate]), small), named: "museum-info-40x12")
        let about = state(actions: [.selectTab(.info), .moveToEnd, .activate])
        XCTAssertEqual(about.page.route, .about)
        assertSnapshot(render(about, big), named: "about-80x24")
        assertSnapshot(render(state(size: small, actions: [.selectTab(.info), .moveToEnd, .activate]), small), named: "about-40x12")
    }

    func testOverlays() {
        var first = state()
        first.overlay = .help(firstRun: true)
        assertSnapshot(render(first, big), named: "help-first-run-80x24")
        assertSnapshot(render(first, small), named: "help-first-run-40x12")
        assertSnapshot(render(state(actions: [.showHelp]), big), named: "help-80x24")
        assertSnapshot(render(state(.chinese, actions: [.showHelp]), big), named: "help-zh-80x24")
        assertSnapshot(render(state(actions: [.openLanguagePicker, .move(1)]), big), named: "language-picker-80x24")
        assertSnapshot(render(state(size: small, actions: [.openLanguagePicker]), small), named: "language-picker-40x12")
        var msg = state()
        msg.overlay = .message(id: 7)
        assertSnapshot(render(msg, big), named: "launch-message-80x24")
        var msgZh = state(.chinese)
        msgZh.overlay = .message(id: 7)
        assertSnapshot(render(msgZh, small), named: "launch-message-zh-40x12")
    }

    func testTooSmall() {
        assertSnapshot(render(state(), Size(width: 30, height: 8)), named: "too-small-30x8")
        assertSnapshot(render(state(.chinese), Size(width: 39, height: 12)), named: "too-small-zh-39x12")
    }

    func testBanner() {
        let s = state(actions: [.persistenceFailed("database is locked")])
        assertSnapshot(render(s, big), named: "banner-80x24")
    }
}

/// Drawing a page of dates makes its formatters once, not per row and frame.
final class DateFormatCacheTests: XCTestCase {
    func testASecondFrameMakesNoFormatter() {
        var s = UIFixtures.loadedState()
        Reducer.push(&s, .allEvents)
        _ = RootView.render(s, size: Size(width: 80, height: 24))
        let made = DateFormats.shared.made
        for _ in 0..<3 { _ = RootView.render(s, size: Size(width: 80, height: 24)) }
        XCTAssertEqual(DateFormats.shared.made, made)
        XCTAssertTrue(PageBuilder.formatter(s, zone: nil, date: .long, time: .none) === PageBuilder.formatter(s, zone: nil, date: .long, time: .none))
    }
}

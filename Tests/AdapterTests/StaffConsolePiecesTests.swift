import DocentCore
import Foundation
@testable import PulseService
import StateStore
import XCTest

/// The console's pieces that decide something on their own: the lockout's backoff, where tours
/// are abandoned, CSV fields a spreadsheet cannot run, the chart's scale, the guide's tagline
/// cut, the language a request gets, and pattern matches against appData's pages.
final class StaffConsolePiecesTests: XCTestCase {
    typealias Console = StaffConsole<SQLitePulseStore>

    func testTheLockoutStartsAfterFiveFailuresAndDoublesToAnHour() {
        let c = ConsoleConfiguration(staffToken: nil)
        XCTAssertEqual((0...9).map { c.lockout(failures: $0) }, [0, 0, 0, 0, 0, 30, 60, 120, 240, 480])
        XCTAssertEqual(c.lockout(failures: 40), 3600)
    }

    func testAbandonmentIsTheDropToTheNextStopBiggestFirst() {
        let plays: [(subject: PulseSubject, count: Int)] = [
            (.stop(tour: 1, sort: 1), 10), (.stop(tour: 1, sort: 2), 9), (.stop(tour: 1, sort: 3), 2), (.stop(tour: 2, sort: 1), 5), (.stop(tour: 2, sort: 2), 5),
        ]
        let out = Console.abandonment(plays)
        XCTAssertEqual(out.map(\.stop), ["stop:1/2", "stop:1/1"])
        XCTAssertEqual(out.map(\.lost), [7, 1])
    }

    func testCSVFieldsAreQuotedAndFormulasDefused() {
        XCTAssertEqual(Console.csvField("plain"), "plain")
        XCTAssertEqual(Console.csvField("a,b"), "\"a,b\"")
        XCTAssertEqual(Console.csvField("say \"hi\""), "\"say \"\"hi\"\"\"")
        XCTAssertEqual(Console.csvField("=HYPERLINK(1)"), "\"'=HYPERLINK(1)\"")
    }

    func testTheChartHasOneBarADayWithItsNumber() {
        let svg = ConsoleCharts.svg(ConsoleCharts.bars([0, 3, 7], labels: ["2026-11-24", "2026-11-25", "2026-11-26"], label: "plays <per> day"))
        XCTAssertEqual(svg.components(separatedBy: "<rect").count - 1, 3)
        XCTAssertTrue(svg.contains("<title>2026-11-26: 7</title>"))
        XCTAssertTrue(svg.contains("plays &lt;per&gt; day"), "text in the SVG is escaped")
        XCTAssertEqual(ConsoleCharts.niceStep(7), 1)
        XCTAssertEqual(ConsoleCharts.niceStep(1234), 500)
    }

    /// Issue 46 item 5: a hostile exhibition title (the caption names what is charted) and a
    /// hostile day label reach the SVG only escaped by the template engine; the chart's markup
    /// is the template's alone.
    func testAHostileTitleInAChartIsEscaped() {
        let hostile = "Tidewater\"><script>alert(1)</script><svg onload='x'>"
        let svg = ConsoleCharts.svg(ConsoleCharts.bars([1, 2], labels: ["<b>day</b>", "2026-11-26"], label: "exhibition \(hostile)"))
        XCTAssertFalse(svg.contains("<script"), svg)
        XCTAssertFalse(svg.contains("<b>"), svg)
        XCTAssertFalse(svg.contains("onload='"), svg)
        XCTAssertTrue(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), svg)
        XCTAssertTrue(svg.contains("aria-label=\"exhibition Tidewater&quot;&gt;"), svg)
        XCTAssertTrue(svg.contains("<title>&lt;b&gt;day&lt;/b&gt;: 1</title>"), svg)
        XCTAssertEqual(svg.components(separatedBy: "<svg").count - 1, 1, "one svg element: the title opened none")
    }

    /// The Pulse page draws each chart through the `barChart` partial from its typed context.
    func testThePulsePageDrawsItsChartsFromTheTypedContext() {
        let chart = ConsoleCharts.bars([2, 5], labels: ["2026-11-25", "2026-11-26"], label: "plays <a day>")
        let context = PulsePageContext(
            t: ConsoleStrings.all(.english), todayLabel: "2026-11-26", today: [.init(label: "plays", value: 5)],
            charts: [.init(kind: "plays", caption: "plays <a day>", chart: chart, rows: [.init(day: "2026-11-26", value: 5)])],
            mostPlayed: [.init(key: "exhibition:1", title: "<img src=x>", count: 3)], bestLiked: [], abandoned: [], hasAbandoned: false,
            hasVisitCode: false, visitCode: "")
        let page = ConsoleAssets.library.render(context, withTemplate: "pulse") ?? ""
        XCTAssertEqual(page.components(separatedBy: "<rect").count - 1, 2, page)
        XCTAssertTrue(page.contains("<title>2026-11-26: 5</title>"), page)
        XCTAssertTrue(page.contains("aria-label=\"plays &lt;a day&gt;\""), page)
        XCTAssertTrue(page.contains("&lt;img src=x&gt;"), page)
        XCTAssertFalse(page.contains("<img src=x>"), page)
    }

    func testTaglinesAreCutWhereTheGuideCutsThem() {
        let long = String(repeating: "light ", count: 20)
        let cut = Console.guideCut(long)
        XCTAssertLessThanOrEqual(TextWidth.width(cut), Console.taglineCells)
        XCTAssertEqual(cut, TextWidth.truncate(NoteText.normalise(long), to: 60))
        XCTAssertEqual(Console.guideCut("  Open\u{1B}[31m late  "), NoteText.normalise("  Open\u{1B}[31m late  "))
    }

    func testTheLanguageComesFromTheQueryTheCookieThenTheBrowser() {
        XCTAssertEqual(ConsoleStrings.pick(query: "fr", cookie: "ko", accept: "es"), .french)
        XCTAssertEqual(ConsoleStrings.pick(query: nil, cookie: "ko", accept: "es"), .korean)
        XCTAssertEqual(ConsoleStrings.pick(query: "xx", cookie: nil, accept: "de-DE, es;q=0.8"), .spanish)
        XCTAssertEqual(ConsoleStrings.pick(query: nil, cookie: nil, accept: nil), .english)
        for (key, row) in ConsoleStrings.table { XCTAssertEqual(row.count, 6, "\(key) is not in six languages") }
    }

    func testPatternsMatchTheMuseumsPages() throws {
        let path = AudioTestSupport.repoRoot.appendingPathComponent("SampleData/appData.json").path
        let catalogue = try ConsoleCatalogue.load(path: path).get()
        let matches = catalogue.matching([PulsePattern("artwork:110\\d")!, PulsePattern("tab:map")!])
        XCTAssertEqual(matches.first, "tab:map")
        XCTAssertEqual(Array(matches.dropFirst()), (1101...1109).map { "artwork:\($0)" })
        XCTAssertNotNil(catalogue.title("artwork:1101", .english))
        // Exhibitions by their title, read from appData's exhibitions file (issue 44 #14:
        // the console showed exhibition:7101).
        XCTAssertEqual(catalogue.title("exhibition:7101", .english), "Tidewater: Painting the Working Harbour")
        XCTAssertNil(catalogue.title("exhibition:999999", .english))
        if case .success = ConsoleCatalogue.load(path: "/nonexistent/appData.json") { XCTFail("a missing file loaded") }
    }
}

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

    /// "Starts with" as a range: every text that starts with the prefix sorts from it and
    /// before `pastPrefix`, and none other, byte by byte as SQLite compares.
    func testAPrefixRangeHoldsExactlyTheTextsThatStartWithIt() {
        XCTAssertEqual(ConsoleSQL.pastPrefix("stop:"), "stop;")
        XCTAssertEqual(ConsoleSQL.pastPrefix("a\u{D7FF}"), "a\u{E000}", "past the surrogates")
        let texts = ["stop", "stop:", "stop:4002/1", "stop:\u{10FFFF}", "stop;", "stops", "artwork:1", "tour:1", "stop9"]
        for prefix in ["stop:", "a", "s", "tour:"] {
            let past = ConsoleSQL.pastPrefix(prefix)
            let inRange = texts.filter { Array($0.utf8).lexicographicallyPrecedes(Array(past.utf8)) && !Array($0.utf8).lexicographicallyPrecedes(Array(prefix.utf8)) }
            XCTAssertEqual(inRange, texts.filter { $0.hasPrefix(prefix) }, prefix)
        }
    }

    /// The console's escaping, byte by byte: the five characters always, whatever follows
    /// them; text without them handed back as it is; every other byte kept.
    func testTheEscapingReplacesTheFiveCharactersWhateverFollowsThem() {
        XCTAssertEqual(ConsoleEscaping.escape(#"<a href="x" title='y'>&amp;</a>"#), "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;")
        XCTAssertEqual(ConsoleEscaping.escape("\"\u{301}<\u{301}>\u{20DD}&\u{301}'\u{301}"), "&quot;\u{301}&lt;\u{301}&gt;\u{20DD}&amp;\u{301}&#39;\u{301}")
        for plain in ["", "v1-1", "2026-11-26 10:00", "中文 · 한국어 · café", "👩‍👩‍👧"] {
            XCTAssertEqual(ConsoleEscaping.escape(plain), plain)
        }
        var generator = SystemRandomNumberGenerator()
        let pieces = ["<", ">", "&", "\"", "'", "\u{301}", "a", "é", "中", "&amp;", " "]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let out = ConsoleEscaping.escape(text)
            XCTAssertFalse(out.utf8.contains { $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }, text)
            // Undone byte by byte too (Foundation's replacing compares characters, and
            // "&quot;" + U+0301 ends in a character that is not ";").
            var back: [UInt8] = []
            var rest = Array(out.utf8)[...]
            let entities: [(String, UInt8)] = [("&lt;", 0x3C), ("&gt;", 0x3E), ("&quot;", 0x22), ("&#39;", 0x27), ("&amp;", 0x26)]
            while let first = rest.first {
                if let (entity, byte) = entities.first(where: { rest.starts(with: $0.0.utf8) }) {
                    back.append(byte)
                    rest = rest.dropFirst(entity.utf8.count)
                } else {
                    back.append(first)
                    rest = rest.dropFirst()
                }
            }
            XCTAssertEqual(back, Array(text.utf8), "escaping loses nothing: \(text)")
        }
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

    /// Issue 46 item 5: a text a visitor or staff member wrote (a note, a tagline, an
    /// announcement, a staff name, an audit line, an exhibition title, a chart's labels) with
    /// `<script>`, `"`, `&` and `{{` reaches every page that shows it escaped by the template
    /// engine, in text and in attributes (`aria-label`, `value`), and is never read as a template.
    /// Each page is drawn as the console draws it: its typed context through its template, then
    /// inside the layout, signed in as a staff member with the same name.
    /// A quote or a bracket followed by a combining mark is one grapheme cluster but still the
    /// byte HTML reads (`"\u{301}` ended a `value="…"`: swift-mustache's escaping compares
    /// characters, and let it through).
    func testHostileTextIsEscapedOnEveryPageThatShowsIt() {
        let hostile = "<script>alert(1)</script>\"&{{t.console}}\"\u{301} autofocus x=\u{301}'<\u{301}"
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;{{t.console}}&quot;\u{301} autofocus x=\u{301}&#39;&lt;\u{301}"
        let t = ConsoleStrings.all(.english)
        let session = StaffSession(id: "id", staff: hostile, csrf: "c", created: Date(timeIntervalSince1970: 0), expires: Date(timeIntervalSince1970: 1))
        /// The page in the layout; `shown`: how many of the page's own fields carry the text.
        func check<C: ConsoleContext>(_ template: String, _ context: C, shown: Int, file: StaticString = #filePath, line: UInt = #line) -> String {
            let body = ConsolePages.render(template, context)
            let page = ConsolePages.render(
                "layout", Console.layoutContext(title: hostile, lang: .english, session: session, path: "/staff/x", body: body, flash: hostile, problem: hostile)
            ).html
            XCTAssertFalse(page.contains("<script>alert"), "\(template): raw markup", file: file, line: line)
            XCTAssertFalse(page.contains(hostile), "\(template): the text unescaped", file: file, line: line)
            XCTAssertFalse(page.contains("&amp;Staff console"), "\(template): {{ in a value was read as a template", file: file, line: line)
            // The layout shows it five times: the <title>, the <h1>, "signed in as", the notice, the problem.
            XCTAssertEqual(page.components(separatedBy: escaped).count - 1, shown + 5, "\(template): \(page)", file: file, line: line)
            XCTAssertEqual(body.html.components(separatedBy: escaped).count - 1, shown, "\(template): \(body.html)", file: file, line: line)
            return page
        }
        let note = ConsolePages.Queue.Note(
            id: "v1/1", dom: "v1-1", subject: "artwork:1", title: hostile, when: "2026-11-26 10:00", languageName: "English", langTag: "en", text: hostile,
            up: 1, down: 0, reports: 1, visitor: "v1", isVisitor: true, decision: "", csrf: "c", reason: hostile, reporters: [], hasReporters: false, reporterCount: 0)
        var removed = note
        removed.reason = nil
        _ = check("queue", ConsolePages.Queue(t: t, items: [note], removed: [removed], waiting: hostile, next: nil, first: nil), shown: 3 + 2 + 1)
        _ = check("visitors", ConsolePages.Visitors(t: t, csrf: "c", bans: [.init(visitor: "v1", at: "2026-11-26 10:00", staff: hostile)]), shown: 1)
        _ = check("banSure", ConsolePages.BanSure(t: t, csrf: "c", visitor: "v1", question: hostile), shown: 1)
        let featured = ConsolePages.Featured.Entry(
            subject: "artwork:1", dom: "artwork-1", title: hostile, tier: 1, from: "", until: "",
            taglines: [.init(code: "en", name: "English", text: hostile, cut: hostile, dom: "artwork-1", cells: "1 of 60")])
        let featuredPage = check("featured", ConsolePages.Featured(t: t, csrf: "c", entries: [featured]), shown: 3)
        XCTAssertTrue(featuredPage.contains("value=\"\(escaped)\""), "the tagline's input keeps its value in the attribute")
        let announcement = ConsolePages.Announcements.Entry(
            id: "a1", dom: "a1", feeds: hostile, isCard: true, positions: "", from: "", until: "", csrf: "c", texts: [.init(code: "en", name: "English", text: hostile)])
        _ = check(
            "announcements",
            ConsolePages.Announcements(
                t: t, csrf: "c", patterns: hostile, matches: [.init(key: "tab:home", title: hostile)], matchCount: 1, entries: [announcement], patternProblem: hostile),
            shown: 5)
        _ = check(
            "audit",
            ConsolePages.Audit(
                t: t, q: hostile, query: "", staffOptions: [.init(name: hostile, selected: true)], actionOptions: [.init(name: "ban", selected: false)],
                entries: [.init(at: "2026-11-26 10:00", staff: hostile, action: "ban", target: hostile, before: hostile, after: hostile)], hasEntries: true),
            shown: 6)
        _ = check(
            "accounts",
            ConsolePages.Accounts(
                t: t, csrf: "c", accounts: [.init(name: hostile, dom: "x", created: "2026-11-26", isYou: false, csrf: "c", roleLabel: "admin", sessionsLabel: "1")]),
            shown: 5)
        _ = check("accountSure", ConsolePages.AccountSure(t: t, csrf: "c", action: "/staff/accounts/x/remove", question: hostile, yes: "Yes"), shown: 1)
        _ = check("message", ConsolePages.Message(text: hostile, back: "/staff/queue", backLabel: "Queue"), shown: 1)
        _ = check("signin", ConsolePages.SignIn(t: t, csrf: "c", name: hostile), shown: 1)
        // The Pulse page: an exhibition's title in a list, and in a chart's caption (the
        // figcaption, the region's aria-label, the table's caption, the SVG's aria-label and
        // <desc>) and in its day labels (each bar's <title>, the first tick).
        let chart = ConsoleCharts.bars([1], labels: [hostile], label: hostile)
        let pulse = check(
            "pulse",
            PulsePageContext(
                t: t, todayLabel: "2026-11-26", today: [], charts: [.init(kind: "plays", caption: hostile, chart: chart, rows: [.init(day: hostile, value: 1)])],
                mostPlayed: [.init(key: "exhibition:1", title: hostile, count: 1)], bestLiked: [], abandoned: [], hasAbandoned: false, hasVisitCode: false,
                visitCode: ""),
            shown: 1 + 3 + 2 + 1 + 1)
        XCTAssertTrue(pulse.contains("role=\"img\" aria-label=\"\(escaped)\""), "the chart's aria-label")
        XCTAssertTrue(pulse.contains("<title>\(escaped): 1</title>"), "a bar's title")
        XCTAssertTrue(pulse.contains("role=\"region\" aria-label=\"\(escaped)\""), "the chart's region")
    }

    /// The console hands the engine each context as a lookup table (`ConsolePages.lookupTable`,
    /// its fields reflected once) instead of the struct (reflected on every `{{name}}`): every
    /// page comes out byte for byte as the engine drew it from the struct. The contexts have
    /// what the two could disagree on: a nil Optional (the name is looked up the stack), a
    /// present one, false and true switches, empty and full lists, nested structs, a chart
    /// partial, the layout signed in and signed out.
    func testTheLookupTableDrawsEveryPageAsTheStructDid() {
        let t = ConsoleStrings.all(.english)
        func same<C: ConsoleContext>(_ template: String, _ context: C, file: StaticString = #filePath, line: UInt = #line) {
            let fromStruct = ConsoleAssets.library.render(context, withTemplate: template) ?? "(nothing)"
            let fromTable = ConsolePages.render(template, context).html
            XCTAssertFalse(fromStruct.isEmpty, template, file: file, line: line)
            XCTAssertEqual(fromTable, fromStruct, template, file: file, line: line)
        }
        let note = ConsolePages.Queue.Note(
            id: "v1.1", dom: "v1-1", subject: "artwork:1", title: "Title & co", when: "2026-11-26 10:00", languageName: "English", langTag: "en",
            text: "A <note>", up: 1, down: 0, reports: 2, visitor: "v1", isVisitor: true, decision: "", csrf: "c", reason: "reported",
            reporters: [.init(visitor: "v2", at: "2026-11-26 10:01"), .init(visitor: "v3", at: "2026-11-26 10:02")], hasReporters: true, reporterCount: 2)
        let quiet = ConsolePages.Queue.Note(
            id: "c.2", dom: "c-2", subject: "artwork:2", title: "", when: "2026-11-26 11:00", languageName: "Français", langTag: "fr",
            text: "Une note", up: 0, down: 7, reports: 0, visitor: "", isVisitor: false, decision: "restored", csrf: "c", reason: "score",
            reporters: [], hasReporters: false, reporterCount: 0)
        var removed = note
        (removed.reason, removed.reporters, removed.hasReporters, removed.reporterCount) = (nil, nil, nil, nil)
        same("queue", ConsolePages.Queue(t: t, items: [note, quiet], removed: [removed], waiting: "2 waiting", next: "/staff/queue?after=x", first: "/staff/queue"))
        same("queue", ConsolePages.Queue(t: t, items: [], removed: [], waiting: "0 waiting", next: nil, first: nil))
        same("visitors", ConsolePages.Visitors(t: t, csrf: "c", bans: [.init(visitor: "v1", at: "2026-11-26 10:00", staff: "ana")]))
        same("visitors", ConsolePages.Visitors(t: t, csrf: "c", bans: []))
        same("banSure", ConsolePages.BanSure(t: t, csrf: "c", visitor: "v1", question: "Sure?"))
        let featured = ConsolePages.Featured.Entry(
            subject: "artwork:1", dom: "artwork-1", title: "T", tier: 3, from: "2026-11-01", until: "",
            taglines: [.init(code: "en", name: "English", text: "Look", cut: "Look", dom: "artwork-1", cells: "4 of 60")])
        same("featured", ConsolePages.Featured(t: t, csrf: "c", entries: [featured, featured]))
        let announcement = ConsolePages.Announcements.Entry(
            id: "a1", dom: "a1", feeds: "tab:home", isCard: false, positions: "1", from: "", until: "", csrf: "c", texts: [.init(code: "en", name: "English", text: "Hi")])
        same(
            "announcements",
            ConsolePages.Announcements(
                t: t, csrf: "c", patterns: "tab:home", matches: [.init(key: "tab:home", title: "Home")], matchCount: 1, entries: [announcement], patternProblem: nil))
        same(
            "announcements",
            ConsolePages.Announcements(t: t, csrf: "c", patterns: "x[", matches: [], matchCount: 0, entries: [], patternProblem: "not a pattern"))
        same(
            "audit",
            ConsolePages.Audit(
                t: t, q: "x", query: "?q=x", staffOptions: [.init(name: "ana", selected: true)], actionOptions: [.init(name: "ban", selected: false)],
                entries: [.init(at: "2026-11-26 10:00", staff: "ana", action: "ban", target: "visitor:v1", before: "allowed", after: "banned")], hasEntries: true))
        same("audit", ConsolePages.Audit(t: t, q: "", query: "", staffOptions: [], actionOptions: [], entries: [], hasEntries: false))
        same(
            "accounts",
            ConsolePages.Accounts(
                t: t, csrf: "c", accounts: [.init(name: "ana", dom: "ana", created: "2026-11-26", isYou: true, csrf: "c", roleLabel: "admin", sessionsLabel: "1")]))
        same("accountSure", ConsolePages.AccountSure(t: t, csrf: "c", action: "/staff/accounts/x/remove", question: "Sure?", yes: "Yes"))
        same("message", ConsolePages.Message(text: "Done", back: "/staff/queue", backLabel: "Queue"))
        same("signin", ConsolePages.SignIn(t: t, csrf: "c", name: ""))
        let chart = ConsoleCharts.bars([2, 0, 5], labels: ["2026-11-24", "2026-11-25", "2026-11-26"], label: "plays")
        same(
            "pulse",
            PulsePageContext(
                t: t, todayLabel: "2026-11-26", today: [.init(label: "plays", value: 5)],
                charts: [.init(kind: "plays", caption: "plays", chart: chart, rows: [.init(day: "2026-11-26", value: 5)])],
                mostPlayed: [.init(key: "exhibition:1", title: "E", count: 3)], bestLiked: [.init(key: "artwork:1", title: "A", up: 4, down: 1)],
                abandoned: [.init(key: "stop:1/2", title: "S", plays: 9, lost: 4)], hasAbandoned: true, hasVisitCode: true, visitCode: "1234"))
        let session = StaffSession(id: "id", staff: "ana", csrf: "c", created: Date(timeIntervalSince1970: 0), expires: Date(timeIntervalSince1970: 1))
        let body = ConsolePages.render("message", ConsolePages.Message(text: "Done", back: "/staff/queue", backLabel: "Queue"))
        same("layout", Console.layoutContext(title: "Queue", lang: .english, session: session, path: "/staff/queue", body: body, flash: "Saved", problem: nil))
        same("layout", Console.layoutContext(title: "Sign in", lang: .french, session: nil, path: "/staff/sign-in", body: body, flash: nil, problem: "No"))
    }

    /// The items that hand the engine their fields themselves (`ConsoleFields`) name every
    /// stored field, each by its own name: one left out or misspelt would be an empty hole.
    func testHandWrittenFieldsNameEveryStoredField() {
        func names(_ item: any ConsoleFields, file: StaticString = #filePath, line: UInt = #line) {
            let reflected = Set(Mirror(reflecting: item).children.compactMap(\.label))
            XCTAssertFalse(reflected.isEmpty, file: file, line: line)
            XCTAssertEqual(Set(item.fields.keys), reflected, "\(type(of: item))", file: file, line: line)
        }
        names(
            ConsolePages.Queue.Note(
                id: "v1.1", dom: "v1-1", subject: "artwork:1", title: "T", when: "w", languageName: "English", langTag: "en", text: "x",
                up: 1, down: 2, reports: 3, visitor: "v1", isVisitor: true, decision: "", csrf: "c"))
        names(ConsolePages.Queue.Reporter(visitor: "v2", at: "a"))
        names(ConsolePages.Audit.Entry(at: "a", staff: "s", action: "ban", target: "t", before: "b", after: "a"))
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

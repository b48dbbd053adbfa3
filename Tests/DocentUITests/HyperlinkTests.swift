import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// OSC 8 hyperlinks: when they are written, and the exact bytes.
final class HyperlinkTests: XCTestCase {
    let esc = "\u{1B}"
    let palette = AnsiPalette(colors: true, colorCount: 256)

    // MARK: Mode and detection

    func testModeParsing() {
        XCTAssertEqual(HyperlinkMode(parsing: "auto"), .auto)
        XCTAssertEqual(HyperlinkMode(parsing: " Always "), .always)
        XCTAssertEqual(HyperlinkMode(parsing: "1"), .always)
        XCTAssertEqual(HyperlinkMode(parsing: "on"), .always)
        XCTAssertEqual(HyperlinkMode(parsing: "NEVER"), .never)
        XCTAssertEqual(HyperlinkMode(parsing: "off"), .never)
        XCTAssertEqual(HyperlinkMode(parsing: "0"), .never)
        XCTAssertNil(HyperlinkMode(parsing: "sometimes"))
        XCTAssertNil(HyperlinkMode(parsing: ""))
    }

    func testForcedModesIgnoreTheTerminal() {
        XCTAssertTrue(Hyperlinks.enabled(mode: .always, environment: ["TERM": "linux"]))
        XCTAssertFalse(Hyperlinks.enabled(mode: .never, environment: ["TERM": "xterm-kitty"]))
        XCTAssertTrue(Hyperlinks.enabled(mode: .auto, environment: ["TERM": "xterm-kitty"]))
        XCTAssertFalse(Hyperlinks.enabled(mode: .auto, environment: ["TERM": "xterm-256color"]))
    }

    func testTerminalDetection() {
        let cases: [([String: String], Bool, String)] = [
            ([:], false, "no TERM"),
            (["TERM": "dumb", "FORCE_HYPERLINK": ""], false, "dumb"),
            (["TERM": "linux"], false, "the Linux console garbles OSC 8"),
            (["TERM": "xterm-256color"], false, "plain xterm: unknown, so no"),
            (["TERM": "xterm-256color", "VTE_VERSION": "7006"], true, "GNOME Terminal and other VTE"),
            (["TERM": "xterm-256color", "VTE_VERSION": "4803"], false, "VTE before 0.50"),
            (["TERM": "xterm-kitty"], true, "kitty by TERM"),
            (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"], true, "kitty by its variable"),
            (["TERM": "foot"], true, "foot"),
            (["TERM": "alacritty"], true, "alacritty"),
            (["TERM": "xterm-256color", "WT_SESSION": "abc"], true, "Windows Terminal"),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.5.0"], true, "iTerm2 3.5"),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.0.15"], false, "iTerm2 3.0"),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "vscode", "TERM_PROGRAM_VERSION": "1.95.3"], true, "VS Code 1.95"),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "vscode", "TERM_PROGRAM_VERSION": "1.60.0"], false, "VS Code 1.60"),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], true, "WezTerm"),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "Apple_Terminal"], false, "Terminal.app"),
            (["TERM": "tmux-256color", "TMUX": "/tmp/s,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"], false, "tmux 3.3a drops them"),
            (["TERM": "tmux-256color", "TMUX": "/tmp/s,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4"], true, "tmux 3.4 forwards them"),
            (["TERM": "screen", "TMUX": "/tmp/s,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.5a", "VTE_VERSION": "7006"], true, "tmux 3.5a"),
            (["TERM": "screen", "TMUX": "/tmp/s,1,0", "VTE_VERSION": "7006"], false, "tmux of unknown version inside VTE: the outer variable leaked in"),
            (["TERM": "screen.xterm-256color", "STY": "1.pts-0", "VTE_VERSION": "7006"], false, "GNU screen drops them"),
            (["TERM": "xterm-256color", "FORCE_HYPERLINK": "1"], true, "FORCE_HYPERLINK=1"),
            (["TERM": "xterm-kitty", "FORCE_HYPERLINK": "0"], false, "FORCE_HYPERLINK=0"),
        ]
        for (env, expected, why) in cases {
            XCTAssertEqual(Hyperlinks.terminalSupports(environment: env), expected, "\(why): \(env)")
        }
    }

    func testVersionComparison() {
        XCTAssertTrue(Hyperlinks.versionAtLeast("3.4", [3, 4]))
        XCTAssertTrue(Hyperlinks.versionAtLeast("3.10", [3, 4]))
        XCTAssertTrue(Hyperlinks.versionAtLeast("4", [3, 4]))
        XCTAssertTrue(Hyperlinks.versionAtLeast("next-3.6", [3, 4]))
        XCTAssertFalse(Hyperlinks.versionAtLeast("3.3a", [3, 4]))
        XCTAssertFalse(Hyperlinks.versionAtLeast("2.9", [3, 4]))
        XCTAssertFalse(Hyperlinks.versionAtLeast("", [3, 4]))
        XCTAssertFalse(Hyperlinks.versionAtLeast("abc", [1]))
        XCTAssertTrue(Hyperlinks.versionAtLeast("1.72.0-insider", [1, 72]))
    }

    // MARK: Bytes

    func testURIEncodingKeepsPrintableASCIIAndEncodesTheRest() {
        XCTAssertEqual(Hyperlinks.encodedURI("https://example.org/a?b=c&d=e#f;g"), "https://example.org/a?b=c&d=e#f;g")
        XCTAssertEqual(Hyperlinks.encodedURI("https://example.org/a b"), "https://example.org/a%20b")
        // ESC and BEL would end the sequence early; they never get through.
        XCTAssertEqual(Hyperlinks.encodedURI("http://x/\u{1B}]8;;\u{07}"), "http://x/%1B]8;;%07")
        XCTAssertEqual(Hyperlinks.encodedURI("https://例.org/é"), "https://%E4%BE%8B.org/%C3%A9")
    }

    func testLinkIDIsStablePerURL() {
        XCTAssertEqual(Hyperlinks.linkID("https://a.example/"), Hyperlinks.linkID("https://a.example/"))
        XCTAssertNotEqual(Hyperlinks.linkID("https://a.example/"), Hyperlinks.linkID("https://b.example/"))
        XCTAssertTrue(Hyperlinks.linkID("https://a.example/").hasPrefix("docent-"))
        XCTAssertFalse(Hyperlinks.linkID("https://a.example/").contains(where: { $0 == ":" || $0 == ";" }))
    }

    func testEscapesForOneLinkSaveMoveStyleOpenCloseRestore() {
        var screen = Screen(width: 20, height: 3)
        screen.put("go ", x: 0, y: 1)
        screen.put("http://a/b", x: 3, y: 1, style: Style(role: .accent, underline: true))
        screen.addLink(Rect(x: 3, y: 1, width: 10, height: 1), url: "http://a/b")
        let spans = Hyperlinks.spans(previous: [], current: screen.links, changedRows: [1], full: false)
        XCTAssertEqual(spans, [Hyperlinks.Span(y: 1, x: 3, width: 10, url: "http://a/b")])
        let bytes = Hyperlinks.escapes(for: spans, in: screen, visible: Size(width: 20, height: 3), sgr: palette.sgr)
        let id = Hyperlinks.linkID("http://a/b")
        XCTAssertEqual(
            bytes,
            "\(esc)7" + "\(esc)]8;id=\(id);http://a/b\(esc)\\" + "\(esc)[2;4H" + "\(esc)[0;4;36m" + "http://a/b"
                + "\(esc)]8;;\(esc)\\" + "\(esc)[0m\(esc)8")
    }

    func testEscapesStyleChangesAndPlainSpans() {
        var screen = Screen(width: 10, height: 2)
        screen.put("ab", x: 0, y: 0, style: Style(role: .muted))
        screen.put("c", x: 2, y: 0, style: Style(reverse: true))
        let plain = Hyperlinks.escapes(
            for: [Hyperlinks.Span(y: 0, x: 0, width: 3, url: nil)], in: screen, visible: Size(width: 10, height: 2), sgr: palette.sgr)
        // A span whose link has gone: the same cells again, with no OSC 8 around them.
        XCTAssertEqual(plain, "\(esc)7\(esc)[1;1H\(esc)[0;90mab\(esc)[0;7mc\(esc)[0m\(esc)8")
    }

    func testEscapesPlaceEachNonASCIICellAndNeverWriteHalfAWideCharacter() {
        var screen = Screen(width: 8, height: 2)
        screen.put("网站 x", x: 0, y: 0)
        let visible = Size(width: 8, height: 2)
        let whole = Hyperlinks.escapes(for: [Hyperlinks.Span(y: 0, x: 0, width: 6, url: nil)], in: screen, visible: visible, sgr: palette.sgr)
        XCTAssertEqual(whole, "\(esc)7\(esc)[1;1H\(esc)[0m网\(esc)[1;3H站\(esc)[1;5H x\(esc)[0m\(esc)8")
        // Starting on the right half takes the whole character; ending on the left half
        // writes a space there, as ncurses does at a clipped edge.
        let fromHalf = Hyperlinks.escapes(for: [Hyperlinks.Span(y: 0, x: 1, width: 2, url: nil)], in: screen, visible: visible, sgr: palette.sgr)
        XCTAssertEqual(fromHalf, "\(esc)7\(esc)[1;1H\(esc)[0m网\(esc)[1;3H \(esc)[0m\(esc)8")
    }

    func testEscapesStayInsideTheTerminalAndSkipTheBottomRightCell() {
        var screen = Screen(width: 10, height: 3)
        screen.put("0123456789", x: 0, y: 2)
        let span = Hyperlinks.Span(y: 2, x: 6, width: 4, url: nil)
        let full = Hyperlinks.escapes(for: [span], in: screen, visible: Size(width: 10, height: 3), sgr: palette.sgr)
        XCTAssertEqual(full, "\(esc)7\(esc)[3;7H\(esc)[0m678\(esc)[0m\(esc)8")
        // A terminal smaller than the frame: nothing beyond its edges.
        XCTAssertEqual(Hyperlinks.escapes(for: [span], in: screen, visible: Size(width: 10, height: 2), sgr: palette.sgr), "")
        XCTAssertEqual(
            Hyperlinks.escapes(for: [span], in: screen, visible: Size(width: 8, height: 5), sgr: palette.sgr),
            "\(esc)7\(esc)[3;7H\(esc)[0m67\(esc)[0m\(esc)8")
    }

    func testOverlongOrEmptyURLsStayPlain() {
        var screen = Screen(width: 10, height: 1)
        screen.put("link", x: 0, y: 0)
        let long = "https://example.org/" + String(repeating: "a", count: Hyperlinks.maxURILength)
        XCTAssertEqual(Hyperlinks.escapes(for: [Hyperlinks.Span(y: 0, x: 0, width: 4, url: long)], in: screen, visible: Size(width: 10, height: 1), sgr: palette.sgr), "")
        XCTAssertEqual(Hyperlinks.escapes(for: [Hyperlinks.Span(y: 0, x: 0, width: 4, url: "")], in: screen, visible: Size(width: 10, height: 1), sgr: palette.sgr), "")
        XCTAssertEqual(Hyperlinks.escapes(for: [], in: screen, visible: Size(width: 10, height: 1), sgr: palette.sgr), "")
    }

    // MARK: Which links to write

    func testSpansAfterAFrame() {
        let a = Screen.Link(rect: Rect(x: 2, y: 3, width: 5, height: 1), url: "https://a/")
        let b = Screen.Link(rect: Rect(x: 2, y: 5, width: 5, height: 1), url: "https://b/")
        func span(_ l: Screen.Link, url: String?? = .none) -> Hyperlinks.Span {
            Hyperlinks.Span(y: l.rect.y, x: l.rect.x, width: l.rect.width, url: url ?? l.url)
        }
        // A full redraw writes every link.
        XCTAssertEqual(Hyperlinks.spans(previous: [a, b], current: [a, b], changedRows: [], full: true), [span(a), span(b)])
        // Nothing changed: nothing written (0 bytes while idle stays 0).
        XCTAssertEqual(Hyperlinks.spans(previous: [a, b], current: [a, b], changedRows: [], full: false), [])
        // A change elsewhere on a link's row: that link again.
        XCTAssertEqual(Hyperlinks.spans(previous: [a, b], current: [a, b], changedRows: [5, 9], full: false), [span(b)])
        // A new link, even on an unchanged row.
        XCTAssertEqual(Hyperlinks.spans(previous: [a], current: [a, b], changedRows: [], full: false), [span(b)])
        // A link gone: its cells again as plain text.
        XCTAssertEqual(Hyperlinks.spans(previous: [a, b], current: [a], changedRows: [], full: false), [span(b, url: .some(nil))])
        // A link moved right by two: the new one, and the two cells it left as plain text.
        let moved = Screen.Link(rect: Rect(x: 4, y: 3, width: 5, height: 1), url: "https://a/")
        XCTAssertEqual(
            Hyperlinks.spans(previous: [a], current: [moved], changedRows: [3], full: false),
            [span(moved), Hyperlinks.Span(y: 3, x: 2, width: 2, url: nil)])
        // A link taller than a row is written row by row.
        let tall = Screen.Link(rect: Rect(x: 0, y: 0, width: 3, height: 2), url: "https://t/")
        XCTAssertEqual(
            Hyperlinks.spans(previous: [], current: [tall], changedRows: [], full: false),
            [Hyperlinks.Span(y: 0, x: 0, width: 3, url: "https://t/"), Hyperlinks.Span(y: 1, x: 0, width: 3, url: "https://t/")])
    }

    func testFillCutsLinksItCovers() {
        var screen = Screen(width: 30, height: 6)
        screen.addLink(Rect(x: 0, y: 1, width: 30, height: 1), url: "https://wide/")
        screen.addLink(Rect(x: 2, y: 4, width: 5, height: 1), url: "https://low/")
        // An overlay box in the middle of row 1 leaves the two ends, and row 4 untouched.
        screen.fill(Rect(x: 10, y: 0, width: 10, height: 3))
        XCTAssertEqual(screen.links, [
            Screen.Link(rect: Rect(x: 0, y: 1, width: 10, height: 1), url: "https://wide/"),
            Screen.Link(rect: Rect(x: 20, y: 1, width: 10, height: 1), url: "https://wide/"),
            Screen.Link(rect: Rect(x: 2, y: 4, width: 5, height: 1), url: "https://low/"),
        ])
        screen.fill(Rect(x: 0, y: 3, width: 30, height: 3))
        XCTAssertEqual(screen.links.map(\.url), ["https://wide/", "https://wide/"])
    }

    // MARK: Where the screens put links

    /// The text of the cells a link covers.
    private func text(_ link: Screen.Link, in screen: Screen) -> String {
        var s = ""
        for x in link.rect.x..<link.rect.maxX where !screen[x, link.rect.y].continuation { s += screen[x, link.rect.y].text }
        return s
    }

    func testInfoLinksCoverExactlyTheURLsShown() {
        for size in [Size(width: 80, height: 24), Size(width: 120, height: 30), RootView.minimumSize] {
            var s = UIFixtures.loadedState(size: size)
            send(&s, .selectTab(.info), effects: { [.persist($0.settings)] }) { $0.tab = .info }
            let screen = RootView.render(s, size: size)
            XCTAssertFalse(screen.links.isEmpty, "no links on Info at \(size)")
            for link in screen.links {
                let shown = text(link, in: screen)
                XCTAssertEqual(link.rect.height, 1)
                XCTAssertTrue(shown.hasPrefix("https://"), "link at \(link.rect) covers \(shown.debugDescription) at \(size)")
                XCTAssertFalse(shown.hasSuffix(" "), "trailing space in \(shown.debugDescription)")
                // The whole URL, or its beginning cut short with "…".
                if shown.hasSuffix("…") {
                    XCTAssertTrue(link.url.hasPrefix(String(shown.dropLast())), "\(shown) is not the start of \(link.url)")
                } else {
                    XCTAssertEqual(shown, link.url)
                }
            }
        }
    }

    /// Issue 33 #19: Enter on a link row (which the guide cannot open) says what to do with it.
    func testEnterOnALinkRowSaysHowToOpenIt() throws {
        var s = UIFixtures.loadedState()
        send(&s, .selectTab(.info), effects: { [.persist($0.settings)] }) { $0.tab = .info }
        guard case .list(_, let rows) = PageBuilder.content(s.page.route, s) else { return XCTFail("Info is a list") }
        let i = try XCTUnwrap(rows.firstIndex { if case .link = $0.kind { return true } else { return false } })
        guard case .link(let url) = rows[i].kind else { return XCTFail() }
        s.page.selection = i
        send(&s, .activate, effects: []) { $0.banner = Banner(.key(.bannerLink, ["url": .verbatim(url)])) }
        XCTAssertEqual(s.banner?.text(s.strings), "To visit \(url), open it in a web browser (or click it, where the terminal shows links).")
    }

    func testHelpOverlayHidesTheLinksUnderIt() {
        var s = UIFixtures.loadedState()
        send(&s, .selectTab(.info), effects: { [.persist($0.settings)] }) { $0.tab = .info }
        let plain = RootView.render(s, size: Size(width: 80, height: 24))
        send(&s, .showHelp) { $0.overlay = .help(firstRun: false) }
        let covered = RootView.render(s, size: Size(width: 80, height: 24))
        let width = { (links: [Screen.Link]) in links.reduce(0) { $0 + $1.rect.width } }
        XCTAssertLessThan(width(covered.links), width(plain.links), "the help box covers part of the links:\n\(covered.dump())")
        for link in covered.links {
            XCTAssertTrue(text(link, in: covered).allSatisfy { !"│─┌┐└┘".contains($0) }, "a link reaches into the overlay: \(text(link, in: covered))")
            XCTAssertTrue(plain.links.contains { $0.url == link.url && $0.rect.y == link.rect.y })
        }
    }

    func testWrappedDetailPageLinkHasOneLinkPerLine() {
        var s = UIFixtures.loadedState(size: RootView.minimumSize)
        // The fourth row of Home (an exhibition), opened, scrolled to its last screenful.
        guard let home = Reducer.rows(s) else { return XCTFail("Home is a list") }
        let selectable = home.indices.filter { home[$0].isSelectable }
        XCTAssertGreaterThan(selectable.count, 3)
        let row = selectable[3]
        send(&s, .move(3)) { $0.page.selection = row }
        guard case .push(let route)? = home[row].action, case .text(let page) = PageBuilder.content(route, s) else {
            return XCTFail("row \(row) opens a text page: \(home[row])")
        }
        send(&s, .activate) { $0.stacks[.home]?.append(Page(route)) }
        let end = max(0, page.lines(width: s.viewportWidth, strings: s.strings).count - s.viewportRows)
        XCTAssertGreaterThan(end, 0, "the page is longer than the screen")
        send(&s, .moveToEnd) { $0.page.scroll = end }
        let screen = RootView.render(s, size: RootView.minimumSize)
        let urls = Set(screen.links.map(\.url))
        XCTAssertEqual(urls.count, 1, "one website link on the exhibition page: \(screen.links)")
        let rows = screen.links.map(\.rect.y)
        XCTAssertEqual(rows, Array(rows.sorted()), "lines in order")
        XCTAssertGreaterThan(rows.count, 1, "at 40 columns the link wraps:\n\(screen.dump())")
        let joined = screen.links.map { text($0, in: screen) }.joined()
        XCTAssertTrue(joined.replacingOccurrences(of: " ", with: "").contains(urls.first ?? "?"), joined)
    }

    // MARK: Palette

    func testSGRMatchesTheCursesTheme() {
        XCTAssertEqual(palette.sgr(.plain), "\(esc)[0m")
        XCTAssertEqual(palette.sgr(Style(role: .title, bold: true)), "\(esc)[0;1;36m")
        XCTAssertEqual(palette.sgr(Style(role: .muted)), "\(esc)[0;90m")
        XCTAssertEqual(palette.sgr(Style(role: .highlight, reverse: true)), "\(esc)[0;1;7;33m")
        // Bright red: xterm's red is 3.6:1 on black, under WCAG AA (issue 47 #3).
        XCTAssertEqual(palette.sgr(Style(role: .error)), "\(esc)[0;1;91m")
        let eight = AnsiPalette(colors: true, colorCount: 8)
        XCTAssertEqual(eight.sgr(Style(role: .muted)), "\(esc)[0;2m", "no grey with 8 colours: dim")
        let black = AnsiPalette(colors: true, colorCount: 8, blackBackground: true)
        XCTAssertEqual(black.sgr(Style(role: .success)), "\(esc)[0;32;40m")
        XCTAssertEqual(black.sgr(Style(role: .muted)), "\(esc)[0;2;37;40m")
        XCTAssertEqual(black.sgr(.plain), "\(esc)[0m", "the normal role keeps the default pair")
        let mono = AnsiPalette.monochrome
        XCTAssertEqual(mono.sgr(Style(role: .accent, underline: true)), "\(esc)[0;4m")
        XCTAssertEqual(mono.sgr(Style(role: .error)), "\(esc)[0;1;4m")
        XCTAssertEqual(mono.sgr(Style(role: .muted)), "\(esc)[0;2m")
        // `.dim` (scroll marks, rules): the grey alone where there is one, faint where not.
        XCTAssertEqual(palette.sgr(.dim), "\(esc)[0;90m")
        XCTAssertEqual(eight.sgr(.dim), "\(esc)[0;2m")
        XCTAssertEqual(mono.sgr(.dim), "\(esc)[0;2m")
    }
}

import Foundation
import XCTest

/// Tabs, lists and detail pages on the real binary with SampleData.
final class NavigationTests: EndToEndTestCase {
    /// Home as drawn: tab bar, title, section headings, the featured tour, key hints.
    private func assertHome(_ screen: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let lines = ScreenText.lines(screen)
        XCTAssertEqual(lines.count, 24, "an 80×24 pane", file: file, line: line)
        XCTAssertTrue(ScreenText.hasTabBar(screen, "en"), "tab bar:\n\(screen)", file: file, line: line)
        XCTAssertTrue(lines[0].hasSuffix("English"), "language at the right of the tab bar:\n\(screen)", file: file, line: line)
        XCTAssertTrue(lines[1].contains("─ \(try UIStrings.get("en", "title.home")) ─"), "Home title:\n\(screen)", file: file, line: line)
        // Visitor Pulse's "Popular right now" comes first, so Events is further down.
        for key in ["pulse.popular.title", "home.featuredTours", "home.onView"] {
            XCTAssertNotNil(
                ScreenText.lineIndex(of: try UIStrings.get("en", key), in: screen), "Home heading \(key):\n\(screen)",
                file: file, line: line)
        }
        XCTAssertTrue(screen.contains(try SampleData.firstFeaturedTour().title), "featured tour:\n\(screen)", file: file, line: line)
        XCTAssertTrue(try UIStrings.showsHints(lines[23], "en", "hints.list"), "list key hints:\n\(screen)", file: file, line: line)
        XCTAssertNil(ScreenText.lineIndex(of: try UIStrings.get("en", "info.museum"), in: screen), "Info content on Home", file: file, line: line)
    }

    private func assertInfo(_ screen: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let lines = ScreenText.lines(screen)
        XCTAssertTrue(ScreenText.hasTabBar(screen, "en"), "tab bar:\n\(screen)", file: file, line: line)
        XCTAssertTrue(lines[1].contains("─ \(try UIStrings.get("en", "title.info")) ─"), "Info title:\n\(screen)", file: file, line: line)
        for key in ["info.museum", "info.settings", "info.aboutHeader"] {
            XCTAssertNotNil(
                ScreenText.lineIndex(of: try UIStrings.get("en", key), in: screen), "Info heading \(key):\n\(screen)",
                file: file, line: line)
        }
        for key in ["info.hours", "info.language", "info.about"] {
            XCTAssertTrue(screen.contains(try UIStrings.get("en", key)), "Info row \(key):\n\(screen)", file: file, line: line)
        }
        XCTAssertNil(
            ScreenText.lineIndex(of: try UIStrings.get("en", "home.featuredTours"), in: screen), "Home content on Info",
            file: file, line: line)
    }

    /// Exactly one tab label, `active`, is drawn in reverse video.
    private func assertActiveTab(_ s: TmuxSession, _ active: String, labels: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let first = ScreenText.lines(try s.screenWithAttributes())[0]
        for label in labels {
            XCTAssertEqual(
                ScreenText.isReverse(" \(label) ", inEscapedLine: first), label == active,
                label == active ? "active tab \(label) not highlighted" : "inactive tab \(label) highlighted", file: file, line: line)
        }
    }

    /// Presses `key`, then waits for tab `label` to be the highlighted one; Home and Info must
    /// then show their own content (other tabs are still being built: only the highlight).
    @discardableResult
    private func expectTab(_ s: TmuxSession, _ label: String, labels: [String], pressing key: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try s.sendKeys(key)
        try s.waitUntil("the \(label) tab highlighted after \(key)", withAttributes: true) { escaped in
            ScreenText.isReverse(" \(label) ", inEscapedLine: ScreenText.lines(escaped)[0]) == true
        }
        let id = try XCTUnwrap(try UIStrings.tabID(forLabel: label, "en"), "no tab.* string for \(label)", file: file, line: line)
        let featured = try UIStrings.get("en", "home.featuredTours")
        let museum = try UIStrings.get("en", "info.museum")
        let homeTitle = "─ \(try UIStrings.get("en", "title.home")) ─"
        let infoTitle = "─ \(try UIStrings.get("en", "title.info")) ─"
        let screen = try s.waitUntil("the \(label) tab's content after \(key)") { screen in
            let title = ScreenText.lines(screen)[1]
            switch id {
            case "home": return title.contains(homeTitle) && ScreenText.lineIndex(of: featured, in: screen) != nil
            case "info": return title.contains(infoTitle) && ScreenText.lineIndex(of: museum, in: screen) != nil
            default: return !title.contains(homeTitle) && !title.contains(infoTitle)
            }
        }
        if id == "home" { try assertHome(screen, file: file, line: line) }
        if id == "info" { try assertInfo(screen, file: file, line: line) }
        try assertActiveTab(s, label, labels: labels, file: file, line: line)
        return screen
    }

    func testTabsSwitchWithTabShiftTabAndFunctionKeys() throws {
        let s = try startAndDismissOverlays()
        let home = try UIStrings.get("en", "tab.home")
        let info = try UIStrings.get("en", "tab.info")
        let featured = try UIStrings.get("en", "home.featuredTours")

        let screen = try s.screen()
        try assertHome(screen)
        // Home first and Info last; every label is a tab name from the strings file.
        let labels = ScreenText.tabLabels(ScreenText.lines(screen)[0])
        XCTAssertEqual(labels.first, home)
        XCTAssertEqual(labels.last, info)
        for l in labels { XCTAssertNotNil(try UIStrings.tabID(forLabel: l, "en"), "unknown tab label \(l)") }
        try assertActiveTab(s, home, labels: labels)
        // The first row of "Popular right now" is selected on arrival: the top-tier featured tour.
        let selected = ScreenText.selectedRow(screen)
        let popular = try UIStrings.get("en", "pulse.popular.title")
        XCTAssertEqual(selected?.index, ScreenText.lineIndex(of: popular, in: screen).map { $0 + 1 }, "selection on the first popular row:\n\(screen)")
        XCTAssertTrue(selected?.text.contains(try SampleData.firstFeaturedTour().title) ?? false, "selected row:\n\(screen)")
        XCTAssertNotNil(ScreenText.lineIndex(of: featured, in: screen), screen)

        // Tab walks right through every tab and wraps to Home; Shift-Tab walks back.
        for i in 1...labels.count {
            try expectTab(s, labels[i % labels.count], labels: labels, pressing: "Tab")
        }
        for i in 1...labels.count {
            try expectTab(s, labels[(labels.count - i) % labels.count], labels: labels, pressing: "BTab")
        }
        // F6 is Info, F1 is Home, from anywhere.
        try expectTab(s, info, labels: labels, pressing: "F6")
        try expectTab(s, home, labels: labels, pressing: "F1")
        try expectTab(s, info, labels: labels, pressing: "F6")
        try expectTab(s, info, labels: labels, pressing: "F6")
        try expectTab(s, home, labels: labels, pressing: "F1")
    }

    /// Down until the first row under `heading` is selected (it must be below the selection).
    private func moveDown(_ s: TmuxSession, toFirstRowUnder heading: String) throws -> String {
        var screen = try s.screen()
        for _ in 0...10 {
            let at = try XCTUnwrap(ScreenText.lineIndex(of: heading, in: screen), "no \(heading) heading:\n\(screen)")
            let sel = try XCTUnwrap(ScreenText.selectedRow(screen), "no selection:\n\(screen)")
            if sel.index == at + 1 { return screen }
            XCTAssertLessThan(sel.index, at, "went past the first row under \(heading):\n\(screen)")
            try s.sendKeys("Down")
            // The selection moves down the screen, or the list scrolls under it.
            let before = screen
            screen = try s.waitUntil("the selection to move down from line \(sel.index)") {
                (ScreenText.selectedRow($0)?.index ?? -1) > sel.index || $0 != before
            }
        }
        throw E2EError("Down never reached the first row under \(heading):\n\(screen)")
    }

    func testTourAndExhibitionDetailsOpenAndGoBack() throws {
        let s = try startAndDismissOverlays()
        let tour = try SampleData.firstFeaturedTour()
        let featured = try UIStrings.get("en", "home.featuredTours")
        let onView = try UIStrings.get("en", "home.onView")
        let stopsHeading = try UIStrings.get("en", "tour.stopsHeading")
        let through = try UIStrings.prefix("en", "exhibition.through")

        // Tour detail: Enter on the first featured tour (Popular right now comes before it).
        var screen = try moveDown(s, toFirstRowUnder: featured)
        let tourRow = try XCTUnwrap(ScreenText.selectedRow(screen), "no selected row:\n\(screen)")
        XCTAssertEqual(tourRow.index, ScreenText.lineIndex(of: featured, in: screen).map { $0 + 1 })
        XCTAssertEqual(ScreenText.columns(tourRow.text).last, tour.duration + " · " + (try UIStrings.fill("en", "tour.stops", ["count": "\(tour.stopCount)"])))
        try s.sendKeys("Enter")
        screen = try s.waitUntil("the tour detail page") { ScreenText.lineIndex(of: stopsHeading, in: $0) != nil }
        var lines = ScreenText.lines(screen)
        XCTAssertEqual(ScreenText.trimmed(lines[2]), tour.title, "tour title at the top of the page:\n\(screen)")
        XCTAssertTrue(screen.contains(try UIStrings.fill("en", "tour.stops", ["count": "\(tour.stopCount)"])), screen)
        XCTAssertTrue(ScreenText.flattened(screen).contains(tour.intro), "tour intro \(tour.intro.debugDescription):\n\(screen)")
        let stopsAt = try XCTUnwrap(ScreenText.lineIndex(of: stopsHeading, in: screen))
        let numbered = lines[(stopsAt + 1)...].map(ScreenText.trimmed)
            .filter { $0.range(of: #"^(▸ )?(\d+ +)?\d+\. "#, options: .regularExpression) != nil }
        XCTAssertEqual(numbered.count, tour.stopCount, "one numbered line per stop:\n\(screen)")
        // (After the stop's keypad number, where it has one: issue 47 #4.)
        XCTAssertTrue(numbered.first?.range(of: #"^(▸ )?(\d+ +)?1\. "#, options: .regularExpression) != nil, screen)
        // The tour starts somewhere on the map: its page offers `v` (issue 17 #11).
        XCTAssertTrue(try UIStrings.showsHints(lines[23], "en", "hints.detail"), "detail key hints:\n\(screen)")
        XCTAssertTrue(lines[23].components(separatedBy: " · ").contains(try UIStrings.get("en", "map.hintShow")), "detail key hints with v:\n\(screen)")
        XCTAssertTrue(ScreenText.hasTabBar(screen, "en"), "tab bar stays on the detail page:\n\(screen)")

        try s.sendKeys("Escape")
        screen = try s.waitUntil("Home again after Esc") { ScreenText.lineIndex(of: featured, in: $0) != nil }
        XCTAssertNil(ScreenText.lineIndex(of: stopsHeading, in: screen), screen)
        XCTAssertEqual(ScreenText.selectedRow(screen)?.index, tourRow.index, "selection kept after going back:\n\(screen)")

        // Exhibition detail: move down to the first row under "On view".
        screen = try moveDown(s, toFirstRowUnder: onView)
        let exRow = ScreenText.selectedRow(screen)!
        let exColumns = ScreenText.columns(exRow.text)
        XCTAssertEqual(exColumns.count, 2, "title and date columns: \(exRow.text)")
        // Without Visitor Pulse's featured mark (★/☆), which only the list shows.
        let exTitle = exColumns[0].replacingOccurrences(of: #"^[★☆] "#, with: "", options: .regularExpression)
        let exDate = exColumns.last ?? ""
        XCTAssertTrue(exDate.hasPrefix(through), "date column \(exDate.debugDescription) starts with \(through.debugDescription)")

        try s.sendKeys("Enter")
        screen = try s.waitUntil("the exhibition detail page for \(exTitle)") {
            ScreenText.lineIndex(of: onView, in: $0) == nil && ScreenText.lineIndex(of: exTitle, in: $0) != nil
        }
        lines = ScreenText.lines(screen)
        let titleAt = try XCTUnwrap(ScreenText.lineIndex(of: exTitle, in: screen))
        XCTAssertLessThanOrEqual(titleAt, 3, "the title heads the page:\n\(screen)")
        XCTAssertTrue(
            lines[(titleAt + 1)...].contains { ScreenText.trimmed($0).hasPrefix(exDate) },
            "a \"\(through)…\" line under the title, as in the list (\(exDate)):\n\(screen)")
        XCTAssertTrue(try UIStrings.showsHints(lines[23], "en", "hints.detail"), screen)

        try s.sendKeys("Escape")
        screen = try s.waitUntil("Home again after Esc") { ScreenText.lineIndex(of: onView, in: $0) != nil }
        XCTAssertEqual(ScreenText.selectedRow(screen)?.text, exRow.text, "selection kept on the exhibition:\n\(screen)")
        // Esc at the top of a tab does nothing (and certainly does not quit). Keys are read in
        // order: once the help that `?` opens after it is on screen, the Esc has been handled.
        try s.sendKeys("Escape")
        // A lone Esc is only told from the start of Alt+key once no byte follows it for the
        // guide's ESCDELAY (25 ms): the terminal protocol's own timeout, waited out on purpose.
        usleep(150_000)
        try s.sendKeys("?")
        let helpTitle = " \(try UIStrings.get("en", "help.title")) "
        try s.waitFor(helpTitle)
        try s.sendKeys("Escape")
        XCTAssertEqual(try s.waitForGone(helpTitle), screen)
    }
}

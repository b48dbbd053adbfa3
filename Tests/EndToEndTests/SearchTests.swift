import Foundation
import XCTest

/// Search as a visitor uses it: `/` from any tab, a few letters, a result, and landing on
/// the player or the map.
final class SearchEndToEndTests: EndToEndTestCase {
    func testQueryToPlayerAndToMap() throws {
        let s = try startAndDismissOverlays()
        try s.sendKeys("/")
        try s.waitFor(try UIStrings.get("en", "search.prompt"))
        try s.sendLiteral("indigo")
        try s.waitFor("Indigo Field Coverlet")
        try s.sendKeys("Enter")
        // The artwork's commentary opens in the player with its transcript (no sound server
        // here: the player says so and the transcript stays).
        try s.waitFor("Indigo Field Coverlet", "This coverlet was woven")

        try s.sendKeys("/")
        try s.waitFor(try UIStrings.get("en", "search.prompt"))
        try s.sendKeys("C-u")  // clear the old query (Esc followed at once by a letter reads as Alt+letter)
        try s.sendLiteral("baños")
        try s.waitFor("Men's Room")
        // A Spanish commentary says "baños" too, so artworks come first now (search reads every
        // language, issue 31): the map's own results are one filter away.
        try s.sendKeys("Left", "Enter")
        // Lands on the map, on the restroom's floor.
        let prompt = try UIStrings.get("en", "search.prompt")
        try s.waitUntil("the map showing the restroom", timeout: 15) { screen in
            screen.contains("Zoom") && screen.contains("Floor") && !screen.contains(prompt)
        }
        try s.sendKeys("q")
        try s.waitFor("EXIT_STATUS=0")
    }
}

/// A flag typed into the search field (issue 34): drawn whole, both regional indicators, not
/// as the first letter alone (a curses cell holds one spacing character).
final class FlagEndToEndTests: EndToEndTestCase {
    func testAFlagIsDrawnWholeInTwoCells() throws {
        let s = try startAndDismissOverlays()
        try s.sendKeys("/")
        try s.waitFor(try UIStrings.get("en", "search.prompt"))
        try s.sendLiteral("x🇺🇸y")
        // Before the fix the screen showed the first regional indicator alone ("x🇺 y").
        try s.waitFor("x🇺🇸y")
        try s.sendKeys("C-c")
        try s.waitFor("EXIT_STATUS=0")
    }
}

import Foundation
import XCTest

/// OSC 8 hyperlinks through the real binary: what it writes to the terminal (tmux `pipe-pane`
/// records the raw bytes), and that writing them leaves the screen exactly as without them.
final class HyperlinkEndToEndTests: EndToEndTestCase {
    /// The Info tab's links: tickets, membership and website from SampleData's `data` section.
    private func infoURLs() throws -> [String] {
        guard let data = try SampleData.json()["data"] as? [String: Any] else { throw E2EError("SampleData has no data section") }
        let urls = ["tickets_url", "membership_url", "website_url"].compactMap { data[$0] as? String }
        guard urls.count == 3 else { throw E2EError("SampleData lacks a tickets, membership or website URL: \(urls)") }
        return urls
    }

    /// Runs the guide with `--hyperlinks mode`, opens Info, records everything written from then
    /// on while `keys` are pressed; returns the raw bytes and the final screen with attributes.
    private func run(mode: String, keys: [String]) throws -> (raw: [UInt8], screen: String) {
        let home = try makeTemporaryDirectory()
        let s = try start(command: TmuxSession.guideCommand(extra: ["--hyperlinks", mode]), home: home)
        try dismissFirstRun(s)

        let rawFile = home.appendingPathComponent("raw.bin")
        try s.tmux(["pipe-pane", "-o", "-t", s.target, "cat >> \(Shell.quote(rawFile.path))"])
        try s.sendKeys("F6")
        let website = try UIStrings.get("en", "info.website")
        try s.waitUntil("Info with its links") { $0.contains(website) && $0.contains("https://") }
        for key in keys {
            let before = try s.screen()
            try s.sendKeys(key)
            // Wait for the frame the key caused (every key used here changes the screen).
            try s.waitUntil("the screen to change after \(key)") { $0 != before }
        }
        let screen = try s.screenWithAttributes()
        try s.sendKeys("q")
        XCTAssertEqual(try s.waitForExit().status, 0)
        // Everything the guide wrote is in the file once the shell's line after it is: the
        // wrapper prints EXIT_STATUS only when the guide has gone.
        let deadline = Date().addingTimeInterval(TmuxSession.defaultTimeout)
        var raw: [UInt8] = []
        repeat {
            raw = [UInt8]((try? Data(contentsOf: rawFile)) ?? Data())
            if occurrences(of: "EXIT_STATUS=", in: raw) > 0 { break }
            usleep(TmuxSession.pollInterval)
        } while Date() < deadline
        try s.tmux(["pipe-pane", "-t", s.target])
        XCTAssertGreaterThan(occurrences(of: "EXIT_STATUS=", in: raw), 0, "the recording reached the guide's exit")
        return (raw, screen)
    }

    private func occurrences(of needle: String, in raw: [UInt8]) -> Int {
        let n = Array(needle.utf8)
        guard !n.isEmpty, raw.count >= n.count else { return 0 }
        var count = 0
        var i = 0
        while i + n.count <= raw.count {
            if raw[i] == n[0], Array(raw[i..<(i + n.count)]) == n {
                count += 1
                i += n.count
            } else {
                i += 1
            }
        }
        return count
    }

    func testInfoLinksAreWrittenAsOSC8AndLeaveTheScreenAsItWas() throws {
        let urls = try infoURLs()
        let keys = ["Down", "Down", "Down", "Down", "Up", "?"]
        let with = try run(mode: "always", keys: keys)
        let without = try run(mode: "never", keys: keys)

        // Every link opened with its URL and closed again, as many closes as opens.
        let opens = occurrences(of: "\u{1B}]8;id=", in: with.raw)
        let closes = occurrences(of: "\u{1B}]8;;\u{1B}\\", in: with.raw)
        XCTAssertGreaterThanOrEqual(opens, urls.count)
        XCTAssertEqual(opens, closes, "unbalanced OSC 8")
        for url in urls {
            XCTAssertGreaterThan(occurrences(of: ";\(url)\u{1B}\\", in: with.raw), 0, "no OSC 8 link to \(url)")
        }
        // The cursor is saved and restored around them.
        XCTAssertEqual(occurrences(of: "\u{1B}7", in: with.raw), occurrences(of: "\u{1B}8", in: with.raw))
        XCTAssertGreaterThan(occurrences(of: "\u{1B}7", in: with.raw), 0)

        // Never: not one OSC 8 byte.
        XCTAssertEqual(occurrences(of: "\u{1B}]8;", in: without.raw), 0)
        XCTAssertGreaterThan(without.raw.count, 0, "nothing recorded: pipe-pane did not work")

        // Same text, same colours and attributes, cell for cell (tmux 3.3a drops the links,
        // so anything left over from writing them would show here), help overlay included.
        XCTAssertEqual(with.screen, without.screen)
        XCTAssertTrue(with.screen.contains(" \(try UIStrings.get("en", "help.title")) "), "the help overlay is not up:\n\(with.screen)")
    }
}

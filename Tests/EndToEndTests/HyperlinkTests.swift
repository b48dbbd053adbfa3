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
        // Colours and attributes once they hold still (two captures alike): the text can be
        // whole while the last escapes of the frame are still on their way.
        let screen = try s.waitUntil("the frame to hold still", withAttributes: true) { _ in true }
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
        XCTAssertGreaterThan(Self.visibleCells(with.screen).joined().filter { $0 != " " }.count, 500, "the capture is read as cells")
        XCTAssertTrue(Self.visibleCells(with.screen).joined().contains { $0.hasPrefix("H|") && $0.contains("bold=1") }, "attributes are read")
        XCTAssertEqual(Self.visibleCells(with.screen), Self.visibleCells(without.screen), "with:\n\(with.screen)\nwithout:\n\(without.screen)")
        XCTAssertTrue(with.screen.contains(" \(try UIStrings.get("en", "help.title")) "), "the help overlay is not up:\n\(with.screen)")
    }

    /// A `capture-pane -e` screen as what a visitor sees: each character with the attributes
    /// and colours it is drawn in, a line's trailing blanks that show nothing (no reverse,
    /// underline or background) left out. tmux writes each cell's escapes as a change from the
    /// cell before, so two equal screens can be spelt differently; and a blank cell's
    /// dimness or boldness is not seen (issue 46's run: the mini player's trailing blanks were
    /// dim in one run and not the other, every visible cell alike).
    static func visibleCells(_ capture: String) -> [[String]] {
        var attrs: [String: String] = [:]
        var lines: [[String]] = []
        for line in capture.split(separator: "\n", omittingEmptySubsequences: false) {
            var cells: [(text: String, attrs: [String: String])] = []
            var i = line.startIndex
            while i < line.endIndex {
                if line[i] == "\u{1B}", line.index(after: i) < line.endIndex, line[line.index(after: i)] == "[" {
                    var j = line.index(i, offsetBy: 2)
                    while j < line.endIndex, !line[j].isLetter { j = line.index(after: j) }
                    guard j < line.endIndex else { break }
                    if line[j] == "m" {
                        let params = line[line.index(i, offsetBy: 2)..<j].split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                        var k = 0
                        while k < params.count {
                            let n = params[k]
                            switch n {
                            case 0: attrs = [:]
                            case 1: attrs["bold"] = "1"
                            case 2: attrs["dim"] = "1"
                            case 3: attrs["italic"] = "1"
                            case 4: attrs["underline"] = "1"
                            case 7: attrs["reverse"] = "1"
                            case 22: attrs["bold"] = nil; attrs["dim"] = nil
                            case 23: attrs["italic"] = nil
                            case 24: attrs["underline"] = nil
                            case 27: attrs["reverse"] = nil
                            case 39: attrs["fg"] = nil
                            case 49: attrs["bg"] = nil
                            case 38, 48:
                                let key = n == 38 ? "fg" : "bg"
                                if k + 1 < params.count, params[k + 1] == 5, k + 2 < params.count { attrs[key] = "i\(params[k + 2])"; k += 2 }
                                else if k + 1 < params.count, params[k + 1] == 2, k + 4 < params.count { attrs[key] = "rgb\(params[k + 2]),\(params[k + 3]),\(params[k + 4])"; k += 4 }
                            case 30...37, 90...97: attrs["fg"] = String(n)
                            case 40...47, 100...107: attrs["bg"] = String(n)
                            default: break
                            }
                            k += 1
                        }
                    }
                    i = line.index(after: j)
                    continue
                }
                cells.append((String(line[i]), attrs))
                i = line.index(after: i)
            }
            while let last = cells.last, last.text == " ", last.attrs["reverse"] == nil, last.attrs["underline"] == nil, last.attrs["bg"] == nil {
                cells.removeLast()
            }
            lines.append(cells.map { c in c.text == " " && c.attrs["reverse"] == nil && c.attrs["underline"] == nil && c.attrs["bg"] == nil
                ? " " : c.text + "|" + c.attrs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") })
        }
        return lines
    }
}

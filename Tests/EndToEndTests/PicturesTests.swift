import Foundation
import XCTest

/// Pictures through the real binary under tmux: SampleData's "Harbour at First Light" (keypad
/// 201, a PNG of our own) on the full player in symbols mode, in many colours; a box opened
/// over it and closed leaves every cell and colour as it was; an idle guide writes nothing.
/// (Inside tmux `always` means 256 colours at most.)
final class PicturesEndToEndTests: EndToEndTestCase {
    /// The escapes that set colours in `lines` (tmux's `capture-pane -e` form), all different.
    private func colourEscapes(_ lines: [Substring]) -> Set<String> {
        var out = Set<String>()
        for line in lines {
            var rest = line[...]
            while let r = rest.range(of: "\u{1B}[") {
                guard let end = rest[r.upperBound...].firstIndex(of: "m") else { break }
                let code = String(rest[r.upperBound..<end])
                if code.split(separator: ";").contains(where: { ["38", "48"].contains($0) || (30...37).contains(Int($0) ?? 0) || (40...47).contains(Int($0) ?? 0) || (90...107).contains(Int($0) ?? 0) }) {
                    out.insert(code)
                }
                rest = rest[end...]
            }
        }
        return out
    }

    /// The cells of a `capture-pane -e` screen: each character with the colours and attributes
    /// in force, a line's trailing default blanks dropped. (tmux writes the same cells with
    /// its escapes in different places, at the end of one line or the start of the next,
    /// depending on which cells were ever written; this compares what is shown.)
    private func cells(_ captured: String) -> [[String]] {
        captured.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var fg = "", bg = "", attrs = Set<String>()
            var out: [String] = []
            var i = line.startIndex
            while i < line.endIndex {
                if line[i] == "\u{1B}", line[line.index(after: i)...].hasPrefix("["), let m = line[i...].firstIndex(of: "m") {
                    let params = line[line.index(i, offsetBy: 2)..<m].split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                    var k = 0
                    while k < params.count {
                        let p = params[k]
                        switch p {
                        case 0: (fg, bg, attrs) = ("", "", [])
                        case 38, 48:
                            let n = k + 1 < params.count && params[k + 1] == 2 ? 5 : 3
                            let v = params[k..<min(params.count, k + n)].map(String.init).joined(separator: ";")
                            if p == 38 { fg = v } else { bg = v }
                            k += n - 1
                        case 39: fg = ""
                        case 49: bg = ""
                        case 30...37, 90...97: fg = "\(p)"
                        case 40...47, 100...107: bg = "\(p)"
                        case 22: attrs.subtract(["1", "2"])
                        case 23, 24, 25, 27, 28, 29: attrs.remove("\(p - 20)")
                        default: attrs.insert("\(p)")
                        }
                        k += 1
                    }
                    i = line.index(after: m)
                    continue
                }
                out.append("\(line[i])|\(fg)|\(bg)|\(attrs.sorted().joined(separator: ","))")
                i = line.index(after: i)
            }
            while out.last == " |||" { out.removeLast() }
            return out
        }
    }

    /// A line with block symbols (U+2580–U+259F), what chafa draws with.
    private func hasBlocks(_ line: Substring) -> Bool {
        line.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) }
    }

    func testThePlayerShowsThePictureInColourAndABoxOverItLeavesItWhole() throws {
        let home = try makeTemporaryDirectory()
        // `swift test` sets NO_COLOR=1, which tmux passes on; pictures in colour need it gone.
        let s = try start(command: "env -u NO_COLOR " + TmuxSession.guideCommand(extra: ["--images", "always"]), home: home)
        try dismissFirstRun(s)
        try s.sendLiteral("201")
        try s.waitFor("[ 2 0 1")
        try s.sendKeys("Enter")
        let title = "Harbour at First Light"
        // The picture is drawn above the transcript: rows of block symbols.
        let plain = try s.waitUntil("the player with its picture") { screen in
            screen.contains(title) && screen.split(separator: "\n").filter(hasBlocks).count >= 4
        }
        let pictureRows = plain.split(separator: "\n", omittingEmptySubsequences: false).enumerated().filter { hasBlocks($0.element) }.map(\.offset)
        let before = try s.screenWithAttributes()
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        let colours = colourEscapes(pictureRows.compactMap { $0 < lines.count ? lines[$0] : nil })
        XCTAssertGreaterThanOrEqual(colours.count, 6, "the picture is in many colours:\n\(before)")

        // Idle: not a byte written while nothing changes.
        let written = try s.bytesWritten(during: 1.5, recordingTo: home.appendingPathComponent("idle.bin"))
        XCTAssertEqual(written, 0, "an idle guide with a picture wrote to the terminal")

        // The key help over the picture, closed again: every cell and colour as before.
        let helpTitle = try UIStrings.get("en", "help.title")
        try s.sendKeys("?")
        try s.waitFor(helpTitle)
        try s.sendKeys("Escape")
        let after = try s.waitUntil("the help closed, the picture back", withAttributes: true) { cells($0) == cells(before) }
        XCTAssertEqual(cells(after), cells(before))
        try s.sendKeys("q")
        XCTAssertEqual(try s.waitForExit().status, 0)
    }

    /// The full player of "Harbour at First Light" with its picture in symbols, no sound server
    /// (nothing on screen moves by itself: no clock ticks), steady; returns the session.
    private func playerWithPicture(home: URL) throws -> TmuxSession {
        let s = try start(
            command: "env -u NO_COLOR PULSE_SERVER=unix:/nonexistent/native " + TmuxSession.guideCommand(extra: ["--images", "symbols"]), home: home)
        try dismissFirstRun(s)
        try s.sendLiteral("201")
        try s.waitFor("[ 2 0 1")
        try s.sendKeys("Enter")
        let noSound = String(try UIStrings.get("en", "player.noSound").prefix { $0 != ":" })
        try s.waitUntil("the player with its picture, no sound") { screen in
            screen.contains("Harbour at First Light") && screen.contains(noSound) && screen.split(separator: "\n").filter(hasBlocks).count >= 4
        }
        return s
    }

    /// Sends `key` and waits until the screen answers it (a frame drawn for it, not a while).
    private func press(_ s: TmuxSession, _ key: String) throws {
        let shown = try s.screen()
        try s.sendKeys(key)
        try s.waitUntil("the screen to answer \(key)") { $0 != shown }
    }

    /// Issue 47 #6: the page scrolled under the picture and back. ncurses moves text by
    /// scrolling the terminal's rows, and took the picture's cells along (it did not know they
    /// were there: they are written after it), so the picture came back torn, a row or two
    /// lower, over the text; a box opened then showed a row of it inside, and closing the box
    /// left the picture's top rows blank. Every cell and colour must be as before.
    func testScrollingThePageUnderThePictureLeavesItWhole() throws {
        let s = try playerWithPicture(home: try makeTemporaryDirectory())
        let before = try s.screenWithAttributes()
        for key in ["Down", "Down", "Up", "Up"] { try press(s, key) }
        let after = try s.waitUntil("the page back, the picture whole", timeout: 5, withAttributes: true) { cells($0) == cells(before) }
        XCTAssertEqual(cells(after), cells(before))

        // The "Listen in" box over it holds no piece of the picture (a torn row showed inside
        // it), and closing it leaves every cell as before (rows stayed blank).
        let title = try UIStrings.get("en", "player.audioLanguageTitle")
        try s.sendKeys("a")
        let box = try s.waitFor("─ \(title) ─")
        let lines = box.split(separator: "\n", omittingEmptySubsequences: false)
        let top = try XCTUnwrap(lines.firstIndex { $0.contains("┌─ \(title) ─") })
        let bottom = try XCTUnwrap(lines[top...].firstIndex { $0.contains("└") })
        for line in lines[(top + 1)..<bottom] {
            let inside = line.drop { $0 != "│" }.dropFirst().prefix { $0 != "│" }
            XCTAssertFalse(hasBlocks(inside), "a piece of the picture inside the box:\n\(box)")
        }
        try s.sendKeys("Escape")
        let closed = try s.waitUntil("the box closed, the picture whole", timeout: 5, withAttributes: true) { cells($0) == cells(before) }
        XCTAssertEqual(cells(closed), cells(before))
    }

    /// Issue 47 #6: Ctrl-L draws the whole screen again, picture included, whatever the
    /// terminal shows (here wiped behind the guide's back, as a stray write would).
    func testCtrlLDrawsTheWholeScreenAgain() throws {
        let s = try playerWithPicture(home: try makeTemporaryDirectory())
        let before = try s.screenWithAttributes()
        let tty = try s.tmux(["display-message", "-p", "-t", s.target, "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: tty), "cannot open the pane's terminal \(tty)")
        handle.write(Data("\u{1B}[H\u{1B}[2J".utf8))
        try handle.close()
        try s.waitUntil("the terminal wiped") { !$0.contains("Harbour at First Light") }
        try s.sendKeys("C-l")
        let after = try s.waitUntil("the screen drawn again", timeout: 5, withAttributes: true) { cells($0) == cells(before) }
        XCTAssertEqual(cells(after), cells(before))
    }

    /// `--images kitty` (tmux passes no images, but what the guide writes is recorded): the
    /// picture is sent once and placed by id; idle, nothing is written; a box takes the
    /// placement off (kitty keeps the image) and closing it places the image again without
    /// sending it again; quitting frees it.
    func testKittyImagesArePlacedAndTakenOffByID() throws {
        let home = try makeTemporaryDirectory()
        // No sound server, whatever the suite started: a playing clip's clock would write every
        // second, and this test is about what an idle guide writes for its picture.
        let s = try start(command: "PULSE_SERVER=unix:/nonexistent/native " + TmuxSession.guideCommand(extra: ["--images", "kitty"]), home: home)
        try dismissFirstRun(s)
        let log = home.appendingPathComponent("kitty.bin")
        func written() -> String { String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self) }
        func count(_ what: String) -> Int { written().components(separatedBy: what).count - 1 }
        try s.tmux(["pipe-pane", "-o", "-t", s.target, "cat >> \(Shell.quote(log.path))"])
        try s.sendLiteral("201")
        try s.waitFor("[ 2 0 1")
        try s.sendKeys("Enter")
        try s.waitFor("Harbour at First Light")
        try s.waitUntil("the image placed") { _ in count("\u{1B}_Ga=p,i=") == 1 }
        try s.waitFor(String(try UIStrings.get("en", "player.noSound").prefix { $0 != ":" }))  // "No sound", as the status line has room
        let sent = written()
        let transmit = try XCTUnwrap(sent.range(of: "\u{1B}_Ga=t,f=100,i="), "the PNG is sent:\n\(sent.debugDescription.prefix(300))")
        let id = String(sent[transmit.upperBound...].prefix { $0.isNumber })
        XCTAssertEqual(count("\u{1B}_Ga=t,f=100,i=\(id),"), 1, "sent once")
        XCTAssertTrue(sent.contains("\u{1B}_Ga=p,i=\(id),p=1,c="), "placed by its id")
        try s.tmux(["pipe-pane", "-t", s.target])

        let idle = try s.bytesWritten(during: 1.5, recordingTo: home.appendingPathComponent("idle.bin"))
        XCTAssertEqual(idle, 0, "an idle guide with an image wrote to the terminal: \(String(decoding: (try? Data(contentsOf: home.appendingPathComponent("idle.bin"))) ?? Data(), as: UTF8.self).debugDescription)")

        try s.tmux(["pipe-pane", "-o", "-t", s.target, "cat >> \(Shell.quote(log.path))"])
        try s.sendKeys("?")
        try s.waitFor(try UIStrings.get("en", "help.title"))
        try s.waitUntil("the placement taken off") { _ in count("\u{1B}_Ga=d,d=i,i=\(id),") == 1 }
        try s.sendKeys("Escape")
        try s.waitUntil("the image placed again") { _ in count("\u{1B}_Ga=p,i=\(id),") == 2 }
        XCTAssertEqual(count("\u{1B}_Ga=t,"), 1, "not sent again")
        try s.sendKeys("q")
        XCTAssertEqual(try s.waitForExit().status, 0)
        XCTAssertEqual(count("\u{1B}_Ga=d,d=A,"), 1, "kitty forgets the image when the guide ends")
    }

    /// `--images never`: the same player, no picture.
    func testNeverDrawsNoPicture() throws {
        let s = try start(command: TmuxSession.guideCommand(extra: ["--images", "never"]))
        try dismissFirstRun(s)
        try s.sendLiteral("201")
        try s.waitFor("[ 2 0 1")
        try s.sendKeys("Enter")
        let screen = try s.waitFor("Harbour at First Light", "Mara Velden")
        XCTAssertFalse(screen.split(separator: "\n").contains(where: hasBlocks), screen)
    }

    func testABadImagesValueIsAMessage() throws {
        let s = try start(command: TmuxSession.guideCommand(extra: ["--images", "pixels"]))
        let out = try s.waitFor("EXIT_STATUS=1")
        // The message is longer than the 80-column pane: read it unwrapped.
        XCTAssertTrue(out.replacingOccurrences(of: "\n", with: "").contains("docent: --images must be auto, always, symbols, never, kitty, iterm2 or sixel, not 'pixels'"), out)
    }
}

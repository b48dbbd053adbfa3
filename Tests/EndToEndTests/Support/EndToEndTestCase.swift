import Foundation
import XCTest

/// Base class: every test gets fresh XDG directories and its own tmux servers, all torn down
/// afterwards. (The binary check is in `start`, not `setUp`: corelibs XCTest reports a
/// throwing setUp as "skipped", and a missing binary must be a plain failure.)
class EndToEndTestCase: XCTestCase {
    private var sessions: [TmuxSession] = []
    private var temporaryDirectories: [URL] = []

    override func tearDown() {
        for s in sessions { s.kill() }
        sessions.removeAll()
        for d in temporaryDirectories { try? FileManager.default.removeItem(at: d) }
        temporaryDirectories.removeAll()
        super.tearDown()
    }

    /// A fresh empty directory, removed in tearDown.
    func makeTemporaryDirectory() throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("docent-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        temporaryDirectories.append(d)
        return d
    }

    /// Starts `command` (default: the guide on SampleData) in a new 80×24 tmux server.
    /// Fails the test (a thrown error, not a skip) when the binary or tmux is missing.
    func start(command: String = TmuxSession.guideCommand(), home: URL? = nil) throws -> TmuxSession {
        try Repo.requireDocent()
        let s = try TmuxSession(command: command, home: home ?? makeTemporaryDirectory())
        sessions.append(s)
        return s
    }

    /// First start on SampleData: the welcome help, then the launch message, both closed with
    /// Escape; returns once Home shows its tours and the exhibitions have arrived.
    func startAndDismissOverlays(home: URL? = nil) throws -> TmuxSession {
        let s = try start(home: home)
        try dismissFirstRun(s)
        return s
    }

    /// On a first start: closes the welcome help and the launch message, waits for Home.
    func dismissFirstRun(_ s: TmuxSession) throws {
        let dismiss = try UIStrings.get("en", "overlay.dismiss")
        try s.waitFor(try UIStrings.get("en", "help.welcomeTitle"), dismiss)
        try s.sendKeys("Escape")
        try s.waitFor(try SampleData.launchMessageTitle(), dismiss)
        try s.sendKeys("Escape")
        try waitForHome(s, language: "en")
    }

    /// Waits until Home is up in `language`: featured tours and the exhibitions loaded, no
    /// overlay open.
    @discardableResult
    func waitForHome(_ s: TmuxSession, language: String) throws -> String {
        let featured = try UIStrings.get(language, "home.featuredTours")
        let through = try UIStrings.prefix(language, "exhibition.through")
        let dismiss = try UIStrings.get(language, "overlay.dismiss")
        return try s.waitUntil("Home in \(language) (\"\(featured)\", \"\(through)…\", no overlay)") { screen in
            ScreenText.hasTabBar(screen, language) && ScreenText.lineIndex(of: featured, in: screen) != nil
                && (through.isEmpty || screen.contains(through)) && !screen.contains(dismiss)
        }
    }

    /// After the wrapper's EXIT_STATUS line: `stty -a` must show a cooked terminal again.
    func assertTerminalRestored(_ sttyOutput: String, file: StaticString = #filePath, line: UInt = #line) {
        let words = Set(sttyOutput.split(whereSeparator: { $0.isWhitespace }).map(String.init))
        for flag in ["icanon", "echo", "isig", "icrnl", "opost", "ixon"] {
            XCTAssertTrue(
                words.contains(flag),
                "terminal not restored: `stty -a` lacks \(flag) (has -\(flag)? \(words.contains("-" + flag))):\n\(sttyOutput)",
                file: file, line: line)
            XCTAssertFalse(words.contains("-" + flag), "terminal not restored: -\(flag) in `stty -a`", file: file, line: line)
        }
    }
}

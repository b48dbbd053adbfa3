import Foundation
import XCTest

/// A second start opens the museum prepared by the first (issue 14), and never once the
/// appData changed, even to a file of the same size and modification time (as `rsync -t`
/// or a restored backup leaves it).
final class PreparedMuseumTests: EndToEndTestCase {
    private var portFile: URL?

    override func tearDown() {
        if let portFile { _ = try? Shell.run([Repo.root.path + "/scripts/test-nginx.sh", "stop", portFile.path]) }
        super.tearDown()
    }

    /// SampleData with its own appData.json (dated a minute back: a file being edited right
    /// now is not prepared) and everything else linked.
    private func museumCopy(in home: URL) throws -> URL {
        let dir = home.appendingPathComponent("museum")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let sample = URL(fileURLWithPath: Repo.sampleData).deletingLastPathComponent()
        for name in try FileManager.default.contentsOfDirectory(atPath: sample.path) where name != "appData.json" {
            try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(name), withDestinationURL: sample.appendingPathComponent(name))
        }
        let data = dir.appendingPathComponent("appData.json")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Repo.sampleData), to: data)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: data.path)
        return data
    }

    private func openedCopyLines(_ home: URL, _ what: String = "this file") -> Int {
        let log = (try? String(contentsOf: home.appendingPathComponent("state/docent/docent.log"), encoding: .utf8)) ?? ""
        return log.components(separatedBy: "opened the copy prepared from \(what)").count - 1
    }

    /// The status codes nginx answered for the appData, in order.
    private func appDataStatuses() -> [String] {
        guard let portFile, let dir = try? String(contentsOf: URL(fileURLWithPath: portFile.path + ".nginx-dir"), encoding: .utf8),
            let text = try? String(contentsOfFile: dir.trimmingCharacters(in: .whitespacesAndNewlines) + "/requests.log", encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").filter { $0.contains("GET /museum/appData.json") }.compactMap {
            $0.split(separator: " ").first { $0.count == 3 && $0.allSatisfy(\.isNumber) }.map(String.init)
        }
    }

    /// A museum on a web server (the AIC app's way): the first start downloads and prepares;
    /// the next, told 304 by the server, opens the copy; offline, the copy too, with the note.
    func testADownloadedMuseumOpensItsCopyWhenTheServerSaysUnchangedAndOffline() throws {
        let home = try makeTemporaryDirectory()
        let root = try makeTemporaryDirectory()
        _ = try museumCopy(in: root)
        let port = root.appendingPathComponent("port")
        let r = try Shell.run([Repo.root.path + "/scripts/test-nginx.sh", "start", root.path, port.path])
        guard r.status == 0, let p = try? String(contentsOf: port, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) else {
            throw E2EError("could not start nginx: \(r.stderr)")
        }
        portFile = port
        let url = "http://127.0.0.1:\(p)/museum/appData.json"
        let title = try SampleData.firstFeaturedTour().title

        let first = try start(command: TmuxSession.guideCommand(data: url), home: home)
        try dismissFirstRun(first)
        try first.sendKeys("q")
        try first.waitFor("EXIT_STATUS=0")
        XCTAssertEqual(appDataStatuses(), ["200"])
        XCTAssertEqual(openedCopyLines(home, "the saved download"), 0)

        let second = try start(command: TmuxSession.guideCommand(data: url), home: home)
        XCTAssertTrue(ScreenText.flattened(try waitForHome(second, language: "en")).contains(title))
        XCTAssertEqual(appDataStatuses(), ["200", "304"])
        XCTAssertEqual(openedCopyLines(home, "the saved download"), 1)
        try second.sendKeys("q")
        try second.waitFor("EXIT_STATUS=0")

        _ = try Shell.run([Repo.root.path + "/scripts/test-nginx.sh", "stop", port.path])
        portFile = nil
        let third = try start(command: TmuxSession.guideCommand(data: url), home: home)
        try third.waitFor(title, try UIStrings.prefix("en", "banner.offlineCopy"))
        XCTAssertEqual(openedCopyLines(home, "the saved download"), 2)
        try third.sendKeys("q")
        try third.waitFor("EXIT_STATUS=0")
    }

    /// Issue 45: a 200 "Maintenance" page replaced the saved download, and the outage after it
    /// had nothing to open. The last good copy is kept until a fresh answer is read whole; the
    /// bad answer and the outage both open it, with the note.
    func testAMaintenancePageAndThenAnOutageOpenTheLastGoodCopy() throws {
        let home = try makeTemporaryDirectory()
        let root = try makeTemporaryDirectory()
        let data = try museumCopy(in: root)
        let port = root.appendingPathComponent("port")
        let r = try Shell.run([Repo.root.path + "/scripts/test-nginx.sh", "start", root.path, port.path])
        guard r.status == 0, let p = try? String(contentsOf: port, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) else {
            throw E2EError("could not start nginx: \(r.stderr)")
        }
        portFile = port
        let url = "http://127.0.0.1:\(p)/museum/appData.json"
        let title = try SampleData.firstFeaturedTour().title

        let first = try start(command: TmuxSession.guideCommand(data: url), home: home)
        try dismissFirstRun(first)
        try first.sendKeys("q")
        try first.waitFor("EXIT_STATUS=0")

        try Data("<html><body><h1>Maintenance</h1>Back soon.</body></html>\n".utf8).write(to: data, options: .atomic)
        let second = try start(command: TmuxSession.guideCommand(data: url), home: home)
        try second.waitFor(title, try UIStrings.prefix("en", "banner.offlineCopy"))
        try second.sendKeys("q")
        try second.waitFor("EXIT_STATUS=0")
        // The first start's 200, then the maintenance page's 200s (the second start asks
        // again, and so may the copy's `docent prepare`): never a 304 for the saved copy.
        let statuses = appDataStatuses()
        XCTAssertGreaterThanOrEqual(statuses.count, 2, "\(statuses)")
        XCTAssertEqual(Set(statuses), ["200"], "the maintenance page was answered")

        _ = try Shell.run([Repo.root.path + "/scripts/test-nginx.sh", "stop", port.path])
        portFile = nil
        let third = try start(command: TmuxSession.guideCommand(data: url), home: home)
        try third.waitFor(title, try UIStrings.prefix("en", "banner.offlineCopy"))
        try third.sendKeys("q")
        try third.waitFor("EXIT_STATUS=0")
    }

    func testTheSecondStartOpensThePreparedCopyUntilTheFileChanges() throws {
        let home = try makeTemporaryDirectory()
        let data = try museumCopy(in: home)
        let prepared = home.appendingPathComponent("cache/docent/prepared")
        let title = try SampleData.firstFeaturedTour().title

        let first = try start(command: TmuxSession.guideCommand(data: data.path), home: home)
        try dismissFirstRun(first)
        try first.sendKeys("q")
        try first.waitFor("EXIT_STATUS=0")
        let copies = try FileManager.default.contentsOfDirectory(atPath: prepared.path).filter { $0.hasSuffix(".museum") }
        XCTAssertEqual(copies.count, 1, "the first start prepared a copy: \(copies)")
        XCTAssertEqual(openedCopyLines(home), 0)

        let second = try start(command: TmuxSession.guideCommand(data: data.path), home: home)
        XCTAssertTrue(ScreenText.flattened(try waitForHome(second, language: "en")).contains(title))
        XCTAssertEqual(openedCopyLines(home), 1, "the second start opened the copy")
        try second.sendKeys("q")
        try second.waitFor("EXIT_STATUS=0")

        // The same bytes count with a title changed and the modification time put back.
        let attributes = try FileManager.default.attributesOfItem(atPath: data.path)
        var text = try String(contentsOf: data, encoding: .utf8)
        let changed = title.uppercased()
        XCTAssertEqual(changed.utf8.count, title.utf8.count)
        text = text.replacingOccurrences(of: "\"title\": \"\(title)\"", with: "\"title\": \"\(changed)\"")
        try text.write(to: data, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate] as Any], ofItemAtPath: data.path)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: data.path)[.size] as? Int, attributes[.size] as? Int)

        let third = try start(command: TmuxSession.guideCommand(data: data.path), home: home)
        try third.waitFor(changed)
        XCTAssertEqual(openedCopyLines(home), 1, "the changed file was read, not the copy")
        try third.sendKeys("q")
        try third.waitFor("EXIT_STATUS=0")
    }

    /// Issue 30: a visitor who quits at the first frame of a large museum does not take the
    /// prepared copy with them. Quitting does not wait for it (the guide exits at once); a
    /// `docent prepare` of its own finishes it, and the next start opens it.
    func testQuittingAtTheFirstFrameStillLeavesTheCopyForTheNextStart() throws {
        let home = try makeTemporaryDirectory()
        let data = home.appendingPathComponent("large.json")
        let made = try Shell.run(["python3", Repo.root.path + "/scripts/gen_large_appdata.py", data.path], timeout: 120)
        XCTAssertEqual(made.status, 0, made.stderr)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: data.path)
        let prepared = home.appendingPathComponent("cache/docent/prepared")
        func copies() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: prepared.path)) ?? []).filter { $0.hasSuffix(".museum") } }

        let first = try start(command: TmuxSession.guideCommand(data: data.path), home: home)
        try first.waitFor(try UIStrings.get("en", "help.welcomeTitle"))
        try first.sendKeys("q")
        try first.waitFor("EXIT_STATUS=0")
        // Written in the background by then or soon after (a 79 MB museum: seconds).
        let deadline = Date().addingTimeInterval(180)
        while copies().isEmpty, Date() < deadline { usleep(200_000) }
        XCTAssertEqual(copies().count, 1, "a copy was left for the next start")

        let second = try start(command: TmuxSession.guideCommand(data: data.path), home: home)
        try second.waitFor(try UIStrings.get("en", "help.welcomeTitle"))
        try second.waitUntil("the log says the copy was opened") { _ in self.openedCopyLines(home) == 1 }
        try second.sendKeys("q")
        try second.waitFor("EXIT_STATUS=0")
    }
}

import Foundation
import XCTest

/// The guide with real sound: a headless PulseAudio (null sink) started here, the real
/// binary under tmux, and the play log the guide writes when `DOCENT_PLAY_LOG` is set.
final class AudioTourTests: EndToEndTestCase {
    private var pulseDir = ""
    private var pulseServer = ""

    override func setUpWithError() throws {
        pulseDir = NSTemporaryDirectory() + "docent-e2e-pulse-\(UUID().uuidString.prefix(8))"
        let r = try Shell.run([Repo.root.path + "/scripts/test-pulse.sh", "start", pulseDir])
        guard r.status == 0, let line = r.stdout.split(separator: "\n").first(where: { $0.hasPrefix("PULSE_SERVER=") }) else {
            throw E2EError("could not start PulseAudio: \(r.stderr)")
        }
        pulseServer = String(line.dropFirst("PULSE_SERVER=".count))
    }

    override func tearDown() {
        super.tearDown()
        _ = try? Shell.run([Repo.root.path + "/scripts/test-pulse.sh", "stop", pulseDir])
    }

    private func guide(log: String, extra: [String] = []) -> String {
        "PULSE_SERVER=\(Shell.quote(pulseServer)) DOCENT_PLAY_LOG=\(Shell.quote(log)) " + TmuxSession.guideCommand(extra: extra)
    }

    private func appData() throws -> [String: Any] { try SampleData.json() }

    /// Starts URLs in the play log, in order.
    private func started(_ log: String) -> [String] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            return f.count >= 5 && f[1] == "start" ? String(f[4]) : nil
        }
    }

    private func sinkInputs() throws -> String {
        try Shell.run(["env", "PULSE_SERVER=\(pulseServer)", "pactl", "list", "sink-inputs"]).stdout
    }

    /// Keypad number → title and transcript on screen, a `docent` stream in PulseAudio; then
    /// the same commentary in Spanish, its transcript read back.
    func testKeypadPlaysWithTranscriptThenSpanish() throws {
        let home = try makeTemporaryDirectory()
        let log = home.appendingPathComponent("play.log").path
        let s = try start(command: guide(log: log), home: home)
        try dismissFirstRun(s)
        let json = try appData()
        let objects = try XCTUnwrap(json["objects"] as? [String: [String: Any]])
        let (title, audioID) = try XCTUnwrap(objects.values.lazy.compactMap { o -> (String, String)? in
            let c = (o["audio_commentary"] as? [[String: Any]])?.first { "\($0["object_selector_number"] ?? "")" == "101" }
            return c.map { (o["title"] as? String ?? "", "\($0["audio"] ?? "")") }
        }.first)
        let audio = try XCTUnwrap((json["audio_files"] as? [String: [String: Any]])?[audioID])
        let english = try XCTUnwrap(audio["audio_transcript"] as? String)
        let spanish = try XCTUnwrap((audio["translations"] as? [[String: Any]])?.first { $0["language"] as? String == "es" }?["audio_transcript"] as? String)

        try s.sendLiteral("101")
        try s.sendKeys("Enter")
        let englishWords = String(english.prefix(30))
        try s.waitFor(title, englishWords)
        let inputs = try s.waitUntil("a docent stream in PulseAudio", timeout: 10) { _ in
            ((try? self.sinkInputs()) ?? "").contains("application.name = \"docent\"")
        }
        XCTAssertFalse(inputs.isEmpty)
        XCTAssertTrue(try sinkInputs().contains(title), "the stream is named after the track")

        try s.sendKeys("a")
        try s.waitFor(try UIStrings.get("en", "player.audioLanguageTitle"))
        try s.sendKeys("Down", "Enter")
        try s.waitFor(String(spanish.prefix(30)))
        XCTAssertTrue(started(log).last?.hasSuffix("-es.mp3") == true, "\(started(log))")
        try s.sendKeys("q")
        try s.waitFor("EXIT_STATUS=0")
    }

    /// Playback speed (issue 16 #4): `]` twice is 1.5×, shown in the player; the recording's
    /// clock then covers 6 s (0:01 → 0:07) in under 4.8 s of wall time, that is more than 5 s
    /// of audio in 4 s (1× takes 6 s). The speed is remembered by the next start.
    func testOneAndAHalfTimesCoversMoreThanFiveSecondsOfAudioInFourSeconds() throws {
        let home = try makeTemporaryDirectory()
        let log = home.appendingPathComponent("play.log").path
        let s = try start(command: guide(log: log), home: home)
        try dismissFirstRun(s)
        try s.sendKeys("]", "]")
        try s.sendLiteral("405")
        try s.sendKeys("Enter")
        try s.waitFor("A Thousand Paper Boats", "1.5×")
        // The clock's second changes as the position crosses it: 0:01 and 0:07 are crossings
        // 6 s of the recording apart.
        try s.waitFor("1.5× 0:01 / ", timeout: 10)
        let from = Date()
        // When each second was first seen: where the time went if it is too long.
        var seen: [Int: Double] = [:]
        try s.waitUntil("\"1.5× 0:07 / \"", timeout: 10) { screen in
            for second in 2...7 where seen[second] == nil && screen.contains("1.5× 0:0\(second) / ") {
                seen[second] = Date().timeIntervalSince(from)
            }
            return screen.contains("1.5× 0:07 / ")
        }
        let wall = Date().timeIntervalSince(from)
        let steps = (2...7).map { "0:0\($0) at " + (seen[$0].map { String(format: "%.2f s", $0) } ?? "–") }.joined(separator: ", ")
        print("e2e: 6 s of the recording at 1.5× took \(String(format: "%.2f", wall)) s of wall time (\(steps))")
        XCTAssertLessThan(wall, 4.8, "more than 5 s of audio per 4 s of wall time at 1.5× (\(steps))")
        XCTAssertGreaterThan(wall, 3.2, "not faster than 1.5× either (2× would take 3 s)")
        try s.sendKeys("q")
        try s.waitFor("EXIT_STATUS=0")

        let again = try start(command: guide(log: log), home: home)
        try again.waitFor("GO")  // it opens where the visitor left: the Audio Guide's keypad
        try again.sendLiteral("405")
        try again.sendKeys("Enter")
        try again.waitFor("A Thousand Paper Boats", "1.5× 0:0")
        try again.sendKeys("[")
        try again.waitForGone("1.5×")
        try again.sendKeys("q")
        try again.waitFor("EXIT_STATUS=0")
    }

    /// Screen-reader mode (issue 16 #3): the terminal's cursor is on the selected row after
    /// every move (where Orca or speakup read), and a recording playing untouched writes not
    /// a byte (no ticking time); pausing shows where it is.
    func testScreenReaderModeCursorFollowsTheSelectionAndPlayingWritesNothing() throws {
        let home = try makeTemporaryDirectory()
        let s = try start(command: guide(log: home.appendingPathComponent("play.log").path, extra: ["--screen-reader"]), home: home)
        try dismissFirstRun(s)
        func cursor() throws -> (x: Int, y: Int) {
            let text = try s.tmux(["display-message", "-p", "-t", s.target, "#{cursor_x},#{cursor_y},#{cursor_flag}"])
            let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
            guard parts.count == 3 else { throw E2EError("cursor: \(text)") }
            XCTAssertEqual(parts[2], 1, "the cursor is shown")
            return (parts[0], parts[1])
        }
        var lastY = -1
        for step in 0..<4 {
            if step > 0 {
                let before = ScreenText.selectedRow(try s.screen())?.index
                try s.sendKeys("Down")
                try s.waitUntil("the selection moved") { ScreenText.selectedRow($0)?.index != before }
            }
            let selected = try XCTUnwrap(ScreenText.selectedRow(try s.screen()))
            let c = try cursor()
            XCTAssertEqual(c.y, selected.index, "step \(step): the cursor is on the selected row")
            XCTAssertLessThanOrEqual(c.x, 2)
            XCTAssertNotEqual(c.y, lastY)
            lastY = c.y
        }
        // A box: the cursor on its selected choice.
        try s.sendKeys("L")
        try s.waitFor(try UIStrings.get("en", "language.title"))
        let picker = try s.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let english = try XCTUnwrap(picker.firstIndex { $0.contains("● English") })
        XCTAssertEqual(try cursor().y, english)
        try s.sendKeys("Escape")
        // Closed before the digits (Escape then 1 at once would be Alt+1).
        try s.waitForGone(try UIStrings.get("en", "language.title"))

        try s.sendLiteral("101")
        try s.sendKeys("Enter")
        try s.waitFor(try UIStrings.get("en", "player.status.playing"))
        let written = try s.bytesWritten(during: 2.5, recordingTo: home.appendingPathComponent("playing.bin"))
        XCTAssertEqual(written, 0, "a recording playing untouched wrote to the terminal")
        XCTAssertFalse(try s.screen().contains(" / "), "no time while it plays")
        try s.sendKeys("Space")
        let pausedText = try UIStrings.get("en", "player.status.paused")
        try s.waitUntil("the position shown once paused") { $0.contains(pausedText) && $0.contains(" / ") }
        try s.sendKeys("q")
        try s.waitFor("EXIT_STATUS=0")
    }

    /// Opens tour `title` from the Tours tab and starts it from the intro in English.
    private func startTour(_ s: TmuxSession, title: String) throws {
        try s.sendKeys("F4")
        try s.waitFor(title)
        for _ in 0..<12 {
            let before = ScreenText.selectedRow(try s.screen())
            if let sel = before, sel.text.contains(title) { break }
            try s.sendKeys("Down")
            // Wait for the selection to move (the screen answering the key), not for a while.
            try s.waitUntil("the selection to move") { ScreenText.selectedRow($0)?.index != before?.index }
        }
        try s.sendKeys("Enter")
        try s.waitFor(try UIStrings.get("en", "tour.start"))
        try s.sendKeys("Enter")
        try s.waitFor(try UIStrings.fill("en", "tour.languageTitle", ["tour": title]))
        try s.sendKeys("Enter")
    }

    /// The expected clip URLs of a tour, in order: intro, then for each stop its bumper (if
    /// any) and its audio.
    private func expectedClips(tour nid: String) throws -> [String] {
        let json = try appData()
        let tours = try XCTUnwrap(json["tours"] as? [[String: Any]])
        let t = try XCTUnwrap(tours.first { "\($0["nid"] ?? "")" == nid })
        let audio = try XCTUnwrap(json["audio_files"] as? [String: [String: Any]])
        func url(_ id: Any?) throws -> String {
            let a = try XCTUnwrap(audio["\(id ?? "")"], "audio \(String(describing: id))")
            return Repo.root.path + "/SampleData/" + (try XCTUnwrap(a["audio_file_url"] as? String))
        }
        var out = [try url(t["tour_audio"])]
        let stops = try XCTUnwrap(t["tour_stops"] as? [[String: Any]]).sorted { "\($0["sort"] ?? 0)".count == "\($1["sort"] ?? 0)".count ? "\($0["sort"] ?? 0)" < "\($1["sort"] ?? 0)" : "\($0["sort"] ?? 0)".count < "\($1["sort"] ?? 0)".count }
        for stop in stops {
            if let b = stop["audio_bumper"], !(b is NSNull) { out.append(try url(b)) }
            out.append(try url(stop["audio_id"]))
        }
        return out
    }

    /// A whole tour in continuous mode: the exact sequence of clips, from PulseAudio's side.
    func testContinuousTourPlaysEveryClipInOrder() throws {
        let home = try makeTemporaryDirectory()
        let log = home.appendingPathComponent("play.log").path
        let s = try start(command: guide(log: log), home: home)
        try dismissFirstRun(s)
        try startTour(s, title: "Animal Spotting for Families")
        try s.sendKeys("m")
        let expected = try expectedClips(tour: "4003")
        let complete = try UIStrings.fill("en", "tour.status.complete", ["tour": "Animal Spotting for Families"])
        try s.waitUntil("the tour to complete", timeout: 150) { screen in
            ScreenText.flattened(screen).contains(ScreenText.flattened(complete)) || self.started(log).count > expected.count
        }
        XCTAssertEqual(started(log), expected)
        try s.sendKeys("q")
        try s.waitFor("EXIT_STATUS=0")
    }

    /// Guided mode waits at the next stop; quitting mid-stop and starting again offers to
    /// resume at that stop.
    func testGuidedWaitsAndResumesAfterQuit() throws {
        let home = try makeTemporaryDirectory()
        let log = home.appendingPathComponent("play.log").path
        let s = try start(command: guide(log: log), home: home)
        try dismissFirstRun(s)
        try startTour(s, title: "Highlights of the Wrenfield")
        let clips = try expectedClips(tour: "4001")
        // Intro, then the bumper to stop 1, then wait.
        let arrive = try UIStrings.prefix("en", "tour.arrive")
        try s.waitUntil("the guided wait", timeout: 60) { screen in ScreenText.flattened(screen).contains(arrive) }
        usleep(1_500_000)  // deliberately lets time pass: nothing may start while the tour waits
        XCTAssertEqual(started(log), Array(clips.prefix(2)), "nothing plays while waiting")
        try s.sendKeys("Enter")
        try s.waitUntil("stop 1 to start", timeout: 10) { _ in self.started(log).count == 3 }
        XCTAssertEqual(started(log).last, clips[2])
        // More than 5 s of listening (the mini player's clock says so): the position is saved.
        try s.waitUntil("6 s of stop 1", timeout: 30) { screen in
            ScreenText.lines(screen).contains { line in
                guard let r = line.range(of: #"\d+:\d\d / "#, options: .regularExpression) else { return false }
                let parts = line[r].dropLast(3).split(separator: ":").compactMap { Int($0) }
                return parts.count == 2 && parts[0] * 60 + parts[1] >= 6
            }
        }
        try s.sendKeys("q")
        try s.waitFor("EXIT_STATUS=0")

        let again = try start(command: guide(log: log), home: home)
        let resume = try UIStrings.fill("en", "tour.resumeTitle", ["tour": "Highlights of the Wrenfield"])
        let prompt = try again.waitFor(resume)
        XCTAssertTrue(prompt.contains(try UIStrings.fill("en", "tour.resumeStop", ["n": "1", "time": ""]).dropLast(1)), prompt)
        try again.sendKeys("Enter")
        try again.waitUntil("stop 1 to play again", timeout: 10) { _ in self.started(log).count == 4 }
        XCTAssertEqual(started(log).last, clips[2])
        try again.sendKeys("q")
        try again.waitFor("EXIT_STATUS=0")
    }
}

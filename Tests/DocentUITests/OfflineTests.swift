import DocentTestSupport
import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Saving a tour for offline (issue 17 #4): a row on the tour's page offers it, counts what is
/// kept, shows the progress and the space, says why it stopped, resumes, and removes.
final class OfflineTests: XCTestCase {
    let big = Size(width: 80, height: 24)
    let small = RootView.minimumSize
    let base = "https://lakeside.example.org/audio/"
    var urls: [String] { ["10", "11", "12"].map { base + $0 + ".mp3" } }

    /// The fixture museum read from a web server, so its recordings are on one.
    func onTheWeb(size: Size? = nil) throws -> AppState {
        var s = UIFixtures.loadedState(size: size ?? big)
        let app = try AppDataReader.read(UIFixtures.bytes("museum.json"), source: "https://lakeside.example.org/appData.json").get()
        prepare(&s, .documentLoaded(.success(Museum(app)), note: nil))
        s.overlay = nil
        s.messageQueue = []
        prepare(&s, .selectTab(.tours))
        return s
    }

    func openTour(_ s: inout AppState) -> [Effect] {
        // The Tours tab lists the tours; the first item is tour 500.
        let i = Reducer.rows(s)?.firstIndex { $0.action == .push(.tourDetail(500)) } ?? 0
        s.page.selection = i
        return prepare(&s, .activate)
    }

    func rows(_ s: AppState) -> [Row] { OfflineFeature.rows(for: .tourPage(500), s) }

    func testTheRecordingsOfATourAreItsIntroStopsAndWalksEachOnce() throws {
        let s = try onTheWeb()
        let app = try XCTUnwrap(s.museum)
        XCTAssertEqual(OfflineFeature.urls(tour: try XCTUnwrap(app.tour(500)), language: .english, app: app), urls)
        // Files on this machine play offline anyway: nothing to save, no row, nothing counted.
        var local = UIFixtures.loadedState()
        prepare(&local, .selectTab(.tours))
        let effects = openTour(&local)
        XCTAssertFalse(effects.contains { if case .feature(let v) = $0 { return v.as(OfflineFeature.Effect.self) != nil } else { return false } })
        XCTAssertEqual(OfflineFeature.rows(for: .tourPage(500), local), [])
    }

    /// Scoped (issue 28): the tour on screen and the language come from the context; the
    /// feature changes only its own tallies and asks nothing of the shared UI.
    func testScopedItCountsOnTheTourPageSavesAndForgetsOnStartOver() throws {
        var s = try onTheWeb()
        var o = OfflineFeature.State()
        // Not on a tour's page: nothing to count.
        reactScoped(OfflineFeature.self, &o, .navigated(from: .home), FeatureContext(s))
        _ = openTour(&s)
        let counting = OfflineFeature.TourState(language: .english, tally: .init(total: 3, kept: 0, bytes: 0))
        reactScoped(OfflineFeature.self, &o, .navigated(from: .tours), FeatureContext(s), effects: [.offline(.count(tourID: 500, .english, urls: urls))]) {
            $0.tours[500] = counting
        }
        // Counted already in this language: not again.
        reactScoped(OfflineFeature.self, &o, .languageChanged, FeatureContext(s))
        sendScoped(OfflineFeature.self, &o, .save(tourID: 500), FeatureContext(s), effects: [.offline(.save(tourID: 500, .english, urls: urls))]) {
            $0.tours[500]?.saving = true
        }
        sendScoped(OfflineFeature.self, &o, .save(tourID: 500), FeatureContext(s))
        // A count in a language the visitor left is not taken.
        sendScoped(OfflineFeature.self, &o, .counted(tourID: 500, .french, .init(total: 3, kept: 3, bytes: 9)), FeatureContext(s))
        sendScoped(OfflineFeature.self, &o, .saveEnded(tourID: 500, .english, nil), FeatureContext(s)) { $0.tours[500]?.saving = false }
        reactScoped(OfflineFeature.self, &o, .startOver, FeatureContext(s)) { $0 = OfflineFeature.State() }
    }

    func testSaveProgressStopResumeSavedRemove() throws {
        var s = try onTheWeb()
        // Opening the tour page counts what is kept.
        XCTAssertTrue(openTour(&s).contains(.offline(.count(tourID: 500, .english, urls: urls))))
        XCTAssertEqual(s.offline.tours[500], OfflineFeature.TourState(language: .english, tally: .init(total: 3, kept: 0, bytes: 0)))
        send(&s, .offline(.counted(tourID: 500, .english, .init(total: 3, kept: 0, bytes: 0))))
        XCTAssertEqual(rows(s).map(\.text), ["Save for offline: 3 recordings in English"])
        XCTAssertEqual(rows(s).first?.action, .send(.offline(.save(tourID: 500))))
        // The row is on the page, under the start row, and Enter on it saves.
        let page = try XCTUnwrap(Reducer.rows(s))
        let at = try XCTUnwrap(page.firstIndex { $0.text == "Save for offline: 3 recordings in English" })
        XCTAssertEqual(page[at - 1].action, .send(.tour(.start(tourID: 500, stop: nil))))
        s.page.selection = at
        XCTAssertEqual(prepare(&s, .activate), [.offline(.save(tourID: 500, .english, urls: urls))])
        XCTAssertEqual(s.offline.tours[500]?.saving, true)
        send(&s, .offline(.save(tourID: 500)))  // once at a time
        send(&s, .offline(.counted(tourID: 500, .english, .init(total: 3, kept: 1, bytes: 1_234_567)))) {
            $0.offline.tours[500]?.tally = .init(total: 3, kept: 1, bytes: 1_234_567)
        }
        XCTAssertEqual(rows(s).map(\.text), ["Saving for offline… 1 of 3 recordings (1.2 MB)", "Stop saving for offline"])
        XCTAssertEqual(rows(s).last?.action, .send(.offline(.cancel(tourID: 500))))
        assertSnapshot(RootView.render(s, size: big), named: "tour-offline-saving-80x24")
        // The network fails: why, and a row to finish.
        send(&s, .offline(.saveEnded(tourID: 500, .english, .unreachable))) {
            $0.offline.tours[500]?.saving = false
            $0.offline.tours[500]?.problem = .unreachable
        }
        XCTAssertEqual(rows(s).map(\.text), [
            "Saving stopped at 1 of 3: the museum's server cannot be reached.", "Finish saving for offline: 2 recordings left (1.2 MB kept)",
        ])
        send(&s, .offline(.save(tourID: 500)), effects: [.offline(.save(tourID: 500, .english, urls: urls))]) {
            $0.offline.tours[500]?.saving = true
            $0.offline.tours[500]?.problem = nil
        }
        send(&s, .offline(.counted(tourID: 500, .english, .init(total: 3, kept: 3, bytes: 12_400_000)))) {
            $0.offline.tours[500]?.tally = .init(total: 3, kept: 3, bytes: 12_400_000)
        }
        send(&s, .offline(.saveEnded(tourID: 500, .english, nil))) { $0.offline.tours[500]?.saving = false }
        XCTAssertEqual(rows(s).map(\.text), ["Saved for offline: 3 recordings, 12 MB", "Remove the offline copy"])
        XCTAssertEqual(rows(s).last?.action, .send(.offline(.remove(tourID: 500))))
        assertSnapshot(RootView.render(s, size: big), named: "tour-offline-saved-80x24")
        send(&s, .offline(.remove(tourID: 500)), effects: [.offline(.remove(tourID: 500, .english, urls: urls))])
        send(&s, .offline(.counted(tourID: 500, .english, .init(total: 3, kept: 0, bytes: 0)))) {
            $0.offline.tours[500]?.tally = .init(total: 3, kept: 0, bytes: 0)
        }
        XCTAssertEqual(rows(s).map(\.text), ["Save for offline: 3 recordings in English"])
    }

    /// Issue 33 #18: one recording is "1 recording" (it said "1 recordings"), in every row.
    func testOneRecordingIsSingular() throws {
        var s = try onTheWeb()
        _ = openTour(&s)
        prepare(&s, .offline(.counted(tourID: 500, .english, .init(total: 1, kept: 0, bytes: 0))))
        XCTAssertEqual(rows(s).map(\.text), ["Save for offline: 1 recording in English"])
        prepare(&s, .offline(.counted(tourID: 500, .english, .init(total: 2, kept: 1, bytes: 1_000_000))))
        XCTAssertEqual(rows(s).map(\.text), ["Finish saving for offline: 1 recording left (1.0 MB kept)"])
        prepare(&s, .offline(.counted(tourID: 500, .english, .init(total: 1, kept: 1, bytes: 1_000_000))))
        XCTAssertEqual(rows(s).first?.text, "Saved for offline: 1 recording, 1.0 MB")
        s.language = .spanish
        prepare(&s, .offline(.counted(tourID: 500, .english, .init(total: 1, kept: 0, bytes: 0))))
        XCTAssertFalse(rows(s).contains { $0.text.contains("1 grabaciones") }, "\(rows(s).map(\.text))")
    }

    /// Another language counts again (its recordings are other files); an answer for the
    /// language left behind is ignored; a new visitor (kiosk) starts with nothing known.
    func testLanguagesAndANewVisitor() throws {
        var s = try onTheWeb(size: small)
        _ = openTour(&s)
        prepare(&s, .offline(.counted(tourID: 500, .english, .init(total: 3, kept: 3, bytes: 900_000))))
        let effects = prepare(&s, .setLanguage(.korean))
        XCTAssertTrue(effects.contains(.offline(.count(tourID: 500, .korean, urls: urls))), "counted again (the fixture has no Korean recordings: the English ones)")
        XCTAssertEqual(s.offline.tours[500]?.tally.kept, 0)
        send(&s, .offline(.counted(tourID: 500, .spanish, .init(total: 3, kept: 0, bytes: 0))))
        send(&s, .offline(.counted(tourID: 500, .english, .init(total: 3, kept: 3, bytes: 900_000))))
        XCTAssertEqual(s.offline.tours[500]?.tally.kept, 0, "answers for other languages are not this one's")
        send(&s, .offline(.counted(tourID: 500, .korean, .init(total: 3, kept: 3, bytes: 900_000)))) {
            $0.offline.tours[500] = OfflineFeature.TourState(language: .korean, tally: .init(total: 3, kept: 3, bytes: 900_000))
        }
        assertSnapshot(RootView.render(s, size: small), named: "tour-offline-saved-ko-40x12")
        prepare(&s, .startOver)
        XCTAssertEqual(s.offline, OfflineFeature.State())
    }

    /// Issue 45 #6: a save can be stopped while it runs (the runner stops it in the middle of
    /// a recording), and a kiosk's start over or quitting stops it too; a tour not being
    /// saved has nothing to stop.
    func testASaveIsStoppedByTheVisitorByAStartOverAndByQuitting() throws {
        var s = try onTheWeb()
        _ = openTour(&s)
        send(&s, .offline(.cancel(tourID: 500)))
        prepare(&s, .offline(.save(tourID: 500)))
        send(&s, .offline(.cancel(tourID: 500)), effects: [.offline(.cancel(tourIDs: [500]))]) { $0.offline.tours[500]?.saving = false }
        // The runner answers the stopped save with no problem: the row offers to finish.
        send(&s, .offline(.saveEnded(tourID: 500, .english, nil)))
        XCTAssertEqual(rows(s).map(\.text), ["Save for offline: 3 recordings in English"])

        prepare(&s, .offline(.save(tourID: 500)))
        XCTAssertEqual(prepare(&s, .startOver).filter { if case .feature(let v) = $0 { return v.as(OfflineFeature.Effect.self) != nil } else { return false } },
            [.offline(.cancel(tourIDs: [500]))])
        XCTAssertEqual(s.offline, OfflineFeature.State())
        XCTAssertEqual(prepare(&s, .startOver).filter { if case .feature(let v) = $0 { return v.as(OfflineFeature.Effect.self) != nil } else { return false } }, [],
            "nothing being saved: nothing to stop")

        var o = OfflineFeature.State()
        o.tours[500] = OfflineFeature.TourState(language: .english, tally: .init(total: 3, kept: 1, bytes: 9))
        o.tours[500]?.saving = true
        reactScoped(OfflineFeature.self, &o, .quitting, FeatureContext(s), effects: [.offline(.cancel(tourIDs: [500]))]) {
            $0.tours[500]?.saving = false
        }
    }
}

import DocentTestSupport
import Foundation
import StringFiles
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Test fixtures and the snapshot helper.
enum UIFixtures {
    static let testsDir: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repoRoot = testsDir.deletingLastPathComponent().deletingLastPathComponent()
    static let now = ISO8601DateFormatter().date(from: "2026-11-22T12:00:00Z") ?? Date()

    static func bytes(_ name: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: testsDir.appendingPathComponent("Fixtures/\(name)")))) ?? []
    }

    /// The UI strings from Resources/strings, as the guide loads them.
    static let catalog: StringCatalog = {
        // Every table shipped, named as the executable names them (`zh-Hant.json` → zh-hant).
        switch StringFiles.load(repoRoot.appendingPathComponent("Resources/strings")) {
        case .success(let tables): return StringCatalog(tablesByTag: tables)
        case .failure(let failure): fatalError("the UI strings do not read: \(failure)")
        }
    }()

    static func museum() -> Museum {
        switch AppDataReader.read(bytes("museum.json"), source: "/museum/appData.json") {
        case .success(let a): return Museum(a)
        case .failure(let e): fatalError("fixture museum does not read: \(e)")
        }
    }

    /// Runs the effects the tests stand in for the shell: the search index is built here, as
    /// the runner builds it on its thread, and handed back.
    static func settle(_ s: inout AppState, _ effects: [Effect]) {
        for e in effects {
            guard case .feature(let v) = e, case .buildIndex(let m)? = v.as(SearchEffect.self) else { continue }
            settle(&s, prepare(&s, .search(.indexBuilt(BuiltIndex(SearchIndex(app: m.data, source: m))))))
        }
    }

    /// A state with the museum loaded, exhibitions and events fetched, overlays dismissed.
    static func loadedState(language: Language = .english, size: Size = Size(width: 80, height: 24), config: [String: String] = [:]) -> AppState {
        var s = AppState(source: "/museum/appData.json", catalog: catalog, language: language, now: now, features: Registry.features)
        s.config = config
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        settle(&s, prepare(&s, .documentLoaded(.success(museum()), note: nil)))
        let vp = RootView.viewport(for: size)
        prepare(
            &s, .fetched(.exhibitions, .success(bytes("exhibitions.json"))), .fetched(.events, .success(bytes("events.json"))),
            .viewportChanged(rows: vp.rows, width: vp.width))
        s.overlay = nil
        s.messageQueue = []
        return s
    }
}

/// Compares `screen.dump()` (lossless: text, every cell's style, links, click targets) with
/// `Snapshots/<name>.txt`. `RECORD_SNAPSHOTS=1` rewrites the file and fails the test, as does
/// a missing snapshot (written, then failed): nothing is ever recorded by a passing run, so a
/// run with recording left on cannot go green by accident. (`RECORD_SNAPSHOTS=0` or empty
/// does not record.)
func assertSnapshot(_ screen: Screen, named name: String, file: StaticString = #filePath, line: UInt = #line) {
    // Every snapshot also checks that no wide character is left split (issue 17 #2).
    let split = screen.splitWideCells()
    XCTAssertTrue(split.isEmpty, "snapshot \(name): wide characters split at \(split.prefix(5).map { "(\($0.x),\($0.y))" })", file: file, line: line)
    let url = UIFixtures.testsDir.appendingPathComponent("Snapshots/\(name).txt")
    let actual = screen.dump()
    let flag = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] ?? ""
    let record = !flag.isEmpty && flag != "0"
    guard !record, let expected = try? String(contentsOf: url, encoding: .utf8) else {
        do {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            XCTFail(record ? "recorded snapshot \(name); run again without RECORD_SNAPSHOTS" : "recorded a new snapshot \(name); review and commit it", file: file, line: line)
        } catch {
            XCTFail("snapshot \(name) \(record ? "not recorded" : "missing and not written"): \(error)", file: file, line: line)
        }
        return
    }
    if expected != actual {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let firstDiff = zip(e, a).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(e.count, a.count)
        XCTFail("snapshot \(name) differs at line \(firstDiff + 1):\n expected: \(firstDiff < e.count ? String(e[firstDiff]) : "<end>")\n   actual: \(firstDiff < a.count ? String(a[firstDiff]) : "<end>")\n(RECORD_SNAPSHOTS=1 to re-record)", file: file, line: line)
    }
}

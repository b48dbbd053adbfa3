import Foundation
import XCTest

@testable import DocentCore

/// Where test data lives: the repository (SampleData) and the shared AIC reference data
/// beside it (`../shared/reference/aic`, as in CI).
enum Fixtures {
    static let repoRoot: URL = {
        var u = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { u.deleteLastPathComponent() }
        return u
    }()

    static let aic = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/reference/aic")

    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    static func aicBytes(_ name: String) throws -> [UInt8] {
        let u = aic.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: u.path) else {
            throw TestDataMissing("reference data not found at \(u.path)")
        }
        return try bytes(u)
    }

    /// Reads a document given as a JSON string (source is a fake http location).
    static func read(_ json: String, source: String = "http://museum.example/app/appData.json") -> Result<AppData, AppDataError> {
        AppDataReader.read(Array(json.utf8), source: source)
    }

    static func app(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> AppData {
        switch read(json) {
        case .success(let a): return a
        case .failure(let e):
            XCTFail("unexpected failure: \(e)", file: file, line: line)
            throw e
        }
    }
}

/// The core features these tests exercise (the guide's own registry lives in DocentUI).
enum CoreFixtures {
    static let features = try! FeatureSet([
        AnyFeature(KeypadFeature.self), AnyFeature(TourFeature.self), AnyFeature(PlayerFeature.self), AnyFeature(MapFeature.self),
        AnyFeature(SearchFeature.self), AnyFeature(MemberFeature.self),
    ])
}

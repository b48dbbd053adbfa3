import Foundation
import XCTest

/// libcurl and the thirty libraries under it are opened when a URL needs them, not to read a
/// museum on disk (issue 48): every fetch opened it first, and at the guide's start that held
/// the dynamic loader's lock while the main thread waited to start a thread.
final class LazyLibrariesTests: EndToEndTestCase {
    func testAMuseumOnDiskIsReadWithoutOpeningLibcurl() throws {
        try Repo.requireDocent()
        let dir = try makeTemporaryDirectory()
        let trace = dir.appendingPathComponent("opens.txt").path
        var env = Shell.baseEnvironment()
        env["XDG_DATA_HOME"] = dir.appendingPathComponent("data").path
        env["XDG_CACHE_HOME"] = dir.appendingPathComponent("cache").path
        let r = try Shell.run(["strace", "-f", "-qq", "-e", "trace=openat", "-o", trace, Repo.docent, "validate", Repo.sampleData], environment: env, timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let opened = try String(contentsOfFile: trace, encoding: .utf8)
        XCTAssertTrue(opened.contains("appData.json"), "the trace saw the museum read:\n\(opened.suffix(1500))")
        let curl = opened.split(separator: "\n").filter { $0.contains("libcurl.so") }
        XCTAssertEqual(curl, [], "libcurl opened to read a file on disk")
    }
}

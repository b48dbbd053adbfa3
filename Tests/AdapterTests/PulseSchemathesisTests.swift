import DocentCore
import Foundation
import NetCurl
import XCTest

/// The service against its own OpenAPI file, fuzzed by schemathesis (PyPI; `make test` installs
/// it): every check — server errors, undocumented status codes or bodies, schema-valid requests
/// refused, invalid ones accepted, wrong answers to undeclared methods, stateful links — on a
/// real `docent-pulse` over SQLite, with a visitor's token so authenticated routes are reached.
/// A fixed seed makes a failure reproducible (`st replay` prints the request).
final class PulseSchemathesisTests: XCTestCase {
    func testTheServiceKeepsItsOpenAPIContractUnderFuzzing() throws {
        let dir = NSTemporaryDirectory() + "docent-st-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The per-address limits are lifted: the fuzzer is one address sending thousands of
        // registrations (their 429 is documented, and `PulsePublicTests` proves them).
        let service = try PulseServiceProcess(["--database", "sqlite:" + dir + "/pulse.sqlite", "--client-limits", "off"])
        defer { service.stop() }
        let created = try CurlFetcher().fetch(
            DocentCore.FetchRequest(url: service.url + "/v1/visitors", method: .post, body: [], headers: [:], timeoutSeconds: 10, errorBodies: true)
        ).get()
        XCTAssertEqual(created.status, 201)
        let token = try XCTUnwrap(try JSONParser.parse(created.body, maxDepth: 4)["token"]?.stringValue)
        let spec = AudioTestSupport.repoRoot.appendingPathComponent("Resources/pulse-openapi.yaml").path
        let result = AudioTestSupport.run(
            "/usr/bin/env",
            [
                // In the temporary directory: schemathesis keeps its example databases in the
                // working directory, which must not be the repository.
                "-C", dir, "python3", "-m", "schemathesis.cli", "run", spec, "--url", service.url, "--checks", "all", "--max-examples", "25",
                "--seed", "20261125", "--header", "Authorization: Bearer \(token)", "--no-color",
            ], timeout: 600)
        XCTAssertEqual(result.status, 0, "schemathesis found contract violations:\n\(result.output.suffix(6000))")
        XCTAssertTrue(result.output.contains("generated"), "schemathesis did not run: \(result.output.suffix(2000))")
        XCTAssertTrue(service.process.isRunning, "the service died under fuzzing")
    }
}

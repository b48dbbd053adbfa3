import ArgumentParser
import DocentCore
import GuideShell
import Foundation
import NetCurl
import TwoCores

/// `docent validate`: what the guide makes of a document, for content authors.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check an appData.json and report what the guide would drop.",
        discussion: """
            Exit status:
              0   the guide can run on the document (even with dropped records)
              1   it cannot (not JSON, not an object, truncated, nothing usable)
              64  bad usage (an unknown option, no source)
            """)

    @Argument(help: "Path or URL of the appData.json (file://, http:// and https:// work).")
    var source: String

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Flag(name: .customLong("check-urls"), help: "Also fetch every audio file, floor plan and picture it names.")
    var checkURLs = false

    @Flag(name: .shortAndLong, help: "Also list the notes (quirks that were handled).")
    var verbose = false

    @Option(name: .customLong("rewrite-prefix"), help: "Rewrite URLs starting with FROM to TO (v1 data), as FROM=TO.")
    var rewritePrefix: String?

    func run() throws {
        let fetcher = CurlFetcher()
        let location = SourceLocation.normalise(source)
        let request = FetchRequest(url: location, timeoutSeconds: 60)
        let document: JSONBytes
        // A large local file is mapped, not read (its pages go as the parser passes them).
        switch fetcher.mapDocument(location, maxBytes: request.maxBytes) ?? fetcher.fetch(request).map({ JSONBytes($0.body) }) {
        case .success(let d): document = d
        // The error names the location itself ("/tmp/x: is a directory…").
        case .failure(let e): fail("cannot read the museum's data: \(e)")
        }
        var options = ReadOptions()
        if let rw = rewritePrefix {
            let parts = rw.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("--rewrite-prefix takes FROM=TO") }
            options.rewrite = URLResolver.Rewrite(from: parts[0], to: parts[1])
        }
        // The bytes go to the reader. The parsed tree and the museum are kept to the end and
        // never freed: taking them apart object by object cost a fifth of the run, and the
        // process ends right after the report (`exit` never returns, so both are held in
        // `withExtendedLifetime` around everything that follows).
        var tree: JSON?
        let result = AppDataReader.read(document, source: location, options: TwoCores.options(options), handOff: { tree = $0 })
        withExtendedLifetime((tree, result)) {
            switch result {
            case .failure(let e):
                fail("\(source): \(e)")
            case .success(let app):
                var report = ValidationReport(app: app)
                if checkURLs { report.checkURLs(in: app, with: fetcher) }
                if json {
                    // Written as it is made: a report of half a million records never sits whole in memory.
                    report.writeJSON { FileHandle.standardOutput.write(Data($0.utf8)) }
                } else {
                    print(report.text(verbose: verbose), terminator: "")
                }
            }
            // The report is out: the system takes the memory back at once.
            fflush(nil)
            Foundation.exit(0)
        }
    }

    private func fail(_ reason: String) -> Never {
        if json {
            print(ValidationReport.failureJSON(source: source, reason: reason), terminator: "")
        } else {
            FileHandle.standardError.write(Data("docent: \(reason)\n".utf8))
        }
        Foundation.exit(1)
    }
}

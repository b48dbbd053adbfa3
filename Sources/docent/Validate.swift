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

    @Option(help: "Seconds to wait for a remote source before giving up.")
    var timeout: Double = 60

    @Option(name: .customLong("rewrite-prefix"), help: "Rewrite URLs starting with FROM to TO (v1 data), as FROM=TO.")
    var rewritePrefix: String?

    func run() throws {
        let fetcher = CurlFetcher()
        let location = SourceLocation.normalise(source)
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout takes a number of seconds above 0") }
        let request = FetchRequest(url: location, timeoutSeconds: timeout)
        let document: JSONBytes
        // A large local file is mapped, not read (its pages go as the parser passes them).
        let fetched: Result<JSONBytes, FetchError>
        if let mapped = fetcher.mapDocument(location, maxBytes: request.maxBytes) {
            fetched = mapped
        } else {
            // A server that accepts and never answers left the command silent for a minute
            // (issue 47 #7): after half a second without the data, stderr says what it waits for.
            let waiting = Self.sayWaiting(for: location, timeout: timeout)
            fetched = fetcher.fetch(request).map { JSONBytes($0.body) }
            waiting.cancel()
        }
        switch fetched {
        case .success(let d): document = d
        case .failure(.timedOut(let url)):
            fail("cannot read the museum's data: \(url) did not send it within \(Self.seconds(timeout)); gave up (a server that accepts connections but does not answer; --timeout waits longer)")
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

    /// "60 s", "2.5 s".
    static func seconds(_ t: Double) -> String {
        t == t.rounded() ? "\(Int(t)) s" : "\(t) s"
    }

    /// A line on stderr after half a second unless cancelled first (a quick answer says nothing).
    static func sayWaiting(for location: String, timeout: Double) -> DispatchWorkItem {
        let item = DispatchWorkItem {
            FileHandle.standardError.write(Data("docent: waiting for \(location) to send the museum's data (giving up after \(seconds(timeout)))…\n".utf8))
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5, execute: item)
        return item
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

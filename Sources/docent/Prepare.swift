import ArgumentParser
import DocentCore
import Foundation
import GuideShell

/// `docent prepare`: writes the prepared copy of a museum (issue 14) for the next start, as the
/// guide does after it opened one. The guide starts it, detached, when the visitor quits before
/// its own copy was written (issue 30); a museum's staff can run it after replacing the appData.
struct Prepare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the prepared copy of a museum, so the guide's next start opens it at once.",
        discussion: """
            Exit status:
              0   the copy is there (written now, or already up to date)
              1   it could not be made (the data cannot be read or used, the cache cannot be written)
              64  bad usage
            """)

    @Argument(help: "Path or URL of the appData.json, as given to the guide.")
    var source: String

    @Option(name: .customLong("rewrite-prefix"), help: "Rewrite URLs starting with FROM to TO (v1 data), as FROM=TO: the configuration's url_rewrite.")
    var rewritePrefix: String?

    func run() throws {
        var rewrite: URLResolver.Rewrite?
        if let rw = rewritePrefix {
            let parts = rw.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("--rewrite-prefix takes FROM=TO") }
            rewrite = URLResolver.Rewrite(from: parts[0], to: parts[1])
        }
        let failure = CopyPreparation.run(source: source, rewrite: rewrite)
        fflush(nil)
        if let failure {
            FileHandle.standardError.write(Data("docent: \(source): \(failure)\n".utf8))
            Foundation.exit(1)
        }
        Foundation.exit(0)
    }
}

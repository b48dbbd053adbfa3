import DocentApp
import DocentCore
import Foundation
import NetCurl
import StateStore
import TwoCores

/// The prepared copy of a museum written now (issue 30): what `docent prepare` runs, and what
/// the guide hands its unwritten copy to when the visitor quits before it was written.
package enum CopyPreparation {
    /// Opens the copy when it is there and up to date; otherwise reads the museum and writes
    /// the copy before it returns. Answers nil when the copy is there, else why not.
    package static func run(source: String, rewrite: URLResolver.Rewrite?) -> String? {
        let env = ProcessInfo.processInfo.environment
        let location = SourceLocation.normalise(source)
        var options = TwoCores.options(ReadOptions())
        options.rewrite = rewrite
        let prepared = FilePreparedCopies(
            directory: FilePreparedCopies.defaultDirectory(environment: env), localPath: CurlFetcher.localPath(of:), both: TwoCores.both)
        let cache = FileDocumentCache(directory: FileDocumentCache.defaultDirectory(environment: env))
        let (result, _) = DocumentLoader.load(source: location, fetcher: CurlFetcher(), cache: cache, prepared: prepared, options: options, now: Date())
        switch result {
        case .success: return nil
        case .failure(let f): return f.message
        }
    }
}

/// Hands the prepared copy to a `docent prepare` of its own when the guide quits before writing
/// it (issue 30): quitting does not wait for the copy, and the next start still opens one.
enum CopyHandOff {
    /// Starts `/proc/self/exe prepare [--rewrite-prefix F=T] SOURCE` in a session of its own
    /// (the terminal's hang-up and Ctrl-C do not reach it), with no terminal for its input and
    /// output, at a lower priority. Returns whether it started.
    @discardableResult
    static func start(source: String, rewrite: URLResolver.Rewrite?) -> Bool {
        // Only a regular file is ever prepared: a `docent prepare` of a FIFO waited on it
        // forever after the guide quit (issue 45), and a device or directory has no copy.
        if let path = CurlFetcher.localPath(of: source) {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        }
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return false }
        var arguments = ["docent", "prepare"]
        if let rewrite { arguments += ["--rewrite-prefix", "\(rewrite.from)=\(rewrite.to)"] }
        arguments += ["--", source]
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        // POSIX_SPAWN_SETSID (glibc 2.26; the macro is not imported into Swift).
        posix_spawnattr_setflags(&attributes, Int16(0x80))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, exe, &actions, &attributes, argv, environ)
        guard rc == 0 else { return false }
        // Behind whatever the visitor does next.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), 10)
        return true
    }
}

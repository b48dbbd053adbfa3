import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure with a message fit to read in the test log (a thrown error fails the test).
struct E2EError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What a finished command left behind.
struct CommandResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs commands to completion with a deadline. Output goes through temporary files, so a
/// chatty child can never block on a full pipe while we wait for it.
enum Shell {
    /// The test process's environment, with a UTF-8 locale and without `TMUX` (tests must
    /// never talk to the user's own tmux).
    static func baseEnvironment() -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["TMUX"] = nil
        env["TMUX_PANE"] = nil
        env["LANG"] = "C.UTF-8"
        env["LC_ALL"] = nil
        return env
    }

    /// Runs `arguments` (looked up on PATH when not absolute). `stdin` nil means /dev/null.
    ///
    /// posix_spawn and waitpid, not Foundation's Process: on Linux, Process notices the exit
    /// through a socket the child inherits, and `tmux new-session` hands that socket on to the
    /// server it daemonises, so the client's exit would never be seen.
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, stdin: Data? = nil,
        timeout: TimeInterval = 10
    ) throws -> CommandResult {
        precondition(!arguments.isEmpty)
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("docent-e2e-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let outPath = dir.appendingPathComponent("stdout").path
        let errPath = dir.appendingPathComponent("stderr").path
        var inPath = "/dev/null"
        if let stdin {
            inPath = dir.appendingPathComponent("stdin").path
            try stdin.write(to: URL(fileURLWithPath: inPath))
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let env = (environment ?? baseEnvironment()).map { "\($0.key)=\($0.value)" }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard rc == 0 else {
            throw E2EError("cannot start `\(arguments[0])`: \(String(cString: strerror(rc)))")
        }

        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { throw E2EError("waitpid failed: \(String(cString: strerror(errno)))") }
            if Date() > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw E2EError("`\(arguments.joined(separator: " "))` did not finish within \(timeout) s")
            }
            usleep(1_000)
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG by hand (they are macros).
        let signal = status & 0x7f
        let code: Int32 = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        let o = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let e = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return CommandResult(status: code, stdout: o, stderr: e)
    }

    /// Quotes `s` for a POSIX shell.
    static func quote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

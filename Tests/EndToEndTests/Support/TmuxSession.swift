import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One private tmux server (its own `-L` socket) with one 80×24 pane running the guide
/// inside a bash wrapper that prints `EXIT_STATUS=<n>` and `stty -a` when the guide ends.
///
/// The wrapper is bash, never sh: with dash, Ctrl-C kills the wrapper too and the server dies.
final class TmuxSession {
    let socket: String
    let target = "s"
    /// The XDG_DATA_HOME/XDG_CONFIG_HOME/XDG_CACHE_HOME root the guide sees.
    let home: URL
    private(set) var killed = false
    /// The server's socket file, removed after kill-server (tmux leaves it behind).
    private var socketPath: String?

    /// How often the screen is polled, and the default deadline for a wait.
    static let pollInterval: useconds_t = 20_000
    static let defaultTimeout: TimeInterval = 10

    private static let counter = Counter()

    /// Starts the server and the pane. `command` is bash text run before the wrapper's
    /// `echo EXIT_STATUS=$?` (use `guideCommand` for the usual `docent --data …`).
    init(command: String, home: URL, width: Int = 80, height: Int = 24) throws {
        self.socket = "docent-e2e-\(getpid())-\(Self.counter.next())-\(UUID().uuidString.prefix(6))"
        self.home = home
        let script = "\(command); echo EXIT_STATUS=$?; stty -a; sleep 600"
        var args = [
            "tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", target,
            "-x", "\(width)", "-y", "\(height)",
        ]
        let env = [
            // NO_COLOR as `swift test` sets it, said here so a run of the test bundle by
            // itself (scripts/run-tests.sh) draws the same screens; a test that wants colour
            // runs its command under `env -u NO_COLOR`.
            "LANG=C.UTF-8", "SWIFT_BACKTRACE=interactive=no", "NO_COLOR=1",
            "XDG_DATA_HOME=\(home.appendingPathComponent("data").path)",
            "XDG_CONFIG_HOME=\(home.appendingPathComponent("config").path)",
            "XDG_CACHE_HOME=\(home.appendingPathComponent("cache").path)",
            "XDG_STATE_HOME=\(home.appendingPathComponent("state").path)",
        ]
        for e in env { args += ["-e", e] }
        // Several arguments: tmux runs them directly (no `sh -c` in between).
        args += ["bash", "-c", script]
        let r = try Shell.run(args)
        guard r.status == 0 else {
            throw E2EError("tmux new-session failed (\(r.status)): \(r.stderr)")
        }
        socketPath = try? tmux(["display-message", "-p", "-t", target, "#{socket_path}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `'<docent>' --data '<path>'` plus any extra arguments, quoted for bash.
    static func guideCommand(data: String = Repo.sampleData, extra: [String] = []) -> String {
        ([Repo.docent, "--data", data] + extra).map(Shell.quote).joined(separator: " ")
    }

    // MARK: tmux commands

    @discardableResult
    func tmux(_ args: [String]) throws -> String {
        let r = try Shell.run(["tmux", "-L", socket] + args)
        guard r.status == 0 else {
            throw E2EError("tmux \(args.joined(separator: " ")) failed (\(r.status)): \(r.stderr)")
        }
        return r.stdout
    }

    /// Bytes the program writes to its terminal during `seconds` (tmux `pipe-pane` into `file`).
    func bytesWritten(during seconds: TimeInterval, recordingTo file: URL) throws -> Int {
        try tmux(["pipe-pane", "-o", "-t", target, "cat >> \(Shell.quote(file.path))"])
        let until = Date().addingTimeInterval(seconds)
        while Date() < until { usleep(Self.pollInterval) }
        try tmux(["pipe-pane", "-t", target])
        return (try? Data(contentsOf: file))?.count ?? 0
    }

    /// The visible screen as text, one line per row.
    func screen() throws -> String {
        var s = try tmux(["capture-pane", "-p", "-t", target])
        if s.hasSuffix("\n") { s.removeLast() }
        return s
    }

    /// The visible screen with colour and attribute escapes.
    func screenWithAttributes() throws -> String {
        try tmux(["capture-pane", "-p", "-e", "-t", target])
    }

    /// Scrollback plus screen, wrapped lines joined (for what the wrapper printed).
    func history() throws -> String {
        try tmux(["capture-pane", "-p", "-J", "-S", "-1000", "-t", target])
    }

    /// Named keys ("Escape", "Enter", "Tab", "BTab", "F6", "C-c", "Down") or single characters.
    func sendKeys(_ keys: String...) throws {
        try tmux(["send-keys", "-t", target] + keys)
    }

    /// Literal text (UTF-8 included), never interpreted as key names.
    func sendLiteral(_ text: String) throws {
        try tmux(["send-keys", "-t", target, "-l", text])
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The pid of the bash wrapper in the pane.
    func panePID() throws -> pid_t {
        let out = try tmux(["list-panes", "-t", target, "-F", "#{pane_pid}"])
        guard let pid = pid_t(out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw E2EError("no pane pid in \(out.debugDescription)")
        }
        return pid
    }

    /// The pid of the running `docent` (the wrapper's child).
    func guidePID() throws -> pid_t {
        let wrapper = try panePID()
        let r = try Shell.run(["pgrep", "-P", "\(wrapper)", "-x", "docent"])
        let pids = r.stdout.split(whereSeparator: \.isNewline).compactMap { pid_t($0) }
        guard pids.count == 1, let pid = pids.first else {
            throw E2EError("expected one docent child of the wrapper \(wrapper), pgrep said \(r.stdout.debugDescription)")
        }
        return pid
    }

    func kill() {
        guard !killed else { return }
        killed = true
        _ = try? Shell.run(["tmux", "-L", socket, "kill-server"])
        if let p = socketPath, p.hasSuffix("/" + socket) { try? FileManager.default.removeItem(atPath: p) }
    }

    // MARK: Waiting

    /// Polls the screen every 20 ms until `predicate` holds; returns that screen. Fails with
    /// the last screen when the deadline passes, or at once if the guide exited meanwhile
    /// (unless `allowExit`). `withAttributes` polls `capture-pane -e` (escapes kept). The
    /// screen returned has stayed the same for 10 ms.
    @discardableResult
    func waitUntil(
        _ what: String, timeout: TimeInterval = TmuxSession.defaultTimeout, allowExit: Bool = false,
        withAttributes: Bool = false, _ predicate: (String) -> Bool
    ) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        var lastMatch: String?
        func capture() throws -> String { withAttributes ? try screenWithAttributes() : try screen() }
        while true {
            last = try capture()
            if predicate(last) {
                // A frame can be caught half drawn: a screen counts once a second capture
                // (another tmux round trip) finds it unchanged, so every assertion made on it
                // sees the whole frame. (A screen that never holds still is taken as it is at
                // the deadline.)
                lastMatch = last
                let again = try capture()
                if again == last { return last }
                last = again
            }
            // An exit ends the wait, unless what we wait for is on screen (waiting for the exit
            // status itself: the shell prints `stty -a` under it, so that screen never holds still).
            if !allowExit, last.contains("EXIT_STATUS="), !predicate(last) {
                throw E2EError("the guide exited while waiting for \(what). Screen:\n\(framed(last))")
            }
            if Date() > deadline {
                if let lastMatch { return lastMatch }
                throw E2EError("timed out after \(timeout) s waiting for \(what). Screen:\n\(framed(last))")
            }
            usleep(Self.pollInterval)
        }
    }

    /// Waits until every one of `texts` is on screen.
    @discardableResult
    func waitFor(_ texts: String..., timeout: TimeInterval = TmuxSession.defaultTimeout) throws -> String {
        try waitUntil(texts.map { "\"\($0)\"" }.joined(separator: " and "), timeout: timeout) { s in
            texts.allSatisfy { s.contains($0) }
        }
    }

    /// Waits until `text` has left the screen.
    @discardableResult
    func waitForGone(_ text: String, timeout: TimeInterval = TmuxSession.defaultTimeout) throws -> String {
        try waitUntil("\"\(text)\" to go away", timeout: timeout) { !$0.contains(text) }
    }

    /// Waits for the wrapper's `EXIT_STATUS=<n>` and the `stty -a` output after it.
    func waitForExit(timeout: TimeInterval = TmuxSession.defaultTimeout) throws -> (status: Int, after: String) {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while true {
            last = try history()
            if let r = last.range(of: "EXIT_STATUS=") {
                let after = String(last[r.upperBound...])
                let digits = after.prefix { $0.isNumber }
                // stty -a has printed its local-modes line once "icanon" shows.
                if let status = Int(digits), after.contains("icanon"), after.contains("echoctl") {
                    return (status, after)
                }
            }
            if Date() > deadline {
                throw E2EError("timed out after \(timeout) s waiting for the guide to exit. Screen:\n\(framed(last))")
            }
            usleep(Self.pollInterval)
        }
    }

    func framed(_ screen: String) -> String {
        let rows = ScreenText.lines(screen)
        return (["┌" + String(repeating: "─", count: 20)] + rows.map { "│" + $0 } + ["└" + String(repeating: "─", count: 20)])
            .joined(separator: "\n")
    }
}

/// A thread-safe counter for unique socket names.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

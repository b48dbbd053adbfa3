import DocentUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Asks the terminal for its background colour (OSC 11) before curses takes it over (issue 47
/// #3). The question is followed by a request for the terminal's attributes (DA1), which every
/// terminal answers: when that answer comes first, this terminal does not answer OSC 11, and
/// nothing waits for it. At most `timeoutMilliseconds` in all; what arrives is consumed here, so
/// no answer is later read as keys.
enum BackgroundQuery {
    static func ask(timeoutMilliseconds: Int = 250) -> [UInt8]? {
        guard isatty(0) == 1, isatty(1) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(0, TCSANOW, &raw) == 0 else { return nil }
        defer { _ = tcsetattr(0, TCSANOW, &saved) }
        let question: [UInt8] = Array("\u{1B}]11;?\u{07}\u{1B}[c".utf8)
        guard question.withUnsafeBytes({ write(1, $0.baseAddress, $0.count) }) == question.count else { return nil }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        var left = timeoutMilliseconds
        var started = timespec()
        clock_gettime(CLOCK_MONOTONIC, &started)
        while left > 0, answer.count < 4096 {
            var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&fds, 1, Int32(left)) > 0 else { break }
            let n = read(0, &buffer, buffer.count)
            guard n > 0 else { break }
            answer += buffer[0..<n]
            // The DA1 answer (`ESC [ ? … c`) comes last: everything is in.
            if let csi = lastCSI(answer), csi.last == UInt8(ascii: "c") { break }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let spent = (now.tv_sec - started.tv_sec) * 1000 + (now.tv_nsec - started.tv_nsec) / 1_000_000
            left = timeoutMilliseconds - Int(spent)
        }
        return answer
    }

    /// The bytes from the last `ESC [` on, if any.
    static func lastCSI(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var i = bytes.count - 2
        while i >= 0 {
            if bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "[") { return bytes[i...] }
            i -= 1
        }
        return nil
    }
}

import DocentCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file written a piece at a time (`PreparedSink`), as a temporary file renamed into place
/// once whole: a reader never sees half a copy.
struct FileSink: PreparedSink {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let fd: Int32
    /// Asked before every piece: true stops the write (the temporary file is removed).
    var stopped: () -> Bool = { false }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        if stopped() { throw Failure(description: "stopped") }
        var at = 0
        while at < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + at, bytes.count - at)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: String(cString: strerror(errno))) }
            at += n
        }
    }

    mutating func patch(_ bytes: [UInt8], at offset: Int) throws(Failure) {
        let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, off_t(offset)) }
        guard n == bytes.count else { throw Failure(description: String(cString: strerror(errno))) }
    }

    /// `bytes` as the whole file.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
        try writeAtomically(to: path) { (sink) throws(Failure) in
            var failure: Failure?
            bytes.withUnsafeBytes { b in
                do throws(Failure) { try sink.write(b) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    static func writeAtomically(to path: String, stopped: @escaping () -> Bool = { false }, _ body: (inout FileSink) throws(Failure) -> Void) throws(Failure) {
        let temp = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(description: "cannot create \(temp): \(String(cString: strerror(errno)))") }
        var sink = FileSink(fd: fd, stopped: stopped)
        do throws(Failure) {
            try body(&sink)
        } catch {
            close(fd)
            unlink(temp)
            throw error
        }
        guard close(fd) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temp)
            throw Failure(description: "cannot write \(temp): \(message)")
        }
        guard rename(temp, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temp)
            throw Failure(description: "cannot rename \(temp) to \(path): \(message)")
        }
    }
}

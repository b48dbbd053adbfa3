import DocentText
import Foundation
import GRDB

/// Small helpers shared by the StateStore adapters: XDG base directories, a stable hash and
/// atomic file writes. A target of its own (issue 46) so that the Pulse kit's SQLite store uses
/// them without linking StateStore; `package`, not public: no API of the product.
package enum Support {
    /// `$<variable>/docent/<file>` when the variable holds an absolute path, otherwise
    /// `$HOME/<fallback>/docent/<file>` (the XDG Base Directory rules: relative values are ignored).
    package static func xdgPath(_ variable: String, fallback: String, file: String?, environment: [String: String]) -> String {
        let base: String
        if let value = environment[variable], value.hasPrefix("/") {
            base = value
        } else {
            base = joined(home(environment), fallback)
        }
        let dir = joined(base, "docent")
        guard let file else { return dir }
        return joined(dir, file)
    }

    /// `$HOME`, or the account's home directory when the variable is unset or empty.
    package static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    package static func joined(_ a: String, _ b: String) -> String {
        if a.isEmpty { return b }
        return a.hasSuffix("/") ? a + b : a + "/" + b
    }

    /// The directory part of a path ("" for a bare file name, "/" for a file at the root).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Makes a path absolute against the working directory and removes `.`/`..` segments.
    package static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : joined(FileManager.default.currentDirectoryPath, path)
        return normalised(full)
    }

    /// Removes `./` and `a/../` segments and duplicate slashes from an absolute path.
    package static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for seg in path.split(separator: "/", omittingEmptySubsequences: true) {
            if seg == "." { continue }
            if seg == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(seg)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Creates a directory and its parents; succeeds if it already exists.
    package static func makeDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes the bytes to a temporary file beside `path`, then renames it over `path`, so a reader
    /// sees either the old file or the new one, never half of one.
    package static func writeAtomically(_ data: Data, to path: String) throws {
        let temp = "\(path).tmp-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try data.write(to: URL(fileURLWithPath: temp))
            guard rename(temp, path) == 0 else {
                let message = String(cString: strerror(errno))
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot rename \(temp) to \(path): \(message)"])
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temp)
            throw error
        }
    }

    /// A short human description of a Foundation/POSIX error, without the NSError boilerplate:
    /// "Not a directory" rather than "The operation could not be completed. (… error 512.)".
    package static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        // On Linux the underlying error may be a Swift error value rather than an NSError.
        if let underlyingError = ns.userInfo[NSUnderlyingErrorKey] as? any Error {
            let underlying = underlyingError as NSError
            if underlying.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(underlying.code))) }
        }
        if let text = ns.userInfo[NSLocalizedDescriptionKey] as? String { return text }
        let boilerplate = "The operation could not be completed. "
        let text = ns.localizedDescription
        return text.hasPrefix(boilerplate) ? String(text.dropFirst(boilerplate.count)) : text
    }
}

extension Support {
    /// How long a SQLite connection waits for another process's lock before it gives up.
    package static let busyTimeout: TimeInterval = 2

    /// Turns a GRDB or file-system error into one sentence about the state database.
    package static func failure(_ error: any Error, path: String, doing: String) -> LoadFailure {
        guard let dbError = error as? DatabaseError else {
            return LoadFailure("cannot \(doing) the state database \(path) (\(Support.describe(error)))")
        }
        let detail = dbError.message ?? "SQLite error \(dbError.resultCode.rawValue)"
        switch dbError.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return LoadFailure("the state database \(path) is damaged (\(detail)); move it aside to start afresh")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return LoadFailure("cannot \(doing) the state database \(path): another program is holding it locked (\(detail))")
        case .SQLITE_READONLY:
            return LoadFailure("cannot \(doing) the state database \(path): it is read-only (\(detail))")
        case .SQLITE_CANTOPEN:
            return LoadFailure("cannot \(doing) the state database \(path) (\(detail)); check that it is a file in a writable directory")
        case .SQLITE_FULL:
            return LoadFailure("cannot \(doing) the state database \(path): the disk is full (\(detail))")
        default:
            return LoadFailure("cannot \(doing) the state database \(path) (\(detail))")
        }
    }
}

package extension Row {
    /// A text column selected as `CAST(text AS BLOB)`, whole. GRDB reads TEXT through a C
    /// string, so a NUL written into the file by another program cut the rest of a note off;
    /// as bytes, everything after it is kept (the NUL itself is dropped where the text is
    /// cleaned). Invalid UTF-8 becomes U+FFFD.
    func wholeText(_ column: String) -> String? {
        switch (self[column] as DatabaseValue).storage {
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        case .string(let text): return text
        default: return nil
        }
    }

    /// The column's value as `T`, or nil when it is NULL or of another type. GRDB's own
    /// subscript stops the program on a value it cannot convert (a text where a number was
    /// written); a state database edited by hand or damaged must never do that.
    func decoded<T: DatabaseValueConvertible>(_ column: String, as _: T.Type) -> T? {
        let raw = self[column] as DatabaseValue
        let value = T.fromDatabaseValue(raw)
        if value == nil, !raw.isNull { ReadProblems.count += 1 }
        return value
    }
}

/// Values a load found but could not read (a text where a number was written), counted on
/// the thread that loads, so the guide can say some saved values were skipped.
package enum ReadProblems {
    private static let key = "docent.state.readProblems"

    package static var count: Int {
        get { Thread.current.threadDictionary[key] as? Int ?? 0 }
        set { Thread.current.threadDictionary[key] = newValue }
    }
}

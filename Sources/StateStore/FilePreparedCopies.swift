import DocentCore
import Foundation
import StoreSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Prepared copies of museums as files: `<directory>/<hash>.museum`, one per source and read
/// options (`<hash>` is FNV-1a 64 of both), replaced when the source or the program changes.
///
/// A copy is trusted only while the appData is the file it was made from: the identity written
/// in it names the program (its size and modification time: a rebuilt guide never reads an
/// older guide's copy), the options, and the file's device, inode, size, modification and
/// change times to the nanosecond. Anything else — another identity, a damaged or short copy —
/// is a miss, and the appData is parsed as if there were no copy.
public final class FilePreparedCopies: PreparedCopying, @unchecked Sendable {
    public let directory: String
    /// What identifies the running program (see `programStamp`).
    let program: String
    /// How a source names a local file (`CurlFetcher.localPath(of:)`): nil for http(s).
    let localPath: @Sendable (String) -> String?
    let clock: @Sendable () -> Date
    /// Two cores for opening a copy (`PreparedMuseum.decode`), given by the composition root.
    let both: ReadOptions.Both?
    /// A file modified less than this before it was read is not prepared: a change within the
    /// same tick of the file system's clock could leave every stamp as it was ("racy" files,
    /// as git calls them).
    static let settleSeconds: Double = 2
    let lock = NSLock()
    /// Set by `stopWriting`: a copy being written stops at its next piece.
    private let stopRequested = Atomic<Bool>(false)

    /// Stops a copy being written (the guide quits and hands the copy to `docent prepare`,
    /// issue 30): its temporary file is removed and no copy is kept. Later writes stop too.
    public func stopWriting() { stopRequested.store(true, ordering: .relaxed) }

    public init(
        directory: String, program: String = FilePreparedCopies.programStamp(), localPath: @escaping @Sendable (String) -> String?,
        clock: @escaping @Sendable () -> Date = Date.init, both: ReadOptions.Both? = nil
    ) {
        self.both = both
        self.directory = directory
        self.program = program
        self.localPath = localPath
        self.clock = clock
    }

    /// `$XDG_CACHE_HOME/docent/prepared`, or `$HOME/.cache/docent/prepared`.
    public static func defaultDirectory(environment: [String: String]) -> String {
        Support.joined(FileDocumentCache.defaultDirectory(environment: environment), "prepared")
    }

    /// The running executable's size and modification time.
    public static func programStamp() -> String {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "unknown" }
        return "\(info.st_size)@\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    struct FileStamp: Equatable {
        var device: UInt64, inode: UInt64, size: Int64
        var modified: timespec, changed: timespec
        static func == (a: FileStamp, b: FileStamp) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
                && a.modified.tv_nsec == b.modified.tv_nsec && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
        var text: String {
            "dev=\(device) ino=\(inode) size=\(size) mtime=\(modified.tv_sec).\(modified.tv_nsec) ctime=\(changed.tv_sec).\(changed.tv_nsec)"
        }
    }

    static func stamp(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: info.st_mtim, changed: info.st_ctim)
    }

    func identity(path: String, stamp: FileStamp, options: ReadOptions) -> String {
        let rewrite = options.rewrite.map { "\($0.from) -> \($0.to)" } ?? "none"
        return "program=\(program) format=\(PreparedMuseum.version) rewrite=\(rewrite) path=\(path) \(stamp.text)"
    }

    /// Where the copy for `source` read with `options` lives.
    public func copyPath(for source: String, options: ReadOptions) -> String {
        let rewrite = options.rewrite.map { "\($0.from)\u{0}\($0.to)" } ?? ""
        return Support.joined(directory, FNV1a.hex64((source + "\u{0}" + rewrite).utf8) + ".museum")
    }

    public func ticket(for source: String, options: ReadOptions) -> PreparedTicket? {
        guard let path = localPath(source), let stamp = Self.stamp(path) else { return nil }
        return PreparedTicket(source: source, identity: identity(path: path, stamp: stamp, options: options) + " copy=" + copyPath(for: source, options: options))
    }

    public func ticket(forRemote url: String, fingerprint: String, options: ReadOptions) -> PreparedTicket? {
        let rewrite = options.rewrite.map { "\($0.from) -> \($0.to)" } ?? "none"
        return PreparedTicket(
            source: url,
            identity: "program=\(program) format=\(PreparedMuseum.version) rewrite=\(rewrite) url=\(url) \(fingerprint) copy="
                + copyPath(for: url, options: options))
    }

    private func copyPath(of ticket: PreparedTicket) -> String? {
        guard let r = ticket.identity.range(of: " copy=", options: .backwards) else { return nil }
        return String(ticket.identity[r.upperBound...])
    }

    public func open(_ ticket: PreparedTicket) -> AppData? {
        guard let path = copyPath(of: ticket) else { return nil }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        // Mapped, not read: the pages come straight from the page cache; the strings are
        // copied out once and the transcripts stay mapped until the player reads one. The
        // mapping lives as long as the museum. Copies are only ever replaced by rename, never
        // rewritten in place, so the mapped file does not change under the guide.
        // Not populated up front: the reader lets the pages of the string table go as it passes
        // them (issue 14: a copy is most of the size of the museum's file, and was whole in
        // memory beside the models while they were read).
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        madvise(base, size, MADV_WILLNEED)
        let address = UInt(bitPattern: base)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let shared = SharedBytes(
            UnsafeRawBufferPointer(start: base, count: size),
            release: { munmap(UnsafeMutableRawPointer(bitPattern: address), size) },
            passed: { range in
                // The whole pages inside the range (its ends may share a page with a neighbour).
                let from = (range.lowerBound + page - 1) / page * page
                let to = range.upperBound / page * page
                guard to > from, let start = UnsafeMutableRawPointer(bitPattern: address + UInt(from)) else { return }
                madvise(start, to - from, MADV_DONTNEED)
            })
        let app = PreparedMuseum.decode(shared, identity: ticket.identity, both: both)
        // Read: the pages go from the guide's memory (they stay in the page cache); a transcript
        // the player reads brings its own back.
        madvise(base, size, MADV_DONTNEED)
        return app
    }

    public func save(_ app: AppData, for ticket: PreparedTicket) {
        _ = write(app, for: ticket)
    }

    /// Writes the copy, or says why not (`save` drops the reason: a copy is best effort).
    @discardableResult
    public func write(_ app: AppData, for ticket: PreparedTicket) -> Result<Void, LoadFailure> {
        guard let path = copyPath(of: ticket) else { return .failure(LoadFailure("not a ticket of this store")) }
        // A download: the ticket names the saved body it was read from; nothing to stat.
        if localPath(ticket.source) == nil { return writeCopy(app, ticket, to: path) }
        guard let local = localPath(ticket.source), let stamp = Self.stamp(local) else {
            return .failure(LoadFailure("\(ticket.source) is gone"))
        }
        guard ticket.identity.contains(" \(stamp.text) copy=") else {
            return .failure(LoadFailure("\(ticket.source) changed while it was read"))
        }
        let modified = Double(stamp.modified.tv_sec) + Double(stamp.modified.tv_nsec) / 1e9
        guard clock().timeIntervalSince1970 - modified >= Self.settleSeconds else {
            return .failure(LoadFailure("\(ticket.source) changed less than \(Int(Self.settleSeconds)) s ago; not prepared yet"))
        }
        return writeCopy(app, ticket, to: path)
    }

    private func writeCopy(_ app: AppData, _ ticket: PreparedTicket, to path: String) -> Result<Void, LoadFailure> {
        lock.lock()
        defer { lock.unlock() }
        do {
            try Support.makeDirectory(directory)
            // Written as it is made: the copy is never whole in memory (issue 14).
            try FileSink.writeAtomically(to: path, stopped: { [self] in stopRequested.load(ordering: .relaxed) }) { (sink) throws(FileSink.Failure) in
                try PreparedMuseum.encode(app, identity: ticket.identity, to: &sink)
            }
            prune(keeping: path)
            return .success(())
        } catch let error as FileSink.Failure {
            return .failure(LoadFailure("cannot write the prepared museum to \(directory) (\(error.description))"))
        } catch {
            return .failure(LoadFailure("cannot write the prepared museum to \(directory) (\(Support.describe(error)))"))
        }
    }

    /// How many copies are kept (the newest): a guide pointed at a URL whose query changes every
    /// day (a cache-busting `?v=`) would otherwise leave a copy of the whole museum each day.
    public static let keptCopies = 4
    /// A half-written copy (a guide killed while writing) left this long is nobody's.
    static let abandonedSeconds: Double = 3600

    /// Removes all but the newest `keptCopies` copies (never `written`) and abandoned
    /// half-written ones. Best effort: a file that cannot be removed stays.
    func prune(keeping written: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let now = clock().timeIntervalSince1970
        var copies: [(path: String, modified: Double)] = []
        for name in names {
            let path = Support.joined(directory, name)
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            if name.hasSuffix(".museum") {
                if path != written { copies.append((path, modified)) }
            } else if name.contains(".museum.tmp-"), now - modified > Self.abandonedSeconds {
                unlink(path)
            }
        }
        for old in copies.sorted(by: { $0.modified > $1.modified }).dropFirst(Self.keptCopies - 1) { unlink(old.path) }
    }
}

import CShims
import DocentCore
import Foundation

/// A large local appData mapped instead of read (issue 14, peak memory): the parser reads it
/// straight from the page cache and the pages it has passed are let go as it goes, so the
/// file is never in the guide's memory whole beside the museum it becomes. A transcript the
/// player reads later brings its pages back from the file.
///
/// A file cut short while mapped would fault (SIGBUS) where its end was; the range is guarded
/// (`cs_memory.h`): the missing pages read as zeros, which the parser refuses, and
/// `changed` tells the reader why.
enum MappedDocument {
    /// Smaller files are read: mapping them saves nothing worth a mapping.
    static let minimumBytes = 1 << 20

    /// The mapped file, nil when it is not a regular file of at least `minimum` bytes that
    /// could be mapped (then it is read as before, which reports any problem).
    static func open(_ path: String, minimum: Int = minimumBytes, maxBytes: Int) -> Result<JSONBytes, FetchError>? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) >= max(minimum, 1) else { return nil }
        let size = Int(info.st_size)
        guard size <= maxBytes else { return .failure(.tooLarge(url: path, limit: maxBytes)) }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        // Every guard taken (64 museums mapped at once): read instead, never unguarded.
        let slot = cs_mapguard_add(base, size)
        guard slot >= 0 else {
            munmap(base, size)
            return nil
        }
        let address = UInt(bitPattern: base)
        return .success(
            JSONBytes(
                UnsafeRawBufferPointer(start: base, count: size),
                release: {
                    cs_mapguard_remove(slot)
                    munmap(UnsafeMutableRawPointer(bitPattern: address), size)
                },
                pages: Pages(address: address, size: size, slot: slot)))
    }

    /// Lets pages go from this process (a private, read-only mapping: they stay in the page
    /// cache and are read again from there if touched).
    final class Pages: JSONPages, @unchecked Sendable {
        let address: UInt
        let size: Int
        /// The guard of this mapping (`cs_memory.h`).
        let slot: Int32
        /// Pages before this offset were let go behind the parser (its thread only).
        private var dropped = 0
        private static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

        init(address: UInt, size: Int, slot: Int32) {
            self.address = address
            self.size = size
            self.slot = slot
        }

        func passed(_ offset: Int) {
            let end = min(offset, size) & ~(Self.page - 1)
            guard end > dropped else { return }
            advise(dropped, end)
            dropped = end
        }

        func letGo() { advise(0, size) }

        var changed: Bool { cs_mapguard_mended_in(slot) > 0 }

        private func advise(_ from: Int, _ to: Int) {
            guard let start = UnsafeMutableRawPointer(bitPattern: address + UInt(from)) else { return }
            madvise(start, to - from, MADV_DONTNEED)
        }
    }
}

import DocentCore
import Foundation
import StoreSupport

/// The last good copy of each remote appData, as files:
/// `<directory>/appdata/<hash>.json` (the body) and `<hash>.meta.json` (url, etag,
/// lastModified, fetchedAt and a checksum of the body), each written atomically.
///
/// `<hash>` is FNV-1a 64 of the URL, stable across runs; the URL stored in the meta file guards
/// against the rare collision, and the checksum against a body and meta from different writes.
public final class FileDocumentCache: DocumentCaching, @unchecked Sendable {
    /// The cache's root directory.
    public let directory: String
    /// Serialises this process's reads and writes; the rename keeps other processes safe.
    private let lock = NSLock()

    public init(directory: String) {
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/docent`, or `$HOME/.cache/docent`.
    public static func defaultDirectory(environment: [String: String]) -> String {
        Support.xdgPath("XDG_CACHE_HOME", fallback: ".cache", file: nil, environment: environment)
    }

    private struct Meta: Codable {
        var url: String
        var etag: String?
        var lastModified: String?
        var fetchedAt: Double
        var bodyBytes: Int
        var bodyFNV1a64: String
    }

    /// The file name stem for a URL: 16 hex digits.
    public static func key(for url: String) -> String {
        FNV1a.hex64(url.utf8)
    }

    /// The path of the body file for a URL (the meta file is beside it).
    public func bodyPath(for url: String) -> String {
        Support.joined(appDataDirectory, Self.key(for: url) + ".json")
    }

    public func savedBodyPath(for url: String) -> String? {
        let path = bodyPath(for: url)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    private var appDataDirectory: String { Support.joined(directory, "appdata") }

    private func metaPath(for url: String) -> String {
        Support.joined(appDataDirectory, Self.key(for: url) + ".meta.json")
    }

    /// The meta file for `url`, if it is there, readable and about this URL.
    private func meta(for url: String) -> Meta? {
        guard let data = FileManager.default.contents(atPath: metaPath(for: url)),
              let meta = try? JSONDecoder().decode(Meta.self, from: data),
              meta.url == url
        else { return nil }
        return meta
    }

    public func cached(for url: String) -> CachedDocument? {
        lock.lock()
        defer { lock.unlock() }
        guard let meta = meta(for: url),
              let body = FileManager.default.contents(atPath: bodyPath(for: url)),
              body.count == meta.bodyBytes,
              FNV1a.hex64(body) == meta.bodyFNV1a64
        else { return nil }
        return CachedDocument(
            body: [UInt8](body), etag: meta.etag, lastModified: meta.lastModified, fetchedAt: meta.fetchedAt,
            fingerprint: Self.fingerprint(meta))
    }

    private static func fingerprint(_ meta: Meta) -> String { "bytes=\(meta.bodyBytes) fnv1a64=\(meta.bodyFNV1a64)" }

    /// From the meta file alone: the body (possibly a hundred megabytes) is neither read nor
    /// checksummed. Its size must still match, so a body and meta from different writes miss.
    public func validators(for url: String) -> CachedValidators? {
        lock.lock()
        defer { lock.unlock() }
        guard let meta = meta(for: url),
              let attributes = try? FileManager.default.attributesOfItem(atPath: bodyPath(for: url)),
              (attributes[.size] as? Int) == meta.bodyBytes
        else { return nil }
        return CachedValidators(etag: meta.etag, lastModified: meta.lastModified, fetchedAt: meta.fetchedAt, fingerprint: Self.fingerprint(meta))
    }

    public func store(_ doc: CachedDocument, for url: String) {
        _ = write(doc, for: url)
    }

    /// `<hash>.json.download-<pid>-<n>` beside the body it will replace: a rename away from
    /// being the saved copy. A leftover (a guide killed mid-download) is removed by the next
    /// download of the same URL.
    public func stagingPath(for url: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard (try? Support.makeDirectory(appDataDirectory)) != nil else { return nil }
        let stem = Self.key(for: url) + ".json.download-"
        if let names = try? FileManager.default.contentsOfDirectory(atPath: appDataDirectory) {
            for name in names where name.hasPrefix(stem) { unlink(Support.joined(appDataDirectory, name)) }
        }
        stagingCount += 1
        return Support.joined(appDataDirectory, stem + "\(getpid())-\(stagingCount)")
    }

    private var stagingCount = 0

    /// The body by rename, then its meta: until the meta lands the old meta's size and checksum
    /// reject the new body (a miss, never a mismatched etag), as in `write`.
    public func adopt(_ staged: String, saved: SavedBody, etag: String?, lastModified: String?, fetchedAt: Double, for url: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let meta = Meta(url: url, etag: etag, lastModified: lastModified, fetchedAt: fetchedAt, bodyBytes: saved.bytes, bodyFNV1a64: FNV1a.hex(saved.fnv1a64))
        var info = stat()
        guard stat(staged, &info) == 0, Int(info.st_size) == saved.bytes, rename(staged, bodyPath(for: url)) == 0 else {
            unlink(staged)
            return false
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let metaData = try? encoder.encode(meta), (try? Support.writeAtomically(metaData, to: metaPath(for: url))) != nil else { return false }
        return true
    }

    public func discard(_ staged: String) { unlink(staged) }

    /// Stores a document, saying why if it could not (`store` drops the reason: a cache is
    /// best-effort).
    @discardableResult
    public func write(_ doc: CachedDocument, for url: String) -> Result<Void, LoadFailure> {
        lock.lock()
        defer { lock.unlock() }
        let meta = Meta(url: url, etag: doc.etag, lastModified: doc.lastModified, fetchedAt: doc.fetchedAt,
                        bodyBytes: doc.body.count, bodyFNV1a64: FNV1a.hex64(doc.body))
        do {
            try Support.makeDirectory(appDataDirectory)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let metaData = try encoder.encode(meta)
            // Body first: until the new meta lands, the old meta's checksum rejects the new body,
            // so a crash in between gives a cache miss, never a mismatched etag.
            // Straight from the array: a `Data` of it was a second copy of a large museum.
            try FileSink.writeAtomically(doc.body, to: bodyPath(for: url))
            try Support.writeAtomically(metaData, to: metaPath(for: url))
            return .success(())
        } catch let error as FileSink.Failure {
            return .failure(LoadFailure("cannot write the offline copy of \(url) to \(appDataDirectory) (\(error.description))"))
        } catch {
            return .failure(LoadFailure("cannot write the offline copy of \(url) to \(appDataDirectory) (\(Support.describe(error)))"))
        }
    }
}

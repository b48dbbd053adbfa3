import XCTest

@testable import DocentApp
@testable import DocentCore
import DocentTestSupport

/// The appData cache: revalidation with ETag, offline start from the last good copy.
final class DocumentLoaderTests: XCTestCase {
    let url = "https://museum.example/appData.json"
    var body: [UInt8] { UIFixtures.bytes("museum.json") }
    let when = Date(timeIntervalSince1970: 1_790_000_000)

    func testFreshFetchIsCachedThenRevalidated() throws {
        let cache = MemoryCache()
        let f = FakeFetcher([.success(FetchResponse(status: 200, body: body, etag: "\"v1\"", lastModified: "Sat, 21 Nov 2026 10:00:00 GMT"))])
        let (r1, note1) = DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: when)
        XCTAssertNil(note1)
        XCTAssertEqual(try r1.get().data.tours.count, 2)
        XCTAssertEqual(cache.docs[url]?.etag, "\"v1\"")
        XCTAssertEqual(cache.docs[url]?.body, body)
        // Second start: the validators are sent; a 304 uses the cached bytes.
        f.responses = [.success(FetchResponse(status: 304, body: []))]
        let (r2, note2) = DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: when)
        XCTAssertEqual(f.requests.last?.etag, "\"v1\"")
        XCTAssertEqual(f.requests.last?.lastModified, "Sat, 21 Nov 2026 10:00:00 GMT")
        XCTAssertNil(note2)
        XCTAssertEqual(try r2.get().data.tours.count, 2)
    }

    func testOfflineUsesTheLastGoodCopyAndSaysSo() throws {
        let cache = MemoryCache()
        cache.docs[url] = CachedDocument(body: body, etag: nil, lastModified: nil, fetchedAt: 1_790_000_000)
        let f = FakeFetcher([.failure(.unreachable(url: url, reason: "Could not resolve host"))])
        var logged: [String] = []
        let (r, note) = DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: UIFixtures.now, log: { logged.append($0) })
        XCTAssertEqual(try r.get().data.tours.count, 2)
        let n = try XCTUnwrap(note).text(UIFixtures.catalog.strings(for: .english))
        // A plain sentence on screen; the URL and libcurl's words in the log.
        XCTAssertEqual(n, "Offline: using the copy saved 2026-09-21 14:13 GMT (the museum's server cannot be reached)")
        XCTAssertEqual(logged, ["museum data \(url): cannot reach \(url): Could not resolve host; using the copy saved earlier"])
    }

    func testTheSavedTimeIsShownInTheCallersTimeZone() throws {
        let cache = MemoryCache()
        cache.docs[url] = CachedDocument(body: body, etag: nil, lastModified: nil, fetchedAt: 1_790_000_000)
        let f = FakeFetcher([.failure(.unreachable(url: url, reason: "offline"))])
        let madrid = try XCTUnwrap(TimeZone(identifier: "Europe/Madrid"))
        let (_, note) = DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: UIFixtures.now, timeZone: madrid)
        let n = try XCTUnwrap(note).text(UIFixtures.catalog.strings(for: .english))
        XCTAssertTrue(n.hasPrefix("Offline: using the copy saved 2026-09-21 16:13 GMT+2"), n)
    }

    /// Issue 45: a 200 "Maintenance" page replaced the saved copy ("not valid JSON"), so the
    /// outage after it had nothing to fall back on. The copy stays until a fresh answer has
    /// been read whole; a bad answer and then an outage both open it, and say so.
    func testABadAnswerKeepsTheLastGoodCopyForItAndTheOutageAfter() throws {
        let cache = MemoryCache()
        let f = FakeFetcher([.success(FetchResponse(status: 200, body: body, etag: "\"v1\""))])
        _ = try DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: when).0.get()
        let maintenance = Array("<html><body>Maintenance</body></html>".utf8)
        f.responses = [.success(FetchResponse(status: 200, body: maintenance, etag: "\"m\"", contentType: "text/html"))]
        var logged: [String] = []
        let (r1, note1) = DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: UIFixtures.now, log: { logged.append($0) })
        XCTAssertEqual(try r1.get().data.tours.count, 2, "the last good copy")
        XCTAssertEqual(cache.docs[url]?.body, body, "not replaced by the bad answer")
        XCTAssertEqual(cache.docs[url]?.etag, "\"v1\"")
        let n1 = try XCTUnwrap(note1).text(UIFixtures.catalog.strings(for: .english))
        XCTAssertTrue(n1.hasPrefix("Offline: using the copy saved"), n1)
        XCTAssertTrue(n1.contains("not something the guide can read"), n1)
        XCTAssertTrue(logged.last?.contains("not valid JSON") == true, "\(logged)")

        f.responses = [.failure(.http(status: 503, url: url))]
        let (r2, note2) = DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: UIFixtures.now)
        XCTAssertEqual(try r2.get().data.tours.count, 2)
        XCTAssertTrue(try XCTUnwrap(note2).text(UIFixtures.catalog.strings(for: .english)).contains("HTTP 503"))

        // A good answer after them replaces the copy.
        var changed = String(decoding: body, as: UTF8.self)
        changed += " "
        f.responses = [.success(FetchResponse(status: 200, body: Array(changed.utf8), etag: "\"v2\""))]
        let (r3, note3) = DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: UIFixtures.now)
        XCTAssertNil(note3)
        XCTAssertEqual(try r3.get().data.tours.count, 2)
        XCTAssertEqual(cache.docs[url]?.etag, "\"v2\"")
    }

    /// Without a saved copy a bad answer is the failure it always was, and nothing is saved.
    func testABadAnswerWithoutASavedCopyFailsAndSavesNothing() {
        let cache = MemoryCache()
        let f = FakeFetcher([.success(FetchResponse(status: 200, body: Array("<html>".utf8)))])
        let (r, note) = DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: UIFixtures.now)
        XCTAssertNil(note)
        guard case .failure(let e) = r else { return XCTFail("should fail") }
        XCTAssertTrue(e.message.contains("not valid JSON"), e.message)
        XCTAssertTrue(cache.docs.isEmpty)
    }

    /// Issue 45 #9: an appData of nothing but spaces (250 MB of them) said "the file is empty"
    /// and stayed in the cache. It is said to hold no museum data, nothing of it is kept, and a
    /// saved copy is used instead.
    func testAnAnswerOfOnlyBlankSpaceHoldsNoMuseumDataAndIsNotKept() throws {
        let blank = [UInt8](repeating: UInt8(ascii: " "), count: 1_000_000) + Array("\n\t\r\n".utf8)
        let cache = MemoryCache()
        let f = FakeFetcher([.success(FetchResponse(status: 200, body: blank))])
        let (r, note) = DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: UIFixtures.now)
        XCTAssertNil(note)
        guard case .failure(let e) = r else { return XCTFail("should fail") }
        XCTAssertTrue(e.message.contains("holds no museum data"), e.message)
        XCTAssertFalse(e.message.contains("empty"), e.message)
        XCTAssertTrue(cache.docs.isEmpty, "nothing kept")
        // With a good copy saved: that copy, and the blank answer is not kept over it.
        f.responses = [.success(FetchResponse(status: 200, body: body, etag: "\"v1\""))]
        _ = try DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: when).0.get()
        f.responses = [.success(FetchResponse(status: 200, body: blank, etag: "\"blank\""))]
        let (r2, note2) = DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: UIFixtures.now)
        XCTAssertEqual(try r2.get().data.tours.count, 2)
        XCTAssertNotNil(note2)
        XCTAssertEqual(cache.docs[url]?.etag, "\"v1\"")
    }

    func testOfflineWithoutCacheFailsClearly() {
        let f = FakeFetcher([.failure(.unreachable(url: url, reason: "Could not resolve host"))])
        let (r, note) = DocumentLoader.load(source: url, fetcher: f, cache: MemoryCache(), options: ReadOptions(), now: UIFixtures.now)
        XCTAssertNil(note)
        guard case .failure(let e) = r else { return XCTFail("should fail") }
        XCTAssertEqual(e.message, "cannot reach \(url): Could not resolve host")
    }

    func testFilesAreNotCached() throws {
        let cache = MemoryCache()
        let f = FakeFetcher([.success(FetchResponse(status: 200, body: body))])
        _ = try DocumentLoader.load(source: "/srv/appData.json", fetcher: f, cache: cache, options: ReadOptions(), now: UIFixtures.now).0.get()
        XCTAssertTrue(cache.docs.isEmpty)
        XCTAssertNil(f.requests.first?.etag)
    }

    func testBadDocumentIsAFailureNotACrash() {
        let f = FakeFetcher([.success(FetchResponse(status: 200, body: Array("[1, 2".utf8)))])
        let (r, _) = DocumentLoader.load(source: "/srv/appData.json", fetcher: f, cache: nil, options: ReadOptions(), now: UIFixtures.now)
        guard case .failure(let e) = r else { return XCTFail("should fail") }
        XCTAssertTrue(e.message.contains("truncated"), e.message)
    }

    // MARK: Prepared copies (issue 14)

    func testALocalFileWithAPreparedCopyOpensItWithoutReadingTheFile() throws {
        let f = FakeFetcher([.success(FetchResponse(status: 200, body: body))])
        let prepared = FakePrepared()
        // First start: parsed, and the copy made later (after the museum is shown).
        var later: [@Sendable () -> Void] = []
        let (r1, _) = DocumentLoader.load(
            source: "/srv/appData.json", fetcher: f, cache: nil, prepared: prepared, options: ReadOptions(), now: when, later: { later.append($0) })
        XCTAssertEqual(try r1.get().data.tours.count, 2)
        XCTAssertEqual(f.requests.count, 1)
        XCTAssertTrue(prepared.saved.isEmpty, "not before the museum is posted")
        XCTAssertEqual(later.count, 1)
        for work in later { work() }
        XCTAssertEqual(prepared.saved.keys.sorted(), ["/srv/appData.json#1"])
        // Second start, the file unchanged: the copy, no read.
        var logged: [String] = []
        let (r2, note) = DocumentLoader.load(
            source: "/srv/appData.json", fetcher: f, cache: nil, prepared: prepared, options: ReadOptions(), now: when, log: { logged.append($0) })
        XCTAssertEqual(try r2.get().data, try r1.get().data)
        XCTAssertNil(note)
        XCTAssertEqual(f.requests.count, 1, "the appData was not read")
        XCTAssertEqual(logged, ["museum data /srv/appData.json: opened the copy prepared from this file"])
        // The file changed: a new ticket, no copy for it, read again.
        prepared.generation = 2
        f.responses = [.success(FetchResponse(status: 200, body: body))]
        _ = try DocumentLoader.load(source: "/srv/appData.json", fetcher: f, cache: nil, prepared: prepared, options: ReadOptions(), now: when).0.get()
        XCTAssertEqual(f.requests.count, 2)
        XCTAssertEqual(prepared.saved.keys.sorted(), ["/srv/appData.json#1", "/srv/appData.json#2"], "without `later`, saved at once")
    }

    func testABadDocumentIsNeverPrepared() {
        let f = FakeFetcher([.success(FetchResponse(status: 200, body: Array("[1, 2".utf8)))])
        let prepared = FakePrepared()
        let (r, _) = DocumentLoader.load(source: "/srv/appData.json", fetcher: f, cache: nil, prepared: prepared, options: ReadOptions(), now: when)
        guard case .failure = r else { return XCTFail("should fail") }
        XCTAssertTrue(prepared.saved.isEmpty)
    }

    func testADownloadIsPreparedAndOpenedWhenTheServerSaysItIsUnchangedOrIsAway() throws {
        let cache = CountingCache()
        let prepared = FakePrepared()
        let f = FakeFetcher([.success(FetchResponse(status: 200, body: body, etag: "\"v1\"", lastModified: nil))])
        var later: [@Sendable () -> Void] = []
        _ = try DocumentLoader.load(source: url, fetcher: f, cache: cache, prepared: prepared, options: ReadOptions(), now: when, later: { later.append($0) }).0.get()
        for work in later { work() }
        let fingerprint = CachedValidators.fingerprint(body)
        XCTAssertEqual(prepared.saved.keys.sorted(), ["\(url) \(fingerprint)"], "named by the saved body")

        // 304: the copy, the saved body neither read nor checksummed.
        cache.bodyReads = 0
        f.responses = [.success(FetchResponse(status: 304, body: []))]
        var logged: [String] = []
        let (r, note) = DocumentLoader.load(source: url, fetcher: f, cache: cache, prepared: prepared, options: ReadOptions(), now: when, log: { logged.append($0) })
        XCTAssertEqual(try r.get().data.tours.count, 2)
        XCTAssertNil(note)
        XCTAssertEqual(f.requests.last?.etag, "\"v1\"")
        XCTAssertEqual(cache.bodyReads, 0)
        XCTAssertEqual(logged, ["museum data \(url): opened the copy prepared from the saved download"])

        // Offline: the copy too, and the note says it is the saved one.
        f.responses = [.failure(.unreachable(url: url, reason: "Could not resolve host"))]
        let (r2, note2) = DocumentLoader.load(source: url, fetcher: f, cache: cache, prepared: prepared, options: ReadOptions(), now: when)
        XCTAssertEqual(try r2.get().data.tours.count, 2)
        XCTAssertTrue(try XCTUnwrap(note2).text(UIFixtures.catalog.strings(for: .english)).hasPrefix("Offline: using the copy saved"))
        XCTAssertEqual(cache.bodyReads, 0)

        // A 304 with no copy prepared (another program, a cleared cache): the saved body is
        // parsed and prepared under its own fingerprint.
        prepared.saved.removeAll()
        f.responses = [.success(FetchResponse(status: 304, body: []))]
        _ = try DocumentLoader.load(source: url, fetcher: f, cache: cache, prepared: prepared, options: ReadOptions(), now: when).0.get()
        XCTAssertEqual(cache.bodyReads, 1)
        XCTAssertEqual(prepared.saved.keys.sorted(), ["\(url) \(fingerprint)"])
    }

    func testAChangedDownloadIsParsedNotTheCopy() throws {
        let cache = CountingCache()
        let prepared = FakePrepared()
        let f = FakeFetcher([.success(FetchResponse(status: 200, body: body, etag: "\"v1\"", lastModified: nil))])
        _ = try DocumentLoader.load(source: url, fetcher: f, cache: cache, prepared: prepared, options: ReadOptions(), now: when).0.get()
        var changed = body
        let at = try XCTUnwrap(changed.firstIndex(of: UInt8(ascii: "{")))
        changed.insert(contentsOf: Array(" ".utf8), at: at + 1)
        f.responses = [.success(FetchResponse(status: 200, body: changed, etag: "\"v2\"", lastModified: nil))]
        _ = try DocumentLoader.load(source: url, fetcher: f, cache: cache, prepared: prepared, options: ReadOptions(), now: when).0.get()
        XCTAssertEqual(prepared.opened, 0, "a 200 is always parsed")
        XCTAssertEqual(Set(prepared.saved.keys), ["\(url) \(CachedValidators.fingerprint(body))", "\(url) \(CachedValidators.fingerprint(changed))"])
    }
}

/// Files the fetcher maps (`Fetching.mapDocument`) and a cache whose saved bodies are among
/// them, as the file cache's are on disk.
private final class MappingFetcher: Fetching, @unchecked Sendable {
    let inner: FakeFetcher
    var files: [String: [UInt8]] = [:]
    private(set) var mapped: [String] = []
    init(_ inner: FakeFetcher) { self.inner = inner }
    func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError> { inner.fetch(request) }
    func mapDocument(_ url: String, maxBytes: Int) -> Result<JSONBytes, FetchError>? {
        guard let bytes = files[url] else { return nil }
        mapped.append(url)
        return .success(JSONBytes(bytes))
    }
}

private final class FileBackedCache: DocumentCaching, @unchecked Sendable {
    let fetcher: MappingFetcher
    var docs: [String: CachedDocument] = [:]
    /// What the saved file holds, when it is not what was stored (another writer).
    var overwrite: [UInt8]?
    init(_ fetcher: MappingFetcher) { self.fetcher = fetcher }
    func cached(for url: String) -> CachedDocument? { docs[url] }
    func store(_ doc: CachedDocument, for url: String) {
        docs[url] = doc
        fetcher.files["/cache/\(url.count)"] = overwrite ?? doc.body
    }
    func savedBodyPath(for url: String) -> String? { docs[url] == nil ? nil : "/cache/\(url.count)" }
}

extension DocumentLoaderTests {
    /// A cache that keeps files but stages no download: the body came whole into memory, so it
    /// is read from there and stored only once read (issue 45: the saved copy is replaced only
    /// by an answer read whole); the same museum as with any other cache.
    func testADownloadHeldInMemoryIsStoredOnlyOnceRead() throws {
        let f = MappingFetcher(FakeFetcher([.success(FetchResponse(status: 200, body: body, etag: "\"v1\"", lastModified: nil))]))
        let cache = FileBackedCache(f)
        let fromMemory = try DocumentLoader.load(source: url, fetcher: f, cache: cache, prepared: FakePrepared(), options: ReadOptions(), now: when).0.get()
        XCTAssertEqual(f.mapped, [], "not mapped: the body is in memory")
        XCTAssertEqual(cache.docs[url]?.etag, "\"v1\"")
        let inMemory = try DocumentLoader.load(
            source: url, fetcher: FakeFetcher([.success(FetchResponse(status: 200, body: body, etag: "\"v1\"", lastModified: nil))]), cache: MemoryCache(),
            options: ReadOptions(), now: when
        ).0.get()
        XCTAssertEqual(fromMemory.data, inMemory.data)
        f.inner.responses = [.success(FetchResponse(status: 200, body: Array("<html>".utf8), etag: "\"bad\"", lastModified: nil))]
        XCTAssertEqual(try DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: when).0.get().data, inMemory.data)
        XCTAssertEqual(cache.docs[url]?.etag, "\"v1\"", "the bad answer was not stored")
    }
}

/// A fetcher that downloads to "files" (`Fetching.download`) and a cache that stages them,
/// as `CurlFetcher` and `FileDocumentCache` do on disk.
private final class StreamingFetcher: Fetching, @unchecked Sendable {
    let inner: FakeFetcher
    var files: [String: [UInt8]] = [:]
    private(set) var fetched = 0
    private(set) var mapped: [String] = []
    init(_ inner: FakeFetcher) { self.inner = inner }
    func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError> {
        fetched += 1
        return inner.fetch(request)
    }
    func download(_ request: FetchRequest, to path: String) -> Result<FetchResponse, FetchError>? {
        inner.fetch(request).map { r in
            guard r.status != 304 else { return r }
            files[path] = r.body
            var streamed = r
            streamed.body = []
            streamed.saved = SavedBody(bytes: r.body.count, fnv1a64: FNV1a.hash64(r.body))
            return streamed
        }
    }
    func mapDocument(_ url: String, maxBytes: Int) -> Result<JSONBytes, FetchError>? {
        guard let bytes = files[url] else { return nil }
        mapped.append(url)
        return .success(JSONBytes(bytes))
    }
}

private final class StagingCache: DocumentCaching, @unchecked Sendable {
    let fetcher: StreamingFetcher
    var metas: [String: (etag: String?, lastModified: String?, fetchedAt: Double, saved: SavedBody)] = [:]
    private(set) var stores = 0
    private(set) var discarded: [String] = []
    init(_ fetcher: StreamingFetcher) { self.fetcher = fetcher }
    func body(_ url: String) -> String { "/cache/\(url.count)" }
    func cached(for url: String) -> CachedDocument? {
        guard let m = metas[url], let bytes = fetcher.files[body(url)] else { return nil }
        return CachedDocument(body: bytes, etag: m.etag, lastModified: m.lastModified, fetchedAt: m.fetchedAt)
    }
    func store(_ doc: CachedDocument, for url: String) { stores += 1 }
    func validators(for url: String) -> CachedValidators? {
        guard let m = metas[url] else { return nil }
        return CachedValidators(etag: m.etag, lastModified: m.lastModified, fetchedAt: m.fetchedAt, fingerprint: "bytes=\(m.saved.bytes) fnv1a64=\(FNV1a.hex(m.saved.fnv1a64))")
    }
    func savedBodyPath(for url: String) -> String? { metas[url] == nil ? nil : body(url) }
    func stagingPath(for url: String) -> String? { "/cache/staged-\(url.count)" }
    func adopt(_ staged: String, saved: SavedBody, etag: String?, lastModified: String?, fetchedAt: Double, for url: String) -> Bool {
        guard let bytes = fetcher.files.removeValue(forKey: staged), bytes.count == saved.bytes else { return false }
        fetcher.files[body(url)] = bytes
        metas[url] = (etag, lastModified, fetchedAt, saved)
        return true
    }
    func discard(_ staged: String) { discarded.append(staged) }
}

extension DocumentLoaderTests {
    /// Issue 30: over http(s) the body goes to the cache's file as it arrives and the museum is
    /// read from there, never from a body held in memory; the same museum as a download held
    /// whole; a 304 discards the staging file and reads the copy.
    func testADownloadIsStreamedToTheCacheAndReadFromThere() throws {
        let f = StreamingFetcher(FakeFetcher([.success(FetchResponse(status: 200, body: body, etag: "\"v1\"", lastModified: nil))]))
        let cache = StagingCache(f)
        let prepared = FakePrepared()
        let streamed = try DocumentLoader.load(source: url, fetcher: f, cache: cache, prepared: prepared, options: ReadOptions(), now: when).0.get()
        XCTAssertEqual(f.fetched, 0, "not fetched into memory")
        XCTAssertEqual(cache.stores, 0, "the body was never handed to the cache whole")
        // Issue 45: read from the staged download, made the saved copy once read whole.
        XCTAssertEqual(f.mapped.count, 1, "read from the downloaded file")
        XCTAssertTrue(f.mapped.first?.contains("staged") == true, "\(f.mapped)")
        XCTAssertNotNil(f.files[cache.body(url)], "then the saved copy")
        XCTAssertEqual(cache.metas[url]?.etag, "\"v1\"")
        XCTAssertEqual(Set(prepared.saved.keys), ["\(url) \(CachedValidators.fingerprint(body))"], "the copy is prepared from the saved body")
        let inMemory = try DocumentLoader.load(
            source: url, fetcher: FakeFetcher([.success(FetchResponse(status: 200, body: body, etag: "\"v1\"", lastModified: nil))]), cache: MemoryCache(),
            options: ReadOptions(), now: when
        ).0.get()
        XCTAssertEqual(streamed.data, inMemory.data)

        f.inner.responses = [.success(FetchResponse(status: 304, body: []))]
        let again = try DocumentLoader.load(source: url, fetcher: f, cache: cache, options: ReadOptions(), now: when).0.get()
        XCTAssertEqual(cache.discarded, [cache.stagingPath(for: url)!])
        XCTAssertEqual(again.data, inMemory.data)
    }
}

/// A cache in memory that counts how often a body is read, and answers validators without it.
private final class CountingCache: DocumentCaching, @unchecked Sendable {
    var docs: [String: CachedDocument] = [:]
    var bodyReads = 0
    func cached(for url: String) -> CachedDocument? {
        bodyReads += 1
        return docs[url]
    }
    func store(_ doc: CachedDocument, for url: String) { docs[url] = doc }
    func validators(for url: String) -> CachedValidators? {
        docs[url].map { CachedValidators(etag: $0.etag, lastModified: $0.lastModified, fetchedAt: $0.fetchedAt, fingerprint: CachedValidators.fingerprint($0.body)) }
    }
}

/// Copies in memory, by source and a generation that stands for the file's state.
private final class FakePrepared: PreparedCopying, @unchecked Sendable {
    var generation = 1
    var saved: [String: AppData] = [:]
    var opened = 0
    func ticket(for source: String, options: ReadOptions) -> PreparedTicket? {
        PreparedTicket(source: source, identity: "\(source)#\(generation)")
    }
    func ticket(forRemote url: String, fingerprint: String, options: ReadOptions) -> PreparedTicket? {
        PreparedTicket(source: url, identity: "\(url) \(fingerprint)")
    }
    func open(_ ticket: PreparedTicket) -> AppData? {
        guard let app = saved[ticket.identity] else { return nil }
        opened += 1
        return app
    }
    func save(_ app: AppData, for ticket: PreparedTicket) { saved[ticket.identity] = app }
}

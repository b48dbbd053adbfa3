import DocentCore
import Foundation

/// Floor-plan rasters on disk, keyed by the plan's URL **and** its content (a hash of the
/// PDF bytes) and the resolution, never by file name alone: a changed plan under the same name
/// gets a new raster (the AIC iOS app's bug, spec §h.19). An HTTP ETag is kept per URL
/// so an unchanged plan costs a 304 and no PDF work.
public struct PlanCache: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// `$XDG_CACHE_HOME/docent/maps`, else `~/.cache/docent/maps`.
    public static func defaultDirectory(environment env: [String: String]) -> String {
        var base = env["XDG_CACHE_HOME"] ?? ""
        if !base.hasPrefix("/") { base = (env["HOME"] ?? NSTemporaryDirectory()) + "/.cache" }
        return base + "/docent/maps"
    }

    /// 64-bit FNV-1a, as 16 hex digits (content keys; not for security).
    public static func hash(_ bytes: some Sequence<UInt8>) -> String { FNV1a.hex64(bytes) }

    func rasterPath(url: String, contentHash: String, pixelsPerPoint: Double) -> String {
        "\(directory)/plan-\(Self.hash(Array(url.utf8)))-\(contentHash)-\(Int((pixelsPerPoint * 100).rounded())).raster"
    }

    func etagPath(url: String) -> String { "\(directory)/etag-\(Self.hash(Array(url.utf8))).txt" }

    func failurePath(url: String, contentHash: String, pixelsPerPoint: Double) -> String {
        "\(directory)/plan-\(Self.hash(Array(url.utf8)))-\(contentHash)-\(Int((pixelsPerPoint * 100).rounded())).failed"
    }

    /// Why this plan (URL and content) could not be drawn before, when it could not (issue 45:
    /// a plan that takes an hour was tried again at every start).
    public func failure(url: String, contentHash: String, pixelsPerPoint: Double) -> String? {
        guard let d = FileManager.default.contents(atPath: failurePath(url: url, contentHash: contentHash, pixelsPerPoint: pixelsPerPoint)) else { return nil }
        return String(decoding: d.prefix(1000), as: UTF8.self)
    }

    /// Remembers that this plan cannot be drawn, and why. A changed plan has another content
    /// hash and is tried afresh.
    public func storeFailure(_ message: String, url: String, contentHash: String, pixelsPerPoint: Double) {
        write(Array(message.utf8.prefix(1000)), to: failurePath(url: url, contentHash: contentHash, pixelsPerPoint: pixelsPerPoint))
    }

    /// The raster stored for this URL and content, if any and readable.
    public func raster(url: String, contentHash: String, pixelsPerPoint: Double) -> PlanRaster? {
        guard let d = FileManager.default.contents(atPath: rasterPath(url: url, contentHash: contentHash, pixelsPerPoint: pixelsPerPoint)) else { return nil }
        return Self.decode([UInt8](d))
    }

    /// Stores a raster (atomically; a failure only costs the cache).
    public func store(_ raster: PlanRaster, url: String, contentHash: String, pixelsPerPoint: Double) {
        write(Self.encode(raster), to: rasterPath(url: url, contentHash: contentHash, pixelsPerPoint: pixelsPerPoint))
    }

    /// The ETag last seen for a URL (empty when the server sent none) and the content hash
    /// of the plan last fetched from it (what stands in offline).
    public func etag(url: String) -> (etag: String, contentHash: String)? {
        guard let d = FileManager.default.contents(atPath: etagPath(url: url)) else { return nil }
        let lines = String(decoding: d, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2, lines[1].count == 16 else { return nil }
        return (lines[0], lines[1])
    }

    public func storeEtag(_ etag: String, contentHash: String, url: String) {
        guard !etag.contains("\n") else { return }
        write(Array("\(etag)\n\(contentHash)\n".utf8), to: etagPath(url: url))
    }

    private func write(_ bytes: [UInt8], to path: String) {
        let fm = FileManager.default
        try? fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let tmp = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        guard fm.createFile(atPath: tmp, contents: Data(bytes)) else { return }
        if rename(tmp, path) != 0 { try? fm.removeItem(atPath: tmp) }
    }

    // File format: a text header line, a source line, then width × height grey bytes.
    // Version 2: the plan's printed text is taken off (`PlanText`); a version-1 file still has
    // it, so it is not read (the plan is rasterised again, offline too once it is fetched).
    static let magic = "DOCENT-PLAN 2"

    static func encode(_ r: PlanRaster) -> [UInt8] {
        let header = "\(magic) \(r.width) \(r.height) \(r.origin.x) \(r.origin.y) \(r.pixelsPerPoint)\n\(r.source.replacingOccurrences(of: "\n", with: " "))\n"
        return Array(header.utf8) + r.pixels
    }

    static func decode(_ d: [UInt8]) -> PlanRaster? {
        guard let nl1 = d.firstIndex(of: 10), let nl2 = d[(nl1 + 1)...].firstIndex(of: 10) else { return nil }
        let f = String(decoding: d[..<nl1], as: UTF8.self).split(separator: " ").map(String.init)
        guard f.count == 7, "\(f[0]) \(f[1])" == magic, let w = Int(f[2]), let h = Int(f[3]), let x = Double(f[4]), let y = Double(f[5]),
            let s = Double(f[6]), w > 0, h > 0, d.count - (nl2 + 1) == w * h
        else { return nil }
        let source = String(decoding: d[(nl1 + 1)..<nl2], as: UTF8.self)
        return PlanRaster(width: w, height: h, pixels: Array(d[(nl2 + 1)...]), origin: PlanPoint(x: x, y: y), pixelsPerPoint: s, source: source)
    }
}

/// Fetch → cache → rasterise, for one floor plan. Blocking: run it off the UI thread.
public struct PlanLoader: Sendable {
    public let fetcher: Fetching
    public let cache: PlanCache?
    /// Where poppler runs: a process of its own per plan, with a time limit (the guide), or
    /// this one (nil: tests and benchmarks).
    public let worker: PlanWorker?

    public init(fetcher: Fetching, cache: PlanCache?, worker: PlanWorker? = nil) {
        self.fetcher = fetcher
        self.cache = cache
        self.worker = worker
    }

    /// Why a plan could not be drawn: what a visitor is told (`problem`) and the detail for
    /// the log (`message`).
    public struct Failure: Error, Equatable, Sendable {
        public let problem: FetchProblem
        public let message: String
        public init(_ problem: FetchProblem, _ message: String) {
            self.problem = problem
            self.message = message
        }
    }

    /// The plan at `url`, trimmed, at `pixelsPerPoint`. When the server cannot be reached, the
    /// raster made from the plan last fetched (kept with its ETag) is used: a plan seen once
    /// works offline.
    public func load(url: String, pixelsPerPoint: Double) -> Result<PlanRaster, Failure> {
        loadSayingWhence(url: url, pixelsPerPoint: pixelsPerPoint).result
    }

    /// `load`, and whether the raster is the copy saved earlier because the server could not
    /// be reached (the map says so).
    public func loadSayingWhence(url: String, pixelsPerPoint: Double) -> (result: Result<PlanRaster, Failure>, savedCopy: Bool) {
        let known = cache?.etag(url: url)
        var request = FetchRequest(url: url, timeoutSeconds: 30, maxBytes: 64 * 1024 * 1024)
        request.etag = known.flatMap { $0.etag.isEmpty ? nil : $0.etag }
        let response: FetchResponse
        switch fetcher.fetch(request) {
        case .success(let r): response = r
        case .failure(let e):
            if Self.isOffline(e), let k = known, let saved = cache?.raster(url: url, contentHash: k.contentHash, pixelsPerPoint: pixelsPerPoint) {
                return (.success(saved), true)
            }
            return (.failure(Failure(FetchProblem(e), e.description)), false)
        }
        if response.status == 304, let k = known, let r = cache?.raster(url: url, contentHash: k.contentHash, pixelsPerPoint: pixelsPerPoint) {
            return (.success(r), false)
        }
        guard response.status != 304 else {
            // The server says unchanged but the raster is gone: ask again without the ETag.
            request.etag = nil
            guard case .success(let again) = fetcher.fetch(request) else { return (.failure(Failure(.unreachable, "\(url): could not fetch the plan again")), false) }
            return (rasterise(again, url: url, pixelsPerPoint: pixelsPerPoint), false)
        }
        return (rasterise(response, url: url, pixelsPerPoint: pixelsPerPoint), false)
    }

    /// The network failed (not the server's answer): a saved copy stands in.
    static func isOffline(_ e: FetchError) -> Bool {
        switch e {
        case .unreachable, .timedOut, .other: return true
        case .http, .fileNotFound, .tooLarge: return false
        }
    }

    func rasterise(_ response: FetchResponse, url: String, pixelsPerPoint: Double) -> Result<PlanRaster, Failure> {
        let bytes = response.body
        let contentHash = PlanCache.hash(bytes)
        let name = URL(fileURLWithPath: url).lastPathComponent
        cache?.storeEtag(response.etag ?? "", contentHash: contentHash, url: url)
        if let r = cache?.raster(url: url, contentHash: contentHash, pixelsPerPoint: pixelsPerPoint) { return .success(r) }
        // A plan that could not be drawn is not tried again until it changes.
        if let why = cache?.failure(url: url, contentHash: contentHash, pixelsPerPoint: pixelsPerPoint) {
            return .failure(Failure(.unreadable, "\(name): \(why) (as when it was last tried)"))
        }
        let source = "\(url)#\(contentHash)"
        let result: Result<PlanRaster, Failure>
        if let worker {
            switch worker.rasterise(pdf: bytes, pixelsPerPoint: pixelsPerPoint, source: source) {
            case .success(let r): result = .success(r)
            case .failure(.notRun(let why)): return .failure(Failure(.unreadable, "\(name): \(why)"))
            case .failure(let f): result = .failure(Failure(.unreadable, "\(name): \(f.message)"))
            }
        } else {
            result = PopplerRasterizer.rasterise(pdf: bytes, pixelsPerPoint: pixelsPerPoint, source: source)
                .mapError { Failure(.unreadable, "\(name): \($0.message)") }
        }
        switch result {
        case .success(let r): cache?.store(r, url: url, contentHash: contentHash, pixelsPerPoint: pixelsPerPoint)
        case .failure(let f):
            cache?.storeFailure(String(f.message.dropFirst(name.count + 2)), url: url, contentHash: contentHash, pixelsPerPoint: pixelsPerPoint)
        }
        return result
    }
}

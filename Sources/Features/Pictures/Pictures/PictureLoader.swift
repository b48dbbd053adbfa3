import DocentCore
import Foundation

/// Picture files on disk, by URL: the bytes last fetched and their ETag, so an unchanged
/// picture costs a 304 and the guide shows its pictures offline. Files:
/// `<directory>/<hash>.img` and `<hash>.meta` (the URL, the ETag, a checksum of the bytes).
public struct PictureCache: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// `$XDG_CACHE_HOME/docent/pictures`, else `~/.cache/docent/pictures`.
    public static func defaultDirectory(environment env: [String: String]) -> String {
        var base = env["XDG_CACHE_HOME"] ?? ""
        if !base.hasPrefix("/") { base = (env["HOME"] ?? NSTemporaryDirectory()) + "/.cache" }
        return base + "/docent/pictures"
    }

    /// 64-bit FNV-1a as 16 hex digits (file names and checksums; not for security).
    static func hash(_ bytes: some Sequence<UInt8>) -> String { FNV1a.hex64(bytes) }

    private func stem(_ url: String) -> String { "\(directory)/\(Self.hash(Array(url.utf8)))" }

    /// The bytes kept for `url` and their ETag, if both files are there and agree.
    public func cached(url: String) -> (bytes: [UInt8], etag: String?)? {
        guard let meta = FileManager.default.contents(atPath: stem(url) + ".meta"),
            let body = FileManager.default.contents(atPath: stem(url) + ".img")
        else { return nil }
        let lines = String(decoding: meta, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let bytes = [UInt8](body)
        guard lines.count >= 3, lines[0] == url, lines[2] == Self.hash(bytes) else { return nil }
        return (bytes, lines[1].isEmpty ? nil : lines[1])
    }

    /// Keeps `bytes` for `url` (atomically; a failure only costs the cache).
    public func store(_ bytes: [UInt8], etag: String?, url: String) {
        guard !url.contains("\n"), !(etag ?? "").contains("\n") else { return }
        let fm = FileManager.default
        try? fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The body first: until the new meta lands, the old checksum rejects the new body.
        write(bytes, to: stem(url) + ".img")
        write(Array("\(url)\n\(etag ?? "")\n\(Self.hash(bytes))\n".utf8), to: stem(url) + ".meta")
    }

    private func write(_ bytes: [UInt8], to path: String) {
        let tmp = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.createFile(atPath: tmp, contents: Data(bytes)) else { return }
        if rename(tmp, path) != 0 { try? FileManager.default.removeItem(atPath: tmp) }
    }
}

/// Why a picture is not shown: a message a visitor can read, and whether the picture simply
/// is not there (no such file, HTTP 404 or 410) or cannot be reached now (offline, no copy
/// kept), which the guide does not make a fuss about.
public struct PictureFailure: Error, Equatable, Sendable {
    public let message: String
    public let missing: Bool
    public init(_ message: String, missing: Bool = false) {
        self.message = message
        self.missing = missing
    }
}

/// Fetch (revalidating the cached copy) → decode → draw, for one picture. Blocking: run it
/// off the loop thread.
public struct PictureLoader: Sendable {
    public let fetcher: Fetching
    public let cache: PictureCache?

    public init(fetcher: Fetching, cache: PictureCache?) {
        self.fetcher = fetcher
        self.cache = cache
    }

    /// The bytes of the picture at `url`: fetched (a 304 or an unreachable server uses the
    /// cached copy), or why not.
    public func bytes(url: String) -> Result<[UInt8], PictureFailure> {
        let remote = url.hasPrefix("http://") || url.hasPrefix("https://")
        let known = remote ? cache?.cached(url: url) : nil
        var request = FetchRequest(url: url, timeoutSeconds: 30, maxBytes: PictureDecoder.maxFileBytes)
        request.etag = known?.etag
        switch fetcher.fetch(request) {
        case .success(let r) where r.status == 304:
            if let k = known { return .success(k.bytes) }
            request.etag = nil
            guard case .success(let again) = fetcher.fetch(request), again.status == 200 else {
                return .failure(PictureFailure("\(url): could not fetch the picture again"))
            }
            if remote { cache?.store(again.body, etag: again.etag, url: url) }
            return .success(again.body)
        case .success(let r):
            if remote { cache?.store(r.body, etag: r.etag, url: url) }
            return .success(r.body)
        case .failure(let e):
            // No network: the copy kept last time.
            if let k = known { return .success(k.bytes) }
            switch e {
            case .tooLarge:
                return .failure(PictureFailure("the picture is larger than \(PictureDecoder.maxFileBytes / (1024 * 1024)) MB; pictures that large are not shown"))
            case .fileNotFound, .http(404, _), .http(410, _), .unreachable, .timedOut:
                return .failure(PictureFailure(e.description, missing: true))
            default:
                return .failure(PictureFailure(e.description))
            }
        }
    }

    /// The decoded pixels of the picture at `url`, or why not (`keepGoing`: see `PictureDecoder.decode`).
    /// `maxSide`: the largest side the picture is drawn at, in pixels.
    public func pixels(url: String, maxSide: Int = PictureDecoder.maxSide, keepGoing: () -> Bool = { true }) -> Result<PixelRaster, PictureFailure> {
        bytes(url: url).flatMap { PictureDecoder.decode($0, maxSide: maxSide, keepGoing: keepGoing).mapError { PictureFailure($0.message) } }
    }

    /// Pixels enough for chafa's symbols in `columns × rows` cells (8 × 16 a cell).
    static func symbolSide(columns: Int, rows: Int) -> Int {
        min(PictureDecoder.maxSide, max(16, max(min(columns, 1000) * 8, min(rows, 1000) * 16)))
    }

    /// The picture at `url` in at most `columns × rows` cells, or a message a visitor can read.
    public func load(url: String, columns: Int, rows: Int, depth: PictureMode.ColourDepth, keepGoing: () -> Bool = { true }) -> Result<Picture, PictureFailure> {
        let raster: PixelRaster
        switch pixels(url: url, maxSide: Self.symbolSide(columns: columns, rows: rows), keepGoing: keepGoing) {
        case .success(let r): raster = r
        case .failure(let f): return .failure(f)
        }
        guard let picture = ChafaRenderer.render(raster, columns: columns, rows: rows, depth: depth) else {
            return .failure(PictureFailure("chafa could not draw the picture"))
        }
        return .success(picture)
    }

    /// The picture at `url` as an image for `kind`, in at most `columns × rows` cells of
    /// `cell` pixels, or a message a visitor can read.
    public func loadGraphic(
        url: String, columns: Int, rows: Int, kind: GraphicsProtocol, cell: (width: Int, height: Int), keepGoing: () -> Bool = { true }
    ) -> Result<Picture, PictureFailure> {
        let raster: PixelRaster
        let side = max(min(columns, 1000) * max(1, min(cell.width, 100)), min(rows, 1000) * max(1, min(cell.height, 100)))
        switch pixels(url: url, maxSide: min(PictureDecoder.maxSide, max(16, side)), keepGoing: keepGoing) {
        case .success(let r): raster = r
        case .failure(let f): return .failure(f)
        }
        let g = GraphicRenderer.geometry(width: raster.width, height: raster.height, columns: columns, rows: rows, cell: cell)
        let data: [UInt8]?
        switch kind {
        case .kitty, .iterm2: data = GraphicRenderer.png(raster, width: g.pixels.width, height: g.pixels.height)
        case .sixel: data = GraphicRenderer.sixel(raster, columns: g.columns, rows: g.rows, cell: cell)
        }
        guard let data, let picture = Picture(
            columns: g.columns, rows: g.rows,
            graphic: GraphicImage(kind: kind, id: GraphicImage.id(url: url, columns: columns, rows: rows), data: data))
        else { return .failure(PictureFailure("the picture could not be made into an image for the terminal")) }
        return .success(picture)
    }
}

import CGdkPixbuf
import CLazyLibs
import DocentCore
import Foundation
import Pictures
import XCTest

/// The picture adapter on real files made here: JPEG and PNG written by GdkPixbuf's own
/// encoders, and hostile ones (truncated, an HTML page named .jpg, a PNG header claiming
/// 20,000 × 20,000 pixels, too many bytes); chafa's grid for them; the disk cache offline.
final class PicturesTests: XCTestCase {
    /// A `width × height` image, left half red, right half blue, as `type` ("png", "jpeg").
    static func encoded(_ type: String, width: Int = 64, height: Int = 48) throws -> [UInt8] {
        // GdkPixbuf's functions here are CLazyLibs' (the library opened on first use).
        guard docent_lazy_load(DOCENT_LAZY_PICTURES) != 0 else { throw Failure(String(cString: docent_lazy_error(DOCENT_LAZY_PICTURES))) }
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, gint(width), gint(height)) else { throw Failure("no pixbuf") }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let p = gdk_pixbuf_get_pixels(pixbuf)!
        for y in 0..<height {
            for x in 0..<width {
                let o = y * stride + x * 3
                (p[o], p[o + 1], p[o + 2]) = x < width / 2 ? (220, 20, 20) : (20, 20, 220)
            }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, type, nil, nil, &error) != 0, let buffer else {
            throw Failure("cannot encode \(type)")
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    func decoded(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> PixelRaster {
        switch PictureDecoder.decode(bytes) {
        case .success(let r): return r
        case .failure(let f): throw Failure("not decoded: \(f.message)")
        }
    }

    func failure(_ bytes: [UInt8]) -> String? {
        if case .failure(let f) = PictureDecoder.decode(bytes) { return f.message }
        return nil
    }

    func testJPEGAndPNGDecodeToTheirPixels() throws {
        // WebP through Debian's webp-pixbuf-loader (scripts/deps.sh), which also encodes it.
        for type in ["png", "jpeg", "webp"] {
            let r = try decoded(try Self.encoded(type))
            XCTAssertEqual([r.width, r.height], [64, 48], type)
            XCTAssertEqual(r.rgba.count, 64 * 48 * 4)
            // Left half red, right half blue (JPEG within its loss).
            let left = Array(r.rgba[(24 * 64 + 8) * 4..<(24 * 64 + 8) * 4 + 3]), right = Array(r.rgba[(24 * 64 + 56) * 4..<(24 * 64 + 56) * 4 + 3])
            XCTAssertGreaterThan(Int(left[0]), 180, type)
            XCTAssertLessThan(Int(left[2]), 60, type)
            XCTAssertGreaterThan(Int(right[2]), 180, type)
            XCTAssertLessThan(Int(right[0]), 60, type)
        }
    }

    func testATruncatedWebPIsAMessage() throws {
        let webp = try Self.encoded("webp", width: 300, height: 200)
        XCTAssertEqual(PictureDecoder.sniff(webp), .success(.webp))
        XCTAssertEqual(failure(Array(webp.prefix(webp.count - 10))), "the WebP picture is incomplete (\(webp.count - 10) of \(webp.count) bytes); it may have been cut off while downloading")
    }

    func testATruncatedJPEGIsAMessage() throws {
        let jpeg = try Self.encoded("jpeg", width: 300, height: 200)
        let message = failure(Array(jpeg.prefix(jpeg.count / 2)))
        XCTAssertNotNil(message)
        XCTAssertTrue(message?.contains("JPEG") ?? false, message ?? "")
        XCTAssertEqual(message, "the JPEG picture is incomplete (no end marker); it may have been cut off while downloading")
        XCTAssertNotNil(failure(Array(jpeg.prefix(4))), "only the magic bytes")
        let png = try Self.encoded("png", width: 300, height: 200)
        XCTAssertEqual(failure(Array(png.prefix(png.count - 20))), "the PNG picture is incomplete (no IEND chunk); it may have been cut off while downloading")
    }

    /// `bytes` through libjpeg-turbo's `jpegtran` with `arguments` (a real progressive JPEG).
    static func jpegtran(_ arguments: [String], _ bytes: [UInt8]) throws -> [UInt8] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("docent-jpegtran-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.jpg"), output = dir.appendingPathComponent("out.jpg")
        try Data(bytes).write(to: input)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/jpegtran")
        p.arguments = arguments + ["-outfile", output.path, input.path]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw Failure("jpegtran failed (\(p.terminationStatus)); apt-get install libjpeg-turbo-progs") }
        return [UInt8](try Data(contentsOf: output))
    }

    /// Issue 34: a progressive JPEG of thousands of scans (each makes GdkPixbuf decode the
    /// whole image again: one such file kept a core busy for ten minutes) is refused at once.
    func testAJPEGOfThousandsOfScansIsRefusedBeforeDecoding() throws {
        let progressive = try Self.jpegtran(["-progressive"], try Self.encoded("jpeg", width: 320, height: 240))
        XCTAssertNotNil(try? decoded(progressive), "an ordinary progressive JPEG decodes")
        // Its last scan again 3,000 times, before the end marker (libjpeg only warns).
        var lastScan = progressive.count - 2
        while lastScan > 0, !(progressive[lastScan] == 0xFF && progressive[lastScan + 1] == 0xDA) { lastScan -= 1 }
        let scan = Array(progressive[lastScan..<(progressive.count - 2)])
        var hostile = Array(progressive[..<(progressive.count - 2)])
        for _ in 0..<3_000 { hostile += scan }
        hostile += [0xFF, 0xD9]
        let scans = PictureDecoder.scans(hostile, over: 0) ?? 0
        XCTAssertGreaterThan(scans, 3_000)
        XCTAssertEqual(
            failure(hostile),
            "the JPEG picture is made of \(scans) scans; pictures of more than \(PictureDecoder.maxScans) are not shown (they take minutes to decode)")
    }

    /// A decode asks whether to go on between pieces: no (the page changed, the time is up)
    /// stops it with a message.
    func testADecodeStopsWhenItIsNoLongerWanted() throws {
        let jpeg = try Self.encoded("jpeg", width: 320, height: 240)
        var asked = 0
        let result = PictureDecoder.decode(jpeg) {
            asked += 1
            return false
        }
        guard case .failure(let f) = result else { return XCTFail("decoded although told to stop") }
        XCTAssertEqual(f.message, "the JPEG picture was not finished: it took too long or is no longer wanted")
        XCTAssertEqual(asked, 1)
    }

    func testAnHTMLPageNamedJPGIsNamed() {
        let html = Array("\n<!DOCTYPE html><html><head><title>404</title></head><body>Not found</body></html>".utf8)
        XCTAssertEqual(failure(html), "not a picture but a web page (HTML)")
        XCTAssertEqual(failure(Array("GIF? no: plain text".utf8)), "not a JPEG, PNG or WebP picture")
        XCTAssertEqual(failure([]), "the picture is empty")
    }

    /// A PNG whose header claims 20,000 × 20,000 pixels (1.6 GB decoded) is refused from the
    /// header, at once, without allocating it.
    func testAHugePNGIsRefusedFromItsHeader() {
        let start = Date()
        let message = failure(Self.pngHeader(width: 20000, height: 20000))
        XCTAssertEqual(message, "the picture is 20000 × 20000 pixels; PNG pictures over 16 million pixels are not shown")
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    /// Issue 45: 7000 × 7000 GIFs of 37 KB each took 196 MB each (GdkPixbuf decodes a GIF or
    /// PNG whole before scaling it), 3.46 GB for a page of search results. A GIF, PNG or WebP
    /// over 16 million pixels is refused from its header; a JPEG (scaled while decoded) is not.
    func testAHugeGIFOrPNGIsRefusedFromItsHeaderAndAJPEGIsScaled() throws {
        let gif = Self.gif(width: 7000, height: 7000)
        XCTAssertLessThan(gif.count, 40_000, "a few KB that declare 49 million pixels")
        let start = Date()
        XCTAssertEqual(failure(gif), "the picture is 7000 × 7000 pixels; GIF pictures over 16 million pixels are not shown")
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "from the header, not after a decode")
        XCTAssertEqual(failure(try Self.filled("png", width: 7000, height: 7000)), "the picture is 7000 × 7000 pixels; PNG pictures over 16 million pixels are not shown")
        // A GIF whose screen is small but whose image is large is measured by its image.
        var sneaky = gif
        (sneaky[6], sneaky[7], sneaky[8], sneaky[9]) = (10, 0, 10, 0)
        XCTAssertEqual(failure(sneaky), "the picture is 7000 × 7000 pixels; GIF pictures over 16 million pixels are not shown")
        let jpeg = try decoded(try Self.filled("jpeg", width: 7000, height: 7000))
        XCTAssertEqual([jpeg.width, jpeg.height], [1024, 1024])
        let small = try decoded(Self.gif(width: 3000, height: 2000))
        XCTAssertEqual([small.width, small.height], [1024, 683])
        XCTAssertEqual(Array(small.rgba.prefix(4)), [255, 255, 255, 255])
    }

    /// A picture is decoded at the size it is drawn at (chafa: 8 × 16 pixels a cell).
    func testAPictureIsDecodedAtTheSizeDrawn() throws {
        let jpeg = try Self.encoded("jpeg", width: 2048, height: 1024)
        guard case .success(let r) = PictureDecoder.decode(jpeg, maxSide: 200) else { return XCTFail("decode") }
        XCTAssertEqual([r.width, r.height], [200, 100])
        let dir = NSTemporaryDirectory() + "docent-drawn-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(try Self.encoded("png", width: 3000, height: 1500)).write(to: URL(fileURLWithPath: dir + "/p.png"))
        let loader = PictureLoader(fetcher: FileFetcher(), cache: nil)
        guard case .success(let raster) = loader.pixels(url: dir + "/p.png", maxSide: 240) else { return XCTFail("pixels") }
        XCTAssertEqual([raster.width, raster.height], [240, 120])
    }

    /// Many decodes asked at once run two at a time; the others wait their turn, and give it
    /// up when they are no longer wanted.
    func testDecodesRunAFewAtATime() throws {
        let png = try Self.encoded("png", width: 2000, height: 2000)
        let group = DispatchGroup()
        let results = Results()
        for i in 0..<12 {
            group.enter()
            Thread.detachNewThread {
                let r = PictureDecoder.decode(png) { i < 8 }
                results.add(r)
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertLessThanOrEqual(PictureDecoder.mostAtOnce, PictureDecoder.maxConcurrentDecodes)
        XCTAssertGreaterThanOrEqual(results.decoded, 8)
        XCTAssertEqual(results.decoded + results.stopped, 12)
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var decoded = 0
        private(set) var stopped = 0
        func add(_ r: Result<PixelRaster, LoadFailure>) {
            lock.withLock {
                if case .success = r { decoded += 1 } else { stopped += 1 }
            }
        }
    }

    /// Reads local files for the loader (the guide's CurlFetcher is NetCurl's).
    struct FileFetcher: Fetching {
        func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError> {
            guard let d = FileManager.default.contents(atPath: request.url) else { return .failure(.fileNotFound(request.url)) }
            return .success(FetchResponse(status: 200, body: [UInt8](d)))
        }
    }

    /// A `width × height` image of one colour, as `type` ("png", "jpeg"), by GdkPixbuf.
    static func filled(_ type: String, width: Int, height: Int) throws -> [UInt8] {
        // GdkPixbuf's functions here are CLazyLibs' (the library opened on first use).
        guard docent_lazy_load(DOCENT_LAZY_PICTURES) != 0 else { throw Failure(String(cString: docent_lazy_error(DOCENT_LAZY_PICTURES))) }
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, gint(width), gint(height)) else { throw Failure("no pixbuf") }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0xFFFF_FFFF)
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, type, nil, nil, &error) != 0, let buffer else {
            throw Failure("cannot encode \(type)")
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }

    /// A `width × height` GIF of one colour, LZW-coded as giflib codes it (a clear code each
    /// time the table is full): 7000 × 7000 is about 33 KB.
    static func gif(width: Int, height: Int) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        var out = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0, 255, 255, 255, 0, 0, 0]
        out += [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [0, 2]
        var data: [UInt8] = []
        var acc = 0, count = 0, bits = 3, maxCode = 8, running = 6
        func emit(_ code: Int) {
            acc |= code << count
            count += bits
            while count >= 8 {
                data.append(UInt8(acc & 0xFF))
                acc >>= 8
                count -= 8
            }
            if running >= maxCode, bits < 12 {
                bits += 1
                maxCode = 1 << bits
            }
        }
        emit(4)
        var remaining = width * height, longest = 1
        while remaining > 0 {
            let run = min(longest, remaining)
            remaining -= run
            emit(run == 1 ? 0 : 6 + run - 2)
            guard remaining > 0 else { break }
            if running >= 4095 {
                emit(4)
                (running, bits, maxCode, longest) = (6, 3, 8, 1)
            } else {
                running += 1
                longest = run + 1
            }
        }
        emit(5)
        if count > 0 { data.append(UInt8(acc & 0xFF)) }
        var i = 0
        while i < data.count {
            let n = min(255, data.count - i)
            out += [UInt8(n)] + data[i..<(i + n)]
            i += n
        }
        return out + [0, 0x3B]
    }

    /// A PNG that declares 7000 × 7000 pixels and holds 3 rows (GdkPixbuf, scaling while it
    /// decodes, showed nothing and said nothing) is a message that says why.
    func testAPNGHoldingFewerRowsThanItDeclaresIsAMessage() {
        let message = failure(Self.pngRows(width: 7000, height: 7000, rows: 3))
        XCTAssertEqual(
            message, "the PNG picture is incomplete (its header says 7000 × 7000 pixels, but its image data holds at most 3096 of the 7000 rows); it may have been cut off while downloading")
        // The same file with every row present is not refused by the check (it is a plain
        // 300 × 200 image, all rows stored, so it decodes).
        XCTAssertNil(failure(Self.pngRows(width: 300, height: 200, rows: 200)))
    }

    /// An 8-bit RGB PNG declaring `width × height` whose image data holds `rows` grey rows,
    /// stored without compression (deflate's stored blocks, at most 65,535 bytes each).
    static func pngRows(width: Int, height: Int, rows: Int) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc32(body))
        }
        var raw: [UInt8] = []
        for _ in 0..<rows { raw += [0] + [UInt8](repeating: 128, count: width * 3) }
        var a: UInt32 = 1, b: UInt32 = 0
        for x in raw {
            a = (a + UInt32(x)) % 65521
            b = (b + a) % 65521
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, raw.count - offset)
            let last: UInt8 = offset + n == raw.count ? 1 : 0
            zlib += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)] + raw[offset..<(offset + n)]
            offset += n
        } while offset < raw.count
        zlib += be(b << 16 | a)
        let ihdr = be(UInt32(width)) + be(UInt32(height)) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    func testTooManyBytesAreRefusedBeforeDecoding() {
        let big = [UInt8]([0xFF, 0xD8, 0xFF]) + [UInt8](repeating: 0, count: PictureDecoder.maxFileBytes)
        XCTAssertEqual(failure(big), "the picture is 20 MB; pictures larger than 20 MB are not shown")
    }

    /// The signature, an IHDR chunk (8-bit RGB) and an IDAT of a few zero bytes.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc32(body))
        }
        let ihdr = be(width) + be(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    func testALargePictureIsScaledDownWhileDecoding() throws {
        let r = try decoded(try Self.encoded("jpeg", width: 2048, height: 1024))
        XCTAssertEqual([r.width, r.height], [1024, 512])
    }

    /// chafa fits the picture inside the cells asked, shape kept (cells twice as tall as wide),
    /// and colours the red half red and the blue half blue in every depth.
    func testChafaDrawsTheHalvesInTheirColours() throws {
        let raster = try decoded(try Self.encoded("png", width: 64, height: 32))
        let true24 = try XCTUnwrap(ChafaRenderer.render(raster, columns: 20, rows: 20, depth: .truecolor))
        XCTAssertEqual([true24.columns, true24.rows], [20, 5])
        func colour(_ c: PictureCell) -> PictureColour? { c.symbol == " " ? c.background : c.foreground ?? c.background }
        XCTAssertEqual(colour(true24[2, 2]), .rgb(220, 20, 20))
        XCTAssertEqual(colour(true24[17, 2]), .rgb(20, 20, 220))
        let i256 = try XCTUnwrap(ChafaRenderer.render(raster, columns: 20, rows: 5, depth: .indexed256))
        XCTAssertEqual(i256.cells.count, 100)
        XCTAssertTrue(i256.cells.allSatisfy { c in [c.foreground, c.background].allSatisfy { if case .rgb? = $0 { return false } else { return true } } })
        XCTAssertNotEqual(colour(i256[2, 2]), colour(i256[17, 2]))
        let none = try XCTUnwrap(ChafaRenderer.render(raster, columns: 20, rows: 5, depth: .none))
        XCTAssertTrue(none.cells.allSatisfy { $0.foreground == nil && $0.background == nil })
        XCTAssertNil(ChafaRenderer.render(raster, columns: 0, rows: 5, depth: .truecolor))
    }

    // MARK: The loader: fetch, revalidate, offline

    final class ScriptedFetcher: Fetching, @unchecked Sendable {
        var answers: [Result<FetchResponse, FetchError>]
        var requests: [FetchRequest] = []
        init(_ answers: [Result<FetchResponse, FetchError>]) { self.answers = answers }
        func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError> {
            requests.append(request)
            return answers.isEmpty ? .failure(.unreachable(url: request.url, reason: "offline")) : answers.removeFirst()
        }
    }

    func testTheLoaderRevalidatesAndWorksOffline() throws {
        let dir = NSTemporaryDirectory() + "docent-pictures-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let png = try Self.encoded("png")
        let url = "https://example.org/iiif/1/full/843,/0/default.jpg"
        let fetcher = ScriptedFetcher([.success(FetchResponse(status: 200, body: png, etag: "\"v1\"")), .success(FetchResponse(status: 304, body: []))])
        let loader = PictureLoader(fetcher: fetcher, cache: PictureCache(directory: dir))
        guard case .success(let first) = loader.load(url: url, columns: 16, rows: 8, depth: .truecolor) else { return XCTFail("first load") }
        guard case .success(let second) = loader.load(url: url, columns: 16, rows: 8, depth: .truecolor) else { return XCTFail("revalidated load") }
        XCTAssertEqual(fetcher.requests.map(\.etag), [nil, "\"v1\""])
        XCTAssertEqual(first, second)
        // Offline: the kept copy.
        guard case .success(let third) = loader.load(url: url, columns: 16, rows: 8, depth: .truecolor) else { return XCTFail("offline load") }
        XCTAssertEqual(first, third)
        // Another URL, offline and never fetched: the fetch error, as a message.
        guard case .failure(let f) = loader.load(url: "https://example.org/other.jpg", columns: 16, rows: 8, depth: .truecolor) else { return XCTFail("no copy") }
        XCTAssertEqual(f, PictureFailure("cannot reach https://example.org/other.jpg: offline", missing: true))
        // A picture that is not there at all is said to be missing (the guide shows nothing).
        let gone = PictureLoader(fetcher: ScriptedFetcher([.failure(.http(status: 404, url: url))]), cache: nil)
        guard case .failure(let g) = gone.load(url: url, columns: 16, rows: 8, depth: .truecolor) else { return XCTFail("404") }
        XCTAssertEqual(g, PictureFailure("HTTP 404 from \(url)", missing: true))
    }

    func testALocalFileIsReadAndNotCached() throws {
        let dir = NSTemporaryDirectory() + "docent-pictures-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fetcher = ScriptedFetcher([.success(FetchResponse(status: 200, body: try Self.encoded("jpeg")))])
        let loader = PictureLoader(fetcher: fetcher, cache: PictureCache(directory: dir))
        guard case .success = loader.load(url: "/museum/pictures/a.jpg", columns: 10, rows: 5, depth: .indexed16) else { return XCTFail("load") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir))
    }

    // MARK: Graphics protocols

    /// kitty and iTerm2 get a PNG of the picture at the pixels of the cells it takes (shape
    /// kept); it decodes back to that size, red on the left, blue on the right.
    func testAnImageForKittyIsAPNGOfTheCellsItTakes() throws {
        let fetcher = ScriptedFetcher([.success(FetchResponse(status: 200, body: try Self.encoded("jpeg")))])
        let loader = PictureLoader(fetcher: fetcher, cache: nil)
        guard case .success(let p) = loader.loadGraphic(url: "/museum/pictures/a.jpg", columns: 40, rows: 10, kind: .kitty, cell: (10, 20)) else {
            return XCTFail("no image")
        }
        let image = try XCTUnwrap(p.graphic)
        XCTAssertEqual(image.kind, .kitty)
        XCTAssertEqual(image.id, GraphicImage.id(url: "/museum/pictures/a.jpg", columns: 40, rows: 10))
        // 64 × 48 pixels in cells of 10 × 20: 10 rows high is 200 pixels, so 267 wide, 27 cells (or so).
        XCTAssertEqual(p.rows, 10)
        XCTAssertEqual(Double(p.columns), 26.7, accuracy: 1)
        XCTAssertEqual(Array(image.data.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "PNG")
        let back = try decoded(image.data)
        XCTAssertEqual([back.width, back.height], [p.columns * 10, p.rows * 20])
        XCTAssertGreaterThan(Int(back.rgba[(100 * back.width + 20) * 4]), 180, "red on the left")
        XCTAssertGreaterThan(Int(back.rgba[(100 * back.width + back.width - 20) * 4 + 2]), 180, "blue on the right")
        XCTAssertTrue(p.cells.allSatisfy { $0 == PictureCell(" ") }, "the cells under it are blank")
    }

    /// Sixel: chafa's sequence (DCS … q … ST) with its palette and bands.
    func testAnImageForSixelIsChafasSequence() throws {
        let fetcher = ScriptedFetcher([.success(FetchResponse(status: 200, body: try Self.encoded("png")))])
        let loader = PictureLoader(fetcher: fetcher, cache: nil)
        guard case .success(let p) = loader.loadGraphic(url: "/museum/pictures/a.png", columns: 20, rows: 6, kind: .sixel, cell: (8, 16)) else {
            return XCTFail("no image")
        }
        let text = String(decoding: try XCTUnwrap(p.graphic).data, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}P"), "a DCS")
        XCTAssertTrue(text.contains("q"), "sixel data")
        XCTAssertTrue(text.contains("#0;2;") || text.contains(";2;"), "a palette in RGB")
        XCTAssertTrue(text.hasSuffix("\u{1B}\\"), "ends with ST")
        XCTAssertLessThanOrEqual(p.columns, 20)
        XCTAssertEqual(p.rows, 6)
    }

    /// A picture that cannot be read is a message in a graphics mode too.
    func testAHostileFileIsAMessageForTheGraphicsModes() {
        let html = Array("<!doctype html><html><body>Not found</body></html>".utf8)
        for kind in GraphicsProtocol.allCases {
            let loader = PictureLoader(fetcher: ScriptedFetcher([.success(FetchResponse(status: 200, body: html))]), cache: nil)
            guard case .failure(let f) = loader.loadGraphic(url: "/museum/a.jpg", columns: 20, rows: 6, kind: kind, cell: (8, 16)) else {
                return XCTFail("\(kind): an HTML page drew")
            }
            XCTAssertTrue(f.message.contains("HTML"), f.message)
        }
    }
}


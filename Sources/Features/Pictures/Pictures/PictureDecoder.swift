import CGdkPixbuf
import DocentCore
import Foundation

/// Decoded pixels: `width × height` RGBA, 8 bits a channel, rows `width × 4` bytes apart.
public struct PixelRaster: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let rgba: [UInt8]
}

/// Decodes JPEG, PNG and WebP with GdkPixbuf (a thin adapter: it translates, it does not
/// decide). Hostile input is a message, never a stall or a crash: the file size is checked
/// first, the kind is recognised by its first bytes (an HTML error page saved as `.jpg` is
/// named as such), and the pixel count is checked from the header before any pixels are
/// decoded (GdkPixbuf says the size before it allocates; a refused size stops the decoder).
public enum PictureDecoder {
    /// The largest file decoded.
    public static let maxFileBytes = 20 * 1024 * 1024
    /// The most pixels an image may declare (about 7,000 × 7,000).
    public static let maxPixels = 50_000_000
    /// Larger images are scaled down while decoding to at most this many pixels a side
    /// (more than a terminal can show).
    public static let maxSide = 1024

    /// The most scans a JPEG may have. A progressive JPEG from any encoder has about ten; each
    /// scan makes GdkPixbuf decode the whole image again, so a file of 20,000 tiny scans kept a
    /// core busy for over ten minutes (libjpeg-turbo's own tools have `-maxscans` for this).
    public static let maxScans = 100

    /// How long one decode may take before it is given up.
    public static let maxSeconds = 10.0

    /// The most pixels a PNG, GIF or WebP may declare (4096 × 4096). GdkPixbuf decodes those
    /// whole before it scales them (only JPEG is scaled while decoding): a 7000 × 7000 GIF of
    /// 37 KB took 196 MB, and a page of search results 3.46 GB (issue 45).
    public static let maxUnscaledPixels = 4096 * 4096

    /// Decodes at once, in the whole process: the others wait their turn (and give it up when
    /// they are no longer wanted), so memory is a few decodes' worth whatever the page asks.
    public static let maxConcurrentDecodes = 2
    private static let turns = DispatchSemaphore(value: maxConcurrentDecodes)
    private static let active = Counter()

    /// The most decodes that ran at once since the program started (for tests and the log).
    public static var mostAtOnce: Int { active.most }

    /// What the first bytes say the file is.
    public enum Kind: String, Sendable { case jpeg = "JPEG", png = "PNG", webp = "WebP", gif = "GIF" }

    /// The kind of image `bytes` starts like, or why it is not one.
    public static func sniff(_ bytes: [UInt8]) -> Result<Kind, LoadFailure> {
        func starts(_ p: [UInt8], at o: Int = 0) -> Bool { bytes.count >= o + p.count && Array(bytes[o..<(o + p.count)]) == p }
        if starts([0xFF, 0xD8, 0xFF]) { return .success(.jpeg) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .success(.png) }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .success(.webp) }
        if starts(Array("GIF8".utf8)) { return .success(.gif) }
        if bytes.isEmpty { return .failure(LoadFailure("the picture is empty")) }
        let head = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        let trimmed = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") || (trimmed.hasPrefix("<") && head.contains("<body")) {
            return .failure(LoadFailure("not a picture but a web page (HTML)"))
        }
        return .failure(LoadFailure("not a JPEG, PNG or WebP picture"))
    }

    /// Pixels of `bytes`, scaled down to `maxSide` if larger; or a message a visitor can read.
    /// `keepGoing` is asked between pieces of the file (about every 16 KiB): false stops the
    /// decode (the page changed, or its time is up). Decodes on several threads run at once
    /// (each has a loader of its own; GdkPixbuf locks the loaders that are not thread-safe
    /// itself), so one slow picture never holds the others.
    ///
    /// `maxSide` is the largest side drawn (at most `PictureDecoder.maxSide`): the picture is
    /// decoded at that size where the decoder can (GdkPixbuf's at-scale loading), and scaled to
    /// it otherwise. At most `maxConcurrentDecodes` run at once; the others wait, asking
    /// `keepGoing` while they do.
    public static func decode(_ bytes: [UInt8], maxSide: Int = PictureDecoder.maxSide, keepGoing: () -> Bool = { true }) -> Result<PixelRaster, LoadFailure> {
        guard bytes.count <= maxFileBytes else {
            return .failure(LoadFailure("the picture is \(bytes.count / (1024 * 1024)) MB; pictures larger than \(maxFileBytes / (1024 * 1024)) MB are not shown"))
        }
        if let missing = ChafaRenderer.librariesMissing { return .failure(LoadFailure(missing)) }
        let kind: Kind
        switch sniff(bytes) {
        case .success(let k): kind = k
        case .failure(let f): return .failure(f)
        }
        if let missing = incomplete(bytes, kind) {
            return .failure(LoadFailure("the \(kind.rawValue) picture is incomplete (\(missing)); it may have been cut off while downloading"))
        }
        if kind == .jpeg, let n = scans(bytes, over: maxScans) {
            return .failure(LoadFailure("the JPEG picture is made of \(n) scans; pictures of more than \(maxScans) are not shown (they take minutes to decode)"))
        }
        if kind != .jpeg, let (w, h) = declaredSize(bytes, kind), w * h > maxUnscaledPixels {
            return .failure(LoadFailure("the picture is \(w) × \(h) pixels; \(kind.rawValue) pictures over \(maxUnscaledPixels / 1_000_000) million pixels are not shown"))
        }
        // A turn, or give up waiting for one when the picture is no longer wanted.
        while turns.wait(timeout: .now() + 0.05) == .timedOut {
            guard keepGoing() else { return .failure(LoadFailure("the \(kind.rawValue) picture was not finished: it took too long or is no longer wanted")) }
        }
        _ = active.enter()
        defer {
            active.leave()
            turns.signal()
        }
        guard let loader = gdk_pixbuf_loader_new() else { return .failure(LoadFailure("GdkPixbuf could not start")) }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let gate = SizeGate()
        gate.kind = kind
        gate.maxSide = max(16, min(maxSide, Self.maxSide))
        let userData = Unmanaged.passUnretained(gate).toOpaque()
        let callback: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, gint, gint, gpointer?) -> Void = { loader, w, h, data in
            guard let data else { return }
            let gate = Unmanaged<SizeGate>.fromOpaque(data).takeUnretainedValue()
            gate.width = Int(w)
            gate.height = Int(h)
            let (pixels, overflow) = Int(w).multipliedReportingOverflow(by: Int(h))
            let limit = gate.kind == .jpeg ? PictureDecoder.maxPixels : PictureDecoder.maxUnscaledPixels
            if w <= 0 || h <= 0 || overflow || pixels > limit {
                gate.refused = true
                // A zero size makes every GdkPixbuf loader stop before allocating the image.
                gdk_pixbuf_loader_set_size(loader, 0, 0)
                return
            }
            let side = max(Int(w), Int(h))
            if side > gate.maxSide {
                let scale = Double(gate.maxSide) / Double(side)
                gdk_pixbuf_loader_set_size(loader, gint(max(1, (Double(w) * scale).rounded())), gint(max(1, (Double(h) * scale).rounded())))
            }
        }
        g_signal_connect_data(UnsafeMutableRawPointer(loader), "size-prepared", unsafeBitCast(callback, to: GCallback.self), userData, nil, GConnectFlags(rawValue: 0))
        var error: UnsafeMutablePointer<GError>?
        // Fed in pieces, so a refused size stops the work at once.
        var offset = 0
        var failed: String?
        var stopped = false
        let chunk = 16 * 1024
        while offset < bytes.count, failed == nil, !gate.refused {
            guard keepGoing() else {
                stopped = true
                break
            }
            let n = min(chunk, bytes.count - offset)
            let ok = bytes.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress! + offset, gsize(n), &error) }
            if ok == 0 { failed = take(&error) ?? "the \(kind.rawValue) picture is damaged" }
            offset += n
        }
        let closed = gdk_pixbuf_loader_close(loader, &error)
        let closeError = take(&error)
        withExtendedLifetime(gate) {}
        if stopped { return .failure(LoadFailure("the \(kind.rawValue) picture was not finished: it took too long or is no longer wanted")) }
        if gate.refused {
            let limit = kind == .jpeg ? maxPixels : maxUnscaledPixels
            return .failure(LoadFailure("the picture is \(gate.width) × \(gate.height) pixels; \(kind == .jpeg ? "" : kind.rawValue + " ")pictures over \(limit / 1_000_000) million pixels are not shown"))
        }
        if let failed { return .failure(LoadFailure("the \(kind.rawValue) picture cannot be read (\(failed))")) }
        if closed == 0 {
            return .failure(LoadFailure("the \(kind.rawValue) picture is incomplete or damaged (\(closeError ?? "GdkPixbuf could not finish it"))"))
        }
        guard let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            return .failure(LoadFailure("the \(kind.rawValue) picture has no pixels"))
        }
        return copy(pixbuf)
    }

    /// Width and height from the header of a PNG (IHDR), GIF (logical screen, and every
    /// image descriptor is within it or larger) or WebP (VP8X, VP8L, VP8), when they can be
    /// read; GdkPixbuf's size callback checks them again.
    static func declaredSize(_ b: [UInt8], _ kind: Kind) -> (Int, Int)? {
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        func le16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        func le24(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 }
        switch kind {
        case .png:
            guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
            return (be32(16), be32(20))
        case .gif:
            guard b.count >= 10 else { return nil }
            var w = le16(6), h = le16(8)
            // Image descriptors may be larger than the screen; GdkPixbuf then grows to them.
            var i = 13
            if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
            while i < b.count {
                switch b[i] {
                case 0x2C:
                    guard i + 10 <= b.count else { return (w, h) }
                    w = max(w, le16(i + 1) + le16(i + 5))
                    h = max(h, le16(i + 3) + le16(i + 7))
                    var j = i + 10
                    if b[i + 9] & 0x80 != 0 { j += 3 << (Int(b[i + 9] & 7) + 1) }
                    j += 1  // LZW minimum code size
                    while j < b.count, b[j] != 0 { j += Int(b[j]) + 1 }
                    i = j + 1
                case 0x21:
                    var j = i + 2
                    while j < b.count, b[j] != 0 { j += Int(b[j]) + 1 }
                    i = j + 1
                default:
                    return (w, h)
                }
            }
            return (w, h)
        case .webp:
            guard b.count >= 30 else { return nil }
            switch String(decoding: b[12..<16], as: UTF8.self) {
            case "VP8X": return (le24(24) + 1, le24(27) + 1)
            case "VP8L":
                let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
                return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            case "VP8 ": return (le16(26) & 0x3FFF, le16(28) & 0x3FFF)
            default: return nil
            }
        case .jpeg:
            return nil
        }
    }

    /// What is missing from the end of a file cut short, or nil. GdkPixbuf shows a JPEG cut
    /// in half as its top half (grey below) without an error, so the ends are checked here: a
    /// JPEG's end marker (FF D9) after its last scan (FF DA; inside a scan FF is always
    /// followed by 00 or a restart marker), a PNG's IEND chunk, a WebP's RIFF length.
    static func incomplete(_ b: [UInt8], _ kind: Kind) -> String? {
        switch kind {
        case .jpeg:
            var lastScan: Int?
            var i = b.count - 2
            while i >= 0 {
                if b[i] == 0xFF, b[i + 1] == 0xDA { lastScan = i; break }
                i -= 1
            }
            guard let scan = lastScan else { return "no image data" }
            var j = scan + 2
            while j + 1 < b.count {
                if b[j] == 0xFF, b[j + 1] == 0xD9 { return nil }
                j += 1
            }
            return "no end marker"
        case .png:
            let iend: [UInt8] = Array("IEND".utf8)
            guard b.count >= 12 else { return "no IEND chunk" }
            for i in stride(from: b.count - 8, through: 8, by: -1) where Array(b[i..<(i + 4)]) == iend { return pngTooShort(b) }
            return "no IEND chunk"
        case .webp:
            guard b.count >= 12 else { return "no RIFF length" }
            let length = Int(b[4]) | Int(b[5]) << 8 | Int(b[6]) << 16 | Int(b[7]) << 24
            return b.count >= 8 + length ? nil : "\(b.count) of \(8 + length) bytes"
        case .gif:
            return b.last == 0x3B ? nil : "no trailer"
        }
    }

    /// A PNG whose image data cannot hold the rows its header declares, said as a visitor can
    /// read it; nil when it may. GdkPixbuf shows such a file (7000 × 7000 declared, 3 rows
    /// sent) as nothing at all, without an error, once it is scaled while decoding. Deflate
    /// expands at most 1032 times (a 258-byte match in 2 bits), so image data of N bytes holds
    /// at most 1032·N bytes of rows: fewer than the header needs is certainly too short, and a
    /// complete file, however plain, never is.
    static func pngTooShort(_ b: [UInt8]) -> String? {
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        guard b.count >= 33, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        let width = be32(16), height = be32(20)
        let depth = Int(b[24])
        let channels: Int
        switch b[25] {
        case 0, 3: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        // Too large a picture is refused for its size, with that message, before decoding.
        guard width > 0, height > 0, width <= 1 << 20, height <= 1 << 20, width * height <= maxPixels, depth > 0 else { return nil }
        var data = 0
        var i = 8
        while i + 8 <= b.count {
            let length = be32(i)
            if Array(b[(i + 4)..<(i + 8)]) == Array("IDAT".utf8) { data += length }
            i += 12 + length
        }
        let rowBytes = (width * channels * depth + 7) / 8
        let rowsHeld = (data * 1032 + 1032) / (rowBytes + 1)
        guard rowsHeld < height else { return nil }
        return "its header says \(width) × \(height) pixels, but its image data holds at most \(rowsHeld) of the \(height) rows"
    }

    /// The number of scans (SOS markers) in a JPEG when it is more than `limit`, else nil.
    /// Inside a scan's data FF is always followed by 00 or a restart marker, so FF DA is a scan.
    public static func scans(_ b: [UInt8], over limit: Int) -> Int? {
        var n = 0
        var i = 0
        let end = b.count - 1
        while i < end {
            if b[i] == 0xFF, b[i + 1] == 0xDA { n += 1 }
            i += 1
        }
        return n > limit ? n : nil
    }

    /// The message of a GError, freed.
    private static func take(_ error: inout UnsafeMutablePointer<GError>?) -> String? {
        guard let e = error else { return nil }
        defer {
            g_error_free(e)
            error = nil
        }
        return e.pointee.message.map { String(cString: $0) }
    }

    /// The pixbuf's pixels as RGBA rows without padding.
    private static func copy(_ pixbuf: OpaquePointer) -> Result<PixelRaster, LoadFailure> {
        let w = Int(gdk_pixbuf_get_width(pixbuf)), h = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let bits = Int(gdk_pixbuf_get_bits_per_sample(pixbuf))
        guard w > 0, h > 0, bits == 8, channels == 3 || channels == 4, stride >= w * channels,
            let src = gdk_pixbuf_read_pixels(pixbuf)
        else { return .failure(LoadFailure("the picture's pixels are in a form Docent does not read")) }
        var out = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            let row = src + y * stride
            for x in 0..<w {
                let s = row + x * channels, d = (y * w + x) * 4
                out[d] = s[0]
                out[d + 1] = s[1]
                out[d + 2] = s[2]
                if channels == 4 { out[d + 3] = s[3] }
            }
        }
        return .success(PixelRaster(width: w, height: h, rgba: out))
    }
}

/// Decodes running now, and the most there ever were.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private var highest = 0
    var most: Int { lock.withLock { highest } }
    func enter() -> Int {
        lock.withLock {
            now += 1
            highest = max(highest, now)
            return now
        }
    }
    func leave() { lock.withLock { now -= 1 } }
}

/// What the decoder said about the size, seen from the size-prepared callback.
private final class SizeGate {
    var width = 0
    var height = 0
    var refused = false
    var kind = PictureDecoder.Kind.jpeg
    var maxSide = PictureDecoder.maxSide
}

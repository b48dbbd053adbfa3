import CLazyLibs
import CPoppler
import DocentCore
import Foundation

/// Rasterises page 1 of a floor-plan PDF with poppler-glib onto a cairo image surface, in two
/// passes: a small overview of the whole page finds the building (`PlanTrim`), then only that
/// part of the page is rendered at the resolution asked for. The AIC plans draw the building
/// in the middle fifth of a 2400 × 2400 pt page, so the second pass is a small part of the
/// page. A thin adapter: what counts as content is decided in the core.
public enum PopplerRasterizer {
    /// Overview resolution for finding the content (pixels per point).
    public static let overviewScale = 0.2
    /// Margin kept around the content, in points.
    public static let padding = 24.0
    /// The largest raster made, in pixels; the scale is lowered to fit (a plan with no
    /// margin at all would otherwise be 4800 × 4800 at 2 px/pt).
    public static let maxPixels = 12_000_000
    /// The largest page side accepted, in points (about 70 m; the PDF format's own limit is
    /// 14,400 units). A bigger page is a broken file, not a plan.
    public static let maxPageSide = 200_000.0
    /// The overview never exceeds this many pixels, whatever the page size.
    public static let maxOverviewPixels = 2_000_000.0

    /// Timings of the last steps, for the benchmark.
    public struct Timing: Sendable {
        public var open: Double = 0
        public var overview: Double = 0
        public var render: Double = 0
        public var index: Double = 0
        public init() {}
    }

    /// poppler and cairo calls from several threads are serialised: one plan at a time.
    private static let lock = NSLock()

    /// The trimmed plan of page 1 at `pixelsPerPoint`.
    public static func rasterise(pdf: [UInt8], pixelsPerPoint: Double, source: String = "") -> Result<PlanRaster, LoadFailure> {
        var t = Timing()
        return rasterise(pdf: pdf, pixelsPerPoint: pixelsPerPoint, source: source, timing: &t)
    }

    public static func rasterise(pdf: [UInt8], pixelsPerPoint: Double, source: String, timing: inout Timing) -> Result<PlanRaster, LoadFailure> {
        // poppler is opened the first time a plan is drawn, not at every start (issue 48).
        guard docent_lazy_load(DOCENT_LAZY_POPPLER) != 0 else {
            return .failure(LoadFailure("the floor plans cannot be drawn: \(String(cString: docent_lazy_error(DOCENT_LAZY_POPPLER))) (install libpoppler-glib8)"))
        }
        lock.lock()
        defer { lock.unlock() }
        var clock = Date()
        func lap() -> Double {
            let now = Date()
            defer { clock = now }
            return now.timeIntervalSince(clock)
        }
        guard !pdf.isEmpty else { return .failure(LoadFailure("the floor plan is empty")) }
        let page: PDFPage
        switch PDFPage.open(pdf) {
        case .success(let p): page = p
        case .failure(let f): return .failure(f)
        }
        timing.open = lap()
        let (pw, ph) = page.size
        guard pw.isFinite, ph.isFinite, pw > 0, ph > 0 else { return .failure(LoadFailure("the PDF page has no size")) }
        guard pw <= maxPageSide, ph <= maxPageSide else {
            return .failure(LoadFailure(String(
                format: "the PDF page is %.6g × %.6g points; a floor plan is at most %.0f points a side", pw, ph, maxPageSide)))
        }

        // Pass 1: a small overview of the whole page, to find the building.
        let os = min(overviewScale, (maxOverviewPixels / (pw * ph)).squareRoot())
        let ow = max(8, Int((pw * os).rounded())), oh = max(8, Int((ph * os).rounded()))
        guard let overview = page.render(x: 0, y: 0, width: ow, height: oh, scale: Double(ow) / pw) else {
            return .failure(LoadFailure("cairo could not make a \(ow)×\(oh) image"))
        }
        let box = PlanTrim.contentRect(pixels: overview, width: ow, height: oh, pageWidth: pw, pageHeight: ph, padding: padding)
        timing.overview = lap()

        // Pass 2: only the content box, at full resolution.
        var scale = max(0.01, pixelsPerPoint)
        if box.width * box.height * scale * scale > Double(maxPixels) {
            scale = (Double(maxPixels) / (box.width * box.height)).squareRoot()
        }
        let w = max(1, Int((box.width * scale).rounded(.up))), h = max(1, Int((box.height * scale).rounded(.up)))
        // Page coordinates for rendering have their origin top-left.
        guard var pixels = page.render(x: box.minX, y: ph - box.maxY, width: w, height: h, scale: scale) else {
            return .failure(LoadFailure("cairo could not make a \(w)×\(h) image"))
        }
        // The plan's printed text is taken off (the map writes its own labels): poppler says
        // where each glyph is, the core paints it over with the paper around it.
        let glyphs = page.textBoxes().map { r in
            PlanText.Box(
                x0: Int(((r.minX - box.minX) * scale).rounded(.down)), y0: Int(((r.minY - (ph - box.maxY)) * scale).rounded(.down)),
                x1: Int(((r.maxX - box.minX) * scale).rounded(.up)), y1: Int(((r.maxY - (ph - box.maxY)) * scale).rounded(.up)))
        }
        PlanText.clear(&pixels, width: w, height: h, boxes: glyphs)
        timing.render = lap()
        let raster = PlanRaster(width: w, height: h, pixels: pixels, origin: PlanPoint(x: box.minX, y: box.maxY), pixelsPerPoint: scale, source: source)
        timing.index = lap()
        return .success(raster)
    }
}

/// Page 1 of a PDF held by poppler (the document keeps its own copy of the bytes).
final class PDFPage {
    private let document: OpaquePointer
    private let page: OpaquePointer

    private init(document: OpaquePointer, page: OpaquePointer) {
        self.document = document
        self.page = page
    }

    /// Opens the document and its first page, or says why not (poppler's message).
    static func open(_ bytes: [UInt8]) -> Result<PDFPage, LoadFailure> {
        let gbytes = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(gbytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let doc = poppler_document_new_from_bytes(gbytes, nil, &error) else {
            var why = "not a readable PDF"
            if let e = error {
                if let m = e.pointee.message { why = "not a readable PDF (\(String(cString: m)))" }
                g_error_free(e)
            }
            return .failure(LoadFailure(why))
        }
        guard poppler_document_get_n_pages(doc) > 0, let p = poppler_document_get_page(doc, 0) else {
            g_object_unref(UnsafeMutableRawPointer(doc))
            return .failure(LoadFailure("the PDF has no pages"))
        }
        return .success(PDFPage(document: doc, page: p))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(page))
        g_object_unref(UnsafeMutableRawPointer(document))
    }

    /// Width and height in points.
    var size: (Double, Double) {
        var w = 0.0, h = 0.0
        poppler_page_get_size(page, &w, &h)
        return (w, h)
    }

    /// The box of every glyph of the page's text, in points from the top-left corner (what
    /// poppler lays out as text; a plan whose words were turned into outlines has none). Boxes
    /// that are not finite or too large to be a glyph are left out.
    func textBoxes() -> [PlanRect] {
        var rects: UnsafeMutablePointer<PopplerRectangle>?
        var n: guint = 0
        guard poppler_page_get_text_layout(page, &rects, &n) != 0, let rects else { return [] }
        defer { g_free(rects) }
        var out: [PlanRect] = []
        for i in 0..<Int(n) {
            let r = rects[i]
            guard [r.x1, r.y1, r.x2, r.y2].allSatisfy(\.isFinite) else { continue }
            let rect = PlanRect(minX: r.x1, minY: r.y1, maxX: r.x2, maxY: r.y2)
            guard rect.width > 0, rect.height > 0, rect.width < 500, rect.height < 500 else { continue }
            out.append(rect)
        }
        return out
    }

    /// Grey levels of the page area from (x, y) (points, top-left origin) at `scale` pixels
    /// per point, on white, `width × height` pixels, top row first.
    func render(x: Double, y: Double, width: Int, height: Int, scale: Double) -> [UInt8]? {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else { return nil }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_scale(cr, scale, scale)
        cairo_translate(cr, -x, -y)
        poppler_page_render(page, cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var out = [UInt8](repeating: 255, count: width * height)
        out.withUnsafeMutableBufferPointer { o in
            for row in 0..<height {
                let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
                for col in 0..<width {
                    let p = line[col]  // 0x00RRGGBB
                    let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                    o[row * width + col] = UInt8((r * 77 + g * 150 + b * 29) >> 8)
                }
            }
        }
        return out
    }
}

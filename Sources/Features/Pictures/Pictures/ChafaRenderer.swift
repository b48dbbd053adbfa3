import CLazyLibs
import CChafa
import DocentCore
import Foundation

/// Draws pixels as a grid of Unicode block symbols with colours, with chafa. The picture keeps
/// its shape (cells are taken as twice as tall as wide) and fits inside `columns × rows`.
public enum ChafaRenderer {
    /// chafa's canvases are not shared between threads; one picture at a time.
    private static let lock = NSLock()

    /// The cell size a `width × height` image takes inside `columns × rows`, shape kept.
    /// chafa and GdkPixbuf, opened the first time a picture is wanted rather than at every
    /// start (issue 48); nil when they are there, else why not.
    public static var librariesMissing: String? {
        docent_lazy_load(DOCENT_LAZY_PICTURES) != 0 ? nil : "pictures cannot be drawn: \(String(cString: docent_lazy_error(DOCENT_LAZY_PICTURES))) (install libchafa0 and libgdk-pixbuf-2.0-0)"
    }

    public static func fit(width: Int, height: Int, columns: Int, rows: Int, fontRatio: Double = 0.5) -> (columns: Int, rows: Int) {
        guard librariesMissing == nil else { return (min(columns, max(1, width)), min(rows, max(1, height))) }
        var w = gint(clamping: columns), h = gint(clamping: rows)
        chafa_calc_canvas_geometry(gint(clamping: width), gint(clamping: height), &w, &h, gfloat(fontRatio), 0, 0)
        return (max(1, Int(w)), max(1, Int(h)))
    }

    /// Runs `body` while no other thread uses chafa.
    /// (Its callers make sure the libraries are open: `librariesMissing`.)
    static func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// The picture of `raster` in at most `columns × rows` cells, in the colours of `depth`;
    /// nil when there is no room (or no pixels).
    public static func render(_ raster: PixelRaster, columns: Int, rows: Int, depth: PictureMode.ColourDepth) -> Picture? {
        guard columns > 0, rows > 0, raster.width > 0, raster.height > 0, raster.rgba.count == raster.width * raster.height * 4 else { return nil }
        guard librariesMissing == nil else { return nil }
        let (cw, ch) = fit(width: raster.width, height: raster.height, columns: columns, rows: rows)
        lock.lock()
        defer { lock.unlock() }
        guard let config = chafa_canvas_config_new() else { return nil }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, gint(cw), gint(ch))
        let mode: ChafaCanvasMode
        switch depth {
        case .truecolor: mode = CHAFA_CANVAS_MODE_TRUECOLOR
        case .indexed256: mode = CHAFA_CANVAS_MODE_INDEXED_240
        case .indexed16: mode = CHAFA_CANVAS_MODE_INDEXED_16
        case .none: mode = CHAFA_CANVAS_MODE_FGBG
        }
        chafa_canvas_config_set_canvas_mode(config, mode)
        guard let symbols = chafa_symbol_map_new() else { return nil }
        defer { chafa_symbol_map_unref(symbols) }
        // Blocks and spaces: narrow, and in every terminal font.
        var tags = CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue
        if depth == .none { tags |= CHAFA_SYMBOL_TAG_BORDER.rawValue | CHAFA_SYMBOL_TAG_ASCII.rawValue }
        chafa_symbol_map_add_by_tags(symbols, ChafaSymbolTags(rawValue: tags))
        chafa_symbol_map_remove_by_tags(symbols, CHAFA_SYMBOL_TAG_WIDE)
        chafa_canvas_config_set_symbol_map(config, symbols)
        guard let canvas = chafa_canvas_new(config) else { return nil }
        defer { chafa_canvas_unref(canvas) }
        raster.rgba.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, gint(raster.width), gint(raster.height), gint(raster.width * 4))
        }
        var cells: [PictureCell] = []
        cells.reserveCapacity(cw * ch)
        for y in 0..<ch {
            for x in 0..<cw {
                let c = chafa_canvas_get_char_at(canvas, gint(x), gint(y))
                var symbol = Unicode.Scalar(c).map { String(Character($0)) } ?? " "
                if TextWidth.width(symbol) != 1 { symbol = " " }
                var fg: gint = -1, bg: gint = -1
                var cell = PictureCell(symbol)
                switch depth {
                case .truecolor:
                    chafa_canvas_get_colors_at(canvas, gint(x), gint(y), &fg, &bg)
                    cell.foreground = packed(fg)
                    cell.background = packed(bg)
                case .indexed256, .indexed16:
                    chafa_canvas_get_raw_colors_at(canvas, gint(x), gint(y), &fg, &bg)
                    cell.foreground = (0..<256).contains(fg) ? .index(UInt8(fg)) : nil
                    cell.background = (0..<256).contains(bg) ? .index(UInt8(bg)) : nil
                case .none:
                    break
                }
                cells.append(cell)
            }
        }
        return Picture(columns: cw, rows: ch, cells: cells)
    }

    private static func packed(_ v: gint) -> PictureColour? {
        guard v >= 0 else { return nil }
        let u = UInt32(v)
        return .rgb(UInt8((u >> 16) & 0xFF), UInt8((u >> 8) & 0xFF), UInt8(u & 0xFF))
    }
}

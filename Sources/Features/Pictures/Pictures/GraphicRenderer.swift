import CLazyLibs
import CChafa
import CGdkPixbuf
import DocentCore
import Foundation

/// Makes the image a terminal graphics protocol draws: PNG bytes (GdkPixbuf scales and
/// encodes them) for kitty and iTerm2, a sixel sequence (chafa quantises and encodes it) for
/// sixel. The core's `GraphicsEscapes` frames and places them.
public enum GraphicRenderer {
    /// The longest side sent, in pixels (more than a figure box on a large screen needs).
    public static let maxSide = 2048

    /// The cells a `width × height` image takes inside `columns × rows` on a terminal whose
    /// cells are `cell` pixels, shape kept, and the pixels it is sent at.
    public static func geometry(width: Int, height: Int, columns: Int, rows: Int, cell: (width: Int, height: Int)) -> (columns: Int, rows: Int, pixels: (width: Int, height: Int)) {
        let ratio = Double(max(1, cell.width)) / Double(max(1, cell.height))
        let (c, r) = ChafaRenderer.fit(width: width, height: height, columns: columns, rows: rows, fontRatio: ratio)
        var pw = c * max(1, cell.width), ph = r * max(1, cell.height)
        let longest = max(pw, ph)
        if longest > maxSide {
            pw = max(1, pw * maxSide / longest)
            ph = max(1, ph * maxSide / longest)
        }
        return (c, r, (pw, ph))
    }

    /// `raster` scaled to `width × height` and encoded as PNG; nil if GdkPixbuf cannot.
    public static func png(_ raster: PixelRaster, width: Int, height: Int) -> [UInt8]? {
        guard raster.width > 0, raster.height > 0, width > 0, height > 0, raster.rgba.count == raster.width * raster.height * 4,
            ChafaRenderer.librariesMissing == nil
        else { return nil }
        return raster.rgba.withUnsafeBufferPointer { pixels -> [UInt8]? in
            guard let source = gdk_pixbuf_new_from_data(
                pixels.baseAddress, GDK_COLORSPACE_RGB, 1, 8, gint(raster.width), gint(raster.height), gint(raster.width * 4), nil, nil)
            else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(source)) }
            guard let scaled = gdk_pixbuf_scale_simple(source, gint(width), gint(height), GDK_INTERP_BILINEAR) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(scaled)) }
            var buffer: UnsafeMutablePointer<gchar>?
            var size: gsize = 0
            var error: UnsafeMutablePointer<GError>?
            guard gdk_pixbuf_save_to_bufferv(scaled, &buffer, &size, "png", nil, nil, &error) != 0, let buffer else {
                if let error { g_error_free(error) }
                return nil
            }
            defer { g_free(buffer) }
            return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(size)) { Array(UnsafeBufferPointer(start: $0, count: Int(size))) }
        }
    }

    /// `raster` as a sixel sequence filling `columns × rows` cells of `cell` pixels (chafa's
    /// palette and dithering); nil if chafa cannot.
    public static func sixel(_ raster: PixelRaster, columns: Int, rows: Int, cell: (width: Int, height: Int)) -> [UInt8]? {
        guard columns > 0, rows > 0, raster.width > 0, raster.height > 0, raster.rgba.count == raster.width * raster.height * 4 else { return nil }
        guard ChafaRenderer.librariesMissing == nil else { return nil }
        return ChafaRenderer.locked {
            guard let config = chafa_canvas_config_new() else { return nil }
            defer { chafa_canvas_config_unref(config) }
            chafa_canvas_config_set_geometry(config, gint(columns), gint(rows))
            chafa_canvas_config_set_cell_geometry(config, gint(max(1, cell.width)), gint(max(1, cell.height)))
            chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS)
            guard let canvas = chafa_canvas_new(config) else { return nil }
            defer { chafa_canvas_unref(canvas) }
            raster.rgba.withUnsafeBufferPointer {
                chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, gint(raster.width), gint(raster.height), gint(raster.width * 4))
            }
            guard let text = chafa_canvas_print(canvas, nil) else { return nil }
            defer { g_string_free(text, 1) }
            guard let str = text.pointee.str else { return nil }
            return str.withMemoryRebound(to: UInt8.self, capacity: Int(text.pointee.len)) { Array(UnsafeBufferPointer(start: $0, count: Int(text.pointee.len))) }
        }
    }
}

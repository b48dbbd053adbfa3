import CNcursesw
import CShims
import DocentUI

extension CursesBackend {
    /// Draws `screen`, writing only cells that differ from the last frame. The first frame,
    /// or one after a size change, is written in full. An unchanged frame writes nothing.
    public func draw(_ screen: Screen) { draw(screen, only: nil) }

    public func draw(_ screen: Screen, onlyRows rows: [Int]) { draw(screen, only: rows) }

    private func draw(_ screen: Screen, only rows: [Int]?) {
        guard isOpen else { return }
        let terminal = size
        let sameShape = previous.map { $0.width == screen.width && $0.height == screen.height } ?? false
        let full = !sameShape || previousTerminalSize != terminal
        if full { werase(window) }
        let width = min(screen.width, terminal.width)
        let height = min(screen.height, terminal.height)
        var wrote = full
        var changedRows = Set<Int>()
        // A page that scrolled goes out in two steps: the scroll first (`Screen.scrollStep`),
        // then what else changed. Only for a frame compared whole with the last.
        if !full, rows == nil, let last = self.previous, let step = screen.scrollStep(from: last) {
            if writeCells(step, against: last, rows: nil, width: width, height: height, changedRows: &changedRows) {
                wnoutrefresh(window)
                doupdate()
                wrote = true
                self.previous = step
            }
        }
        // The last frame once (not bound again for every cell: that retained its arrays
        // thousands of times a frame), and its rows that did not change skipped whole.
        let previous = full ? nil : self.previous
        if writeCells(screen, against: previous, rows: rows, width: width, height: height, changedRows: &changedRows) { wrote = true }
        // Images the terminal drew that are gone or moved: kitty's are taken off below; the
        // others are pixels on the terminal that only writing the cells again removes.
        let previousGraphics = previous?.graphics ?? []
        let gone = previousGraphics.filter { !screen.graphics.contains($0) }
        for g in gone where g.image.kind != .kitty {
            for y in max(0, g.rect.y)..<min(height, g.rect.maxY) {
                wredrawln(window, Int32(y), 1)
                changedRows.insert(y)
            }
            wrote = true
        }
        let previousLinks = self.previous?.links ?? []
        // Only `rows` changed: the frame kept takes them and is then this one. (Kept by holding
        // `screen` too, the loop's next draw into it would copy all of it.)
        let adopted = !full && rows.map { self.previous?.adopt(screen, changedRows: $0) ?? false } ?? false
        if !adopted { self.previous = screen }
        previousTerminalSize = terminal
        // Screen-reader mode: the cursor on the focus (moved only when it or the frame changed,
        // so an unchanged frame still writes nothing).
        var moved = false
        if screenReader, let f = screen.focus, f.x >= 0, f.y >= 0, f.x < width, f.y < height, full || wrote || f != previousFocus {
            _ = wmove(window, Int32(f.y), Int32(f.x))
            moved = f != previousFocus
        }
        if screenReader { previousFocus = screen.focus }
        if wrote || moved {
            wnoutrefresh(window)
            doupdate()
        }
        // Links, then cells in a picture's own colours, written again after ncurses.
        var spans = hyperlinks ? Hyperlinks.spans(previous: previousLinks, current: screen.links, changedRows: changedRows, full: full) : []
        spans += PaintedCells.spans(in: screen, changedRows: changedRows, full: full)
        writeRaw(Hyperlinks.escapes(for: spans, in: screen, visible: terminal, sgr: theme.palette.sgr))
        writeRaw(graphicsEscapes(screen, gone: gone, previous: previousGraphics, changedRows: changedRows, full: full, visible: terminal))
    }

    /// Writes into ncurses' window the cells of `screen` that differ from `old` (all of them
    /// without one), on `rows` only when given; notes the rows it wrote. Whether it wrote any.
    private func writeCells(_ screen: Screen, against old: Screen?, rows: [Int]?, width: Int, height: Int, changedRows: inout Set<Int>) -> Bool {
        var wrote = false
        let cells = screen.cells
        let old = old?.cells
        let stride = screen.width
        for y in 0..<height {
            let rowStart = y * stride
            if old != nil, let rows, !rows.contains(y) { continue }
            // A row said to have changed is compared cell by cell below only (compared whole
            // first, its cells were compared twice up to the first change, every second).
            if rows == nil, let old, old[rowStart..<rowStart + stride] == cells[rowStart..<rowStart + stride] { continue }
            for x in 0..<width {
                let i = rowStart + x
                let cell = cells[i]
                if cell.continuation { continue }
                let wide = x + 1 < stride && cells[i + 1].continuation
                // Unchanged, and so is its right half if it is wide (a wide character whose
                // second column was covered and is uncovered now must be written again whole).
                if let old, old[i] == cell, !wide || old[i + 1] == cells[i + 1] { continue }
                changedRows.insert(y)
                wrote = true
                // A cell in a picture's own colours is written after ncurses (below). ncurses is
                // given its row's stand-in there (`PaintedCells.standIn`, concealed): it then
                // knows something is in that cell, writes whatever replaces it, never clears or
                // scrolls over it unawares, and never takes a picture's row for another row
                // (issue 47 #6: it scrolled the terminal's rows to move text and took the
                // picture's cells along).
                if PaintedCells.isPainted(cell) {
                    let standIn = [wchar_t(bitPattern: PaintedCells.standIn(row: y).value)]
                    write(standIn, attrs: cs_A_INVIS(), pair: 0, x: x, y: y)
                    if wide, x + 1 < width { write(standIn, attrs: cs_A_INVIS(), pair: 0, x: x + 1, y: y) }
                    continue
                }
                put(cell, x: x, y: y, columns: wide ? (x + 1 < width ? 2 : 0) : 1)
            }
        }
        return wrote
    }

    /// The images to take off and to draw after this frame: kitty's placements off by id; new
    /// or moved images drawn (kitty's sent once, then placed by id); a sixel or iTerm2 image
    /// drawn again where ncurses wrote on its rows (it may have cleared to the end of a line).
    private func graphicsEscapes(_ screen: Screen, gone: [Screen.Graphic], previous: [Screen.Graphic], changedRows: Set<Int>, full: Bool, visible: Size) -> String {
        var out = ""
        if full && !kittyImages.isEmpty { out += GraphicsEscapes.kittyHideAll() }
        for g in gone where g.image.kind == .kitty && !screen.graphics.contains(where: { $0.image.id == g.image.id }) {
            out += GraphicsEscapes.kittyHide(id: g.image.id)
        }
        for g in screen.graphics where g.rect.x >= 0 && g.rect.y >= 0 && g.rect.maxX <= visible.width && g.rect.maxY < visible.height {
            let touched = (g.rect.y..<g.rect.maxY).contains { changedRows.contains($0) }
            let new = !previous.contains(g)
            switch g.image.kind {
            case .kitty:
                guard new || full else { continue }
                if !kittyImages.contains(g.image.id) {
                    out += GraphicsEscapes.kittyTransmit(id: g.image.id, png: g.image.data)
                    kittyImages.insert(g.image.id)
                }
                out += GraphicsEscapes.at(x: g.rect.x, y: g.rect.y, GraphicsEscapes.kittyPlace(id: g.image.id, columns: g.rect.width, rows: g.rect.height))
            case .iterm2:
                guard new || full || touched else { continue }
                out += GraphicsEscapes.at(x: g.rect.x, y: g.rect.y, GraphicsEscapes.iterm2(png: g.image.data, columns: g.rect.width, rows: g.rect.height))
            case .sixel:
                guard new || full || touched else { continue }
                out += GraphicsEscapes.at(x: g.rect.x, y: g.rect.y, String(decoding: g.image.data, as: UTF8.self))
            }
        }
        return out
    }

    /// Writes bytes straight to the terminal, after everything ncurses has written (doupdate
    /// has flushed its output; stdout is the stream ncurses was opened on).
    func writeRaw(_ text: String) {
        guard !text.isEmpty else { return }
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cs_write_terminal($0.baseAddress, $0.count) }
        }
    }

    /// Writes one cell that the screen says is `columns` wide (0: wide but clipped at the
    /// right edge, so a space goes there instead).
    private func put(_ cell: Cell, x: Int, y: Int, columns: Int) {
        let (attrs, pair) = theme.attributes(cell.style)
        guard columns > 0 else {
            write([0x20], attrs: attrs, pair: pair, x: x, y: y)
            return
        }
        let (chars, width) = Self.drawable(consoleGlyphs ? ConsoleGlyphs.fallback(cell.text) ?? cell.text : cell.text)
        if width == columns {
            write(chars, attrs: attrs, pair: pair, x: x, y: y)
        } else if width == 1 {
            // ncurses (libc wcwidth) says narrow where the screen expected wide: pad it.
            write(chars, attrs: attrs, pair: pair, x: x, y: y)
            write([0x20], attrs: attrs, pair: pair, x: x + 1, y: y)
        } else {
            // Wide by wcwidth but narrow on the screen, or unprintable: a narrow stand-in.
            write([0xFFFD], attrs: attrs, pair: pair, x: x, y: y)
            if columns == 2 { write([0x20], attrs: attrs, pair: pair, x: x + 1, y: y) }
        }
    }

    /// The wide characters for a cell (a spacing character plus at most three combining
    /// ones) and its width by `wcwidth`, which is what ncurses uses. Control characters
    /// become a space; -1 width (unprintable) is returned as 0.
    static func drawable(_ text: String) -> (chars: [wchar_t], width: Int) {
        var scalars = text.unicodeScalars.makeIterator()
        guard let base = scalars.next(), !isControl(base) else { return ([0x20], 1) }
        let baseChar = wchar_t(bitPattern: base.value)
        var chars = [baseChar]
        while chars.count < Int(CCHARW_MAX) - 1, let s = scalars.next() {
            let c = wchar_t(bitPattern: s.value)
            if !isControl(s), cs_wcwidth(c) == 0 { chars.append(c) }
        }
        return (chars, max(Int(cs_wcwidth(baseChar)), 0))
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F..<0xA0).contains(s.value)
    }

    private func write(_ chars: [wchar_t], attrs: attr_t, pair: Int16, x: Int, y: Int) {
        var text = chars
        text.append(0)
        var cc = cchar_t()
        _ = setcchar(&cc, text, attrs, pair, nil)
        // Returns ERR at the bottom-right corner (the cursor cannot advance); the cell is drawn.
        _ = mvwadd_wch(window, Int32(y), Int32(x), &cc)
    }
}

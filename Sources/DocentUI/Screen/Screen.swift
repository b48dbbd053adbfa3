/// A grid of cells: what a frame looks like. Rendering is a pure function into this value;
/// the terminal adapter diffs two of them and writes only what changed.
public struct Screen: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Hyperlinks (OSC 8) by cell range, so a terminal that supports them can make URLs clickable.
    public internal(set) var links: [Link] = []
    /// Where a click lands: regions tagged by the renderer, later ones on top.
    public internal(set) var hitRegions: [HitRegion] = []
    /// The cell the visitor's attention is on (the selected row, a box's title or choice; the
    /// last drawn wins): where the terminal's cursor goes in screen-reader mode.
    public var focus: Rect?
    /// Screen-reader mode: headings as plain text, boxes without borders, banners as plain
    /// lines (`Widgets` and the status line ask; set once by `RootView`).
    public var plain = false
    /// Images the terminal draws itself (a graphics protocol) over blank cells at their rects;
    /// none while a box is open (`RootView` takes them away: a box over an image would show
    /// through or be hidden under it, depending on the terminal).
    public var graphics: [Graphic] = []

    /// An image placed at `rect`. Two are the same placement when their image and rect are.
    public struct Graphic: Equatable, Sendable {
        public var rect: Rect
        public var image: GraphicImage
        public init(rect: Rect, image: GraphicImage) {
            self.rect = rect
            self.image = image
        }
        public static func == (a: Graphic, b: Graphic) -> Bool { a.rect == b.rect && a.image.id == b.image.id && a.image.kind == b.image.kind }
    }

    /// A clickable URL drawn at `rect`.
    public struct Link: Equatable, Sendable {
        public var rect: Rect
        public var url: String

        /// What is left of this link outside `cover`: one link per row it keeps cells on.
        func uncovered(by cover: Rect) -> [Link] {
            let ys = max(rect.y, cover.y), ye = min(rect.maxY, cover.maxY)
            let xs = max(rect.x, cover.x), xe = min(rect.maxX, cover.maxX)
            guard ys < ye, xs < xe else { return [self] }
            var out: [Link] = []
            for y in rect.y..<rect.maxY {
                guard y >= ys, y < ye else {
                    out.append(Link(rect: Rect(x: rect.x, y: y, width: rect.width, height: 1), url: url))
                    continue
                }
                if rect.x < xs { out.append(Link(rect: Rect(x: rect.x, y: y, width: xs - rect.x, height: 1), url: url)) }
                if xe < rect.maxX { out.append(Link(rect: Rect(x: xe, y: y, width: rect.maxX - xe, height: 1), url: url)) }
            }
            return out
        }
    }

    /// A rectangle and the action a click on it sends (typed: no string to parse).
    public struct HitRegion: Equatable, Sendable {
        public var rect: Rect
        public var action: AppAction
    }

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Runs the text of each row (of `rows`, or all) that has Chinese in it through `f`, and
    /// keeps what `f` changed one character for one of the same width (Chinese in the reader's
    /// script, `ReadersScript`).
    public mutating func mapText(rows: [Int]? = nil, _ f: (String) -> String) {
        // Row by row, whole: a conversion that reads words (OpenCC's phrases) sees the row's
        // text as drawn; a row whose text comes back with another number of characters, or a
        // character of another width, is left as it was.
        for y in rows ?? Array(0..<height) where y >= 0 && y < height {
            let base = y * width
            let lead = (base..<(base + width)).filter { !cells[$0].continuation }
            guard lead.contains(where: { cells[$0].text.unicodeScalars.first.map { $0.value >= 0x2E80 } == true }) else { continue }
            let texts = lead.map { cells[$0].text.isEmpty ? " " : cells[$0].text }
            guard texts.allSatisfy({ $0.count == 1 }) else { continue }
            let row = texts.joined()
            let out = Array(f(row))
            guard out.count == lead.count else { continue }
            for (k, i) in lead.enumerated() {
                let t = String(out[k])
                if t != texts[k], TextWidth.width(t) == TextWidth.width(texts[k]) { cells[i].text = t }
            }
        }
    }

    /// Becomes `other`, a frame of the same size whose cells differ from these in `rows` at
    /// most, by taking those rows' cells and the rest of `other` (links, click regions, focus,
    /// images): how a terminal keeps the frame it drew when only those rows were drawn again,
    /// in place rather than by holding `other`'s cells too. False (and nothing taken) when the
    /// sizes differ.
    @discardableResult
    public mutating func adopt(_ other: Screen, changedRows rows: [Int]) -> Bool {
        guard other.width == width, other.height == height else { return false }
        for y in rows where y >= 0 && y < height {
            let r = y * width..<(y + 1) * width
            cells.replaceSubrange(r, with: other.cells[r])
        }
        links = other.links
        hitRegions = other.hitRegions
        focus = other.focus
        plain = other.plain
        graphics = other.graphics
        return true
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Writes `text` at (x, y), clipped to `clip` (default: the whole screen). Returns the
    /// number of columns used. Control characters are never written (they are shown as nothing).
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let area = clip ?? bounds
        guard y >= area.y, y < area.maxY, y >= 0, y < height else { return 0 }
        var cx = x
        let limit = min(area.maxX, width)
        // Plain text (`TextWidth.simpleWidth`): a scalar is a grapheme, 0 or 1 wide.
        if TextWidth.simpleWidth(text) != nil {
            for s in text.unicodeScalars where TextWidth.simpleWidth(of: s) == 1 {
                if cx + 1 > limit { break }
                if cx >= max(area.x, 0) {
                    clearWide(at: cx, y: y)
                    self[cx, y] = Cell(String(s), style: style)
                }
                cx += 1
            }
            return cx - x
        }
        for ch in TerminalText.visible(text) {
            let w = TextWidth.width(of: ch)
            if w == 0 { continue }
            if cx + w > limit { break }
            if cx >= max(area.x, 0) {
                clearWide(at: cx, y: y)
                self[cx, y] = Cell(String(ch), style: style)
                if w == 2 {
                    clearWide(at: cx + 1, y: y)
                    self[cx + 1, y] = Cell("", style: style, continuation: true)
                }
            }
            cx += w
        }
        return cx - x
    }

    /// If (x, y) holds half of a wide character, blank the other half so nothing is left split.
    private mutating func clearWide(at x: Int, y: Int) {
        guard x >= 0, x < width else { return }
        let cell = self[x, y]
        if cell.continuation, x > 0 {
            self[x - 1, y] = Cell(" ", style: self[x - 1, y].style)
        } else if x + 1 < width, self[x + 1, y].continuation {
            self[x + 1, y] = Cell(" ", style: self[x + 1, y].style)
        }
    }

    /// Fills `rect` with spaces in `style`. Links under it are cut away (an overlay hides them).
    /// A wide character cut by the rectangle's left or right edge loses its outside half too
    /// (a box over Chinese text never leaves half a character for the terminal to garble).
    public mutating func fill(_ rect: Rect, style: Style = .plain) {
        if !links.isEmpty, !rect.isEmpty { links = links.flatMap { $0.uncovered(by: rect) } }
        let x0 = max(rect.x, 0), x1 = min(rect.maxX, width)
        guard x0 < x1 else { return }
        for yy in max(rect.y, 0)..<min(rect.maxY, height) {
            clearWide(at: x0, y: yy)
            clearWide(at: x1 - 1, y: yy)
            for xx in x0..<x1 {
                self[xx, yy] = Cell(" ", style: style)
            }
        }
    }

    /// Where the grid breaks its own rule that a wide character is one cell followed by its
    /// continuation: a continuation with no wide character before it, or a wide character
    /// without its continuation. Always empty for grids made by `put` and `fill`.
    public func splitWideCells() -> [(x: Int, y: Int)] {
        var out: [(x: Int, y: Int)] = []
        for y in 0..<height {
            for x in 0..<width {
                let cell = self[x, y]
                if cell.continuation {
                    if x == 0 || self[x - 1, y].continuation || TextWidth.width(self[x - 1, y].text) != 2 { out.append((x, y)) }
                } else if TextWidth.width(cell.text) == 2, x + 1 >= width || !self[x + 1, y].continuation {
                    out.append((x, y))
                }
            }
        }
        return out
    }

    /// Applies `style` to every cell in `rect`, keeping the text.
    public mutating func restyle(_ rect: Rect, _ transform: (inout Style) -> Void) {
        for yy in max(rect.y, 0)..<min(rect.maxY, height) {
            for xx in max(rect.x, 0)..<min(rect.maxX, width) {
                transform(&self[xx, yy].style)
            }
        }
    }

    public mutating func addLink(_ rect: Rect, url: String) {
        links.append(Link(rect: rect, url: url))
    }

    public mutating func addHitRegion(_ rect: Rect, action: AppAction) {
        hitRegions.append(HitRegion(rect: rect, action: action))
    }

    /// The action under a click, topmost first.
    public func hitAction(x: Int, y: Int) -> AppAction? {
        hitRegions.last { $0.rect.contains(x: x, y: y) }?.action
    }

    /// The text of row `y`, trailing spaces kept (wide characters appear once).
    public func row(_ y: Int) -> String {
        var s = ""
        for x in 0..<width where !self[x, y].continuation { s += self[x, y].text }
        return s
    }

    /// A lossless text snapshot: the rows; a separator; one code per cell for its whole style
    /// (role and every attribute), codes given in order of first appearance and listed under
    /// the grid (`.` is the plain style); then the link regions; then the click regions in the
    /// order drawn (later ones on top) with the action each sends. A change of colour on a bold
    /// or reversed cell, or a click target moved or re-aimed, changes the snapshot.
    public func dump() -> String {
        var out: [String] = []
        for y in 0..<height { out.append(row(y)) }
        out.append(String(repeating: "-", count: width))
        var codes: [Style: Character] = [.plain: "."]
        var order: [Style] = []
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for y in 0..<height {
            var line = ""
            for x in 0..<width {
                let st = self[x, y].style
                if codes[st] == nil {
                    codes[st] = order.count < alphabet.count ? alphabet[order.count] : "?"
                    order.append(st)
                }
                line.append(codes[st] ?? "?")
            }
            out.append(line)
        }
        for st in order { out.append("\(codes[st] ?? "?") = \(Self.describe(st))") }
        for l in links { out.append("link \(l.rect.x),\(l.rect.y) \(l.rect.width)x\(l.rect.height) \(l.url)") }
        for g in graphics { out.append("image \(g.rect.x),\(g.rect.y) \(g.rect.width)x\(g.rect.height) \(g.image.kind.rawValue) #\(g.image.id) \(g.image.data.count) bytes") }
        for h in hitRegions { out.append("click \(h.rect.x),\(h.rect.y) \(h.rect.width)x\(h.rect.height) \(Self.describe(h.action))") }
        return out.joined(separator: "\n") + "\n"
    }

    /// An action as Swift prints it, without the module names it would repeat on every line
    /// ("selectTab(Tab.home)", not "selectTab(DocentCore.Tab.home)").
    static func describe(_ action: AppAction) -> String {
        var text = String(describing: action)
        for module in ["DocentCore", "DocentReading", "DocentText", "DocentJSON", "DocentUI", "DocentApp"] {
            text = text.replacing(module + ".", with: "")
        }
        return text
    }

    /// A style in words: its role, then its attributes ("accent bold reverse").
    static func describe(_ s: Style) -> String {
        var parts = ["\(s.role)"]
        if s.bold { parts.append("bold") }
        if s.reverse { parts.append("reverse") }
        if s.dim { parts.append("dim") }
        if s.underline { parts.append("underline") }
        if let c = s.foreground { parts.append("fg" + c.code) }
        if let c = s.background { parts.append("bg" + c.code) }
        return parts.joined(separator: " ")
    }
}
extension Screen {
    /// What the terminal shows after the rows that moved between `old` and this frame have
    /// scrolled and nothing else has changed yet: `old`, with the block of rows that moved by
    /// k rows moved, and the rows the scroll brings in taken from this frame. nil when no
    /// block of at least three rows (not blank, not already in place) moved by the same k.
    ///
    /// A list that keeps its selection in the middle scrolls at every press; the highlight's
    /// old and new rows are in the moved block and match no row of `old`, and ncurses, whose
    /// scroll finder moves runs of matching rows, then scrolled two regions around them and
    /// wrote again the row between (`make bench`'s bytes per ↓ on Home). Drawn in two steps,
    /// this one first, the whole block is one run: one scroll, then the highlight's two rows.
    public func scrollStep(from old: Screen) -> Screen? {
        guard old.width == width, old.height == height, height >= 4, width > 0 else { return nil }
        let w = width
        // Rows compared by a hash first: a page that changes whole (a tab, the player's page)
        // tried every distance on every row, cell by cell, and took 1–3 ms of each such frame.
        // (FNV-1a over each cell's bytes and style flags, not `Hasher`: a row's fingerprint need
        // only be equal for equal rows, the cells are compared after it, and hashing `String`s
        // normalises them, which cost as much as the comparisons it saved.)
        func hashes(_ cells: [Cell]) -> [UInt64] {
            (0..<height).map { y in
                var h: UInt64 = 0xcbf2_9ce4_8422_2325
                for c in cells[y * w..<(y + 1) * w] {
                    for b in c.text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
                    let st = c.style
                    let flags = UInt64(st.role.rawValue) << 8 | (st.bold ? 1 : 0) | (st.reverse ? 2 : 0) | (st.dim ? 4 : 0) | (st.underline ? 8 : 0) | (c.continuation ? 16 : 0)
                    h = (h ^ flags) &* 0x100_0000_01b3
                }
                return h
            }
        }
        let newHashes = hashes(cells), oldHashes = hashes(old.cells)
        func same(_ y: Int, _ oldY: Int) -> Bool {
            newHashes[y] == oldHashes[oldY] && cells[y * w..<(y + 1) * w] == old.cells[oldY * w..<(oldY + 1) * w]
        }
        func blank(_ y: Int) -> Bool { !cells[y * w..<(y + 1) * w].contains { $0 != .blank } }
        // Rows that changed and are not blank: the only evidence a move can have.
        let moved = (0..<height).filter { !same($0, $0) && !blank($0) }
        guard moved.count >= 3 else { return nil }
        var best: (k: Int, first: Int, last: Int, count: Int)?
        for distance in 1...(height / 2) {
            for k in [distance, -distance] {
                var count = 0, first = Int.max, last = -1
                for y in moved where y + k >= 0 && y + k < height && same(y, y + k) {
                    count += 1
                    first = min(first, y)
                    last = max(last, y)
                }
                if count >= 3, count > (best?.count ?? 0) { best = (k, first, last, count) }
            }
        }
        guard let best else { return nil }
        // The scroll region holds the block where it was and where it goes; the rows it brings
        // in are this frame's.
        let low = min(best.first, best.first + best.k), high = max(best.last, best.last + best.k)
        var step = old
        for y in low...high {
            let from = y + best.k
            let source = from >= low && from <= high ? old.cells[from * w..<(from + 1) * w] : cells[y * w..<(y + 1) * w]
            step.cells.replaceSubrange(y * w..<(y + 1) * w, with: source)
        }
        return step
    }
}

/// Where a figure goes on a page of `width × rows` cells, and what is left for the text: one
/// function for the feature that asks for a picture of the right size, the view that draws it
/// and the reducer that bounds the text's scrolling.
public enum FigureLayout {
    /// Pages at least this wide put the figure beside the text; narrower ones above it. A page
    /// is the terminal less its two margin columns, so this is a 100-column terminal, as the
    /// README says (issue 33 #17: it was 100 page columns, a 102-column terminal).
    public static let besideFromWidth = 98
    /// The fewest rows a picture is worth drawing in.
    public static let minimumRows = 3

    /// A figure's place: `beside` (to the right of the text) or above it.
    public struct Box: Hashable, Sendable {
        public var columns: Int
        public var rows: Int
        public var beside: Bool
        public init(columns: Int, rows: Int, beside: Bool) {
            self.columns = columns
            self.rows = rows
            self.beside = beside
        }
    }

    /// The most room a picture may take on a page of `width × rows`, or nil when the page
    /// is too small for one: beside, two fifths of the width (at most 64 columns) and every
    /// row; above, two fifths of the rows (at most 16) and every column.
    public static func box(width: Int, rows: Int) -> Box? {
        if width >= besideFromWidth {
            guard rows >= minimumRows else { return nil }
            return Box(columns: min(width * 2 / 5, 64), rows: rows, beside: true)
        }
        let r = min(rows * 2 / 5, 16)
        guard r >= minimumRows, width >= 8 else { return nil }
        return Box(columns: width, rows: r, beside: false)
    }

    /// Pages at least this tall put a list's figure above its rows when they are too narrow
    /// to have it beside (a tour's banner); shorter ones show the rows alone.
    public static let listAboveFromRows = 18

    /// The most room a picture may take in `slot`: a list's figure beside its rows as a text
    /// page's, above them at most a third of the rows (at most 8) and only on a tall page.
    public static func box(width: Int, rows: Int, slot: FigureSlot) -> Box? {
        guard slot == .list, width < besideFromWidth else { return box(width: width, rows: rows) }
        guard rows >= listAboveFromRows, width >= 8 else { return nil }
        return Box(columns: width, rows: min(rows / 3, 8), beside: false)
    }

    /// The figure's columns and rows as drawn, and the text's, on a page of `width × rows`
    /// (one blank column or row between them). No figure: all of it is text.
    public static func split(width: Int, rows: Int, figure: Figure?, slot: FigureSlot = .page) -> (figure: Box?, textWidth: Int, textRows: Int) {
        guard let figure else { return (nil, width, rows) }
        let used: Box
        switch figure {
        case .note:
            used = Box(columns: width, rows: 1, beside: false)
        case .pending(let c, let r):
            guard let b = box(width: width, rows: rows, slot: slot) else { return (nil, width, rows) }
            used = Box(columns: min(c, b.columns), rows: min(r, b.rows), beside: b.beside)
        case .picture(let p):
            guard let b = box(width: width, rows: rows, slot: slot) else { return (nil, width, rows) }
            used = Box(columns: min(p.columns, b.columns), rows: min(p.rows, b.rows), beside: b.beside)
        }
        if used.beside { return (used, max(1, width - used.columns - 1), rows) }
        return (used, width, max(1, rows - used.rows - 1))
    }
}

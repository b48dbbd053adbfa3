import Foundation

/// A colour of a picture cell, as the terminal is given it: 24-bit, or an index into the
/// terminal's palette (0–15 the ANSI colours, 16–255 the 256-colour cube and greys).
public enum PictureColour: Hashable, Sendable {
    case rgb(UInt8, UInt8, UInt8)
    case index(UInt8)

    /// `#rrggbb` or `@n` (for snapshots and tests).
    public var code: String {
        switch self {
        case .rgb(let r, let g, let b): return "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        case .index(let n): return "@\(n)"
        }
    }

    /// The SGR parameters for this colour as the foreground (`background: false`) or background.
    public func sgr(background: Bool) -> String {
        switch self {
        case .rgb(let r, let g, let b): return "\(background ? 48 : 38);2;\(r);\(g);\(b)"
        case .index(let n) where n < 8: return "\(Int(n) + (background ? 40 : 30))"
        case .index(let n) where n < 16: return "\(Int(n) - 8 + (background ? 100 : 90))"
        case .index(let n): return "\(background ? 48 : 38);5;\(n)"
        }
    }
}

/// One cell of a picture: a symbol (one column wide) and its colours (nil: the terminal's).
public struct PictureCell: Hashable, Sendable {
    public var symbol: String
    public var foreground: PictureColour?
    public var background: PictureColour?
    public init(_ symbol: String, foreground: PictureColour? = nil, background: PictureColour? = nil) {
        self.symbol = symbol
        self.foreground = foreground
        self.background = background
    }
}

/// A picture drawn as symbols: `columns` × `rows` cells, row by row. Made by the shell
/// (chafa) for a size the core asked for; drawn by the UI into the cell grid like text, so
/// the frame diff writes it once and an idle guide writes nothing.
public struct Picture: Hashable, Sendable {
    public let columns: Int
    public let rows: Int
    public let cells: [PictureCell]

    /// nil unless `cells` holds exactly `columns × rows` cells.
    public init?(columns: Int, rows: Int, cells: [PictureCell]) {
        guard columns > 0, rows > 0, columns.multipliedReportingOverflow(by: rows) == (cells.count, false) else { return nil }
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }

    public subscript(x: Int, y: Int) -> PictureCell { cells[y * columns + x] }
}

/// How the visitor asked pictures to be drawn (`--images`, the `images` configuration key).
public enum ImageSetting: String, Equatable, Sendable, CaseIterable {
    /// Symbols where the terminal is known to show colours well, none where in doubt.
    case auto
    /// Always symbols, in the best colours the terminal claims.
    case always
    /// Symbols (same as always until graphics protocols are drawn).
    case symbols
    /// No pictures.
    case never

    /// auto/always/symbols/never, and the usual on/off spellings; nil for anything else.
    public init?(parsing text: String) {
        switch String(text.filter { !$0.isWhitespace }).lowercased() {
        case "auto": self = .auto
        case "always", "on", "yes", "true", "1": self = .always
        case "symbols": self = .symbols
        case "never", "off", "no", "false", "0": self = .never
        default: return nil
        }
    }
}

/// How pictures are drawn on this terminal, decided once at start.
public enum PictureMode: Hashable, Sendable {
    /// No pictures: nothing fetched, nothing drawn.
    case off
    /// Unicode block symbols with colours of this depth.
    case symbols(ColourDepth)

    public enum ColourDepth: String, Hashable, Sendable {
        /// 24-bit colour.
        case truecolor
        /// The 256-colour palette.
        case indexed256
        /// The 16 ANSI colours.
        case indexed16
        /// No colour at all (`NO_COLOR`): shapes from the symbols alone.
        case none
    }

    /// The mode for `setting` on the terminal `environment` describes, erring towards less: a
    /// terminal whose colours are unknown gets no pictures in `auto` (a wrong guess draws noise
    /// over the guide), 256 colours unless the terminal says it has 24-bit, and inside tmux or
    /// screen never more than 256 (the multiplexer may not pass 24-bit colour on).
    public static func resolve(_ setting: ImageSetting, environment env: [String: String]) -> PictureMode {
        func value(_ key: String) -> String { env[key] ?? "" }
        if setting == .never { return .off }
        let term = value("TERM")
        let noColour = env["NO_COLOR"].map { !$0.isEmpty } ?? false
        if noColour { return setting == .auto ? .off : .symbols(.none) }
        let multiplexed = !value("TMUX").isEmpty || !value("STY").isEmpty || term.hasPrefix("screen") || term.hasPrefix("tmux")
        let colorterm = value("COLORTERM").lowercased()
        let truecolour = colorterm == "truecolor" || colorterm == "24bit" || term.hasSuffix("-direct")
        let has256 = term.contains("256color") || truecolour
        if term.isEmpty || term == "dumb" {
            return setting == .auto ? .off : .symbols(.none)
        }
        if truecolour && !multiplexed { return .symbols(.truecolor) }
        if has256 { return .symbols(.indexed256) }
        // A plain 8/16-colour terminal (the Linux console, vt100s): blocks in 16 colours look
        // poor; only when asked.
        return setting == .auto ? .off : .symbols(.indexed16)
    }
}

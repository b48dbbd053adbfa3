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
/// the frame diff writes it once and an idle guide writes nothing. With `graphic`, the cells
/// are blank and the terminal draws the image itself there (kitty, iTerm2, sixel).
public struct Picture: Hashable, Sendable {
    public let columns: Int
    public let rows: Int
    public let cells: [PictureCell]
    public let graphic: GraphicImage?

    /// nil unless `cells` holds exactly `columns × rows` cells.
    public init?(columns: Int, rows: Int, cells: [PictureCell], graphic: GraphicImage? = nil) {
        guard columns > 0, rows > 0, columns.multipliedReportingOverflow(by: rows) == (cells.count, false) else { return nil }
        self.columns = columns
        self.rows = rows
        self.cells = cells
        self.graphic = graphic
    }

    /// A picture the terminal draws with `graphic` in `columns × rows` blank cells.
    public init?(columns: Int, rows: Int, graphic: GraphicImage) {
        guard columns > 0, rows > 0, columns.multipliedReportingOverflow(by: rows).overflow == false else { return nil }
        self.init(columns: columns, rows: rows, cells: Array(repeating: PictureCell(" "), count: columns * rows), graphic: graphic)
    }

    public subscript(x: Int, y: Int) -> PictureCell { cells[y * columns + x] }
}

/// How the visitor asked pictures to be drawn (`--images`, the `images` configuration key).
public enum ImageSetting: String, Equatable, Sendable, CaseIterable {
    /// Symbols where the terminal is known to show colours well, none where in doubt.
    case auto
    /// Always symbols, in the best colours the terminal claims.
    case always
    /// Symbols only, never a graphics protocol.
    case symbols
    /// No pictures.
    case never
    /// This graphics protocol, whatever the terminal seems to be (the visitor knows better).
    case kitty, iterm2, sixel

    /// auto/always/symbols/never/kitty/iterm2/sixel, and the usual on/off spellings; nil for
    /// anything else.
    public init?(parsing text: String) {
        switch String(text.filter { !$0.isWhitespace }).lowercased() {
        case "auto": self = .auto
        case "always", "on", "yes", "true", "1": self = .always
        case "symbols": self = .symbols
        case "never", "off", "no", "false", "0": self = .never
        case "kitty": self = .kitty
        case "iterm2", "iterm": self = .iterm2
        case "sixel": self = .sixel
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
    /// The terminal draws the image itself.
    case graphics(GraphicsProtocol)

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
    ///
    /// A graphics protocol only where the terminal names itself (kitty's `KITTY_WINDOW_ID` or
    /// `TERM=xterm-kitty`; iTerm2 and WezTerm by `TERM_PROGRAM`; foot, mlterm or a TERM with
    /// "sixel" for sixel), never inside tmux or screen (their passthrough is off by default and
    /// moves images with the pane's offsets), never with `NO_COLOR`; `--images kitty|iterm2|sixel`
    /// forces one.
    public static func resolve(_ setting: ImageSetting, environment env: [String: String]) -> PictureMode {
        func value(_ key: String) -> String { env[key] ?? "" }
        switch setting {
        case .never: return .off
        case .kitty: return .graphics(.kitty)
        case .iterm2: return .graphics(.iterm2)
        case .sixel: return .graphics(.sixel)
        case .auto, .always, .symbols: break
        }
        let term = value("TERM")
        let noColour = env["NO_COLOR"].map { !$0.isEmpty } ?? false
        if noColour { return setting == .auto ? .off : .symbols(.none) }
        let multiplexed = !value("TMUX").isEmpty || !value("STY").isEmpty || term.hasPrefix("screen") || term.hasPrefix("tmux")
        if setting != .symbols, !multiplexed, let p = GraphicsProtocol.named(by: env) { return .graphics(p) }
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

extension PictureMode {
    /// The terminal's name when `auto` left pictures off for its few colours (a plain `xterm`,
    /// the Linux console), so the guide can say why none appear and what to try (issue 47 #19);
    /// nil when pictures are on, were asked off (`never`, `NO_COLOR`), or there is no terminal
    /// to speak of (`dumb`, no `TERM`).
    public static func offForFewColours(_ setting: ImageSetting, environment env: [String: String]) -> String? {
        guard setting == .auto, resolve(setting, environment: env) == .off else { return nil }
        let term = env["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb", (env["NO_COLOR"] ?? "").isEmpty else { return nil }
        return term
    }
}

/// The terminal graphics protocols pictures can be drawn with.
public enum GraphicsProtocol: String, Hashable, Sendable, CaseIterable {
    /// kitty's graphics protocol (also Ghostty, Konsole): images by id, placed and deleted.
    case kitty
    /// iTerm2's inline images (also WezTerm): a file drawn at the cursor in a cell box.
    case iterm2
    /// DEC sixel (foot, mlterm, xterm -ti vt340, Windows Terminal).
    case sixel

    /// The protocol the terminal says it speaks, by its own names; nil when it does not say.
    public static func named(by env: [String: String]) -> GraphicsProtocol? {
        let term = env["TERM"] ?? "", program = env["TERM_PROGRAM"] ?? ""
        if !(env["KITTY_WINDOW_ID"] ?? "").isEmpty || term == "xterm-kitty" || term == "xterm-ghostty" { return .kitty }
        if program == "iTerm.app" || program == "WezTerm" { return .iterm2 }
        if term.hasPrefix("foot") || term.hasPrefix("mlterm") || term.contains("sixel") { return .sixel }
        return nil
    }
}

/// An image the terminal draws itself: PNG bytes for kitty and iTerm2, a whole sixel sequence
/// (DCS … ST) for sixel; `id` names it to kitty (placed, then deleted, by it).
public struct GraphicImage: Hashable, Sendable {
    public let kind: GraphicsProtocol
    public let id: UInt32
    public let data: [UInt8]
    public init(kind: GraphicsProtocol, id: UInt32, data: [UInt8]) {
        self.kind = kind
        self.id = id
        self.data = data
    }

    /// A nonzero id from a picture's URL and size (FNV-1a), the same on every run.
    public static func id(url: String, columns: Int, rows: Int) -> UInt32 {
        let h = FNV1a.hash32("\(url)#\(columns)x\(rows)".utf8)
        return h == 0 ? 1 : h
    }
}

/// The bytes of the graphics protocols, built here (pure) and written by the terminal adapter.
public enum GraphicsEscapes {
    /// kitty reads base64 in pieces of at most this many bytes.
    public static let kittyChunk = 4096

    /// Sends image `id` (PNG) to kitty without showing it (`a=t`), in chunks; quiet (`q=2`).
    public static func kittyTransmit(id: UInt32, png: [UInt8]) -> String {
        let b64 = Array(Data(png).base64EncodedString().utf8)
        var out = ""
        var start = 0
        repeat {
            let end = min(start + kittyChunk, b64.count)
            let more = end < b64.count ? 1 : 0
            let piece = String(decoding: b64[start..<end], as: UTF8.self)
            out += start == 0 ? "\u{1B}_Ga=t,f=100,i=\(id),q=2,m=\(more);\(piece)\u{1B}\\" : "\u{1B}_Gm=\(more),q=2;\(piece)\u{1B}\\"
            start = end
        } while start < b64.count
        return out
    }

    /// Shows image `id` at the cursor in `columns × rows` cells (placement 1, so showing it
    /// again moves it rather than adding another), leaving the cursor where it was (`C=1`).
    public static func kittyPlace(id: UInt32, columns: Int, rows: Int) -> String {
        "\u{1B}_Ga=p,i=\(id),p=1,c=\(columns),r=\(rows),C=1,q=2\u{1B}\\"
    }

    /// Takes image `id`'s placements off the screen; kitty keeps the image to place again.
    public static func kittyHide(id: UInt32) -> String { "\u{1B}_Ga=d,d=i,i=\(id),q=2\u{1B}\\" }

    /// Every placement off the screen (images kept), or every image forgotten (`freeing`).
    public static func kittyHideAll(freeing: Bool = false) -> String { "\u{1B}_Ga=d,d=\(freeing ? "A" : "a"),q=2\u{1B}\\" }

    /// iTerm2's inline image of a PNG at the cursor, stretched to `columns × rows` cells (the
    /// cells were chosen for its shape).
    public static func iterm2(png: [UInt8], columns: Int, rows: Int) -> String {
        "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(columns);height=\(rows);preserveAspectRatio=0:" + Data(png).base64EncodedString() + "\u{07}"
    }

    /// `body` drawn with its top left at cell (`x`, `y`) (0-based), the cursor put back after.
    public static func at(x: Int, y: Int, _ body: String) -> String {
        "\u{1B}7\u{1B}[\(y + 1);\(x + 1)H" + body + "\u{1B}8"
    }
}

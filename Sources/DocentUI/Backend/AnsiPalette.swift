/// How `Style` roles map to the eight ANSI colours and to attributes: one table for the curses
/// theme (which turns it into colour pairs) and for text the adapter writes itself (hyperlinks,
/// which ncurses cannot emit), so both always look the same.
public struct AnsiPalette: Equatable, Sendable {
    /// Attributes a role or a style adds.
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Attributes(rawValue: 1)
        public static let dim = Attributes(rawValue: 2)
        public static let underline = Attributes(rawValue: 4)
        public static let reverse = Attributes(rawValue: 8)
    }

    /// ANSI colour numbers (the same as ncurses' `COLOR_*`).
    public static let red = 1, green = 2, yellow = 3, cyan = 6, white = 7, black = 0, brightBlack = 8

    /// Colour (true) or monochrome (false: `NO_COLOR`, or a terminal without colours).
    public var colors: Bool
    /// How many colours the terminal has (bright black needs 16).
    public var colorCount: Int
    /// True when the terminal cannot keep its default colours (`use_default_colors` failed), so
    /// coloured roles are drawn on black and the default foreground becomes white.
    public var blackBackground: Bool

    public init(colors: Bool, colorCount: Int = 8, blackBackground: Bool = false) {
        self.colors = colors
        self.colorCount = colorCount
        self.blackBackground = blackBackground
    }

    public static let monochrome = AnsiPalette(colors: false, colorCount: 0)

    /// Foreground colour of a role in colour mode (nil: the terminal's default).
    public static func foreground(_ role: Style.Role, colorCount: Int) -> Int? {
        switch role {
        case .normal: return nil
        case .accent, .title: return cyan
        case .muted: return colorCount >= 16 ? brightBlack : nil  // grey where there is one
        case .highlight, .warning: return yellow
        case .error: return red
        case .success: return green
        }
    }

    /// Attributes a role adds in colour mode.
    public static func colorAttributes(_ role: Style.Role, colorCount: Int) -> Attributes {
        switch role {
        case .title, .highlight, .error: return .bold
        case .muted: return colorCount >= 16 ? [] : .dim
        default: return []
        }
    }

    /// Attributes that stand in for a role's colour in monochrome.
    public static func monochromeAttributes(_ role: Style.Role) -> Attributes {
        switch role {
        case .highlight, .title: return .bold
        case .muted: return .dim
        case .error, .warning: return [.bold, .underline]
        case .normal, .accent, .success: return []
        }
    }

    /// The attributes of a cell style under this palette.
    public func attributes(_ style: Style) -> Attributes {
        var a = colors ? Self.colorAttributes(style.role, colorCount: colorCount) : Self.monochromeAttributes(style.role)
        if style.bold { a.insert(.bold) }
        // Where the muted role is a grey of its own, that grey is the dimming: faint on faint
        // was hard to read on some terminals, and it cost an attribute reset per span (a list's
        // scroll marks and rules: 15 bytes a keypress on Home).
        if style.dim, !(colors && style.role == .muted && Self.foreground(.muted, colorCount: colorCount) != nil) { a.insert(.dim) }
        if style.underline { a.insert(.underline) }
        if style.reverse { a.insert(.reverse) }
        return a
    }

    /// The foreground and background of a cell style (nil: default), as the curses theme sets
    /// up its colour pairs.
    public func colours(_ style: Style) -> (foreground: Int?, background: Int?) {
        guard colors, style.role != .normal else { return (nil, nil) }
        let fg = Self.foreground(style.role, colorCount: colorCount)
        guard blackBackground else { return (fg, nil) }
        return (fg ?? Self.white, Self.black)
    }

    /// The SGR sequence that draws `style` from a reset state: `ESC [ 0 ; … m`.
    public func sgr(_ style: Style) -> String {
        var codes = ["0"]
        let a = attributes(style)
        if a.contains(.bold) { codes.append("1") }
        if a.contains(.dim) { codes.append("2") }
        if a.contains(.underline) { codes.append("4") }
        if a.contains(.reverse) { codes.append("7") }
        let (fg, bg) = colours(style)
        if let fg { codes.append(fg < 8 ? "\(30 + fg)" : "\(90 + fg - 8)") }
        if let bg { codes.append(bg < 8 ? "\(40 + bg)" : "\(100 + bg - 8)") }
        // A picture's colours are its own, whatever the palette.
        if let c = style.foreground { codes.append(c.sgr(background: false)) }
        if let c = style.background { codes.append(c.sgr(background: true)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}

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
    public static let red = 1, green = 2, yellow = 3, blue = 4, magenta = 5, cyan = 6, white = 7, black = 0, brightBlack = 8, brightRed = 9

    /// What the terminal draws on (issue 47 #3): cyan, yellow and white read on black but not
    /// on white, so each has its own colours, chosen for WCAG AA contrast (4.5:1) with
    /// xterm's default colours (`PaletteContrastTests`).
    public enum Background: String, Equatable, Sendable, CaseIterable {
        case dark, light
    }

    /// Colour (true) or monochrome (false: `NO_COLOR`, or a terminal without colours).
    public var colors: Bool
    /// How many colours the terminal has (bright black needs 16).
    public var colorCount: Int
    /// True when the terminal cannot keep its default colours (`use_default_colors` failed), so
    /// coloured roles are drawn on black and the default foreground becomes white.
    public var blackBackground: Bool
    /// The terminal's background (`TerminalBackground`); dark when it cannot be known.
    public var background: Background

    public init(colors: Bool, colorCount: Int = 8, blackBackground: Bool = false, background: Background = .dark) {
        self.colors = colors
        self.colorCount = colorCount
        self.blackBackground = blackBackground
        // Roles drawn on black (the terminal keeps no default colours) are the dark palette's.
        self.background = blackBackground ? .dark : background
    }

    public static let monochrome = AnsiPalette(colors: false, colorCount: 0)

    /// Foreground colour of a role in colour mode (nil: the terminal's default).
    public static func foreground(_ role: Style.Role, colorCount: Int, background: Background = .dark) -> Int? {
        switch background {
        case .dark:
            switch role {
            case .normal: return nil
            case .accent, .title: return cyan
            case .muted: return colorCount >= 16 ? brightBlack : nil  // grey where there is one
            case .highlight, .warning: return yellow
            // xterm's red is 3.6:1 on black; its bright red 5.3:1.
            case .error: return colorCount >= 16 ? brightRed : red
            case .success: return green
            }
        case .light:
            // With 256 colours, darker tones of the same hues (xterm's 6×6×6 cube); with 8 or
            // 16, the hues that read on white: blue for cyan and yellow, magenta for amber,
            // and the default (black) for green, which no ANSI green manages.
            let wide = colorCount >= 256
            switch role {
            case .normal: return nil
            case .accent, .title, .highlight: return wide ? 25 : blue  // #005faf
            case .muted: return wide ? 242 : nil  // #6c6c6c; else the default, dimmed
            case .warning: return wide ? 130 : magenta  // #af5f00
            case .error: return wide ? 124 : red  // #af0000
            case .success: return wide ? 28 : nil  // #008700
            }
        }
    }

    /// Attributes a role adds in colour mode.
    public static func colorAttributes(_ role: Style.Role, colorCount: Int, background: Background = .dark) -> Attributes {
        switch role {
        case .title, .highlight, .error: return .bold
        case .muted: return foreground(.muted, colorCount: colorCount, background: background) != nil ? [] : .dim
        // On white without a green that reads, success is the default colour, in bold.
        case .success: return foreground(.success, colorCount: colorCount, background: background) == nil ? .bold : []
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
        var a = colors ? Self.colorAttributes(style.role, colorCount: colorCount, background: background) : Self.monochromeAttributes(style.role)
        if style.bold { a.insert(.bold) }
        // Where the muted role is a grey of its own, that grey is the dimming: faint on faint
        // was hard to read on some terminals, and it cost an attribute reset per span (a list's
        // scroll marks and rules: 15 bytes a keypress on Home).
        if style.dim, !(colors && style.role == .muted && Self.foreground(.muted, colorCount: colorCount, background: background) != nil) { a.insert(.dim) }
        if style.underline { a.insert(.underline) }
        if style.reverse { a.insert(.reverse) }
        return a
    }

    /// The foreground and background of a cell style (nil: default), as the curses theme sets
    /// up its colour pairs.
    public func colours(_ style: Style) -> (foreground: Int?, background: Int?) {
        guard colors, style.role != .normal else { return (nil, nil) }
        let fg = Self.foreground(style.role, colorCount: colorCount, background: background)
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
        // The eight colours, their bright kin, or one of 256 (`38;5;N`).
        func code(_ c: Int, base: Int, bright: Int) -> String { c < 8 ? "\(base + c)" : c < 16 ? "\(bright + c - 8)" : "\(base + 8);5;\(c)" }
        if let fg { codes.append(code(fg, base: 30, bright: 90)) }
        if let bg { codes.append(code(bg, base: 40, bright: 100)) }
        // A picture's colours are its own, whatever the palette.
        if let c = style.foreground { codes.append(c.sgr(background: false)) }
        if let c = style.background { codes.append(c.sgr(background: true)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}

import CNcursesw
import CShims
import DocentUI

/// How `Style` roles look: a colour pair per role, or attributes only in monochrome. The
/// colours and attributes come from `AnsiPalette`, which the hyperlink writer uses too.
struct CursesTheme {
    /// What was set up: colour or monochrome, and how many colours.
    let palette: AnsiPalette
    /// True when colour pairs were set up.
    var colors: Bool { palette.colors }

    /// Sets up colours when `wantColors` and the terminal can; must run after `newterm`.
    init(wantColors: Bool, background: AnsiPalette.Background = .dark) {
        var ok = wantColors && has_colors() && start_color() == OK
        let blackBackground = ok && use_default_colors() != OK
        let count = ok ? Int(cs_colors()) : 0
        let palette = AnsiPalette(colors: ok, colorCount: count, blackBackground: blackBackground, background: background)
        if ok {
            for role in Style.Role.allCases {
                let (fg, bg) = palette.colours(Style(role: role))
                if init_pair(Self.pair(role), Int16(fg ?? -1), Int16(bg ?? -1)) != OK { ok = false }
            }
        }
        self.palette = ok ? palette : .monochrome
    }

    /// The colour pair number of a role (0 = default colours).
    static func pair(_ role: Style.Role) -> Int16 {
        role == .normal ? Int16(Style.Role.allCases.count) : Int16(role.rawValue)
    }

    /// Attributes and colour pair for a cell style.
    func attributes(_ style: Style) -> (attrs: attr_t, pair: Int16) {
        let a = palette.attributes(style)
        var attrs: attr_t = 0
        if a.contains(.bold) { attrs |= cs_A_BOLD() }
        if a.contains(.dim) { attrs |= cs_A_DIM() }
        if a.contains(.underline) { attrs |= cs_A_UNDERLINE() }
        if a.contains(.reverse) { attrs |= cs_A_REVERSE() }
        return (attrs, colors ? Self.pair(style.role) : 0)
    }
}

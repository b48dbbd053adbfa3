import CNcursesw
import CShims
import DocentUI

/// How `Style` roles look: a colour pair per role, or attributes only in monochrome.
struct CursesTheme {
    /// True when colour pairs were set up.
    let colors: Bool
    /// Extra attributes per role (index = `Role.rawValue`).
    private var roleAttrs: [attr_t]

    /// Foreground colour per role in colour mode (-1 = the terminal's default).
    private static func foreground(_ role: Style.Role, colorCount: Int32) -> Int16 {
        switch role {
        case .normal: return -1
        case .accent: return Int16(COLOR_CYAN)
        case .muted: return colorCount >= 16 ? 8 : -1  // bright black (grey) when available
        case .highlight: return Int16(COLOR_YELLOW)
        case .warning: return Int16(COLOR_YELLOW)
        case .error: return Int16(COLOR_RED)
        case .success: return Int16(COLOR_GREEN)
        case .title: return Int16(COLOR_CYAN)
        }
    }

    /// Attributes a role adds in colour mode.
    private static func colorAttrs(_ role: Style.Role, colorCount: Int32) -> attr_t {
        switch role {
        case .title, .highlight, .error: return cs_A_BOLD()
        case .muted: return colorCount >= 16 ? 0 : cs_A_DIM()
        default: return 0
        }
    }

    /// Attributes that stand in for a role's colour in monochrome.
    static func monochromeAttrs(_ role: Style.Role) -> attr_t {
        switch role {
        case .highlight, .title: return cs_A_BOLD()
        case .muted: return cs_A_DIM()
        case .error, .warning: return cs_A_BOLD() | cs_A_UNDERLINE()
        case .normal, .accent, .success: return 0
        }
    }

    /// Sets up colours when `wantColors` and the terminal can; must run after `newterm`.
    init(wantColors: Bool) {
        var ok = wantColors && has_colors() && start_color() == OK
        var defaultBackground: Int16 = -1
        if ok, use_default_colors() != OK {
            defaultBackground = Int16(COLOR_BLACK)
        }
        let count = ok ? cs_colors() : 0
        if ok {
            for role in Style.Role.allCases where role != .normal {
                var fg = Self.foreground(role, colorCount: count)
                if fg < 0, defaultBackground >= 0 { fg = Int16(COLOR_WHITE) }
                if init_pair(Self.pair(role), fg, defaultBackground) != OK { ok = false }
            }
        }
        colors = ok
        roleAttrs = Style.Role.allCases.map {
            ok ? Self.colorAttrs($0, colorCount: count) : Self.monochromeAttrs($0)
        }
    }

    /// The colour pair number of a role (0 = default colours).
    static func pair(_ role: Style.Role) -> Int16 {
        role == .normal ? 0 : Int16(role.rawValue)
    }

    /// Attributes and colour pair for a cell style.
    func attributes(_ style: Style) -> (attrs: attr_t, pair: Int16) {
        var a = roleAttrs[Int(style.role.rawValue)]
        if style.bold { a |= cs_A_BOLD() }
        if style.reverse { a |= cs_A_REVERSE() }
        if style.dim { a |= cs_A_DIM() }
        if style.underline { a |= cs_A_UNDERLINE() }
        return (a, colors ? Self.pair(style.role) : 0)
    }
}

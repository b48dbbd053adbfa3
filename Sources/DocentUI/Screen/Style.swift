/// The look of one cell. Colours are semantic roles, so the terminal adapter can map them to a
/// colour theme or to plain attributes in monochrome (`NO_COLOR`) without the screens knowing.
public struct Style: Hashable, Sendable {
    /// A semantic colour role; the adapter picks real colours.
    public enum Role: UInt8, Hashable, Sendable, CaseIterable {
        case normal, accent, muted, highlight, warning, error, success, title
    }

    public var role: Role
    public var bold: Bool
    public var reverse: Bool
    public var dim: Bool
    public var underline: Bool
    /// A picture's own colours (nil: the role's). Written by the terminal adapter itself, after
    /// ncurses, as SGR colours (see `AnsiPalette.sgr`).
    public var foreground: PictureColour? = nil
    public var background: PictureColour? = nil

    public init(
        role: Role = .normal, bold: Bool = false, reverse: Bool = false, dim: Bool = false,
        underline: Bool = false
    ) {
        self.role = role
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
    }

    public static let plain = Style()
    public static let bold = Style(bold: true)
    public static let reverse = Style(reverse: true)
    public static let dim = Style(role: .muted, dim: true)
}

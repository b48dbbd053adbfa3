/// One terminal cell. A double-width character occupies its cell and marks the next one as
/// `continuation`, so a diff never writes half of a wide character.
public struct Cell: Hashable, Sendable {
    /// The grapheme drawn here ("" for the right half of a wide character).
    public var text: String
    public var style: Style
    /// True for the second column of a double-width character.
    public var continuation: Bool

    public init(_ text: String = " ", style: Style = .plain, continuation: Bool = false) {
        self.text = text
        self.style = style
        self.continuation = continuation
    }

    public static let blank = Cell()
}

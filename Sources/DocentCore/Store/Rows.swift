import Foundation

/// What activating a row does.
public indirect enum RowAction: Equatable, Sendable {
    case push(Route)
    case openLanguagePicker
    case toggleLocation
    /// Send this action (a feature's rows carry their own).
    case send(AppAction)
}

/// One line of a list screen, in the current language. The reducer uses `action` to know
/// what Enter does; the renderer draws `text`/`detail`. Both read the same rows.
public struct Row: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// A section title; never selected.
        case header
        /// A selectable entry.
        case item
        /// Explanatory text (loading, unavailable, empty); never selected.
        case note
        /// A web address, shown with its URL (a hyperlink where the terminal supports it).
        case link(url: String)
    }

    public var kind: Kind
    public var text: String
    /// Secondary text: a date, a count, a setting's value.
    public var detail: String?
    public var action: RowAction?
    /// The content is shown in English because the chosen language has none.
    public var fellBack: Bool
    /// A symbol before the text, in a colour of its own (a featured row's star, a popularity
    /// marker). The symbol alone must say it: colour is a help, never the only sign.
    public var mark: Mark?
    /// The keypad number on the label of the work this row lists (issue 47 #4), drawn in a
    /// column of its own before the text: a visitor not standing at the label learns it here.
    public var number: String?

    /// A row's mark: its symbol and its tone.
    public struct Mark: Equatable, Sendable {
        public enum Tone: Equatable, Sendable { case accent, warning, success, muted }
        public var symbol: String
        public var tone: Tone
        /// Only a picture of what the row's place already says (the popularity bars under
        /// "Popular right now"): not drawn for a screen reader, which would read "▰▱▱" out.
        public var decorative: Bool
        /// A marked note is a card: its text is drawn as plain text, not muted.
        public init(_ symbol: String, _ tone: Tone, decorative: Bool = false) {
            self.symbol = symbol
            self.tone = tone
            self.decorative = decorative
        }
    }

    public init(_ kind: Kind, _ text: String, detail: String? = nil, action: RowAction? = nil, fellBack: Bool = false, mark: Mark? = nil, number: String? = nil) {
        self.number = number
        self.kind = kind
        self.text = text
        self.detail = detail
        self.action = action
        self.fellBack = fellBack
        self.mark = mark
    }

    public var isSelectable: Bool {
        switch kind {
        case .item, .link: return true
        default: return false
        }
    }
}

/// A page of text: a detail view or an information page.
public struct TextPage: Equatable, Sendable {
    public var title: String
    /// Short facts under the title (dates, duration, stops, location).
    public var facts: [String]
    public var body: String
    public var links: [(label: String, url: String)]
    public var fellBack: Bool

    public init(title: String, facts: [String] = [], body: String, links: [(label: String, url: String)] = [], fellBack: Bool = false) {
        self.title = title
        self.facts = facts
        self.body = body
        self.links = links
        self.fellBack = fellBack
    }

    public static func == (a: TextPage, b: TextPage) -> Bool {
        a.title == b.title && a.facts == b.facts && a.body == b.body && a.fellBack == b.fellBack
            && a.links.map(\.url) == b.links.map(\.url) && a.links.map(\.label) == b.links.map(\.label)
    }

    /// The page as wrapped lines of at most `width` cells: title, facts, blank, body, links.
    /// The renderer draws exactly these; the reducer counts them to bound scrolling.
    public func lines(width: Int, strings: Strings) -> [TextLine] {
        var out: [TextLine] = Wrap.lines(title, width: width).map { TextLine($0, .title) }
        if fellBack { out += Wrap.lines(strings(.contentInEnglish), width: width).map { TextLine($0, .muted) } }
        for f in facts { out += Wrap.lines(f, width: width).map { TextLine($0, .muted) } }
        out.append(TextLine("", .body))
        out += Wrap.lines(body, width: width).map { TextLine($0, .body) }
        if !links.isEmpty {
            out.append(TextLine("", .body))
            for l in links {
                out += Wrap.lines("\(l.label): \(l.url)", width: width).map { TextLine($0, .link(l.url)) }
            }
        }
        return out
    }
}

/// A wrapped line of a text page and how it should look.
public struct TextLine: Equatable, Sendable {
    public enum Role: Equatable, Sendable { case title, muted, body, link(String) }
    public var text: String
    public var role: Role
    public init(_ text: String, _ role: Role) {
        self.text = text
        self.role = role
    }
}

/// The content of a route: a list of rows or a text page.
public enum PageContent: Equatable, Sendable {
    case list(title: String?, rows: [Row])
    case text(TextPage)
    /// Nothing to show yet (loading) or the reason it cannot be shown.
    case message(String)
    /// A screen a feature draws itself (its view in DocentUI), under `title`.
    case custom(FeatureID, title: String?)
}

extension Row {
    /// The row that is effectively selected: the stored index if selectable, else the first
    /// selectable row after it, else the first selectable row at all.
    public static func effectiveSelection(_ rows: [Row], _ selection: Int) -> Int? {
        if rows.indices.contains(selection), rows[selection].isSelectable { return selection }
        return rows.indices.first { $0 > selection && rows[$0].isSelectable } ?? rows.indices.first { rows[$0].isSelectable }
    }
}

/// The member card sign-in form: member ID and ZIP code, what is happening, what went wrong.
/// (A confirmed card is an ordinary list page; see `MemberFeature.cardRows`.)
public enum MemberView: ScopedFeatureView {
    public typealias Core = MemberFeature
    public static func render(_ screen: inout Screen, _ area: Rect, _ m: MemberState, _ context: FeatureContext) {
        let s = context.strings
        var y = area.y
        func line(_ text: String, _ style: Style) {
            for l in Wrap.lines(text, width: area.width) where y < area.maxY {
                screen.put(l, x: area.x, y: y, style: style, clip: area)
                y += 1
            }
        }
        // Fields and what is happening first, so they stay in view at the smallest size.
        let labels = [s(.memberIdLabel), s(.memberZipLabel)]
        let labelWidth = labels.map(TextWidth.width).max() ?? 0
        let fieldWidth = max(4, min(28, area.width - labelWidth - 3))
        for (i, (label, value)) in zip(labels, [m.memberID, m.zip]).enumerated() where y < area.maxY {
            let active = i == m.field && m.card == nil
            screen.put(label, x: area.x, y: y, style: active ? Style(role: .title, bold: true) : .plain, clip: area)
            let x = area.x + labelWidth + 2
            let box = Rect(x: x, y: y, width: fieldWidth, height: 1)
            screen.fill(box, style: Style(underline: true))
            // The end of a long value stays in view, with the cursor after it.
            let room = fieldWidth - 1
            var shown = value
            while TextWidth.width(shown) > room { shown.removeFirst() }
            let w = screen.put(shown, x: x, y: y, style: Style(underline: true), clip: box)
            if active, !m.isChecking { screen.put("▏", x: x + w, y: y, style: Style(role: .highlight, bold: true), clip: box) }
            screen.addHitRegion(Rect(x: area.x, y: y, width: labelWidth + 2 + fieldWidth, height: 1), action: .member(.focusField(i)))
            y += 1
        }
        y += 1
        switch m.status {
        case .checking: line(s(.memberChecking), Style(role: .accent, bold: true))
        case .failed(let why): line(MemberFeature.failureText(why, s), Style(role: .error))
        default: line(s(m.field == 0 ? .memberFormNext : .memberFormSubmit), Style(role: .muted))
        }
        y += 1
        line(s(.memberIntro), .plain)
        y += 1
        line(s(.memberPrivacy), Style(role: .muted))
    }

    /// On the form, typed keys go into the fields.
    public static func hints(_ state: MemberState, _ context: FeatureContext) -> String? {
        state.card == nil ? context.strings(.hintsMemberForm) : nil
    }

    /// The form's own keys: typing goes into the fields (digits included, so not to the
    /// keypad), ↑↓ change field, Enter moves on or signs in. Nil: the usual keys.
    public static func action(for key: Key, _ state: MemberState, _ context: FeatureContext) -> AppAction? {
        guard state.card == nil else { return nil }
        switch key {
        case .char(let c):
            guard !(c.unicodeScalars.first?.properties.generalCategory == .control) else { return nil }
            return .member(.typed(String(c)))
        case .backspace, .delete: return .member(.deleteBackward)
        case .up: return .member(.previousField)
        case .down: return .member(.nextField)
        case .enter: return .member(.submit)
        default: return nil
        }
    }
}

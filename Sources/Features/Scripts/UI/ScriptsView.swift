/// The Chinese scripts' part of the screen: nothing of its own to draw, the reader's script
/// over every frame (`TransformsFrame`).
public enum ScriptsView: FeatureView, TransformsFrame {
    public typealias Core = ScriptsFeature

    /// Chinese in the reader's script (issue 16 #2), whoever drew it (content, notes, the
    /// museum's texts).
    public static let frameTransform = FrameTransform(
        name: "readersScript",
        applies: { $0.language == .chinese || $0.language == .traditionalChinese },
        partial: true,
        apply: { screen, rows, state in screen.mapText(rows: rows, state.inReadersScript) })
}

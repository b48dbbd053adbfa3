/// Screen-reader mode's part of the screen: the cursor on the focus (asked of the terminal at
/// start) and a frame that is never drawn in part.
public enum ScreenReaderView: FeatureView, TransformsFrame, ChoosesRenderOptions {
    public typealias Core = ScreenReaderFeature

    /// A screen reader's frame: plain lines and the cursor on the focus. The player's clock does
    /// not tick for it, so it is never drawn in part.
    public static let frameTransform = FrameTransform(
        name: "screenReader", applies: { $0.screenReader }, partial: false, apply: { _, _, _ in })

    /// The terminal's cursor on what has the visitor's attention (`Screen.focus`).
    public static func renderOptions(_ config: [String: String]) -> RenderOptions {
        RenderOptions(screenReader: ScreenReaderFeature.isEnabled(config: config))
    }
}

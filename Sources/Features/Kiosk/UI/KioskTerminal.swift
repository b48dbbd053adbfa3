/// What a kiosk asks of the shared screen: raw keys (Ctrl-C, Ctrl-Z and Ctrl-\ are keys, not
/// signals) and hints and help that do not advertise quitting while visitors cannot quit.
extension KioskView: ChoosesRenderOptions, ScopedFiltersHints {
    public static func renderOptions(_ config: [String: String]) -> RenderOptions {
        RenderOptions(terminalMode: KioskConfig.decode(config).enabled ? .raw : .cbreak)
    }

    public static func filterHints(_ hints: String, _ state: KioskState, _ context: FeatureContext) -> String { KioskHints.hints(hints, state) }

    public static func filterHelp(_ section: HelpSection, _ state: KioskState, _ context: FeatureContext) -> HelpSection {
        KioskHints.section(section, state)
    }
}

/// Tours draw no page of their own (theirs are lists); they bring their keys while a tour
/// runs and their three boxes: the tour's language, "leave the tour?", "resume?".
public enum ToursView: ScopedTakesKeysAnywhere, ScopedGivesHelp, ScopedDrawsOverlay {
    public typealias Core = TourFeature

    /// While a tour runs, on every tab: > next, < previous, m mode, x leave, r retry after a
    /// failure; Enter on the player, when waiting at a stop, says "arrived". Space stays the
    /// player's (issue 33 #5: it said "arrived" while the player's line said "Space play
    /// again"): one meaning per key, the one its hint names.
    public static func anywhere(_ key: Key, _ state: TourFeature.State, _ context: FeatureContext) -> AppAction? {
        guard let t = state.session else { return nil }
        let waiting: Bool
        if case .waiting = t.machine.position { waiting = true } else { waiting = false }
        switch key {
        case .enter where waiting && context.route == .player: return .tour(.event(.arrived))
        case .char(">"), .char("."): return .tour(.event(.next))
        case .char("<"), .char(","): return .tour(.event(.previous(secondsIntoClip: 0)))
        case .char("m"): return .tour(.toggleMode)
        case .char("x"): return .tour(.askLeave)
        case .char("r") where t.failed: return .tour(.event(.retry))
        default: return nil
        }
    }

    /// While a tour runs: its keys, "arrived" only when a guided tour can wait, retry only after
    /// a failure (the table's lines: arrived, next/previous, mode, leave, retry).
    public static func help(_ state: TourFeature.State, _ context: FeatureContext) -> HelpSection? {
        guard let t = state.session else { return nil }
        var section = HelpSection(title: context.strings(.helpSectionTour), table: context.strings(.helpTourKeys))
        let canArrive = t.machine.mode == .guided && t.machine.position != .complete
        section.lines = section.lines.enumerated().filter { i, _ in (i != 0 || canArrive) && (i != 4 || t.failed) }.map(\.element)
        return section
    }

    public static func renderOverlay(_ screen: inout Screen, _ overlay: TourFeature.Overlay, _ state: TourFeature.State, _ context: FeatureContext) {
        let s = context.strings
        switch overlay {
        case .language(let id, _, let sel):
            let tour = context.museum?.tour(id)
            let lines = OverlayView.audioLanguageLines(context) { tour?.translations[$0] != nil }
            OverlayView.choices(&screen, title: s(.tourLanguageTitle, ["tour": tour?.text(context.language).text.title ?? ""]), lines: lines, selection: sel, footer: s(.languageFooter))
        case .leave:
            let title = state.session.flatMap { context.museum?.tour($0.machine.tourID) }?.text(context.language).text.title ?? ""
            OverlayView.box(&screen, title: s(.tourLeaveTitle), text: s(.tourLeaveText, ["tour": title]), footer: s(.tourLeaveFooter))
        case .resume(let sel):
            guard let p = state.progress.current, let tour = context.museum?.tour(p.tourID) else { return }
            let title = tour.text(context.language).text.title
            // On the walk to a stop, the directions play again from where they were.
            let text = p.stopIndex.map { s(p.part == .walk ? .tourResumeWalk : .tourResumeStop, ["n": String(min($0, Int.max - 1) + 1), "time": PlayerView.time(p.seconds)]) }
                ?? s(.tourResumeIntro)
            OverlayView.choices(
                &screen, title: s(.tourResumeTitle, ["tour": title]), lines: [text, s(.tourResumeLater), s(.tourResumeForget)], selection: sel,
                footer: s(.tourResumeFooter))
        }
    }
}

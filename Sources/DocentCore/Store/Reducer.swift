import Foundation

/// The one place state changes. Pure: returns the effects for the shell to run.
public enum Reducer {
    /// Reduces `action`, then tells every feature when what is on screen changed.
    public static func reduce(_ state: inout AppState, _ action: AppAction) -> [Effect] {
        let before = Place(state)
        let anchor = arrivesData(action, state) ? selectedRow(state) : nil
        var effects = dispatch(&state, action)
        if Place(state) != before { effects += broadcast(.navigated(from: before.tab), &state) }
        if let anchor { keepSelected(anchor, &state) }
        return effects
    }

    /// What the visitor has selected on a list page: the page, its selection index and the
    /// selected row's action.
    struct SelectedRow {
        var route: Route
        var selection: Int
        var action: RowAction
    }

    /// Data that can add rows above the selection (Pulse's answer, with "Popular right now";
    /// a fetched feed) on a list page.
    static func arrivesData(_ action: AppAction, _ state: AppState) -> Bool {
        guard state.overlay == nil, state.museum != nil else { return false }
        switch action {
        case .feature(let v): return v.feature == PulseFeature.id || v.feature == HomeFeature.id
        default: return false
        }
    }

    /// Only a selection the visitor made (an index past the first): an untouched list keeps
    /// its first row, the top of the list, where a new section appears, so the list still
    /// opens at its top.
    static func selectedRow(_ state: AppState) -> SelectedRow? {
        guard state.page.selection > 0, let rows = rows(state), let i = Row.effectiveSelection(rows, state.page.selection), let a = rows[i].action else { return nil }
        return SelectedRow(route: state.page.route, selection: state.page.selection, action: a)
    }

    /// The selection stays on the row it was on when rows came above it (issue 47 #18: the
    /// selection jumped when "Popular right now" arrived), unless the visitor moved meanwhile.
    static func keepSelected(_ anchor: SelectedRow, _ state: inout AppState) {
        guard state.page.route == anchor.route, state.page.selection == anchor.selection, let rows = rows(state) else { return }
        if let i = Row.effectiveSelection(rows, state.page.selection), rows[i].action == anchor.action { return }
        guard let i = rows.firstIndex(where: { $0.isSelectable && $0.action == anchor.action }) else { return }
        state.page.selection = i
    }

    /// What is on screen, coarsely: a change is the `.navigated` moment.
    struct Place: Equatable {
        var tab: Tab
        var route: Route
        var depth: Int
        var ready: Bool
        init(_ s: AppState) {
            tab = s.tab
            route = s.page.route
            depth = s.depth
            ready = s.museum != nil
        }
    }

    /// Tells the features that listen to it, in their declared events order, about a shared moment.
    static func broadcast(_ event: FeatureEvent, _ state: inout AppState) -> [Effect] {
        var effects: [Effect] = []
        for f in state.features.listening(to: event.kind) { effects += f.react(event, &state) }
        return effects
    }

    /// One action, without the `.navigated` check (for actions that send others).
    static func dispatch(_ state: inout AppState, _ action: AppAction) -> [Effect] {
        if case .feature(let value) = action {
            guard let f = state.features[id: value.feature], let effects = f.reduce(&state, value) else {
                // A feature's action with no feature to take it is a wiring mistake, never silent.
                assertionFailure("no registered feature takes \(value)")
                return []
            }
            return effects
        }
        switch action {
        case .launched(let restored, let override):
            return launched(&state, restored, override)
        case .documentLoaded(let result, let note):
            return documentLoaded(&state, result, note)
        case .persistenceFailed(let why):
            state.banner = Banner(.key(.bannerStateNotSaved, ["reason": .verbatim(why)]), level: .warning)
            return []
        case .selectTab(let t):
            guard state.tabs.contains(t), state.overlay == nil || isPassive(state.overlay) else { return [] }
            let closing = closeHelpForTabKey(&state)
            if state.tab == t { return closing }
            state.tab = t
            return closing.filter { !$0.isPersist } + [.persist(state.settings)]
        case .nextTab, .previousTab:
            guard let i = state.tabs.firstIndex(of: state.tab), state.overlay == nil || isPassive(state.overlay) else { return [] }
            let closing = closeHelpForTabKey(&state)
            let n = state.tabs.count
            let j = action == .nextTab ? (i + 1) % n : (i + n - 1) % n
            state.tab = state.tabs[j]
            return closing.filter { !$0.isPersist } + [.persist(state.settings)]
        case .move(let delta):
            return move(&state, delta)
        case .page(let pages):
            return move(&state, pages * max(1, state.viewportRows - 1))
        case .moveToStart:
            return move(&state, Int.min / 2)
        case .moveToEnd:
            return move(&state, Int.max / 2)
        case .activate:
            return activate(&state)
        case .back:
            if state.overlay != nil { return dispatch(&state, .dismissOverlay) }
            guard var stack = state.stacks[state.tab], stack.count > 1 else { return [] }
            stack.removeLast()
            state.stacks[state.tab] = stack
            return []
        case .showHelp:
            guard state.overlay == nil else { return [] }
            state.overlay = .help(firstRun: false)
            state.overlayScroll = 0
            return []
        case .openLanguagePicker:
            var effects: [Effect] = []
            if case .help(true)? = state.overlay {
                // Choosing a language from the welcome counts as having read it.
                state.introSeen = true
                effects.append(.persist(state.settings))
            }
            let langs = state.catalog.languages
            state.overlay = .languagePicker(selection: langs.firstIndex(of: state.language) ?? 0)
            return effects
        case .setLanguage(let l):
            guard state.catalog.tables[l] != nil else { return [] }
            state.language = l
            state.chosenLanguage = l
            var effects: [Effect] = []
            if case .languagePicker = state.overlay {
                state.overlay = nil
                effects += showNextMessage(&state)
            }
            return effects + broadcast(.languageChanged, &state) + [.persist(state.settings)]
        case .dismissOverlay:
            return dismissOverlay(&state)
        case .clickRow(let i):
            guard state.overlay == nil, let rows = rows(state), rows.indices.contains(i), rows[i].isSelectable else { return [] }
            state.page.selection = i
            return activate(&state)
        case .clickChoice(let i):
            switch state.overlay {
            case .feature(let v)?: return state.features[id: v.feature]?.overlay(.choose(i), v, &state) ?? []
            case .languagePicker?: state.overlay = .languagePicker(selection: i)
            case .help?, .message?, nil: return []
            }
            return activate(&state)
        case .viewportChanged(let rows, let width):
            let before = (state.viewportRows, state.viewportWidth)
            state.viewportRows = max(1, rows)
            state.viewportWidth = max(1, width)
            return before == (state.viewportRows, state.viewportWidth) ? [] : broadcast(.resized, &state)
        case .tick(let now):
            state.now = now
            return broadcast(.tick, &state)
        case .quit:
            guard state.features.all.allSatisfy({ $0.allowsQuit(state) }) else { return [] }
            return dispatch(&state, .terminate)
        case .terminate:
            state.quitting = true
            return [.persist(state.settings)] + broadcast(.quitting, &state) + [.quit]
        case .visitorInput:
            return broadcast(.visitorInput, &state)
        case .startOver:
            return startOver(&state)
        case .bannerShown(let b):
            // The same words again move to the top rather than filling the list.
            state.recentBanners.removeAll { $0 == b }
            state.recentBanners.insert(b, at: 0)
            if state.recentBanners.count > AppState.recentBannerLimit { state.recentBanners.removeLast(state.recentBanners.count - AppState.recentBannerLimit) }
            return [.timer(.banner, milliseconds: b.lifetimeMilliseconds, action: .bannerExpired(b))]
        case .bannerExpired(let b):
            if state.banner == b { state.banner = nil }
            return []
        case .feature:
            // Taken above; reaching here is a wiring mistake.
            assertionFailure("unhandled action \(action)")
            return []
        }
    }

    /// Home, the default language, nothing on top, every tab at its root; then each feature
    /// forgets its part. Saved, so a restart does not bring the last visitor back.
    static func startOver(_ state: inout AppState) -> [Effect] {
        state.tab = state.tabs.contains(.home) ? .home : state.tabs.first ?? .home
        state.stacks = [:]
        state.overlay = nil
        state.overlayScroll = 0
        state.messageQueue = []
        state.banner = nil
        // The next visitor does not read this one's messages.
        state.recentBanners = []
        var effects = broadcast(.startOver, &state)
        state.chosenLanguage = nil
        if state.language != state.defaultLanguage, state.catalog.tables[state.defaultLanguage] != nil {
            state.language = state.defaultLanguage
            effects += broadcast(.languageChanged, &state)
        }
        return effects + [.persist(state.settings)]
    }

    /// Overlays that a tab key closes (and then does its work): the key help, and the welcome,
    /// which teaches those keys.
    static func isPassive(_ o: Overlay?) -> Bool {
        if case .help? = o { return true }
        return false
    }

    /// Closes the key help or the welcome for a tab key (the welcome counts as read; the
    /// museum's next message, if any, shows over the new tab).
    static func closeHelpForTabKey(_ state: inout AppState) -> [Effect] {
        guard case .help? = state.overlay else { return [] }
        return dismissOverlay(&state)
    }

    static func launched(_ state: inout AppState, _ restored: PersistedSettings?, _ override: Language?) -> [Effect] {
        if let r = restored {
            state.seenMessageIDs = r.seenMessageIDs
            state.locationEnabled = r.locationEnabled
            state.introSeen = r.introSeen
            for (id, value) in r.saves.values { state.features[id: id]?.restore(value, &state) }
            if state.tabs.contains(r.lastTab) { state.tab = r.lastTab }
            if let l = r.language, state.catalog.tables[l] != nil {
                state.language = l
                state.chosenLanguage = l
            }
            if r.skippedValues > 0 {
                state.banner = Banner(.key(Plural.isOne(r.skippedValues, state.language) ? .bannerStateValuesSkippedOne : .bannerStateValuesSkipped, ["count": .verbatim(Plural.number(r.skippedValues, state.language))]), level: .warning)
            }
        }
        if let l = override, state.catalog.tables[l] != nil { state.language = l }
        if !state.introSeen { state.overlay = .help(firstRun: true) }
        let hooks = broadcast(.launched, &state)
        guard case .loading(let source) = state.document else { return hooks }
        return [.loadDocument(source: source)] + hooks
    }

    static func documentLoaded(_ state: inout AppState, _ result: Result<Museum, LoadFailure>, _ note: Phrase?) -> [Effect] {
        switch result {
        case .failure(let f):
            if case .ready = state.document {
                // A reload (the kiosk's daily one) that fails keeps the museum on screen.
                state.banner = Banner(.key(.bannerReloadFailed, ["reason": .verbatim(f.message)]), level: .warning)
                return []
            }
            state.document = .failed(f.message)
            state.banner = Banner(.key(.bannerDocumentFailed), level: .error)
            // The welcome would hide why nothing works: it is closed (not counted as read,
            // so it comes back once the data is right).
            if case .help(firstRun: true)? = state.overlay { state.overlay = nil }
            return broadcast(.documentLoaded, &state)
        case .success(let museum):
            state.document = .ready(museum)
            state.documentNote = note
            if let note { state.banner = Banner(note, level: .warning) }
            let app = museum.data
            state.messageQueue = app.messages.filter {
                $0.kind == .launch && ($0.persistent || !state.seenMessageIDs.contains($0.id))
            }.map(\.id)
            let shown = state.overlay == nil ? showNextMessage(&state) : []
            return shown + broadcast(.documentLoaded, &state)
        }
    }

    /// Shows the next queued message; when none is left and nothing is on top, the features
    /// hear `.settled` (tours offer to resume).
    static func showNextMessage(_ state: inout AppState) -> [Effect] {
        guard !state.messageQueue.isEmpty else {
            return state.overlay == nil ? broadcast(.settled, &state) : []
        }
        state.overlay = .message(id: state.messageQueue.removeFirst())
        return []
    }

    static func dismissOverlay(_ state: inout AppState) -> [Effect] {
        guard let o = state.overlay else { return [] }
        state.overlay = nil
        state.overlayScroll = 0
        var changed = false
        var effects: [Effect] = []
        switch o {
        case .help(let first):
            if first {
                state.introSeen = true
                changed = true
            }
        case .message(let id):
            if !state.seenMessageIDs.contains(id) {
                state.seenMessageIDs.insert(id)
                changed = true
            }
        case .languagePicker: break
        case .feature(let v):
            effects += state.features[id: v.feature]?.overlay(.dismissed, v, &state) ?? []
        }
        effects += showNextMessage(&state)
        return (changed ? [.persist(state.settings)] : []) + effects
    }

    // MARK: Lists

    static func rows(_ state: AppState) -> [Row]? {
        if case .list(_, let rows) = PageBuilder.content(state.page.route, state) { return rows }
        return nil
    }

    /// `sel` moved by `delta` within `0..<n` (never overflowing).
    static func clamp(_ sel: Int, _ delta: Int, _ n: Int) -> Int {
        min(max(0, sel.addingReportingOverflow(delta).partialValue), max(0, n - 1))
    }

    static func move(_ state: inout AppState, _ delta: Int) -> [Effect] {
        switch state.overlay {
        case .languagePicker(let sel)?:
            state.overlay = .languagePicker(selection: clamp(sel, delta, state.catalog.languages.count))
            return []
        case .help?:
            state.overlayScroll = min(max(0, state.overlayScroll.addingReportingOverflow(delta).partialValue), 60)
            return []
        case .feature(let v)?:
            return state.features[id: v.feature]?.overlay(.move(delta), v, &state) ?? []
        case .message?:
            return []
        case nil: break
        }
        var page = state.page
        switch PageBuilder.content(page.route, state) {
        case .list(_, let rows):
            let selectable = rows.indices.filter { rows[$0].isSelectable }
            guard !selectable.isEmpty else { return [] }
            let effective = Row.effectiveSelection(rows, page.selection) ?? selectable[0]
            let current = selectable.firstIndex(of: effective) ?? 0
            let target = min(max(0, current.addingReportingOverflow(delta).partialValue), selectable.count - 1)
            page.selection = selectable[target]
        case .text(let text):
            // The text beside or under a feature's figure (an exhibition's picture), if any.
            let now = state
            let figure = now.features.taking(.figure).lazy.compactMap { $0.figure(.page, now) }.first
            let room = FigureLayout.split(width: state.viewportWidth, rows: state.viewportRows, figure: figure)
            let total = text.lines(width: room.textWidth, strings: state.strings).count
            let maxScroll = max(0, total - room.textRows)
            page.scroll = min(max(0, page.scroll.addingReportingOverflow(delta).partialValue), maxScroll)
        case .custom(let id, _):
            // A feature's own screen: the mouse wheel (its keys are its own).
            return state.features[id: id]?.move(delta, &state) ?? []
        case .message:
            return []
        }
        state.page = page
        return []
    }

    static func activate(_ state: inout AppState) -> [Effect] {
        if case .languagePicker(let sel) = state.overlay {
            let langs = state.catalog.languages
            guard langs.indices.contains(sel) else { return [] }
            return dispatch(&state, .setLanguage(langs[sel]))
        }
        if case .feature(let v)? = state.overlay {
            return state.features[id: v.feature]?.overlay(.activate, v, &state) ?? []
        }
        if state.overlay != nil { return dismissOverlay(&state) }
        guard let rows = rows(state) else { return [] }
        let page = state.page
        guard let i = Row.effectiveSelection(rows, page.selection) else { return [] }
        guard let action = rows[i].action else {
            // A web address the guide cannot open: Enter says what to do with it (issue 33 #19:
            // Enter on Info's link rows gave no feedback).
            if case .link(let url) = rows[i].kind { state.banner = Banner(.key(.bannerLink, ["url": .verbatim(url)])) }
            return []
        }
        return perform(&state, action)
    }

    static func perform(_ state: inout AppState, _ action: RowAction) -> [Effect] {
        switch action {
        case .push(let route):
            push(&state, route)
            state.page.selection = firstSelectable(route, state)
            return []
        case .openLanguagePicker:
            return dispatch(&state, .openLanguagePicker)
        case .toggleLocation:
            state.locationEnabled.toggle()
            return [.persist(state.settings)]
        case .send(let a):
            return dispatch(&state, a)
        }
    }

    /// Puts `route` on top of the current tab's stack.
    static func push(_ state: inout AppState, _ route: Route) {
        var stack = state.stacks[state.tab] ?? [Page(Route.root(of: state.tab))]
        stack.append(Page(route))
        state.stacks[state.tab] = stack
    }

    static func firstSelectable(_ route: Route, _ state: AppState) -> Int {
        if case .list(_, let rows) = PageBuilder.content(route, state) {
            return rows.indices.first { rows[$0].isSelectable } ?? 0
        }
        return 0
    }
}

extension Effect {
    /// A settings save (several in one step are said once, with the last settings).
    var isPersist: Bool {
        if case .persist = self { return true }
        return false
    }
}

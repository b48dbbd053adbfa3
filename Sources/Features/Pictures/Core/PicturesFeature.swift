import Foundation

/// Pictures of the artworks: which one the page on screen wants, at what size, and what came
/// back. The composition root decides the terminal's mode at start (`PictureMode.resolve`, from
/// the `images` setting and the environment, as it decides hyperlinks) and sends it as
/// `.modeResolved`; the shell (`PicturesRunner`) fetches, decodes and draws each picture off
/// the loop thread; the core keeps the results by URL and
/// size and gives them to the pages that have a figure slot (the full player, an exhibition's
/// page, a tour's page, the search results); which picture a page shows is its feature's word
/// (`pictureWanted`).
public enum PicturesFeature: ScopedFeature, HearsEvents, ScopedGivesFigures {
    /// A picture of `url` drawn in at most `columns × rows` cells.
    public struct Request: Hashable, Sendable {
        public var url: String
        public var columns: Int
        public var rows: Int
        public init(url: String, columns: Int, rows: Int) {
            self.url = url
            self.columns = columns
            self.rows = rows
        }
    }

    public enum Slot: Equatable, Sendable {
        case loading
        case ready(Picture)
        case failed(Phrase)
        /// Not there (no such file, HTTP 404) or not reachable now (offline, with no copy kept):
    /// no picture, and nothing said.
        case missing
    }

    public struct State: Equatable, Sendable {
        /// `.off` until the shell has said what this terminal can show.
        public var mode: PictureMode = .off
        public var slots: [Request: Slot] = [:]
        /// The requests in `slots`, oldest first (the oldest finished ones are let go).
        public var order: [Request] = []
        public init() {}
    }

    public enum Action: Equatable, Sendable {
        /// What this terminal shows, from the `images` setting and the environment (sent once
        /// at start by the composition root).
        /// The mode decided at start; `offOn`: the terminal `auto` turned pictures off for
        /// (`PictureMode.offForFewColours`), said once in a banner.
        case modeResolved(PictureMode, offOn: String? = nil)
        case loaded(Request, Picture)
        case failed(Request, String)
        case missing(Request)
        /// The page on screen changed its picture without a shared moment (the search's
        /// selection moved): ask for it if it is not there or on its way.
        case pageChanged
    }

    public enum Effect: Equatable, Sendable {
        /// Fetch, decode and draw a picture in these colours.
        case load(Request, PictureMode.ColourDepth)
        /// Fetch and decode a picture and make it an image for this graphics protocol.
        case loadGraphic(Request, GraphicsProtocol)
        /// Open the libraries that decode and draw pictures once the guide is on screen, so
        /// the first picture (the player's, at Play) does not wait for them (issue 48).
        case warmUp
    }

    public static let id = FeatureID("pictures")
    // The one feature with figures today: whoever adds one states whether it goes first.
    public static let after = [PlayerFeature.id]
    public static let before = [MapFeature.id]
    public static let listensTo: Set<FeatureEvent.Kind> = [.documentLoaded, .navigated, .playerChanged, .resized, .pageChanged]
    public static let initialState = State()
    /// `images = "auto" | "always" | "symbols" | "never"` (read by the composition root).
    public static let configKeys = ["images"]

    public static func configProblem(_ key: String, _ value: String) -> String? {
        ImageSetting(parsing: value) == nil ? "must be auto, always, symbols, never, kitty, iterm2 or sixel" : nil
    }
    /// Pictures kept in memory (a few screens' worth; each is a few thousand cells).
    public static let keep = 12

    public static func reduce(_ state: inout State, _ action: Action, _ context: FeatureContext) -> Outcome {
        switch action {
        case .modeResolved(let mode, let term):
            state.mode = mode
            // Why no picture will appear, once, where a visitor could change it: not on a
            // museum's kiosk, nor for a screen reader (pictures are read as their words there).
            let why = term.flatMap { t -> UIRequest? in
                context.sharedTerminal || context.screenReader ? nil : .banner(Banner(.key(.picturesOffTerminal, ["term": .verbatim(t)])))
            }
            // Pictures will be drawn: their libraries are opened once the guide is on screen.
            let warm = mode != .off && !context.screenReader ? [effect(.warmUp)] : []
            return Outcome(effects: warm + request(&state, context), requests: why.map { [$0] } ?? [])
        case .loaded(let r, let picture):
            guard state.slots[r] == .loading else { return .none }
            state.slots[r] = .ready(picture)
            return .none
        case .failed(let r, let message):
            guard state.slots[r] == .loading else { return .none }
            state.slots[r] = .failed(.key(.picturesFailed, ["reason": .verbatim(message)]))
            return .none
        case .missing(let r):
            guard state.slots[r] == .loading else { return .none }
            state.slots[r] = .missing
            return .none
        case .pageChanged:
            return Outcome(effects: request(&state, context))
        }
    }

    public static func react(to event: FeatureEvent, _ state: inout State, _ context: FeatureContext) -> Outcome {
        switch event {
        case .playerChanged(let before) where before.token == context.playerSnapshot.token:
            // The same recording moved on (every shown second while it plays): the picture
            // follows the recording, not its position or its state.
            return .none
        case .documentLoaded, .navigated, .playerChanged, .resized, .pageChanged:
            return Outcome(effects: request(&state, context))
        default:  // not listened to (`listensTo`): never sent here
            return .none
        }
    }

    /// The picture the page on screen wants now, if any (a feature's `pictureWanted`: the full
    /// player's artwork, an exhibition's picture, a tour's banner, the selected search result),
    /// and where it goes; as large as that slot's figure box.
    /// Nothing to fetch in screen-reader mode: a picture drawn as symbols is noise read out
    /// cell by cell; the page says what it shows instead (`figure`).
    static func wanted(_ state: State, _ context: FeatureContext) -> (request: Request, slot: FigureSlot)? {
        wanted(state, wish: { context.pictureWish }, screenReader: context.screenReader, width: context.viewportWidth)
    }

    /// `wish` is asked only when a picture could be drawn at all.
    static func wanted(_ state: State, wish: () -> PictureWish?, screenReader: Bool, width: Int) -> (request: Request, slot: FigureSlot)? {
        guard state.mode != .off, !screenReader, let wish = wish(),
            let box = FigureLayout.box(width: width, rows: wish.rows, slot: wish.slot)
        else { return nil }
        return (Request(url: wish.url, columns: box.columns, rows: box.rows), wish.slot)
    }

    /// Asks for the picture the page on screen shows unless it is there or on its way. The
    /// moments that change pages are heard here, `.pageChanged` among them (a feature whose page
    /// changes its picture without navigating, as the search's selection, tells it).
    static func request(_ state: inout State, _ context: FeatureContext) -> [DocentCore.Effect] {
        guard state.mode != .off, let r = wanted(state, context)?.request, state.slots[r] == nil else { return [] }
        state.slots[r] = .loading
        state.order.append(r)
        // Let the oldest finished pictures go (one still loading is kept: its answer is awaited).
        while state.order.count > keep, let i = state.order.firstIndex(where: { state.slots[$0] != .loading }) {
            state.slots[state.order.remove(at: i)] = nil
        }
        switch state.mode {
        case .symbols(let depth): return [effect(.load(r, depth))]
        case .graphics(let kind): return [effect(.loadGraphic(r, kind))]
        case .off: return []
        }
    }

    public static func figure(_ slot: FigureSlot, _ state: State, _ context: FeatureContext) -> Figure? {
        // A screen reader gets the picture in words, one line ("Picture: Indigo Field
        // Coverlet, Unknown maker"), whatever the terminal could draw.
        if context.screenReader {
            guard let wish = context.pictureWish, wish.slot == slot else { return nil }
            return .note(wish.about.isEmpty ? .key(.picturesPicture) : .key(.picturesDescribed, ["what": .verbatim(wish.about)]))
        }
        guard let (r, on) = wanted(state, context), on == slot else { return nil }
        switch state.slots[r] {
        case .loading?: return .pending(columns: r.columns, rows: r.rows)
        case .ready(let p)?: return .picture(p)
        case .failed(let phrase)?: return .note(phrase)
        case .missing?, nil: return nil
        }
    }
}

extension AppState {
    /// The pictures' state: only their actions change it.
    var pictures: PicturesFeature.State {
        get { self[PicturesFeature.self] }
        set { self[PicturesFeature.self] = newValue }
    }
}

extension AppAction {
    public static func pictures(_ a: PicturesFeature.Action) -> AppAction { PicturesFeature.action(a) }
}

extension Effect {
    public static func pictures(_ e: PicturesFeature.Effect) -> Effect { PicturesFeature.effect(e) }
}

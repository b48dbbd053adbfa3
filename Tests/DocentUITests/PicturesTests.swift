import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Pictures of the artworks: the mode chosen from the setting and the environment, the
/// reducer asking for the full player's picture at the size of its figure box (through
/// `send`), the player drawn with a picture beside or above the transcript, and the cells in
/// a picture's own colours that the terminal adapter writes again after ncurses.
final class PicturesTests: XCTestCase {
    static let url = "/museum/images/harbor.jpg"

    /// The test museum with a picture on "Harbor at Dawn" (artwork 100, audio 11).
    static let museum: Museum = {
        var json = String(decoding: UIFixtures.bytes("museum.json"), as: UTF8.self)
        json = json.replacingOccurrences(
            of: #""100": {"nid": 100, "title": "Harbor at Dawn","#,
            with: #""100": {"nid": 100, "title": "Harbor at Dawn", "image_url": "images/harbor.jpg","#)
        switch AppDataReader.read(Array(json.utf8), source: "/museum/appData.json") {
        case .success(let a): return Museum(a)
        case .failure(let e): fatalError("\(e)")
        }
    }()

    func loaded(size: Size = Size(width: 80, height: 24), mode: PictureMode = .symbols(.truecolor)) -> AppState {
        var s = UIFixtures.loadedState(size: size)
        s.document = .ready(Self.museum)
        prepare(&s, .pictures(.modeResolved(mode)))
        return s
    }

    /// Plays a recording and opens the full player.
    func open(_ s: inout AppState, audioID: Int, artworkID: Int) {
        prepare(&s, .play(audioID: audioID, artworkID: artworkID, tourID: nil))
        prepare(&s, .openPlayer)
    }

    /// A 12 × 6 picture: sky over sea, a sun, in four colours of our own.
    static let picture: Picture = {
        var cells: [PictureCell] = []
        for y in 0..<6 {
            for x in 0..<12 {
                switch y {
                case 0, 1: cells.append(PictureCell("▀", foreground: .rgb(40, 50, 110), background: .rgb(200, 120, 80)))
                case 2 where (5...6).contains(x): cells.append(PictureCell("▄", foreground: .rgb(255, 230, 150), background: .rgb(200, 120, 80)))
                case 2: cells.append(PictureCell(" ", background: .rgb(200, 120, 80)))
                default: cells.append(PictureCell("▀", foreground: .index(24), background: .index(17)))
                }
            }
        }
        return Picture(columns: 12, rows: 6, cells: cells)!
    }()

    // MARK: The mode

    func testTheModeErrsTowardsLess() {
        let xterm = ["TERM": "xterm-256color"]
        XCTAssertEqual(PictureMode.resolve(.auto, environment: xterm), .symbols(.indexed256))
        XCTAssertEqual(PictureMode.resolve(.auto, environment: xterm.merging(["COLORTERM": "truecolor"]) { $1 }), .symbols(.truecolor))
        XCTAssertEqual(PictureMode.resolve(.auto, environment: ["TERM": "xterm-direct"]), .symbols(.truecolor))
        // Inside tmux or screen, never more than 256 colours.
        XCTAssertEqual(PictureMode.resolve(.auto, environment: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "COLORTERM": "truecolor"]), .symbols(.indexed256))
        XCTAssertEqual(PictureMode.resolve(.always, environment: ["TERM": "screen", "STY": "1.pts"]), .symbols(.indexed16))
        // A terminal of unknown colours: none in auto, 16 colours when asked.
        XCTAssertEqual(PictureMode.resolve(.auto, environment: ["TERM": "linux"]), .off)
        XCTAssertEqual(PictureMode.resolve(.symbols, environment: ["TERM": "linux"]), .symbols(.indexed16))
        XCTAssertEqual(PictureMode.resolve(.auto, environment: ["TERM": "dumb"]), .off)
        XCTAssertEqual(PictureMode.resolve(.auto, environment: [:]), .off)
        // NO_COLOR: none in auto; shapes without colour when asked; an empty NO_COLOR is not set.
        XCTAssertEqual(PictureMode.resolve(.auto, environment: xterm.merging(["NO_COLOR": "1"]) { $1 }), .off)
        XCTAssertEqual(PictureMode.resolve(.always, environment: xterm.merging(["NO_COLOR": "1"]) { $1 }), .symbols(.none))
        XCTAssertEqual(PictureMode.resolve(.auto, environment: xterm.merging(["NO_COLOR": ""]) { $1 }), .symbols(.indexed256))
        XCTAssertEqual(PictureMode.resolve(.never, environment: xterm.merging(["COLORTERM": "truecolor"]) { $1 }), .off)
    }

    /// Issue 47 #19: a plain `TERM=xterm` gets no pictures in `auto`, and the guide says why and
    /// what to try, once; not when pictures were asked off, nor on a kiosk or for a screen reader.
    func testAPlainTerminalSaysWhyNoPictureAppears() {
        XCTAssertEqual(PictureMode.offForFewColours(.auto, environment: ["TERM": "xterm"]), "xterm")
        XCTAssertEqual(PictureMode.offForFewColours(.auto, environment: ["TERM": "linux"]), "linux")
        XCTAssertNil(PictureMode.offForFewColours(.auto, environment: ["TERM": "xterm-256color"]), "pictures are on")
        XCTAssertNil(PictureMode.offForFewColours(.never, environment: ["TERM": "xterm"]), "asked off")
        XCTAssertNil(PictureMode.offForFewColours(.auto, environment: ["TERM": "xterm", "NO_COLOR": "1"]), "asked off")
        XCTAssertNil(PictureMode.offForFewColours(.auto, environment: ["TERM": "dumb"]))
        XCTAssertNil(PictureMode.offForFewColours(.auto, environment: [:]))
        var s = UIFixtures.loadedState()
        let banner = Banner(.key(.picturesOffTerminal, ["term": .verbatim("xterm")]))
        send(&s, .pictures(.modeResolved(.off, offOn: "xterm"))) { $0.banner = banner }
        let screen = RootView.render(s, size: Size(width: 120, height: 24))
        XCTAssertTrue(screen.dump().contains("TERM=xterm shows too few colours. Try TERM=xterm-256color"), screen.dump())
        var kiosk = UIFixtures.loadedState()
        kiosk.config["kiosk"] = "true"
        send(&kiosk, .pictures(.modeResolved(.off, offOn: "xterm")))
    }

    /// A graphics protocol only where the terminal names itself, never inside tmux or screen,
    /// never with NO_COLOR, never when symbols are asked for; forced by naming it.
    func testAGraphicsProtocolOnlyWhereTheTerminalSaysSo() {
        XCTAssertEqual(PictureMode.resolve(.auto, environment: ["TERM": "xterm-kitty"]), .graphics(.kitty))
        XCTAssertEqual(PictureMode.resolve(.auto, environment: ["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"]), .graphics(.kitty))
        XCTAssertEqual(PictureMode.resolve(.always, environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]), .graphics(.iterm2))
        XCTAssertEqual(PictureMode.resolve(.auto, environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"]), .graphics(.iterm2))
        XCTAssertEqual(PictureMode.resolve(.auto, environment: ["TERM": "foot"]), .graphics(.sixel))
        XCTAssertEqual(PictureMode.resolve(.auto, environment: ["TERM": "mlterm"]), .graphics(.sixel))
        // Inside tmux the outer terminal's names leak in; tmux passes no images by default.
        XCTAssertEqual(PictureMode.resolve(.auto, environment: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "KITTY_WINDOW_ID": "1"]), .symbols(.indexed256))
        XCTAssertEqual(PictureMode.resolve(.symbols, environment: ["TERM": "xterm-kitty"]), .symbols(.indexed16))
        XCTAssertEqual(PictureMode.resolve(.auto, environment: ["TERM": "xterm-kitty", "NO_COLOR": "1"]), .off)
        XCTAssertEqual(PictureMode.resolve(.never, environment: ["TERM": "xterm-kitty"]), .off)
        // Named by the visitor: used as said, even in tmux (a passthrough they set up).
        XCTAssertEqual(PictureMode.resolve(.kitty, environment: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"]), .graphics(.kitty))
        XCTAssertEqual(PictureMode.resolve(.sixel, environment: [:]), .graphics(.sixel))
        XCTAssertEqual(PictureMode.resolve(.iterm2, environment: ["TERM": "linux"]), .graphics(.iterm2))
    }

    /// The protocols' bytes, exactly.
    func testTheGraphicsProtocolsBytes() {
        XCTAssertEqual(GraphicsEscapes.kittyTransmit(id: 7, png: [1, 2, 3]), "\u{1B}_Ga=t,f=100,i=7,q=2,m=0;AQID\u{1B}\\")
        // More than one piece: 3,100 bytes are 4,136 base64 characters, 4,096 then 40.
        let big = [UInt8](repeating: 0xFF, count: 3100)
        let b64 = Data(big).base64EncodedString()
        XCTAssertEqual(
            GraphicsEscapes.kittyTransmit(id: 9, png: big),
            "\u{1B}_Ga=t,f=100,i=9,q=2,m=1;\(b64.prefix(4096))\u{1B}\\" + "\u{1B}_Gm=0,q=2;\(b64.dropFirst(4096))\u{1B}\\")
        XCTAssertEqual(GraphicsEscapes.kittyPlace(id: 7, columns: 12, rows: 6), "\u{1B}_Ga=p,i=7,p=1,c=12,r=6,C=1,q=2\u{1B}\\")
        XCTAssertEqual(GraphicsEscapes.kittyHide(id: 7), "\u{1B}_Ga=d,d=i,i=7,q=2\u{1B}\\")
        XCTAssertEqual(GraphicsEscapes.kittyHideAll(), "\u{1B}_Ga=d,d=a,q=2\u{1B}\\")
        XCTAssertEqual(GraphicsEscapes.kittyHideAll(freeing: true), "\u{1B}_Ga=d,d=A,q=2\u{1B}\\")
        XCTAssertEqual(GraphicsEscapes.iterm2(png: [1, 2, 3], columns: 4, rows: 2), "\u{1B}]1337;File=inline=1;size=3;width=4;height=2;preserveAspectRatio=0:AQID\u{07}")
        XCTAssertEqual(GraphicsEscapes.at(x: 2, y: 3, "X"), "\u{1B}7\u{1B}[4;3HX\u{1B}8")
        XCTAssertEqual(GraphicImage.id(url: "/a.png", columns: 10, rows: 5), GraphicImage.id(url: "/a.png", columns: 10, rows: 5))
        XCTAssertNotEqual(GraphicImage.id(url: "/a.png", columns: 10, rows: 5), GraphicImage.id(url: "/a.png", columns: 10, rows: 6))
    }

    /// In a graphics mode the picture is asked for as an image; drawn, it is blank cells and a
    /// placement, which a box on top takes away until it closes.
    func testAnImageIsPlacedOverBlankCellsAndABoxTakesItAway() throws {
        var s = loaded(mode: .graphics(.kitty))
        prepare(&s, .play(audioID: 11, artworkID: 100, tourID: nil))
        let r = PicturesFeature.Request(url: Self.url, columns: 78, rows: 6)
        send(&s, .openPlayer, effects: [.pictures(.loadGraphic(r, .kitty))]) {
            PlayerFeature.showPlayer(&$0)
            $0.pictures.slots[r] = .loading
            $0.pictures.order = [r]
        }
        let image = GraphicImage(kind: .kitty, id: 42, data: [0x89, 0x50, 0x4E, 0x47])
        let picture = try XCTUnwrap(Picture(columns: 8, rows: 4, graphic: image))
        send(&s, .pictures(.loaded(r, picture))) { $0.pictures.slots[r] = .ready(picture) }
        let screen = RootView.render(s, size: Size(width: 80, height: 24))
        XCTAssertEqual(screen.graphics, [Screen.Graphic(rect: Rect(x: 36, y: 5, width: 8, height: 4), image: image)])
        assertSnapshot(screen, named: "player-image-kitty-80x24")
        prepare(&s, .showHelp)
        XCTAssertEqual(RootView.render(s, size: Size(width: 80, height: 24)).graphics, [], "no image under a box")
        prepare(&s, .dismissOverlay)
        XCTAssertEqual(RootView.render(s, size: Size(width: 80, height: 24)).graphics.map(\.image.id), [42], "back when it closes")
    }

    func testTheSettingIsParsed() {
        XCTAssertEqual(ImageSetting(parsing: "kitty"), .kitty)
        XCTAssertEqual(ImageSetting(parsing: "iTerm2"), .iterm2)
        XCTAssertEqual(ImageSetting(parsing: "sixel"), .sixel)
        XCTAssertEqual(ImageSetting(parsing: " Symbols "), .symbols)
        XCTAssertEqual(ImageSetting(parsing: "off"), .never)
        XCTAssertEqual(ImageSetting(parsing: "yes"), .always)
        XCTAssertEqual(ImageSetting(parsing: "AUTO"), .auto)
        XCTAssertNil(ImageSetting(parsing: "sixel-ish"))
    }

    // MARK: The reducer

    /// The mode arrives after launch (from the composition root): a player already open on
    /// an artwork asks for its picture then.
    func testTheModeArrivingAsksForThePictureOnScreen() {
        var s = loaded(mode: .off)
        prepare(&s, .play(audioID: 11, artworkID: 100, tourID: nil))
        send(&s, .openPlayer) { PlayerFeature.showPlayer(&$0) }
        let r = PicturesFeature.Request(url: Self.url, columns: 78, rows: 6)
        // And the libraries that draw pictures are to be opened once the guide is on screen
        // (issue 48); not when pictures are off, nor for a screen reader (below).
        send(&s, .pictures(.modeResolved(.symbols(.indexed256))), effects: [.pictures(.warmUp), .pictures(.load(r, .indexed256))]) {
            $0.pictures.mode = .symbols(.indexed256)
            $0.pictures.slots[r] = .loading
            $0.pictures.order = [r]
        }
    }

    /// Scoped (issue 28): the picture the page on screen wants comes from the context; the
    /// feature changes only its own slots and asks nothing of the shared UI.
    func testScopedItAsksForThePageOnScreensPictureFromItsOwnState() {
        var s = loaded(mode: .off)
        prepare(&s, .play(audioID: 11, artworkID: 100, tourID: nil))
        // Not on the player: no wish, nothing asked.
        var p = s.pictures
        sendScoped(PicturesFeature.self, &p, .pageChanged, FeatureContext(s))
        prepare(&s, .openPlayer)
        XCTAssertEqual(FeatureContext(s).pictureWish?.url, Self.url)
        XCTAssertEqual(FeatureContext(s).pictureWish, PlayerFeature.pictureWanted(s))
        let r = PicturesFeature.Request(url: Self.url, columns: 78, rows: 6)
        p = s.pictures
        sendScoped(PicturesFeature.self, &p, .modeResolved(.symbols(.indexed256)), FeatureContext(s), effects: [.pictures(.warmUp), .pictures(.load(r, .indexed256))]) {
            $0.mode = .symbols(.indexed256)
            $0.slots[r] = .loading
            $0.order = [r]
        }
        // On its way: asked once.
        reactScoped(PicturesFeature.self, &p, .navigated(from: .home), FeatureContext(s))
        sendScoped(PicturesFeature.self, &p, .loaded(r, Self.picture), FeatureContext(s)) { $0.slots[r] = .ready(Self.picture) }
        // Wider: another size of the same picture.
        prepare(&s, .viewportChanged(rows: 26, width: 118))
        let wide = PicturesFeature.Request(url: Self.url, columns: 47, rows: 23)
        reactScoped(PicturesFeature.self, &p, .resized, FeatureContext(s), effects: [.pictures(.load(wide, .indexed256))]) {
            $0.slots[wide] = .loading
            $0.order.append(wide)
        }
    }

    /// Screen-reader mode fetches nothing (the page says what the picture shows instead).
    func testScopedNothingIsFetchedForAScreenReader() {
        var s = loaded(mode: .off)
        s.config = ["screen_reader": "true"]
        prepare(&s, .play(audioID: 11, artworkID: 100, tourID: nil), .openPlayer)
        var p = s.pictures
        sendScoped(PicturesFeature.self, &p, .modeResolved(.symbols(.truecolor)), FeatureContext(s)) { $0.mode = .symbols(.truecolor) }
    }

    func testThePlayerAsksForItsArtworksPictureAtTheSizeOfItsBox() {
        var s = loaded()
        prepare(&s, .play(audioID: 11, artworkID: 100, tourID: nil))
        XCTAssertEqual(s.pictures.slots, [:], "nothing fetched while the player is not on screen")
        // 80 × 24: a 78 × 17 page under the controls; the picture above the text, 6 rows.
        let r = PicturesFeature.Request(url: Self.url, columns: 78, rows: 6)
        send(&s, .openPlayer, effects: [.pictures(.load(r, .truecolor))]) {
            PlayerFeature.showPlayer(&$0)
            $0.pictures.slots[r] = .loading
            $0.pictures.order = [r]
        }
        XCTAssertEqual(FeatureContext(s).figure(.player), .pending(columns: 78, rows: 6))
        send(&s, .pictures(.loaded(r, Self.picture))) { $0.pictures.slots[r] = .ready(Self.picture) }
        XCTAssertEqual(FeatureContext(s).figure(.player), .picture(Self.picture))
        // Back and forward again: the picture is there, nothing is fetched.
        prepare(&s, .back)
        send(&s, .openPlayer) { PlayerFeature.showPlayer(&$0) }
        // A wider terminal: beside the text, two fifths of the width.
        let wide = PicturesFeature.Request(url: Self.url, columns: 47, rows: 23)
        send(&s, .viewportChanged(rows: 26, width: 118), effects: [.pictures(.load(wide, .truecolor))]) {
            $0.viewportRows = 26
            $0.viewportWidth = 118
            $0.pictures.slots[wide] = .loading
            $0.pictures.order.append(wide)
        }
    }

    /// The picture follows the recording: a snapshot of the same recording (its position, every
    /// shown second while it plays) asks for nothing, even where a request would be made; a
    /// new recording does.
    func testOnlyANewRecordingMakesThePictureBeAskedForAgain() {
        var s = loaded()
        open(&s, audioID: 11, artworkID: 100)
        prepare(&s, .playerSnapshot(PlayerSnapshot(token: 1, status: .playing, position: 4.2, duration: 12.5, volume: 0.8)))
        let r = PicturesFeature.Request(url: Self.url, columns: 78, rows: 6)
        XCTAssertEqual(s.pictures.order, [r])
        // As if the picture had been let go: a request now would fetch it again.
        var pictures = s.pictures
        pictures.slots = [:]
        pictures.order = []
        let kept = pictures
        let same = PicturesFeature.react(to: .playerChanged(before: PlayerSnapshot(token: 1, status: .playing, position: 3.9, duration: 12.5, volume: 0.8)), &pictures, FeatureContext(s))
        XCTAssertEqual(same, .none)
        XCTAssertEqual(pictures, kept)
        let other = PicturesFeature.react(to: .playerChanged(before: PlayerSnapshot(token: 0, status: .idle, position: 0, duration: nil, volume: 0.8)), &pictures, FeatureContext(s))
        XCTAssertEqual(other, Outcome(effects: [.pictures(.load(r, .truecolor))]))
        XCTAssertEqual(pictures.order, [r])
        XCTAssertEqual(pictures.slots, [r: .loading])
    }

    func testOpeningThePlayerFetchesOnce() {
        var s = loaded()
        open(&s, audioID: 11, artworkID: 100)
        prepare(&s, .back)
        // Still loading: opening the player again asks for nothing more.
        send(&s, .openPlayer) { PlayerFeature.showPlayer(&$0) }
        XCTAssertEqual(s.pictures.order.count, 1)
    }

    /// Issue 33 #17: "beside from 100 columns" is a 100-column terminal (the page is two
    /// columns narrower); it was 102.
    func testAPictureGoesBesideFromAHundredColumnTerminal() {
        let at100 = RootView.viewport(for: Size(width: 100, height: 30))
        XCTAssertEqual(FigureLayout.box(width: at100.width, rows: at100.rows)?.beside, true)
        let at99 = RootView.viewport(for: Size(width: 99, height: 30))
        XCTAssertEqual(FigureLayout.box(width: at99.width, rows: at99.rows)?.beside, false)
    }

    func testNoPictureWhenOffOrWithoutAnImageOrRoom() {
        var off = loaded(mode: .off)
        prepare(&off, .play(audioID: 11, artworkID: 100, tourID: nil))
        send(&off, .openPlayer) { PlayerFeature.showPlayer(&$0) }
        XCTAssertNil(FeatureContext(off).figure(.player))
        var bare = loaded()
        open(&bare, audioID: 12, artworkID: 101)
        XCTAssertEqual(bare.pictures.slots, [:], "Clay Vessel has no picture")
        var small = loaded(size: RootView.minimumSize)
        open(&small, audioID: 11, artworkID: 100)
        XCTAssertEqual(small.pictures.slots, [:], "40 × 12 leaves no room for a picture")
    }

    func testAFailureIsANoteAndAMissingPictureIsNothing() {
        var s = loaded()
        open(&s, audioID: 11, artworkID: 100)
        let r = PicturesFeature.Request(url: Self.url, columns: 78, rows: 6)
        send(&s, .pictures(.failed(r, "the JPEG picture is incomplete (no end marker)"))) {
            $0.pictures.slots[r] = .failed(.key(.picturesFailed, ["reason": .verbatim("the JPEG picture is incomplete (no end marker)")]))
        }
        XCTAssertEqual(FeatureContext(s).figure(.player).map { if case .note(let p) = $0 { p.text(s.strings) } else { "" } }, "No picture: the JPEG picture is incomplete (no end marker)")
        // An answer nobody waits for (already answered, or let go) changes nothing.
        send(&s, .pictures(.loaded(r, Self.picture)))
        send(&s, .pictures(.missing(PicturesFeature.Request(url: "/elsewhere.png", columns: 1, rows: 1))))
        var m = loaded()
        open(&m, audioID: 11, artworkID: 100)
        send(&m, .pictures(.missing(r))) { $0.pictures.slots[r] = .missing }
        XCTAssertNil(FeatureContext(m).figure(.player))
    }

    func testOnlyAFewPicturesAreKept() {
        var s = loaded()
        open(&s, audioID: 11, artworkID: 100)
        for w in 0..<20 {
            let before = s.pictures.order.last!
            prepare(&s, .pictures(.loaded(before, Self.picture)))
            prepare(&s, .viewportChanged(rows: 20, width: 60 + w))
        }
        XCTAssertEqual(s.pictures.order.count, PicturesFeature.keep)
        XCTAssertEqual(Set(s.pictures.slots.keys), Set(s.pictures.order))
        XCTAssertEqual(s.pictures.slots[s.pictures.order.last!], .loading, "the one on screen is kept")
    }

    // MARK: Drawn

    func playing(_ size: Size) -> AppState {
        var s = loaded(size: size)
        open(&s, audioID: 11, artworkID: 100)
        prepare(&s, .playerSnapshot(PlayerSnapshot(token: 1, status: .playing, position: 4.2, duration: 12.5, volume: 0.8)))
        for r in s.pictures.order { prepare(&s, .pictures(.loaded(r, Self.picture))) }
        return s
    }

    func testThePlayerWithAPicture() {
        for size in [Size(width: 80, height: 24), RootView.minimumSize, Size(width: 120, height: 30)] {
            assertSnapshot(RootView.render(playing(size), size: size), named: "player-picture-\(size.width)x\(size.height)")
        }
        var failed = loaded()
        open(&failed, audioID: 11, artworkID: 100)
        prepare(&failed, .pictures(.failed(PicturesFeature.Request(url: Self.url, columns: 78, rows: 6), "not a picture but a web page (HTML)")))
        assertSnapshot(RootView.render(failed, size: Size(width: 80, height: 24)), named: "player-picture-failed-80x24")
    }

    /// The text's scrolling is bounded by the room the picture leaves it.
    func testScrollingKnowsTheTextIsNarrowerBesideAPicture() {
        var s = playing(Size(width: 120, height: 30))
        let page = PlayerFeature.page(s.museum!, s.player, FeatureContext(s))!
        let room = FigureLayout.split(width: s.viewportWidth, rows: s.viewportRows - PlayerLayout.controlRows, figure: FeatureContext(s).figure(.player))
        XCTAssertEqual(room.textWidth, 118 - 12 - 1)
        prepare(&s, .moveToEnd)
        XCTAssertEqual(s.page.scroll, max(0, page.lines(width: room.textWidth, strings: s.strings).count - room.textRows))
    }

    // MARK: An exhibition's page

    /// Home's exhibitions with a picture on "Blue Hours" (exhibition 1).
    func withExhibitionPicture(_ s: inout AppState) {
        var json = String(decoding: UIFixtures.bytes("exhibitions.json"), as: UTF8.self)
        json = json.replacingOccurrences(of: #"{"id": 1, "title": "Blue Hours: Night Paintings","#, with: #"{"id": 1, "title": "Blue Hours: Night Paintings", "image_url": "https://lakeside.example.org/iiif/blue/full/843,/0/default.jpg","#)
        prepare(&s, .fetched(.exhibitions, .success(Array(json.utf8))))
    }

    func testAnExhibitionsPageShowsItsPictureAboveItsText() throws {
        var s = loaded()
        withExhibitionPicture(&s)
        let rows = try XCTUnwrap(Reducer.rows(s))
        let i = try XCTUnwrap(rows.firstIndex { $0.text == "Blue Hours: Night Paintings" })
        // 80 × 24: a 78 × 20 page; the picture above the text, 8 rows.
        let r = PicturesFeature.Request(url: "https://lakeside.example.org/iiif/blue/full/843,/0/default.jpg", columns: 78, rows: 8)
        send(&s, .clickRow(i), effects: [.pictures(.load(r, .truecolor))]) {
            $0.page.selection = i
            Reducer.push(&$0, .exhibitionDetail(1))
            $0.pictures.slots[r] = .loading
            $0.pictures.order = [r]
        }
        XCTAssertNil(FeatureContext(s).figure(.player), "the page's figure, not the player's")
        send(&s, .pictures(.loaded(r, Self.picture))) { $0.pictures.slots[r] = .ready(Self.picture) }
        assertSnapshot(RootView.render(s, size: Size(width: 80, height: 24)), named: "exhibition-picture-80x24")
        // An exhibition without a picture (or offline, no copy): the page as it always was.
        send(&s, .pictures(.loaded(r, Self.picture)))
        var plain = loaded()
        Reducer.push(&plain, .exhibitionDetail(1))
        XCTAssertNil(PicturesFeature.wanted(plain.pictures, FeatureContext(plain)))
    }

    // MARK: Written by the adapter

    func testPaintedCellsAreWrittenAgainOnlyWhereRowsChanged() {
        let screen = RootView.render(playing(Size(width: 80, height: 24)), size: Size(width: 80, height: 24))
        let all = PaintedCells.spans(in: screen, changedRows: [], full: true)
        XCTAssertEqual(all.map(\.y), [5, 6, 7, 8, 9, 10])
        XCTAssertEqual(Set(all.map(\.x)), [34])
        XCTAssertEqual(Set(all.map(\.width)), [12])
        XCTAssertEqual(PaintedCells.spans(in: screen, changedRows: [], full: false), [], "an idle frame writes nothing")
        XCTAssertEqual(PaintedCells.spans(in: screen, changedRows: [2, 7], full: false), [Hyperlinks.Span(y: 7, x: 34, width: 12, url: nil)])
    }

    /// What ncurses is told is in a painted cell (issue 47 #6): a different character on each
    /// of 94 rows running, each one printable ASCII (one column, in every font), so no row of
    /// a picture looks to ncurses like another row or like a blank one.
    func testEachRowsStandInIsItsOwn() {
        let rows = (0..<94).map(PaintedCells.standIn(row:))
        XCTAssertEqual(Set(rows).count, 94)
        XCTAssertTrue(rows.allSatisfy { (0x21...0x7E).contains($0.value) }, "\(rows)")
        XCTAssertEqual(PaintedCells.standIn(row: 94), PaintedCells.standIn(row: 0), "and round again")
        XCTAssertFalse(rows.contains(" "), "never a blank")
    }

    func testTheBytesOfAPaintedRun() {
        var screen = Screen(width: 6, height: 2)
        FigureView.render(&screen, .picture(Picture(columns: 3, rows: 1, cells: [
            PictureCell("▀", foreground: .rgb(1, 2, 3), background: .rgb(250, 0, 16)),
            PictureCell("▀", foreground: .rgb(1, 2, 3), background: .rgb(250, 0, 16)),
            PictureCell(" ", foreground: .index(9), background: .index(200)),
        ])!), in: Rect(x: 1, y: 1, width: 5, height: 1), strings: UIFixtures.catalog.strings(for: .english))
        let spans = PaintedCells.spans(in: screen, changedRows: [1], full: false)
        XCTAssertEqual(spans, [Hyperlinks.Span(y: 1, x: 2, width: 3, url: nil)])
        let bytes = Hyperlinks.escapes(for: spans, in: screen, visible: Size(width: 6, height: 2), sgr: AnsiPalette(colors: true).sgr)
        // One move for the run (block symbols are one column, as the picture was drawn), the
        // whole style once, then only the colours that change (as chafa writes them).
        XCTAssertEqual(bytes, "\u{1B}7\u{1B}[2;3H\u{1B}[0;38;2;1;2;3;48;2;250;0;16m▀▀\u{1B}[91;48;5;200m \u{1B}[0m\u{1B}8")
        XCTAssertEqual(screen.dump().split(separator: "\n").suffix(2), ["a = normal fg#010203 bg#fa0010", "b = normal fg@9 bg@200"])
    }

    // MARK: A tour's page and the search results (lists)

    /// The test museum with a picture on tour 500, "Highlights in an Hour".
    static let tourMuseum: Museum = {
        var json = (try? JSONSerialization.jsonObject(with: Data(UIFixtures.bytes("museum.json")))) as? [String: Any] ?? [:]
        var tours = json["tours"] as? [[String: Any]] ?? []
        tours[0]["image_url"] = "images/highlights.jpg"
        json["tours"] = tours
        let bytes = (try? JSONSerialization.data(withJSONObject: json)) ?? Data()
        switch AppDataReader.read(Array(bytes), source: "/museum/appData.json") {
        case .success(let a): return Museum(a)
        case .failure(let e): fatalError("\(e)")
        }
    }()

    /// On the Tours tab of the museum with a tour picture, the tour's row selected.
    func toursTab(_ size: Size) throws -> (AppState, Int) {
        var s = loaded(size: size)
        s.document = .ready(Self.tourMuseum)
        prepare(&s, .selectTab(.tours))
        let rows = try XCTUnwrap(Reducer.rows(s))
        let i = try XCTUnwrap(rows.firstIndex { $0.text.hasPrefix("Highlights in an Hour") }, "\(rows.map(\.text))")
        prepare(&s, .move(i - (Row.effectiveSelection(rows, s.page.selection) ?? 0)))
        return (s, i)
    }

    /// A tour's page asks for its picture as a banner over the stops (80 × 24: all 78
    /// columns, a third of the 20 rows), beside them on a wide screen, and not at all where
    /// the stops need every row (40 × 12).
    func testATourPageShowsItsPictureOverOrBesideItsStops() throws {
        let url = "/museum/images/highlights.jpg"
        for (size, request) in [
            (Size(width: 80, height: 24), PicturesFeature.Request(url: url, columns: 78, rows: 6)),
            (Size(width: 120, height: 30), PicturesFeature.Request(url: url, columns: 47, rows: 26)),
        ] {
            var (s, i) = try toursTab(size)
            send(&s, .activate, effects: [.pictures(.load(request, .truecolor))]) {
                $0.page.selection = i
                Reducer.push(&$0, .tourDetail(500))
                $0.page.selection = Reducer.firstSelectable(.tourDetail(500), $0)
                $0.pictures.slots[request] = .loading
                $0.pictures.order = [request]
            }
            send(&s, .pictures(.loaded(request, Self.picture))) { $0.pictures.slots[request] = .ready(Self.picture) }
            assertSnapshot(RootView.render(s, size: size), named: "tour-picture-\(size.width)x\(size.height)")
            // The rows are still the reducer's: Enter on the first selectable one does what it says.
            let rows = try XCTUnwrap(Reducer.rows(s))
            XCTAssertTrue(rows.contains { $0.isSelectable }, "the stops are listed under the picture")
        }
        var (small, _) = try toursTab(RootView.minimumSize)
        let effects = prepare(&small, .activate)
        XCTAssertEqual(TourFeature.route(in: small), .detail(500))
        XCTAssertFalse(effects.contains { if case .feature(let v) = $0 { return v.feature == PicturesFeature.id } else { return false } }, "no banner at 40 × 12")
        XCTAssertNil(PicturesFeature.wanted(small.pictures, FeatureContext(small)))
    }

    /// Search results on the sample museum, pictures on, at `size`.
    func searching(_ size: Size) -> AppState {
        var s = AppState(source: SearchTests.sampleURL.path, catalog: UIFixtures.catalog, now: UIFixtures.now, features: Registry.features)
        prepare(&s, .launched(restored: PersistedSettings(introSeen: true), languageOverride: nil))
        UIFixtures.settle(&s, prepare(&s, .documentLoaded(.success(SearchTests.fileMuseum), note: nil)))
        let vp = RootView.viewport(for: size)
        prepare(&s, .viewportChanged(rows: vp.rows, width: vp.width), .pictures(.modeResolved(.symbols(.truecolor))))
        s.overlay = nil
        s.messageQueue = []
        prepare(&s, .search(.open))
        prepare(&s, .search(.indexBuilt(BuiltIndex(SearchIndex(app: SearchTests.fileMuseum.data, source: SearchTests.fileMuseum)))))
        return s
    }

    /// Where there is room beside the results, the selected one's picture is asked for and
    /// shown; moving to a result without one shows none; a narrower screen asks for nothing.
    func testTheSelectedSearchResultsPictureIsBesideTheResultsWhereThereIsRoom() throws {
        var s = searching(Size(width: 120, height: 30))
        let harbour = try XCTUnwrap(s.museum?.artworks.values.first { $0.title == "Harbour at First Light" })
        let url = try XCTUnwrap(harbour.imageURL)
        var effects: [Effect] = []
        for c in "harbour at first" { effects += prepare(&s, .search(.typed(String(c)))) }
        let request = PicturesFeature.Request(url: url, columns: 47, rows: 23)
        XCTAssertTrue(effects.contains(.pictures(.load(request, .truecolor))), "\(effects)")
        XCTAssertEqual(SearchPage.selectedAction(s.search, FeatureContext(s)), .open(.artwork(harbour.id)))
        send(&s, .pictures(.loaded(request, Self.picture))) { $0.pictures.slots[request] = .ready(Self.picture) }
        assertSnapshot(RootView.render(s, size: Size(width: 120, height: 30)), named: "search-picture-120x30")

        var narrow = searching(Size(width: 80, height: 24))
        var asked: [Effect] = []
        for c in "harbour" { asked += prepare(&narrow, .search(.typed(String(c)))) }
        XCTAssertFalse(asked.contains { if case .feature(let v) = $0 { return v.feature == PicturesFeature.id } else { return false } }, "no room beside the results at 80 columns")
    }
}

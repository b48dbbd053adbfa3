import XCTest

@testable import DocentCore
@testable import DocentUI

/// Light and dark terminals (issue 47 #3): every coloured role reads on its background at
/// WCAG AA (4.5:1) with xterm's default colours, and the background is read from COLORFGBG,
/// the terminal's OSC 11 answer, or the setting.
final class PaletteContrastTests: XCTestCase {
    /// The contrast of `role`'s colour with the background it is drawn on (and, reversed as a
    /// selected row is, of the background's colour on it: the same ratio).
    func contrast(_ role: Style.Role, _ background: AnsiPalette.Background, colors: Int) -> Double? {
        let bg = TerminalBackground.xtermRGB(background == .light ? 15 : 0)
        guard let fg = AnsiPalette.foreground(role, colorCount: colors, background: background) else { return nil }
        let c = TerminalBackground.xtermRGB(fg)
        return TerminalBackground.contrast(TerminalBackground.luminance(c.0, c.1, c.2), TerminalBackground.luminance(bg.0, bg.1, bg.2))
    }

    func testEveryColouredRoleMeetsAAOnBothBackgrounds() {
        let cases: [(AnsiPalette.Background, Int)] = [(.dark, 16), (.dark, 256), (.light, 8), (.light, 16), (.light, 256)]
        for (background, colors) in cases {
            for role in Style.Role.allCases where role != .normal {
                guard let ratio = contrast(role, background, colors: colors) else { continue }  // the terminal's own text colour
                XCTAssertGreaterThanOrEqual(ratio, 4.5, "\(role) on \(background) with \(colors) colours: \(ratio)")
            }
        }
    }

    func testTheLightPaletteDrawsNoYellowOrCyan() {
        for colors in [8, 16, 256] {
            for role in Style.Role.allCases {
                let fg = AnsiPalette.foreground(role, colorCount: colors, background: .light)
                XCTAssertNotEqual(fg, AnsiPalette.yellow, "\(role)")
                XCTAssertNotEqual(fg, AnsiPalette.cyan, "\(role)")
            }
        }
        // The selected row: reversed blue, not white on yellow.
        let p = AnsiPalette(colors: true, colorCount: 256, background: .light)
        XCTAssertEqual(p.sgr(Style(role: .highlight, reverse: true)), "\u{1B}[0;1;7;38;5;25m")
        XCTAssertEqual(AnsiPalette(colors: true, colorCount: 8, background: .light).sgr(Style(role: .accent)), "\u{1B}[0;34m")
        // Success on white with eight colours: the default colour, bold.
        XCTAssertEqual(AnsiPalette(colors: true, colorCount: 8, background: .light).sgr(Style(role: .success)), "\u{1B}[0;1m")
    }

    func testABlackFallbackBackgroundKeepsTheDarkPalette() {
        let p = AnsiPalette(colors: true, colorCount: 8, blackBackground: true, background: .light)
        XCTAssertEqual(p.background, .dark)
    }

    func testColorFgBgNamesTheBackground() {
        XCTAssertEqual(TerminalBackground.fromColorFgBg("15;0"), .dark)
        XCTAssertEqual(TerminalBackground.fromColorFgBg("0;15"), .light)
        XCTAssertEqual(TerminalBackground.fromColorFgBg("0;default;7"), .light)
        XCTAssertEqual(TerminalBackground.fromColorFgBg("7;8"), .dark, "dark grey is dark")
        XCTAssertNil(TerminalBackground.fromColorFgBg("default"))
        XCTAssertNil(TerminalBackground.fromColorFgBg(""))
        XCTAssertNil(TerminalBackground.fromColorFgBg(nil))
    }

    func testTheOSC11AnswerNamesTheBackground() {
        XCTAssertEqual(TerminalBackground.fromOSC11(Array("\u{1B}]11;rgb:ffff/ffff/ffff\u{07}\u{1B}[?64;1c".utf8)), .light)
        XCTAssertEqual(TerminalBackground.fromOSC11(Array("\u{1B}]11;rgb:0000/0000/0000\u{1B}\\".utf8)), .dark)
        XCTAssertEqual(TerminalBackground.fromOSC11(Array("\u{1B}]11;rgb:fd/f6/e3\u{07}".utf8)), .light, "Solarized light, two digits a channel")
        XCTAssertEqual(TerminalBackground.fromOSC11(Array("\u{1B}]11;rgb:1e1e/1e1e/2e2e\u{07}".utf8)), .dark)
        XCTAssertNil(TerminalBackground.fromOSC11(Array("\u{1B}[?64;1c".utf8)), "only the DA1 answer: the terminal does not say")
        XCTAssertNil(TerminalBackground.fromOSC11(Array("\u{1B}]11;rgb:zz/00/00\u{07}".utf8)))
        XCTAssertNil(TerminalBackground.fromOSC11(Array("\u{1B}]11;rgb:ffff/ffff\u{07}".utf8)))
    }

    func testTheSettingWinsThenColorFgBgThenTheTerminal() {
        let white = Array("\u{1B}]11;rgb:ffff/ffff/ffff\u{07}".utf8)
        XCTAssertEqual(TerminalBackground.resolve(.dark, colorFgBg: "0;15", osc11Answer: white), .dark)
        XCTAssertEqual(TerminalBackground.resolve(.light, colorFgBg: "15;0", osc11Answer: nil), .light)
        XCTAssertEqual(TerminalBackground.resolve(.auto, colorFgBg: "15;0", osc11Answer: white), .dark)
        XCTAssertEqual(TerminalBackground.resolve(.auto, colorFgBg: nil, osc11Answer: white), .light)
        XCTAssertEqual(TerminalBackground.resolve(.auto, colorFgBg: nil, osc11Answer: nil), .dark)
        XCTAssertEqual(BackgroundSetting(parsing: " Light "), .light)
        XCTAssertNil(BackgroundSetting(parsing: "white"))
    }
}

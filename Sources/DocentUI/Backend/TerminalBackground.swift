import Foundation

/// Whether the terminal draws on a dark or a light background (issue 47 #3: in xterm's white
/// theme the selected row was white on yellow). Pure: the terminal adapter asks the terminal
/// and hands the answers here.
public enum TerminalBackground {
    /// The background to draw for: the setting when forced, else what the terminal says
    /// (`COLORFGBG` first, as rxvt and Konsole set it; then its answer to OSC 11), else dark.
    public static func resolve(_ setting: BackgroundSetting, colorFgBg: String?, osc11Answer: [UInt8]?) -> AnsiPalette.Background {
        switch setting {
        case .light: return .light
        case .dark: return .dark
        case .auto: return fromColorFgBg(colorFgBg) ?? osc11Answer.flatMap(fromOSC11) ?? .dark
        }
    }

    /// `COLORFGBG` is "fg;bg" or "fg;default;bg": the background is the last field, an ANSI
    /// colour number; 7 (white) and 9–15 (the bright ones but dark grey, 8) are light.
    public static func fromColorFgBg(_ value: String?) -> AnsiPalette.Background? {
        guard let value, let last = value.split(separator: ";").last, let n = Int(last.trimmingCharacters(in: .whitespaces)), (0...255).contains(n) else { return nil }
        return n == 7 || (9...15).contains(n) ? .light : .dark
    }

    /// The terminal's answer to `ESC ] 11 ; ? BEL`: `ESC ] 11 ; rgb:RRRR/GGGG/BBBB` then BEL or
    /// ST (1 to 4 hex digits a channel). Light when its relative luminance is over 0.5.
    public static func fromOSC11(_ answer: [UInt8]) -> AnsiPalette.Background? {
        let text = String(decoding: answer, as: UTF8.self)
        guard let r = text.range(of: "]11;rgb:") else { return nil }
        let rest = text[r.upperBound...].prefix { $0.isHexDigit || $0 == "/" }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var channels: [Double] = []
        for p in parts {
            guard (1...4).contains(p.count), let v = Int(p, radix: 16) else { return nil }
            let max = Double((1 << (4 * p.count)) - 1)
            channels.append(Double(v) / max)
        }
        return luminance(channels[0], channels[1], channels[2]) > 0.5 ? .light : .dark
    }

    /// WCAG 2's relative luminance of an sRGB colour (channels 0…1).
    public static func luminance(_ r: Double, _ g: Double, _ b: Double) -> Double {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    /// WCAG 2's contrast ratio of two luminances (1…21).
    public static func contrast(_ a: Double, _ b: Double) -> Double {
        (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// xterm's default RGB of a colour number (its 16 colours, the 6×6×6 cube, the greys), as
    /// the contrast tests and the palette's choices assume.
    public static func xtermRGB(_ n: Int) -> (Double, Double, Double) {
        let sixteen: [(Int, Int, Int)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
            (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        let c: (Int, Int, Int)
        if n < 16 {
            c = sixteen[max(0, n)]
        } else if n < 232 {
            let levels = [0, 95, 135, 175, 215, 255]
            let i = n - 16
            c = (levels[i / 36], levels[(i / 6) % 6], levels[i % 6])
        } else {
            let g = 8 + 10 * (n - 232)
            c = (g, g, g)
        }
        return (Double(c.0) / 255, Double(c.1) / 255, Double(c.2) / 255)
    }
}

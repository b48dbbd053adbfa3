import DocentUI
import Foundation
import XCTest

/// Issue 47 #13: ⏸ showed as tofu in xterm with DejaVu Sans Mono. No terminal can be asked
/// whether its font has a glyph, so the player's marks are chosen from what DejaVu Sans Mono
/// has; fontconfig (the real one, on the installed font) is asked here.
final class PlayerGlyphFontTests: XCTestCase {
    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

    /// Whether fontconfig says `font` has `scalar`.
    func fontHas(_ scalar: Unicode.Scalar) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/fc-list")
        process.arguments = [":charset=\(String(scalar.value, radix: 16))", "file"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).contains(Self.font)
    }

    func testEveryPlaybackMarkIsInDejaVuSansMono() throws {
        guard FileManager.default.fileExists(atPath: Self.font), FileManager.default.isExecutableFile(atPath: "/usr/bin/fc-list") else {
            throw TestDataMissing("DejaVu Sans Mono and fontconfig are needed (apt-get install fonts-dejavu-core fontconfig)")
        }
        // The check can fail: the mark the issue saw as tofu is not in the font.
        XCTAssertFalse(try fontHas("\u{23F8}"), "⏸ is not in DejaVu Sans Mono")
        for mark in PlayerView.stateGlyphs {
            for scalar in mark.unicodeScalars {
                XCTAssertTrue(try fontHas(scalar), "\(mark) (U+\(String(scalar.value, radix: 16, uppercase: true))) is not in DejaVu Sans Mono")
            }
        }
    }
}

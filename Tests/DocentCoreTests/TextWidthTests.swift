import Foundation
import XCTest

@testable import DocentCore

/// Character widths come from the Unicode Character Database (scripts/gen-textwidth.py); the
/// oracle is Python's `wcwidth` 0.7.0 (Unicode 17.0), over every assigned code point.
final class TextWidthTests: XCTestCase {
    func testSpotChecks() {
        XCTAssertEqual(TextWidth.unicodeVersion, "17.0.0")
        XCTAssertEqual(TextWidth.width(of: Unicode.Scalar(0x41)!), 1, "A")
        XCTAssertEqual(TextWidth.width(of: Unicode.Scalar(0x07)!), 0, "BEL: a control draws nothing")
        XCTAssertEqual(TextWidth.width(of: Unicode.Scalar(0x4E2D)!), 2, "中")
        XCTAssertEqual(TextWidth.width(of: Unicode.Scalar(0x0301)!), 0, "combining acute")
        XCTAssertEqual(TextWidth.width(of: Unicode.Scalar(0x200D)!), 0, "zero width joiner")
        XCTAssertEqual(TextWidth.width(of: Unicode.Scalar(0x1F600)!), 2, "grinning face")
        XCTAssertEqual(TextWidth.width(of: Unicode.Scalar(0x0600)!), 1, "Arabic number sign is drawn")
        XCTAssertEqual(TextWidth.width("港務長 harbour"), 14)
    }

    /// Every assigned code point of Unicode 17 against `wcwidth` (a control, -1 there, is 0
    /// here: the guide draws nothing for it).
    func testEveryAssignedCodePointAgreesWithWcwidth() throws {
        let script = """
            import sys, unicodedata2, wcwidth
            assert unicodedata2.unidata_version == "17.0.0", unicodedata2.unidata_version
            assert wcwidth.__version__ == "0.7.0", wcwidth.__version__
            run = None
            out = []
            for cp in range(0x110000):
                c = chr(cp)
                if unicodedata2.category(c) in ("Cn", "Cs"):
                    w = None
                else:
                    w = max(0, wcwidth.wcwidth(c))
                if run and run[2] == w and run[1] == cp - 1:
                    run[1] = cp
                else:
                    if run and run[2] is not None: out.append("%d %d %d" % tuple(run))
                    run = [cp, cp, w]
            if run and run[2] is not None: out.append("%d %d %d" % tuple(run))
            sys.stdout.write("\\n".join(out))
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script]
        let pipe = Pipe()
        let errors = Pipe()
        p.standardOutput = pipe
        p.standardError = errors
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            // A missing oracle is a failure, not a skip: `make test` installs it (scripts/deps.sh).
            return XCTFail("python3 with wcwidth 0.7.0 and unicodedata2 17.0.1 is needed (scripts/deps.sh test): \(err)")
        }
        var checked = 0
        var wrong: [String] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let f = line.split(separator: " ").compactMap { Int($0) }
            guard f.count == 3 else { continue }
            for cp in f[0]...f[1] {
                guard let s = Unicode.Scalar(UInt32(cp)) else { continue }
                checked += 1
                let w = TextWidth.width(of: s)
                if w != f[2], wrong.count < 20 { wrong.append(String(format: "U+%04X: %d, wcwidth %d", cp, w, f[2])) }
            }
        }
        XCTAssertGreaterThan(checked, 290_000, "Unicode 17 assigns about 300,000 code points")
        XCTAssertEqual(wrong, [])
    }

    /// The shortcut for plain text (`simpleWidth`) gives what measuring grapheme by grapheme
    /// gives, for every scalar it takes, alone and beside every other it takes (so no pair of
    /// them makes one grapheme), and a text with any other scalar takes the long way.
    func testTheShortcutForPlainTextMeasuresAsGraphemesDo() {
        let taken = (0..<0x3000).compactMap(Unicode.Scalar.init).filter { TextWidth.simpleWidth(of: $0) != nil }
        XCTAssertGreaterThan(taken.count, 700)
        for s in taken {
            XCTAssertEqual(TextWidth.simpleWidth(of: s), TextWidth.width(of: Character(s)), "U+\(String(s.value, radix: 16))")
            XCTAssertFalse(TerminalText.isFormat(s), "U+\(String(s.value, radix: 16)) is a format character")
        }
        // Pairs: a sample of each range against all of them (every pair would be 600,000).
        let sample = stride(from: 0, to: taken.count, by: 7).map { taken[$0] } + ["\r", "\n", "e", "━"].map { Unicode.Scalar($0)! }
        for a in sample {
            for b in taken {
                var pair = String.UnicodeScalarView()
                pair.append(a)
                pair.append(b)
                let text = String(pair)
                let graphemes = text.reduce(0) { $0 + TextWidth.width(of: $1) }
                XCTAssertEqual(TextWidth.simpleWidth(text), graphemes, "U+\(String(a.value, radix: 16)) U+\(String(b.value, radix: 16))")
            }
        }
        XCTAssertNil(TextWidth.simpleWidth("e\u{301}"), "a combining mark takes the long way")
        XCTAssertEqual(TextWidth.width("e\u{301}x"), 2)
        XCTAssertNil(TextWidth.simpleWidth("a\u{AD}b"), "so does the soft hyphen")
        XCTAssertEqual(TextWidth.width("a\u{AD}b"), 2)
        XCTAssertEqual(TextWidth.width("━━━━ 0:12 / 3:45 ·…"), 19)
    }

    /// The format characters' shortcut (no lookup outside U+0600-U+206F below U+3000) agrees
    /// with the Unicode property on every scalar there.
    func testFormatCharactersBelowCJKAreThePropertysOwn() {
        for v in 0..<0x3000 {
            guard let s = Unicode.Scalar(v) else { continue }
            XCTAssertEqual(TerminalText.isFormat(s), s.properties.generalCategory == .format, "U+\(String(v, radix: 16))")
        }
    }
}

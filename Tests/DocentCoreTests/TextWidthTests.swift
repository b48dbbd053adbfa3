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
}

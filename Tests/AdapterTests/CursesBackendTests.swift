import CNcursesw
import CShims
import DocentUI
import XCTest

@testable import TerminalCurses

#if canImport(Glibc)
    import Glibc
#endif

/// The ncurses adapter without a terminal: key decoding, mouse decoding, cell sanitising,
/// and the polite refusal when there is no terminal.
final class CursesBackendTests: XCTestCase {
    private func char(_ c: Character) -> UInt32 {
        c.unicodeScalars.first?.value ?? 0
    }

    private func fkey(_ code: Int32) -> Key? {
        CursesKeyDecoder.key(status: KEY_CODE_YES, code: UInt32(code))
    }

    func testPrintableCharacters() {
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: char("a")), .char("a"))
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: char(" ")), .char(" "))
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: char("中")), .char("中"))
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: char("ñ")), .char("ñ"))
    }

    func testEditingKeys() {
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: 10), .enter)
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: 13), .enter)
        XCTAssertEqual(fkey(KEY_ENTER), .enter)
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: 27), .escape)
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: 127), .backspace)
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: 8), .backspace)
        XCTAssertEqual(fkey(KEY_BACKSPACE), .backspace)
        XCTAssertEqual(fkey(KEY_DC), .delete)
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: 9), .tab)
        XCTAssertEqual(fkey(KEY_BTAB), .backTab)
    }

    func testNavigationAndFunctionKeys() {
        XCTAssertEqual(fkey(KEY_UP), .up)
        XCTAssertEqual(fkey(KEY_DOWN), .down)
        XCTAssertEqual(fkey(KEY_LEFT), .left)
        XCTAssertEqual(fkey(KEY_RIGHT), .right)
        XCTAssertEqual(fkey(KEY_HOME), .home)
        XCTAssertEqual(fkey(KEY_END), .end)
        XCTAssertEqual(fkey(KEY_PPAGE), .pageUp)
        XCTAssertEqual(fkey(KEY_NPAGE), .pageDown)
        XCTAssertEqual(fkey(KEY_F0 + 1), .function(1))
        XCTAssertEqual(fkey(KEY_F0 + 12), .function(12))
        XCTAssertNil(fkey(KEY_F0))
        XCTAssertNil(fkey(KEY_MOUSE))
        XCTAssertNil(fkey(KEY_RESIZE))
    }

    func testControlLetters() {
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: 1), .ctrl("a"))
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: 3), .ctrl("c"))
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: 12), .ctrl("l"))
        XCTAssertEqual(CursesKeyDecoder.key(status: OK, code: 26), .ctrl("z"))
    }

    func testUnnamedInputIsDropped() {
        XCTAssertNil(CursesKeyDecoder.key(status: ERR, code: char("a")))
        XCTAssertNil(CursesKeyDecoder.key(status: OK, code: 0))
        XCTAssertNil(CursesKeyDecoder.key(status: OK, code: 28))
        XCTAssertNil(CursesKeyDecoder.key(status: OK, code: 0x85))
        XCTAssertNil(CursesKeyDecoder.key(status: OK, code: 0xD800))
    }

    func testEscapePairsWithTheNextCharacterAsAlt() {
        let esc = CursesInput.read(status: OK, code: 27)
        XCTAssertEqual(CursesKeyDecoder.events(from: [esc, .read(status: OK, code: char("1"))]), [.key(.alt("1"))])
        XCTAssertEqual(CursesKeyDecoder.events(from: [esc]), [.key(.escape)])
        XCTAssertEqual(CursesKeyDecoder.events(from: [esc, esc]), [.key(.escape), .key(.escape)])
        XCTAssertEqual(
            CursesKeyDecoder.events(from: [esc, .read(status: KEY_CODE_YES, code: UInt32(KEY_UP))]),
            [.key(.escape), .key(.up)])
        XCTAssertEqual(
            CursesKeyDecoder.events(from: [esc, .read(status: OK, code: 13)]), [.key(.escape), .key(.enter)])
    }

    func testRunsDecodeInOrder() {
        let inputs: [CursesInput] = [
            .read(status: OK, code: char("j")), .read(status: OK, code: char("j")),
            .resize(Size(width: 80, height: 24)), .read(status: OK, code: 0),
        ]
        XCTAssertEqual(
            CursesKeyDecoder.events(from: inputs),
            [.key(.char("j")), .key(.char("j")), .resize(Size(width: 80, height: 24))])
    }

    func testMouse() {
        XCTAssertEqual(
            CursesKeyDecoder.mouseEvent(x: 3, y: 4, buttons: UInt32(cs_BUTTON1_PRESSED())), .click(x: 3, y: 4))
        XCTAssertEqual(
            CursesKeyDecoder.mouseEvent(x: 3, y: 4, buttons: UInt32(cs_BUTTON1_CLICKED())), .click(x: 3, y: 4))
        XCTAssertEqual(CursesKeyDecoder.mouseEvent(x: 0, y: 0, buttons: UInt32(cs_BUTTON4_PRESSED())), .scrollUp)
        XCTAssertEqual(CursesKeyDecoder.mouseEvent(x: 0, y: 0, buttons: UInt32(cs_BUTTON5_PRESSED())), .scrollDown)
        XCTAssertNil(CursesKeyDecoder.mouseEvent(x: 0, y: 0, buttons: UInt32(cs_BUTTON1_RELEASED())))
        XCTAssertEqual(
            CursesKeyDecoder.events(from: [.mouse(x: 1, y: 2, buttons: UInt32(cs_BUTTON1_PRESSED()))]),
            [.click(x: 1, y: 2)])
    }

    func testCellsNeverCarryControlCharacters() {
        // setlocale is process-wide: put it back for the other tests.
        let saved = setlocale(LC_ALL, nil).map { String(cString: $0) }
        defer { if let saved { _ = setlocale(LC_ALL, saved) } }
        CursesBackend.setUpLocale()
        XCTAssertTrue(CursesBackend.localeIsUTF8())
        XCTAssertEqual(CursesBackend.drawable("\u{1b}").chars, [0x20])
        XCTAssertEqual(CursesBackend.drawable("").chars, [0x20])
        XCTAssertEqual(CursesBackend.drawable("\u{9b}").chars, [0x20])
        XCTAssertEqual(CursesBackend.drawable("a").width, 1)
        XCTAssertEqual(CursesBackend.drawable("中").width, 2)
        let accented = CursesBackend.drawable("e\u{301}")
        XCTAssertEqual(accented.chars, [0x65, 0x301])
        XCTAssertEqual(accented.width, 1)
    }

    func testPreflight() {
        XCTAssertEqual(CursesBackend.preflight(isTTY: false, term: "xterm"), .notATerminal)
        XCTAssertEqual(CursesBackend.preflight(isTTY: true, term: nil), .unknownTerminal(nil))
        XCTAssertEqual(CursesBackend.preflight(isTTY: true, term: ""), .unknownTerminal(nil))
        XCTAssertNil(CursesBackend.preflight(isTTY: true, term: "xterm-256color"))
    }

    func testOpenRefusesWithoutATerminal() throws {
        // Whether or not the tests run in a terminal, stdin is /dev/null for this call, so the
        // check always runs and never takes over a developer's terminal.
        let saved = dup(0)
        let devNull = open("/dev/null", O_RDONLY)
        XCTAssertGreaterThanOrEqual(saved, 0)
        XCTAssertGreaterThanOrEqual(devNull, 0)
        dup2(devNull, 0)
        let result = CursesBackend.open(colors: true)
        dup2(saved, 0)
        close(saved)
        close(devNull)
        switch result {
        case .success(let backend):
            backend.restore()
            XCTFail("opened a terminal without a TTY")
        case .failure(let error):
            XCTAssertEqual(error, .notATerminal)
            XCTAssertTrue(error.description.contains("interactive terminal"))
        }
    }
}

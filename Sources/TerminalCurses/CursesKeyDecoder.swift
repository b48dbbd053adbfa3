import CNcursesw
import CShims
import DocentUI

/// One thing read from ncurses, before decoding: a `wget_wch` result, or the mouse event or
/// new size that a `KEY_MOUSE` / `KEY_RESIZE` read stood for (looked up when it was read).
public enum CursesInput: Equatable, Sendable {
    /// `wget_wch`'s return value (`OK` or `KEY_CODE_YES`) and the character or key code.
    case read(status: Int32, code: UInt32)
    /// `getmouse` result: cell position and `bstate` button mask.
    case mouse(x: Int, y: Int, buttons: UInt32)
    case resize(Size)
}

/// Pure mapping from ncurses reads to `InputEvent`s, so it can be tested without a terminal.
public enum CursesKeyDecoder {
    /// The ESC character.
    public static let escapeCode: UInt32 = 27

    /// Decodes one `wget_wch` result. Returns nil for what the app has no name for (NUL, C1
    /// controls, unknown key codes, `KEY_MOUSE`/`KEY_RESIZE`, which the reader handles).
    /// A lone ESC decodes to `.escape`; pairing ESC with the next character is `events(from:)`.
    public static func key(status: Int32, code: UInt32) -> Key? {
        if status == KEY_CODE_YES {
            return functionKey(Int32(truncatingIfNeeded: code))
        }
        guard status == OK else { return nil }
        switch code {
        case 10, 13: return .enter
        case 27: return .escape
        case 9: return .tab
        case 8, 127: return .backspace
        case 1...26:
            guard let letter = Unicode.Scalar(0x60 + code) else { return nil }
            return .ctrl(Character(letter))
        default:
            return printable(code).map(Key.char)
        }
    }

    /// Maps a `KEY_*` code to a key.
    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        case (KEY_F0 + 1)...(KEY_F0 + 63): return .function(Int(code - KEY_F0))
        default: return nil
        }
    }

    /// The character for a code point that may be shown, or nil for controls and non-scalars.
    static func printable(_ code: UInt32) -> Character? {
        guard code >= 0x20, code != 0x7F, !(0x80..<0xA0).contains(code),
            let scalar = Unicode.Scalar(code)
        else { return nil }
        return Character(scalar)
    }

    /// Decodes a mouse report: a left press or click, or a wheel step.
    public static func mouseEvent(x: Int, y: Int, buttons: UInt32) -> InputEvent? {
        let mask = mmask_t(buttons)
        if mask & (cs_BUTTON1_PRESSED() | cs_BUTTON1_CLICKED()) != 0 { return .click(x: x, y: y) }
        if mask & cs_BUTTON4_PRESSED() != 0 { return .scrollUp }
        if mask & cs_BUTTON5_PRESSED() != 0 { return .scrollDown }
        return nil
    }

    /// Decodes a run of reads that arrived together. ESC directly followed by a printable
    /// character becomes `.alt(c)`; any other ESC is `.escape`.
    public static func events(from inputs: [CursesInput]) -> [InputEvent] {
        var out: [InputEvent] = []
        var i = 0
        while i < inputs.count {
            defer { i += 1 }
            switch inputs[i] {
            case .resize(let size):
                out.append(.resize(size))
            case .mouse(let x, let y, let buttons):
                if let e = mouseEvent(x: x, y: y, buttons: buttons) { out.append(e) }
            case .read(let status, let code):
                if status == OK, code == escapeCode, i + 1 < inputs.count,
                    case .read(let nextStatus, let nextCode) = inputs[i + 1], nextStatus == OK,
                    let c = printable(nextCode)
                {
                    out.append(.key(.alt(c)))
                    i += 1
                } else if let k = key(status: status, code: code) {
                    out.append(.key(k))
                }
            }
        }
        return out
    }
}

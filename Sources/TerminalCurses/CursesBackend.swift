import CNcursesw
import CShims
import DocentUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ncursesw terminal: reads keys, mouse and resizes, and draws `Screen` frames by writing
/// only the cells that changed. Use from one thread only. Call `restore()` before exiting
/// (an `atexit` hook and the crash handlers restore the terminal too).
public final class CursesBackend: TerminalBackend {
    let window: UnsafeMutablePointer<WINDOW>
    let theme: CursesTheme
    /// Whether link regions are written again as OSC 8 hyperlinks after each frame.
    let hyperlinks: Bool
    /// Screen-reader mode: the terminal's cursor is shown and put on the frame's focus (the
    /// selected row, a box's choice), where Orca, speakup or brltty read.
    let screenReader: Bool
    /// The Linux virtual console: characters its font lacks are drawn as `ConsoleGlyphs` says.
    let consoleGlyphs: Bool
    var previousFocus: Rect?
    /// The last frame drawn and the terminal size it was drawn at (nil: redraw everything).
    var previous: Screen?
    /// Images kitty has been sent (placed again by id without sending them again).
    var kittyImages: Set<UInt32> = []
    var previousTerminalSize: Size?
    private(set) var isOpen = true
    /// A pipe polled beside standard input: a byte written to it ends a wait (`waker`).
    private let wakeRead: Int32
    private let wakeWrite: Int32
    public let waker: Waker

    private init(window: UnsafeMutablePointer<WINDOW>, theme: CursesTheme, hyperlinks: Bool, screenReader: Bool, consoleGlyphs: Bool) {
        self.window = window
        self.consoleGlyphs = consoleGlyphs
        self.theme = theme
        self.hyperlinks = hyperlinks
        self.screenReader = screenReader
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            fds = [-1, -1]
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        let fd = fds[1]
        // write(2) is thread-safe; a full pipe (EAGAIN) already means "wake up".
        waker = Waker {
            guard fd >= 0 else { return }
            var b: UInt8 = 1
            _ = write(fd, &b, 1)
        }
    }

    deinit { restore() }

    /// Takes over the terminal. Fails, without touching it, when standard input or output is
    /// not a terminal or `TERM` is unset or unknown. `colors` false gives monochrome
    /// (pass false for `NO_COLOR`); colours are also off when the terminal has none.
    /// `hyperlinks` writes link regions as OSC 8 links (see `Hyperlinks`; decide with
    /// `Hyperlinks.enabled`). `options` (`RenderOptions`, decoded once at start): in `.raw`
    /// mode (a kiosk) Ctrl-C, Ctrl-Z and Ctrl-\ arrive as keys, not signals, and SIGINT, SIGQUIT
    /// and SIGTSTP are ignored (SIGTERM and SIGHUP still end the guide); for a screen reader the
    /// cursor shows and sits on the frame's focus.
    public static func open(
        colors: Bool, hyperlinks: Bool = false, options: RenderOptions = RenderOptions(), background: BackgroundSetting = .auto
    ) -> Result<CursesBackend, TerminalError> {
        let kiosk = options.terminalMode == .raw
        let screenReader = options.screenReader
        let term = getenv("TERM").map { String(cString: $0) }
        if let error = preflight(isTTY: cs_is_tty() != 0, term: term) { return .failure(error) }
        // The background, before curses takes the terminal: a forced one, COLORFGBG, or the
        // terminal's own answer (never asked of the Linux console, whose background is black,
        // nor without colours).
        let colorFgBg = getenv("COLORFGBG").map { String(cString: $0) }
        let ask = colors && background == .auto && TerminalBackground.fromColorFgBg(colorFgBg) == nil && !ConsoleGlyphs.isLinuxConsole(term: term)
        let shade = TerminalBackground.resolve(background, colorFgBg: colorFgBg, osc11Answer: ask ? BackgroundQuery.ask() : nil)

        setUpLocale()
        cs_install_crash_handlers()
        // A kiosk's crash never shows Swift's report and 30-second prompt to a visitor: the
        // guide ends with the signal and its service starts it again (issue 45).
        cs_set_crash_quiet(kiosk ? 1 : 0)
        // Before newterm: ncurses hooks SIGINT/SIGTERM only where the handler is SIG_DFL.
        let installedQuit = cs_install_quit_handlers(kiosk ? 1 : 0) != 0
        guard cs_newterm(nil) != nil else {
            if installedQuit { cs_uninstall_quit_handlers() }
            return .failure(.unknownTerminal(term))
        }
        cs_set_curses_active(1)
        // A terminal type that cannot address the cursor (issue 45: TERM=dumb drew only the
        // last line) is refused as an unknown one is.
        let cup = "cup".withCString { tigetstr($0) }.map { Int(bitPattern: $0) } ?? 0
        if cup == 0 || cup == -1 {
            _ = cs_curses_end()
            if installedQuit { cs_uninstall_quit_handlers() }
            return .failure(.cannotMoveCursor(term ?? ""))
        }
        cs_register_atexit_restore()
        guard let window = cs_stdscr() else {
            _ = cs_curses_end()
            return .failure(.initFailed("no standard window"))
        }

        if kiosk { raw() } else { cbreak() }
        noecho()
        nonl()
        _ = intrflush(window, false)
        _ = keypad(window, true)
        // No insert/delete-character shortcuts: a line shifted sideways on the terminal would
        // move the cells written after ncurses (pictures, links) to where ncurses thinks blanks are.
        idcok(window, false)
        // The cursor stays hidden and anywhere, except for a screen reader, which reads where it is.
        _ = leaveok(window, !screenReader)
        _ = curs_set(screenReader ? 1 : 0)
        _ = cs_set_escdelay(25)
        _ = cs_disable_flow_control()
        let theme = CursesTheme(wantColors: colors, background: shade)
        _ = cs_enable_mouse()
        // Links are written after doupdate; ncurses must not leave rows for later when keys
        // are pending (its typeahead check), or it would repaint them over the links.
        if hyperlinks { _ = typeahead(-1) }
        return .success(CursesBackend(
            window: window, theme: theme, hyperlinks: hyperlinks, screenReader: screenReader, consoleGlyphs: ConsoleGlyphs.isLinuxConsole(term: term)))
    }

    /// Why the terminal cannot be used, checked before touching it; nil when it can.
    static func preflight(isTTY: Bool, term: String?) -> TerminalError? {
        if !isTTY { return .notATerminal }
        guard let term, !term.isEmpty else { return .unknownTerminal(nil) }
        return nil
    }

    /// Uses the user's locale, or C.UTF-8 when that is not UTF-8 (LANG unset in CI or cron):
    /// without a UTF-8 locale ncurses drops or garbles every non-ASCII character.
    static func setUpLocale() {
        _ = setlocale(LC_ALL, "")
        if !localeIsUTF8() { _ = setlocale(LC_ALL, "C.UTF-8") }
    }

    static func localeIsUTF8() -> Bool {
        guard let codeset = nl_langinfo(Int32(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// The terminal size in cells.
    public var size: Size {
        var rows: Int32 = 0
        var cols: Int32 = 0
        cs_getmaxyx(window, &rows, &cols)
        return Size(width: Int(cols), height: Int(rows))
    }

    /// Waits up to `timeoutMilliseconds` (negative: no limit) for input, then takes everything
    /// else already pending, so held-down keys never lag behind. Reports `.quitSignal` once
    /// per SIGINT/SIGTERM/SIGHUP/SIGQUIT (SIGTERM/SIGHUP in kiosk mode).
    public func readEvents(timeoutMilliseconds: Int) -> [InputEvent] {
        guard isOpen else { return [] }
        if takeQuitSignal() { return [.quitSignal] }
        var inputs: [CursesInput] = []
        // Input ncurses already holds first; then wait on the terminal and the wake pipe
        // together (a signal, such as a resize, ends the wait too).
        wtimeout(window, 0)
        var first = readOne()
        if first == nil, timeoutMilliseconds != 0, wakeRead >= 0 {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, Int32(clamping: max(timeoutMilliseconds, -1)))
            if fds[1].revents != 0 { drainWakePipe() }
            first = readOne()
        } else if first == nil, timeoutMilliseconds != 0 {
            wtimeout(window, Int32(clamping: max(timeoutMilliseconds, -1)))
            first = readOne()
        }
        if let first {
            inputs.append(first)
            wtimeout(window, 0)
            while inputs.count < 4096, let next = readOne() { inputs.append(next) }
        }
        var events = CursesKeyDecoder.events(from: inputs)
        if takeQuitSignal() { events.append(.quitSignal) }
        return events
    }

    private func drainWakePipe() {
        var buf = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buf, buf.count) > 0 {}
    }

    private func takeQuitSignal() -> Bool {
        guard cs_quit_requested() != 0 else { return false }
        cs_clear_quit()
        return true
    }

    /// One `wget_wch` read, nil on timeout; mouse and resize are looked up at once.
    private func readOne() -> CursesInput? {
        var code: wint_t = 0
        let status = wget_wch(window, &code)
        if status == ERR { return nil }
        if status == KEY_CODE_YES {
            switch Int32(truncatingIfNeeded: code) {
            case KEY_RESIZE:
                return .resize(size)
            case KEY_MOUSE:
                var event = MEVENT()
                if getmouse(&event) == OK {
                    return .mouse(x: Int(event.x), y: Int(event.y), buttons: UInt32(event.bstate))
                }
            default:
                break
            }
        }
        return .read(status: status, code: UInt32(code))
    }

    /// The next frame clears the terminal and writes every cell (ncurses' `clearok`), then every
    /// picture and link after it (a full frame, as after a resize).
    public func redrawAll() {
        guard isOpen else { return }
        _ = clearok(window, true)
        previous = nil
    }

    /// Leaves curses mode and flushes. Safe to call more than once.
    public func restore() {
        guard isOpen else { return }
        // kitty keeps images after the program ends: forget ours.
        if !kittyImages.isEmpty { writeRaw(GraphicsEscapes.kittyHideAll(freeing: true)) }
        isOpen = false
        _ = cs_curses_end()
    }
}

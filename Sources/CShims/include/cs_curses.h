// ncursesw helpers for Swift: function-like macros, C globals (stdscr, stdout, stdin) that
// Swift 6 cannot touch, and signal handlers, which must be C to be async-signal-safe.
#ifndef CS_CURSES_H
#define CS_CURSES_H
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <stddef.h>
#include <wchar.h>

// ---- attributes (A_* are built on NCURSES_BITS(), a macro Swift cannot import) ----
attr_t cs_A_NORMAL(void);
attr_t cs_A_BOLD(void);
attr_t cs_A_DIM(void);
attr_t cs_A_REVERSE(void);
attr_t cs_A_UNDERLINE(void);
attr_t cs_A_STANDOUT(void);
attr_t cs_A_ITALIC(void);
attr_t cs_A_INVIS(void);

// ---- globals and macros ----
/// The current screen's standard window (the C global `stdscr`).
WINDOW *cs_stdscr(void);
/// getmaxyx(): rows and columns of `win` (0 when `win` is NULL).
void cs_getmaxyx(WINDOW *win, int *rows, int *cols);
/// How many colours the terminal has (the C global `COLORS`; 0 before start_color).
int cs_colors(void);
/// Sets ESCDELAY (milliseconds ncurses waits after ESC for the rest of a sequence).
int cs_set_escdelay(int ms);
/// Turns off terminal flow control (Ctrl-S/Ctrl-Q) in the program's terminal mode, so Ctrl-S
/// reaches the guide instead of freezing its output; endwin puts the shell's mode (with flow
/// control) back. Returns 0 on success.
int cs_disable_flow_control(void);
/// KEY_F(n).
int cs_KEY_F(int n);
/// wcwidth()/wcswidth(), hidden from Swift's Glibc module.
int cs_wcwidth(wchar_t c);
int cs_wcswidth(const wchar_t *s, size_t n);

// ---- terminal setup ----
/// 1 when both standard input and standard output are terminals.
int cs_is_tty(void);
/// newterm(type, stdout, stdin): NULL (never exit) when the terminal type is unknown.
/// `type` NULL means $TERM.
SCREEN *cs_newterm(const char *type);
/* Writes bytes straight to stdout (the stream ncurses draws on) and flushes: for escapes
   ncurses cannot emit (OSC 8 hyperlinks), written after doupdate. */
void cs_write_terminal(const char *bytes, size_t count);
/// Marks curses as active (after newterm) or not; the crash and atexit handlers use it.
void cs_set_curses_active(int active);
int cs_curses_active(void);
/// endwin() if curses is active, then flush stdout. Idempotent. Returns 1 if it ended curses.
int cs_curses_end(void);
/// Registers (once) an atexit handler that calls cs_curses_end().
void cs_register_atexit_restore(void);

// ---- mouse ----
mmask_t cs_BUTTON1_PRESSED(void);
mmask_t cs_BUTTON1_RELEASED(void);
mmask_t cs_BUTTON1_CLICKED(void);
mmask_t cs_BUTTON4_PRESSED(void);  // wheel up
mmask_t cs_BUTTON5_PRESSED(void);  // wheel down
/// Enables left clicks and the wheel: mousemask(BUTTON1_PRESSED|BUTTON1_CLICKED|wheel) with
/// mouseinterval(0) so a press is reported at once. Returns the mask actually granted.
mmask_t cs_enable_mouse(void);

// ---- signals (install BEFORE newterm/initscr: ncurses only hooks signals left at SIG_DFL) ----
/// SEGV/BUS/ILL/FPE/ABRT/TRAP: endwin() if curses is active, put back the handler that was
/// there before (the Swift backtracer's) and re-deliver, so the backtrace prints on a sane
/// terminal. Idempotent.
void cs_install_crash_handlers(void);
/// Non-zero: a crash ends the process with the signal's default action after the terminal
/// is restored, without chaining to the handler saved at install (Swift's backtracer, which
/// prints a report and waits 30 s for a key on a terminal). For kiosks.
void cs_set_crash_quiet(int quiet);
/// The calling process is killed when its parent ends (PR_SET_PDEATHSIG): a worker the guide
/// started (check getppid() afterwards: the parent may have gone before). -1 on failure.
int cs_die_with_parent(void);
/// SIGINT/SIGTERM/SIGHUP/SIGQUIT set a flag (no SA_RESTART, so a blocking read returns); SIGPIPE is
/// ignored. Idempotent: returns 1 if this call installed them, 0 if they already were.
/// `kiosk` non-zero: SIGINT, SIGQUIT and SIGTSTP are ignored instead (a visitor cannot stop or
/// suspend the guide; only SIGTERM/SIGHUP, as from systemd, end it). Ignored before newterm,
/// ncurses leaves SIGTSTP alone too.
int cs_install_quit_handlers(int kiosk);
/// Puts back the SIGINT/SIGTERM/SIGHUP/SIGQUIT (and SIGTSTP) handlers that were there before
/// cs_install_quit_handlers() (for when the terminal could not be opened after all).
void cs_uninstall_quit_handlers(void);
/// The signal number that asked to quit, or 0.
int cs_quit_requested(void);
void cs_clear_quit(void);

#endif

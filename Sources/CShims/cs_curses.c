// ncursesw helpers; see include/cs_curses.h.
#define _GNU_SOURCE 1
#include "CShims.h"

#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

attr_t cs_A_NORMAL(void) { return A_NORMAL; }
attr_t cs_A_BOLD(void) { return A_BOLD; }
attr_t cs_A_DIM(void) { return A_DIM; }
attr_t cs_A_REVERSE(void) { return A_REVERSE; }
attr_t cs_A_UNDERLINE(void) { return A_UNDERLINE; }
attr_t cs_A_STANDOUT(void) { return A_STANDOUT; }
attr_t cs_A_ITALIC(void) { return A_ITALIC; }
attr_t cs_A_INVIS(void) { return A_INVIS; }

WINDOW *cs_stdscr(void) { return stdscr; }

void cs_getmaxyx(WINDOW *win, int *rows, int *cols) {
    int y = 0, x = 0;
    if (win != NULL) {
        getmaxyx(win, y, x);
    }
    if (rows != NULL) *rows = y < 0 ? 0 : y;
    if (cols != NULL) *cols = x < 0 ? 0 : x;
}

int cs_colors(void) { return COLORS; }
int cs_set_escdelay(int ms) { return set_escdelay(ms); }

int cs_disable_flow_control(void) {
    struct termios t;
    if (tcgetattr(STDIN_FILENO, &t) != 0) return -1;
    t.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
    if (tcsetattr(STDIN_FILENO, TCSANOW, &t) != 0) return -1;
    // Record it as the program's mode, so a resize or resume comes back to it.
    def_prog_mode();
    return 0;
}
int cs_KEY_F(int n) { return KEY_F(n); }
int cs_wcwidth(wchar_t c) { return wcwidth(c); }
int cs_wcswidth(const wchar_t *s, size_t n) { return wcswidth(s, n); }

int cs_is_tty(void) { return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO); }

/* newterm, then ncurses told the screen is running. Until a doupdate comes back from endwin,
   ncurses takes every cursor move for a low-level caller's and flushes after it
   (`_nc_mvcur` while `_endwin == ewInitial`): a frame of the playing clock went out in four
   writes, one per row it moved to (issue 48). endwin then doupdate, before anything is drawn,
   makes it one write per frame. */
SCREEN *cs_newterm(const char *type) {
    SCREEN *screen = newterm(type, stdout, stdin);
    if (screen != NULL) {
        endwin();
        doupdate();
    }
    return screen;
}

void cs_write_terminal(const char *bytes, size_t count) {
    size_t done = 0;
    while (done < count) {
        size_t n = fwrite(bytes + done, 1, count - done, stdout);
        if (n == 0) break;
        done += n;
    }
    fflush(stdout);
}

static volatile sig_atomic_t curses_active = 0;

void cs_set_curses_active(int active) { curses_active = active ? 1 : 0; }
int cs_curses_active(void) { return curses_active; }

int cs_curses_end(void) {
    if (!curses_active) return 0;
    curses_active = 0;
    endwin();
    fflush(stdout);
    return 1;
}

static void atexit_restore(void) { (void)cs_curses_end(); }

void cs_register_atexit_restore(void) {
    static int registered = 0;
    if (registered) return;
    registered = 1;
    atexit(atexit_restore);
}

mmask_t cs_BUTTON1_PRESSED(void) { return BUTTON1_PRESSED; }
mmask_t cs_BUTTON1_RELEASED(void) { return BUTTON1_RELEASED; }
mmask_t cs_BUTTON1_CLICKED(void) { return BUTTON1_CLICKED; }
mmask_t cs_BUTTON4_PRESSED(void) { return BUTTON4_PRESSED; }
mmask_t cs_BUTTON5_PRESSED(void) { return BUTTON5_PRESSED; }

mmask_t cs_enable_mouse(void) {
    mmask_t old = 0;
    mmask_t granted = mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, &old);
    mouseinterval(0);
    return granted;
}

// ---- crash handlers ----

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define CRASH_COUNT ((int)(sizeof crash_signals / sizeof crash_signals[0]))
static struct sigaction saved_crash[CRASH_COUNT];
static volatile sig_atomic_t crash_quiet = 0;

void cs_set_crash_quiet(int quiet) { crash_quiet = quiet ? 1 : 0; }

static void crash_handler(int sig, siginfo_t *info, void *context) {
    (void)context;
    // A mapped file cut short under a reader is mended, not a crash (cs_memory.h).
    if (sig == SIGBUS && info != NULL && info->si_code > 0 && cs_mapguard_mend(info->si_addr)) return;
    if (curses_active) {
        curses_active = 0;
        endwin();  // not async-signal-safe in theory; the process is dying anyway
    }
    for (int i = 0; i < CRASH_COUNT; i++) {
        if (crash_signals[i] == sig) {
            if (crash_quiet) {
                // A kiosk: the default action, not Swift's backtracer, whose report and
                // 30-second prompt would be the visitor's screen (issue 45).
                struct sigaction dfl;
                memset(&dfl, 0, sizeof dfl);
                dfl.sa_handler = SIG_DFL;
                sigemptyset(&dfl.sa_mask);
                sigaction(sig, &dfl, NULL);
            } else {
                sigaction(sig, &saved_crash[i], NULL);
            }
            break;
        }
    }
    // A genuine fault (si_code > 0, sent by the kernel) re-executes the faulting instruction
    // on return and reaches the restored handler with the real context. A signal sent by
    // raise()/abort()/kill() would not come back, so send it again.
    if (info == NULL || info->si_code <= 0) {
        raise(sig);
    }
}

void cs_install_crash_handlers(void) {
    static int installed = 0;
    if (installed) return;  // never save our own handler as "previous": that would loop
    installed = 1;
    for (int i = 0; i < CRASH_COUNT; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = crash_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(crash_signals[i], &sa, &saved_crash[i]);
    }
}

// ---- worker processes ----

int cs_die_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGKILL); }

// ---- quit handlers ----

static volatile sig_atomic_t quit_signal = 0;

static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP};
#define QUIT_COUNT ((int)(sizeof quit_signals / sizeof quit_signals[0]))
static struct sigaction saved_quit[QUIT_COUNT];
static int quit_installed = 0;

static void quit_handler(int sig) { quit_signal = sig; }

int cs_install_quit_handlers(int kiosk) {
    if (quit_installed) return 0;
    quit_installed = 1;
    for (int i = 0; i < QUIT_COUNT; i++) {
        int sig = quit_signals[i];
        int visitor = sig == SIGINT || sig == SIGQUIT || sig == SIGTSTP;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sigemptyset(&sa.sa_mask);
        if (sig == SIGTSTP && !kiosk) {
            // Not ours outside kiosk mode: keep what is there (ncurses suspends cleanly).
            sigaction(sig, NULL, &saved_quit[i]);
            continue;
        }
        if (kiosk && visitor) {
            sa.sa_handler = SIG_IGN;
        } else {
            sa.sa_handler = quit_handler;
            sa.sa_flags = 0;  // no SA_RESTART: a blocking read returns so the loop sees the flag
        }
        sigaction(sig, &sa, &saved_quit[i]);
    }
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, NULL);
    return 1;
}

void cs_uninstall_quit_handlers(void) {
    if (!quit_installed) return;
    quit_installed = 0;
    for (int i = 0; i < QUIT_COUNT; i++) {
        sigaction(quit_signals[i], &saved_quit[i], NULL);
    }
}

int cs_quit_requested(void) { return quit_signal; }
void cs_clear_quit(void) { quit_signal = 0; }

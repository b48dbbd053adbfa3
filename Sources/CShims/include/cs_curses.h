#ifndef CS_CURSES_H
#define CS_CURSES_H
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#endif

// CShims: the few things Swift cannot call directly (variadic C functions, function-like
// macros, C mutable globals, async-signal-safe handlers). Each library has its own header.
#ifndef CSHIMS_H
#define CSHIMS_H
#include "cs_curses.h"
#include "cs_curl.h"
#include "cs_memory.h"
#endif

#ifndef CS_MEMORY_H
#define CS_MEMORY_H

#include <stddef.h>

// A file mapped read-only faults (SIGBUS) where the file was cut short after it was mapped.
// Inside a guarded range the fault is mended instead: the page is replaced by zeros, the
// slot's count of mended faults goes up, and the program goes on (the reader then meets bytes that
// are not JSON and says so, and the caller, seeing the count move, says the file changed).

/// Guards [base, base + length); returns the slot to give back to cs_mapguard_remove, or -1
/// when every slot is taken (the range is then not guarded). Installs the handler once.
int cs_mapguard_add(const void *base, size_t length);
void cs_mapguard_remove(int slot);
/// How many faults were mended in the range of `slot` since it was taken.
long cs_mapguard_mended_in(int slot);
/// Mends a fault at `address` if it lies in a guarded range (1) or not (0). Called by the
/// handler and by other handlers of SIGBUS (the curses crash handler) before their own work.
int cs_mapguard_mend(void *address);

/// Gives the pages of freed memory back to the system, in every thread's arena (glibc's
/// malloc_trim): a large tree freed on one thread is otherwise kept for that thread's reuse
/// while another thread grows its own.
void cs_release_free_memory(void);
/// Large blocks (at least `bytes`) get pages of their own, given back to the system when freed
/// (glibc's mmap threshold, fixed: by default it grows with the first large block freed, after
/// which the transient arrays of a large museum's load and index stayed in the heap).
void cs_fix_mmap_threshold(size_t bytes);
/// No more malloc arenas than `count` from now on (glibc's M_ARENA_MAX): threads started later
/// share the arenas there are.
void cs_limit_arenas(int count);

#endif

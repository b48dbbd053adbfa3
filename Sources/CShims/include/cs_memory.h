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
/// The guide's malloc, set before anything is allocated (`docent` and `docent-guide-bench`, whose
/// peak memory the bench measures, call this one function so they cannot drift apart):
/// - blocks of 128 KiB and more get pages of their own, given back to the system when freed
///   (glibc's mmap threshold, fixed: by default it grows with the first large block freed,
///   after which the transient arrays of a large museum's load and index stayed in the heap;
///   issue 14);
/// - two arenas for all threads (glibc gives each thread its own, up to 16 here, and what a
///   finished thread's load or index let go stayed in its arena: 5-10 MB of a large museum's
///   peak, varying from run to run; one arena made the two-core parse 20-70% slower; issue 30).
void cs_tune_malloc(void);

#endif

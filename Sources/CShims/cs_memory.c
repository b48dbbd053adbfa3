#include "cs_memory.h"

#include <malloc.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SLOTS 64
static _Atomic uintptr_t low[SLOTS];
static _Atomic uintptr_t high[SLOTS];
static atomic_long mended_in[SLOTS];
/// The page size, read once when the handler is installed (sysconf is not for a handler).
static uintptr_t page_size = 4096;
static struct sigaction previous;
static atomic_int installed;

int cs_mapguard_mend(void *address) {
    uintptr_t a = (uintptr_t)address;
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t lo = atomic_load(&low[i]);
        if (lo != 0 && a >= lo && a < atomic_load(&high[i])) {
            uintptr_t page = page_size;
            void *at = (void *)(a & ~(page - 1));
            // mmap is a plain system call here: safe in a handler in practice.
            if (mmap(at, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) return 0;
            atomic_fetch_add(&mended_in[i], 1);
            return 1;
        }
    }
    return 0;
}

static void handler(int sig, siginfo_t *info, void *context) {
    if (info != NULL && info->si_code > 0 && cs_mapguard_mend(info->si_addr)) return;
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != NULL) {
        previous.sa_sigaction(sig, info, context);
        return;
    }
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler != NULL) {
        previous.sa_handler(sig);
        return;
    }
    // Not ours and nobody else's: the default (a core dump) on return, as if never caught.
    signal(sig, SIG_DFL);
    if (info == NULL || info->si_code <= 0) raise(sig);
}

int cs_mapguard_add(const void *base, size_t length) {
    if (base == NULL || length == 0) return -1;
    int expected = 0;
    if (atomic_compare_exchange_strong(&installed, &expected, 1)) {
        long page = sysconf(_SC_PAGESIZE);
        if (page > 0) page_size = (uintptr_t)page;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, &previous);
    }
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t zero = 0;
        if (atomic_compare_exchange_strong(&low[i], &zero, UINTPTR_MAX)) {  // taken, not yet valid
            atomic_store(&mended_in[i], 0);
            atomic_store(&high[i], (uintptr_t)base + length);
            atomic_store(&low[i], (uintptr_t)base);
            return i;
        }
    }
    return -1;
}

void cs_mapguard_remove(int slot) {
    if (slot < 0 || slot >= SLOTS) return;
    atomic_store(&high[slot], 0);
    atomic_store(&low[slot], 0);
}

long cs_mapguard_mended_in(int slot) {
    if (slot < 0 || slot >= SLOTS) return 0;
    return atomic_load(&mended_in[slot]);
}

void cs_release_free_memory(void) { malloc_trim(0); }

void cs_tune_malloc(void) {
    mallopt(M_MMAP_THRESHOLD, 128 << 10);
    mallopt(M_ARENA_MAX, 2);
}

// The functions of the libraries opened on first need (CLazyLibs.h). Each function the Swift
// adapters call is defined here under its own name as a jump through a pointer; the pointer
// starts at a function that stops the program with a clear message (an adapter that forgot to
// load its group), and `docent_lazy_load` fills it from the library with dlsym. The jump
// keeps every argument register as the caller set it, so variadic and floating-point
// arguments pass through untouched, and no prototype has to be written again here.
#define _GNU_SOURCE
#include "CLazyLibs.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLIB_FUNCS(X) X(g_bytes_new) X(g_bytes_unref) X(g_error_free) X(g_free) X(g_object_unref) X(g_signal_connect_data) X(g_string_free)

#define POPPLER_FUNCS(X)                                                                                                      \
    X(cairo_create) X(cairo_destroy) X(cairo_image_surface_create) X(cairo_image_surface_get_data)                            \
    X(cairo_image_surface_get_stride) X(cairo_paint) X(cairo_scale) X(cairo_set_source_rgb) X(cairo_surface_destroy)           \
    X(cairo_surface_flush) X(cairo_surface_status) X(cairo_translate) X(poppler_document_get_n_pages)                         \
    X(poppler_document_get_page) X(poppler_document_new_from_bytes) X(poppler_page_get_size) X(poppler_page_get_text_layout)  \
    X(poppler_page_render)

#define PICTURES_FUNCS(X)                                                                                                     \
    X(chafa_calc_canvas_geometry) X(chafa_canvas_config_new) X(chafa_canvas_config_set_canvas_mode)                           \
    X(chafa_canvas_config_set_cell_geometry) X(chafa_canvas_config_set_geometry) X(chafa_canvas_config_set_pixel_mode)        \
    X(chafa_canvas_config_set_symbol_map) X(chafa_canvas_config_unref) X(chafa_canvas_draw_all_pixels)                        \
    X(chafa_canvas_get_char_at) X(chafa_canvas_get_colors_at) X(chafa_canvas_get_raw_colors_at) X(chafa_canvas_new)           \
    X(chafa_canvas_print) X(chafa_canvas_unref) X(chafa_symbol_map_add_by_tags) X(chafa_symbol_map_new)                       \
    X(chafa_symbol_map_remove_by_tags) X(chafa_symbol_map_unref) X(gdk_pixbuf_get_bits_per_sample) X(gdk_pixbuf_get_height)   \
    X(gdk_pixbuf_get_n_channels) X(gdk_pixbuf_get_rowstride) X(gdk_pixbuf_get_width) X(gdk_pixbuf_loader_close)               \
    X(gdk_pixbuf_loader_get_pixbuf) X(gdk_pixbuf_loader_new) X(gdk_pixbuf_loader_set_size) X(gdk_pixbuf_loader_write)         \
    X(gdk_pixbuf_new_from_data) X(gdk_pixbuf_read_pixels) X(gdk_pixbuf_save_to_bufferv) X(gdk_pixbuf_scale_simple)

#define OPENCC_FUNCS(X) X(opencc_close) X(opencc_convert_utf8) X(opencc_convert_utf8_free) X(opencc_error) X(opencc_open)

#define CURL_FUNCS(X)                                                                                                         \
    X(curl_easy_cleanup) X(curl_easy_getinfo) X(curl_easy_init) X(curl_easy_perform) X(curl_easy_setopt)                      \
    X(curl_easy_strerror) X(curl_global_init) X(curl_slist_append) X(curl_slist_free_all)

// Called through a pointer not filled yet: an adapter used its library before loading it.
static void docent_lazy_unloaded(void) {
    fputs("docent: internal error: a library function was called before its library was opened (docent_lazy_load)\n", stderr);
    abort();
}

// The pointers, hidden (no other object may take them over), each first aimed at the guard.
#define POINTER(name) __attribute__((visibility("hidden"))) void *docent_lazy_p_##name = (void *)docent_lazy_unloaded;
GLIB_FUNCS(POINTER)
POPPLER_FUNCS(POINTER)
PICTURES_FUNCS(POINTER)
OPENCC_FUNCS(POINTER)
CURL_FUNCS(POINTER)

// The functions themselves: a jump through their pointer. Hidden: the program's own calls
// reach them, and a library calling its own functions never does.
#if defined(__x86_64__)
#define JUMP(name)                                                                                                            \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ",@function\n.p2align 4\n" #name ":\n\tjmp *docent_lazy_p_" #name         \
            "(%rip)\n.size " #name ", .-" #name "\n");
#elif defined(__aarch64__)
#define JUMP(name)                                                                                                            \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ",%function\n.p2align 4\n" #name ":\n\tadrp x16, docent_lazy_p_" #name   \
            "\n\tldr x16, [x16, :lo12:docent_lazy_p_" #name "]\n\tbr x16\n.size " #name ", .-" #name "\n");
#else
#error "CLazyLibs: no jump written for this processor"
#endif
GLIB_FUNCS(JUMP)
POPPLER_FUNCS(JUMP)
PICTURES_FUNCS(JUMP)
OPENCC_FUNCS(JUMP)
CURL_FUNCS(JUMP)

typedef struct {
    const char *name;
    void **pointer;
} entry;

#define ENTRY(n) {#n, &docent_lazy_p_##n},
static const entry glib_entries[] = {GLIB_FUNCS(ENTRY)};
static const entry poppler_entries[] = {POPPLER_FUNCS(ENTRY)};
static const entry pictures_entries[] = {PICTURES_FUNCS(ENTRY)};
static const entry opencc_entries[] = {OPENCC_FUNCS(ENTRY)};
static const entry curl_entries[] = {CURL_FUNCS(ENTRY)};

typedef struct {
    const char *const *libraries;  // sonames, the one named in the package's Depends
    const entry *entries;
    size_t count;
    int withGLib;
    int state;  // 0 not tried, 1 loaded, -1 failed
    char error[256];
} group;

static const char *const poppler_libraries[] = {"libpoppler-glib.so.8", "libcairo.so.2", NULL};
static const char *const pictures_libraries[] = {"libchafa.so.0", "libgdk_pixbuf-2.0.so.0", NULL};
static const char *const opencc_libraries[] = {"libopencc.so.1.1", NULL};
static const char *const curl_libraries[] = {"libcurl.so.4", NULL};
static const char *const glib_libraries[] = {"libgobject-2.0.so.0", "libglib-2.0.so.0", NULL};

static group groups[] = {
    {poppler_libraries, poppler_entries, sizeof poppler_entries / sizeof *poppler_entries, 1, 0, ""},
    {pictures_libraries, pictures_entries, sizeof pictures_entries / sizeof *pictures_entries, 1, 0, ""},
    {opencc_libraries, opencc_entries, sizeof opencc_entries / sizeof *opencc_entries, 0, 0, ""},
    {curl_libraries, curl_entries, sizeof curl_entries / sizeof *curl_entries, 0, 0, ""},
};
static group glib = {glib_libraries, glib_entries, sizeof glib_entries / sizeof *glib_entries, 0, 0, ""};
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// Opens every library of `g` (kept open for the life of the process) and fills its
// functions, each looked up in the libraries in order; false with `g->error` set if one is
// missing. Nothing is filled unless all are found.
static int open_group(group *g) {
    if (g->state != 0) return g->state == 1;
    if (g->count > 64) {
        snprintf(g->error, sizeof g->error, "too many functions in one group");
        g->state = -1;
        return 0;
    }
    void *handles[4] = {0};
    size_t n = 0;
    for (const char *const *l = g->libraries; *l; l++) {
        void *h = dlopen(*l, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char *why = dlerror();
            snprintf(g->error, sizeof g->error, "cannot open %s (%s)", *l, why ? why : "not found");
            g->state = -1;
            return 0;
        }
        handles[n++] = h;
    }
    void *found[64];
    for (size_t k = 0; k < g->count; k++) {
        found[k] = NULL;
        for (size_t h = 0; h < n && !found[k]; h++) found[k] = dlsym(handles[h], g->entries[k].name);
        if (!found[k]) {
            snprintf(g->error, sizeof g->error, "%s has no function %s", g->libraries[0], g->entries[k].name);
            g->state = -1;
            return 0;
        }
    }
    for (size_t k = 0; k < g->count; k++) __atomic_store_n(g->entries[k].pointer, found[k], __ATOMIC_RELEASE);
    __atomic_store_n(&g->state, 1, __ATOMIC_RELEASE);
    return 1;
}

int docent_lazy_load(docent_lazy_group which) {
    if ((unsigned)which >= sizeof groups / sizeof *groups) return 0;
    group *g = &groups[which];
    if (__atomic_load_n(&g->state, __ATOMIC_ACQUIRE) == 1) return 1;
    pthread_mutex_lock(&lock);
    int ok = 1;
    if (g->withGLib && !open_group(&glib)) {
        if (g->state == 0) {
            snprintf(g->error, sizeof g->error, "%s", glib.error);
            g->state = -1;
        }
        ok = 0;
    }
    if (ok) ok = open_group(g);
    pthread_mutex_unlock(&lock);
    return ok;
}

const char *docent_lazy_error(docent_lazy_group which) {
    if ((unsigned)which >= sizeof groups / sizeof *groups) return "no such group";
    return groups[which].error;
}

int docent_lazy_is_loaded(docent_lazy_group which) {
    if ((unsigned)which >= sizeof groups / sizeof *groups) return 0;
    return __atomic_load_n(&groups[which].state, __ATOMIC_ACQUIRE) == 1;
}

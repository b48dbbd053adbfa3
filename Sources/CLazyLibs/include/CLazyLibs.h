#ifndef CLAZYLIBS_H
#define CLAZYLIBS_H

/// The libraries only some visits need (the map's PDF renderer, the pictures' decoder and
/// renderer, the Chinese script converter, libcurl for a museum or recordings on the web), opened the first time they are needed instead of
/// at every start: with them among the program's libraries, the dynamic loader spent about
/// 20 ms of each start resolving their symbols and those of the libraries they bring (issue 48).
/// The functions the adapters call keep their own names: each is a jump through a pointer that
/// `docent_lazy_load` fills from the library (lazy.c).
typedef enum {
    DOCENT_LAZY_POPPLER = 0,  // libpoppler-glib, with cairo and GLib (MapRaster)
    DOCENT_LAZY_PICTURES = 1, // libchafa and libgdk_pixbuf, with GLib (Pictures)
    DOCENT_LAZY_OPENCC = 2,   // libopencc (ScriptConversion)
    DOCENT_LAZY_CURL = 3,     // libcurl, with its TLS, Kerberos, LDAP… (NetCurl, AudioPlayback, CShims)
} docent_lazy_group;

/// Opens the group's libraries and fills its functions, once (thread-safe). 1 when they are
/// there; 0 when not, with `docent_lazy_error` saying which library could not be opened or
/// which function it lacks.
int docent_lazy_load(docent_lazy_group group);

/// Why the last `docent_lazy_load` of `group` failed (empty if it did not).
const char *docent_lazy_error(docent_lazy_group group);

/// Whether the group's library is already loaded (for the tests: a start opens none of them).
int docent_lazy_is_loaded(docent_lazy_group group);

#endif

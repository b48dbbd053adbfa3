// Snowball's reference C library (libstemmer, Debian's libstemmer-dev): one stemming algorithm
// per language, UTF-8 in and out.
#include <libstemmer.h>

// OpenCC's C interface (Debian's libopencc-dev): open a configuration (s2tw.json, t2s.json),
// convert UTF-8 text with its phrase and character dictionaries, free the result.
#include <opencc/opencc.h>

// GdkPixbuf decodes JPEG, PNG and (with webp-pixbuf-loader) WebP for Pictures.
#include <gdk-pixbuf/gdk-pixbuf.h>

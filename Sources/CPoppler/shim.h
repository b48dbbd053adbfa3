// poppler-glib renders PDF pages onto cairo surfaces (MapRaster uses it for floor plans).
#include <poppler.h>
#include <cairo.h>

// chafa turns pixels into a grid of Unicode symbols with colours (Pictures uses it).
#include <chafa.h>

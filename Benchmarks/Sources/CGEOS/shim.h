// GEOS C API, reentrant (_r) functions only; every call takes a context handle.
#define GEOS_USE_ONLY_R_API 1
#include <geos_c.h>

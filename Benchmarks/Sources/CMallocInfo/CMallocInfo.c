#include "CMallocInfo.h"
#include <stdlib.h>  // defines __GLIBC__ on glibc systems

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

size_t mapsketch_malloc_in_use_bytes(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}
#else
size_t mapsketch_malloc_in_use_bytes(void) { return 0; }
#endif

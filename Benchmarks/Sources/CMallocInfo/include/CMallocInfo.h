// The C library's own count of the bytes the process holds through malloc (glibc: mallinfo2's
// in-use bytes, in the arenas and in blocks mapped on their own); 0 where it is not available.
#include <stddef.h>

size_t mapsketch_malloc_in_use_bytes(void);

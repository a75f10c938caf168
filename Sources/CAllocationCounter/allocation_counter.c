// allocation_counter.c: malloc and its kin, defined in the executable that links this target,
// take the place of the C library's for the whole process (the dynamic linker binds every
// library's calls to the executable's definition first). Each counts one call, then forwards
// to glibc's own implementation (its __libc_ entry points), so nothing else changes. Linked
// only into AllocationProbe, never into a library or a tool.
#include "allocation_counter.h"
#include <errno.h>      // also defines __GLIBC__ on glibc
#include <stddef.h>
#include <stdatomic.h>

#if defined(__linux__) && defined(__GLIBC__)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);

static _Atomic unsigned long long calls;

int allocation_counter_supported(void) { return 1; }
unsigned long long allocation_count(void) { return atomic_load_explicit(&calls, memory_order_relaxed); }

static void counted(void) { atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed); }

void *malloc(size_t size) { counted(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { counted(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { counted(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }
void *valloc(size_t size) { counted(); return __libc_valloc(size); }
int posix_memalign(void **result, size_t alignment, size_t size) {
    counted();
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}
#else
int allocation_counter_supported(void) { return 0; }
unsigned long long allocation_count(void) { return 0; }
#endif

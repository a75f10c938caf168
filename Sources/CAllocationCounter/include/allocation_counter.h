// allocation_counter.h: counts the heap allocations of the process that links it (glibc only).
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

/// Whether this platform's allocator can be counted (1: Linux with glibc; 0 elsewhere).
int allocation_counter_supported(void);

/// How many times malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign or valloc
/// were called in this process so far, on any thread.
unsigned long long allocation_count(void);

#endif

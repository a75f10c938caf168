// cache_hints.h: asks the processor to start loading memory that will be read soon.
#ifndef CITYINDEX_CACHE_HINTS_H
#define CITYINDEX_CACHE_HINTS_H

/// Starts loading the cache line holding `address` for a read, and returns at once.
///
/// A hint only: it never faults, even on an address that is not mapped (or on a page of a
/// mapped file that was truncated underneath), and it changes no result. A search uses it to
/// overlap the cache misses of reads it knows it will make (the keys of a bucket's entries)
/// instead of waiting for each in turn. `static inline`, so Swift inlines it at each call.
static inline void cityindex_prefetch(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 0, 3);
#else
    (void)address;
#endif
}

#endif

// cache_hints.c: the header's functions are static inline; SwiftPM needs one source file.
#include "cache_hints.h"

// zlib's init functions are macros, which do not import into Swift: wrap them.
#include <zlib.h>

/// `inflateInit2` for Swift (`windowBits` -15: a raw DEFLATE stream, no zlib or gzip wrapper).
static inline int cityindex_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

/// `deflateInit2` for Swift: level 9, raw DEFLATE (windowBits -15), default strategy.
static inline int cityindex_deflateInit2_raw(z_streamp stream) {
    return deflateInit2(stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

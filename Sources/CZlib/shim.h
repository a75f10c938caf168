// zlib's init functions are macros, which do not import into Swift: wrap them.
#include <zlib.h>

/// `inflateInit2` for Swift. `windowBits` 15 + 16 accepts gzip streams only.
static inline int cityindex_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

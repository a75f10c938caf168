// liblzma's LZMA_STREAM_INIT and flag constants are macros: expose them as functions.
#include <lzma.h>
#include <string.h>

/// Initializes `stream` for decoding .xz (all concatenated streams), without a memory limit
/// (the caller bounds the decompressed size instead).
static inline lzma_ret cityindex_lzma_stream_decoder(lzma_stream *stream) {
    lzma_stream initial = LZMA_STREAM_INIT;
    *stream = initial;
    return lzma_stream_decoder(stream, UINT64_MAX, LZMA_CONCATENATED);
}

/// Initializes `stream` for encoding .xz at `preset` (0–9) with a CRC-64 check.
static inline lzma_ret cityindex_lzma_easy_encoder(lzma_stream *stream, uint32_t preset) {
    lzma_stream initial = LZMA_STREAM_INIT;
    *stream = initial;
    return lzma_easy_encoder(stream, preset, LZMA_CHECK_CRC64);
}

// A declaration-only copy of the part of Apple's Compression framework interface
// (<compression.h>, as documented by Apple) that CityIndexArtifacts uses. It exists so that
// Scripts/typecheck-darwin.sh can type-check the Apple code paths on Linux; nothing links
// against it and it is never part of a build.
#include <stddef.h>
#include <stdint.h>

#pragma clang assume_nonnull begin

typedef enum {
    COMPRESSION_LZ4 = 0x100,
    COMPRESSION_ZLIB = 0x205,
    COMPRESSION_LZMA = 0x306,
    COMPRESSION_LZ4_RAW = 0x101,
    COMPRESSION_LZFSE = 0x801,
} compression_algorithm;

typedef struct {
    uint8_t *dst_ptr;
    size_t dst_size;
    const uint8_t *src_ptr;
    size_t src_size;
    void *_Nullable state;
} compression_stream;

typedef enum {
    COMPRESSION_STREAM_ENCODE = 0,
    COMPRESSION_STREAM_DECODE = 1,
} compression_stream_operation;

typedef enum {
    COMPRESSION_STREAM_FINALIZE = 0x0001,
} compression_stream_flags;

typedef enum {
    COMPRESSION_STATUS_OK = 0,
    COMPRESSION_STATUS_ERROR = -1,
    COMPRESSION_STATUS_END = 1,
} compression_status;

extern compression_status compression_stream_init(compression_stream *stream,
    compression_stream_operation operation, compression_algorithm algorithm);
extern compression_status compression_stream_process(compression_stream *stream, int flags);
extern compression_status compression_stream_destroy(compression_stream *stream);

#pragma clang assume_nonnull end

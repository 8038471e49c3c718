// Thin C wrappers over libjpeg and libpng for IDKitImage.
//
// Why C: libjpeg reports errors by calling `error_exit`, whose default ends the process; the
// only safe way back is setjmp/longjmp, which Swift cannot do. These functions install an error
// manager that longjmps back here and turn every failure into a message. The pixel limit is
// checked from the header, before any pixel memory is allocated (decompression bombs).
#ifndef CIMAGE_CODECS_H
#define CIMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes shared by both decoders.
enum {
    IDK_IMAGE_OK = 0,
    IDK_IMAGE_CORRUPT = 1,      ///< the codec rejected the data (message says why)
    IDK_IMAGE_TOO_LARGE = 2,    ///< width × height exceeds maxPixels (width/height are set)
    IDK_IMAGE_NO_MEMORY = 3,
};

/// Decodes a JPEG to 8-bit gray. On success `*pixels` is malloc'd (width × height bytes, rows
/// packed) and must be freed with free(). `*exifOrientation` is 1–8 from the APP1 Exif block,
/// or 0 when there is none.
int32_t idk_jpeg_decode_gray(const uint8_t *data, size_t length, uint64_t maxPixels,
                             uint8_t **pixels, int32_t *width, int32_t *height,
                             int32_t *exifOrientation, char *message, size_t messageCapacity);

/// Decodes a PNG to 8-bit gray through libpng's simplified API (all bit depths, palettes,
/// alpha composited on white). Same ownership rules as the JPEG decoder.
int32_t idk_png_decode_gray(const uint8_t *data, size_t length, uint64_t maxPixels,
                            uint8_t **pixels, int32_t *width, int32_t *height,
                            char *message, size_t messageCapacity);

/// Encodes 8-bit gray or RGB (channels 1 or 3) as PNG into a malloc'd buffer. Returns 0 on success.
int32_t idk_png_encode(const uint8_t *pixels, int32_t width, int32_t height, int32_t channels,
                       uint8_t **out, size_t *outLength, char *message, size_t messageCapacity);

#ifdef __cplusplus
}
#endif
#endif

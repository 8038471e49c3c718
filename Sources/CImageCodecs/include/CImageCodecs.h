// Thin C wrappers over the image libraries for IDKitImage: libjpeg and libpng (CImageCodecs.c);
// libtiff, libwebp, giflib, libheif and a small BMP reader (CImageFormats.c).
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

/// Every decoder writes `channels` bytes a pixel: 1 for 8-bit gray (ITU-R BT.601 luma from color),
/// 3 for RGB; alpha is composited on white.

/// Status codes shared by both decoders.
enum {
    IDK_IMAGE_OK = 0,
    IDK_IMAGE_CORRUPT = 1,      ///< the codec rejected the data (message says why)
    IDK_IMAGE_TOO_LARGE = 2,    ///< width × height exceeds maxPixels (width/height are set)
    IDK_IMAGE_NO_MEMORY = 3,
};

/// Decodes a JPEG to 8-bit gray or RGB or RGB. On success `*pixels` is malloc'd (width × height × channels
/// bytes, rows packed) and must be freed with free(). `*exifOrientation` is 1–8 from the APP1 Exif block,
/// or 0 when there is none.
int32_t idk_jpeg_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                             uint8_t **pixels, int32_t *width, int32_t *height,
                             int32_t *exifOrientation, char *message, size_t messageCapacity);

/// Decodes a PNG to 8-bit gray or RGB through libpng's simplified API (all bit depths, palettes,
/// alpha composited on white). Same ownership rules as the JPEG decoder.
int32_t idk_png_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                            uint8_t **pixels, int32_t *width, int32_t *height,
                            char *message, size_t messageCapacity);

/// At most this many pages of a TIFF file are read.
#define IDK_TIFF_MAX_PAGES 64

/// How many pages (image directories) a TIFF file holds, up to IDK_TIFF_MAX_PAGES.
int32_t idk_tiff_page_count(const uint8_t *data, size_t length, int32_t *pages, char *message, size_t messageCapacity);

/// Decodes page `page` (0 first) of a TIFF file (libtiff's RGBA interface: every photometric
/// interpretation and compression libtiff reads) to 8-bit gray or RGB, rows as stored; `*orientation`
/// is the TIFF orientation tag (1–8, the values EXIF uses), for the caller to apply.
int32_t idk_tiff_decode(const uint8_t *data, size_t length, int32_t page, uint64_t maxPixels, int32_t channels,
                             uint8_t **pixels, int32_t *width, int32_t *height, int32_t *orientation,
                             char *message, size_t messageCapacity);

/// Decodes a still WebP image (lossy or lossless, alpha composited on white) to 8-bit gray or RGB.
int32_t idk_webp_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                             uint8_t **pixels, int32_t *width, int32_t *height,
                             char *message, size_t messageCapacity);

/// The EXIF orientation (1–8) a WebP file's EXIF chunk records (through libwebpdemux), or 0.
int32_t idk_webp_exif_orientation(const uint8_t *data, size_t length);

/// The Orientation tag of Exif data (a JPEG APP1 payload or a WebP EXIF chunk), or 0.
int32_t idk_exif_orientation(const uint8_t *data, size_t length);

/// Decodes the first frame of a GIF on its logical screen (white elsewhere) to 8-bit gray or RGB.
/// JPEG 2000 (a JP2 file or a J2K codestream) through OpenJPEG: the face images of ePassports.
int32_t idk_jp2_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                       uint8_t **pixels, int32_t *width, int32_t *height,
                       char *message, size_t messageCapacity);

int32_t idk_gif_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                            uint8_t **pixels, int32_t *width, int32_t *height,
                            char *message, size_t messageCapacity);

/// Decodes the primary image of a HEIC/HEIF file (rotation and mirroring applied) to 8-bit gray or RGB.
int32_t idk_heif_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                             uint8_t **pixels, int32_t *width, int32_t *height,
                             char *message, size_t messageCapacity);

/// Decodes an uncompressed BMP (1–32 bits per pixel, BI_RGB or BI_BITFIELDS) to 8-bit gray or RGB.
int32_t idk_bmp_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                            uint8_t **pixels, int32_t *width, int32_t *height,
                            char *message, size_t messageCapacity);

/// Encodes 8-bit gray or RGB (channels 1 or 3) as PNG into a malloc'd buffer. Returns 0 on success.
int32_t idk_png_encode(const uint8_t *pixels, int32_t width, int32_t height, int32_t channels,
                       uint8_t **out, size_t *outLength, char *message, size_t messageCapacity);

#ifdef __cplusplus
}
#endif
#endif

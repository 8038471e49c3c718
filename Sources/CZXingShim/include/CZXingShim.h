// A C interface over zxing-cpp 1.4 (libzxing-dev), which is C++ only.
//
// Why a shim: Swift's C++ interoperability mode would spread to every package that depends on
// IDKit, and a C++ exception crossing into Swift is undefined behaviour. So the C++ stays in
// CZXingShim.cpp, every entry point catches every exception, and Swift sees plain C types.
#ifndef CZXING_SHIM_H
#define CZXING_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One barcode found by zxing-cpp. `bytes` is malloc'd by the shim; free the whole array with
/// `idk_zxing_free_results`.
typedef struct {
    /// zxing-cpp's BarcodeFormat bit (PDF417 = 1 << 12, QRCode = 1 << 13, ...).
    int32_t format;
    /// The decoded content as raw bytes (ECI-free), not a lossy string.
    uint8_t *bytes;
    int32_t length;
    /// Corners in image pixels: top-left, top-right, bottom-right, bottom-left (x, y pairs).
    int32_t quad[8];
    int32_t isMirrored;
    /// zxing's orientation estimate in degrees.
    int32_t orientation;
} idk_zxing_result;

/// Decodes every barcode of the formats in `formats` (a BarcodeFormat bit set; 0 = all) in an
/// 8-bit gray image. `tryHarder`, `tryRotate` and `isPure` map to zxing's DecodeHints;
/// `binarizer`: 0 local average (zxing's default), 1 global histogram, 2 fixed threshold (127),
/// 3 bool cast.
/// Returns the number of results written to `*results` (0 = none), or -1 with a message in
/// `error` (NUL-terminated, at most `errorCapacity` bytes) when zxing-cpp threw.
int32_t idk_zxing_read(const uint8_t *gray, int32_t width, int32_t height, int32_t rowStride,
                       int32_t formats, int32_t tryHarder, int32_t tryRotate, int32_t isPure,
                       int32_t binarizer, idk_zxing_result **results, char *error, size_t errorCapacity);

/// Frees an array returned by `idk_zxing_read` (NULL is fine).
void idk_zxing_free_results(idk_zxing_result *results, int32_t count);

/// zxing-cpp's name for a format bit ("PDF417", "QRCode", ...); a static string.
const char *idk_zxing_format_name(int32_t format);

#ifdef __cplusplus
}
#endif
#endif

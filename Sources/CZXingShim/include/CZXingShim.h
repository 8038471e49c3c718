// A C interface over zxing-cpp 1.4 (libzxing-dev), which is C++ only.
//
// Why a shim: Swift's C++ interoperability mode would spread to every package that depends on
// IDKit, and a C++ exception crossing into Swift is undefined behavior. So the C++ stays in
// CZXingShim.cpp, every entry point catches every exception, and Swift sees plain C types.
#ifndef CZXING_SHIM_H
#define CZXING_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// zxing-cpp 1.4's BarcodeFormat bits (BarcodeFormat.h), named once here; CZXingShim.cpp checks
/// each against zxing-cpp's own enum at compile time.
enum {
    IDK_ZXING_AZTEC = 1 << 0,
    IDK_ZXING_CODABAR = 1 << 1,
    IDK_ZXING_CODE39 = 1 << 2,
    IDK_ZXING_CODE93 = 1 << 3,
    IDK_ZXING_CODE128 = 1 << 4,
    IDK_ZXING_DATABAR = 1 << 5,
    IDK_ZXING_DATABAR_EXPANDED = 1 << 6,
    IDK_ZXING_DATAMATRIX = 1 << 7,
    IDK_ZXING_EAN8 = 1 << 8,
    IDK_ZXING_EAN13 = 1 << 9,
    IDK_ZXING_ITF = 1 << 10,
    IDK_ZXING_MAXICODE = 1 << 11,
    IDK_ZXING_PDF417 = 1 << 12,
    IDK_ZXING_QRCODE = 1 << 13,
    IDK_ZXING_UPCA = 1 << 14,
    IDK_ZXING_UPCE = 1 << 15,
    IDK_ZXING_MICROQRCODE = 1 << 16,
};

/// The `binarizer` argument of `idk_zxing_read` (zxing-cpp's DecodeHints::Binarizer).
enum {
    IDK_ZXING_BINARIZER_LOCAL_AVERAGE = 0,
    IDK_ZXING_BINARIZER_GLOBAL_HISTOGRAM = 1,
    /// Threshold 127.
    IDK_ZXING_BINARIZER_FIXED_THRESHOLD = 2,
    IDK_ZXING_BINARIZER_BOOL_CAST = 3,
};

/// One barcode found by zxing-cpp. `bytes` is malloc'd by the shim; free the whole array with
/// `idk_zxing_free_results`.
typedef struct {
    /// One of the IDK_ZXING_* format bits.
    int32_t format;
    /// The decoded content as raw bytes (ECI-free), not a lossy string.
    uint8_t *bytes;
    int32_t length;
    /// Corners in image pixels: top-left, top-right, bottom-right, bottom-left (x, y pairs).
    int32_t quad[8];
    int32_t isMirrored;
    /// zxing's orientation estimate in degrees.
    int32_t orientation;
    /// Structured append (Macro PDF417, ISO/IEC 15438 Annex H): the 0-based segment index, or -1
    /// when the symbol is not part of a set.
    int32_t sequenceIndex;
    /// The number of segments when the symbol says it (or it is the last one); 0 when unknown;
    /// -1 when not part of a set.
    int32_t sequenceSize;
    /// The set's file id (NUL-terminated, cut at 63 bytes); empty when not part of a set.
    char sequenceId[64];
} idk_zxing_result;

/// Decodes every barcode of the formats in `formats` (IDK_ZXING_* bits; 0 = all) in an 8-bit gray
/// image. `tryHarder`, `tryRotate` and `isPure` map to zxing's DecodeHints; `binarizer` is one of
/// IDK_ZXING_BINARIZER_* (local average is zxing's default).
/// Returns the number of results written to `*results` (0 = none), or -1 with a message in
/// `error` (NUL-terminated, at most `errorCapacity` bytes) when zxing-cpp threw.
int32_t idk_zxing_read(const uint8_t *gray, int32_t width, int32_t height, int32_t rowStride,
                       int32_t formats, int32_t tryHarder, int32_t tryRotate, int32_t isPure,
                       int32_t binarizer, idk_zxing_result **results, char *error, size_t errorCapacity);

/// Frees an array returned by `idk_zxing_read` (NULL is fine).
void idk_zxing_free_results(idk_zxing_result *results, int32_t count);

#ifdef __cplusplus
}
#endif
#endif

// A C interface over Tesseract 5 (libtesseract-dev).
//
// Why a shim: Tesseract is C++, and its own C API (capi.h) lets a C++ exception through, which is
// undefined behavior once it reaches Swift. So the C++ stays in CTesseractShim.cpp, every entry
// point catches every exception, and Swift sees plain C types.
#ifndef CTESSERACT_SHIM_H
#define CTESSERACT_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One engine: Tesseract's TessBaseAPI with its language data loaded. Not for two threads at
/// once; the Swift side serializes its calls.
typedef struct idk_tess idk_tess;

/// A recognized text line or word: UTF-8 text (malloc'd by the shim), Tesseract's confidence
/// (0–100), its box in the image's pixels, and for a word the index of its line.
typedef struct {
    char *text;
    float confidence;
    int32_t left, top, right, bottom;
    int32_t line;
} idk_tess_text;

/// Loads `languages` ("eng+deu+fra", Tesseract's form) from `datapath` (the folder holding the
/// .traineddata files; NULL: Tesseract's default). NULL on failure, with the reason in `error`.
idk_tess *idk_tess_open(const char *datapath, const char *languages, char *error, size_t errorCapacity);

/// Recognizes an 8-bit gray image as a block of text lines (`pageSegmentation`: Tesseract's
/// PageSegMode; 6 is one uniform block, 3 automatic), at `ppi` pixels per inch, binarized by
/// `thresholding` (Tesseract's thresholding_method: 0 Otsu, 1 tiled Otsu, 2 Sauvola). On success returns
/// 0 with the lines and words (free them with `idk_tess_free_texts`); on failure -1 with the reason
/// in `error`.
int32_t idk_tess_recognize(idk_tess *engine, const uint8_t *gray, int32_t width, int32_t height, int32_t rowStride,
                           int32_t ppi, int32_t pageSegmentation, int32_t thresholding,
                           idk_tess_text **lines, int32_t *lineCount, idk_tess_text **words, int32_t *wordCount,
                           char *error, size_t errorCapacity);

void idk_tess_free_texts(idk_tess_text *texts, int32_t count);

void idk_tess_close(idk_tess *engine);

#ifdef __cplusplus
}
#endif

#endif

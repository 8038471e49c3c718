// The generated data IDKit reads with, compiled into the library from the files beside data.c
// (C23 #embed): each lives once in the repository, and idkit, libidkit.so and the Python package
// carry it wherever they are installed.
#ifndef CIDKIT_DATA_H
#define CIDKIT_DATA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The MRZ character recognizer (ONNX; scripts/mrz-ocr/train.py, `make mrz-model`): its bytes, and
/// their count in `*length`.
const unsigned char *idk_data_glyph_model(size_t *length);

/// The recognizer's second opinion for hard captures (`make mrz-model-degraded`).
const unsigned char *idk_data_glyph_model_degraded(size_t *length);

/// The OCR-B reference cells (scripts/make_ocrb_templates.py, `make ocrb-templates`): 2 variants
/// (sharp, blurred) × 37 symbols (A–Z, 0–9, <) × 26 rows × 20 columns of ink 0–255.
const unsigned char *idk_data_ocrb_templates(size_t *length);

#ifdef __cplusplus
}
#endif
#endif

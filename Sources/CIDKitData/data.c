// The generated data files of this folder, compiled in (C23 #embed; see include/CIDKitData.h).
#include "CIDKitData.h"

// #embed is C23; the toolchain's clang has it in every language mode.
#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char glyph_model[] = {
#embed "mrz-glyphs.onnx"
};

static const unsigned char glyph_model_degraded[] = {
#embed "mrz-glyphs-degraded.onnx"
};

static const unsigned char ocrb_templates[] = {
#embed "ocrb-templates.gray"
};

const unsigned char *idk_data_glyph_model(size_t *length) {
    *length = sizeof glyph_model;
    return glyph_model;
}

const unsigned char *idk_data_glyph_model_degraded(size_t *length) {
    *length = sizeof glyph_model_degraded;
    return glyph_model_degraded;
}

const unsigned char *idk_data_ocrb_templates(size_t *length) {
    *length = sizeof ocrb_templates;
    return ocrb_templates;
}

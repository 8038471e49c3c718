// See include/CZXingShim.h for why this exists. Every function catches every exception.
#include "CZXingShim.h"

#include <ReadBarcode.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

// The header's format bits are zxing-cpp's own.
#define IDK_SAME_BIT(ours, theirs) static_assert((ours) == static_cast<int>(ZXing::BarcodeFormat::theirs), #theirs)
IDK_SAME_BIT(IDK_ZXING_AZTEC, Aztec);
IDK_SAME_BIT(IDK_ZXING_CODABAR, Codabar);
IDK_SAME_BIT(IDK_ZXING_CODE39, Code39);
IDK_SAME_BIT(IDK_ZXING_CODE93, Code93);
IDK_SAME_BIT(IDK_ZXING_CODE128, Code128);
IDK_SAME_BIT(IDK_ZXING_DATABAR, DataBar);
IDK_SAME_BIT(IDK_ZXING_DATABAR_EXPANDED, DataBarExpanded);
IDK_SAME_BIT(IDK_ZXING_DATAMATRIX, DataMatrix);
IDK_SAME_BIT(IDK_ZXING_EAN8, EAN8);
IDK_SAME_BIT(IDK_ZXING_EAN13, EAN13);
IDK_SAME_BIT(IDK_ZXING_ITF, ITF);
IDK_SAME_BIT(IDK_ZXING_MAXICODE, MaxiCode);
IDK_SAME_BIT(IDK_ZXING_PDF417, PDF417);
IDK_SAME_BIT(IDK_ZXING_QRCODE, QRCode);
IDK_SAME_BIT(IDK_ZXING_UPCA, UPCA);
IDK_SAME_BIT(IDK_ZXING_UPCE, UPCE);
IDK_SAME_BIT(IDK_ZXING_MICROQRCODE, MicroQRCode);
#undef IDK_SAME_BIT

using namespace ZXing;

static void copyMessage(const char *message, char *error, size_t capacity) {
    if (error == nullptr || capacity == 0) return;
    std::strncpy(error, message, capacity - 1);
    error[capacity - 1] = '\0';
}

extern "C" int32_t idk_zxing_read(const uint8_t *gray, int32_t width, int32_t height, int32_t rowStride,
                                  int32_t formats, int32_t tryHarder, int32_t tryRotate, int32_t isPure,
                                  int32_t binarizer, idk_zxing_result **results, char *error, size_t errorCapacity) {
    *results = nullptr;
    try {
        ImageView view(gray, width, height, ImageFormat::Lum, rowStride);
        DecodeHints hints;
        hints.setTryHarder(tryHarder != 0).setTryRotate(tryRotate != 0).setIsPure(isPure != 0);
        switch (binarizer) {
        case IDK_ZXING_BINARIZER_GLOBAL_HISTOGRAM: hints.setBinarizer(Binarizer::GlobalHistogram); break;
        case IDK_ZXING_BINARIZER_FIXED_THRESHOLD: hints.setBinarizer(Binarizer::FixedThreshold); break;
        case IDK_ZXING_BINARIZER_BOOL_CAST: hints.setBinarizer(Binarizer::BoolCast); break;
        default: hints.setBinarizer(Binarizer::LocalAverage); break;
        }
        if (formats != 0) hints.setFormats(BarcodeFormats(static_cast<BarcodeFormat>(formats)));
        Results found = ReadBarcodes(view, hints);
        int32_t count = 0;
        for (const Result &r : found) if (r.isValid()) count++;
        if (count == 0) return 0;
        auto *out = static_cast<idk_zxing_result *>(std::calloc(count, sizeof(idk_zxing_result)));
        if (out == nullptr) throw std::bad_alloc();
        int32_t i = 0;
        for (const Result &r : found) {
            if (!r.isValid()) continue;
            idk_zxing_result &o = out[i++];
            o.format = static_cast<int32_t>(r.format());
            const ByteArray &bytes = r.bytes();
            o.length = static_cast<int32_t>(bytes.size());
            o.bytes = static_cast<uint8_t *>(std::malloc(bytes.size() ? bytes.size() : 1));
            if (o.bytes == nullptr) { idk_zxing_free_results(out, i); throw std::bad_alloc(); }
            if (!bytes.empty()) std::memcpy(o.bytes, bytes.data(), bytes.size());
            const Position &p = r.position();
            for (int k = 0; k < 4; k++) { o.quad[2 * k] = p[k].x; o.quad[2 * k + 1] = p[k].y; }
            o.isMirrored = r.isMirrored() ? 1 : 0;
            o.orientation = r.orientation();
            o.sequenceIndex = r.sequenceIndex();
            o.sequenceSize = r.sequenceSize();
            const std::string id = r.sequenceId();
            std::strncpy(o.sequenceId, id.c_str(), sizeof o.sequenceId - 1);
            o.sequenceId[sizeof o.sequenceId - 1] = '\0';
        }
        *results = out;
        return count;
    } catch (const std::exception &e) {
        copyMessage(e.what(), error, errorCapacity);
    } catch (...) {
        copyMessage("zxing-cpp threw an unknown exception", error, errorCapacity);
    }
    return -1;
}

extern "C" void idk_zxing_free_results(idk_zxing_result *results, int32_t count) {
    if (results == nullptr) return;
    for (int32_t i = 0; i < count; i++) std::free(results[i].bytes);
    std::free(results);
}

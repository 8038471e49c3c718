// See include/CTesseractShim.h for why this exists. Every function catches every exception.
#include "CTesseractShim.h"

#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>
#include <leptonica/allheaders.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <vector>

struct idk_tess {
    tesseract::TessBaseAPI api;
};

static void copyMessage(const char *message, char *error, size_t capacity) {
    if (error == nullptr || capacity == 0) return;
    std::strncpy(error, message, capacity - 1);
    error[capacity - 1] = '\0';
}

extern "C" idk_tess *idk_tess_open(const char *datapath, const char *languages, char *error, size_t errorCapacity) {
    try {
        auto engine = std::make_unique<idk_tess>();
        // Tesseract writes its diagnostics to stderr unless told otherwise; a library must not.
        engine->api.SetVariable("debug_file", "/dev/null");
        // Nor Leptonica, its image library, which reports a box clipped off a page (`Error in
        // boxClipToRectangle`, on the Icelandic specimen's page) to stderr itself: a process-wide
        // setting, the same value from every engine.
        setMsgSeverity(L_SEVERITY_NONE);
        if (engine->api.Init(datapath, languages, tesseract::OEM_LSTM_ONLY) != 0) {
            copyMessage("Tesseract cannot load the language data", error, errorCapacity);
            return nullptr;
        }
        engine->api.SetVariable("debug_file", "/dev/null");
        // No second reading of each doubtful line as white on black: documents print dark on
        // light, and the second reading costs as much as the first on a patterned page.
        engine->api.SetVariable("tessedit_do_invert", "0");
        return engine.release();
    } catch (const std::exception &e) {
        copyMessage(e.what(), error, errorCapacity);
    } catch (...) {
        copyMessage("Tesseract failed while loading", error, errorCapacity);
    }
    return nullptr;
}

// One level of the result (lines or words) as C structs; `lineOf` numbers the lines for words.
static idk_tess_text *collect(tesseract::ResultIterator *it, tesseract::PageIteratorLevel level, int32_t *count) {
    std::vector<idk_tess_text> out;
    int32_t line = -1;
    try {
        if (it != nullptr) {
            it->Begin();
            do {
                if (it->IsAtBeginningOf(tesseract::RIL_TEXTLINE)) line++;
                if (level == tesseract::RIL_TEXTLINE && !it->IsAtBeginningOf(tesseract::RIL_TEXTLINE)) continue;
                std::unique_ptr<char[]> text(it->GetUTF8Text(level));
                if (!text) continue;
                idk_tess_text t{};
                size_t length = std::strlen(text.get());
                t.text = static_cast<char *>(std::malloc(length + 1));
                if (t.text == nullptr) throw std::bad_alloc();
                std::memcpy(t.text, text.get(), length + 1);
                t.confidence = it->Confidence(level);
                int l = 0, tp = 0, r = 0, b = 0;
                it->BoundingBox(level, &l, &tp, &r, &b);
                t.left = l; t.top = tp; t.right = r; t.bottom = b;
                t.line = line;
                out.push_back(t);
            } while (it->Next(tesseract::RIL_WORD));
        }
    } catch (...) {
        for (auto &t : out) std::free(t.text);
        throw;
    }
    *count = static_cast<int32_t>(out.size());
    if (out.empty()) return nullptr;
    auto *array = static_cast<idk_tess_text *>(std::calloc(out.size(), sizeof(idk_tess_text)));
    if (array == nullptr) {
        for (auto &t : out) std::free(t.text);
        throw std::bad_alloc();
    }
    std::memcpy(array, out.data(), out.size() * sizeof(idk_tess_text));
    return array;
}

extern "C" int32_t idk_tess_recognize(idk_tess *engine, const uint8_t *gray, int32_t width, int32_t height, int32_t rowStride,
                                      int32_t ppi, int32_t pageSegmentation, int32_t thresholding,
                                      idk_tess_text **lines, int32_t *lineCount, idk_tess_text **words, int32_t *wordCount,
                                      char *error, size_t errorCapacity) {
    *lines = nullptr; *words = nullptr; *lineCount = 0; *wordCount = 0;
    try {
        engine->api.SetPageSegMode(static_cast<tesseract::PageSegMode>(pageSegmentation));
        engine->api.SetVariable("thresholding_method", thresholding == 2 ? "2" : thresholding == 1 ? "1" : "0");
        engine->api.SetImage(gray, width, height, 1, rowStride);
        engine->api.SetSourceResolution(ppi);
        if (engine->api.Recognize(nullptr) != 0) {
            engine->api.Clear();
            copyMessage("Tesseract could not recognize the image", error, errorCapacity);
            return -1;
        }
        std::unique_ptr<tesseract::ResultIterator> it(engine->api.GetIterator());
        *lines = collect(it.get(), tesseract::RIL_TEXTLINE, lineCount);
        try {
            *words = collect(it.get(), tesseract::RIL_WORD, wordCount);
        } catch (...) {
            idk_tess_free_texts(*lines, *lineCount);
            *lines = nullptr; *lineCount = 0;
            throw;
        }
        engine->api.Clear();
        return 0;
    } catch (const std::exception &e) {
        copyMessage(e.what(), error, errorCapacity);
    } catch (...) {
        copyMessage("Tesseract failed while recognizing", error, errorCapacity);
    }
    try { engine->api.Clear(); } catch (...) {}
    return -1;
}

extern "C" void idk_tess_free_texts(idk_tess_text *texts, int32_t count) {
    if (texts == nullptr) return;
    for (int32_t i = 0; i < count; i++) std::free(texts[i].text);
    std::free(texts);
}

extern "C" void idk_tess_close(idk_tess *engine) {
    try { delete engine; } catch (...) {}
}

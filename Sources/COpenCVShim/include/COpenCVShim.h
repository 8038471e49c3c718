// A C interface over OpenCV's dnn module (Debian's libopencv-dnn-dev, 4.6), which is C++ only.
//
// Why a shim: as for zxing-cpp (CZXingShim), Swift's C++ interoperability mode would spread to every
// package that depends on IDKit, and a C++ exception crossing into Swift is undefined behaviour. So
// the C++ stays in COpenCVShim.cpp, every entry point catches every exception, and Swift sees plain C.
//
// IDKit runs one model here: the MRZ character recognizer (scripts/mrz-ocr/train.py), an ONNX
// network read by cv::dnn::readNetFromONNX.
#ifndef COPENCV_SHIM_H
#define COPENCV_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Checks that OpenCV can read the ONNX model in `model` (`length` bytes): 0 on success, -1 with a
/// NUL-terminated message in `error` (at most `errorCapacity` bytes) otherwise.
int32_t idk_dnn_check_onnx(const uint8_t *model, size_t length, char *error, size_t errorCapacity);

/// Runs the ONNX model in `model` on a batch of `count` single-channel `height` x `width` float
/// images (NCHW, row by row) and writes `count` x `outputsPerItem` floats to `output`.
///
/// Thread-safe: a cv::dnn::Net keeps per-call buffers and is not, so each thread reads the model
/// once into a net of its own (kept per thread, keyed by the model's address, which must stay valid
/// and unchanged for the life of the process). OpenCV's own worker threads are turned off
/// (cv::setNumThreads(0)): IDKit's callers parallelise across images.
/// Returns 0, or -1 with a message in `error` when OpenCV threw or the output has another shape.
int32_t idk_dnn_forward(const uint8_t *model, size_t length, const float *input, int32_t count,
                        int32_t height, int32_t width, float *output, int32_t outputsPerItem,
                        char *error, size_t errorCapacity);

#ifdef __cplusplus
}
#endif
#endif

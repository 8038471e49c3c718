// See include/COpenCVShim.h: OpenCV's dnn behind a C interface that catches every exception.
#include "COpenCVShim.h"
#include "Guarded.hpp"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include <cstring>
#include <exception>
#include <mutex>
#include <unordered_map>

void idk::single_threaded() {
    static std::once_flag once;
    std::call_once(once, [] { cv::setNumThreads(0); });
}

namespace {

using idk::guarded;
using idk::write_error;

cv::dnn::Net read(const uint8_t *model, size_t length) {
    cv::dnn::Net net = cv::dnn::readNetFromONNX(reinterpret_cast<const char *>(model), length);
    net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
    return net;
}

/// The calling thread's net for `model` (read once per thread).
cv::dnn::Net &net_for(const uint8_t *model, size_t length) {
    thread_local std::unordered_map<const uint8_t *, cv::dnn::Net> nets;
    auto found = nets.find(model);
    if (found != nets.end()) return found->second;
    return nets.emplace(model, read(model, length)).first->second;
}

}  // namespace

extern "C" int32_t idk_dnn_check_onnx(const uint8_t *model, size_t length, char *error, size_t errorCapacity) {
    return guarded(error, errorCapacity, [&]() -> int32_t {
        if (model == nullptr || length == 0) {
            write_error(error, errorCapacity, "empty model");
            return -1;
        }
        cv::dnn::Net net = read(model, length);
        if (net.empty()) {
            write_error(error, errorCapacity, "OpenCV read the model but it has no layers");
            return -1;
        }
        return 0;
    });
}

extern "C" int32_t idk_dnn_forward(const uint8_t *model, size_t length, const float *input, int32_t count,
                                   int32_t height, int32_t width, float *output, int32_t outputsPerItem,
                                   char *error, size_t errorCapacity) {
    return guarded(error, errorCapacity, [&]() -> int32_t {
        if (model == nullptr || input == nullptr || output == nullptr || count <= 0 || height <= 0 || width <= 0) {
            write_error(error, errorCapacity, "bad arguments");
            return -1;
        }
        cv::dnn::Net &net = net_for(model, length);
        int shape[4] = {count, 1, height, width};
        // The blob wraps the caller's floats: OpenCV does not write to its input.
        cv::Mat blob(4, shape, CV_32F, const_cast<float *>(input));
        net.setInput(blob);
        cv::Mat out = net.forward();
        if (out.total() != static_cast<size_t>(count) * static_cast<size_t>(outputsPerItem) || out.type() != CV_32F) {
            write_error(error, errorCapacity, "the model's output does not have the expected shape");
            return -1;
        }
        cv::Mat contiguous = out.isContinuous() ? out : out.clone();
        std::memcpy(output, contiguous.ptr<float>(), sizeof(float) * contiguous.total());
        return 0;
    });
}

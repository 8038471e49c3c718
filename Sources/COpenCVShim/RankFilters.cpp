// The 3 x 3 minimum and maximum of a gray image (OpenCV's erode and dilate), for the MRZ band
// search's thickened and thinned looks at the ink, a gray closing for the paper's lighting, and
// the ink's depth below the paper (the black-hat transform) for its look at starved print.
#include "COpenCVShim.h"
#include "Guarded.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

extern "C" int32_t idk_rank3x3(const uint8_t *pixels, int32_t width, int32_t height, int32_t maximum, uint8_t *out) {
    char ignored[8];
    return idk::guarded(ignored, sizeof ignored, [&]() -> int32_t {
        if (pixels == nullptr || out == nullptr || width <= 0 || height <= 0) return -1;
        const cv::Mat source(height, width, CV_8UC1, const_cast<uint8_t *>(pixels));
        cv::Mat target(height, width, CV_8UC1, out);
        const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
        // Edges clamped: the pixels outside repeat the border ones.
        if (maximum) {
            cv::dilate(source, target, kernel, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
        } else {
            cv::erode(source, target, kernel, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
        }
        return target.data == out ? 0 : -1;
    });
}

extern "C" int32_t idk_close_gray(const uint8_t *pixels, int32_t width, int32_t height, int32_t kernelWidth,
                                  int32_t kernelHeight, uint8_t *out) {
    char ignored[8];
    return idk::guarded(ignored, sizeof ignored, [&]() -> int32_t {
        if (pixels == nullptr || out == nullptr || width <= 0 || height <= 0 || kernelWidth <= 0 || kernelHeight <= 0) return -1;
        const cv::Mat source(height, width, CV_8UC1, const_cast<uint8_t *>(pixels));
        cv::Mat target(height, width, CV_8UC1, out);
        const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(kernelWidth, kernelHeight));
        cv::morphologyEx(source, target, cv::MORPH_CLOSE, kernel, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
        return target.data == out ? 0 : -1;
    });
}

extern "C" int32_t idk_ink_depth(const uint8_t *pixels, int32_t width, int32_t height, int32_t kernel, int32_t gain, uint8_t *out) {
    char ignored[8];
    return idk::guarded(ignored, sizeof ignored, [&]() -> int32_t {
        if (pixels == nullptr || out == nullptr || width <= 0 || height <= 0 || kernel <= 0 || gain <= 0) return -1;
        const cv::Mat source(height, width, CV_8UC1, const_cast<uint8_t *>(pixels));
        cv::Mat target(height, width, CV_8UC1, out);
        cv::Mat depth;
        const cv::Mat square = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(kernel, kernel));
        cv::morphologyEx(source, depth, cv::MORPH_BLACKHAT, square, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
        // 255 - gain * depth, saturated at 0: convertTo computes alpha * x + beta and saturates.
        depth.convertTo(target, CV_8U, -static_cast<double>(gain), 255.0);
        return target.data == out ? 0 : -1;
    });
}

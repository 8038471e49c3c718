// The ink components the MRZ band locator chains into lines: a local-mean binarisation and
// OpenCV's connected-component labelling (see idk_ink_components in COpenCVShim.h).
#include "COpenCVShim.h"
#include "Guarded.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>

extern "C" int32_t idk_ink_components(const uint8_t *gray, int32_t width, int32_t height, int32_t radius, double contrast,
                                      int32_t minimumDifference, int32_t maximum, int64_t **out, char *error, size_t errorCapacity) {
    *out = nullptr;
    return idk::guarded(error, errorCapacity, [&]() -> int32_t {
        const int w = width, h = height, r = radius;
        if (w <= 2 * r + 1 || h <= 2 * r + 1) return 0;
        const cv::Mat image(h, w, CV_8UC1, const_cast<uint8_t *>(gray));
        // Sums in doubles: exact to 2^53, far beyond 255 x the largest image IDKit reads.
        cv::Mat sums;
        cv::integral(image, sums, CV_64F);
        cv::Mat mask(h, w, CV_8UC1);
        const int64_t factor = static_cast<int64_t>((1 - contrast) * 1024);
        const int64_t least = minimumDifference;
        for (int y = 0; y < h; ++y) {
            const int y0 = std::max(0, y - r), y1 = std::min(h - 1, y + r);
            const double *top = sums.ptr<double>(y0), *bottom = sums.ptr<double>(y1 + 1);
            const uint8_t *row = image.ptr<uint8_t>(y);
            uint8_t *ink = mask.ptr<uint8_t>(y);
            for (int x = 0; x < w; ++x) {
                const int x0 = std::max(0, x - r), x1 = std::min(w - 1, x + r);
                const int64_t area = static_cast<int64_t>(x1 - x0 + 1) * (y1 - y0 + 1);
                const int64_t sum = static_cast<int64_t>(bottom[x1 + 1] - top[x1 + 1] - bottom[x0] + top[x0]);
                const int64_t p = row[x];
                // p < mean·(1−contrast) and mean − p ≥ minimumDifference, in integers.
                ink[x] = (p * area * 1024 < sum * factor && sum - p * area >= least * area) ? 255 : 0;
            }
        }
        cv::Mat labels, stats, centroids;
        const int labelled = cv::connectedComponentsWithStats(mask, labels, stats, centroids, 8, CV_32S);
        const int count = std::min(std::max(labelled - 1, 0), std::max(maximum, 0));   // label 0: the paper
        auto *buffer = static_cast<int64_t *>(std::malloc(sizeof(int64_t) * 7 * static_cast<size_t>(std::max(count, 1))));
        if (buffer == nullptr) throw std::bad_alloc();
        for (int k = 0; k < count; ++k) {
            const int *s = stats.ptr<int>(k + 1);
            const double *c = centroids.ptr<double>(k + 1);
            const int64_t area = s[cv::CC_STAT_AREA];
            int64_t *o = buffer + 7 * k;
            o[0] = s[cv::CC_STAT_LEFT];
            o[1] = s[cv::CC_STAT_TOP];
            o[2] = s[cv::CC_STAT_LEFT] + s[cv::CC_STAT_WIDTH] - 1;
            o[3] = s[cv::CC_STAT_TOP] + s[cv::CC_STAT_HEIGHT] - 1;
            o[4] = area;
            o[5] = std::llround(c[0] * static_cast<double>(area));   // the centroid times the count: the
            o[6] = std::llround(c[1] * static_cast<double>(area));   // exact integer sums of x and y
        }
        *out = buffer;
        return count;
    });
}

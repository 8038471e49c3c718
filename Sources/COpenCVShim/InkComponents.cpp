// The ink components the MRZ band locator chains into lines: a local-mean binarization and
// OpenCV's connected-component labeling (see idk_ink_components in COpenCVShim.h).
#include "COpenCVShim.h"
#include "Guarded.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>
#include <vector>

extern "C" int32_t idk_ink_components(const uint8_t *gray, int32_t width, int32_t height, int32_t radius, double contrast,
                                      int32_t minimumDifference, int32_t maximum, int64_t **out, char *error, size_t errorCapacity) {
    *out = nullptr;
    return idk::guarded(error, errorCapacity, [&]() -> int32_t {
        const int w = width, h = height, r = radius;
        if (w <= 2 * r + 1 || h <= 2 * r + 1) return 0;
        const cv::Mat image(h, w, CV_8UC1, const_cast<uint8_t *>(gray));
        // Each pixel's neighborhood sum over the window clipped to the image: OpenCV's box filter,
        // unnormalized, with zeros outside (exact integers: at most 255 x (2r+1)^2). The clipped
        // window's area is the product of its clipped width and height.
        cv::Mat sums;
        cv::boxFilter(image, sums, CV_32S, cv::Size(2 * r + 1, 2 * r + 1), cv::Point(-1, -1), false, cv::BORDER_CONSTANT);
        std::vector<int64_t> spanX(static_cast<size_t>(w));
        for (int x = 0; x < w; ++x) spanX[static_cast<size_t>(x)] = std::min(w - 1, x + r) - std::max(0, x - r) + 1;
        cv::Mat mask(h, w, CV_8UC1);
        const int64_t factor = static_cast<int64_t>((1 - contrast) * 1024);
        const int64_t least = minimumDifference;
        // p < mean·(1−contrast) and mean − p ≥ minimumDifference, in integers. Where every product
        // fits 32 bits (windows up to 89 px square, the usual case), the rows' middle — the full
        // window, one area — runs in 32-bit lanes the compiler vectorizes; the same comparisons.
        const int64_t fullArea = static_cast<int64_t>(2 * r + 1) * (2 * r + 1);
        const bool narrow = factor >= 0 && factor <= 1024 && least >= 0 && least <= 255
            && fullArea * 255 * 1024 < (int64_t(1) << 31);
        for (int y = 0; y < h; ++y) {
            const int64_t spanY = std::min(h - 1, y + r) - std::max(0, y - r) + 1;
            const int32_t *sum = sums.ptr<int32_t>(y);
            const uint8_t *row = image.ptr<uint8_t>(y);
            uint8_t *ink = mask.ptr<uint8_t>(y);
            auto wide = [&](int x) {
                const int64_t area = spanX[static_cast<size_t>(x)] * spanY;
                const int64_t s = sum[x], pa = static_cast<int64_t>(row[x]) * area;
                ink[x] = (pa * 1024 < s * factor && s - pa >= least * area) ? 255 : 0;
            };
            if (!narrow || spanY != 2 * r + 1) {          // (w > 2r + 1: checked above)
                for (int x = 0; x < w; ++x) wide(x);
                continue;
            }
            for (int x = 0; x < r; ++x) wide(x);
            const int32_t area = static_cast<int32_t>(fullArea), f = static_cast<int32_t>(factor);
            const int32_t floor = static_cast<int32_t>(least) * area;
            for (int x = r; x < w - r; ++x) {
                const int32_t s = sum[x], pa = static_cast<int32_t>(row[x]) * area;
                ink[x] = (pa * 1024 < s * f && s - pa >= floor) ? 255 : 0;
            }
            for (int x = w - r; x < w; ++x) wide(x);
        }
        cv::Mat labels, stats, centroids;
        // Grana's block-based decision tree (BBDT): the same labels in the same order as the
        // default (Bolelli's Spaghetti in OpenCV 4.6), which with statistics is markedly slower on
        // document photos. 16-bit labels where no label can pass 65,535 — every label,
        // provisional ones too, starts at an ink pixel, so fewer ink pixels than that bound them —
        // write half the memory, and are faster for it with the same statistics; more ink (a
        // page of noise) takes 32-bit labels, which OpenCV's 16-bit path would overflow.
        const int ltype = cv::countNonZero(mask) < 65535 ? CV_16U : CV_32S;
        const int labeled = cv::connectedComponentsWithStats(mask, labels, stats, centroids, 8, ltype, cv::CCL_GRANA);
        const int count = std::min(std::max(labeled - 1, 0), std::max(maximum, 0));   // label 0: the paper
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

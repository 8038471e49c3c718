// Linear motion blur: its length and direction estimated from the image's cepstrum, and the image
// restored by Wiener deconvolution with that kernel (OpenCV's dft and mulSpectrums).
//
// A camera moved in a straight line during the exposure convolves the image with a line segment
// of length L. The segment's spectrum is a sinc whose zeros repeat every 1/L along its direction,
// so the logarithm of the image's spectrum carries a periodic ripple, and its inverse transform
// (the cepstrum) a strong negative peak at the offset (L cos a, L sin a) (Rom, "On the cepstrum of
// two-dimensional functions", IEEE Trans. Inf. Theory 21, 1975; Cannon, "Blind deconvolution of
// spatially invariant image blurs with phase", IEEE Trans. ASSP 24, 1976). Averaging the
// log-spectra of many tiles removes what the content contributes and keeps what they share: the
// blur.
#include "COpenCVShim.h"
#include "Guarded.hpp"

#include <cmath>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace {

constexpr int kTile = 128;
/// Offsets searched in the cepstrum, in pixels: shorter ones are the print's own stroke widths and
/// the JPEG's blocks; longer ones are past any blur that leaves an MRZ readable.
constexpr int kShortest = 3, kLongest = 40;
constexpr int kMostTiles = 96;

/// The line segment of `length` pixels at `angle` radians through the origin (wrapped around the
/// `rows` × `cols` image, as dft expects), each point spread bilinearly over four pixels; sums to 1.
cv::Mat segment(double length, double angle, int rows, int cols) {
    cv::Mat kernel = cv::Mat::zeros(rows, cols, CV_32F);
    const int steps = 4 * static_cast<int>(std::ceil(length)) + 1;
    const double c = std::cos(angle), s = std::sin(angle);
    double total = 0;
    for (int k = 0; k < steps; ++k) {
        const double t = steps == 1 ? 0 : -length / 2 + length * k / (steps - 1);
        const double x = t * c, y = t * s;
        const double x0 = std::floor(x), y0 = std::floor(y), fx = x - x0, fy = y - y0;
        const double weights[4] = {(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy};
        for (int q = 0; q < 4; ++q) {
            const int px = (static_cast<int>(x0) + (q & 1) + cols) % cols;
            const int py = (static_cast<int>(y0) + (q >> 1) + rows) % rows;
            kernel.at<float>(py, px) += static_cast<float>(weights[q]);
            total += weights[q];
        }
    }
    kernel /= total;
    return kernel;
}

}  // namespace

extern "C" int32_t idk_motion_blur_estimate(const uint8_t *gray, int32_t width, int32_t height, double *length,
                                            double *angle, double *strength, double *anisotropy) {
    char ignored[8];
    return idk::guarded(ignored, sizeof ignored, [&]() -> int32_t {
        if (gray == nullptr || length == nullptr || angle == nullptr || strength == nullptr || anisotropy == nullptr || width < kTile ||
            height < kTile)
            return -1;
        const cv::Mat image(height, width, CV_8UC1, const_cast<uint8_t *>(gray));
        cv::Mat window;
        cv::createHanningWindow(window, cv::Size(kTile, kTile), CV_32F);
        cv::Mat sum = cv::Mat::zeros(kTile, kTile, CV_32F), tile, spectrum, planes[2], magnitude;
        int32_t tiles = 0;
        // At most about kMostTiles tiles, spread over the whole image: a 12 MP photo has 700, and
        // the estimate settles long before (a photo without an MRZ pays for it).
        const int columns = width / kTile, rows = height / kTile;
        const int step = kTile * std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(columns) * rows / kMostTiles))));
        for (int y = 0; y + kTile <= height; y += step) {
            for (int x = 0; x + kTile <= width; x += step) {
                image(cv::Rect(x, y, kTile, kTile)).convertTo(tile, CV_32F);
                cv::Scalar mean, deviation;
                cv::meanStdDev(tile, mean, deviation);
                // Plain paper or background: no edges for the blur to show on.
                if (deviation[0] < 8) continue;
                tile = (tile - mean[0]).mul(window);
                cv::dft(tile, spectrum, cv::DFT_COMPLEX_OUTPUT);
                cv::split(spectrum, planes);
                cv::magnitude(planes[0], planes[1], magnitude);
                magnitude += 1e-3f;
                cv::log(magnitude, magnitude);
                sum += magnitude;
                ++tiles;
            }
        }
        if (tiles == 0) return 0;
        // The log-spectrum is real and even, so its forward transform is the cepstrum (scaled).
        cv::Mat cepstrum;
        cv::dft(sum, spectrum, cv::DFT_COMPLEX_OUTPUT);
        cv::split(spectrum, planes);
        cepstrum = planes[0];
        // The half plane dy <= 0 (the cepstrum is even), offsets kShortest..kLongest long.
        double best = INFINITY, sumValues = 0, sumSquares = 0;
        int bestX = 0, bestY = 0, count = 0;
        for (int dy = -kLongest; dy <= 0; ++dy) {
            for (int dx = -kLongest; dx <= kLongest; ++dx) {
                const double r = std::hypot(dx, dy);
                if (r < kShortest || r > kLongest || (dy == 0 && dx < 0)) continue;
                const double v = cepstrum.at<float>((dy + kTile) % kTile, (dx + kTile) % kTile);
                sumValues += v;
                sumSquares += v * v;
                ++count;
                if (v < best) { best = v; bestX = dx; bestY = dy; }
            }
        }
        const double mean = sumValues / count, deviation = std::sqrt(std::max(0.0, sumSquares / count - mean * mean));
        // The peak placed between pixels by a parabola through it and its neighbors, in x and in
        // y (the error of the length on generated blur fell from ±0.43 to ±0.21 px).
        auto at = [&](int dx, int dy) { return static_cast<double>(cepstrum.at<float>((dy + kTile) % kTile, (dx + kTile) % kTile)); };
        auto vertex = [](double before, double peak, double after) {
            const double curvature = before - 2 * peak + after;
            return curvature > 0 ? 0.5 * (before - after) / curvature : 0.0;
        };
        const double px = bestX + vertex(at(bestX - 1, bestY), best, at(bestX + 1, bestY));
        const double py = bestY + vertex(at(bestX, bestY - 1), best, at(bestX, bestY + 1));
        // The peak stands about a pixel past the blur's length: a segment of L pixels covers L + 1.
        *length = std::max(0.0, std::hypot(px, py) - 1);
        double a = std::atan2(py, px);
        if (a < 0) a += M_PI;
        *angle = a;
        *strength = deviation > 0 ? (mean - best) / deviation : 0;
        // How much weaker the spectrum is along the blur than across it, from the blur's first zero
        // to its third (mean log-magnitude over wedges of ±10°): a sharp photo's print has every
        // direction's frequencies, a smeared one loses those along the smear.
        const double reach = *length > 2 ? *length : 2;
        const double inner = kTile / reach, outer = std::min(kTile / 2.0 - 1, 3 * kTile / reach);
        const double wedge = 10 * M_PI / 180;
        double along = 0, across = 0;
        int alongCount = 0, acrossCount = 0;
        for (int i = 0; i < kTile; ++i) {
            const int fv = i < kTile / 2 ? i : i - kTile;
            for (int j = 0; j < kTile; ++j) {
                const int fu = j < kTile / 2 ? j : j - kTile;
                const double r = std::hypot(fu, fv);
                if (r <= inner || r >= outer) continue;
                // The angle to the blur's direction, folded to 0..π/2.
                double d = std::fmod(std::abs(std::atan2(static_cast<double>(fv), static_cast<double>(fu)) - a), M_PI);
                if (d > M_PI / 2) d = M_PI - d;
                const double v = sum.at<float>(i, j) / tiles;
                if (d < wedge) { along += v; ++alongCount; }
                else if (d > M_PI / 2 - wedge) { across += v; ++acrossCount; }
            }
        }
        *anisotropy = alongCount > 0 && acrossCount > 0 ? across / acrossCount - along / alongCount : 0;
        return tiles;
    });
}

extern "C" int32_t idk_motion_deblur(const uint8_t *gray, int32_t width, int32_t height, double length, double angle,
                                     double noise, uint8_t *out) {
    char ignored[8];
    return idk::guarded(ignored, sizeof ignored, [&]() -> int32_t {
        if (gray == nullptr || out == nullptr || width <= 0 || height <= 0 || !(length >= 0) || !(noise > 0)) return -1;
        const cv::Mat image(height, width, CV_8UC1, const_cast<uint8_t *>(gray));
        // Mirrored margins, padded on to sizes the transform is fast at: the transform wraps the
        // image around, and a hard edge there would ring across it.
        const int margin = static_cast<int>(std::ceil(length)) + 8;
        const int rows = cv::getOptimalDFTSize(height + 2 * margin), cols = cv::getOptimalDFTSize(width + 2 * margin);
        cv::Mat padded;
        cv::copyMakeBorder(image, padded, margin, rows - height - margin, margin, cols - width - margin,
                           cv::BORDER_REFLECT);
        padded.convertTo(padded, CV_32F);
        cv::Mat observed, blur, restored;
        cv::dft(padded, observed, cv::DFT_COMPLEX_OUTPUT);
        cv::dft(segment(length, angle, rows, cols), blur, cv::DFT_COMPLEX_OUTPUT);
        // Wiener: X = Y · conj(H) / (|H|² + noise).
        cv::mulSpectrums(observed, blur, restored, 0, true);
        cv::Mat planes[2];
        cv::split(blur, planes);
        cv::Mat power = planes[0].mul(planes[0]) + planes[1].mul(planes[1]) + noise;
        cv::split(restored, planes);
        planes[0] /= power;
        planes[1] /= power;
        cv::merge(planes, 2, restored);
        cv::dft(restored, padded, cv::DFT_INVERSE | cv::DFT_SCALE | cv::DFT_REAL_OUTPUT);
        cv::Mat target(height, width, CV_8UC1, out);
        padded(cv::Rect(margin, margin, width, height)).convertTo(target, CV_8U);
        return target.data == out ? 0 : -1;
    });
}

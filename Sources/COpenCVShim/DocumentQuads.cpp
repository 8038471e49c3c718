// Document outlines and perspective crops with OpenCV's imgproc (see include/COpenCVShim.h).
#include "COpenCVShim.h"
#include "Guarded.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <memory>
#include <cmath>
#include <vector>

namespace {

using idk::guarded;
using idk::write_error;

struct Quad {
    cv::Point2d corner[4];
    double support = 0;
    double weakest = 0;   // the support of the worst-supported side
    double area = 0;
    int cut = 0;          // bit s: the side from corner s to corner s+1 lies on the image's border
    int stepped = 0;      // bit s: the snapping found side s on a step of the gray, not on edges
};

/// Counts the points along side `s` (from corner s to corner s+1, its middle 88%: a card's
/// corners are rounded) and those of them that fall on an edge pixel.
void count_side(const cv::Mat &edges, const Quad &q, int s, int &hits, int &total) {
    cv::Point2d a = q.corner[s], b = q.corner[(s + 1) % 4];
    int n = std::max(16, static_cast<int>(cv::norm(b - a) / 2));
    for (int i = 0; i <= n; i++) {
        double t = static_cast<double>(i) / n;
        if (t < 0.06 || t > 0.94) continue;
        cv::Point2d p = a + (b - a) * t;
        int x = static_cast<int>(cvRound(p.x)), y = static_cast<int>(cvRound(p.y));
        total++;
        if (x >= 0 && y >= 0 && x < edges.cols && y < edges.rows && edges.at<uint8_t>(y, x) != 0) hits++;
    }
}

/// The share of points along the quad's sides that fall on an edge pixel.
double edge_support(const cv::Mat &edges, const Quad &q) {
    int hits = 0, total = 0;
    for (int s = 0; s < 4; s++) count_side(edges, q, s, hits, total);
    return total > 0 ? static_cast<double>(hits) / total : 0;
}

/// The same along side `s` alone: a document's outline has edges along all four sides, where a
/// box around text or a hull around clutter leaves a side or two on nothing.
double side_support(const cv::Mat &edges, const Quad &q, int s) {
    int hits = 0, total = 0;
    count_side(edges, q, s, hits, total);
    return total > 0 ? static_cast<double>(hits) / total : 0;
}

double weakest_side(const cv::Mat &edges, const Quad &q) {
    double weakest = 1;
    for (int s = 0; s < 4; s++) weakest = std::min(weakest, side_support(edges, q, s));
    return weakest;
}

/// Whether every point of `keep` lies on the inner side of the line through `a` and `b` (the side
/// where `inside` lies): a document's side never runs through its own MRZ.
bool clears(cv::Point2d a, cv::Point2d b, cv::Point2d inside, const cv::Point2d *keep, int count) {
    cv::Point2d d = b - a;
    double reference = d.x * (inside.y - a.y) - d.y * (inside.x - a.x);
    for (int i = 0; i < count; i++) {
        double c = d.x * (keep[i].y - a.y) - d.y * (keep[i].x - a.x);
        if (c * reference < 0) return false;
    }
    return true;
}

bool clears_all(const Quad &q, const cv::Point2d *keep, int count) {
    if (keep == nullptr) return true;
    cv::Point2d center = (q.corner[0] + q.corner[1] + q.corner[2] + q.corner[3]) * 0.25;
    for (int s = 0; s < 4; s++) {
        if (!clears(q.corner[s], q.corner[(s + 1) % 4], center, keep, count)) return false;
    }
    return true;
}

/// A line through edge points that mostly lie on one side and partly on clutter next to it: a
/// least-squares fit, then again on the points within 1.5 px of it (and once more), three closed-form
/// fits where OpenCV's robust DIST_HUBER iterates: that one took half the outline search's time on
/// the real specimens for the same corners (make bench-detect-real, bench-detect).
bool fit_side(const std::vector<cv::Point2f> &points, cv::Vec4f &line) {
    cv::fitLine(points, line, cv::DIST_L2, 0, 0.01, 0.01);
    std::vector<cv::Point2f> near;
    near.reserve(points.size());
    for (double tolerance : {3.0, 1.5}) {
        near.clear();
        for (const auto &p : points) {
            // Distance from the line (direction line[0..1], through line[2..3]).
            double d = std::fabs((p.x - line[2]) * line[1] - (p.y - line[3]) * line[0]);
            if (d <= tolerance) near.push_back(p);
        }
        if (near.size() < std::max<size_t>(8, points.size() / 3)) return true;   // keep the fit before
        cv::fitLine(near, line, cv::DIST_L2, 0, 0.01, 0.01);
    }
    return true;
}

/// Each side refitted to the edge pixels found across it (the nearest within `reach` of the
/// side, over its middle 80%), by a robust line fit; the corners are where neighboring sides
/// meet. A rounded corner's true corner is where its straight sides meet, which a polygon
/// approximation of the contour cuts off.
bool refine(const cv::Mat &edges, Quad &q, double reach) {
    cv::Vec4f line[4];
    for (int s = 0; s < 4; s++) {
        cv::Point2d a = q.corner[s], b = q.corner[(s + 1) % 4];
        double length = cv::norm(b - a);
        if (length < 8) return false;
        cv::Point2d u = (b - a) / length, normal(-u.y, u.x);
        std::vector<cv::Point2f> found;
        for (double d = 0.1 * length; d <= 0.9 * length; d += 1) {
            cv::Point2d base = a + u * d;
            for (int k = 0; k <= static_cast<int>(reach); k++) {
                bool hit = false;
                for (int sign : {1, -1}) {
                    cv::Point2d p = base + normal * (sign * k);
                    int x = static_cast<int>(cvRound(p.x)), y = static_cast<int>(cvRound(p.y));
                    if (x >= 0 && y >= 0 && x < edges.cols && y < edges.rows && edges.at<uint8_t>(y, x) != 0) {
                        found.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
                        hit = true;
                        break;
                    }
                }
                if (hit) break;
            }
        }
        if (found.size() < std::max<size_t>(8, static_cast<size_t>(0.3 * length))) return false;
        if (!fit_side(found, line[s])) return false;
    }
    Quad refined = q;
    for (int s = 0; s < 4; s++) {
        const cv::Vec4f &l1 = line[(s + 3) % 4], &l2 = line[s];
        double det = l1[0] * l2[1] - l1[1] * l2[0];
        if (std::fabs(det) < 0.2) return false;   // nearly parallel neighbors: not a quadrilateral
        double t = ((l2[2] - l1[2]) * l2[1] - (l2[3] - l1[3]) * l2[0]) / det;
        refined.corner[s] = cv::Point2d(l1[2] + t * l1[0], l1[3] + t * l1[1]);
        if (cv::norm(refined.corner[s] - q.corner[s]) > 3 * reach) return false;
    }
    q = refined;
    return true;
}

double quad_area(const Quad &q) {
    double a = 0;
    for (int i = 0; i < 4; i++) {
        const cv::Point2d &p = q.corner[i], &n = q.corner[(i + 1) % 4];
        a += p.x * n.y - n.x * p.y;
    }
    return std::fabs(a) / 2;
}

bool same_quad(const Quad &a, const Quad &b, double tolerance) {
    for (int i = 0; i < 4; i++) {
        double best = 1e18;
        for (int j = 0; j < 4; j++) best = std::min(best, cv::norm(a.corner[i] - b.corner[j]));
        if (best > tolerance) return false;
    }
    return true;
}

/// The image at most 400 pixels along its longer side, smoothed: outlines are large, and the fine
/// print inside a document (whose edges would tie the outline to the text) blurs away.
double prepare(const uint8_t *gray, int32_t width, int32_t height, cv::Mat &blurred) {
    cv::Mat source(height, width, CV_8UC1, const_cast<uint8_t *>(gray));
    double scale = std::min(1.0, 400.0 / std::max(width, height));
    cv::Mat small;
    if (scale < 1) {
        cv::resize(source, small, cv::Size(), scale, scale, scale < 0.5 ? cv::INTER_AREA : cv::INTER_LINEAR);
    } else {
        small = source;
    }
    cv::GaussianBlur(small, blurred, cv::Size(5, 5), 0);
    return scale;
}

/// Two edge sensitivities: a light card on a light desk has weak edges; on a busy scene strong
/// ones keep the outline apart from the clutter.
const std::pair<double, double> kThresholds[2] = {{12, 36}, {40, 120}};

/// How many points along the middle 80% of the segment a-b fall on an edge pixel.
int count_on_edges(const cv::Mat &edges, cv::Point2d a, cv::Point2d b) {
    double length = cv::norm(b - a);
    int n = std::max(8, static_cast<int>(length));
    int hits = 0;
    for (int i = 0; i <= n; i++) {
        double t = 0.1 + 0.8 * i / n;
        cv::Point2d p = a + (b - a) * t;
        int x = static_cast<int>(cvRound(p.x)), y = static_cast<int>(cvRound(p.y));
        if (x >= 0 && y >= 0 && x < edges.cols && y < edges.rows && edges.at<uint8_t>(y, x) != 0) hits++;
    }
    return hits;
}

/// How many points along the middle 80% of the segment a-b (as ``count_on_edges``) lie on a step
/// of the smoothed gray image across the segment, all of one sign (the document lighter than its
/// background along the whole side, or darker): the gray 2 px to one side less the gray 2 px to the
/// other, at least 2 levels and twice the change over the next 2 px either side, averaged over runs
/// of 8 px. A card on a scanner's lid or a desk of nearly its own color differs
/// from it by a few gray levels, too little for Canny's thresholds at any one point, but the same
/// few levels all along the side; print, a pattern or the background's grain step either way.
int count_on_step(const cv::Mat &gray, cv::Point2d a, cv::Point2d b) {
    double length = cv::norm(b - a);
    if (length < 1) return 0;
    cv::Point2d u = (b - a) / length, normal(-u.y, u.x);
    int n = std::max(8, static_cast<int>(length));
    // The points 2 px either side must lie in the image; those 4 px out are taken from the
    // border where they fall beyond it (a side a few pixels inside the frame: the background
    // beyond it goes on as the frame shows it).
    auto at = [&](cv::Point2d p, int &value, bool clamp) {
        int x = cvRound(p.x), y = cvRound(p.y);
        if (x < 0 || y < 0 || x >= gray.cols || y >= gray.rows) {
            if (!clamp) return false;
            x = std::clamp(x, 0, gray.cols - 1);
            y = std::clamp(y, 0, gray.rows - 1);
        }
        value = gray.at<uint8_t>(y, x);
        return true;
    };
    // Judged over runs of 8 points (8 px), their grays averaged: a document's own pattern and the
    // sensor's noise vary from pixel to pixel as much as a faint side steps.
    const int run = 8;
    int lighter = 0, darker = 0, count = 0;
    double sum[4] = {0, 0, 0, 0};
    for (int i = 0; i <= n; i++) {
        double t = 0.1 + 0.8 * i / n;
        cv::Point2d p = a + (b - a) * t;
        int v[4];
        if (at(p + normal * 4, v[0], true) && at(p + normal * 2, v[1], false) && at(p - normal * 2, v[2], false) && at(p - normal * 4, v[3], true)) {
            for (int k = 0; k < 4; k++) sum[k] += v[k];
            count++;
        }
        if (count == run || (i == n && count > 0)) {
            // A step, not a ramp: the change across the side at least twice that on either side
            // of it (a shading across the page changes as much everywhere).
            double outer = sum[0] / count, o = sum[1] / count, q = sum[2] / count, inner = sum[3] / count;
            double d = o - q, flank = 2 * std::max(std::fabs(outer - o), std::fabs(q - inner));
            if (std::fabs(d) >= std::max(2.0, flank)) (d > 0 ? lighter : darker) += count;
            count = 0;
            for (double &x : sum) x = 0;
        }
    }
    return std::max(lighter, darker);
}

/// The evidence for a side along the segment a-b: the points on edges or on one step, whichever
/// more.
int count_on_side(const cv::Mat &thick, const cv::Mat &gray, cv::Point2d a, cv::Point2d b) {
    return std::max(count_on_edges(thick, a, b), count_on_step(gray, a, b));
}

/// Which border of an image `cols` × `rows` the segment a-b lies along (0 left, 1 right, 2 top,
/// 3 bottom: both ends within 2.5 px of it), or -1.
int border_of(cv::Point2d a, cv::Point2d b, int cols, int rows) {
    const double near = 2.5;
    if (std::fabs(a.x) < near && std::fabs(b.x) < near) return 0;
    if (std::fabs(a.x - (cols - 1)) < near && std::fabs(b.x - (cols - 1)) < near) return 1;
    if (std::fabs(a.y) < near && std::fabs(b.y) < near) return 2;
    if (std::fabs(a.y - (rows - 1)) < near && std::fabs(b.y - (rows - 1)) < near) return 3;
    return -1;
}

/// The corners where the lines through a[s]-b[s] meet, side s-1 and side s at corner s; false
/// where two neighbors are parallel.
bool meet(const cv::Point2d *a, const cv::Point2d *b, Quad &q) {
    for (int s = 0; s < 4; s++) {
        cv::Point2d p = a[(s + 3) % 4], r = b[(s + 3) % 4], p2 = a[s], r2 = b[s];
        cv::Point2d d1 = r - p, d2 = r2 - p2;
        double det = d1.x * d2.y - d1.y * d2.x;
        if (std::fabs(det) < 1e-6) return false;
        double t = ((p2.x - p.x) * d2.y - (p2.y - p.y) * d2.x) / det;
        q.corner[s] = p + d1 * t;
    }
    return true;
}

/// The gray at `p` (bilinear), or -1 outside the image.
double gray_at(const cv::Mat &gray, cv::Point2d p) {
    if (p.x < 0 || p.y < 0 || p.x > gray.cols - 1 || p.y > gray.rows - 1) return -1;
    int x = std::min(static_cast<int>(p.x), gray.cols - 2), y = std::min(static_cast<int>(p.y), gray.rows - 2);
    double fx = p.x - x, fy = p.y - y;
    auto v = [&](int xx, int yy) { return static_cast<double>(gray.at<uint8_t>(yy, xx)); };
    return (v(x, y) * (1 - fx) + v(x + 1, y) * fx) * (1 - fy) + (v(x, y + 1) * (1 - fx) + v(x + 1, y + 1) * fx) * fy;
}

/// The summed step across the segment a-b over its middle 80%: the gray 1.5 px to its left (of a
/// walk from a to b) less the gray 1.5 px to its right.
double step_across(const cv::Mat &gray, cv::Point2d a, cv::Point2d b) {
    double length = cv::norm(b - a);
    if (length < 1) return 0;
    cv::Point2d u = (b - a) / length, normal(-u.y * 1.5, u.x * 1.5);
    int n = std::max(8, static_cast<int>(length));
    double sum = 0;
    for (int i = 0; i <= n; i++) {
        cv::Point2d p = a + (b - a) * (0.1 + 0.8 * i / n);
        double o = gray_at(gray, p + normal), q = gray_at(gray, p - normal);
        if (o >= 0 && q >= 0) sum += o - q;
    }
    return sum;
}

/// The segment a-b moved by up to a pixel across and turned by up to a degree about its middle,
/// in quarter pixels and fifth degrees, to where the gray steps most across it (the way it steps
/// where it lies).
void settle_on_step(const cv::Mat &gray, cv::Point2d &a, cv::Point2d &b) {
    double length = cv::norm(b - a);
    if (length < 8) return;
    cv::Point2d u = (b - a) / length, normal(-u.y, u.x), mid = (a + b) * 0.5;
    double sign = step_across(gray, a, b) >= 0 ? 1 : -1;
    double best = sign * step_across(gray, a, b);
    cv::Point2d bestA = a, bestB = b;
    for (int k = -4; k <= 4; k++) {
        for (int tilt = -5; tilt <= 5; tilt++) {
            double angle = tilt * 0.2 * CV_PI / 180;
            cv::Point2d v(u.x * std::cos(angle) - u.y * std::sin(angle), u.x * std::sin(angle) + u.y * std::cos(angle));
            cv::Point2d c = mid + normal * (0.25 * k);
            double score = sign * step_across(gray, c - v * (length / 2), c + v * (length / 2));
            if (score > best) {
                best = score;
                bestA = c - v * (length / 2);
                bestB = c + v * (length / 2);
            }
        }
    }
    a = bestA;
    b = bestB;
}

/// Whether the segment a-b runs within 2.5 px of a border of an image `cols` × `rows` at both
/// ends or at its middle: on the line the snapping draws along the border (2 px thick).
bool near_border(cv::Point2d a, cv::Point2d b, int cols, int rows) {
    cv::Point2d m = (a + b) * 0.5;
    auto close = [&](cv::Point2d p) {
        return p.x < 2.5 || p.y < 2.5 || p.x > cols - 3.5 || p.y > rows - 3.5;
    };
    return border_of(a, b, cols, rows) >= 0 || close(m) || (close(a) && close(b));
}

/// The share of a snapped outline's sides on edges (or, for a side the snapping found on a step
/// of the gray, on edges or that step: ``count_on_side``), and in `weakest` that share on its
/// worst side.
double snapped_support(const cv::Mat &thick, const cv::Mat &gray, const Quad &q, double &weakest) {
    int hits = 0, total = 0;
    weakest = 1;
    for (int s = 0; s < 4; s++) {
        int sideHits = 0, sideTotal = 0;
        if ((q.stepped >> s) & 1) {
            cv::Point2d a = q.corner[s], b = q.corner[(s + 1) % 4];
            sideTotal = std::max(8, static_cast<int>(cv::norm(b - a))) + 1;
            sideHits = count_on_side(thick, gray, a, b);
        } else {
            count_side(thick, q, s, sideHits, sideTotal);
        }
        hits += sideHits;
        total += sideTotal;
        weakest = std::min(weakest, sideTotal > 0 ? static_cast<double>(sideHits) / sideTotal : 0);
    }
    return total > 0 ? static_cast<double>(hits) / total : 0;
}

/// Each side of an estimated outline moved (up to `farthest` across, tilted up to 3 degrees about its
/// middle) to where the most edge pixels line up, then refined: for an outline placed from an MRZ
/// by the format's geometry, whose sides are a few percent off. No side is placed through the
/// `keep` points (the MRZ with its margin, 4 points), however many edges its characters give there.
bool snap(const cv::Mat &edges, const cv::Mat &thick, const cv::Mat &gray, Quad &q, double farthest, const cv::Point2d *keep) {
    cv::Point2d center = (q.corner[0] + q.corner[1] + q.corner[2] + q.corner[3]) * 0.25;
    cv::Point2d a[4], b[4];
    bool keptOff[4] = {false, false, false, false};   // a side held on the document's own edge off the border
    // A side goes onto the image's border (drawn into the edges for a scan cropped to the
    // document) only where the outline as placed puts it within 2.5% of its diagonal of that
    // border (the left and right sides, placed from the MRZ's ends within the issuers' print
    // tolerance), 5% for the top and bottom (placed from the last line's height above the
    // bottom edge, which issuers vary by more): a document lying further inside has its own edge
    // there, however faint, and the border's long straight line would outscore it. The corners
    // come in the order placed: top-left first, so sides 0 and 2 are the top and bottom.
    const double diagonal = cv::norm(q.corner[2] - q.corner[0]);
    auto borderReach = [&](int side) { return (side % 2 == 0 ? 0.05 : 0.025) * diagonal; };
    double placedInside[4][4];   // each placed side's middle: how far inside each border
    for (int s = 0; s < 4; s++) {
        cv::Point2d mid = (q.corner[s] + q.corner[(s + 1) % 4]) * 0.5;
        placedInside[s][0] = mid.x;
        placedInside[s][1] = thick.cols - 1 - mid.x;
        placedInside[s][2] = mid.y;
        placedInside[s][3] = thick.rows - 1 - mid.y;
    }
    for (int s = 0; s < 4; s++) {
        cv::Point2d p = q.corner[s], r = q.corner[(s + 1) % 4];
        double length = cv::norm(r - p);
        if (length < 8) return false;
        cv::Point2d u = (r - p) / length, normal(-u.y, u.x), mid = (p + r) * 0.5;
        auto refused = [&](cv::Point2d from, cv::Point2d to) {
            int border = border_of(from, to, thick.cols, thick.rows);
            return border >= 0 && placedInside[s][border] > borderReach(s);
        };
        int best = -1;
        double bestOffset = 0;
        // Coarse: the offset alone, an edge far from the estimate counting for less (up to 40%
        // less at the reach): a document's side is near where the MRZ places it, a shadow, a
        // desk's edge or the grain beyond is not, though it may be straighter. The left and right
        // sides are searched within 2.5% of the diagonal, as near as the border is allowed them:
        // the MRZ's ends place them within the issuers' print tolerance, and the portrait's
        // edge or a column of print a few millimeters inside is not the document's side.
        const double reach = s % 2 == 0 ? farthest : std::min(farthest, borderReach(s));
        int coarse = 0;
        double coarseScore = -1;
        int coarseHits = 0;
        const int samples = std::max(8, static_cast<int>(length)) + 1;
        for (int k = -static_cast<int>(reach); k <= static_cast<int>(reach); k++) {
            cv::Point2d c = mid + normal * k;
            cv::Point2d from = c - u * (length / 2), to = c + u * (length / 2);
            if (keep != nullptr && !clears(from, to, center, keep, 4)) continue;
            if (refused(from, to)) continue;
            int hits = count_on_edges(thick, from, to);
            double score = hits * (1 - 0.4 * std::abs(k) / std::max(1.0, reach));
            if (score > coarseScore || (score == coarseScore && std::abs(k) < std::abs(coarse))) {
                coarseScore = score;
                coarse = k;
                coarseHits = hits;
            }
        }
        // Where the edges put this side on the border, or on edges along less than half of it,
        // the document's own side may be too faint for them (a card on a scanner's lid a few gray
        // levels from its own color): the best position off the border on edges or on a step
        // (``count_on_step``) along at least half its length, if it has more of them than the
        // edges' choice. The border drawn in stands for a side the frame cuts, where no gradient
        // can show it; its unbroken line must not outscore the document's own side before it.
        cv::Point2d coarseMid = mid + normal * coarse;
        bool onBorder = coarseScore >= 0 && near_border(coarseMid - u * (length / 2), coarseMid + u * (length / 2), thick.cols, thick.rows);
        // Only a side placed more than 1% of the diagonal inside the border, beyond the issuers'
        // print tolerance (``bordersAllowed``): a scan cropped to the document has the side on the
        // border and its own print lines just inside.
        double placedMargin = 1e9;
        for (int border = 0; border < 4; border++) placedMargin = std::min(placedMargin, placedInside[s][border]);
        if (onBorder && placedMargin <= 0.01 * diagonal) onBorder = false;
        if (onBorder || (coarseScore >= 0 && 2 * coarseHits < samples && !near_border(coarseMid - u * (length / 2), coarseMid + u * (length / 2), thick.cols, thick.rows))) {
            int inner = 0, innerSteps = 0;
            double innerScore = -1;
            for (int k = -static_cast<int>(reach); k <= static_cast<int>(reach); k++) {
                cv::Point2d c = mid + normal * k;
                cv::Point2d from = c - u * (length / 2), to = c + u * (length / 2);
                if (keep != nullptr && !clears(from, to, center, keep, 4)) continue;
                if (refused(from, to) || near_border(from, to, thick.cols, thick.rows)) continue;
                int hits = count_on_edges(thick, from, to), steps = count_on_step(gray, from, to);
                int evidence = std::max(hits, steps);
                double score = evidence * (1 - 0.4 * std::abs(k) / std::max(1.0, reach));
                // Off a weak side on edges along a quarter of it or more, only outward: a faint
                // side lies beyond the print the edges found inside the document (a portrait's
                // edge, a line of text), never further in than they are.
                bool outward = 4 * coarseHits < samples || cv::Point2d(c - coarseMid).dot(mid - center) > 0;
                if (2 * evidence >= samples && (onBorder || (evidence > coarseHits && outward))
                    && (score > innerScore || (score == innerScore && std::abs(k) < std::abs(inner)))) {
                    innerScore = score;
                    inner = k;
                    innerSteps = steps > hits ? 1 : 0;
                }
            }
            if (innerScore >= 0) {
                coarse = inner;
                keptOff[s] = onBorder;
                if (innerSteps) q.stepped |= 1 << s;
            }
        }
        const bool byStep = (q.stepped >> s) & 1;
        for (int k = coarse - 4; k <= coarse + 4; k++) {
            for (int tilt = -3; tilt <= 3; tilt++) {
                double angle = tilt * CV_PI / 180;
                cv::Point2d v(u.x * std::cos(angle) - u.y * std::sin(angle), u.x * std::sin(angle) + u.y * std::cos(angle));
                cv::Point2d c = mid + normal * k;
                cv::Point2d from = c - v * (length / 2), to = c + v * (length / 2);
                if (keep != nullptr && !clears(from, to, center, keep, 4)) continue;
                if (refused(from, to)) continue;
                if (keptOff[s] && near_border(from, to, thick.cols, thick.rows)) continue;
                int hits = byStep ? count_on_step(gray, from, to) : count_on_edges(thick, from, to);
                if (hits > best || (hits == best && std::abs(k) < std::abs(bestOffset))) {
                    best = hits;
                    bestOffset = k;
                    a[s] = from;
                    b[s] = to;
                }
            }
        }
        if (best < 0) return false;   // every position of this side runs through the keep-out
    }
    Quad moved = q;
    if (!meet(a, b, moved)) return false;
    Quad refined = moved;
    bool refitted = false;
    if (refine(edges, refined, 3) && clears_all(refined, keep, 4)) {
        // The refit may pull a side onto the border it was kept off.
        bool onRefusedBorder = false;
        for (int s = 0; s < 4; s++) {
            int border = border_of(refined.corner[s], refined.corner[(s + 1) % 4], thick.cols, thick.rows);
            onRefusedBorder = onRefusedBorder || (border >= 0 && placedInside[s][border] > borderReach(s))
                || (keptOff[s] && near_border(refined.corner[s], refined.corner[(s + 1) % 4], thick.cols, thick.rows));
        }
        if (!onRefusedBorder) {
            moved = refined;
            refitted = true;
        }
    }
    if (!refitted) {
        // A side too faint for the refit (which needs edges along all four): each side off the
        // border settled onto its step to a fraction of a pixel, where the search above moved it by
        // whole pixels and degrees (a degree is 3 px at a 400 px side's ends).
        for (int s = 0; s < 4; s++) {
            if ((q.stepped >> s) & 1) settle_on_step(gray, a[s], b[s]);
        }
        Quad settled = q;
        if (meet(a, b, settled) && clears_all(settled, keep, 4)) moved = settled;
    }
    q = moved;
    return true;
}

}  // namespace

/// The edges of one image at both sensitivities, found once for the outline search and the snapping.
struct idk_edges {
    double scale = 1;
    cv::Mat edges[2], thick[2];
    cv::Mat blurred;   // the gray image the edges were found in, for the snapping's steps
};

extern "C" idk_edges *idk_edges_new(const uint8_t *gray, int32_t width, int32_t height, char *error, size_t errorCapacity) {
    idk_edges *result = nullptr;
    int32_t status = guarded(error, errorCapacity, [&]() -> int32_t {
        if (gray == nullptr || width <= 0 || height <= 0) {
            write_error(error, errorCapacity, "bad arguments");
            return -1;
        }
        auto made = std::make_unique<idk_edges>();
        cv::Mat &blurred = made->blurred;
        made->scale = prepare(gray, width, height, blurred);
        // The gradients once, the two hysteresis passes on them.
        cv::Mat dx, dy;
        cv::Sobel(blurred, dx, CV_16S, 1, 0, 3);
        cv::Sobel(blurred, dy, CV_16S, 0, 1, 3);
        for (int t = 0; t < 2; t++) {
            cv::Canny(dx, dy, made->edges[t], kThresholds[t].first, kThresholds[t].second, true);
            cv::dilate(made->edges[t], made->thick[t], cv::Mat(), cv::Point(-1, -1), 1);
        }
        result = made.release();
        return 0;
    });
    return status == 0 ? result : nullptr;
}

extern "C" void idk_edges_free(idk_edges *edges) { delete edges; }

extern "C" int32_t idk_snap_quads(const idk_edges *found, int32_t count, double *corners, const double *keepout, double reach,
                                  double *support, double *weakest, char *error, size_t errorCapacity) {
    return guarded(error, errorCapacity, [&]() -> int32_t {
        if (found == nullptr || corners == nullptr || support == nullptr || weakest == nullptr || count < 0) {
            write_error(error, errorCapacity, "bad arguments");
            return -1;
        }
        double scale = found->scale;
        double diagonal = std::hypot(found->edges[0].cols, found->edges[0].rows);
        // The edges with the image's border drawn in, for snapping only (made here, for the few
        // images that need a document placed from its MRZ): a scan cropped to the document (a card
        // or page filling the frame, its corners just visible) has its sides on the border, where
        // no gradient can show them. The outline search never sees the border: every image would
        // have its frame for an outline.
        cv::Mat framedEdges[2], framedThick[2];
        if (count > 0) {
            for (int t = 0; t < 2; t++) {
                framedEdges[t] = found->edges[t].clone();
                framedThick[t] = found->thick[t].clone();
                cv::Rect frame(0, 0, framedEdges[t].cols, framedEdges[t].rows);
                cv::rectangle(framedEdges[t], frame, cv::Scalar(255), 1);
                cv::rectangle(framedThick[t], frame, cv::Scalar(255), 2);
            }
        }
        for (int k = 0; k < count; k++) {
            double *c = corners + 8 * k;
            cv::Point2d keep[4];
            if (keepout != nullptr) {
                for (int i = 0; i < 4; i++) keep[i] = cv::Point2d(keepout[8 * k + 2 * i] * scale, keepout[8 * k + 2 * i + 1] * scale);
            }
            Quad best;
            best.support = -1;
            double bestWeakest = 0;
            for (int t = 0; t < 2; t++) {
                Quad q;
                for (int i = 0; i < 4; i++) q.corner[i] = cv::Point2d(c[2 * i] * scale, c[2 * i + 1] * scale);
                if (!snap(framedEdges[t], framedThick[t], found->blurred, q, std::max(4.0, reach * diagonal), keepout != nullptr ? keep : nullptr)) continue;
                double weakestHere = 1;
                q.support = snapped_support(framedThick[t], found->blurred, q, weakestHere);
                if (q.support > best.support) {
                    best = q;
                    bestWeakest = weakestHere;
                }
            }
            support[k] = std::max(0.0, best.support);
            weakest[k] = bestWeakest;
            if (best.support < 0) continue;
            for (int i = 0; i < 4; i++) {
                c[2 * i] = best.corner[i].x / scale;
                c[2 * i + 1] = best.corner[i].y / scale;
            }
        }
        return 0;
    });
}

namespace {

/// Which sides of `q` lie along the border of an image `cols` × `rows` (``border_of``): bit s for
/// the side from corner s to corner s+1.
int border_sides(const Quad &q, int cols, int rows) {
    int mask = 0;
    for (int s = 0; s < 4; s++) {
        if (border_of(q.corner[s], q.corner[(s + 1) % 4], cols, rows) >= 0) mask |= 1 << s;
    }
    return mask;
}

/// The outline search over one pair of edge maps (see idk_document_quads). With `erase` (the
/// cut search), the documents already found are erased from copies of the edges first (so that
/// a document lying against one is not merged with it), a hull that meets two borders is closed
/// by the image's corner between them (a document pushed into a corner shows two sides, an L whose
/// hull is a triangle), and only outlines with a side on the border are kept, their support
/// counted over the sides off the border.
std::vector<Quad> find_quads(const idk_edges *found, double minimumShare, const std::vector<Quad> *erase) {
    const cv::Mat &any = found->edges[0];
    double minimumArea = minimumShare * any.cols * any.rows;
    double diagonal = std::hypot(any.cols, any.rows);
    const bool framed = erase != nullptr;
    std::vector<Quad> kept;
    for (int t = 0; t < 2; t++) {
        const cv::Mat &edges = found->edges[t], &thick = found->thick[t];
        cv::Mat searchEdges = edges, searchThick = thick;
        if (framed) {
            searchEdges = edges.clone();
            searchThick = thick.clone();
            // Each found document with its outline's edge band (a pixel either side): another
            // document may lie within two pixels of it. The sides are refitted on the edges as
            // found, nearest first from where the outline lies: the erased band may take part of
            // the other document's side with it.
            for (const Quad &e : *erase) {
                std::vector<cv::Point> polygon;
                for (const auto &c : e.corner) polygon.emplace_back(cvRound(c.x), cvRound(c.y));
                cv::fillConvexPoly(searchThick, polygon, cv::Scalar(0));
                cv::polylines(searchThick, polygon, true, cv::Scalar(0), 3);
            }
            // Sides on the border refine onto it.
            cv::rectangle(searchEdges, cv::Rect(0, 0, edges.cols, edges.rows), cv::Scalar(255), 1);
        }
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(searchThick, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
        std::vector<Quad> rough;
        const int right = edges.cols - 1, bottom = edges.rows - 1;
        for (const auto &contour : contours) {
            if (cv::boundingRect(contour).area() < minimumArea) continue;   // cheaper than a hull
            std::vector<cv::Point> hull, polygon;
            cv::convexHull(contour, hull);
            if (framed) {
                bool left = false, top = false, rightSide = false, bottomSide = false;
                for (const auto &p : hull) {
                    left = left || p.x <= 1;
                    top = top || p.y <= 1;
                    rightSide = rightSide || p.x >= right - 1;
                    bottomSide = bottomSide || p.y >= bottom - 1;
                }
                std::vector<cv::Point> closed = hull;
                if (top && left) closed.emplace_back(0, 0);
                if (top && rightSide) closed.emplace_back(right, 0);
                if (bottomSide && rightSide) closed.emplace_back(right, bottom);
                if (bottomSide && left) closed.emplace_back(0, bottom);
                if (closed.size() == hull.size()) continue;   // no corner: the plain search's
                cv::convexHull(closed, hull);
            }
            if (cv::contourArea(hull) < minimumArea) continue;
            double perimeter = cv::arcLength(hull, true);
            for (double epsilon = 0.02; epsilon <= 0.1; epsilon += 0.02) {
                cv::approxPolyDP(hull, polygon, epsilon * perimeter, true);
                if (polygon.size() <= 4) break;
            }
            if (polygon.size() != 4 || !cv::isContourConvex(polygon)) continue;
            Quad q;
            for (int i = 0; i < 4; i++) q.corner[i] = cv::Point2d(polygon[i].x, polygon[i].y);
            // The same outline comes from the inner and outer contours of one edge ring: refine it once.
            bool seen = false;
            for (const auto &r : rough) seen = seen || same_quad(q, r, 0.01 * diagonal);
            if (seen) continue;
            rough.push_back(q);
            // Outlines whose sides mostly miss the edges (a hull around scattered text) are not refined.
            refine(searchEdges, q, std::max(3.0, 0.012 * diagonal));
            q.area = quad_area(q);
            if (q.area < minimumArea) continue;
            int mask = framed ? border_sides(q, edges.cols, edges.rows) : 0;
            if (framed && (mask == 0 || mask == 15)) continue;   // found by the plain search, or the frame itself
            q.cut = mask;
            if (mask == 0) {
                q.support = edge_support(thick, q);
                q.weakest = weakest_side(thick, q);
            } else {
                int hits = 0, total = 0;
                q.weakest = 1;
                for (int s = 0; s < 4; s++) {
                    if (mask & (1 << s)) continue;
                    int h = 0, n = 0;
                    count_side(thick, q, s, h, n);
                    hits += h;
                    total += n;
                    q.weakest = std::min(q.weakest, n > 0 ? static_cast<double>(h) / n : 0.0);
                }
                q.support = total > 0 ? static_cast<double>(hits) / total : 0;
            }
            bool duplicate = false;
            for (auto &other : kept) {
                if (same_quad(q, other, 0.02 * diagonal)) {
                    if (q.support > other.support) other = q;
                    duplicate = true;
                    break;
                }
            }
            if (!duplicate) kept.push_back(q);
        }
    }
    std::sort(kept.begin(), kept.end(), [](const Quad &a, const Quad &b) { return a.support > b.support; });
    return kept;
}

int32_t write_quads(const idk_edges *found, const std::vector<Quad> &kept, double *quads,
                    double *support, double *weakest, int32_t *cutSides, int32_t capacity) {
    double scale = found->scale;
    int count = std::min(capacity, static_cast<int32_t>(kept.size()));
    for (int k = 0; k < count; k++) {
        for (int i = 0; i < 4; i++) {
            quads[8 * k + 2 * i] = kept[k].corner[i].x / scale;
            quads[8 * k + 2 * i + 1] = kept[k].corner[i].y / scale;
        }
        support[k] = kept[k].support;
        weakest[k] = kept[k].weakest;
        if (cutSides != nullptr) cutSides[k] = kept[k].cut;
    }
    return count;
}

}  // namespace

extern "C" int32_t idk_document_quads(const idk_edges *found, double minimumShare, double *quads, double *support,
                                      double *weakest, int32_t capacity, char *error, size_t errorCapacity) {
    return guarded(error, errorCapacity, [&]() -> int32_t {
        if (found == nullptr || quads == nullptr || support == nullptr || weakest == nullptr || capacity <= 0) {
            write_error(error, errorCapacity, "bad arguments");
            return -1;
        }
        return write_quads(found, find_quads(found, minimumShare, nullptr), quads, support, weakest, nullptr, capacity);
    });
}

extern "C" int32_t idk_cut_document_quads(const idk_edges *found, double minimumShare, const double *known, int32_t knownCount,
                                          double *quads, double *support, double *weakest, int32_t *cutSides,
                                          int32_t capacity, char *error, size_t errorCapacity) {
    return guarded(error, errorCapacity, [&]() -> int32_t {
        if (found == nullptr || quads == nullptr || support == nullptr || weakest == nullptr || cutSides == nullptr
            || capacity <= 0 || knownCount < 0 || (knownCount > 0 && known == nullptr)) {
            write_error(error, errorCapacity, "bad arguments");
            return -1;
        }
        std::vector<Quad> erase(knownCount);
        for (int k = 0; k < knownCount; k++) {
            for (int i = 0; i < 4; i++) erase[k].corner[i] = cv::Point2d(known[8 * k + 2 * i] * found->scale, known[8 * k + 2 * i + 1] * found->scale);
        }
        return write_quads(found, find_quads(found, minimumShare, &erase), quads, support, weakest, cutSides, capacity);
    });
}

extern "C" double idk_interior_edge_share(const idk_edges *found, const double *corners) {
    char ignored[8];
    double share = -1;
    guarded(ignored, sizeof ignored, [&]() -> int32_t {
        if (found == nullptr || corners == nullptr) return -1;
        const cv::Mat &edges = found->edges[0];
        cv::Point2d c[4], center(0, 0);
        for (int i = 0; i < 4; i++) {
            c[i] = cv::Point2d(corners[2 * i] * found->scale, corners[2 * i + 1] * found->scale);
            center += c[i] * 0.25;
        }
        // The interior without its outer tenth (the outline's own edges, a card's rounded corners).
        std::vector<cv::Point> polygon;
        for (const auto &p : c) {
            cv::Point2d q = center + (p - center) * 0.8;
            polygon.emplace_back(cvRound(q.x), cvRound(q.y));
        }
        cv::Mat mask = cv::Mat::zeros(edges.size(), CV_8UC1);
        cv::fillConvexPoly(mask, polygon, cv::Scalar(255));
        double inside = cv::countNonZero(mask);
        if (inside < 1) return -1;
        cv::Mat on;
        cv::bitwise_and(edges, mask, on);
        share = cv::countNonZero(on) / inside;
        return 0;
    });
    return share;
}

extern "C" int32_t idk_warp_quad(const uint8_t *pixels, int32_t width, int32_t height, int32_t channels,
                                 const double *corners, uint8_t *out, int32_t outWidth, int32_t outHeight,
                                 char *error, size_t errorCapacity) {
    return guarded(error, errorCapacity, [&]() -> int32_t {
        if (pixels == nullptr || corners == nullptr || out == nullptr || width <= 0 || height <= 0 || outWidth <= 0 ||
            outHeight <= 0 || (channels != 1 && channels != 3)) {
            write_error(error, errorCapacity, "bad arguments");
            return -1;
        }
        int type = channels == 1 ? CV_8UC1 : CV_8UC3;
        cv::Mat source(height, width, type, const_cast<uint8_t *>(pixels));
        cv::Mat target(outHeight, outWidth, type, out);
        cv::Point2f from[4], to[4] = {{0, 0}, {static_cast<float>(outWidth), 0},
                                      {static_cast<float>(outWidth), static_cast<float>(outHeight)},
                                      {0, static_cast<float>(outHeight)}};
        for (int i = 0; i < 4; i++) from[i] = cv::Point2f(static_cast<float>(corners[2 * i]), static_cast<float>(corners[2 * i + 1]));
        cv::Mat transform = cv::getPerspectiveTransform(from, to);
        cv::warpPerspective(source, target, transform, target.size(), cv::INTER_AREA, cv::BORDER_CONSTANT,
                            cv::Scalar::all(255));
        if (target.data != out) {
            write_error(error, errorCapacity, "OpenCV reallocated the output");
            return -1;
        }
        return 0;
    });
}

extern "C" int32_t idk_warp_gray(const uint8_t *pixels, int32_t width, int32_t height, const double *matrix, uint8_t *out,
                                 int32_t outWidth, int32_t outHeight, uint8_t fill, int32_t cubic) {
    char ignored[8];
    return guarded(ignored, sizeof ignored, [&]() -> int32_t {
        if (pixels == nullptr || matrix == nullptr || out == nullptr || width <= 0 || height <= 0 || outWidth <= 0 || outHeight <= 0) return -1;
        cv::Mat source(height, width, CV_8UC1, const_cast<uint8_t *>(pixels));
        cv::Mat target(outHeight, outWidth, CV_8UC1, out);
        cv::Mat m(3, 3, CV_64F, const_cast<double *>(matrix));
        const int flags = (cubic ? cv::INTER_CUBIC : cv::INTER_LINEAR) | cv::WARP_INVERSE_MAP;
        if (matrix[6] == 0 && matrix[7] == 0 && matrix[8] == 1) {
            // An affine map (the 2x enlargement of a small image): warpAffine samples the same
            // pixels without a division per pixel, in 40% less time.
            cv::warpAffine(source, target, m.rowRange(0, 2), target.size(), flags, cv::BORDER_CONSTANT, cv::Scalar::all(fill));
        } else {
            cv::warpPerspective(source, target, m, target.size(), flags, cv::BORDER_CONSTANT, cv::Scalar::all(fill));
        }
        return target.data == out ? 0 : -1;
    });
}

extern "C" int32_t idk_remap_gray(const uint8_t *pixels, int32_t width, int32_t height, const float *mapX, const float *mapY,
                                  uint8_t *out, int32_t outWidth, int32_t outHeight, uint8_t fill) {
    char ignored[8];
    return guarded(ignored, sizeof ignored, [&]() -> int32_t {
        if (pixels == nullptr || mapX == nullptr || mapY == nullptr || out == nullptr || width <= 0 || height <= 0
            || outWidth <= 0 || outHeight <= 0) return -1;
        cv::Mat source(height, width, CV_8UC1, const_cast<uint8_t *>(pixels));
        cv::Mat target(outHeight, outWidth, CV_8UC1, out);
        cv::Mat xs(outHeight, outWidth, CV_32FC1, const_cast<float *>(mapX));
        cv::Mat ys(outHeight, outWidth, CV_32FC1, const_cast<float *>(mapY));
        cv::remap(source, target, xs, ys, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(fill));
        return target.data == out ? 0 : -1;
    });
}

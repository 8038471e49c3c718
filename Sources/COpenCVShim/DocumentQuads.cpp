// Document outlines and perspective crops with OpenCV's imgproc (see include/COpenCVShim.h).
#include "COpenCVShim.h"
#include "Guarded.hpp"
#include "QuadGeometry.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <memory>
#include <cmath>
#include <vector>

using idk::guarded;
using idk::write_error;

namespace idk::quads {

// Used in this file alone.
namespace {

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
/// How many times the gray's step the colors' must be to take its place: in a colored pattern
/// (a passport's guilloches) both step, and the gray's edges stay.
const int kColorOverGray = 2;

}  // namespace

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

/// Each side refitted to the edge pixels found across it (the nearest within `reach` of the
/// side, over its middle 80%), by a robust line fit; the corners are where neighboring sides
/// meet. A rounded corner's true corner is where its straight sides meet, which a polygon
/// approximation of the contour cuts off.
bool refine(const cv::Mat &edges, Quad &q, double reach, const cv::Mat *gray, double ground) {
    cv::Vec4f line[4];
    const cv::Point2d center = (q.corner[0] + q.corner[1] + q.corner[2] + q.corner[3]) * 0.25;
    for (int s = 0; s < 4; s++) {
        cv::Point2d a = q.corner[s], b = q.corner[(s + 1) % 4];
        double length = cv::norm(b - a);
        if (length < 8) return false;
        cv::Point2d u = (b - a) / length, normal(-u.y, u.x);
        // Away from the middle: where the background lies beyond the side.
        const cv::Point2d outward = (center - (a + b) * 0.5).dot(normal) > 0 ? -normal : normal;
        // Whether the gray 2 px beyond `p` is the document's own ground.
        auto groundBeyond = [&](cv::Point2d p) {
            if (gray == nullptr) return false;
            const cv::Point2d o = p + outward * 2.0;
            const int x = cvRound(o.x), y = cvRound(o.y);
            // Near the frame the page may run on beyond its last edge pixels (a scan cropped to it).
            if (x < 3 || y < 3 || x >= gray->cols - 3 || y >= gray->rows - 3) return false;
            return std::fabs(gray->at<uint8_t>(y, x) - ground) <= groundTolerance;
        };
        std::vector<cv::Point2f> found;
        for (double d = 0.1 * length; d <= 0.9 * length; d += 1) {
            cv::Point2d base = a + u * d;
            for (int k = 0; k <= static_cast<int>(reach); k++) {
                bool hit = false;
                for (int sign : {1, -1}) {
                    cv::Point2d p = base + normal * (sign * k);
                    int x = static_cast<int>(cvRound(p.x)), y = static_cast<int>(cvRound(p.y));
                    if (x >= 0 && y >= 0 && x < edges.cols && y < edges.rows && edges.at<uint8_t>(y, x) != 0 && !groundBeyond(p)) {
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

double interior_median(const cv::Mat &gray, const Quad &q) {
    const cv::Point2d center = (q.corner[0] + q.corner[1] + q.corner[2] + q.corner[3]) * 0.25;
    std::vector<cv::Point> polygon;
    for (const auto &p : q.corner) {
        const cv::Point2d r = center + (p - center) * 0.8;
        polygon.emplace_back(cvRound(r.x), cvRound(r.y));
    }
    // Only the polygon's bounding box is masked and counted: a small candidate costs its own area,
    // not the image's.
    const cv::Rect box = cv::boundingRect(polygon) & cv::Rect(0, 0, gray.cols, gray.rows);
    if (box.area() <= 0) return -1;
    for (auto &p : polygon) p -= box.tl();
    cv::Mat mask = cv::Mat::zeros(box.size(), CV_8UC1);
    cv::fillConvexPoly(mask, polygon, cv::Scalar(255));
    const cv::Mat inside = gray(box);
    int histogram[256] = {0}, total = 0;
    for (int y = 0; y < inside.rows; y++) {
        const uint8_t *g = inside.ptr<uint8_t>(y), *m = mask.ptr<uint8_t>(y);
        for (int x = 0; x < inside.cols; x++) {
            if (m[x] != 0) {
                histogram[g[x]]++;
                total++;
            }
        }
    }
    if (total < 16) return -1;
    int median = 0;
    for (int seen = 0; median < 255 && (seen += histogram[median]) * 2 < total; median++) {}
    return median;
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

}  // namespace idk::quads

using namespace idk::quads;

namespace {

/// Where the colors step more than ``kColorOverGray`` times the gray (`dx`, `dy`: the gray's
/// Sobel gradients at the edges' scale), their gradient instead: a card on a desk or a lid of
/// nearly its own gray but another hue has no edge in the gray at all. The two opponent channels
/// of the RGB image (`rgb`, `width` × `height`, resized and smoothed as the gray), red less green
/// and blue less their mean; at each pixel the channel whose gradient is the larger gives it.
void take_color_gradients(const uint8_t *rgb, int32_t width, int32_t height, double scale, cv::Mat &dx, cv::Mat &dy) {
    cv::Mat source(height, width, CV_8UC3, const_cast<uint8_t *>(rgb)), small;
    // Linear rather than area averaging: the smoothing after it does the averaging, at a third of
    // the cost on a three-channel image.
    if (scale < 1) {
        cv::resize(source, small, dx.size(), 0, 0, cv::INTER_LINEAR);
    } else {
        small = source;
    }
    cv::Mat rgbPlanes[3], mean, opponent[2];
    cv::split(small, rgbPlanes);
    // Centered on 128 in 8 bits (the fast fixed-point smoothing and Sobel the gray has): a
    // difference of more than 127 levels, only between saturated colors, is clipped there and
    // still steps by that much.
    cv::addWeighted(rgbPlanes[0], 1, rgbPlanes[1], -1, 128, opponent[0]);
    cv::addWeighted(rgbPlanes[0], 0.5, rgbPlanes[1], 0.5, 0, mean);
    cv::addWeighted(mean, 1, rgbPlanes[2], -1, 128, opponent[1]);
    const int64_t least = kColorOverGray * kColorOverGray;
    for (cv::Mat &channel : opponent) {
        cv::Mat cx, cy;
        cv::GaussianBlur(channel, channel, cv::Size(5, 5), 0);
        cv::Sobel(channel, cx, CV_16S, 1, 0, 3);
        cv::Sobel(channel, cy, CV_16S, 0, 1, 3);
        for (int y = 0; y < dx.rows; y++) {
            int16_t *gx = dx.ptr<int16_t>(y), *gy = dy.ptr<int16_t>(y);
            const int16_t *ox = cx.ptr<int16_t>(y), *oy = cy.ptr<int16_t>(y);
            for (int x = 0; x < dx.cols; x++) {
                const int64_t gray = int64_t(gx[x]) * gx[x] + int64_t(gy[x]) * gy[x];
                const int64_t step = int64_t(ox[x]) * ox[x] + int64_t(oy[x]) * oy[x];
                if (step > least * gray) {
                    gx[x] = ox[x];
                    gy[x] = oy[x];
                }
            }
        }
    }
}

}  // namespace

extern "C" idk_edges *idk_edges_new(const uint8_t *gray, int32_t width, int32_t height, char *error, size_t errorCapacity) {
    return idk_edges_new_color(gray, nullptr, width, height, error, errorCapacity);
}

extern "C" idk_edges *idk_edges_new_color(const uint8_t *gray, const uint8_t *rgb, int32_t width, int32_t height, char *error,
                                          size_t errorCapacity) {
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
        if (rgb != nullptr) take_color_gradients(rgb, width, height, made->scale, dx, dy);
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
            // Each side refitted on the edge pixels near it with the background beyond them, not
            // the document's own ground: a header's first letter near a corner has the ground
            // beyond it, and an outline whose contour ran through it keeps that corner on the letter.
            // Where a side has too few such pixels (a document on a background of its own shade),
            // on every edge pixel near it.
            const double reach = std::max(3.0, 0.012 * diagonal), ground = interior_median(found->blurred, q);
            if (!(ground >= 0 && refine(searchEdges, q, reach, &found->blurred, ground))) refine(searchEdges, q, reach);
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

extern "C" double idk_edges_pixel(const idk_edges *found) { return found == nullptr || found->scale <= 0 ? 1 : 1 / found->scale; }

extern "C" double idk_convex_overlap(const double *a, const double *b) {
    char ignored[8];
    double area = -1;
    guarded(ignored, sizeof ignored, [&]() -> int32_t {
        if (a == nullptr || b == nullptr) return -1;
        std::vector<cv::Point2f> p, q, shared;
        for (int i = 0; i < 4; i++) {
            p.emplace_back(static_cast<float>(a[2 * i]), static_cast<float>(a[2 * i + 1]));
            q.emplace_back(static_cast<float>(b[2 * i]), static_cast<float>(b[2 * i + 1]));
        }
        area = std::max(0.0, static_cast<double>(cv::intersectConvexConvex(p, q, shared, true)));
        return 0;
    });
    return area;
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

// Snapping an outline placed from an MRZ onto the document's own sides (see include/COpenCVShim.h).
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
using namespace idk::quads;

namespace {

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

/// Whether the segment a-b runs within 2.5 px of a border of an image `cols` × `rows` at both
/// ends or at its middle: on the line the snapping draws along the border (2 px thick).
bool near_border(cv::Point2d a, cv::Point2d b, int cols, int rows) {
    cv::Point2d m = (a + b) * 0.5;
    auto close = [&](cv::Point2d p) {
        return p.x < 2.5 || p.y < 2.5 || p.x > cols - 3.5 || p.y > rows - 3.5;
    };
    return border_of(a, b, cols, rows) >= 0 || close(m) || (close(a) && close(b));
}

/// Whether the segment a-b runs within 2.5 px of one border of an image `cols` × `rows` at both
/// ends, or at its middle: a side that runs from one border to the one opposite (a card across
/// the frame, its corners cut) is not along either.
bool along_one_border(cv::Point2d a, cv::Point2d b, int cols, int rows) {
    const double near = 2.5;
    auto by = [&](cv::Point2d p, int k) {
        switch (k) {
        case 0: return p.x < near;
        case 1: return p.x > cols - 1 - near;
        case 2: return p.y < near;
        default: return p.y > rows - 1 - near;
        }
    };
    cv::Point2d m = (a + b) * 0.5;
    for (int k = 0; k < 4; k++) {
        if ((by(a, k) && by(b, k)) || by(m, k)) return true;
    }
    return false;
}

/// The segment a-b clipped to an image `cols` × `rows` less a 3 px margin (Liang–Barsky): false
/// where none of it lies inside.
bool clip_to_frame(cv::Point2d &a, cv::Point2d &b, int cols, int rows) {
    const double lo[2] = {3, 3}, hi[2] = {cols - 4.0, rows - 4.0};
    const double from[2] = {a.x, a.y}, d[2] = {b.x - a.x, b.y - a.y};
    double t0 = 0, t1 = 1;
    for (int k = 0; k < 2; k++) {
        if (std::fabs(d[k]) < 1e-12) {
            if (from[k] < lo[k] || from[k] > hi[k]) return false;
            continue;
        }
        double u = (lo[k] - from[k]) / d[k], v = (hi[k] - from[k]) / d[k];
        if (u > v) std::swap(u, v);
        t0 = std::max(t0, u);
        t1 = std::min(t1, v);
    }
    if (t0 >= t1) return false;
    cv::Point2d p = a, q = b;
    a = p + (q - p) * t0;
    b = p + (q - p) * t1;
    return true;
}

/// The unit normal of the segment a-b that points to `center`'s side of it.
cv::Point2d inward_normal(cv::Point2d a, cv::Point2d b, cv::Point2d center) {
    const cv::Point2d u = (b - a) / std::max(1e-9, cv::norm(b - a)), normal(-u.y, u.x);
    return (center - (a + b) * 0.5).dot(normal) < 0 ? -normal : normal;
}

/// The least mean step (gray levels) between a card and its background for the card's other side
/// to be held to the same step; a card on a background of nearly its own gray is not.
const double minimumCardContrast = 6;
/// The share of the card's own step that a side of its other side must show, the same way round.
const double sideContrastShare = 0.3;

/// Whether a side's step `contrast` goes the way of the card's `expected` one, by at least
/// ``sideContrastShare`` of it.
bool steps_like(double contrast, double expected) {
    return !std::isnan(contrast) && contrast * (expected > 0 ? 1 : -1) >= sideContrastShare * std::fabs(expected);
}

/// How much lighter the smoothed gray is `depth` px to the `inward` side of the segment a-b than
/// as far to the other, averaged over the points of its middle 80% where both lie in the image;
/// NaN where none do. The sign says which way the document steps against its background.
double side_contrast(const cv::Mat &gray, cv::Point2d a, cv::Point2d b, cv::Point2d inward, double depth) {
    const double length = cv::norm(b - a);
    const int n = std::max(8, static_cast<int>(length));
    double sum = 0;
    int count = 0;
    for (int i = 0; i <= n; i++) {
        const cv::Point2d p = a + (b - a) * (0.1 + 0.8 * i / n), in = p + inward * depth, out = p - inward * depth;
        const int xi = cvRound(in.x), yi = cvRound(in.y), xo = cvRound(out.x), yo = cvRound(out.y);
        if (xi < 0 || yi < 0 || xo < 0 || yo < 0 || xi >= gray.cols || xo >= gray.cols || yi >= gray.rows || yo >= gray.rows) continue;
        sum += static_cast<double>(gray.at<uint8_t>(yi, xi)) - gray.at<uint8_t>(yo, xo);
        count++;
    }
    return count == 0 ? std::nan("") : sum / count;
}

/// How the quadrilateral `q` steps against its background along its sides in the frame: the mean
/// of ``side_contrast`` over its sides (inner side minus outer, 2 px deep) that lie at least half
/// inside, but the one facing `away` (a neighbour a gap of a few pixels away shows through
/// there); NaN where none does.
double outline_contrast(const cv::Mat &gray, const cv::Point2d *q, int cols, int rows, cv::Point2d away) {
    const cv::Point2d center = (q[0] + q[1] + q[2] + q[3]) * 0.25;
    // The side whose outward normal points most nearly at `away`.
    int facing = 0;
    double most = -1e300;
    for (int s = 0; s < 4; s++) {
        const double toward = -inward_normal(q[s], q[(s + 1) % 4], center).dot(away - center);
        if (toward > most) {
            most = toward;
            facing = s;
        }
    }
    double sum = 0;
    int count = 0;
    for (int s = 0; s < 4; s++) {
        if (s == facing) continue;
        cv::Point2d a = q[s], b = q[(s + 1) % 4];
        const double length = cv::norm(b - a);
        if (length < 8 || !clip_to_frame(a, b, cols, rows) || 2 * cv::norm(b - a) < length) continue;
        const double c = side_contrast(gray, a, b, inward_normal(a, b, center), 2);
        if (std::isnan(c)) continue;
        sum += c;
        count++;
    }
    return count == 0 ? std::nan("") : sum / count;
}


/// The edge images a side is counted on: the edges with the image's border drawn in, and the
/// image's own.
struct SideEdges {
    const cv::Mat &framed, &plain;
};

/// How many points along the middle 80% of the segment a-b (as ``count_on_edges``) lie on edges:
/// on the border drawn in only where the segment runs along it (a side the frame cuts). A side
/// crossing the border at a slant (a page a few pixels inside the frame at one corner, at the
/// border at the next) would otherwise take the drawn line's pixels where it crosses it for its
/// own, and outscore the document's faint side a few pixels further in.
int count_on_edges(const SideEdges &e, cv::Point2d a, cv::Point2d b) {
    return idk::quads::count_on_edges(border_of(a, b, e.framed.cols, e.framed.rows) >= 0 ? e.framed : e.plain, a, b);
}

/// The evidence for a side along the segment a-b: the points on edges or on one step, whichever
/// more.
int count_on_side(const SideEdges &thick, const cv::Mat &gray, cv::Point2d a, cv::Point2d b) {
    return std::max(count_on_edges(thick, a, b), count_on_step(gray, a, b));
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
    if (gray.cols < 2 || gray.rows < 2 || p.x < 0 || p.y < 0 || p.x > gray.cols - 1 || p.y > gray.rows - 1) return -1;
    int x = std::min(static_cast<int>(p.x), gray.cols - 2), y = std::min(static_cast<int>(p.y), gray.rows - 2);
    double fx = p.x - x, fy = p.y - y;
    auto v = [&](int xx, int yy) { return static_cast<double>(gray.at<uint8_t>(yy, xx)); };
    return (v(x, y) * (1 - fx) + v(x + 1, y) * fx) * (1 - fy) + (v(x, y + 1) * (1 - fx) + v(x + 1, y + 1) * fx) * fy;
}

/// The summed step across the segment a-b over its middle 80%: the gray 1.5 px to its right (of a
/// walk from a to b, in image coordinates, y down) less the gray 1.5 px to its left.
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

/// The share of a snapped outline's sides on edges (or, for a side the snapping found on a step
/// of the gray, on edges or that step: ``count_on_side``), and in `weakest` that share on its
/// worst side seen (a side placed by the format from the three others, ``Quad/byFormat``, is
/// not).
double snapped_support(const SideEdges &thick, const cv::Mat &gray, const Quad &q, double &weakest) {
    int hits = 0, total = 0;
    weakest = 1;
    for (int s = 0; s < 4; s++) {
        int sideHits = 0, sideTotal = 0;
        if ((q.stepped >> s) & 1) {
            cv::Point2d a = q.corner[s], b = q.corner[(s + 1) % 4];
            sideTotal = std::max(8, static_cast<int>(cv::norm(b - a))) + 1;
            sideHits = count_on_side(thick, gray, a, b);
        } else {
            const int cols = thick.framed.cols, rows = thick.framed.rows;
            count_side(border_of(q.corner[s], q.corner[(s + 1) % 4], cols, rows) >= 0 ? thick.framed : thick.plain, q, s, sideHits, sideTotal);
        }
        hits += sideHits;
        total += sideTotal;
        if (s != q.byFormat) weakest = std::min(weakest, sideTotal > 0 ? static_cast<double>(sideHits) / sideTotal : 0);
    }
    return total > 0 ? static_cast<double>(hits) / total : 0;
}

/// The point where the lines through a1-b1 and a2-b2 meet; false where they are parallel.
bool cross(cv::Point2d a1, cv::Point2d b1, cv::Point2d a2, cv::Point2d b2, cv::Point2d &at) {
    cv::Point2d d1 = b1 - a1, d2 = b2 - a2;
    double det = d1.x * d2.y - d1.y * d2.x;
    if (std::fabs(det) < 1e-6) return false;
    double t = ((a2.x - a1.x) * d2.y - (a2.y - a1.y) * d2.x) / det;
    at = a1 + d1 * t;
    return true;
}

/// Side `weak` where the format puts it from the three others (``faint_side_by_format``): the
/// line through `from`-`to` (in the direction of a[weak]-b[weak]), `normal` pointing inside, and
/// whether the three sides are square within a degree (a flat scan, a photo taken square on:
/// under perspective the side opposite is not parallel at the format's distance). False where
/// two of them are parallel.
bool format_side(const cv::Point2d *a, const cv::Point2d *b, const Quad &q, cv::Point2d center, int weak,
                 cv::Point2d &from, cv::Point2d &to, cv::Point2d &normal, bool &square) {
    const int o = (weak + 2) % 4, n1 = (weak + 1) % 4, n3 = (weak + 3) % 4;
    cv::Point2d p1, p3;
    if (!cross(a[o], b[o], a[n1], b[n1], p1) || !cross(a[o], b[o], a[n3], b[n3], p3)) return false;
    auto direction = [&](int s) { cv::Point2d d = b[s] - a[s]; return d / std::max(1e-9, cv::norm(d)); };
    const double degree = std::sin(CV_PI / 180);
    auto sine = [](cv::Point2d x, cv::Point2d y) { return std::fabs(x.x * y.y - x.y * y.x); };
    square = sine(direction(n1), direction(n3)) <= degree && std::fabs(direction(n1).dot(direction(o))) <= degree
        && std::fabs(direction(n3).dot(direction(o))) <= degree;
    // The placed outline's width and height: the format's ratio.
    double width = (cv::norm(q.corner[1] - q.corner[0]) + cv::norm(q.corner[3] - q.corner[2])) / 2;
    double height = (cv::norm(q.corner[2] - q.corner[1]) + cv::norm(q.corner[0] - q.corner[3])) / 2;
    double along = cv::norm(p3 - p1);
    if (width < 8 || height < 8 || along < 8) return false;
    double across = weak % 2 == 0 ? along * height / width : along * width / height;
    cv::Point2d u = (p3 - p1) / along;
    normal = cv::Point2d(-u.y, u.x);
    if ((center - p1).dot(normal) < 0) normal = -normal;
    from = p1 + normal * across;
    to = p3 + normal * across;
    if ((to - from).dot(b[weak] - a[weak]) < 0) std::swap(from, to);
    return true;
}

/// The position within 2 px of the line from-to (moved along `normal`) on edges or a step along
/// a third of its `samples` or more and on more than `floor` points, clear of `keep` and of a
/// refused border: its points on evidence (0 for none), its ends, and whether a step rather than
/// edges showed it.
template <typename Refused>
int shown_near(const SideEdges &thick, const cv::Mat &gray, cv::Point2d center, const cv::Point2d *keep, Refused refused, int side,
               cv::Point2d from, cv::Point2d to, cv::Point2d normal, int samples, int floor,
               cv::Point2d &bestFrom, cv::Point2d &bestTo, bool &stepped) {
    int best = 0;
    for (int k = -2; k <= 2; k++) {
        cv::Point2d f = from + normal * k, t = to + normal * k;
        if (keep != nullptr && !clears(f, t, center, keep, 4)) continue;
        if (refused(side, f, t)) continue;
        int hits = count_on_edges(thick, f, t), steps = count_on_step(gray, f, t);
        int found = std::max(hits, steps);
        if (3 * found >= samples && found > floor && found > best) {
            best = found;
            stepped = steps > hits;
            bestFrom = f;
            bestTo = t;
        }
    }
    return best;
}

/// Where the snapping found one side `faint` (on edges along less than half of it: a page's
/// faint side under a scanner lid's shadow or on a pattern of its own gray; or on a border it
/// was not placed along) and the three others not, that side placed where the format puts it from
/// the three: parallel to its opposite side, at the distance the placed outline's width-to-height
/// ratio (the format's, ICAO 9303) gives for the length the two others cut from the opposite
/// side, within 2 px (``format_side``). Taken where it runs on edges or a step along a third of
/// its length or more, and more than where the search put it: the image shows the side where the
/// format puts it. Where it shows nowhere near there, the three others square and the format
/// putting it inside the frame, it is placed there as unseen (``Quad/byFormat``).
///
/// Where no side is faint but the four make an outline well out of the format's shape (its width
/// over height more than 4% off the placed one's: the whole-pixel search's lines, before the
/// refit, are a percent or two off on a small image) while square within a degree, one side lies
/// on something inside or beyond the document (a line of print, a pattern, the other side of a
/// card across the gap): the side whose replacement from the three others the image shows best,
/// along a third of it or more, is replaced.
template <typename Refused>
void faint_side_by_format(const SideEdges &thick, const cv::Mat &gray, Quad &q, cv::Point2d center, const cv::Point2d *keep,
                          cv::Point2d *a, cv::Point2d *b, const bool *faint, const int *evidence, const int *samples, bool *keptOff,
                          Refused refused) {
    int weak = -1;
    for (int s = 0; s < 4; s++) {
        if (!faint[s]) continue;
        if (weak >= 0) return;   // two faint sides: too little to go on
        weak = s;
    }
    cv::Point2d from, to, normal, bestFrom, bestTo;
    bool square = false, stepped = false;
    if (weak < 0) {
        Quad seen = q;
        if (!meet(a, b, seen)) return;
        auto ratio = [](const Quad &r) {
            return (cv::norm(r.corner[1] - r.corner[0]) + cv::norm(r.corner[3] - r.corner[2]))
                / std::max(1e-9, cv::norm(r.corner[2] - r.corner[1]) + cv::norm(r.corner[0] - r.corner[3]));
        };
        if (std::fabs(std::log(ratio(seen) / ratio(q))) <= 0.04) return;
        double bestShare = 0;
        for (int s = 0; s < 4; s++) {
            cv::Point2d f, t, n, sf, st;
            bool sq = false, byStep = false;
            if (!format_side(a, b, q, center, s, f, t, n, sq) || !sq) continue;
            int shown = shown_near(thick, gray, center, keep, refused, s, f, t, n, samples[s], 0, sf, st, byStep);
            double share = static_cast<double>(shown) / samples[s];
            if (shown > 0 && share > bestShare) {
                bestShare = share;
                weak = s;
                bestFrom = sf;
                bestTo = st;
                stepped = byStep;
            }
        }
        if (weak < 0) return;
    } else {
        if (!format_side(a, b, q, center, weak, from, to, normal, square)) return;
        // (A side on the border counts as on nothing there: the border stands for a cut side.)
        const bool onBorder = border_of(a[weak], b[weak], thick.framed.cols, thick.framed.rows) >= 0;
        int shown = shown_near(thick, gray, center, keep, refused, weak, from, to, normal, samples[weak], onBorder ? 0 : evidence[weak],
                               bestFrom, bestTo, stepped);
        if (shown == 0) {
            // Only inside the frame: a side the format puts on or beyond the border is cut by it.
            auto inside = [&](cv::Point2d x) {
                return x.x >= 3 && x.y >= 3 && x.x <= thick.framed.cols - 4 && x.y <= thick.framed.rows - 4;
            };
            if (!square || !inside(from) || !inside(to) || refused(weak, from, to) || (keep != nullptr && !clears(from, to, center, keep, 4))) return;
            a[weak] = from;
            b[weak] = to;
            q.stepped &= ~(1 << weak);
            q.byFormat = weak;
            keptOff[weak] = true;
            return;
        }
    }
    a[weak] = bestFrom;
    b[weak] = bestTo;
    if (stepped) q.stepped |= 1 << weak; else q.stepped &= ~(1 << weak);
    keptOff[weak] = true;
}

/// Each side of an estimated outline moved (up to `farthest` across, tilted up to 3 degrees about its
/// middle) to where the most edge pixels line up (or, for a side too faint for the edges, where a
/// step in the gray runs along it), then refined: for an outline placed from an MRZ by the
/// format's geometry, whose sides are a few percent off. No side is placed through the `keep`
/// points (the MRZ with its margin, 4 points), however many edges its characters give there.
bool snap(const cv::Mat &edges, const SideEdges &thick, const cv::Mat &gray, Quad &q, double farthest, const cv::Point2d *keep) {
    cv::Point2d center = (q.corner[0] + q.corner[1] + q.corner[2] + q.corner[3]) * 0.25;
    cv::Point2d a[4], b[4];
    bool keptOff[4] = {false, false, false, false};   // a side found off the border, held off it
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
    bool topFound = false;       // the top side on the document's own edge, not on the border
    int evidence[4] = {0, 0, 0, 0}, samplesOf[4] = {1, 1, 1, 1};   // each side's points on edges or a step, of how many
    double topOffset = 0;        // how far it moved from where it was placed, along its normal
    // A side on the border where the side as placed runs turned against that border (its ends
    // more than 4 px apart in their distance to it, neither beyond it by more than 2 px) may be
    // the page's faint side just inside the frame as well as the frame cutting the document:
    // ``faint_side_by_format`` looks for the former.
    bool turnedInside[4][4];
    for (int s = 0; s < 4; s++) {
        cv::Point2d p = q.corner[s], r = q.corner[(s + 1) % 4], mid = (p + r) * 0.5;
        placedInside[s][0] = mid.x;
        placedInside[s][1] = thick.framed.cols - 1 - mid.x;
        placedInside[s][2] = mid.y;
        placedInside[s][3] = thick.framed.rows - 1 - mid.y;
        double pi[4] = {p.x, thick.framed.cols - 1 - p.x, p.y, thick.framed.rows - 1 - p.y};
        double ri[4] = {r.x, thick.framed.cols - 1 - r.x, r.y, thick.framed.rows - 1 - r.y};
        for (int border = 0; border < 4; border++) {
            turnedInside[s][border] = std::fabs(pi[border] - ri[border]) > 4 && std::min(pi[border], ri[border]) > -2;
        }
    }
    auto borderRefused = [&](int s, int border) {
        return border >= 0 && placedInside[s][border] > borderReach(s);
    };
    for (int s = 0; s < 4; s++) {
        cv::Point2d p = q.corner[s], r = q.corner[(s + 1) % 4];
        double length = cv::norm(r - p);
        if (length < 8) return false;
        cv::Point2d u = (r - p) / length, normal(-u.y, u.x), mid = (p + r) * 0.5;
        auto refused = [&](cv::Point2d from, cv::Point2d to) {
            return borderRefused(s, border_of(from, to, thick.framed.cols, thick.framed.rows));
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
        bool onBorder = coarseScore >= 0 && near_border(coarseMid - u * (length / 2), coarseMid + u * (length / 2), thick.framed.cols, thick.framed.rows);
        // Only a side placed more than 1% of the diagonal inside the border, beyond the issuers'
        // print tolerance (``bordersAllowed``): a scan cropped to the document has the side on the
        // border and its own print lines just inside.
        double placedMargin = 1e9;
        for (int border = 0; border < 4; border++) placedMargin = std::min(placedMargin, placedInside[s][border]);
        // The bottom side, though, is searched off the border where the top side was found on
        // the document's own edge: the format fixes the height (the placement's scale is the
        // MRZ's along its lines), while how far above the bottom edge documents print the MRZ
        // varies by millimeters (the last line's center 7-11 mm on the real TD3 specimens, 5-7 mm
        // on both generators' pages), so the bottom lies as far from where it was placed as the
        // top does. It leaves the border only for its own edge or step there, within 1% of the
        // diagonal.
        bool byTop = false;
        if (onBorder && placedMargin <= 0.01 * diagonal) {
            byTop = s == 2 && topFound;
            onBorder = byTop;
        }
        if (onBorder || (coarseScore >= 0 && 2 * coarseHits < samples && !near_border(coarseMid - u * (length / 2), coarseMid + u * (length / 2), thick.framed.cols, thick.framed.rows))) {
            int inner = 0, innerSteps = 0;
            double innerScore = -1;
            for (int k = -static_cast<int>(reach); k <= static_cast<int>(reach); k++) {
                cv::Point2d c = mid + normal * k;
                cv::Point2d from = c - u * (length / 2), to = c + u * (length / 2);
                if (keep != nullptr && !clears(from, to, center, keep, 4)) continue;
                if (refused(from, to) || near_border(from, to, thick.framed.cols, thick.framed.rows)) continue;
                // (The top's and the bottom's normals point inward, opposite ways: -topOffset here.)
                if (byTop && std::abs(k + topOffset) > std::max(2.0, 0.01 * diagonal)) continue;
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
                if (innerSteps) q.stepped |= 1 << s;
            }
        }
        // A side off the border (found there, or moved there by the search above) stays off it:
        // the fine search below turns it by up to 3 degrees, and near a corner it would reach
        // the border's unbroken line and take it over the document's fainter side.
        cv::Point2d settledMid = mid + normal * coarse;
        keptOff[s] = !near_border(settledMid - u * (length / 2), settledMid + u * (length / 2), thick.framed.cols, thick.framed.rows);
        const bool byStep = (q.stepped >> s) & 1;
        for (int k = coarse - 4; k <= coarse + 4; k++) {
            for (int tilt = -3; tilt <= 3; tilt++) {
                double angle = tilt * CV_PI / 180;
                cv::Point2d v(u.x * std::cos(angle) - u.y * std::sin(angle), u.x * std::sin(angle) + u.y * std::cos(angle));
                cv::Point2d c = mid + normal * k;
                cv::Point2d from = c - v * (length / 2), to = c + v * (length / 2);
                if (keep != nullptr && !clears(from, to, center, keep, 4)) continue;
                if (refused(from, to)) continue;
                if (keptOff[s] && near_border(from, to, thick.framed.cols, thick.framed.rows)) continue;
                int hits = byStep ? count_on_step(gray, from, to) : count_on_edges(thick, from, to);
                if (hits > best || (hits == best && std::abs(k) < std::abs(bestOffset))) {
                    best = hits;
                    bestOffset = k;
                    a[s] = from;
                    b[s] = to;
                }
            }
        }
        if (best < 0) return false;   // every position of this side runs through the keep-out or onto a refused border
        evidence[s] = best;
        samplesOf[s] = samples;
        if (s == 0) {
            topFound = !near_border(a[0], b[0], thick.framed.cols, thick.framed.rows);
            topOffset = bestOffset;
        }
    }
    bool faint[4];
    for (int s = 0; s < 4; s++) {
        int border = border_of(a[s], b[s], thick.framed.cols, thick.framed.rows);
        faint[s] = 2 * evidence[s] < samplesOf[s] || (border >= 0 && turnedInside[s][border]);
    }
    faint_side_by_format(thick, gray, q, center, keep, a, b, faint, evidence, samplesOf, keptOff,
                         [&](int s, cv::Point2d from, cv::Point2d to) { return borderRefused(s, border_of(from, to, thick.framed.cols, thick.framed.rows)); });
    Quad moved = q;
    if (!meet(a, b, moved)) return false;
    Quad refined = moved;
    bool refitted = false;
    // The refit and the settling may pull a side onto the border it was kept off.
    auto onRefusedBorder = [&](const Quad &r) {
        for (int s = 0; s < 4; s++) {
            int border = border_of(r.corner[s], r.corner[(s + 1) % 4], thick.framed.cols, thick.framed.rows);
            if (borderRefused(s, border)
                || (keptOff[s] && near_border(r.corner[s], r.corner[(s + 1) % 4], thick.framed.cols, thick.framed.rows))) return true;
        }
        return false;
    };
    if (refine(edges, refined, 3) && clears_all(refined, keep, 4)) {
        if (!onRefusedBorder(refined)) {
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
        if (meet(a, b, settled) && clears_all(settled, keep, 4) && !onRefusedBorder(settled)) moved = settled;
    }
    q = moved;
    return true;
}

}  // namespace

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
            int bestOnBorder = 5;
            for (int t = 0; t < 2; t++) {
                Quad q;
                for (int i = 0; i < 4; i++) q.corner[i] = cv::Point2d(c[2 * i] * scale, c[2 * i + 1] * scale);
                const SideEdges sides{framedThick[t], found->thick[t]};
                if (!snap(framedEdges[t], sides, found->blurred, q, std::max(4.0, reach * diagonal), keepout != nullptr ? keep : nullptr)) continue;
                double weakestHere = 1;
                q.support = snapped_support(sides, found->blurred, q, weakestHere);
                // Of two outlines with every side supported, the one with fewer sides on the
                // border: the border drawn in stands for a side the frame cuts, and supports it
                // all along, where the document's own side is a few pixels inside and fainter
                // (found by the other hysteresis threshold's edges only).
                int onBorder = 0;
                for (int s = 0; s < 4; s++) onBorder += border_of(q.corner[s], q.corner[(s + 1) % 4], framedThick[t].cols, framedThick[t].rows) >= 0;
                bool bothSeen = weakestHere >= 0.5 && bestWeakest >= 0.5 && best.support >= 0;
                if (bothSeen ? (onBorder < bestOnBorder || (onBorder == bestOnBorder && q.support > best.support)) : q.support > best.support) {
                    best = q;
                    bestWeakest = weakestHere;
                    bestOnBorder = onBorder;
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

extern "C" int32_t idk_confirm_placed(const idk_edges *found, double *corners, double reach, double turn, const double *beside,
                                      double besideMargin, double *shares, int32_t *cutSides, char *error, size_t errorCapacity) {
    return guarded(error, errorCapacity, [&]() -> int32_t {
        if (found == nullptr || corners == nullptr || shares == nullptr || cutSides == nullptr || !(reach >= 0) || !(turn >= 0) || turn > 10
            || !(besideMargin >= 0)) {
            write_error(error, errorCapacity, "bad arguments");
            return -1;
        }
        const double scale = found->scale;
        const cv::Mat &gray = found->blurred;
        const int cols = found->edges[0].cols, rows = found->edges[0].rows;
        Quad q;
        for (int i = 0; i < 4; i++) q.corner[i] = cv::Point2d(corners[2 * i] * scale, corners[2 * i + 1] * scale);
        const Quad placed = q;
        const cv::Point2d center = (q.corner[0] + q.corner[1] + q.corner[2] + q.corner[3]) * 0.25;
        cv::Point2d other[4], otherCenter(0, 0);
        if (beside != nullptr) {
            for (int i = 0; i < 4; i++) {
                other[i] = cv::Point2d(beside[2 * i] * scale, beside[2 * i + 1] * scale);
                otherCenter += other[i] * 0.25;
            }
        }
        // Whether the line f-t (the outline's center on its inner side) leaves the document
        // `beside` wholly outside, `besideMargin` beyond it, where it faces it: the side facing
        // another card is never that card's own edge.
        auto leavesBeside = [&](cv::Point2d f, cv::Point2d t) {
            if (beside == nullptr) return true;
            const double length = std::max(1e-9, cv::norm(t - f));
            cv::Point2d u = (t - f) / length, n(-u.y, u.x);
            if ((center - f).dot(n) < 0) n = -n;
            const double along = (otherCenter - f).dot(u);
            if ((otherCenter - f).dot(n) >= 0 || along < 0 || along > length) return true;
            for (const cv::Point2d &k : other) {
                if ((k - f).dot(n) > -besideMargin * scale) return false;
            }
            return true;
        };
        // Which way the card beside steps against the background (lighter or darker), where it
        // does clearly: a side of its other side steps the same way, which the card's own edge
        // facing it, seen from this side, does not.
        double expected = beside == nullptr ? 0 : outline_contrast(gray, other, cols, rows, center);
        if (std::isnan(expected) || std::fabs(expected) < minimumCardContrast) expected = 0;
        const int wobble = std::max(2, static_cast<int>(std::lround(reach * cv::norm(q.corner[2] - q.corner[0]))));
        // The segment p-r moved along `normal` by up to `within` px (never onto the border) to where
        // the largest share of its points inside the frame lie on edges or a step: that share, p and
        // r moved. Where the frame cuts a corner off (a card across the frame at a slant), the
        // part inside is what the image shows; a position with less than half its length inside
        // is not looked at.
        // With `turn`, also turned about its middle by up to that many degrees, in half degrees.
        const int turns = std::max(0, static_cast<int>(std::floor(2 * turn)));
        auto settle = [&](cv::Point2d &p, cv::Point2d &r, cv::Point2d normal, int within, int turnSteps) {
            double best = 0;
            int bestK = 0, bestTurn = 0;
            const cv::Point2d middle = (p + r) * 0.5;
            auto turned = [&](cv::Point2d x, int steps) {
                const double angle = steps * 0.5 * CV_PI / 180, c = std::cos(angle), sn = std::sin(angle);
                cv::Point2d d = x - middle;
                return middle + cv::Point2d(c * d.x - sn * d.y, sn * d.x + c * d.y);
            };
            for (int j = -turnSteps; j <= turnSteps; j++) {
                const cv::Point2d tp = turned(p, j), tr = turned(r, j);
                for (int k = -within; k <= within; k++) {
                    cv::Point2d f = tp + normal * k, t = tr + normal * k;
                    if (!leavesBeside(f, t)) continue;
                    const double length = cv::norm(t - f);
                    if (!clip_to_frame(f, t, cols, rows) || 2 * cv::norm(t - f) < length) continue;
                    if (along_one_border(f, t, cols, rows)) continue;
                    const int samples = std::max(8, static_cast<int>(cv::norm(t - f))) + 1;
                    int evidence = std::max({idk::quads::count_on_edges(found->thick[0], f, t), idk::quads::count_on_edges(found->thick[1], f, t),
                                             count_on_step(gray, f, t)});
                    double share = static_cast<double>(evidence) / samples;
                    const bool better = share > best || (share == best && std::abs(k) + std::abs(j) < std::abs(bestK) + std::abs(bestTurn));
                    // The step's direction judged only where the position would win.
                    if (better && (expected == 0 || steps_like(side_contrast(gray, f, t, normal, 2), expected))) {
                        best = share;
                        bestK = k;
                        bestTurn = j;
                    }
                }
            }
            p = turned(p, bestTurn) + normal * bestK;
            r = turned(r, bestTurn) + normal * bestK;
            return best;
        };
        cv::Point2d a[4], b[4];
        *cutSides = 0;
        for (int s = 0; s < 4; s++) shares[s] = 0;
        for (int s = 0; s < 4; s++) {
            a[s] = q.corner[s];
            b[s] = q.corner[(s + 1) % 4];
            const double length = cv::norm(b[s] - a[s]);
            if (length < 8) return 0;
            const cv::Point2d normal = inward_normal(a[s], b[s], center);
            cv::Point2d inA = a[s], inB = b[s];
            if (!clip_to_frame(inA, inB, cols, rows) || 2 * cv::norm(inB - inA) < length) {
                *cutSides |= 1 << s;
                continue;
            }
            shares[s] = settle(a[s], b[s], normal, wobble, turns);
        }
        // A side shown along under a third near where it was placed (the MRZ placing the page a
        // percent off, a faint side), looked for again 2.5 times as far: taken where it shows
        // along half its length or more.
        for (int s = 0; s < 4; s++) {
            if (3 * shares[s] >= 1 || (*cutSides >> s) & 1) continue;
            cv::Point2d p = a[s], r = b[s];
            double share = settle(p, r, inward_normal(p, r, center), (5 * wobble) / 2, turns);
            if (2 * share >= 1) {
                shares[s] = share;
                a[s] = p;
                b[s] = r;
            }
        }
        // One side shown along under a third where the three others are: the MRZ gives the
        // page's scale a percent or two off on some prints, and the side farthest from it is off
        // the most. It is put where the format puts it from the three (``format_side``) and looked
        // for within 2 px of there.
        int weak = -1, weakCount = 0;
        for (int s = 0; s < 4; s++) {
            if (3 * shares[s] < 1) {
                weak = s;
                weakCount++;
            }
        }
        cv::Point2d from, to, normal;
        bool square = false;
        if (weakCount == 1 && *cutSides == 0 && format_side(a, b, placed, center, weak, from, to, normal, square)) {
            double share = settle(from, to, normal, 2, 0);
            if (share > shares[weak]) {
                shares[weak] = share;
                a[weak] = from;
                b[weak] = to;
            }
        }
        if (!meet(a, b, q)) return 0;
        for (int i = 0; i < 4; i++) {
            corners[2 * i] = q.corner[i].x / scale;
            corners[2 * i + 1] = q.corner[i].y / scale;
        }
        return 0;
    });
}

/// Side `side` of the quadrilateral `corners` (image pixels less the edges' offset) at the edges'
/// scale, clipped to the frame (a, b), with the quadrilateral (q) and its middle; false where the
/// side lies mostly outside the image or is under 8 px long.
static bool side_in_frame(const idk_edges *found, const double *corners, int32_t side, cv::Point2d *q, cv::Point2d &center,
                          cv::Point2d &a, cv::Point2d &b) {
    if (found == nullptr || corners == nullptr || side < 0 || side > 3) return false;
    center = cv::Point2d(0, 0);
    for (int i = 0; i < 4; i++) {
        q[i] = cv::Point2d(corners[2 * i] * found->scale, corners[2 * i + 1] * found->scale);
        center += q[i] * 0.25;
    }
    a = q[side];
    b = q[(side + 1) % 4];
    const double length = cv::norm(b - a);
    return length >= 8 && clip_to_frame(a, b, found->blurred.cols, found->blurred.rows) && 2 * cv::norm(b - a) >= length;
}

extern "C" double idk_side_contrast(const idk_edges *found, const double *corners, int32_t side) {
    char ignored[8];
    double contrast = std::nan("");
    guarded(ignored, sizeof ignored, [&]() -> int32_t {
        cv::Point2d q[4], center, a, b;
        if (!side_in_frame(found, corners, side, q, center, a, b)) return -1;
        contrast = side_contrast(found->blurred, a, b, inward_normal(a, b, center), 2);
        return 0;
    });
    return contrast;
}

extern "C" double idk_side_ground_step(const idk_edges *found, const double *corners, int32_t side, double offset) {
    char ignored[8];
    double step = std::nan("");
    guarded(ignored, sizeof ignored, [&]() -> int32_t {
        cv::Point2d q[4], center, a, b;
        if (!(std::fabs(offset) <= 20) || !side_in_frame(found, corners, side, q, center, a, b)) return -1;
        const cv::Mat &gray = found->blurred;
        // The interior's median gray: the document's own ground, not its print.
        Quad quad;
        for (int i = 0; i < 4; i++) quad.corner[i] = q[i];
        const double median = interior_median(gray, quad);
        if (median < 0) return -1;
        // The mean gray `offset` px inside the side, along its middle 80%.
        const cv::Point2d inward = inward_normal(a, b, center);
        double sum = 0;
        int count = 0;
        const int n = std::max(8, static_cast<int>(cv::norm(b - a)));
        for (int i = 0; i <= n; i++) {
            const cv::Point2d p = a + (b - a) * (0.1 + 0.8 * i / n) + inward * offset;
            const int x = cvRound(p.x), y = cvRound(p.y);
            if (x < 0 || y < 0 || x >= gray.cols || y >= gray.rows) continue;
            sum += gray.at<uint8_t>(y, x);
            count++;
        }
        if (count == 0) return -1;
        step = sum / count - median;
        return 0;
    });
    return step;
}

// The outline search's shared pieces (DocumentQuads.cpp) for the snapping (SnapQuads.cpp):
// internal to the shim, not part of its C interface.
#ifndef COPENCV_SHIM_QUAD_GEOMETRY_HPP
#define COPENCV_SHIM_QUAD_GEOMETRY_HPP

#include <opencv2/core.hpp>

/// The edges of one image at both sensitivities, found once for the outline search and the snapping.
struct idk_edges {
    double scale = 1;
    cv::Mat edges[2], thick[2];
    cv::Mat blurred;   // the gray image the edges were found in, for the snapping's steps
};

namespace idk::quads {

struct Quad {
    cv::Point2d corner[4];
    double support = 0;
    double weakest = 0;   // the support of the worst-supported side
    double area = 0;
    int cut = 0;          // bit s: the side from corner s to corner s+1 lies on the image's border
    int stepped = 0;      // bit s: the snapping found side s on a step of the gray, not on edges
    int byFormat = -1;    // the side the snapping placed by the format from the three others, unseen
};

/// The points along side `s` of `q` (its middle 88%) and those of them on an edge pixel.
void count_side(const cv::Mat &edges, const Quad &q, int s, int &hits, int &total);
/// The share of points along all four sides on edges.
double edge_support(const cv::Mat &edges, const Quad &q);
/// The share of points along side `s` on edges.
double side_support(const cv::Mat &edges, const Quad &q, int s);
/// The share on edges of the worst-supported side.
double weakest_side(const cv::Mat &edges, const Quad &q);
/// Whether every point of `keep` lies on the side of the line through a-b where `inside` lies.
bool clears(cv::Point2d a, cv::Point2d b, cv::Point2d inside, const cv::Point2d *keep, int count);
/// Whether every side of `q` clears the `keep` points.
bool clears_all(const Quad &q, const cv::Point2d *keep, int count);
/// Each side refitted on the edge pixels within `reach` of it; false where a side has too few.
/// With `gray`, only on edge pixels with something other than the document's ground 2 px beyond
/// them (more than ``groundTolerance`` gray levels from `ground`): print inside the document near
/// its side (a header's first letter near a corner) has the ground beyond it, the document's edge
/// the background.
bool refine(const cv::Mat &edges, Quad &q, double reach, const cv::Mat *gray = nullptr, double ground = 0);
/// The median gray of `gray` inside `q` shrunk to 80% about its middle (the document's ground, not
/// its print); -1 where that holds under 16 pixels.
double interior_median(const cv::Mat &gray, const Quad &q);
/// How far from the document's ground the gray beyond its edge must be (``refine``).
constexpr double groundTolerance = 10;
double quad_area(const Quad &q);
/// Whether every corner of `a` has one of `b`'s within `tolerance`.
bool same_quad(const Quad &a, const Quad &b, double tolerance);
/// How many points along the middle 80% of the segment a-b fall on an edge pixel.
int count_on_edges(const cv::Mat &edges, cv::Point2d a, cv::Point2d b);
/// Which border of an image `cols` × `rows` the segment a-b lies along (0 left, 1 right, 2 top,
/// 3 bottom), or -1.
int border_of(cv::Point2d a, cv::Point2d b, int cols, int rows);

}  // namespace idk::quads

#endif

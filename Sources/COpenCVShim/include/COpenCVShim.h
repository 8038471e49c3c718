// A C interface over OpenCV's dnn module (Debian's libopencv-dnn-dev, 4.6), which is C++ only.
//
// Why a shim: as for zxing-cpp (CZXingShim), Swift's C++ interoperability mode would spread to every
// package that depends on IDKit, and a C++ exception crossing into Swift is undefined behavior. So
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
/// (cv::setNumThreads(0)): IDKit's callers parallelize across images.
/// Returns 0, or -1 with a message in `error` when OpenCV threw or the output has another shape.
int32_t idk_dnn_forward(const uint8_t *model, size_t length, const float *input, int32_t count,
                        int32_t height, int32_t width, float *output, int32_t outputsPerItem,
                        char *error, size_t errorCapacity);

/// The edges of a gray image (`width` × `height`, rows packed) for finding document outlines:
/// the image at most 400 pixels along its longer side, smoothed, and OpenCV's Canny edges at two
/// sensitivities (a light card on a light desk has weak edges; on a busy scene strong ones keep the
/// outline apart from the clutter). NULL with a message in `error` on failure. Free with
/// idk_edges_free. Read-only once made: several threads may search one.
typedef struct idk_edges idk_edges;
idk_edges *idk_edges_new(const uint8_t *gray, int32_t width, int32_t height, char *error, size_t errorCapacity);
/// idk_edges_new with the image's colors too (`rgb`, three bytes a pixel, the same size; NULL for
/// none): where its opponent colors (red less green, blue less their mean) step more than twice
/// as much as the gray, their step counts in its place.
idk_edges *idk_edges_new_color(const uint8_t *gray, const uint8_t *rgb, int32_t width, int32_t height, char *error, size_t errorCapacity);
void idk_edges_free(idk_edges *edges);

/// Document outlines: up to `capacity` convex quadrilaterals of at least `minimumShare` of the
/// image area whose sides follow the edges (contours, convex hulls reduced to four corners, each
/// side refitted to the edge pixels across it). Writes 8 doubles per quad to `quads` (x, y of four
/// corners in contour order, image pixels), the share of the sides on edges (0–1) to `support`
/// and that of its worst-supported side to `weakest`, best first. Returns how many, or -1 with a
/// message in `error`.
int32_t idk_document_quads(const idk_edges *edges, double minimumShare, double *quads, double *support,
                           double *weakest, int32_t capacity, char *error, size_t errorCapacity);

/// How many image pixels one pixel of the edges spans (the edges are found on the image reduced to
/// at most 400 pixels across): 1 or more.
double idk_edges_pixel(const idk_edges *edges);

/// The area two convex quadrilaterals share (8 doubles each: x, y of four corners in order around
/// it, either turning direction), in square units of their coordinates (OpenCV's
/// intersectConvexConvex). -1 on bad arguments or when OpenCV throws.
double idk_convex_overlap(const double *a, const double *b);

/// The share of the pixels inside an outline (4 corners, image pixels; its outer tenth left out)
/// that are edges at the lower sensitivity: the print on a document's face. -1 on bad arguments.
double idk_interior_edge_share(const idk_edges *edges, const double *corners);

/// The outlines of documents the image's border cuts, beside the `knownCount` documents already
/// found (8 doubles each in `known`, image pixels), which are erased from the edges first: the
/// search of idk_document_quads, where an outline that meets two borders is closed by the image's
/// corner between them (a document cut on one side only closes as a hull in the plain search),
/// keeping only outlines with one to three sides along the border once refitted.
/// `cutSides[k]` has bit s set where the side from corner s to corner s+1 lies on the border;
/// `support` and `weakest` count the other sides only.
int32_t idk_cut_document_quads(const idk_edges *edges, double minimumShare, const double *known, int32_t knownCount,
                               double *quads, double *support, double *weakest, int32_t *cutSides, int32_t capacity,
                               char *error, size_t errorCapacity);

/// Estimated document outlines (`count` × 8 doubles in `corners`: x, y of four corners in order
/// around each, image pixels) moved onto the edges: each side shifted up to `reach` (a share of the
/// image diagonal; the left and right sides, the second and fourth, at most 2.5% of the outline's
/// diagonal) and tilted up to 3 degrees to where most edge pixels line up, then refitted. A side
/// the edges put on the border or along less than half of it goes where edges or one step in the
/// gray run along at least half of it, off the border, if there is such a place.
/// No side is placed through the 4 points per outline of `keepout` (8 doubles each; NULL: none), the
/// MRZ with its margin: a document's edge never crosses its own MRZ, whose characters are edges too.
/// The image's border counts as an edge (a scan cropped to the document) only for a side placed
/// within 2.5% of the outline's diagonal of it (5% for the first and third sides, the top and
/// bottom as placed from an MRZ).
/// Writes the corners back, the share of the sides on edges (or on their step) to `support` and that of the
/// worst-supported side to `weakest` (0 where no side could be placed; those corners are unchanged).
/// Returns 0, or -1 with a message in `error`.
int32_t idk_snap_quads(const idk_edges *edges, int32_t count, double *corners, const double *keepout, double reach,
                       double *support, double *weakest, char *error, size_t errorCapacity);

/// An outline placed from an MRZ by the format's geometry (8 doubles in `corners`, image pixels,
/// in reading order) checked against the image, without a search: each side moved along its normal
/// by up to `reach` (a share of the outline's diagonal, at least 2 px of the edges' scale) to where
/// the largest share of its points inside the frame (3 px in) lie on edges or on one step of the
/// gray, never along one of the image's borders. `shares[s]` is that side's share there; a side
/// with less than half its length inside the frame (where the format puts it) is cut by the
/// frame: bit s of `cutSides`, share 0, not moved. A side shown along under a third there is
/// looked for again within 2.5 times the reach, and moved there where it shows along half of it. With `turn` (degrees, at most 10), each side is
/// also turned about its middle by up to that much, in half degrees (a card's other side, which
/// lies turned on its own). With `beside` (8 doubles, image pixels, or NULL: the card whose other
/// side this is), a side facing it is only looked for where it leaves that card wholly outside,
/// `besideMargin` pixels or more away, and every side only where it steps against the background
/// the way that card's own sides do (lighter inside or darker, by a third of the card's mean step
/// or more), where the card steps by 6 gray levels or more along its sides in the frame but the one
/// facing the placement. Where one side (none cut) is shown along under a third of it and the three others
/// are not, that side is looked for within 2 px of where the format's width-to-height ratio puts it
/// from the three, and moved there if shown more. Writes the corners where the moved sides meet.
/// Returns 0, or -1 with a message.
int32_t idk_confirm_placed(const idk_edges *edges, double *corners, double reach, double turn, const double *beside,
                           double besideMargin, double *shares, int32_t *cutSides,
                           char *error, size_t errorCapacity);

/// How much lighter the smoothed gray of the edges is 2 px (of the edges' scale) inside side `side`
/// of the quadrilateral `corners` (8 doubles, image pixels less the edges' offset, in order) than
/// as far outside, over the side's middle 80% within the image: which way the document steps
/// against what lies beyond that side. NaN where the side lies mostly outside the image.
double idk_side_contrast(const idk_edges *edges, const double *corners, int32_t side);

/// How much lighter the smoothed gray of the edges is `offset` px (of the edges' scale, at most 20,
/// else NaN; negative: outside) inside side `side` of the quadrilateral `corners` (as idk_side_contrast)
/// than the median gray of its interior (the quadrilateral shrunk to 80% about its middle). Just
/// inside a side on the document's own edge lies the document's ground (near 0) and just outside
/// it the background; a side beyond a gap has the background inside it, one on print inside the
/// document (a portrait's edge) has the ground outside it. NaN where the side lies mostly
/// outside the image.
double idk_side_ground_step(const idk_edges *edges, const double *corners, int32_t side, double offset);

/// `out` (`outWidth` × `outHeight` gray pixels) = `pixels` sampled at `matrix` (3 × 3, row major)
/// applied to each output pixel's integer coordinates (OpenCV's warpPerspective with
/// WARP_INVERSE_MAP), bilinear or (`cubic` 1) bicubic; `fill` outside the source. Returns 0, or -1
/// when OpenCV threw (out unchanged).
int32_t idk_warp_gray(const uint8_t *pixels, int32_t width, int32_t height, const double *matrix, uint8_t *out,
                      int32_t outWidth, int32_t outHeight, uint8_t fill, int32_t cubic);

/// `out` (`outWidth` × `outHeight` gray pixels) = `pixels` sampled bilinearly at (`mapX`, `mapY`)
/// of each output pixel (row major, source pixel indices; OpenCV's remap); `fill` outside the
/// source. Returns 0, or -1 when OpenCV threw (out unchanged).
int32_t idk_remap_gray(const uint8_t *pixels, int32_t width, int32_t height, const float *mapX, const float *mapY,
                       uint8_t *out, int32_t outWidth, int32_t outHeight, uint8_t fill);

/// The quadrilateral `corners` (4 × x, y: top-left, top-right, bottom-right, bottom-left) of an
/// 8-bit image with 1 or 3 interleaved channels, warped to `outWidth` × `outHeight` in `out`
/// (OpenCV's getPerspectiveTransform and warpPerspective, white outside the image).
int32_t idk_warp_quad(const uint8_t *pixels, int32_t width, int32_t height, int32_t channels,
                      const double *corners, uint8_t *out, int32_t outWidth, int32_t outHeight,
                      char *error, size_t errorCapacity);

/// `out` (`width` × `height`) = each pixel of `pixels` replaced by the darkest (`maximum` 0: OpenCV's
/// erode) or lightest (`maximum` 1: dilate) of its 3 × 3 neighborhood, edges clamped (pixels
/// outside repeat the border's). Returns 0, or -1 when OpenCV threw or an argument is invalid.
int32_t idk_rank3x3(const uint8_t *pixels, int32_t width, int32_t height, int32_t maximum, uint8_t *out);

/// `out` (`width` × `height`) = the gray closing of `pixels` by a `kernelWidth` × `kernelHeight`
/// rectangle (OpenCV's morphologyEx MORPH_CLOSE, edges replicated): dark marks the rectangle
/// cannot fit into removed, the light background left. Returns 0, or -1 when OpenCV threw or an
/// argument is invalid.
int32_t idk_close_gray(const uint8_t *pixels, int32_t width, int32_t height, int32_t kernelWidth,
                       int32_t kernelHeight, uint8_t *out);

/// `out` (`width` × `height`) = white less `gain` times each pixel's depth below the gray closing
/// of `pixels` by a `kernel` × `kernel` square (OpenCV's morphologyEx MORPH_BLACKHAT, edges
/// replicated; saturated at black): the dark marks narrower than the square on an even white
/// ground. Returns 0, or -1 when OpenCV threw or an argument is invalid.
int32_t idk_ink_depth(const uint8_t *pixels, int32_t width, int32_t height, int32_t kernel, int32_t gain, uint8_t *out);

/// The linear motion blur of a gray image (`width` × `height`, both at least 128), from the
/// cepstrum of the log-spectra of its 128 × 128 tiles that are not blank, averaged: `*length` in
/// pixels (2–39), `*angle` in radians (0 ≤ a < π, image coordinates, y down), and `*strength`, how
/// many standard deviations the cepstrum's peak stands below its mean (about 1–3 on a sharp photo,
/// 3–10 on a blurred one), and `*anisotropy`, how much weaker (mean natural log of the magnitude)
/// the spectrum is along the blur than across it between the blur's first and third zeros (at most
/// about 0.3 on a sharp photo). Returns the number of tiles averaged (0: all blank, outputs unset),
/// or -1 when OpenCV threw or an argument is invalid.
int32_t idk_motion_blur_estimate(const uint8_t *gray, int32_t width, int32_t height, double *length, double *angle,
                                 double *strength, double *anisotropy);

/// `out` (`width` × `height`) = `gray` restored from a linear motion blur of `length` pixels at
/// `angle` radians by Wiener deconvolution (OpenCV's dft, edges mirrored), `noise` the
/// noise-to-signal power ratio (0.01 for a JPEG photo). Returns 0, or -1 when OpenCV threw or an
/// argument is invalid.
int32_t idk_motion_deblur(const uint8_t *gray, int32_t width, int32_t height, double length, double angle,
                          double noise, uint8_t *out);

/// Dark blobs of a gray image (`width` × `height`, rows packed): a pixel is ink when it is darker
/// than the mean of its (2 `radius` + 1)² neighborhood (clipped at the image's edges) by the
/// fraction `contrast` and by at least `minimumDifference` gray levels; the ink's 8-connected
/// components are OpenCV's connectedComponentsWithStats. Writes a malloc'd array of 7 int64 per
/// component to `*out` (minX, minY, maxX, maxY, pixel count, sum of x, sum of y), at most `maximum`
/// of them in OpenCV's label order (the order of their first pixel, row by row), for the caller to
/// free(). Returns how many, or -1 with a message in `error` (`*out` then NULL).
int32_t idk_ink_components(const uint8_t *gray, int32_t width, int32_t height, int32_t radius, double contrast,
                           int32_t minimumDifference, int32_t maximum, int64_t **out, char *error, size_t errorCapacity);

#ifdef __cplusplus
}
#endif
#endif

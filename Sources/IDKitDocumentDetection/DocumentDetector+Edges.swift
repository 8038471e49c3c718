internal import COpenCVShim
import IDKitImage

// The edge image the outline search and the snapping share, and the frame left out of it.
extension DocumentDetector {
    /// The edges of an image, found once for the outline search and for placing outlines around
    /// MRZs (OpenCV's Canny on the image at most 400 pixels across). `@unchecked Sendable`: made
    /// once, then only read.
    public final class Edges: @unchecked Sendable {
        let handle: OpaquePointer
        /// The part of the image the edges were found in: all of it but a uniform frame along its
        /// border (``DocumentDetector/content(of:)``), in image pixels.
        package let x: Int, y: Int, width: Int, height: Int
        /// How many image pixels one pixel of the edges spans (1 or more).
        package var pixel: Double { idk_edges_pixel(handle) }
        /// Whether the segment a-b runs along a border of the part searched: both ends within
        /// `near` pixels of the same border.
        package func alongBorder(_ a: Point, _ b: Point, within near: Double) -> Bool {
            let x0 = Double(x), y0 = Double(y), x1 = x0 + Double(width), y1 = y0 + Double(height)
            return (abs(a.x - x0) < near && abs(b.x - x0) < near) || (abs(a.x - x1) < near && abs(b.x - x1) < near)
                || (abs(a.y - y0) < near && abs(b.y - y0) < near) || (abs(a.y - y1) < near && abs(b.y - y1) < near)
        }
        /// How far `p` lies outside the part searched, in image pixels; negative inside (how far
        /// from its nearest border).
        package func outside(_ p: Point) -> Double {
            let x0 = Double(x), y0 = Double(y)
            return max(x0 - p.x, p.x - x0 - Double(width), y0 - p.y, p.y - y0 - Double(height))
        }
        init(_ handle: OpaquePointer, x: Int, y: Int, width: Int, height: Int) {
            self.handle = handle
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
        deinit { idk_edges_free(handle) }
    }

    /// The edges of `image`; `nil` when OpenCV fails (the scan then goes on without detection).
    /// With `color` (the same image in RGB), where the color steps more than the gray its step
    /// counts (``idk_edges_new_color``): a card on a desk of nearly its own gray but another hue.
    public func edges(of image: GrayImage, color: ColorImage? = nil) -> Edges? {
        let box = Self.content(of: image)
        let whole = box.width == image.width && box.height == image.height
        let inner = whole ? image : image.cropped(x: box.x, y: box.y, width: box.width, height: box.height)
        let rgb = color.flatMap { $0.width == image.width && $0.height == image.height ? $0 : nil }
            .map { whole ? $0 : $0.cropped(x: box.x, y: box.y, width: box.width, height: box.height) }
        var error = [CChar](repeating: 0, count: 256)
        let handle = inner.pixels.withUnsafeBufferPointer { pixels in
            if let rgb {
                return rgb.pixels.withUnsafeBufferPointer { colors in
                    idk_edges_new_color(pixels.baseAddress, colors.baseAddress, Int32(inner.width), Int32(inner.height), &error, error.count)
                }
            }
            return idk_edges_new(pixels.baseAddress, Int32(inner.width), Int32(inner.height), &error, error.count)
        }
        return handle.map { Edges($0, x: box.x, y: box.y, width: box.width, height: box.height) }
    }

    /// The image without a frame drawn around it: a strip of one gray (within ±3) along all four
    /// sides, the same gray on each, up to 4 pixels or 0.5% of the image wide, as an export or a
    /// screenshot adds around a scan. The frame's inner border is its edge, never a document's: a
    /// page lying inside the frame would otherwise get the frame for its outline, and a page
    /// reaching the frame has its side there, on the border of what was scanned, as on any scan
    /// cropped to the page. A uniform strip along some sides only, or a wider one, is the
    /// background a document lies on (a scanner's lid, a figure's white page), whose edge against
    /// the document must stay in view; the image is then searched whole.
    package static func content(of image: GrayImage) -> (x: Int, y: Int, width: Int, height: Int) {
        let w = image.width, h = image.height
        let whole = (x: 0, y: 0, width: w, height: h)
        /// The lowest and highest gray of a strip's line, `nil` when they differ by more than 6.
        func uniform(_ values: some Sequence<UInt8>) -> (low: Int, high: Int)? {
            var low = UInt8.max, high = UInt8.min
            for v in values { low = min(low, v); high = max(high, v) }
            return Int(high) - Int(low) <= 6 ? (Int(low), Int(high)) : nil
        }
        func row(_ r: Int) -> ArraySlice<UInt8> { image.pixels[(r * w)..<((r + 1) * w)] }
        func column(_ c: Int) -> some Sequence<UInt8> { stride(from: c, to: w * h, by: w).lazy.map { image.pixels[$0] } }
        var low = 255, high = 0
        /// How many lines from the border in are uniform, all of them within 6 grays of every other
        /// side's; `nil` for none or more than `limit`.
        func strip(_ line: (Int) -> (low: Int, high: Int)?, limit: Int) -> Int? {
            var count = 0
            while count <= limit, let range = line(count) {
                low = min(low, range.low)
                high = max(high, range.high)
                count += 1
            }
            return count >= 1 && count <= limit ? count : nil
        }
        let limitY = max(4, h / 200), limitX = max(4, w / 200)
        guard w > 4 * limitX, h > 4 * limitY,
              let top = strip({ uniform(row($0)) }, limit: limitY), let bottom = strip({ uniform(row(h - 1 - $0)) }, limit: limitY),
              let left = strip({ uniform(column($0)) }, limit: limitX), let right = strip({ uniform(column(w - 1 - $0)) }, limit: limitX),
              high - low <= 6 else { return whole }
        return (left, top, w - left - right, h - top - bottom)
    }
}

import IDKitImage
internal import COpenCVShim
import Foundation

/// A dark blob of the binarized image: one printed character, most of the time.
struct Component: Sendable {
    var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
    var count: Int32
    var sumX: Int64, sumY: Int64

    var width: Int { Int(maxX - minX) + 1 }
    var height: Int { Int(maxY - minY) + 1 }
    var center: Point { Point(x: Double(sumX) / Double(count) + 0.5, y: Double(sumY) / Double(count) + 0.5) }
    /// The larger side: text direction is not known yet, so a character's size is its bigger extent.
    var size: Double { Double(max(width, height)) }
}

/// Dark-on-light binarization against the local mean (window `2r+1`, clipped at the edges), then
/// 8-connected components: OpenCV's connectedComponentsWithStats, through the shim
/// (`idk_ink_components`).
enum ConnectedComponents {
    /// A pixel is ink when it is darker than its neighborhood's mean by `contrast` (fraction)
    /// and by at least `minimumDifference` gray levels. At most `maximumComponents` × 4 components
    /// (the first ones, row by row): a page of guilloche breaks into countless specks.
    static func find(in image: GrayImage, radius r: Int, contrast: Double = 0.12, minimumDifference: Int = 12,
                     maximumComponents: Int = 200_000) -> [Component] {
        guard image.width > 2 * r + 1, image.height > 2 * r + 1 else { return [] }
        var out: UnsafeMutablePointer<Int64>?
        var error = [CChar](repeating: 0, count: 256)
        let n = image.pixels.withUnsafeBufferPointer { px in
            idk_ink_components(px.baseAddress, Int32(image.width), Int32(image.height), Int32(r), contrast,
                               Int32(minimumDifference), Int32(clamping: maximumComponents * 4), &out, &error, error.count)
        }
        defer { free(out) }
        guard n > 0, let out else { return [] }
        return (0..<Int(n)).map { k in
            let o = out + 7 * k
            return Component(minX: Int32(o[0]), minY: Int32(o[1]), maxX: Int32(o[2]), maxY: Int32(o[3]),
                             count: Int32(o[4]), sumX: o[5], sumY: o[6])
        }
    }
}

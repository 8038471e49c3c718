internal import COpenCVShim
import Foundation
import IDKitImage

/// Straightened crops of a detected document, in color: the document itself at a stated
/// resolution, its face photo (ICAO 9303 zone V) and its holder's signature (zone IV), located in
/// the straightened document.
public enum DocumentCropper {
    /// The straightened document's size in pixels: the format's physical size at `dpi` (an ID-1
    /// card at 300 dpi is 1011 × 638), or for an unknown format the outline's own mean size.
    public static func size(of document: DetectedDocument, dpi: Double = 300) -> (width: Int, height: Int) {
        if let mm = document.format.millimeters {
            return (Int((mm.width / 25.4 * dpi).rounded()), Int((mm.height / 25.4 * dpi).rounded()))
        }
        let c = document.corners.corners
        let width = (hypot(c[1].x - c[0].x, c[1].y - c[0].y) + hypot(c[2].x - c[3].x, c[2].y - c[3].y)) / 2
        let height = (hypot(c[3].x - c[0].x, c[3].y - c[0].y) + hypot(c[2].x - c[1].x, c[2].y - c[1].y)) / 2
        return (max(1, Int(width.rounded())), max(1, Int(height.rounded())))
    }

    /// The quadrilateral `corners` of `image` warped to `width` × `height` (OpenCV's perspective
    /// warp; white outside the image); `nil` for an empty size or when OpenCV fails.
    public static func warp(_ image: ColorImage, corners: Quadrilateral, width: Int, height: Int) -> ColorImage? {
        guard width > 0, height > 0, width * height <= 64_000_000 else { return nil }
        var out = [UInt8](repeating: 255, count: width * height * 3)
        let quad = corners.corners.flatMap { [$0.x, $0.y] }
        var error = [CChar](repeating: 0, count: 256)
        let status = image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                idk_warp_quad(src.baseAddress, Int32(image.width), Int32(image.height), 3, quad, dst.baseAddress,
                              Int32(width), Int32(height), &error, error.count)
            }
        }
        return status == 0 ? ColorImage(width: width, height: height, pixels: out) : nil
    }

    /// The document straightened, upright, at `dpi`.
    public static func document(_ image: ColorImage, _ document: DetectedDocument, dpi: Double = 300) -> ColorImage? {
        let (width, height) = size(of: document, dpi: dpi)
        return warp(image, corners: document.corners, width: width, height: height)
    }

    /// Where the face photo is in a straightened document (pixels of `straightened`), and whether it
    /// was located (a portrait-shaped outline in the document's left part) or only assumed from the
    /// format's layout; `nil` when neither: an ID-1 card's MRZ side (TD1: the portrait is on the
    /// other side) or a document of unknown format where no photo outline was found.
    public static func faceRegion(in straightened: GrayImage, format: DocumentFormat, hasMRZ: Bool) -> (box: (x: Int, y: Int, width: Int, height: Int), located: Bool)? {
        let w = Double(straightened.width), h = Double(straightened.height)
        let detector = DocumentDetector()
        if let edges = detector.edges(of: straightened) {
            // A portrait photo: taller than wide (ICAO 9303-3 §3.9: 32–36 × 45 mm on a TD3
            // page, proportionally smaller on cards), in the left 60% of the document, a few percent
            // to a third of its area, its sides on edges.
            let photos = detector.outlines(in: edges).compactMap { outline -> (x: Double, y: Double, w: Double, h: Double)? in
                guard outline.support >= 0.6 else { return nil }
                let xs = outline.points.map(\.x), ys = outline.points.map(\.y)
                let box = (x: xs.min()!, y: ys.min()!, w: xs.max()! - xs.min()!, h: ys.max()! - ys.min()!)
                let share = box.w * box.h / (w * h)
                guard box.h / max(box.w, 1) > 1.1, box.h / max(box.w, 1) < 1.7, share > 0.03, share < 0.35,
                      box.x + box.w / 2 < 0.6 * w, box.x > 0.01 * w, box.y > 0.01 * h else { return nil }
                return box
            }
            if let best = photos.max(by: { $0.w * $0.h < $1.w * $1.h }) {
                return ((Int(best.x), Int(best.y), Int(best.w), Int(best.h)), true)
            }
        }
        // The layout's nominal zone V, in millimeters from the top-left corner (ICAO 9303-4 and -6:
        // the portrait on the data page's left, below the header; -5: a card's front).
        let zone: (x: Double, y: Double, w: Double, h: Double)
        switch format {
        case .td3: zone = (5, 17, 35, 45)
        case .td2: zone = (4, 14, 30, 38)
        case .td1 where !hasMRZ: zone = (4, 11, 24, 31)
        default: return nil
        }
        guard let mm = format.millimeters else { return nil }
        let sx = w / mm.width, sy = h / mm.height
        return ((Int(zone.x * sx), Int(zone.y * sy), Int(zone.w * sx), Int(zone.h * sy)), false)
    }

    /// The zone where a format's layout puts the holder's signature (ICAO 9303 zone IV), in
    /// millimeters from the top-left corner: right of the portrait, below the personal data, above
    /// the MRZ, on a TD3 data page, a TD2 card and a TD1 card's front. `nil` for a TD1 card's MRZ
    /// side (the signature is on the other side), a visa and an unknown format.
    static func signatureZone(_ format: DocumentFormat, hasMRZ: Bool) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        switch format {
        case .td3: (45, 46, 120, 62)
        case .td2: (38, 40, 100, 56)
        case .td1 where !hasMRZ: (30, 36, 82, 51)
        default: nil
        }
    }

    /// A dark pixel is at least this much darker than its zone's median gray (ink on paper, not
    /// the guilloche).
    static let inkContrast = 60
    /// Where the holder's signature is in a straightened document, and whether it was located (the
    /// ink in the format's zone IV, as its bounding box, the zone's specks aside) or is only the
    /// nominal zone (no ink there, or ink all over it: printed matter, not a signature); `nil`
    /// where the layout has no signature (``signatureZone(_:hasMRZ:)``).
    public static func signatureRegion(in straightened: GrayImage, format: DocumentFormat, hasMRZ: Bool) -> (box: (x: Int, y: Int, width: Int, height: Int), located: Bool)? {
        guard let zone = signatureZone(format, hasMRZ: hasMRZ), let mm = format.millimeters else { return nil }
        let sx = Double(straightened.width) / mm.width, sy = Double(straightened.height) / mm.height
        let x0 = max(0, Int(zone.x0 * sx)), y0 = max(0, Int(zone.y0 * sy))
        let x1 = min(straightened.width, Int(zone.x1 * sx)), y1 = min(straightened.height, Int(zone.y1 * sy))
        guard x1 - x0 > 4, y1 - y0 > 4 else { return nil }
        let nominal = (box: (x: x0, y: y0, width: x1 - x0, height: y1 - y0), located: false)
        let zonePixels = straightened.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        var histogram = [Int](repeating: 0, count: 256)
        for v in zonePixels.pixels { histogram[Int(v)] += 1 }
        var seen = 0, median = 255
        for (v, n) in histogram.enumerated() { seen += n; if seen * 2 >= zonePixels.pixels.count { median = v; break } }
        let threshold = median - inkContrast
        guard threshold > 0 else { return nominal }
        // Ink in columns and rows, each needing more than a speck's worth (a pixel of dust, a
        // fibre): 0.3 mm of ink.
        let w = zonePixels.width, h = zonePixels.height
        var columns = [Int](repeating: 0, count: w), rows = [Int](repeating: 0, count: h)
        for y in 0..<h { for x in 0..<w where Int(zonePixels.pixels[y * w + x]) < threshold { columns[x] += 1; rows[y] += 1 } }
        let speck = max(1, Int(0.3 * sx))
        guard let left = columns.firstIndex(where: { $0 >= speck }), let right = columns.lastIndex(where: { $0 >= speck }),
              let top = rows.firstIndex(where: { $0 >= speck }), let bottom = rows.lastIndex(where: { $0 >= speck }) else { return nominal }
        let bw = right - left + 1, bh = bottom - top + 1
        // A signature is a few millimeters of ink, not the whole zone.
        guard Double(bw) >= 5 * sx, Double(bh) >= 2 * sy, bw * bh < w * h * 8 / 10 else { return nominal }
        return ((x0 + left, y0 + top, bw, bh), true)
    }

    /// The rectangle of an image, grown by `margin` of its size on every side and clipped.
    public static func cropped(_ image: ColorImage, _ box: (x: Int, y: Int, width: Int, height: Int), margin: Double = 0.04) -> ColorImage? {
        let grow = Int(margin * Double(max(box.width, box.height)))
        let crop = image.cropped(x: box.x - grow, y: box.y - grow, width: box.width + 2 * grow, height: box.height + 2 * grow)
        return crop.width > 0 && crop.height > 0 ? crop : nil
    }
}

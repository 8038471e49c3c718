import Foundation
import IDKitImage
import IDKitDocument

/// A picture of what the scanner saw: every document's outline, the band (green when the reading
/// verified, red when not), a box around every character, and the reading drawn in OCR-B above
/// the band.
public enum ScanAnnotation {
    /// RGB pixels (width × height × 3) of `image` with the scan drawn on it.
    public static func render(_ image: GrayImage, scan: DocumentScan) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        for i in 0..<(image.width * image.height) {
            let v = image.pixels[i] / 2 + 64        // dimmed, so that the drawing stands out
            rgb[3 * i] = v; rgb[3 * i + 1] = v; rgb[3 * i + 2] = v
        }
        func plot(_ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8)) {
            guard x >= 0, y >= 0, x < image.width, y < image.height else { return }
            let i = 3 * (y * image.width + x)
            rgb[i] = c.0; rgb[i + 1] = c.1; rgb[i + 2] = c.2
        }
        func line(_ a: Point, _ b: Point, _ c: (UInt8, UInt8, UInt8), thickness: Int = 1) {
            let steps = Int(max(abs(b.x - a.x), abs(b.y - a.y))) + 1
            for s in 0...steps {
                let t = Double(s) / Double(steps)
                let x = Int(a.x + (b.x - a.x) * t), y = Int(a.y + (b.y - a.y) * t)
                for dx in 0..<thickness { for dy in 0..<thickness { plot(x + dx, y + dy, c) } }
            }
        }
        // Image redaction: every document's MRZ band, the barcodes and the redacted fields' printed
        // values black, nothing of the reading drawn.
        if scan.redaction.redactsImage {
            var gray = GrayImage(width: image.width, height: image.height, pixels: [UInt8](repeating: 255, count: image.width * image.height))
            for d in [scan] + scan.documents.dropFirst() {
                scan.redaction.redact(&gray, regions: DocumentImageRegions(mrz: d.band?.inkQuad, barcodes: d.barcodes.map(\.quad),
                                                                          viz: d.vizQuads(redacting: scan.redaction)))
            }
            for i in 0..<(image.width * image.height) where gray.pixels[i] == 0 {
                rgb[3 * i] = 0; rgb[3 * i + 1] = 0; rgb[3 * i + 2] = 0
            }
            return rgb
        }
        // Every document's outline (magenta; its top-left corner marked), the primary thicker.
        for (k, document) in scan.documents.enumerated() {
            guard let c = document.detection?.corners.corners else { continue }
            for i in 0..<4 { line(c[i], c[(i + 1) % 4], (230, 40, 230), thickness: k == 0 ? 3 : 2) }
            let r = max(4, Int(hypot(c[1].x - c[0].x, c[1].y - c[0].y) / 60))
            for dy in -r...r { for dx in -r...r { plot(Int(c[0].x) + dx, Int(c[0].y) + dy, (230, 40, 230)) } }
        }
        guard let band = scan.band else { return rgb }
        let verified = scan.reading?.verified == true
        let color: (UInt8, UInt8, UInt8) = verified ? (40, 220, 60) : (235, 50, 40)
        let q = band.quad.corners
        for k in 0..<4 { line(q[k], q[(k + 1) % 4], color, thickness: 2) }
        // Character boxes.
        let half = band.pitch * 0.45, halfH = band.characterHeight * 0.6
        let d = band.lines[0]
        let len = max(1e-9, ((d.end.x - d.start.x) * (d.end.x - d.start.x) + (d.end.y - d.start.y) * (d.end.y - d.start.y)).squareRoot())
        let ux = (d.end.x - d.start.x) / len, uy = (d.end.y - d.start.y) / len
        for (l, centers) in band.characterCenters().enumerated() {
            for (i, c) in centers.enumerated() {
                let conf = scan.reading.map { $0.confidence.indices.contains(l) && $0.confidence[l].indices.contains(i) ? $0.confidence[l][i] : 1 } ?? 1
                let boxColor: (UInt8, UInt8, UInt8) = conf >= 0.8 ? (60, 160, 255) : (255, 170, 0)
                let corners = [(-half, -halfH), (half, -halfH), (half, halfH), (-half, halfH)].map {
                    Point(x: c.x + $0.0 * ux - $0.1 * uy, y: c.y + $0.0 * uy + $0.1 * ux)
                }
                for k in 0..<4 { line(corners[k], corners[(k + 1) % 4], boxColor) }
            }
        }
        // The reading, in OCR-B template glyphs, on a white plate at the top left (not when the
        // result is redacted: the lines may hold masked fields).
        if let reading = scan.reading, !scan.redaction.redactsResult {
            let gw = OCRBGlyph.width, gh = OCRBGlyph.height
            let plateW = min(image.width, reading.lines.map(\.count).max()! * gw + 8)
            let plateH = min(image.height, reading.lines.count * gh + 8)
            for y in 0..<plateH { for x in 0..<plateW { plot(x, y, (255, 255, 255)) } }
            for (l, text) in reading.lines.enumerated() {
                for (i, ch) in text.utf8.enumerated() {
                    guard let mask = OCRBGlyph.inkMask(of: ch) else { continue }
                    let conf = reading.confidence[l][i]
                    let ink: (UInt8, UInt8, UInt8) = conf >= 0.8 ? (0, 0, 0) : (220, 90, 0)
                    for y in 0..<gh {
                        for x in 0..<gw where mask[y * gw + x] {
                            plot(4 + i * gw + x, 4 + l * gh + y, ink)
                        }
                    }
                }
            }
        }
        return rgb
    }
}

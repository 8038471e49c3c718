public import IDKitDocument
public import IDKitImage

// Image redaction is the scanner's: IDKitDocument redacts results and never touches pixels.

/// Where the image front end found the MRZ band and the barcodes, so that redaction can black
/// them out (`imageOnly`, `fullResult`).
public struct DocumentImageRegions: Sendable, Equatable, Hashable, Codable {
    public var mrz: Quadrilateral?
    public var barcodes: [Quadrilateral]
    /// The visual zone's printed values of the redacted fields (``DocumentScan/vizQuads(redacting:)``).
    public var viz: [Quadrilateral]
    public init(mrz: Quadrilateral? = nil, barcodes: [Quadrilateral] = [], viz: [Quadrilateral] = []) {
        self.mrz = mrz
        self.barcodes = barcodes
        self.viz = viz
    }
}

extension RedactionSettings {
    /// Blacks out (value 0) the MRZ band, every barcode and the visual zone's values of the redacted
    /// fields, each grown by 4% around its center so that a quadrilateral found a pixel short still
    /// covers the print. Does nothing unless the mode redacts the image.
    public func redact(_ image: inout GrayImage, regions: DocumentImageRegions) {
        guard redactsImage else { return }
        for quad in [regions.mrz].compactMap({ $0 }) + regions.barcodes + regions.viz {
            let cx = quad.corners.map(\.x).reduce(0, +) / 4, cy = quad.corners.map(\.y).reduce(0, +) / 4
            let grown = quad.mapped { Point(x: cx + ($0.x - cx) * 1.04, y: cy + ($0.y - cy) * 1.04) }
            Self.fill(&image, grown)
        }
    }

    /// Fills a convex quadrilateral row by row between its leftmost and rightmost edge crossings.
    static func fill(_ image: inout GrayImage, _ quad: Quadrilateral) {
        let c = quad.corners
        let top = max(0, Int(c.map(\.y).min()!.rounded(.down)))
        let bottom = min(image.height - 1, Int(c.map(\.y).max()!.rounded(.up)))
        guard top <= bottom, image.width > 0 else { return }
        for y in top...bottom {
            let yc = Double(y) + 0.5
            var lo = Double.infinity, hi = -Double.infinity
            for i in 0..<4 {
                let a = c[i], b = c[(i + 1) % 4]
                guard (a.y <= yc && b.y >= yc) || (b.y <= yc && a.y >= yc) else { continue }
                let x = a.y == b.y ? min(a.x, b.x) : a.x + (yc - a.y) * (b.x - a.x) / (b.y - a.y)
                let x2 = a.y == b.y ? max(a.x, b.x) : x
                lo = min(lo, x)
                hi = max(hi, x2)
            }
            guard lo <= hi else { continue }
            let from = max(0, Int(lo.rounded(.down))), to = min(image.width - 1, Int(hi.rounded(.up)))
            guard from <= to else { continue }
            for x in from...to { image.pixels[y * image.width + x] = 0 }
        }
    }
}

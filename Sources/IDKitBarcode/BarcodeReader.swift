import IDKitImage

/// Reads every barcode in an image: PDF417 through IDKit's locator and zxing-cpp, QR and 1D
/// symbologies through zxing-cpp and zbar.
public struct BarcodeReader: Sendable {
    public struct Options: Sendable, Equatable {
        /// Which symbologies to look for (default: all).
        public var formats: Set<BarcodeFormat>
        /// Also run zbar (1D and QR) after zxing-cpp.
        public var useZBar: Bool
        /// Try the straightening locator for PDF417 (off = plain zxing-cpp, for comparison).
        public var locatePDF417: Bool

        public init(formats: Set<BarcodeFormat> = Set(BarcodeFormat.allCases), useZBar: Bool = true, locatePDF417: Bool = true) {
            self.formats = formats
            self.useZBar = useZBar
            self.locatePDF417 = locatePDF417
        }

        /// PDF417 only (driver licences), located and straightened.
        public static let pdf417 = Options(formats: [.pdf417], useZBar: false)
    }

    public var options: Options

    public init(options: Options = Options()) { self.options = options }

    public func read(_ image: GrayImage) throws(BarcodeError) -> [Barcode] {
        var found: [Barcode] = []
        let wantsPDF417 = options.formats.contains(.pdf417)
        if wantsPDF417 && options.locatePDF417 {
            found += try readLocatedPDF417(image)
        }
        // zxing-cpp on the whole image: the other formats, and PDF417 when the locator found none.
        if found.isEmpty || options.formats.count > 1 {
            var zx = ZXingDecoder.Options()
            zx.formats = zxingFormats(excludingPDF417: !found.isEmpty)
            if zx.formats != 0 {
                let direct = try ZXingDecoder.read(image, options: zx)
                for b in direct where !found.contains(where: { $0.format == b.format && $0.bytes == b.bytes }) { found.append(b) }
            }
        }
        if options.useZBar {
            for b in ZBarDecoder.read(image) where options.formats.contains(b.format)
                && !found.contains(where: { $0.format == b.format && $0.bytes == b.bytes }) {
                found.append(b)
            }
        }
        return found
    }

    private func zxingFormats(excludingPDF417: Bool) -> Int32 {
        var bits: Int32 = 0
        for bit in 0..<17 {
            let f = ZXingDecoder.format(Int32(1) << Int32(bit))
            if options.formats.contains(f), !(excludingPDF417 && f == .pdf417) { bits |= Int32(1) << Int32(bit) }
        }
        return bits
    }

    /// The straightened candidate regions (for debugging the locator).
    package func straightenedCandidates(_ image: GrayImage) -> [(quad: Quadrilateral, image: GrayImage)] {
        PDF417Locator(block: locatorBlock(image)).locate(image).compactMap { c in
            straighten(image, c.quad).map { (c.quad, $0.image) }
        }
    }

    private func locatorBlock(_ image: GrayImage) -> Int { max(6, min(12, min(image.width, image.height) / 120)) }

    /// The region inside `q`, warped to an upright rectangle, and the transform back to the image.
    private func straighten(_ image: GrayImage, _ q: Quadrilateral) -> (image: GrayImage, toImage: Homography, width: Int)? {
        let top = distance(q.topLeft, q.topRight), bottom = distance(q.bottomLeft, q.bottomRight)
        let left = distance(q.topLeft, q.bottomLeft), right = distance(q.topRight, q.bottomRight)
        let width = max(top, bottom), height = max(left, right)
        guard width >= 20, height >= 10, width < 8000, height < 8000 else { return nil }
        // Small symbols are enlarged so that zxing-cpp sees modules of at least ~3 pixels.
        let scale = min(4.0, max(1.0, 700 / width))
        let ow = Int(width * scale), oh = Int(height * scale)
        let rect = [Point(x: 0, y: 0), Point(x: Double(ow), y: 0), Point(x: Double(ow), y: Double(oh)), Point(x: 0, y: Double(oh))]
        guard let toImage = Homography(from: rect, to: q.corners) else { return nil }
        return (image.warped(width: ow, height: oh, by: toImage), toImage, ow)
    }

    /// Locates PDF417 candidates, straightens each and decodes it. Attempts, cheapest first: each
    /// candidate upright, then turned 180° (zxing-cpp's own rotation search is off: the symbol is
    /// already straight), then every candidate mirrored (some cards print it mirrored).
    func readLocatedPDF417(_ image: GrayImage) throws(BarcodeError) -> [Barcode] {
        let candidates = PDF417Locator(block: locatorBlock(image)).locate(image)
        var zx = ZXingDecoder.Options()
        zx.formats = ZXingDecoder.pdf417Bit
        zx.tryRotate = false
        for mirrored in [false, true] {
            for candidate in candidates {
                for turned in [false, true] {
                    let q = candidate.quad
                    let quad = turned ? Quadrilateral(topLeft: q.bottomRight, topRight: q.bottomLeft, bottomRight: q.topLeft, bottomLeft: q.topRight) : q
                    guard var (straight, toImage, ow) = straighten(image, quad) else { continue }
                    // Square the outline up on the start and stop bars, then straighten again.
                    if let refined = PDF417EdgeRefiner.refine(straight, square: candidate.isSquare) {
                        let better = Quadrilateral(topLeft: toImage.apply(refined[0]), topRight: toImage.apply(refined[1]),
                                                   bottomRight: toImage.apply(refined[2]), bottomLeft: toImage.apply(refined[3]))
                        if let again = straighten(image, better) { (straight, toImage, ow) = again }
                    }
                    let input = mirrored ? straight.mirrored() : straight
                    let results = try ZXingDecoder.read(input, options: zx)
                    guard !results.isEmpty else { continue }
                    return results.map { r in
                        var b = r
                        // zxing-cpp 1.4's PDF417 position is unreliable (corners repeat), so the
                        // quadrilateral is the straightened region's outline, back in the photo.
                        let oh = Double(straight.height)
                        b.quad = Quadrilateral(topLeft: toImage.apply(Point(x: 0, y: 0)), topRight: toImage.apply(Point(x: Double(ow), y: 0)),
                                               bottomRight: toImage.apply(Point(x: Double(ow), y: oh)), bottomLeft: toImage.apply(Point(x: 0, y: oh)))
                        b.isMirrored = mirrored != r.isMirrored
                        return b
                    }
                }
            }
        }
        return []
    }

    private func distance(_ a: Point, _ b: Point) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }
}

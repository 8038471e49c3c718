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
        /// Run zxing-cpp and zbar over the whole image even when the locator finds no field of
        /// parallel bars (PDF417 or 1D) anywhere. Off for the document scanner: a passport page
        /// with no bar field then costs the locator alone, not every decoder's search over the
        /// whole image. QR codes, which are not bar fields, are still looked for over the whole
        /// image by zxing-cpp alone.
        public var searchWholeImage: Bool
        /// Mirrored views of every PDF417 candidate (a few cards print the symbol mirrored) and,
        /// when every other attempt failed, the largest candidates once more with bicubic sampling
        /// and a fixed threshold (symbols of about one pixel per module). They cost zxing-cpp calls
        /// and a bicubic warp on every candidate a photo without a barcode offers: the document
        /// scanner, which mostly sees passports and ID cards, turns them off.
        public var lastResortAttempts: Bool
        /// With ``searchWholeImage``: the largest image (in pixels) that every decoder searches
        /// whole when the located fields read as nothing; `nil`: no limit. A larger image then gets
        /// the quick search (the two strongest bar fields with every decoder, and a QR search). The
        /// document scanner's for a photo without an MRZ: on a card's face, whose print and guilloche
        /// the locator offers as bar fields, the whole-image searches cost far more than the
        /// located fields and find nothing they did not. Small images (a bare symbol cropped to its
        /// edges, which the locator cannot outline) stay searched whole: there it is cheap.
        public var wholeImageSearchUpTo: Int?

        public init(formats: Set<BarcodeFormat> = Set(BarcodeFormat.allCases), useZBar: Bool = true, locatePDF417: Bool = true,
                    searchWholeImage: Bool = true, lastResortAttempts: Bool = true, wholeImageSearchUpTo: Int? = nil) {
            self.formats = formats
            self.useZBar = useZBar
            self.locatePDF417 = locatePDF417
            self.searchWholeImage = searchWholeImage
            self.lastResortAttempts = lastResortAttempts
            self.wholeImageSearchUpTo = wholeImageSearchUpTo
        }

        /// PDF417 only (driver licenses), located and straightened.
        public static let pdf417 = Options(formats: [.pdf417], useZBar: false)
    }

    public var options: Options

    public init(options: Options = Options()) { self.options = options }

    /// Every barcode in `image`. Bar fields whose center lies in one of `excluding` (the MRZ band
    /// the scanner found: its text lines are parallel strokes too) are not candidates.
    public func read(_ image: GrayImage, excluding: [Quadrilateral] = []) throws(BarcodeError) -> [Barcode] {
        var found: [Barcode] = []
        let wantsPDF417 = options.formats.contains(.pdf417)
        var candidates: [PDF417Locator.Candidate] = []
        var searchedWholeImageForPDF417 = false
        var searchWholeImage = options.searchWholeImage
        if (wantsPDF417 && options.locatePDF417) || !searchWholeImage {
            candidates = PDF417Locator(block: locatorBlock(image)).locate(image)
            candidates.removeAll { c in excluding.contains { $0.contains(c.quad.center) } }
        }
        if wantsPDF417 && options.locatePDF417 {
            var prepared: [Prepared??] = []
            found += try readLocatedPDF417(image, candidates: candidates, attempts: .first, prepared: &prepared)
            // A large image whose located fields read as nothing gets the quick search.
            if let limit = options.wholeImageSearchUpTo, found.isEmpty, image.width * image.height > limit {
                searchWholeImage = false
            }
            // The thorough reader: before the costly last attempts on the located fields (mirrored,
            // bicubic, a fixed threshold, each a decode of every field), zxing-cpp's own search over
            // the whole image, which reads a page of several symbols at once (a Macro PDF417 set on
            // one sheet, where the attempts on each field fail, at many times the cost).
            if found.isEmpty && searchWholeImage && options.lastResortAttempts && !candidates.isEmpty {
                var zx = ZXingDecoder.Options()
                zx.formats = ZXingDecoder.pdf417Bit
                found += try ZXingDecoder.read(image, options: zx)
                searchedWholeImageForPDF417 = true
            }
            if found.isEmpty { found += try readLocatedPDF417(image, candidates: candidates, attempts: .lastResort, prepared: &prepared) }
        }
        if !searchWholeImage {
            guard found.isEmpty else { return found }
            // The other symbologies only inside the two strongest bar fields found (a 1D code is one
            // too), and a QR code, which is not a bar field, by zxing-cpp alone over the whole image.
            for c in candidates.prefix(2) { found += try readRegion(image, around: c.quad, known: found) }
            if options.formats.contains(.qrCode) {
                var zx = ZXingDecoder.Options()
                zx.formats = zxingFormats { $0 == .qrCode }
                for b in try ZXingDecoder.read(image, options: zx) where !found.contains(where: { $0.bytes == b.bytes }) { found.append(b) }
            }
            return found
        }
        // zxing-cpp on the whole image: the other formats, and PDF417 when the locator found none
        // or when it found another bar field outside the symbols read (a page of several symbols:
        // a Macro PDF417 set printed on one sheet; the locator keeps three fields at most, so
        // zxing-cpp's own search finds the rest).
        let otherField = !found.isEmpty && candidates.contains { c in !found.contains { $0.quad.contains(c.quad.center) } }
        if found.isEmpty || options.formats.count > 1 || otherField {
            var zx = ZXingDecoder.Options()
            let skipPDF417 = (!found.isEmpty && !otherField) || (found.isEmpty && searchedWholeImageForPDF417)
            zx.formats = zxingFormats { !(skipPDF417 && $0 == .pdf417) }
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

    /// zxing-cpp (every wanted format, with its own rotation search) and zbar on the bounding box
    /// of `quad` grown by a fifth, the results moved back to image coordinates.
    private func readRegion(_ image: GrayImage, around quad: Quadrilateral, known: [Barcode]) throws(BarcodeError) -> [Barcode] {
        let xs = quad.corners.map(\.x), ys = quad.corners.map(\.y)
        let growX = (xs.max()! - xs.min()!) / 5 + 8, growY = (ys.max()! - ys.min()!) / 5 + 8
        let x0 = Int(xs.min()! - growX), y0 = Int(ys.min()! - growY)
        let crop = image.cropped(x: x0, y: y0, width: Int(xs.max()! + growX) - x0, height: Int(ys.max()! + growY) - y0)
        guard crop.width >= 16, crop.height >= 16 else { return [] }
        let dx = Double(max(0, x0)), dy = Double(max(0, y0))
        var found: [Barcode] = []
        func add(_ b: Barcode) {
            guard options.formats.contains(b.format), !(known + found).contains(where: { $0.format == b.format && $0.bytes == b.bytes }) else { return }
            var moved = b
            moved.quad = b.quad.mapped { Point(x: $0.x + dx, y: $0.y + dy) }
            found.append(moved)
        }
        var zx = ZXingDecoder.Options()
        zx.formats = zxingFormats()
        if zx.formats != 0 { for b in try ZXingDecoder.read(crop, options: zx) { add(b) } }
        // zbar only where zxing-cpp found nothing and the caller wants every reader: on a region
        // of guilloche it doubles the cost for nothing.
        if options.useZBar && found.isEmpty && options.lastResortAttempts { for b in ZBarDecoder.read(crop) { add(b) } }
        return found
    }

    /// zxing-cpp's format bits for the wanted formats that pass `include`.
    private func zxingFormats(_ include: (BarcodeFormat) -> Bool = { _ in true }) -> Int32 {
        var bits: Int32 = 0
        for (bit, f) in ZXingDecoder.formatBits where options.formats.contains(f) && include(f) { bits |= bit }
        return bits
    }

    /// Each candidate region as the decoder is given it: located, straightened and refined
    /// (`idkit-bench barcode-debug` writes them out to see why a photo fails).
    package func straightenedCandidates(_ image: GrayImage) -> [(quad: Quadrilateral, image: GrayImage)] {
        PDF417Locator(block: locatorBlock(image)).locate(image).compactMap { c in
            prepare(image, c, interpolation: .bilinear).map { (c.quad, $0.straight) }
        }
    }

    private func locatorBlock(_ image: GrayImage) -> Int { max(6, min(12, min(image.width, image.height) / 120)) }

    /// The region inside `q`, warped to an upright rectangle, and the transform back to the image.
    private func straighten(_ image: GrayImage, _ q: Quadrilateral, targetWidth: Double = 700,
                            interpolation: GrayImage.Interpolation = .bilinear) -> (image: GrayImage, toImage: Homography, width: Int)? {
        let top = distance(q.topLeft, q.topRight), bottom = distance(q.bottomLeft, q.bottomRight)
        let left = distance(q.topLeft, q.bottomLeft), right = distance(q.topRight, q.bottomRight)
        let width = max(top, bottom), height = max(left, right)
        guard width >= 20, height >= 10, width < 8000, height < 8000 else { return nil }
        // Small symbols are enlarged so that zxing-cpp sees modules of at least ~3 pixels.
        let scale = min(6.0, max(1.0, targetWidth / width))
        let ow = Int(width * scale), oh = Int(height * scale)
        let rect = [Point(x: 0, y: 0), Point(x: Double(ow), y: 0), Point(x: Double(ow), y: Double(oh)), Point(x: 0, y: Double(oh))]
        guard let toImage = Homography(from: rect, to: q.corners) else { return nil }
        return (image.warped(width: ow, height: oh, by: toImage, interpolation: interpolation), toImage, ow)
    }

    /// One candidate region, straightened and refined (once; the attempts reuse it).
    private struct Prepared {
        var straight: GrayImage
        var toImage: Homography
        /// The view shows the symbol upside down (its start pattern on the right); `nil` when the
        /// start and stop sides could not be told apart.
        var upsideDown: Bool?
    }

    enum Attempts {
        /// Every candidate upright and turned.
        case first
        /// Mirrored, then bicubic and a fixed threshold on the two strongest (thorough reader only).
        case lastResort
    }

    /// Locates PDF417 candidates, straightens each and decodes it. Attempts, cheapest first: each
    /// candidate upright, then turned 180° (zxing-cpp's own rotation search is off: the symbol is
    /// already straight), then every candidate mirrored (some cards print it mirrored); when all
    /// fail, the largest region once more with bicubic sampling (symbols of about one pixel per
    /// module, whose modules bilinear enlargement smears together).
    /// `prepared`: the straightened candidates, made on first use and kept between the two calls.
    private func readLocatedPDF417(_ image: GrayImage, candidates: [PDF417Locator.Candidate], attempts: Attempts,
                                   prepared: inout [Prepared??]) throws(BarcodeError) -> [Barcode] {
        // Prepared on first use: most photos decode on the first candidate.
        // The quick reader (no last-resort attempts) tries the two strongest bar fields only.
        if attempts == .lastResort && !options.lastResortAttempts { return [] }
        let candidates = options.lastResortAttempts ? candidates : Array(candidates.prefix(2))
        if prepared.count != candidates.count { prepared = [Prepared??](repeating: nil, count: candidates.count) }
        for mirrored in attempts == .first ? [false] : [true] {
            for i in candidates.indices {
                if prepared[i] == nil { prepared[i] = .some(prepare(image, candidates[i], interpolation: .bilinear)) }
                guard let p = prepared[i]! else { continue }
                if let found = try decode(p, mirrored: mirrored) { return found }
            }
        }
        for candidate in candidates.prefix(attempts == .lastResort ? 2 : 0) {
            guard var p = prepare(image, candidate, interpolation: .bicubic) else { continue }
            if let found = try decode(p, mirrored: false) { return found }
            // At about one pixel per module a bar one module wide is a faint dip that zxing-cpp's
            // local-average binarizer loses; a fixed mid-level threshold on the view stretched to
            // its own black and white keeps it.
            p.straight = Self.stretched(p.straight)
            for mirrored in [false, true] {
                if let found = try decode(p, mirrored: mirrored, binarizer: .fixedThreshold) { return found }
            }
        }
        return []
    }

    /// The image with its 2nd and 98th percentiles stretched to black and white.
    static func stretched(_ image: GrayImage) -> GrayImage {
        let histogram = Histogram256(image.pixels)
        let lo = histogram.percentile(0.02), hi = histogram.percentile(0.98)
        guard hi - lo >= 16 else { return image }
        var out = image
        let scale = 255.0 / Double(hi - lo)
        var table = [UInt8](repeating: 0, count: 256)
        for v in 0..<256 { table[v] = UInt8(max(0, min(255, (Double(v - lo) * scale).rounded()))) }
        table.withUnsafeBufferPointer { t in
            out.pixels.withUnsafeMutableBufferPointer { p in for i in p.indices { p[i] = t[Int(p[i])] } }
        }
        return out
    }

    /// The candidate straightened, its outline squared up on the start and stop bars, and
    /// straightened again; `nil` when the region has no such bars (print, texture: not a PDF417).
    private func prepare(_ image: GrayImage, _ candidate: PDF417Locator.Candidate,
                         interpolation: GrayImage.Interpolation) -> Prepared? {
        // The first view only has to show the bars: at the photo's own scale it costs least.
        guard let (first, toImage, _) = straighten(image, candidate.quad, targetWidth: 0),
              let refined = PDF417EdgeRefiner.refine(first, square: candidate.isSquare) else { return nil }
        let c = refined.corners
        let better = Quadrilateral(topLeft: toImage.apply(c[0]), topRight: toImage.apply(c[1]),
                                   bottomRight: toImage.apply(c[2]), bottomLeft: toImage.apply(c[3]))
        guard let (straight, back, _) = straighten(image, better, interpolation: interpolation) else { return nil }
        return Prepared(straight: straight, toImage: back, upsideDown: refined.startOnLeft.map { !$0 })
    }

    /// zxing-cpp on the straightened view, upright and turned 180°, optionally mirrored.
    private func decode(_ p: Prepared, mirrored: Bool,
                        binarizer: ZXingDecoder.Binarizer = .localAverage) throws(BarcodeError) -> [Barcode]? {
        var zx = ZXingDecoder.Options()
        zx.formats = ZXingDecoder.pdf417Bit
        zx.tryRotate = false
        zx.binarizer = binarizer
        let w = Double(p.straight.width), h = Double(p.straight.height)
        for turned in [false, true] {
            var view = p.straight
            if turned { view.pixels.reverse() }            // 180° is the pixel order reversed
            if mirrored { view = view.mirrored() }
            let results = try ZXingDecoder.read(view, options: zx)
            guard !results.isEmpty else { continue }
            // A corner of the symbol (in its own reading order), back in the photo. zxing-cpp reads
            // upside-down symbols without saying so; the start pattern's side tells.
            let flip = p.upsideDown ?? turned
            func corner(_ x: Double, _ y: Double) -> Point {
                var (vx, vy) = (mirrored ? w - x : x, y)
                if flip { (vx, vy) = (w - vx, h - vy) }
                return p.toImage.apply(Point(x: vx, y: vy))
            }
            return results.map { r in
                var b = r
                // zxing-cpp 1.4's PDF417 position is unreliable (corners repeat), so the
                // quadrilateral is the straightened region's outline, in the symbol's own order.
                b.quad = Quadrilateral(topLeft: corner(0, 0), topRight: corner(w, 0), bottomRight: corner(w, h), bottomLeft: corner(0, h))
                b.isMirrored = mirrored != r.isMirrored
                return b
            }
        }
        return nil
    }

    private func distance(_ a: Point, _ b: Point) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }
}

import IDKitImage

/// When an image is good enough, as a capture app would tune it (the reference SDKs expose the
/// same knobs). All measures are 0…1 except the character height, in pixels.
public struct QualityThresholds: Sendable, Equatable, Codable {
    public var minimumBrightness = 0.25
    public var maximumBrightness = 0.92
    /// Edge steepness of the MRZ print (see ``ImageQuality/sharpness``).
    public var minimumSharpness = 0.22
    /// Fraction of saturated pixels around the MRZ.
    public var maximumGlare = 0.01
    /// MRZ character height below which reading is unreliable.
    public var minimumCharacterHeight = 9.0
    public init() {}
}

/// How good the image is for reading the MRZ, with hints a capture app can show.
public struct ImageQuality: Sendable, Equatable, Codable {
    /// Mean grey level around the MRZ (the whole image when none was found), 0 black … 1 white.
    public var brightness: Double
    /// Steepest ink edges of the MRZ relative to its contrast: about 1 for a crisp scan, 0.4 for
    /// a one-pixel blur, 0.2 for two; `nil` without an MRZ.
    public var sharpness: Double?
    /// Fraction of the area around the MRZ (the whole image without one) that is washed out:
    /// 5×5 neighbourhoods averaging 245 or more.
    public var glare: Double
    public var mrzCharHeightPx: Double?
    public var isSharp: Bool
    public var isGlareFree: Bool
    public var isAdequateResolution: Bool
    /// `documentNotDetected`, `documentTooSmall`, `brightnessLow`, `brightnessHigh`,
    /// `sharpnessLow`, `glareOnMRZ`.
    public var hints: [String]

    /// Judges `image` around `band` (or as a whole when no MRZ was found).
    public init(image: GrayImage, band: MRZBand?, thresholds: QualityThresholds = QualityThresholds()) {
        var region = (x0: 0, y0: 0, x1: image.width, y1: image.height)
        if let band {
            // The band's box grown by half its height on every side: glare next to the MRZ counts.
            let c = band.quad.corners
            let minX = c.map(\.x).min()!, maxX = c.map(\.x).max()!, minY = c.map(\.y).min()!, maxY = c.map(\.y).max()!
            let grow = (maxY - minY) * 0.5
            region = (max(0, Int(minX - grow)), max(0, Int(minY - grow)),
                      min(image.width, Int(maxX + grow) + 1), min(image.height, Int(maxY + grow) + 1))
        }
        var sum = 0, saturated = 0, count = 0
        var histogram = Histogram256()
        let step = max(1, Int((Double((region.x1 - region.x0) * (region.y1 - region.y0)) / 400_000).squareRoot()))
        // Glare is a bright area, not a bright pixel: a 5×5 mean at or above 245 (sensor noise
        // alone does not reach it; a specular spot does).
        func brightSpot(_ x: Int, _ y: Int) -> Bool {
            guard x >= 2, y >= 2, x + 2 < image.width, y + 2 < image.height else { return image[x, y] >= 250 }
            var s = 0
            for dy in -2...2 { for dx in -2...2 { s += Int(image[x + dx, y + dy]) } }
            return s >= 245 * 25
        }
        var y = region.y0
        while y < region.y1 {
            var x = region.x0
            while x < region.x1 {
                let v = Int(image[x, y])
                sum += v
                histogram.add(v)
                if v >= 240 && brightSpot(x, y) { saturated += 1 }
                count += 1
                x += step
            }
            y += step
        }
        brightness = count > 0 ? Double(sum) / Double(count) / 255 : 0
        glare = count > 0 ? Double(saturated) / Double(count) : 0
        mrzCharHeightPx = band?.characterHeight
        sharpness = band.map { _ in Self.sharpness(image, region, histogram: histogram) }
        isSharp = (sharpness ?? 0) >= thresholds.minimumSharpness
        isGlareFree = glare <= thresholds.maximumGlare
        isAdequateResolution = (mrzCharHeightPx ?? 0) >= thresholds.minimumCharacterHeight
        var hints: [String] = []
        if band == nil { hints.append("documentNotDetected") }
        if band != nil && !isAdequateResolution { hints.append("documentTooSmall") }
        if brightness < thresholds.minimumBrightness { hints.append("brightnessLow") }
        if brightness > thresholds.maximumBrightness { hints.append("brightnessHigh") }
        if band != nil && !isSharp { hints.append("sharpnessLow") }
        if band != nil && !isGlareFree { hints.append("glareOnMRZ") }
        self.hints = hints
    }

    /// The 99th percentile of the horizontal and vertical grey differences, over the contrast
    /// between the region's dark (5th percentile) and light (95th) levels.
    static func sharpness(_ image: GrayImage, _ r: (x0: Int, y0: Int, x1: Int, y1: Int), histogram: Histogram256) -> Double {
        let contrast = Double(histogram.percentile(0.95) - histogram.percentile(0.05))
        guard contrast > 10 else { return 0 }
        var gradients = Histogram256()
        for y in r.y0..<max(r.y0, r.y1 - 1) {
            for x in r.x0..<max(r.x0, r.x1 - 1) {
                let v = Int(image[x, y])
                gradients.add(max(abs(Int(image[x + 1, y]) - v), abs(Int(image[x, y + 1]) - v)))
            }
        }
        let p99 = gradients.percentile(0.99)
        return min(1, Double(p99) / contrast)
    }
}

import Foundation
import IDKitImage
import IDKitDocumentDetection

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
    /// A document covering less than this share of the frame is too far (`documentTooFar`).
    public var minimumDocumentShare = 0.15
    /// A document covering more than this share of the frame is too close (`documentTooClose`).
    public var maximumDocumentShare = 0.9
    /// A corner of the document's outline further than this from a right angle, in degrees: the
    /// camera is not square to the document (`documentTilted`).
    public var maximumCornerSkew = 12.0
    /// A corner closer than this share of the frame's shorter side to its edge (or outside it) is
    /// cut by the frame (`documentPartiallyVisible`).
    public var frameMargin = 0.005
    public init() {}
}

/// How good the image is for reading the MRZ, with hints a capture app can show.
public struct ImageQuality: Sendable, Equatable, Codable {
    /// Mean gray level around the MRZ (the whole image when none was found), 0 black … 1 white.
    public var brightness: Double
    /// Steepest ink edges of the MRZ relative to its contrast: about 1 for a crisp scan, 0.4 for
    /// a one-pixel blur, 0.2 for two; `nil` without an MRZ.
    public var sharpness: Double?
    /// Fraction of the area around the MRZ (the whole image without one) that is washed out:
    /// 5×5 neighborhoods averaging 245 or more.
    public var glare: Double
    public var mrzCharHeightPx: Double?
    public var isSharp: Bool
    public var isGlareFree: Bool
    public var isAdequateResolution: Bool
    /// `documentNotDetected`, `documentPartiallyVisible` (also when the MRZ runs off the frame),
    /// `documentTooFar`, `documentTooClose`,
    /// `documentTilted` (``addCaptureHints(document:band:width:height:thresholds:)``), `documentTooSmall`
    /// (MRZ characters too small to read reliably), `brightnessLow`, `brightnessHigh`,
    /// `sharpnessLow`, `glareOnMRZ`, `mrzCovered` (``addReadingHints(confidence:verified:band:width:height:)``).
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
        var counts = [Int](repeating: 0, count: 256)
        let step = max(1, Int((Double((region.x1 - region.x0) * (region.y1 - region.y0)) / 400_000).squareRoot()))
        // Glare is a bright area, not a bright pixel: a 5×5 mean at or above 245 (sensor noise
        // alone does not reach it; a specular spot does).
        let width = image.width, height = image.height
        image.pixels.withUnsafeBufferPointer { p in
            counts.withUnsafeMutableBufferPointer { c in
                func brightSpot(_ x: Int, _ y: Int) -> Bool {
                    guard x >= 2, y >= 2, x + 2 < width, y + 2 < height else { return p[y * width + x] >= 250 }
                    var s = 0
                    for dy in -2...2 { let row = (y + dy) * width + x; for dx in -2...2 { s &+= Int(p[row + dx]) } }
                    return s >= 245 * 25
                }
                var y = region.y0
                while y < region.y1 {
                    let row = y * width
                    var x = region.x0
                    while x < region.x1 {
                        let v = Int(p[row + x])
                        sum &+= v
                        c[v] &+= 1
                        if v >= 240 && brightSpot(x, y) { saturated &+= 1 }
                        count &+= 1
                        x &+= step
                    }
                    y += step
                }
            }
        }
        let histogram = Histogram256(counts: counts)
        brightness = count > 0 ? Double(sum) / Double(count) / 255 : 0
        glare = count > 0 ? Double(saturated) / Double(count) : 0
        mrzCharHeightPx = band?.characterHeight
        sharpness = band.map { _ in Self.sharpness(image, region, histogram: histogram) }
        isSharp = (sharpness ?? 0) >= thresholds.minimumSharpness
        isGlareFree = glare <= thresholds.maximumGlare
        isAdequateResolution = (mrzCharHeightPx ?? 0) >= thresholds.minimumCharacterHeight
        var hints: [String] = []
        if band != nil && !isAdequateResolution { hints.append("documentTooSmall") }
        if brightness < thresholds.minimumBrightness { hints.append("brightnessLow") }
        if brightness > thresholds.maximumBrightness { hints.append("brightnessHigh") }
        if band != nil && !isSharp { hints.append("sharpnessLow") }
        if band != nil && !isGlareFree { hints.append("glareOnMRZ") }
        self.hints = hints
    }

    /// The hints about where the document is in the frame, put first: no document (no
    /// outline and no MRZ); a corner outside the frame or on its edge; too small or too large a
    /// share of the frame; a corner far from square (the camera tilted against the document).
    /// The MRZ `band` running off the frame (its first or last characters, or its last line's foot,
    /// cut by the photo's edge) is the document partly out of view too, whatever outline was found.
    public mutating func addCaptureHints(document: DetectedDocument?, band: MRZBand? = nil, width: Int, height: Int,
                                         thresholds: QualityThresholds) {
        var capture: [String] = []
        let mrzCut = band?.runsOffImage(width: width, height: height) ?? false
        if let document {
            let c = document.corners.corners
            let margin = thresholds.frameMargin * Double(min(width, height))
            if mrzCut || c.contains(where: { $0.x < margin || $0.y < margin || $0.x > Double(width) - 1 - margin || $0.y > Double(height) - 1 - margin }) {
                capture.append("documentPartiallyVisible")
            }
            let share = document.area / Double(max(1, width * height))
            if share < thresholds.minimumDocumentShare { capture.append("documentTooFar") }
            if share > thresholds.maximumDocumentShare { capture.append("documentTooClose") }
            if Self.cornerSkew(c) > thresholds.maximumCornerSkew { capture.append("documentTilted") }
        } else if mrzCut {
            capture.append("documentPartiallyVisible")
        } else if mrzCharHeightPx == nil {
            capture.append("documentNotDetected")
        }
        hints = capture + hints
    }

    /// `mrzCovered` when an unverified reading's unsure characters (confidence under
    /// ``coveredConfidence``) lie together at one end of the MRZ lines: two or more among the
    /// ``coveredEnd`` characters at that end of their lines, on two lines or side by side, and at
    /// most one unsure character anywhere else. A finger or an object over the lines' ends hides
    /// them, and another photo without it is what reads them; check digits restore a covered
    /// check digit or a single covered digit, never a name's letter (a reading they restore is
    /// verified, and gets no hint). Blur, glare and small print leave unsure characters spread
    /// along the lines instead, and a shadow leaves the print readable. Not where the `band` runs
    /// off the image of `width` × `height`: there the frame cuts the lines' ends
    /// (`documentPartiallyVisible`).
    public mutating func addReadingHints(confidence: [[Double]], verified: Bool, band: MRZBand?, width: Int, height: Int) {
        if !verified, Self.coveredAtOneEnd(confidence), !(band?.runsOffImage(width: width, height: height) ?? false) {
            hints.append("mrzCovered")
        }
    }

    /// The characters at each end of the lines where a covering finger or object is looked for.
    static let coveredEnd = 4
    /// The confidence under which a character counts as unsure for ``addReadingHints(confidence:verified:band:width:height:)``.
    static let coveredConfidence = 0.5

    static func coveredAtOneEnd(_ confidence: [[Double]]) -> Bool {
        // Each unsure character with its place counted from the line's start and from its end.
        let unsure = confidence.enumerated().flatMap { j, line in
            line.indices.filter { line[$0] < coveredConfidence }.map { (line: j, index: $0, fromEnd: line.count - 1 - $0, length: line.count) }
        }
        for fromStart in [true, false] {
            let at = unsure.filter { $0.length > 2 * coveredEnd && (fromStart ? $0.index : $0.fromEnd) < coveredEnd }
            guard at.count >= 2, unsure.count - at.count <= 1 else { continue }
            let lines = Set(at.map(\.line))
            if lines.count >= 2 || at.contains(where: { c in at.contains { $0.line == c.line && $0.index == c.index + 1 } }) { return true }
        }
        return false
    }

    /// The largest departure of the quadrilateral's corner angles from 90 degrees.
    static func cornerSkew(_ c: [Point]) -> Double {
        (0..<4).map { i -> Double in
            let p = c[i], a = c[(i + 3) % 4], b = c[(i + 1) % 4]
            let u = (a.x - p.x, a.y - p.y), v = (b.x - p.x, b.y - p.y)
            let cosine = (u.0 * v.0 + u.1 * v.1) / max(1e-9, hypot(u.0, u.1) * hypot(v.0, v.1))
            return abs(acos(max(-1, min(1, cosine))) * 180 / .pi - 90)
        }.max() ?? 0
    }

    /// The 99th percentile of the horizontal and vertical gray differences, over the contrast
    /// between the region's dark (5th percentile) and light (95th) levels.
    static func sharpness(_ image: GrayImage, _ r: (x0: Int, y0: Int, x1: Int, y1: Int), histogram: Histogram256) -> Double {
        let contrast = Double(histogram.percentile(0.95) - histogram.percentile(0.05))
        guard contrast > 10 else { return 0 }
        var counts = [Int](repeating: 0, count: 256)
        let width = image.width
        image.pixels.withUnsafeBufferPointer { p in
            counts.withUnsafeMutableBufferPointer { c in
                for y in r.y0..<max(r.y0, r.y1 - 1) {
                    let row = y * width
                    for x in r.x0..<max(r.x0, r.x1 - 1) {
                        let v = Int(p[row + x])
                        c[max(abs(Int(p[row + x + 1]) &- v), abs(Int(p[row + width + x]) &- v))] &+= 1
                    }
                }
            }
        }
        let p99 = Histogram256(counts: counts).percentile(0.99)
        return min(1, Double(p99) / contrast)
    }
}

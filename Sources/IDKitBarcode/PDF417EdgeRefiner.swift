import IDKitImage

/// Sharpens a located symbol's outline from its start and stop patterns.
///
/// The block-level locator knows the symbol's direction to about a degree and its sides to a
/// block. That is not enough at 1–1.5 pixels per module, where rows are 3–5 pixels high: a 1°
/// error over the symbol's width moves a scan line into the next row. But every PDF417 row
/// begins with the start pattern (a bar 8 modules wide, ISO/IEC 15438 §5.3) and ends with the
/// stop pattern (a bar 7 modules wide), and those bars line up from the first row to the last:
/// two long straight edges. This finds them in a first straightened image and returns a better
/// quadrilateral in that image's coordinates.
enum PDF417EdgeRefiner {
    /// The refined corners (in `straight`'s coordinates), or `nil` when the bars were not found.
    /// `square` keeps the top and bottom square to the bars (rotation only); otherwise they stay
    /// where they were (perspective).
    struct Outline {
        /// Corners in the straightened image: top-left, top-right, bottom-right, bottom-left.
        var corners: [Point]
        /// Whether the start pattern is on the left (the symbol reads left to right in this
        /// view), from which side has thin bars outside its thick bar: the stop pattern's thick
        /// bar is followed outward by 1,1,3,1,1,1,2,1 modules, the start pattern's is outermost
        /// (ISO/IEC 15438 §5.3). `nil` when the two sides do not say clearly.
        var startOnLeft: Bool?
    }

    static func refine(_ straight: GrayImage, square: Bool) -> Outline? {
        let w = straight.width, h = straight.height
        guard w >= 40, h >= 12 else { return nil }
        var sum = 0
        for p in straight.pixels { sum += Int(p) }
        let threshold = UInt8(sum / straight.pixels.count)
        var left: [(Double, Double)] = [], right: [(Double, Double)] = []
        // Brightness just outside each thick bar: quiet zone beyond the start pattern's, thin
        // bars beyond the stop pattern's (darker on average, even when blur merges them).
        var outsideLeft = 0, outsideRight = 0, outsideLeftCount = 0, outsideRightCount = 0
        let band = w * 3 / 10
        straight.pixels.withUnsafeBufferPointer { px in
            var y = h / 10
            while y < h - h / 10 {
                let row = y * w
                // The longest dark run in the left and the right band of this scan line.
                func longestRun(_ range: Range<Int>) -> (start: Int, end: Int)? {
                    var best: (Int, Int)? = nil, bestLength = 0, start = -1
                    for x in range {
                        let dark = px[row + x] < threshold
                        if dark && start < 0 { start = x }
                        if (!dark || x == range.upperBound - 1) && start >= 0 {
                            let end = dark ? x + 1 : x
                            if end - start > bestLength { bestLength = end - start; best = (start, end) }
                            start = -1
                        }
                    }
                    return bestLength >= 3 ? best : nil
                }
                func brightness(_ a: Int, _ b: Int) -> (sum: Int, count: Int) {
                    var sum = 0, x = max(0, a)
                    let end = min(w, b)
                    while x < end { sum += Int(px[row + x]); x += 1 }
                    return (sum, max(0, end - max(0, a)))
                }
                if let run = longestRun(0..<band) {
                    left.append((Double(y), Double(run.start)))
                    let width = run.end - run.start
                    let o = brightness(run.start - width * 6 / 5, run.start - 1)
                    outsideLeft += o.sum; outsideLeftCount += o.count
                }
                if let run = longestRun((w - band)..<w) {
                    right.append((Double(y), Double(run.end)))
                    let width = run.end - run.start
                    let o = brightness(run.end + 1, run.end + width * 6 / 5)
                    outsideRight += o.sum; outsideRightCount += o.count
                }
                y += 2
            }
        }
        guard left.count >= 6, right.count >= 6,
              let l = fit(left), let r = fit(right) else { return nil }
        var startOnLeft: Bool?
        if outsideLeftCount > 0, outsideRightCount > 0 {
            let l = Double(outsideLeft) / Double(outsideLeftCount), r = Double(outsideRight) / Double(outsideRightCount)
            if abs(l - r) > 12 { startOnLeft = l > r }
        }
        // The two bars are parallel on a rotated symbol; under perspective each keeps its own line.
        let margin = 0.04 * Double(w)
        if square {
            let slope = (l.slope + r.slope) / 2
            let norm = (1 + slope * slope).squareRoot()
            let down = Point(x: slope / norm, y: 1 / norm)          // along the bars
            let across = Point(x: 1 / norm, y: -slope / norm)       // along the rows
            let cy = Double(h) / 2
            let xl = l.intercept + l.slope * cy - margin, xr = r.intercept + r.slope * cy + margin
            let c = Point(x: (xl + xr) / 2, y: cy)
            let hw = (xr - xl) / 2, hh = Double(h) / 2
            func corner(_ a: Double, _ b: Double) -> Point {
                Point(x: c.x + across.x * hw * a + down.x * hh * b, y: c.y + across.y * hw * a + down.y * hh * b)
            }
            return Outline(corners: [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)], startOnLeft: startOnLeft)
        }
        let top = 0.0, bottom = Double(h)
        return Outline(corners: [Point(x: l.intercept + l.slope * top - margin, y: top), Point(x: r.intercept + r.slope * top + margin, y: top),
                                 Point(x: r.intercept + r.slope * bottom + margin, y: bottom), Point(x: l.intercept + l.slope * bottom - margin, y: bottom)],
                       startOnLeft: startOnLeft)
    }

    /// Theil–Sen line x = intercept + slope·y, after dropping points far from the median x.
    private static func fit(_ points: [(Double, Double)]) -> (intercept: Double, slope: Double)? {
        let xs = points.map(\.1).sorted()
        let medianX = xs[xs.count / 2]
        let spread = max(4.0, Double(xs.count > 4 ? xs[xs.count * 3 / 4] - xs[xs.count / 4] : 4) * 2)
        let kept = points.filter { abs($0.1 - medianX) <= spread * 2 }
        guard kept.count >= 4 else { return nil }
        let points = kept.map { (x: $0.0, y: $0.1) }
        guard let slope = TheilSen.slope(points, pairsPerPoint: 30), abs(slope) < 0.5 else { return nil }
        return (TheilSen.intercept(points, slope: slope), slope)
    }
}

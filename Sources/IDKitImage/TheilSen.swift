/// Robust straight-line fits (Theil–Sen) for the PDF417 locator and edge refiner and for the
/// document outlines' refinement: the median of pairwise slopes, then the median intercept, so
/// that a minority of stray points (print next to a symbol, a missed bar) does not tilt the line.
package enum TheilSen {
    /// The median slope of y over x among pairs of `points` (sampled to about `pairsPerPoint`
    /// partners per point, which bounds the work on long edges), or `nil` with fewer than two x.
    package static func slope(_ points: [(x: Double, y: Double)], pairsPerPoint: Int = 24) -> Double? {
        guard points.count >= 2 else { return nil }
        var slopes: [Double] = []
        let step = max(1, points.count / pairsPerPoint)
        var i = 0
        while i < points.count {
            var j = i + 1
            while j < points.count {
                let dx = points[j].x - points[i].x
                if dx != 0 { slopes.append((points[j].y - points[i].y) / dx) }
                j += step
            }
            i += step
        }
        guard !slopes.isEmpty else { return nil }
        slopes.sort()
        return slopes[slopes.count / 2]
    }

    /// The median of y − slope·x: the intercept of the line with that slope.
    package static func intercept(_ points: [(x: Double, y: Double)], slope: Double) -> Double {
        var intercepts = points.map { $0.y - slope * $0.x }
        intercepts.sort()
        return intercepts[intercepts.count / 2]
    }
}

import IDKitImage

/// A dark blob of the binarised image: one printed character, most of the time.
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

/// Dark-on-light binarisation against the local mean (integral image, window `2r+1`), then
/// 8-connected components by union–find over runs, in two passes.
enum ConnectedComponents {
    /// A pixel is ink when it is darker than its neighbourhood's mean by `contrast` (fraction)
    /// and by at least `minimumDifference` grey levels.
    static func find(in image: GrayImage, radius r: Int, contrast: Double = 0.12, minimumDifference: Int = 12,
                     maximumComponents: Int = 200_000) -> [Component] {
        let w = image.width, h = image.height
        guard w > 2 * r + 1, h > 2 * r + 1 else { return [] }
        // Integral image in Int: 255 × 40 MP ≈ 1.0 × 10^10 overflows UInt32 (2^32 ≈ 4.3 × 10^9).
        var integral = [Int](repeating: 0, count: (w + 1) * (h + 1))
        image.pixels.withUnsafeBufferPointer { px in
            integral.withUnsafeMutableBufferPointer { ii in
                for y in 0..<h {
                    var rowSum = 0
                    let src = y * w, dst = (y + 1) * (w + 1)
                    for x in 0..<w {
                        rowSum += Int(px[src + x])
                        ii[dst + x + 1] = ii[dst - (w + 1) + x + 1] + rowSum
                    }
                }
            }
        }
        // Labels by runs: each row's ink runs, merged with the 8-connected runs of the row above.
        var parent: [Int32] = []
        var runs: [(x0: Int32, x1: Int32, y: Int32, label: Int32)] = []
        runs.reserveCapacity(1 << 16)
        var previousRowStart = 0, previousRowEnd = 0
        func find(_ a: Int32) -> Int32 {
            var a = a
            while parent[Int(a)] != a {
                parent[Int(a)] = parent[Int(parent[Int(a)])]
                a = parent[Int(a)]
            }
            return a
        }
        let factor = Int((1 - contrast) * 1024)
        image.pixels.withUnsafeBufferPointer { px in
            integral.withUnsafeBufferPointer { ii in
                for y in 0..<h {
                    let y0 = max(0, y - r), y1 = min(h - 1, y + r)
                    let rowStart = runs.count
                    var x = 0
                    var inRun = false
                    var runStart = 0
                    while x <= w {
                        var ink = false
                        if x < w {
                            let x0 = max(0, x - r), x1 = min(w - 1, x + r)
                            let area = (x1 - x0 + 1) * (y1 - y0 + 1)
                            let sum = ii[(y1 + 1) * (w + 1) + x1 + 1] - ii[y0 * (w + 1) + x1 + 1]
                                - ii[(y1 + 1) * (w + 1) + x0] + ii[y0 * (w + 1) + x0]
                            let p = Int(px[y * w + x])
                            // p < mean·(1−contrast) and mean − p ≥ minimumDifference, in integers.
                            ink = p * area * 1024 < sum * factor && sum - p * area >= minimumDifference * area
                        }
                        if ink && !inRun { inRun = true; runStart = x }
                        if !ink && inRun {
                            inRun = false
                            let label = Int32(parent.count)
                            parent.append(label)
                            runs.append((Int32(runStart), Int32(x - 1), Int32(y), label))
                            // Runs of the row above that touch this one (8-connected: one pixel diagonal).
                            var k = previousRowStart
                            while k < previousRowEnd {
                                let above = runs[k]
                                if above.x1 >= Int32(runStart) - 1 && above.x0 <= Int32(x) {
                                    let a = find(above.label), b = find(label)
                                    if a != b { parent[Int(max(a, b))] = min(a, b) }
                                }
                                if above.x0 > Int32(x) { break }
                                k += 1
                            }
                        }
                        x += 1
                    }
                    previousRowStart = rowStart
                    previousRowEnd = runs.count
                    if parent.count > maximumComponents * 4 { break }
                }
            }
        }
        // Second pass: gather each root's box, pixel count and centroid.
        var index = [Int32](repeating: -1, count: parent.count)
        var components: [Component] = []
        for run in runs {
            let root = Int(find(run.label))
            var i = index[root]
            if i < 0 {
                i = Int32(components.count)
                index[root] = i
                components.append(Component(minX: run.x0, minY: run.y, maxX: run.x1, maxY: run.y, count: 0, sumX: 0, sumY: 0))
            }
            let n = Int64(run.x1 - run.x0 + 1)
            components[Int(i)].minX = min(components[Int(i)].minX, run.x0)
            components[Int(i)].maxX = max(components[Int(i)].maxX, run.x1)
            components[Int(i)].minY = min(components[Int(i)].minY, run.y)
            components[Int(i)].maxY = max(components[Int(i)].maxY, run.y)
            components[Int(i)].count += Int32(n)
            components[Int(i)].sumX += n * Int64(run.x0 + run.x1) / 2
            components[Int(i)].sumY += n * Int64(run.y)
        }
        return components
    }
}

import Testing
import IDKitImage
@testable import IDKitMRZReading

/// The band locator's ink components (OpenCV's box filter and connected components through the
/// shim) against their definition, written out naively here: a pixel is ink when it is darker
/// than the mean of its (2r+1)² window clipped to the image by the fraction `contrast` and by at
/// least `minimumDifference` gray levels (in integers: p·A·1024 < S·⌊(1−c)·1024⌋ and S − p·A ≥ d·A);
/// the ink's 8-connected components with their box, count and coordinate sums.
@Suite struct InkComponentTests {
    struct Blob: Hashable { var minX, minY, maxX, maxY, count: Int; var sumX, sumY: Int64 }

    static func reference(_ image: GrayImage, radius r: Int, contrast: Double = 0.12, minimumDifference d: Int = 12) -> Set<Blob> {
        let w = image.width, h = image.height
        let factor = Int64((1 - contrast) * 1024)
        var ink = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var s: Int64 = 0, a: Int64 = 0
                for yy in max(0, y - r)...min(h - 1, y + r) {
                    for xx in max(0, x - r)...min(w - 1, x + r) { s += Int64(image.pixels[yy * w + xx]); a += 1 }
                }
                let p = Int64(image.pixels[y * w + x])
                ink[y * w + x] = p * a * 1024 < s * factor && s - p * a >= Int64(d) * a
            }
        }
        var seen = [Bool](repeating: false, count: w * h), blobs = Set<Blob>()
        for start in 0..<(w * h) where ink[start] && !seen[start] {
            var stack = [start], b = Blob(minX: w, minY: h, maxX: 0, maxY: 0, count: 0, sumX: 0, sumY: 0)
            seen[start] = true
            while let i = stack.popLast() {
                let x = i % w, y = i / w
                b.minX = min(b.minX, x); b.maxX = max(b.maxX, x); b.minY = min(b.minY, y); b.maxY = max(b.maxY, y)
                b.count += 1; b.sumX += Int64(x); b.sumY += Int64(y)
                for dy in -1...1 {
                    for dx in -1...1 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, nx < w, ny >= 0, ny < h, ink[ny * w + nx], !seen[ny * w + nx] else { continue }
                        seen[ny * w + nx] = true
                        stack.append(ny * w + nx)
                    }
                }
            }
            blobs.insert(b)
        }
        return blobs
    }

    /// Dark strokes and dots of several grays on a light, unevenly lit page with noise.
    static func page(width: Int, height: Int, seed: UInt64) -> GrayImage {
        var state = seed
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
        var pixels = (0..<(width * height)).map { i in UInt8(170 + (i % width) * 60 / width + next() % 20) }
        for _ in 0..<(width * height / 150) {
            let x0 = next() % width, y0 = next() % height, len = 2 + next() % 9, vertical = next() % 2 == 0, gray = next() % 120
            for k in 0..<len {
                let x = vertical ? x0 : min(width - 1, x0 + k), y = vertical ? min(height - 1, y0 + k) : y0
                pixels[y * width + x] = UInt8(gray)
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// Radius 44 is the largest whose window sums times 1024 fit 32 bits (the shim's fast path
    /// over the middle of each row); 45 takes the 64-bit path everywhere.
    @Test(arguments: [(8, 90, 60, 1), (20, 70, 55, 2), (3, 80, 47, 3), (44, 100, 96, 4), (45, 100, 96, 5)])
    func matchTheirDefinition(radius: Int, width: Int, height: Int, seed: UInt64) {
        let image = Self.page(width: width, height: height, seed: seed)
        let found = ConnectedComponents.find(in: image, radius: radius)
        let blobs = Set(found.map { Blob(minX: Int($0.minX), minY: Int($0.minY), maxX: Int($0.maxX), maxY: Int($0.maxY),
                                         count: Int($0.count), sumX: $0.sumX, sumY: $0.sumY) })
        #expect(found.count == blobs.count)
        let reference = Self.reference(image, radius: radius)
        #expect(reference.count > 10, "the page has ink to find")
        #expect(blobs == reference)
    }

    /// The labels' width follows the ink: under 65,535 ink pixels 16-bit labels, above them 32-bit
    /// (OpenCV's 16-bit labeling overflows past 65,535 labels and crashed on a page of noise).
    /// A grid of isolated dark dots, one component each, on either side of the bound.
    @Test(arguments: [(250, 250, 15_625), (600, 600, 90_000)])
    func everyDotIsAComponentEitherSideOfTheLabelBound(width: Int, height: Int, dots: Int) {
        var pixels = [UInt8](repeating: 250, count: width * height)
        for y in stride(from: 0, to: height, by: 2) { for x in stride(from: 0, to: width, by: 2) { pixels[y * width + x] = 10 } }
        let found = ConnectedComponents.find(in: GrayImage(width: width, height: height, pixels: pixels), radius: 8)
        #expect(found.count == dots)
        #expect(found.allSatisfy { $0.count == 1 && $0.width == 1 && $0.height == 1 && $0.sumX % 2 == 0 && $0.sumY % 2 == 0 })
        let last = found.max { ($0.sumY, $0.sumX) < ($1.sumY, $1.sumX) }
        #expect(last?.sumX == Int64(width - 2) && last?.sumY == Int64(height - 2))
    }

    /// The band searches share one image's components: each window's and each resolution's are
    /// the ones a fresh search finds, and the half-resolution ones are not the full ones.
    @Test func sharedComponentsAreTheSearchesOwn() {
        // The page with a dark square wider than the small window: its middle is ink only in the
        // large one (in the small one the window's mean is as dark as the pixel).
        var image = Self.page(width: 120, height: 80, seed: 6)
        for y in 20..<50 { for x in 40..<70 { image.pixels[y * 120 + x] = 30 } }
        let ink = InkComponents(image)
        func boxes(_ c: [Component]) -> [[Int64]] { c.map { [Int64($0.minX), Int64($0.minY), Int64($0.maxX), Int64($0.maxY), Int64($0.count), $0.sumX, $0.sumY] } }
        for radius in [8, 20] {
            #expect(boxes(ink.components(radius: radius, halved: false)) == boxes(ConnectedComponents.find(in: image, radius: radius)))
            #expect(boxes(ink.components(radius: radius, halved: true)) == boxes(ConnectedComponents.find(in: MRZBandLocator.halved(image), radius: radius)))
        }
        #expect(boxes(ink.components(radius: 8, halved: true)) != boxes(ink.components(radius: 8, halved: false)))
        #expect(boxes(ink.components(radius: 8, halved: false)) != boxes(ink.components(radius: 20, halved: false)))
    }
}

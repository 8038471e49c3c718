import Foundation
import Testing
@testable import IDKitImage

/// The motion blur estimate and its restoration (OpenCV's dft through the shim) on a print-like
/// texture blurred here by a known straight-line motion: the estimate finds the motion it was
/// blurred with, a sharp texture shows none, and deblurring brings the texture back.
@Suite struct MotionBlurTests {
    static let width = 512, height = 384

    /// 900 dark strokes (2–4 px wide, 6–14 px long, upright or lying) on light paper, seeded.
    static let texture: [Double] = {
        var pixels = [Double](repeating: 235, count: width * height)
        var state: UInt64 = 12345
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33)
        }
        for _ in 0..<900 {
            let x = next() % width, y = next() % height
            var w = 2 + next() % 3, h = 6 + next() % 9
            if next() % 2 == 1 { swap(&w, &h) }
            for yy in y..<min(height, y + h) { for xx in x..<min(width, x + w) { pixels[yy * width + xx] = 40 } }
        }
        return pixels
    }()

    /// `pixels` averaged along a segment of `length` pixels at `degrees` (image coordinates, y
    /// down) through each pixel, sampled bilinearly, the border repeated.
    static func smeared(_ pixels: [Double], length: Double, degrees: Double) -> [Double] {
        let n = Int(4 * length) + 1
        let c = cos(degrees * .pi / 180), s = sin(degrees * .pi / 180)
        var out = [Double](repeating: 0, count: pixels.count)
        for k in 0..<n {
            let t = -length / 2 + length * Double(k) / Double(n - 1)
            for y in 0..<height {
                let sy = min(Double(height - 1), max(0, Double(y) + t * s))
                let y0 = Int(sy), y1 = min(height - 1, y0 + 1), fy = sy - Double(y0)
                for x in 0..<width {
                    let sx = min(Double(width - 1), max(0, Double(x) + t * c))
                    let x0 = Int(sx), x1 = min(width - 1, x0 + 1), fx = sx - Double(x0)
                    let top = pixels[y0 * width + x0] * (1 - fx) + pixels[y0 * width + x1] * fx
                    let bottom = pixels[y1 * width + x0] * (1 - fx) + pixels[y1 * width + x1] * fx
                    out[y * width + x] += (top * (1 - fy) + bottom * fy) / Double(n)
                }
            }
        }
        return out
    }

    static func image(_ pixels: [Double]) -> GrayImage {
        GrayImage(width: width, height: height, pixels: pixels.map { UInt8(max(0, min(255, $0.rounded()))) })
    }

    /// Pearson's correlation of the image's pixels with `b`.
    static func correlation(_ a: GrayImage, _ b: [Double]) -> Double {
        let x = a.pixels.map(Double.init), n = Double(b.count)
        let mx = x.reduce(0, +) / n, my = b.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (u, v) in zip(x, b) { sxy += (u - mx) * (v - my); sxx += (u - mx) * (u - mx); syy += (v - my) * (v - my) }
        return sxy / (sxx * syy).squareRoot()
    }

    @Test(arguments: [(12.0, 0.0), (16.0, 120.0), (9.0, 45.0)])
    func theEstimateFindsTheMotion(length: Double, degrees: Double) throws {
        let blur = try #require(Self.image(Self.smeared(Self.texture, length: length, degrees: degrees)).motionBlur())
        #expect(abs(blur.length - length) < 1.5, "length \(blur.length)")
        let found = blur.angle * 180 / .pi
        #expect(min(abs(found - degrees), 180 - abs(found - degrees)) < 6, "angle \(found)°")
        #expect(blur.isNoticeable, "anisotropy \(blur.anisotropy)")
    }

    @Test func aSharpTextureShowsNoBlur() throws {
        let blur = try #require(Self.image(Self.texture).motionBlur())
        #expect(!blur.isNoticeable, "anisotropy \(blur.anisotropy), length \(blur.length)")
        #expect(blur.anisotropy < 0.3)
    }

    @Test func deblurringBringsThePrintBack() throws {
        let blurred = Self.image(Self.smeared(Self.texture, length: 14, degrees: 30))
        let blur = try #require(blurred.motionBlur())
        let restored = try #require(blurred.deblurred(blur))
        #expect(restored.width == Self.width && restored.height == Self.height)
        let before = Self.correlation(blurred, Self.texture), after = Self.correlation(restored, Self.texture)
        #expect(after > before + 0.15, "correlation with the sharp texture \(before) blurred, \(after) restored")
    }

    @Test func smallBlankAndHugeImagesAreLeftAlone() {
        // Smaller than one 128 × 128 tile, or blank: nothing to estimate from.
        #expect(GrayImage(width: 127, height: 400, pixels: [UInt8](repeating: 90, count: 127 * 400)).motionBlur() == nil)
        #expect(GrayImage(width: 300, height: 300, pixels: [UInt8](repeating: 200, count: 300 * 300)).motionBlur() == nil)
        // Over the restoration's pixel limit: not restored (it would hold about 40 bytes a pixel).
        let side = Int(Double(GrayImage.largestDeblurredPixels).squareRoot()) + 1
        let huge = GrayImage(width: side, height: side, pixels: [UInt8](repeating: 200, count: side * side))
        #expect(huge.deblurred(MotionBlur(length: 10, angle: 0, strength: 5, anisotropy: 1)) == nil)
    }
}

import Testing
@testable import IDKitImage

/// The 3 × 3 rank filters of the band search's looks (OpenCV's erode and dilate through the shim)
/// against their definition: each pixel the darkest or lightest of its 3 × 3 neighborhood, the
/// pixels outside the image repeating the border's.
@Suite struct RankFilterTests {
    static func reference(_ image: GrayImage, maximum: Bool) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        for y in 0..<image.height {
            for x in 0..<image.width {
                var v: UInt8 = maximum ? 0 : 255
                for dy in -1...1 {
                    for dx in -1...1 {
                        let sx = min(image.width - 1, max(0, x + dx)), sy = min(image.height - 1, max(0, y + dy))
                        let p = image.pixels[sy * image.width + sx]
                        v = maximum ? max(v, p) : min(v, p)
                    }
                }
                out[y * image.width + x] = v
            }
        }
        return out
    }

    @Test(arguments: [(3, 3), (17, 5), (64, 41)])
    func matchTheirDefinitionOnNoise(width: Int, height: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(width * 131 + height)
        let pixels = (0..<(width * height)).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let image = GrayImage(width: width, height: height, pixels: pixels)
        #expect(image.darkened3x3().pixels == Self.reference(image, maximum: false))
        #expect(image.lightened3x3().pixels == Self.reference(image, maximum: true))
    }

    @Test func aDarkDotGrowsToThreeByThreeAndALightOneVanishes() {
        var pixels = [UInt8](repeating: 200, count: 25)
        pixels[12] = 10
        let image = GrayImage(width: 5, height: 5, pixels: pixels)
        let darkened = image.darkened3x3()
        #expect(darkened.pixels.enumerated().filter { $0.element == 10 }.map(\.offset) == [6, 7, 8, 11, 12, 13, 16, 17, 18])
        #expect(image.lightened3x3().pixels == [UInt8](repeating: 200, count: 25))
    }

    @Test func tooSmallToFilterIsUnchanged() {
        let image = GrayImage(width: 2, height: 7, pixels: Array(0..<14))
        #expect(image.darkened3x3() == image)
    }
}

import Foundation
import Testing
import IDKitImage
import IDKitMRZ
import IDKitScan

/// `TestVectors/images/manifest.json` (written by `make_images.py`, seeded).
struct ImageVectors: Decodable, Sendable {
    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var group: String
        var layout: String
        var lines: [String]
        var quad: [[Double]]
        var testDescription: String { file }
    }
    struct Frames: Decodable, Sendable { var files: [String]; var layout: String; var lines: [String] }
    var images: [Entry]
    var frames: [Frames]
    /// A clean TD3 whose first 36 characters per line also pass a TD2's check digits.
    var widened: Entry
    /// A blurred TD3 printed with a letter in its birth date and a `K` among its name's fillers.
    var misprinted: Entry
    /// A TD2 in thin faint print that only a half-resolution search finds.
    var faint: Entry
    /// A card printed with the French national ID specimen's MRZ (2 × 36, the 1988 layout).
    var french: Entry
    /// Documents on a plain background a few gray levels from their own color, close to the frame,
    /// with their true corners (`flatscan_vectors`).
    var flatscan: [FlatScan]
    struct FlatScan: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var layout: String
        var lines: [String]
        var corners: [[Double]]
        var testDescription: String { file }
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors/images")
    static let file: ImageVectors = try! JSONDecoder().decode(
        ImageVectors.self, from: Data(contentsOf: directory.appendingPathComponent("manifest.json")))
    /// The first image of every degradation group (a debug build reads each slowly).
    static let onePerGroup: [Entry] = {
        var seen = Set<String>()
        return file.images.filter { seen.insert($0.group).inserted }
    }()

    static func image(_ name: String) -> GrayImage {
        try! ImageDecoder.decodeFile(atPath: directory.appendingPathComponent(name).path).image
    }
}

@Suite struct ScanTests {
    let scanner = DocumentScanner(readBarcodes: false)

    @Test(arguments: ImageVectors.onePerGroup)
    func readsExactlyAndFindsTheBand(_ v: ImageVectors.Entry) throws {
        let scan = scanner.scan(ImageVectors.image(v.file))
        let reading = try #require(scan.reading, "no reading")
        #expect(reading.lines == v.lines)
        #expect(reading.format.rawValue == v.layout)
        #expect(scan.parsed?.isValid == true)
        // Verification is deliberately strict (one plausible other character that no check digit
        // covers withholds it): asserted on clean scans; the benchmark reports the rate elsewhere.
        if v.group == "clean" {
            #expect(reading.verified)
            #expect(scan.status == .ok)
        }
        // The band within a few pixels of the truth (a quarter of a character).
        let band = try #require(scan.band)
        let truth = v.quad.map { Point(x: $0[0], y: $0[1]) }
        let error = zip(band.quad.corners, truth).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()!
        #expect(error < max(4, 0.3 * band.characterHeight), "corner error \(error) px")
        #expect(scan.quality?.mrzCharHeightPx.map { $0 > 8 && $0 < 40 } == true)
    }

    @Test func framesFusedGiveOneVerifiedReading() throws {
        let frames = try #require(ImageVectors.file.frames.first)
        let scan = scanner.scan(frames: frames.files.map(ImageVectors.image))
        #expect(scan.reading?.lines == frames.lines)
        #expect(scan.reading?.verified == true)
    }

    /// A clean image made blurred, dark and glared on purpose: each flag and hint in turn.
    @Test func qualityFlagsFollowTheDamage() throws {
        let v = ImageVectors.file.images.first { $0.group == "clean" }!
        let clean = ImageVectors.image(v.file)
        let good = try #require(scanner.scan(clean).quality)
        #expect(good.isSharp && good.isGlareFree && good.isAdequateResolution)
        #expect(good.hints.isEmpty)

        // Blur: a 7×7 box, three times (about a 3.5-pixel Gaussian).
        var blurred = clean
        for _ in 0..<3 { blurred = boxBlur(blurred, radius: 3) }
        let blurry = try #require(scanner.scan(blurred).quality)
        #expect(!blurry.isSharp)
        #expect(blurry.hints.contains("sharpnessLow"))

        var dark = clean
        dark.pixels = dark.pixels.map { $0 / 6 }
        #expect(ImageQuality(image: dark, band: nil).hints.contains("brightnessLow"))

        // A specular spot over the MRZ.
        let band = try #require(scanner.scan(clean).band)
        var glared = clean
        let c = band.quad.corners, cx = (c[0].x + c[2].x) / 2, cy = (c[0].y + c[2].y) / 2
        for y in 0..<glared.height {
            for x in 0..<glared.width where hypot(Double(x) - cx, Double(y) - cy) < band.characterHeight * 2 {
                glared.pixels[y * glared.width + x] = 255
            }
        }
        let glare = ImageQuality(image: glared, band: band)
        #expect(!glare.isGlareFree)
        #expect(glare.hints.contains("glareOnMRZ"))
    }

    @Test func whatCannotBeReadSaysWhy() {
        let blank = scanner.scan(GrayImage(width: 640, height: 480, filledWith: 200))
        #expect(blank.status == .mrzNotFound)
        #expect(blank.quality?.hints == ["documentNotDetected"])
        #expect(scanner.scan(GrayImage(width: 60, height: 20)).status == .imageTooSmall)
        #expect(scanner.scan(GrayImage(width: 400, height: 23, filledWith: 200)).status == .imageTooSmall)
        // A crop of the zone alone may be as low as two lines of 8 px characters: looked at.
        #expect(scanner.scan(GrayImage(width: 400, height: 24, filledWith: 200)).status == .mrzNotFound)
        #expect(scanner.scan(GrayImage(width: 24, height: 400, filledWith: 200)).status == .mrzNotFound)
        let notAnImage = scanner.scan(file: ImageVectors.directory.appendingPathComponent("manifest.json").path)
        #expect(notAnImage.status == .unsupportedImage)
        #expect(notAnImage.reason?.contains("not a PNG, JPEG, PGM, BMP, TIFF, WebP, GIF, HEIC or JPEG 2000 file") == true)
    }

    @Test(arguments: 1...8)
    func exifOrientationTurnsTheImageUpright(_ orientation: Int) {
        // A 3×2 image: row 0 = 1 2 3, row 1 = 4 5 6. Each tag's upright view (EXIF 2.3 §4.6.4).
        let image = GrayImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let expected: [Int: (Int, Int, [UInt8])] = [
            1: (3, 2, [1, 2, 3, 4, 5, 6]), 2: (3, 2, [3, 2, 1, 6, 5, 4]), 3: (3, 2, [6, 5, 4, 3, 2, 1]),
            4: (3, 2, [4, 5, 6, 1, 2, 3]), 5: (2, 3, [1, 4, 2, 5, 3, 6]), 6: (2, 3, [4, 1, 5, 2, 6, 3]),
            7: (2, 3, [6, 3, 5, 2, 4, 1]), 8: (2, 3, [3, 6, 2, 5, 1, 4]),
        ]
        let upright = image.applyingEXIFOrientation(orientation)
        let (w, h, pixels) = expected[orientation]!
        #expect(upright.width == w && upright.height == h)
        #expect(upright.pixels == pixels)
    }

    func boxBlur(_ image: GrayImage, radius r: Int) -> GrayImage {
        var out = image
        let w = image.width, h = image.height
        var tmp = image.pixels
        for y in 0..<h {
            for x in 0..<w {
                var s = 0, n = 0
                for dx in -r...r where x + dx >= 0 && x + dx < w { s += Int(image.pixels[y * w + x + dx]); n += 1 }
                tmp[y * w + x] = UInt8(s / n)
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                var s = 0, n = 0
                for dy in -r...r where y + dy >= 0 && y + dy < h { s += Int(tmp[(y + dy) * w + x]); n += 1 }
                out.pixels[y * w + x] = UInt8(s / n)
            }
        }
        return out
    }
}

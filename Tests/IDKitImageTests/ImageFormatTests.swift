import Foundation
import Testing
@testable import IDKitImage

/// Every image format the image layer reads, against the PNG twin the committed
/// script made them from (TestVectors/images/formats/make_formats.py), and headers that claim
/// 100000 × 100000 pixels, refused before any pixel memory is allocated.
@Suite struct ImageFormatTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors/images/formats")

    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: directory.appendingPathComponent(name))) }
    static func decode(_ name: String) throws -> GrayImage { try ImageDecoder.decode(try bytes(name)) }
    static let twin: GrayImage = try! decode("twin.png")

    /// The twin's top-left 210 × 100 pixels (make_formats.py's CROP).
    static var twinCrop: GrayImage { twin.cropped(x: 0, y: 0, width: 210, height: 100) }

    @Test(arguments: [("gray8.bmp", ImageDecoder.Format.bmp), ("two-pages.tif", .tiff), ("lossless.webp", .webp),
                      ("gray.gif", .gif), ("lossless.heic", .heif), ("lossless.jp2", .jpeg2000)])
    func losslessFormatsDecodeToTheTwinsPixels(_ name: String, _ format: ImageDecoder.Format) throws {
        let data = try Self.bytes(name)
        #expect(ImageDecoder.Format.of(data) == format)
        let image = try ImageDecoder.decode(data)
        #expect(image.width == Self.twin.width && image.height == Self.twin.height)
        #expect(image.pixels == Self.twin.pixels)
    }

    @Test(arguments: ["rgb24.bmp", "rgb32-topdown.bmp"])
    func colorBitmapsBottomUpAndTopDown(_ name: String) throws {
        let image = try Self.decode(name)
        #expect(image.width == 210 && image.height == 100)
        #expect(image.pixels == Self.twinCrop.pixels)
    }

    @Test(arguments: ["lossy.webp", "lossy.heic"])
    func lossyFormatsStayCloseToTheTwin(_ name: String) throws {
        let image = try Self.decode(name)
        #expect(image.width == Self.twin.width && image.height == Self.twin.height)
        let differences = zip(image.pixels, Self.twin.pixels).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        #expect(mean < 3, "mean difference \(mean)")
    }

    @Test func everyPageOfATIFF() throws {
        let pages = try ImageDecoder.decodePages(try Self.bytes("two-pages.tif"))
        #expect(pages.count == 2)
        #expect(pages[0].image.pixels == Self.twin.pixels)
        // The second page is the first turned 180°: its pixels in reverse order.
        #expect(pages[1].image.pixels == Array(Self.twin.pixels.reversed()))
        #expect(pages.map(\.exifOrientation) == [1, 1])
        // Other formats are one page.
        #expect(try ImageDecoder.decodePages(try Self.bytes("gray.gif")).count == 1)
        #expect(try ImageDecoder.pageCount(try Self.bytes("two-pages.tif")) == 2)
        // The pages together within the pixel limit: two pages of 420 × 265 exceed 150,000.
        let limits = ImageLimits(maxPixels: 150_000)
        #expect(throws: ImageError(.tooLarge, "the pages of the TIFF file hold more than 150000 pixels together (page 2 is past the limit)")) {
            try ImageDecoder.decodePages(try Self.bytes("two-pages.tif"), limits: limits)
        }
        #expect(try ImageDecoder.decodePage(try Self.bytes("two-pages.tif"), page: 1, limits: limits).image.pixels == Array(Self.twin.pixels.reversed()))
    }

    @Test func theTIFFOrientationTagIsReportedLikeEXIF() throws {
        let (image, orientation) = try ImageDecoder.decodeWithOrientation(try Self.bytes("orientation-3.tif"))
        #expect(orientation == 3)
        #expect(image.pixels == Array(Self.twin.pixels.reversed()))
        #expect(image.applyingEXIFOrientation(orientation).pixels == Self.twin.pixels)
    }

    @Test func theWebPEXIFOrientationIsReported() throws {
        let (image, orientation) = try ImageDecoder.decodeWithOrientation(try Self.bytes("orientation-6.webp"))
        #expect(orientation == 6)
        #expect(image.width == Self.twin.height && image.height == Self.twin.width)
        #expect(image.applyingEXIFOrientation(orientation).pixels == Self.twin.pixels)
        // Without an EXIF chunk: 0, as for a JPEG without one.
        #expect(try ImageDecoder.decodeWithOrientation(try Self.bytes("lossless.webp")).exifOrientation == 0)
    }

    // MARK: Hostile headers

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }

    /// A 24-bit BMP header claiming 100000 × 100000 and a few bytes of pixels.
    static var hugeBMP: [UInt8] {
        Array("BM".utf8) + le32(54 + 16) + le32(0) + le32(54)
            + le32(40) + le32(100_000) + le32(100_000) + le16(1) + le16(24) + le32(0) + le32(0) + le32(2835) + le32(2835) + le32(0) + le32(0)
            + [UInt8](repeating: 0x80, count: 16)
    }

    /// A little-endian TIFF whose one IFD says 100000 × 100000, 8-bit gray, uncompressed.
    static var hugeTIFF: [UInt8] {
        func entry(_ tag: Int, _ type: Int, _ value: Int) -> [UInt8] { le16(tag) + le16(type) + le32(1) + le32(value) }
        let entries = [entry(256, 4, 100_000), entry(257, 4, 100_000), entry(258, 3, 8), entry(259, 3, 1), entry(262, 3, 1),
                       entry(273, 4, 8), entry(278, 4, 100_000), entry(279, 4, 1_000_000_000)]
        return [0x49, 0x49, 0x2A, 0x00] + le32(8) + le16(entries.count) + entries.flatMap { $0 } + le32(0)
    }

    /// A GIF whose logical screen is 65535 × 65535 (the most its 16-bit fields hold).
    static var hugeGIF: [UInt8] {
        Array("GIF89a".utf8) + le16(65535) + le16(65535) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
            + [0x2C] + le16(0) + le16(0) + le16(65535) + le16(65535) + [0] + [2, 2, 0x4C, 0x01, 0] + [0x3B]
    }

    /// An extended WebP (VP8X) whose canvas is 100000 × 100000, with a tiny lossless image.
    static var hugeWebP: [UInt8] {
        func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
        let vp8x = Array("VP8X".utf8) + le32(10) + [0, 0, 0, 0] + le24(100_000 - 1) + le24(100_000 - 1)
        let vp8l = Array("VP8L".utf8) + le32(5) + [0x2F, 0, 0, 0, 0] + [0]
        let body = Array("WEBP".utf8) + vp8x + vp8l
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// The lossless HEIC with its image-spatial-extents box ('ispe') set to 100000 × 100000.
    static func hugeHEIF() throws -> [UInt8] {
        var data = try bytes("lossless.heic")
        let ispe = Array("ispe".utf8)
        guard let at = (0..<(data.count - 16)).first(where: { Array(data[$0..<($0 + 4)]) == ispe }) else { return data }
        // 'ispe', version and flags (4 bytes), width, height: big-endian.
        for (k, v) in [100_000, 100_000].enumerated() {
            for b in 0..<4 { data[at + 8 + 4 * k + b] = UInt8(v >> (8 * (3 - b)) & 0xFF) }
        }
        return data
    }

    @Test func headersClaimingHugeImagesAreRefusedBeforeAllocation() throws {
        for (name, data) in [("BMP", Self.hugeBMP), ("TIFF", Self.hugeTIFF), ("GIF", Self.hugeGIF)] {
            #expect(throws: ImageError(.tooLarge, name == "GIF" ? "the image is 65535×65535 = 4294836225 pixels; the limit is 40000000"
                                                               : "the image is 100000×100000 = 10000000000 pixels; the limit is 40000000")) {
                try ImageDecoder.decode(data)
            }
        }
        // WebP and HEIF: libwebp and libheif judge the header first (a canvas without a matching
        // image, an extent past libheif's own security limit); refused either way, never decoded.
        for data in [Self.hugeWebP, try Self.hugeHEIF()] {
            do {
                let image = try ImageDecoder.decode(data)
                Issue.record("decoded a \(image.width)×\(image.height) image from a hostile header")
            } catch {
                #expect(error.kind == .tooLarge || error.kind == .corrupt, "\(error)")
            }
        }
    }

    @Test func aJPEG2000OverThePixelLimitIsRefusedFromItsHeader() throws {
        let data = try Self.bytes("lossless.jp2")
        do {
            _ = try ImageDecoder.decode(data, limits: ImageLimits(maxPixels: 10_000))
            Issue.record("a 420-pixel-wide JPEG 2000 decoded under a 10,000-pixel limit")
        } catch {
            #expect(error.kind == .tooLarge, "\(error)")
        }
    }

    @Test func truncatedFilesOfEveryFormatGetAClearError() throws {
        for name in ["gray8.bmp", "two-pages.tif", "lossless.webp", "gray.gif", "lossless.heic", "lossless.jp2"] {
            let data = try Self.bytes(name)
            let cut = Array(data.prefix(data.count / 3))
            do {
                let image = try ImageDecoder.decode(cut)
                // A TIFF or GIF cut short may still hold whole rows; never more pixels than the twin.
                #expect(image.pixels.count <= Self.twin.pixels.count, "\(name)")
                Issue.record("\(name) cut to a third decoded without an error")
            } catch {
                #expect(error.kind == .corrupt, "\(name): \(error)")
                #expect(error.message.hasPrefix("corrupt") || error.message.hasPrefix("truncated"), "\(name): \(error.message)")
            }
        }
    }
}

/// Color decoding: decoded once in RGB, the gray the readers use derived from it is
/// the gray decode's image.
@Suite struct ColorDecodingTests {
    /// A small RGB test card: a gradient in each channel and a saturated square.
    static let card: ColorImage = {
        let w = 37, h = 23
        var px = [UInt8]()
        for y in 0..<h {
            for x in 0..<w {
                let square = (10..<20).contains(x) && (5..<15).contains(y)
                let red = UInt8(x * 255 / (w - 1)), green = UInt8(y * 255 / (h - 1)), blue = UInt8((x + y) * 4 % 256)
                px += square ? [200, 30, 60] : [red, green, blue]
            }
        }
        return ColorImage(width: w, height: h, pixels: px)
    }()

    @Test func colorPNGRoundTripsAndItsGrayIsTheGrayDecode() throws {
        let png = try ImageEncoder.png(Self.card)
        let (color, orientation) = try ImageDecoder.decodeColorPage(png)
        #expect(orientation == 0)
        #expect(color == Self.card)
        let gray = try ImageDecoder.decode(png)
        #expect(gray == color.gray)
        // BT.601 with the decoders' integer weights: the red square's gray level.
        // A crop in color is the same rectangle as in gray, clipped to the image the same way.
        let crop = color.cropped(x: 30, y: -4, width: 20, height: 10)
        #expect(crop.width == 7 && crop.height == 6)
        #expect(crop.gray == color.gray.cropped(x: 30, y: -4, width: 20, height: 10))
        let red: Int = 200, green: Int = 30, blue: Int = 60
        let luma = (77 * red + 150 * green + 29 * blue + 128) >> 8
        #expect(Int(color.gray[12, 7]) == luma)
    }

    /// A 24-bit bottom-up BMP written here from the card: the colors come back, and the gray.
    @Test func colorBMP() throws {
        let w = Self.card.width, h = Self.card.height
        let stride = (w * 3 + 3) / 4 * 4
        typealias T = ImageFormatTests
        var bmp: [UInt8] = Array("BM".utf8)
        for field in [T.le32(54 + stride * h), T.le32(0), T.le32(54), T.le32(40), T.le32(w), T.le32(h), T.le16(1), T.le16(24),
                      T.le32(0), T.le32(stride * h), T.le32(2835), T.le32(2835), T.le32(0), T.le32(0)] {
            bmp += field
        }
        for y in (0..<h).reversed() {
            var row = [UInt8]()
            for x in 0..<w { let i = 3 * (y * w + x); row += [Self.card.pixels[i + 2], Self.card.pixels[i + 1], Self.card.pixels[i]] }
            bmp += row + [UInt8](repeating: 0, count: stride - row.count)
        }
        let color = try ImageDecoder.decodeColorPage(bmp).image
        #expect(color == Self.card)
        #expect(try ImageDecoder.decode(bmp) == color.gray)
    }

    /// The committed formats: in color and through the derived gray, the same pixels as the gray
    /// decode (lossless formats exactly).
    @Test(arguments: ["gray8.bmp", "rgb24.bmp", "two-pages.tif", "lossless.webp", "gray.gif", "lossless.heic", "twin.png"])
    func everyFormatDecodesInColor(_ name: String) throws {
        let data = try ImageFormatTests.bytes(name)
        let color = try ImageDecoder.decodeColorPage(data).image
        #expect(color.gray == (try ImageDecoder.decode(data)))
    }

    /// JPEG: libjpeg's gray output is the stored luma; the gray of its RGB output is the same to
    /// within rounding.
    @Test func jpegColorGrayIsTheLumaToWithinRounding() throws {
        let url = ImageFormatTests.directory.deletingLastPathComponent().appendingPathComponent("clean-00-td3.jpg")
        let data = Array(try Data(contentsOf: url))
        let color = try ImageDecoder.decodeColorPage(data).image
        let gray = try ImageDecoder.decode(data)
        let differences = zip(color.gray.pixels, gray.pixels).map { abs(Int($0) - Int($1)) }
        #expect(differences.max()! <= 3)
        #expect(Double(differences.reduce(0, +)) / Double(differences.count) < 0.7)
        // A color photo: the channels differ somewhere.
        #expect(stride(from: 0, to: color.pixels.count, by: 3).contains { color.pixels[$0] != color.pixels[$0 + 2] })
    }

    @Test func hugeHeadersAreRefusedInColorToo() throws {
        #expect(throws: ImageError.self) { try ImageDecoder.decodeColorPage(try ImageFormatTests.hugeHEIF()) }
    }
}

internal import CImageCodecs
import IDKitCore
#if canImport(Glibc)
import Glibc
#endif

/// Why an image could not be decoded.
public struct ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case empty, unsupportedFormat, corrupt, tooLarge, fileTooLarge, unreadable
    }
    public let kind: Kind
    public let message: String
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }
    public var description: String { message }
}

extension ImageError: ClassifiedError {
    public var kindName: String { kind.rawValue }
    public var errorClass: ErrorClass {
        switch kind {
        case .tooLarge, .fileTooLarge: .tooLarge
        case .unsupportedFormat: .unsupported
        case .empty, .corrupt, .unreadable: .invalidInput
        }
    }
}

/// Limits that keep a hostile file from taking unbounded memory.
public struct ImageLimits: Sendable, Equatable {
    /// Width × height above which decoding is refused before any pixel memory is allocated.
    public var maxPixels: Int
    /// Encoded file size above which the file is refused.
    public var maxFileBytes: Int

    public init(maxPixels: Int = 40_000_000, maxFileBytes: Int = 64 << 20) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
    }

    public static let `default` = ImageLimits()
}

/// Decodes PNG (libpng), JPEG (libjpeg), PGM (`P5` binary, `P2` ASCII), BMP (uncompressed), TIFF
/// (libtiff, every page), WebP (libwebp), GIF (giflib, the first frame) and HEIC/HEIF (libheif) to
/// 8-bit gray or to RGB, each size checked against the limits before pixel memory is allocated.
public enum ImageDecoder {
    /// The formats, told apart by their first bytes.
    public enum Format: String, Sendable, CaseIterable {
        case png = "PNG", jpeg = "JPEG", pgm = "PGM", bmp = "BMP", tiff = "TIFF", webp = "WebP", gif = "GIF", heif = "HEIF", jpeg2000 = "JPEG 2000"

        /// The format of `data` from its signature; an ``ImageError/Kind/unsupportedFormat`` that
        /// names its first bytes for none of them (empty data is left to the decoder to call empty).
        public static func required(_ data: [UInt8]) throws(ImageError) -> Format? {
            guard !data.isEmpty else { return nil }
            guard let format = of(data) else {
                let head = data.prefix(4).map { String(format: "%02x", $0) }.joined(separator: " ")
                throw ImageError(.unsupportedFormat, "not a JPEG, PNG, PGM, BMP, TIFF, WebP, GIF, HEIC or JPEG 2000 image (first bytes \(head))")
            }
            return format
        }

        /// The format of `data` from its signature; `nil` for none of them.
        public static func of(_ data: [UInt8]) -> Format? {
            func at(_ offset: Int, _ bytes: [UInt8]) -> Bool {
                data.count >= offset + bytes.count && Array(data[offset..<(offset + bytes.count)]) == bytes
            }
            if at(0, [0x89, 0x50, 0x4E, 0x47]) { return .png }
            if at(0, [0xFF, 0xD8]) { return .jpeg }
            if data.count >= 2, data[0] == UInt8(ascii: "P"), data[1] == UInt8(ascii: "5") || data[1] == UInt8(ascii: "2") { return .pgm }
            if at(0, Array("BM".utf8)) { return .bmp }
            // Little- and big-endian TIFF, classic and BigTIFF.
            if at(0, [0x49, 0x49, 0x2A, 0x00]) || at(0, [0x4D, 0x4D, 0x00, 0x2A]) || at(0, [0x49, 0x49, 0x2B, 0x00])
                || at(0, [0x4D, 0x4D, 0x00, 0x2B]) { return .tiff }
            if at(0, Array("RIFF".utf8)), at(8, Array("WEBP".utf8)) { return .webp }
            // JPEG 2000: the JP2 signature box, or a bare codestream (SOC, SIZ).
            if at(0, [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) || at(0, [0xFF, 0x4F, 0xFF, 0x51]) { return .jpeg2000 }
            if at(0, Array("GIF87a".utf8)) || at(0, Array("GIF89a".utf8)) { return .gif }
            // ISO BMFF with a HEIF brand (ISO/IEC 23008-12): heic, heix, mif1, msf1, avif, …
            if at(4, Array("ftyp".utf8)), data.count >= 12 {
                let brand = String(decoding: data[8..<12], as: UTF8.self)
                if ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1", "avif", "avis"].contains(brand) { return .heif }
            }
            return nil
        }
    }

    /// The image in `data`, whose format is recognized from its first bytes.
    public static func decode(_ data: [UInt8], limits: ImageLimits = .default) throws(ImageError) -> GrayImage {
        try decodeWithOrientation(data, limits: limits).image
    }

    /// The image and its JPEG EXIF orientation (1–8; 0 when absent or not a JPEG), not applied.
    public static func decodeWithOrientation(_ data: [UInt8], limits: ImageLimits = .default) throws(ImageError) -> (image: GrayImage, exifOrientation: Int) {
        let raster = try decodeRaster(data, page: 0, channels: 1, limits: limits)
        return (GrayImage(width: raster.width, height: raster.height, pixels: raster.pixels), raster.orientation)
    }

    /// Page `page` (0 first) in color (RGB), with its orientation, not applied: decoded once, for
    /// callers that keep color (document crops) and read the gray image derived from it
    /// (``ColorImage/gray``).
    public static func decodeColorPage(_ data: [UInt8], page: Int = 0, limits: ImageLimits = .default) throws(ImageError) -> (image: ColorImage, exifOrientation: Int) {
        let raster = try decodeRaster(data, page: page, channels: 3, limits: limits)
        return (ColorImage(width: raster.width, height: raster.height, pixels: raster.pixels), raster.orientation)
    }

    /// Decoded pixels, `channels` (1 gray, 3 RGB) bytes a pixel, and the orientation the file records.
    struct Raster {
        var width: Int, height: Int, pixels: [UInt8], orientation: Int
    }

    /// One page of any format, gray or RGB, every size checked against `limits` first.
    static func decodeRaster(_ data: [UInt8], page: Int, channels: Int, limits: ImageLimits) throws(ImageError) -> Raster {
        guard !data.isEmpty else { throw ImageError(.empty, "the file is empty") }
        guard data.count <= limits.maxFileBytes else {
            throw ImageError(.fileTooLarge, "the file has \(data.count) bytes; the limit is \(limits.maxFileBytes)")
        }
        let format = Format.of(data)
        if page > 0, format != .tiff {
            throw ImageError(.corrupt, "a \(format?.rawValue ?? "file") of one page has no page \(page + 1)")
        }
        let c = Int32(channels)
        switch format {
        case .png: return try decodeC(data, "PNG", channels: channels, limits: limits) { d, n, m, p, w, h, _, e, k in idk_png_decode(d, n, m, c, p, w, h, e, k) }
        case .jpeg: return try decodeC(data, "JPEG", channels: channels, limits: limits) { d, n, m, p, w, h, o, e, k in idk_jpeg_decode(d, n, m, c, p, w, h, o, e, k) }
        case .tiff:
            return try decodeC(data, page == 0 ? "TIFF" : "TIFF page \(page + 1)", channels: channels, limits: limits) { d, n, m, p, w, h, o, e, k in
                idk_tiff_decode(d, n, Int32(page), m, c, p, w, h, o, e, k)
            }
        case .bmp: return try decodeC(data, "BMP", channels: channels, limits: limits) { d, n, m, p, w, h, _, e, k in idk_bmp_decode(d, n, m, c, p, w, h, e, k) }
        case .webp:
            var raster = try decodeC(data, "WebP", channels: channels, limits: limits) { d, n, m, p, w, h, _, e, k in idk_webp_decode(d, n, m, c, p, w, h, e, k) }
            raster.orientation = Int(data.withUnsafeBufferPointer { idk_webp_exif_orientation($0.baseAddress, $0.count) })
            return raster
        case .gif: return try decodeC(data, "GIF", channels: channels, limits: limits) { d, n, m, p, w, h, _, e, k in idk_gif_decode(d, n, m, c, p, w, h, e, k) }
        case .jpeg2000: return try decodeC(data, "JPEG 2000", channels: channels, limits: limits) { d, n, m, p, w, h, _, e, k in idk_jp2_decode(d, n, m, c, p, w, h, e, k) }
        case .heif: return try decodeC(data, "HEIF", channels: channels, limits: limits) { d, n, m, p, w, h, _, e, k in idk_heif_decode(d, n, m, c, p, w, h, e, k) }
        case .pgm:
            let gray = try PGM.decode(data, limits: limits)
            return Raster(width: gray.width, height: gray.height, pixels: channels == 3 ? gray.pixels.flatMap { [$0, $0, $0] } : gray.pixels, orientation: 0)
        case nil:
            let head = data.prefix(4).map { String($0, radix: 16) }.joined(separator: " ")
            throw ImageError(.unsupportedFormat, "not a PNG, JPEG, PGM, BMP, TIFF, WebP, GIF, HEIC or JPEG 2000 file (first bytes \(head))")
        }
    }

    /// How many pages the image has: the pages of a multi-page TIFF (at most 64), else 1.
    public static func pageCount(_ data: [UInt8]) throws(ImageError) -> Int {
        guard Format.of(data) == .tiff else { return 1 }
        var pages: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBufferPointer { buf in idk_tiff_page_count(buf.baseAddress, buf.count, &pages, &message, message.count) }
        guard status == Int32(IDK_IMAGE_OK) else {
            throw ImageError(.corrupt, "corrupt TIFF: \(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })")
        }
        return Int(pages)
    }

    /// Page `page` (0 first) of the image, with its orientation tag, not applied; page 0 of a
    /// one-page format is the image. One page at a time keeps a long scan's memory to one page.
    public static func decodePage(_ data: [UInt8], page: Int, limits: ImageLimits = .default) throws(ImageError) -> (image: GrayImage, exifOrientation: Int) {
        let raster = try decodeRaster(data, page: page, channels: 1, limits: limits)
        return (GrayImage(width: raster.width, height: raster.height, pixels: raster.pixels), raster.orientation)
    }

    /// Every page of the image (``pageCount(_:)``), each with its orientation tag, not applied.
    /// The pages together may hold at most `limits.maxPixels` pixels: a file of many large pages
    /// is refused rather than held whole (decode them one by one with ``decodePage(_:page:limits:)``).
    public static func decodePages(_ data: [UInt8], limits: ImageLimits = .default) throws(ImageError) -> [(image: GrayImage, exifOrientation: Int)] {
        var out: [(image: GrayImage, exifOrientation: Int)] = []
        var total = 0
        for page in 0..<(try pageCount(data)) {
            let remaining = ImageLimits(maxPixels: limits.maxPixels - total, maxFileBytes: limits.maxFileBytes)
            do {
                out.append(try decodePage(data, page: page, limits: remaining))
            } catch where error.kind == .tooLarge && page > 0 {
                throw ImageError(.tooLarge, "the pages of the TIFF file hold more than \(limits.maxPixels) pixels together (page \(page + 1) is past the limit)")
            }
            total += out[page].image.pixels.count
        }
        return out
    }

    /// The C decoders' common shape: (data, length, pixel limit → malloc'd pixels, size, orientation
    /// where the format records one, message).
    private typealias Decoder = (UnsafePointer<UInt8>?, Int, UInt64, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?,
                                 UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
                                 UnsafeMutablePointer<CChar>?, Int) -> Int32

    private static func decodeC(_ data: [UInt8], _ format: String, channels: Int, limits: ImageLimits, _ decoder: Decoder) throws(ImageError) -> Raster {
        var pixels: UnsafeMutablePointer<UInt8>?
        var w: Int32 = 0, h: Int32 = 0, orientation: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBufferPointer { buf in
            decoder(buf.baseAddress, buf.count, UInt64(limits.maxPixels), &pixels, &w, &h, &orientation, &message, message.count)
        }
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        switch status {
        case Int32(IDK_IMAGE_OK):
            guard let pixels else { throw ImageError(.corrupt, "\(format): no pixels") }
            defer { free(pixels) }
            let count = Int(w) * Int(h) * channels
            return Raster(width: Int(w), height: Int(h), pixels: Array(UnsafeBufferPointer(start: pixels, count: count)), orientation: Int(orientation))
        case Int32(IDK_IMAGE_TOO_LARGE):
            throw tooLarge(w, h, limits)
        case Int32(IDK_IMAGE_NO_MEMORY):
            throw ImageError(.tooLarge, "\(format): out of memory for a \(w)×\(h) image")
        default:
            throw ImageError(.corrupt, "corrupt \(format): \(text)")
        }
    }

    /// Reads and decodes a file, refusing files above the size limit before reading them whole.
    public static func decodeFile(atPath path: String, limits: ImageLimits = .default) throws(ImageError) -> (image: GrayImage, exifOrientation: Int) {
        try decodeWithOrientation(try readFile(atPath: path, limits: limits), limits: limits)
    }

    /// A file's bytes for decoding, refused above the size limit before it is read whole.
    public static func readFile(atPath path: String, limits: ImageLimits = .default) throws(ImageError) -> [UInt8] {
        do {
            return try FileInput.readAll(path: path, limit: limits.maxFileBytes)
        } catch {
            switch error {
            case .system(let e): throw ImageError(.unreadable, "cannot \(e.call): \(e.message)")
            case .tooLarge(let limit): throw ImageError(.fileTooLarge, "the file is larger than the limit of \(limit) bytes")
            }
        }
    }

    private static func tooLarge(_ w: Int32, _ h: Int32, _ limits: ImageLimits) -> ImageError {
        ImageError(.tooLarge, "the image is \(w)×\(h) = \(Int(w) * Int(h)) pixels; the limit is \(limits.maxPixels)")
    }

}

/// Netpbm PGM (`P5` binary, `P2` plain), 8- and 16-bit. A header and raw samples: no codec needed.
enum PGM {
    static func decode(_ data: [UInt8], limits: ImageLimits) throws(ImageError) -> GrayImage {
        var i = 2
        func skipSpaceAndComments() {
            while i < data.count {
                if data[i] == UInt8(ascii: "#") { while i < data.count, data[i] != 0x0A { i += 1 } }
                else if data[i] == 0x20 || (data[i] >= 0x09 && data[i] <= 0x0D) { i += 1 }
                else { break }
            }
        }
        func number(_ what: String) throws(ImageError) -> Int {
            skipSpaceAndComments()
            var value = 0, digits = 0
            while i < data.count, data[i] >= 0x30, data[i] <= 0x39, digits < 10 {
                value = value * 10 + Int(data[i] - 0x30); i += 1; digits += 1
            }
            guard digits > 0 else { throw ImageError(.corrupt, "corrupt PGM: no \(what) at byte \(i)") }
            return value
        }
        let plain = data[1] == UInt8(ascii: "2")
        let w = try number("width"), h = try number("height"), maxValue = try number("maximum value")
        guard w > 0, h > 0 else { throw ImageError(.corrupt, "corrupt PGM: width and height must be positive") }
        // Ten digits each: the product can overflow an Int, so compare without multiplying first.
        guard w <= limits.maxPixels / h, w * h <= limits.maxPixels else {
            let (product, overflow) = w.multipliedReportingOverflow(by: h)
            throw ImageError(.tooLarge, "the image is \(w)×\(h) = \(overflow ? "more than 2^63" : String(product)) pixels; the limit is \(limits.maxPixels)")
        }
        guard maxValue > 0, maxValue < 65536 else { throw ImageError(.corrupt, "corrupt PGM: maximum value \(maxValue) is outside 1…65535") }
        var pixels = [UInt8](repeating: 0, count: w * h)
        if plain {
            for k in 0..<(w * h) {
                let v = try number("sample \(k)")
                pixels[k] = UInt8(min(255, v * 255 / maxValue))
            }
        } else {
            i += 1  // the single whitespace after the maximum value
            let bytesPerSample = maxValue > 255 ? 2 : 1
            guard data.count - i >= w * h * bytesPerSample else {
                throw ImageError(.corrupt, "truncated PGM: \(w * h * bytesPerSample) sample bytes expected after byte \(i), \(max(0, data.count - i)) present")
            }
            for k in 0..<(w * h) {
                let v = bytesPerSample == 2 ? Int(data[i + 2 * k]) << 8 | Int(data[i + 2 * k + 1]) : Int(data[i + k])
                pixels[k] = maxValue == 255 ? UInt8(v) : UInt8(min(255, v * 255 / maxValue))
            }
        }
        return GrayImage(width: w, height: h, pixels: pixels)
    }
}

/// Encodes images as PNG through libpng (for annotated output and test data).
public enum ImageEncoder {
    /// PNG bytes of a color image.
    public static func png(_ image: ColorImage) throws(ImageError) -> [UInt8] {
        try encode(image.pixels, width: image.width, height: image.height, channels: 3)
    }

    /// PNG bytes of a gray image, or of RGB pixels when `rgb` holds width × height × 3 bytes.
    public static func png(_ image: GrayImage, rgb: [UInt8]? = nil) throws(ImageError) -> [UInt8] {
        try encode(rgb ?? image.pixels, width: image.width, height: image.height, channels: rgb == nil ? 1 : 3)
    }

    private static func encode(_ source: [UInt8], width: Int, height: Int, channels: Int) throws(ImageError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = source.withUnsafeBufferPointer { buf in
            idk_png_encode(buf.baseAddress, Int32(width), Int32(height), Int32(channels), &out, &length, &message, message.count)
        }
        guard status == 0, let out else {
            throw ImageError(.corrupt, "PNG encoding failed: \(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })")
        }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}

import Foundation
import IDKitImage

// Files, encoded bytes and multi-page files decoded, turned upright and scanned.
extension DocumentScanner {
    /// Decodes the file (applying its EXIF orientation) and scans it.
    public func scan(file path: String) -> DocumentScan {
        scanKeepingImage(file: path).scan
    }

    /// ``scan(file:)``, and the upright image it read (for drawing on it), `nil` when the file could
    /// not be decoded. The first page of a multi-page file.
    public func scanKeepingImage(file path: String) -> (scan: DocumentScan, image: GrayImage?) {
        let t0 = Date()
        do throws(ImageError) {
            let (scan, image, _) = scanPage(try ImageDecoder.readFile(atPath: path, limits: limits), page: 0, since: t0)
            return (scan, image)
        } catch {
            return (failed(error, since: t0), nil)
        }
    }

    /// The first page of an encoded image (any format the image layer reads) decoded, turned
    /// upright by its EXIF orientation and scanned: what `POST /v1/scan` reads from a body.
    public func scan(data: [UInt8]) -> DocumentScan {
        scanPage(data, page: 0, since: Date()).scan
    }

    /// ``scan(data:)``, and the color image it decoded (for ``crops(of:in:)``), `nil` when it could
    /// not be decoded.
    public func scanKeepingColor(data: [UInt8]) -> (scan: DocumentScan, color: ColorImage?) {
        let (scan, _, color) = scanPage(data, page: 0, since: Date(), color: true)
        return (scan, color)
    }

    /// Every page of the file scanned, one page decoded at a time (a multi-page TIFF: each page
    /// is a document or a side of one; every other format is one page). A file that cannot be
    /// read or decoded gives one failed page.
    public func scanPages(file path: String) -> [(page: Int, scan: DocumentScan, image: GrayImage?)] {
        scanPages(file: path, color: false).map { ($0.page, $0.scan, $0.image) }
    }

    /// ``scanPages(file:)``, with `color` each page's color image (RGB, for crops) kept too: every
    /// page is decoded once in color and read in the gray derived from it (``ColorImage/gray``).
    public func scanPages(file path: String, color: Bool) -> [(page: Int, scan: DocumentScan, image: GrayImage?, color: ColorImage?)] {
        let t0 = Date()
        let data: [UInt8], pages: Int
        do throws(ImageError) {
            data = try ImageDecoder.readFile(atPath: path, limits: limits)
            pages = try ImageDecoder.pageCount(data)
        } catch {
            return [(0, failed(error, since: t0), nil, nil)]
        }
        return (0..<pages).map { page in
            let (scan, image, color) = scanPage(data, page: page, since: page == 0 ? t0 : Date(), color: color)
            return (page, scan, image, color)
        }
    }

    /// One page decoded in color, turned upright by the orientation it records, and scanned in
    /// the gray derived from it, its colors given to the outline search (a card on a desk of
    /// nearly its own gray); `decode` and `total` timed from `t0`. The color image is returned
    /// with `color` (for crops), else dropped.
    private func scanPage(_ data: [UInt8], page: Int, since t0: Date, color: Bool = false) -> (scan: DocumentScan, image: GrayImage?, color: ColorImage?) {
        let image: GrayImage, decodedColor: ColorImage
        do throws(ImageError) {
            let decoded = try ImageDecoder.decodeColorPage(data, page: page, limits: limits)
            decodedColor = decoded.image.applyingEXIFOrientation(decoded.exifOrientation)
            image = decodedColor.gray
        } catch {
            return (failed(error, since: t0), nil, nil)
        }
        var result = scan(image, color: decodedColor)
        result.timingsMs["decode"] = ms(since: t0) - (result.timingsMs["total"] ?? 0)
        result.timingsMs["total"] = ms(since: t0)
        return (result, image, color ? decodedColor : nil)
    }

    private func failed(_ error: ImageError, since t0: Date) -> DocumentScan {
        .failed(.unsupportedImage, reason: error.message, reasonKind: error.kind.rawValue, timingsMs: ["decode": ms(since: t0), "total": ms(since: t0)])
    }

    /// The file decoded within ``limits`` and turned upright by its EXIF orientation.
    public func uprightImage(file path: String) throws(ImageError) -> GrayImage {
        let decoded = try ImageDecoder.decodeFile(atPath: path, limits: limits)
        return decoded.image.applyingEXIFOrientation(decoded.exifOrientation)
    }

    /// An encoded image decoded within ``limits`` and turned upright by its EXIF orientation.
    public func uprightImage(data: [UInt8]) throws(ImageError) -> GrayImage {
        let decoded = try ImageDecoder.decodeWithOrientation(data, limits: limits)
        return decoded.image.applyingEXIFOrientation(decoded.exifOrientation)
    }
}

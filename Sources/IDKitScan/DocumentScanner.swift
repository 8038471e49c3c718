import Foundation
import IDKitImage
import IDKitMRZ
import IDKitBarcode
import IDKitDocument

/// Why a scan gave no verified MRZ (or `ok`).
public enum ScanStatus: String, Sendable, Codable {
    case ok
    /// No MRZ band in the image.
    case mrzNotFound
    /// A band was found but its reading does not verify (check digits, or unsure characters).
    case mrzUnreadable
    /// The image is too small to hold a readable MRZ.
    case imageTooSmall
    /// Not a PNG, JPEG or PGM, corrupt, or beyond the limits.
    case unsupportedImage
}

/// Everything one scan says about an image (or several frames of one document).
public struct DocumentScan: Sendable {
    public var status: ScanStatus
    /// Why, in words, when the status is not `ok`.
    public var reason: String?
    public var band: MRZBand?
    public var reading: MRZReading?
    public var parsed: MRZResult?
    public var quality: ImageQuality?
    public var barcodes: [Barcode]
    public var document: DocumentResult?
    /// `decode`, `locate`, `read`, `barcodes`, `total` in milliseconds.
    public var timingsMs: [String: Double]

    /// The redaction that applied to this scan (``ScanAnnotation`` follows it for the image).
    public var redaction: RedactionSettings = .none

    /// Result redaction: the MRZ lines become the merged document's masked lines (none when the
    /// MRZ is withheld or was not merged), the parsed MRZ goes, barcode bytes go.
    mutating func redactResult(document: DocumentResult?, settings: RedactionSettings) {
        if var reading = reading {
            if let masked = document?.raw.mrz, masked.count == reading.lines.count {
                reading.lines = masked
            } else {
                reading.lines = reading.lines.map { String(repeating: "*", count: $0.count) }
            }
            self.reading = reading
        }
        parsed = nil
        barcodes = barcodes.map { var b = $0; b.bytes = []; return b }
    }

    /// A scan that stopped before reading: the status and why.
    public static func failed(_ status: ScanStatus, reason: String, timingsMs: [String: Double] = [:]) -> DocumentScan {
        DocumentScan(status: status, reason: reason, band: nil, reading: nil, parsed: nil, quality: nil, barcodes: [],
                     document: nil, timingsMs: timingsMs)
    }
}

/// The image front end: decode, find and read the MRZ, judge the image, read barcodes, merge.
public struct DocumentScanner: Sendable {
    public var limits: ImageLimits
    public var thresholds: QualityThresholds
    public var readBarcodes: Bool
    public var referenceDate: CalendarDate
    /// Applied to the merged document and to everything the scan reports: with a result mode the
    /// MRZ lines are the document's masked lines and the parsed MRZ and raw barcode bytes are
    /// withheld; with an image mode ``ScanAnnotation`` blacks out the MRZ band and the barcodes.
    public var redaction: RedactionPolicy

    public init(limits: ImageLimits = .default, thresholds: QualityThresholds = QualityThresholds(), readBarcodes: Bool = true,
                referenceDate: CalendarDate = .today, redaction: RedactionPolicy = .fixed(.none)) {
        self.limits = limits
        self.thresholds = thresholds
        self.readBarcodes = readBarcodes
        self.referenceDate = referenceDate
        self.redaction = redaction
    }

    /// Decodes the file (applying its EXIF orientation) and scans it.
    public func scan(file path: String) -> DocumentScan {
        scanKeepingImage(file: path).scan
    }

    /// ``scan(file:)``, and the upright image it read (for drawing on it), `nil` when the file could
    /// not be decoded. The first page of a multi-page file.
    public func scanKeepingImage(file path: String) -> (scan: DocumentScan, image: GrayImage?) {
        let t0 = Date()
        do throws(ImageError) {
            return scanPage(try ImageDecoder.readFile(atPath: path, limits: limits), page: 0, since: t0)
        } catch {
            return (failed(error, since: t0), nil)
        }
    }

    /// Every page of the file scanned, one page decoded at a time (a multi-page TIFF: each page
    /// is a document or a side of one; every other format is one page). A file that cannot be
    /// read or decoded gives one failed page.
    public func scanPages(file path: String) -> [(page: Int, scan: DocumentScan, image: GrayImage?)] {
        let t0 = Date()
        let data: [UInt8], pages: Int
        do throws(ImageError) {
            data = try ImageDecoder.readFile(atPath: path, limits: limits)
            pages = try ImageDecoder.pageCount(data)
        } catch {
            return [(0, failed(error, since: t0), nil)]
        }
        return (0..<pages).map { page in
            let (scan, image) = scanPage(data, page: page, since: page == 0 ? t0 : Date())
            return (page, scan, image)
        }
    }

    /// One page decoded, turned upright by the orientation it records, and scanned; `decode` and
    /// `total` timed from `t0`.
    private func scanPage(_ data: [UInt8], page: Int, since t0: Date) -> (scan: DocumentScan, image: GrayImage?) {
        let image: GrayImage
        do throws(ImageError) {
            let decoded = try ImageDecoder.decodePage(data, page: page, limits: limits)
            image = decoded.image.applyingEXIFOrientation(decoded.exifOrientation)
        } catch {
            return (failed(error, since: t0), nil)
        }
        var result = scan(image)
        result.timingsMs["decode"] = ms(since: t0) - (result.timingsMs["total"] ?? 0)
        result.timingsMs["total"] = ms(since: t0)
        return (result, image)
    }

    private func failed(_ error: ImageError, since t0: Date) -> DocumentScan {
        .failed(.unsupportedImage, reason: error.message, timingsMs: ["decode": ms(since: t0), "total": ms(since: t0)])
    }

    /// The file decoded within ``limits`` and turned upright by its EXIF orientation.
    public func uprightImage(file path: String) throws(ImageError) -> GrayImage {
        let decoded = try ImageDecoder.decodeFile(atPath: path, limits: limits)
        return decoded.image.applyingEXIFOrientation(decoded.exifOrientation)
    }

    public func scan(_ image: GrayImage) -> DocumentScan {
        scan(frames: [image])
    }

    /// Several frames of one document: the MRZ read from their combined character scores.
    public func scan(frames: [GrayImage]) -> DocumentScan {
        let t0 = Date()
        guard let first = frames.first, first.width >= 120, first.height >= 40 else {
            let size = frames.first.map { "\($0.width)×\($0.height)" } ?? "no image"
            return .failed(.imageTooSmall, reason: "\(size) pixels cannot hold a readable MRZ", timingsMs: ["total": ms(since: t0)])
        }
        // The band first (a few ms), then reading it and the barcode search side by side: on two
        // cores the scan costs the longer of the two, not their sum. On a page with an MRZ band the
        // barcode search is the quick one: only the two strongest bar fields the locator finds
        // outside the bands (their text lines are parallel strokes too), and a QR search — no
        // whole-image search with every decoder on every passport page. An image with no band (a
        // driving licence, a bare symbol) gets the thorough reader of `idkit barcode`.
        let scanner = MRZScanner()
        let located = frames.count == 1 ? scanner.locate(first) : nil
        let bands = located?.bands ?? []
        let locateMs = ms(since: t0)
        let mrzSlot = Slot<MRZScanner.Outcome>(), barcodeSlot = Slot<(barcodes: [Barcode], ms: Double)>()
        let readBarcodes = self.readBarcodes
        DispatchQueue.concurrentPerform(iterations: readBarcodes ? 2 : 1) { task in
            let start = Date()
            if task == 0 {
                mrzSlot.value = located.map { scanner.scan(first, located: $0) } ?? scanner.scan(frames: frames)
            } else {
                let options = bands.isEmpty ? BarcodeReader.Options() : BarcodeReader.Options(searchWholeImage: false, lastResortAttempts: false)
                let found = (try? BarcodeReader(options: options).read(first, excluding: bands.prefix(3).map(\.quad))) ?? []
                barcodeSlot.value = (found, Date().timeIntervalSince(start) * 1000)
            }
        }
        var outcome = mrzSlot.value!
        if frames.count == 1 { outcome.locateMilliseconds = locateMs }
        let quality = ImageQuality(image: first, band: outcome.band, thresholds: thresholds)
        let barcodes = barcodeSlot.value?.barcodes ?? []
        let barcodeMs = barcodeSlot.value?.ms ?? 0
        var status = ScanStatus.ok
        var reason: String?
        if outcome.band == nil {
            status = .mrzNotFound
            reason = "no machine readable zone in the image"
        } else if outcome.reading?.verified != true {
            status = .mrzUnreadable
            if let parsed = outcome.parsed, !parsed.isValid {
                reason = "the reading fails its check digits: " + parsed.errors.map(\.message).joined(separator: "; ")
            } else if outcome.parsed == nil {
                reason = "the reading is not an MRZ"
            } else {
                let fields = outcome.reading?.unsureFields ?? []
                reason = "another reading of " + (fields.isEmpty ? "some characters" : fields.joined(separator: ", "))
                    + " is plausible and would pass every check digit too, or no check digit covers it"
            }
        }
        let aamva = barcodes.first { $0.format == .pdf417 }
        let verifiedMRZ = outcome.reading?.verified == true ? outcome.parsed : nil
        var document: DocumentResult?
        if verifiedMRZ != nil || aamva != nil {
            document = DocumentMerger(referenceDate: referenceDate, redaction: redaction).merge(mrz: verifiedMRZ, barcode: aamva?.bytes)
        }
        var scan = DocumentScan(status: status, reason: reason, band: outcome.band, reading: outcome.reading, parsed: outcome.parsed,
                                quality: quality, barcodes: barcodes, document: document,
                                timingsMs: ["locate": outcome.locateMilliseconds, "read": outcome.readMilliseconds,
                                            "barcodes": barcodeMs, "total": ms(since: t0)])
        let documentClass = document?.documentClass ?? verifiedMRZ.flatMap { DocumentMerger.documentClass(of: $0) }
        let settings = redaction.settings(for: documentClass)
        scan.redaction = settings
        if settings.redactsResult { scan.redactResult(document: document, settings: settings) }
        return scan
    }

    private func ms(since t: Date) -> Double { Date().timeIntervalSince(t) * 1000 }
}

/// One result written by one task of a `concurrentPerform` and read after it returns.
/// `@unchecked Sendable`: each slot has a single writer, and the join orders the write before the read.
private final class Slot<Value>: @unchecked Sendable {
    var value: Value?
}

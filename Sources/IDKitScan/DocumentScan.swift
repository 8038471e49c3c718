import Foundation
import IDKitImage
import IDKitMRZ
import IDKitBarcode
import IDKitDocument
import IDKitDocumentDetection
import IDKitVIZ

/// Everything one scan says about an image (or several frames of one document).
public struct DocumentScan: Sendable {
    public var status: ScanStatus
    /// Why, in words, when the status is not `ok`.
    public var reason: String?
    /// Why, in one word a program can switch on, when the status is not `ok`: `mrzNotFound`;
    /// `unsureFields` or `notAnMRZ` (mrzUncertain); the first error's code of the validate
    /// contract, such as `invalidCheckDigit`, `impossibleDate`, `digitInCode` (mrzInvalid);
    /// `imageTooSmall`; the image error's kind, such as `corrupt` or `tooLarge` (unsupportedImage).
    public var reasonKind: String?
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

    /// The document's outline (corners in reading order, confidence, ratio, format); `nil` when no
    /// document was found.
    public var detection: DetectedDocument?
    /// The `corners` of the JSON contract: the document's outline where the image shows its edges,
    /// `nil` where it does not (no document found, or only the format's outline placed from the MRZ).
    public var outlineCorners: Quadrilateral? { detection.flatMap { $0.outlineFound ? $0.corners : nil } }
    /// Files written for this document by `idkit scan --crop DIR`: `document`, `face`, `signature`.
    public var crops: [String: String] = [:]
    /// The document's visual zone, when the scan was asked to read it (``DocumentScanner/readVIZ``)
    /// and the document has an outline and an MRZ to anchor its fields.
    public var viz: VIZPage?
    /// Both sides of one card (``DocumentScanner/scan(front:back:)``): whether they match and the
    /// front's visual zone; `nil` for a scan of one image.
    public var sides: SidesReport?
    /// Every document found in the image, the primary first (each a scan of its own, with its
    /// own MRZ, barcodes and merged result; their `documents` are empty). The scan itself is the
    /// primary's: the largest document that holds an MRZ or a barcode, else the largest.
    public var documents: [DocumentScan] = []

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

    /// A scan that stopped before reading: the status and why (`reasonKind`: the status's own
    /// name unless given).
    public static func failed(_ status: ScanStatus, reason: String, reasonKind: String? = nil, timingsMs: [String: Double] = [:]) -> DocumentScan {
        var scan = DocumentScan(status: status, reason: reason, band: nil, reading: nil, parsed: nil, quality: nil, barcodes: [],
                                document: nil, timingsMs: timingsMs)
        scan.reasonKind = reasonKind ?? status.rawValue
        return scan
    }
}

/// The image front end: decode, find and read the MRZ, judge the image, read barcodes, merge.
extension DocumentScan {
    /// The image error of an `unsupportedImage` scan, its kind kept (`reasonKind`), for the front
    /// ends' one mapping of image errors (a 7000 × 7000 PNG is `tooLarge` from every route).
    public var imageError: ImageError {
        ImageError(ImageError.Kind(rawValue: reasonKind ?? "") ?? .corrupt, reason ?? "the image cannot be decoded")
    }

    /// Nothing of a document in the image: no MRZ band, no barcode, no outline (`POST /v1/scan`
    /// answers 422, `idkit_scan` IDKIT_NOT_FOUND).
    public var foundNothing: Bool { band == nil && barcodes.isEmpty && detection == nil }
}

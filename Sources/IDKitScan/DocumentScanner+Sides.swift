import Foundation
import IDKitDocument
import IDKitDocumentDetection
import IDKitImage
import IDKitMRZ
import IDKitVIZ

/// How the two images of `idkit scan --sides FRONT BACK` were taken as one card: whether the
/// front belongs to the card whose back holds the MRZ, and the front's visual zone.
public struct SidesReport: Sendable {
    /// `true` when at least two of the front's identity fields (surname, given names, document
    /// number, date of birth) are printed with the MRZ's meaning; `false` when the front's text was
    /// read and none of them is (the front of another card: its fields are not merged), or when
    /// both images hold MRZs that differ; `nil` when the scan cannot tell (``reason`` says why).
    public var match: Bool?
    /// The front's fields printed with the MRZ's meaning.
    public var matchedFields: [DocumentFieldName] = []
    /// Why the sides do not match, or why the scan cannot tell; `nil` when they match.
    public var reason: String?
    /// ``reason`` in a word: `otherCard`, `differentMRZ`, `sameSideTwice`, `noMachineReadableSide`,
    /// `noMRZToMatch`, `frontUnreadable`.
    public var reasonKind: String?
    /// The images were given the other way round (the MRZ was on the first): the scan swapped them.
    public var swapped = false
    /// The front's visual zone, read on the front's outline (or the whole image when it shows no
    /// outline), and that outline in the front image's pixels.
    public var front: VIZPage?
    public var frontCorners: Quadrilateral?
}

extension DocumentScanner {
    /// Both sides of one card as one document: the back (the side with the MRZ or the barcode) is
    /// scanned as one image is, its visual zone read (``readVIZ`` or not); the front's visual zone is read on its outline and its fields are
    /// found by the back's MRZ (``VIZFieldFinder``), so that the front's printed name, number and
    /// date of birth are what tie it to the back. When they do, the front's and the back's visual
    /// zones go into the merge as `vizFront` and `vizBack`. A front that belongs to another card
    /// (``SidesReport/match`` `false`) is reported and not merged, and the scan's status is
    /// ``ScanStatus/sidesMismatch``: a backend must not take the front's portrait or fields for this
    /// document. Images given the other way round are swapped.
    public func scan(front: GrayImage, back: GrayImage) -> DocumentScan {
        let t0 = Date()
        // The back's visual zone too: the date of issue, the authority and the place of birth are
        // printed on a card's back.
        var plain = self
        plain.redaction = .fixed(.none)
        plain.readVIZ = true
        var backScan = plain.scan(back)
        var frontImage = front
        var report = SidesReport()
        // The front's scan: its outline, and whether it holds an MRZ too. Given the other way
        // round, the image given as the back is the front, scanned already.
        let frontScan: DocumentScan
        if backScan.holdsMachineReadableData {
            var frontScanner = plain
            frontScanner.readBarcodes = false
            frontScanner.readVIZ = false
            frontScan = frontScanner.scan(front)
        } else {
            let other = plain.scan(front)
            guard other.holdsMachineReadableData else {
                report.reason = "neither image holds an MRZ or a barcode: give the card's front, then its back (the side with the MRZ)"
                report.reasonKind = "noMachineReadableSide"
                return finished(backScan, report, since: t0)
            }
            (frontScan, backScan, frontImage, report.swapped) = (backScan, other, back, true)
        }
        if let frontLines = frontScan.reading?.lines, let backLines = backScan.reading?.lines {
            let same = frontLines == backLines
            report.match = same ? nil : false
            report.reason = same ? "both images show the card's MRZ side: give its front as the first image"
                : "the two images hold different MRZs: they are sides of different documents"
            report.reasonKind = same ? "sameSideTwice" : "differentMRZ"
            return finished(backScan, report, since: t0)
        }
        guard let mrz = backScan.parsed else {
            report.reason = "the back holds no MRZ read to match the front against"
            report.reasonKind = "noMRZToMatch"
            return finished(backScan, report, since: t0)
        }
        guard case .success(let recognizer) = Self.vizRecognizer else {
            report.reason = "the front cannot be read: " + (Self.vizError?.message ?? "no visual-zone reader")
            report.reasonKind = "frontUnreadable"
            return finished(backScan, report, since: t0)
        }
        let start = Date()
        let format = backScan.detection?.format ?? .td1
        var outline = frontScan.detection.flatMap { $0.outlineFound ? $0 : nil } ?? Self.wholeImage(frontImage, format: format)
        outline.format = format
        guard let page = Self.visualZonePage(of: frontImage, outline, band: nil, excluding: frontScan.barcodes.map(\.quad), dpi: 300),
              let (lines, fields) = vizReading(of: page, recognizer: recognizer, mrz: mrz, dpi: 300) else {
            report.reason = "the front shows no document to read"
            report.reasonKind = "frontUnreadable"
            return finished(backScan, report, since: t0)
        }
        backScan.timingsMs["front"] = Date().timeIntervalSince(start) * 1000
        report.front = VIZPage(lines: lines, fields: fields, pageWidth: page.width, pageHeight: page.height, dotsPerInch: 300)
        report.frontCorners = outline.corners
        report.matchedFields = Self.identityFields.filter { fields[$0]?.matchesMRZ == true }
        let legible = lines.filter { $0.confidence >= 0.6 && $0.text.count >= 3 }.count
        if report.matchedFields.count >= 2 {
            report.match = true
        } else if report.matchedFields.isEmpty, legible >= Self.legibleFrontLines {
            report.match = false
            report.reason = "the front belongs to another document: none of its name, number and date of birth is the MRZ's"
            report.reasonKind = "otherCard"
        } else {
            report.reason = "too little of the front was read to tell whether it belongs to this document"
            report.reasonKind = "frontUnreadable"
        }
        return finished(backScan, report, since: t0)
    }

    /// The fields that tie a front to its back.
    static let identityFields: [DocumentFieldName] = [.lastName, .firstName, .documentNumber, .dateOfBirth]
    /// The legible lines (Tesseract's confidence 0.6 or more, 3 characters or more) a front shows
    /// before none of its identity fields matching says it belongs to another card.
    static let legibleFrontLines = 4

    /// The back's scan with the sides' report, merged again with the front's visual zone when the
    /// sides match, and redacted as the policy says.
    private func finished(_ backScan: DocumentScan, _ report: SidesReport, since t0: Date) -> DocumentScan {
        var scan = backScan
        scan.sides = report
        if report.match == false {
            scan.status = .sidesMismatch
            scan.reason = report.reason
            scan.reasonKind = report.reasonKind
        }
        mergeAndRedact(&scan, verifiedMRZ: scan.reading?.verified == true ? scan.parsed : nil,
                       vizFront: report.match == true ? report.front : nil, vizBack: scan.viz)
        // The back was scanned unredacted (the front's fields are found by its MRZ): the other
        // documents it shows are redacted here as a scan of one image redacts them.
        for k in scan.documents.indices.dropFirst() {
            let other = scan.documents[k], isBack = DocumentScan.vizSide(other.detection?.format) == .vizBack
            mergeAndRedact(&scan.documents[k], verifiedMRZ: other.reading?.verified == true ? other.parsed : nil,
                           vizFront: isBack ? nil : other.viz, vizBack: isBack ? other.viz : nil)
        }
        if !scan.documents.isEmpty {
            scan.documents[0] = scan
            scan.documents[0].documents = []
        }
        scan.timingsMs["total"] = Date().timeIntervalSince(t0) * 1000
        return scan
    }

    /// The whole image as the document's outline: a front cropped to the card.
    static func wholeImage(_ image: GrayImage, format: DocumentFormat) -> DetectedDocument {
        let w = Double(image.width), h = Double(image.height)
        return DetectedDocument(corners: Quadrilateral(topLeft: Point(x: 0, y: 0), topRight: Point(x: w, y: 0),
                                                       bottomRight: Point(x: w, y: h), bottomLeft: Point(x: 0, y: h)),
                                confidence: 0, widthHeightRatio: w / h, format: format, band: nil, outlineFound: false)
    }
}

extension DocumentScan {
    /// An MRZ band or a barcode: what the side of a card that a merge can rest on holds.
    var holdsMachineReadableData: Bool { band != nil || !barcodes.isEmpty }
}

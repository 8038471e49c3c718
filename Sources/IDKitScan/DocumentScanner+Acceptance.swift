import Foundation
import IDKitImage
import IDKitMRZ
import IDKitMRZReading
import IDKitDocumentDetection

// What the scan takes for an MRZ or a document, and where it searches for barcodes and MRZs.
extension DocumentScanner {
    /// Whether a band other than the one the whole-image search chose reads as an MRZ at all: it
    /// passes its check digits, or the recognizer is sure of nearly every character. Text lines in a
    /// photo's clutter or on a document's face chain into bands too, and read as characters; they
    /// must not become a second document's MRZ.
    static func isMRZ(_ outcome: MRZScanner.Outcome) -> Bool {
        if outcome.parsed?.isValid == true { return true }
        guard outcome.parsed != nil, let reading = outcome.reading else { return false }
        let all = reading.confidence.flatMap { $0 }
        return !all.isEmpty && all.reduce(0, +) / Double(all.count) >= 0.9
    }

    /// Whether an outline with neither an MRZ nor a barcode in it is a document's: found along the
    /// image's edges with every side on them (``minimumWeakestSide``), shaped like an ICAO or ID-1
    /// document seen at a moderate angle (1.3–1.75 wide for 1: ID-1 is 1.586, ID-2, ID-3 and visas
    /// 1.42–1.5; a 35 × 45 mm portrait seen upright is 1.29), with print inside
    /// (``minimumPrintShare`` of its interior on edges, ``DocumentDetector/printShare(_:within:)``).
    /// (The print is measured only for an outline that passes the rest.)
    static func isDocumentOutline(_ d: DetectedDocument, weakestSide minimum: Double = minimumWeakestSide, printShare: @autoclosure () -> Double) -> Bool {
        d.outlineFound && d.widthHeightRatio >= 1.3 && d.widthHeightRatio <= 1.75 && d.weakestSide >= minimum
            && printShare() >= minimumPrintShare
    }

    /// The share of its worst side that an outline without an MRZ or barcode must have on edges.
    static let minimumWeakestSide = 0.5

    /// The share of its worst side on edges that a document the frame cuts, or a card's other side
    /// (``DocumentDetector/cutDocuments(edges:beside:)``), must have: ``minimumWeakestSide``, or
    /// ``minimumFaintSideInView`` where ``wholeInView`` of it or more lies in the frame. A card's
    /// other side is found at the card's size beside it; wholly in view, a side of it that shows
    /// faintly is a light card on a lid of nearly its shade (the generated card sides: 4 more of
    /// 960 listed and right). Mostly beyond the frame, the search's placement may take the desk's
    /// clutter for it (bench-scan's `small-16-td1`: two sides seen, the weakest at 0.38, 57% in
    /// view).
    static func leastWeakestSide(ofCut d: DetectedDocument, width: Int, height: Int) -> Double {
        let frame = Quadrilateral(topLeft: Point(x: 0, y: 0), topRight: Point(x: Double(width), y: 0),
                                  bottomRight: Point(x: Double(width), y: Double(height)), bottomLeft: Point(x: 0, y: Double(height)))
        let inView = DocumentDetector.sharedArea(d.corners, frame) / max(d.area, 1)
        return inView >= wholeInView ? minimumFaintSideInView : minimumWeakestSide
    }
    /// The share of a cut document's or other side's area in the frame from which its weakest
    /// side may be faint (``leastWeakestSide(ofCut:width:height:)``).
    static let wholeInView = 0.9
    /// The share on edges that the faint side of such a document must have: the other-side
    /// search's own (the faint side it accepts on a snapped outline).
    static let minimumFaintSideInView = 0.3
    /// The share of its interior that an outline without an MRZ or barcode must have on edges: a
    /// document's face, front or back, carries print, a portrait or a pattern (0.07–0.25 on the
    /// cards beside a passport in the real specimens and the generated pairs), where a plain box
    /// of the desk's clutter has none (0–0.03 with a line of text running across it).
    static let minimumPrintShare = 0.04

    /// Whether the image holds no barcode worth searching for: its only document is a passport's
    /// data page (TD3) whose MRZ is verified. ICAO 9303-4 lays out the data page with no machine
    /// readable barcode (visas and TD1/TD2 cards may carry a 2D symbol: a visible digital seal, an
    /// AAMVA or national PDF417 or QR code on a card's back), and a verified reading leaves no doubt
    /// about the layout. The search would cost a passport photo time for nothing: a page's
    /// guilloches and text lines are bar-like fields the locator must try.
    static func barcodesCannotBeThere(_ outcome: MRZScanner.Outcome, documents: Int) -> Bool {
        documents == 1 && outcome.reading?.verified == true && outcome.reading?.format == .td3
    }

    /// The largest image without an MRZ band whose barcodes every decoder searches for over the
    /// whole image when the located bar fields read as nothing (``BarcodeReader/Options/wholeImageSearchUpTo``).
    /// Half a megapixel: a bare symbol or a thumbnail, where that search takes tens of ms; the zxing
    /// suites' PDF417 images read the same but for one lossy scan of two symbols (one is read).
    static let wholeImageBarcodeSearchPixels = 500_000

    /// The share of the frame above which a document's bounding box is the frame itself.
    static let wholeFrameShare = 0.9

    /// The MRZ inside one document's outline, searched in the crop of its bounding box and read;
    /// `nil` when none reads as an MRZ (or the box is nearly the whole frame: already searched).
    func mrz(in image: GrayImage, within corners: Quadrilateral, scanner: MRZScanner) -> MRZScanner.Outcome? {
        let c = corners.corners
        let x0 = max(0, Int(c.map(\.x).min()!)), y0 = max(0, Int(c.map(\.y).min()!))
        let x1 = min(image.width, Int(c.map(\.x).max()!.rounded(.up))), y1 = min(image.height, Int(c.map(\.y).max()!.rounded(.up)))
        guard x1 - x0 >= 120, y1 - y0 >= 40 else { return nil }
        // A crop of nearly the whole frame is the frame the whole-image search has already searched
        // with every look (twice the cost of an image without an MRZ, for nothing).
        guard Double((x1 - x0) * (y1 - y0)) < Self.wholeFrameShare * Double(image.width * image.height) else { return nil }
        let crop = image.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        var outcome = scanner.scan(crop)
        guard let band = outcome.band, Self.isMRZ(outcome) else { return nil }
        outcome.band = band.translated(by: Point(x: Double(x0), y: Double(y0)))
        return outcome
    }
}

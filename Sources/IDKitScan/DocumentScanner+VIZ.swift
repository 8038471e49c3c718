import Foundation
import IDKitDocumentDetection
import IDKitImage
import IDKitMRZReading
import IDKitVIZ

extension DocumentScanner {
    /// The visual-zone reader every scan that asks for the VIZ shares: Tesseract with its Latin
    /// script model, loaded on first use (a few hundred milliseconds, once per process).
    static let vizRecognizer = Result { () throws(VIZError) in try VIZTextRecognizer() }

    /// Why the visual zone cannot be read here (Tesseract's language data is not installed), or
    /// `nil`. `idkit scan --viz` exits 70 with it, `POST /v1/scan?viz` answers 503.
    public static var vizError: VIZError? {
        if case .failure(let error) = vizRecognizer { return error }
        return nil
    }

    /// `scan` with each document's visual zone read from `image` (``visualZones(of:in:recognizer:dpi:)``),
    /// the primary's at the top level too, and its cost in `timingsMs.viz`.
    func addingVisualZones(to scan: DocumentScan, from image: GrayImage) -> DocumentScan {
        guard case .success(let recognizer) = Self.vizRecognizer, !scan.documents.isEmpty else { return scan }
        let t0 = Date()
        var scan = scan
        guard let pages = try? visualZones(of: scan, in: image, recognizer: recognizer) else { return scan }
        for (k, page) in pages.enumerated() where k < scan.documents.count { scan.documents[k].viz = page }
        scan.viz = scan.documents[0].viz
        let elapsed = Date().timeIntervalSince(t0) * 1000
        scan.timingsMs["viz"] = elapsed
        scan.timingsMs["total", default: 0] += elapsed
        return scan
    }

    /// The visual zone of each document of `scan` (in `scan.documents` order) read from `image`,
    /// the gray image the scan read: the document straightened at `dpi`, its MRZ blanked (the band
    /// as the scan found it, mapped onto the page, and everything below it), its text lines
    /// recognized, and the MRZ's fields found among them. `nil` for a document without an outline
    /// or without an MRZ to anchor the fields (a card's other side).
    public func visualZones(of scan: DocumentScan, in image: GrayImage, recognizer: VIZTextRecognizer,
                            dpi: Double = 300) throws(VIZError) -> [VIZPage?] {
        let finder = VIZFieldFinder(referenceDate: referenceDate)
        var readings: [VIZPage?] = []
        for d in scan.documents {
            guard let detection = d.detection, let band = d.band, let parsed = d.parsed ?? d.vizAnchor,
                  let page = Self.visualZonePage(of: image, detection, band: band, dpi: dpi) else {
                readings.append(nil)
                continue
            }
            let lines = try recognizer.lines(in: page, pixelsPerInch: Int(dpi))
            let fields = finder.fields(in: lines, mrz: parsed)
            readings.append(VIZPage(lines: lines, fields: fields, pageWidth: page.width, pageHeight: page.height, dotsPerInch: dpi))
        }
        return readings
    }

    /// The document straightened at `dpi` with its MRZ band and what lies below it blanked; `nil`
    /// when the outline does not map onto a page.
    public static func visualZonePage(of image: GrayImage, _ detection: DetectedDocument, band: MRZBand, dpi: Double = 300) -> GrayImage? {
        let (width, height) = DocumentCropper.size(of: detection, dpi: dpi)
        guard width > 1, height > 1, width * height <= 64_000_000 else { return nil }
        let rectangle = [Point(x: 0, y: 0), Point(x: Double(width), y: 0), Point(x: Double(width), y: Double(height)), Point(x: 0, y: Double(height))]
        guard let pageToImage = Homography(from: rectangle, to: detection.corners.corners),
              let imageToPage = Homography(from: detection.corners.corners, to: rectangle) else { return nil }
        var page = image.warped(width: width, height: height, by: pageToImage, fill: 255, interpolation: .bicubic)
        // The MRZ's top on the page, less a millimeter: its lines are the MRZ's, not the VIZ's.
        let top = band.inkQuad.corners.map { imageToPage.apply($0).y }.min() ?? Double(height)
        let cut = max(0, min(height, Int(top - dpi / 25.4)))
        for i in (cut * width)..<(height * width) { page.pixels[i] = 255 }
        return page
    }
}

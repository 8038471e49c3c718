import Foundation
import IDKitDocument
import IDKitDocumentDetection
import IDKitImage
import IDKitMRZ
import IDKitMRZReading
import IDKitVIZ

extension DocumentScanner {
    /// The visual-zone reader every scan that asks for the VIZ shares: Tesseract with its Latin
    /// script model, or the models `IDKIT_VIZ_LANGUAGES` names (`eng`, `deu+fra`), loaded on first
    /// use (a few hundred milliseconds, once per process).
    static let vizRecognizer = Result { () throws(VIZError) in
        let named = ProcessInfo.processInfo.environment["IDKIT_VIZ_LANGUAGES"]?.split(separator: "+").map(String.init) ?? []
        return try VIZTextRecognizer(languages: named.isEmpty ? ["Latin"] : named)
    }

    /// Why the visual zone cannot be read here (Tesseract's language data is not installed), or
    /// `nil`. `idkit scan --viz` exits 70 with it, `POST /v1/scan?viz` answers 503.
    public static var vizError: VIZError? {
        if case .failure(let error) = vizRecognizer { return error }
        return nil
    }

    /// One document's visual zone read from `image`, and what reading it cost: the document
    /// straightened at 300 dpi, its MRZ and its `barcodes` blanked
    /// (``visualZonePage(of:_:band:excluding:dpi:)``), its text lines
    /// recognized, the MRZ's fields found among them (``VIZFieldFinder``) and the fields the MRZ
    /// lacks under their captions (``VIZLabelFinder``). `nil` when the outline maps onto no page or
    /// Tesseract cannot run.
    func visualZone(of image: GrayImage, _ detection: DetectedDocument, band: MRZBand, mrz: MRZResult,
                    barcodes: [Quadrilateral] = [], dpi: Double = 300) -> (page: VIZPage, milliseconds: Double)? {
        guard case .success(let recognizer) = Self.vizRecognizer else { return nil }
        let t0 = Date()
        guard let page = Self.visualZonePage(of: image, detection, band: band, excluding: barcodes, dpi: dpi),
              let (lines, fields) = vizReading(of: page, recognizer: recognizer, mrz: mrz, dpi: dpi) else { return nil }
        let result = VIZPage(lines: lines, fields: fields, pageWidth: page.width, pageHeight: page.height, dotsPerInch: dpi)
        return (result, Date().timeIntervalSince(t0) * 1000)
    }

    /// A straightened page's text lines and the fields found among them (``vizFields(in:mrz:)``);
    /// `nil` when Tesseract cannot read it.
    ///
    /// Print on a tinted laminate, between a pattern's dark bands or over a guilloche: Tesseract's
    /// local threshold keeps some of the ground with the letters and splits or drops them. Where
    /// the first reading leaves a field the MRZ holds unfound (one every page prints: not
    /// ``vizOptionalFields``), the page's ink alone is read once
    /// more: its depth below the ground (``GrayImage/inkDepth(kernel:gain:)``, by a square wider
    /// than a stroke and narrower than a band). The fields found there and not in the first reading
    /// are taken, each found under the same rules (a field the MRZ holds only where its meaning is
    /// the MRZ's). The lines are the first reading's.
    func vizReading(of page: GrayImage, recognizer: VIZTextRecognizer, mrz: MRZResult,
                    dpi: Double) -> (lines: [VIZLine], fields: [DocumentFieldName: VIZField])? {
        guard let lines = try? recognizer.lines(in: page, pixelsPerInch: Int(dpi)) else { return nil }
        var fields = vizFields(in: lines, mrz: mrz)
        if !VIZFieldFinder.anchoredFields(of: mrz).subtracting(Self.vizOptionalFields).isSubset(of: fields.keys),
           let ink = page.inkDepth(kernel: Int((Self.vizInkSquare * dpi / 25.4).rounded()) | 1, gain: Self.vizInkGain),
           let more = try? recognizer.lines(in: ink, pixelsPerInch: Int(dpi)) {
            fields.merge(vizFields(in: more, mrz: mrz)) { first, _ in first }
        }
        return (lines, fields)
    }

    /// The fields the MRZ holds that a page need not print, whose absence alone does not call for
    /// the second reading: the personal number, the TD3 MRZ's optional data (ICAO 9303-4 §4.2.2,
    /// line 2, positions 29–42), which many passports do not print in the visual zone. On the real
    /// specimens the second reading of a page missing it alone (008, 064) found nothing.
    static let vizOptionalFields: Set<DocumentFieldName> = [.personalIdNumber]

    /// The side of the square (mm) whose closing is the ground under the visual zone's print:
    /// wider than a bold stroke, narrower than the bands of a laminate's pattern. At 300 dpi,
    /// 21 px. (On the real specimens' pages, read twice by Tesseract's command line, the
    /// squares of 11 to 31 px found 93 to 98 of the MRZ's 180 fields against the first reading's
    /// 81; 21 and 31 px did best.)
    static let vizInkSquare = 1.8
    /// How many times its depth below the ground the print is darkened.
    static let vizInkGain = 2

    /// The fields of a visual zone's `lines`: the MRZ's found by their meaning (``VIZFieldFinder``),
    /// those the MRZ lacks under their captions (``VIZLabelFinder``), and where no caption of it
    /// was read, the date of issue by elimination (``VIZIssueDateFinder``). A validity printed as
    /// one range (`17.10.03-09.05.2013`) is read as its two dates (``VIZLine/splittingDateRanges``),
    /// and where it ends on the MRZ's expiry, it starts on the date of issue.
    func vizFields(in read: [VIZLine], mrz: MRZResult) -> [DocumentFieldName: VIZField] {
        let lines = read.map(\.splittingDateRanges)
        var fields = VIZFieldFinder(referenceDate: referenceDate).fields(in: lines, mrz: mrz)
        fields.merge(VIZLabelFinder(referenceDate: referenceDate).fields(in: lines)) { anchored, _ in anchored }
        // The sex under its caption, against the MRZ's as a page prints it (`<` is `X`).
        if let sex = fields[.sex] { fields[.sex]?.matchesMRZ = sex.value == DocumentMerger.printedSex(ofMRZ: mrz.fields.sex) }
        // The nationality matches where one of its words is the MRZ's code (ICAO 9303-3 §5:
        // `D` for Germany); words that name it (`DEUTSCH`) say nothing either way.
        if let nationality = fields[.nationality] {
            let code = (mrz.fields.nationality ?? "").replacingOccurrences(of: "<", with: "")
            let words = nationality.text.uppercased().split(whereSeparator: { !$0.isLetter })
            fields[.nationality]?.matchesMRZ = !code.isEmpty && words.contains { $0 == code } ? true : nil
        }
        // A date of issue only where the MRZ's dates allow it: one under the caption that they rule
        // out (not before the expiry, or the birth date: a caption read beside the other date's, as
        // on a US visa's `Issue Date` / `Expiration Date` pair) is that other date, and one the
        // expiry does not follow by whole years, read unsurely, is most likely misread
        // (``VIZIssueDateFinder/isTrusted(_:mrz:)``). Without one under its caption, the start of
        // a validity range ending on the expiry, else the date by elimination, held to the same trust.
        func trusted(_ issue: VIZField?) -> VIZField? {
            issue.flatMap { VIZIssueDateFinder.mayBeIssued(on: $0.value, mrz: mrz) && VIZIssueDateFinder.isTrusted($0, mrz: mrz) ? $0 : nil }
        }
        let issueFinder = VIZIssueDateFinder(referenceDate: referenceDate)
        fields[.dateOfIssue] = trusted(fields[.dateOfIssue])
            ?? issueFinder.dateOfIssue(inRangesOf: read, mrz: mrz)
            ?? trusted(issueFinder.dateOfIssue(in: lines, mrz: mrz))
        return fields
    }

    /// The document straightened at `dpi` with its MRZ band and what lies below it blanked (none
    /// for a card's front, which has no MRZ), and the barcodes at `excluding` (their quads in
    /// `image`); `nil` when the outline does not map onto a page.
    public static func visualZonePage(of image: GrayImage, _ detection: DetectedDocument, band: MRZBand?,
                                      excluding barcodes: [Quadrilateral] = [], dpi: Double = 300) -> GrayImage? {
        guard var page = straightened(image, detection, dpi: dpi) else { return nil }
        let (width, height) = (page.width, page.height)
        guard let imageToPage = Homography(from: detection.corners.corners, to: pageCorners(width: width, height: height)) else { return nil }
        if let band {
            // The MRZ's top on the page, less a millimeter: its lines are the MRZ's, not the VIZ's.
            let top = band.inkQuad.corners.map { imageToPage.apply($0).y }.min() ?? Double(height)
            let cut = max(0, min(height, Int(top - dpi / 25.4)))
            for i in (cut * width)..<(height * width) { page.pixels[i] = 255 }
        }
        blank(barcodes, of: detection.corners, on: &page, imageToPage: imageToPage, dpi: dpi)
        return page
    }

    /// Blanks each barcode (its quad in the image `imageToPage` maps onto `page`) with a margin of
    /// ``barcodeMargin``. Tesseract reads a symbol's bars as a picture or as stray letters, and
    /// its layout analysis joins it to the text beside it: a Code 128 beside a caption cut the
    /// caption short (`Date o!` for `Date of issue`, TestVectors/viz/card-a-back-barcode.png).
    /// Only a barcode whose center lies on the document (`outline`, in the image): one the scan
    /// gave this document because it lies on none maps anywhere, even across the outline's
    /// horizon, where its box would cover the page or not be finite.
    static func blank(_ barcodes: [Quadrilateral], of outline: Quadrilateral, on page: inout GrayImage, imageToPage: Homography, dpi: Double) {
        let margin = barcodeMargin * dpi / 25.4
        let width = Double(page.width), height = Double(page.height)
        for quad in barcodes where outline.contains(quad.center) {
            let corners = quad.corners.map(imageToPage.apply)
            guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { continue }
            func clamped(_ v: Double, _ limit: Double) -> Double { min(limit, max(0, v)) }
            let x0 = Int(clamped(corners.map(\.x).min()! - margin, width).rounded(.down)), x1 = Int(clamped(corners.map(\.x).max()! + margin, width).rounded(.up))
            let y0 = Int(clamped(corners.map(\.y).min()! - margin, height).rounded(.down)), y1 = Int(clamped(corners.map(\.y).max()! + margin, height).rounded(.up))
            guard x0 < x1, y0 < y1 else { continue }
            for y in y0..<y1 { for x in x0..<x1 { page.pixels[y * page.width + x] = 255 } }
        }
    }

    /// A straightened page's corners, top-left first, clockwise (as a document's outline).
    static func pageCorners(width: Int, height: Int) -> [Point] {
        [Point(x: 0, y: 0), Point(x: Double(width), y: 0), Point(x: Double(width), y: Double(height)), Point(x: 0, y: Double(height))]
    }

    /// The margin (mm) blanked around a barcode: its quiet zone, at least ten modules on a
    /// Code 128 or PDF417 (ISO/IEC 15417 §4.2, 15438 §4.2) of 0.1–0.2 mm.
    static let barcodeMargin = 1.0

    /// The document straightened at `dpi` (its format's size); `nil` when the outline does not map
    /// onto a page.
    static func straightened(_ image: GrayImage, _ detection: DetectedDocument, dpi: Double) -> GrayImage? {
        let (width, height) = DocumentCropper.size(of: detection, dpi: dpi)
        guard width > 1, height > 1, width * height <= 64_000_000 else { return nil }
        guard let pageToImage = Homography(from: pageCorners(width: width, height: height), to: detection.corners.corners) else { return nil }
        return image.warped(width: width, height: height, by: pageToImage, fill: 255, interpolation: .bicubic)
    }
}

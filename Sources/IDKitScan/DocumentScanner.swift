import Foundation
import IDKitImage
import IDKitMRZ
import IDKitBarcode
import IDKitDocument
import IDKitDocumentDetection

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

    /// ``scan(data:)`` decoding the page once in color and reading the gray derived from it; the
    /// color image too (for ``crops(of:in:)``), `nil` when it could not be decoded.
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

    /// ``scanPages(file:)``, with `color` each page decoded once in color (RGB, for crops) and
    /// read in the gray derived from it (``ColorImage/gray``).
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

    /// One page decoded, turned upright by the orientation it records, and scanned; `decode` and
    /// `total` timed from `t0`.
    private func scanPage(_ data: [UInt8], page: Int, since t0: Date, color: Bool = false) -> (scan: DocumentScan, image: GrayImage?, color: ColorImage?) {
        let image: GrayImage
        var decodedColor: ColorImage?
        do throws(ImageError) {
            if color {
                let decoded = try ImageDecoder.decodeColorPage(data, page: page, limits: limits)
                decodedColor = decoded.image.applyingEXIFOrientation(decoded.exifOrientation)
                image = decodedColor!.gray
            } else {
                let decoded = try ImageDecoder.decodePage(data, page: page, limits: limits)
                image = decoded.image.applyingEXIFOrientation(decoded.exifOrientation)
            }
        } catch {
            return (failed(error, since: t0), nil, nil)
        }
        var result = scan(image)
        result.timingsMs["decode"] = ms(since: t0) - (result.timingsMs["total"] ?? 0)
        result.timingsMs["total"] = ms(since: t0)
        return (result, image, decodedColor)
    }

    private func failed(_ error: ImageError, since t0: Date) -> DocumentScan {
        .failed(.unsupportedImage, reason: error.message, reasonKind: error.kind.rawValue, timingsMs: ["decode": ms(since: t0), "total": ms(since: t0)])
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
        // Two MRZ lines of 8 px characters, cropped to the zone itself, stand in 24 rows: a crop of
        // a passport's zone 412 × 38 px (9 px characters) was refused as too small to hold one.
        guard let first = frames.first, max(first.width, first.height) >= 120, min(first.width, first.height) >= 24 else {
            let size = frames.first.map { "\($0.width)×\($0.height)" } ?? "no image"
            return .failed(.imageTooSmall, reason: "\(size) pixels cannot hold a readable MRZ", timingsMs: ["total": ms(since: t0)])
        }
        // The band first (a few ms), then reading it and the barcode search side by side: on two
        // cores the scan costs the longer of the two, not their sum. On a page with an MRZ band the
        // barcode search is the quick one: only the two strongest bar fields the locator finds
        // outside the bands (their text lines are parallel strokes too), and a QR search — no
        // whole-image search with every decoder on every passport page. An image with no band (a
        // driving license, a bare symbol) gets the reader of `idkit barcode` without its last-resort
        // attempts on the located fields (mirrored, bicubic, a fixed threshold: 10–30 ms each on a
        // page's guilloches, which the locator takes for bar fields, for the one unit of the zxing
        // suites they read), searched whole by every decoder only when small or when a located
        // symbol was read (the rest of a sheet of symbols): a card's face without a barcode costs
        // the located fields, not 0.1–0.3 s of whole-image searches (``wholeImageBarcodeSearchPixels``).
        let scanner = MRZScanner()
        let located = frames.count == 1 ? scanner.locate(first) : nil
        let bands = located?.bands ?? []
        let locateMs = ms(since: t0)
        let mrzSlot = Slot<MRZScanner.Outcome>(), barcodeSlot = Slot<(barcodes: [Barcode], ms: Double)>()
        let outlineSlot = Slot<(edges: DocumentDetector.Edges, outlines: [DocumentDetector.Outline])>(), outlineMs = Slot<Double>()
        let readBarcodes = self.readBarcodes
        let detector = DocumentDetector()
        @Sendable func searchBarcodes() -> [Barcode] {
            let options = bands.isEmpty ? BarcodeReader.Options(lastResortAttempts: false, wholeImageSearchUpTo: Self.wholeImageBarcodeSearchPixels) : BarcodeReader.Options(searchWholeImage: false, lastResortAttempts: false)
            return (try? BarcodeReader(options: options).read(first, excluding: bands.prefix(3).map(\.quad))) ?? []
        }
        // The document outlines (OpenCV, ~10 ms) beside the MRZ reading and the barcode search.
        DispatchQueue.concurrentPerform(iterations: 3) { task in
            let start = Date()
            switch task {
            case 0:
                mrzSlot.value = located.map { scanner.scan(first, located: $0) } ?? scanner.scan(frames: frames)
            case 1:
                // Without a band the barcode search is the scan's other hope: beside the rest.
                // With one, it waits for the reading (``barcodesCannotBeThere``).
                guard readBarcodes, bands.isEmpty else { return }
                barcodeSlot.value = (searchBarcodes(), Date().timeIntervalSince(start) * 1000)
            default:
                outlineSlot.value = detector.edges(of: first).map { ($0, detector.outlines(in: $0)) }
                outlineMs.value = Date().timeIntervalSince(start) * 1000
            }
        }
        var outcome = mrzSlot.value!
        if frames.count == 1 { outcome.locateMilliseconds = locateMs }

        // Documents: the outlines, and the bands read (a band's direction says which way up its
        // document is). First with the band read; then the other bands the whole-image search
        // found outside that band's document are read (two at most), and only those that read as
        // an MRZ go to the detector: text lines on a document's face or in the clutter chain into
        // bands too, and would confirm whatever outline holds them.
        let detectStart = Date()
        func detect(_ readings: [MRZScanner.Outcome]) -> [DetectedDocument] {
            outlineSlot.value.map {
                detector.documents(edges: $0.edges, outlines: $0.outlines, bands: readings.compactMap(\.band))
            } ?? []
        }
        var readings = outcome.band == nil ? [] : [outcome]
        var detected = detect(readings)
        var detectMs = (outlineMs.value ?? 0) + ms(since: detectStart)
        // The read band's document: the one it confirmed, else the outline around it.
        let main = outcome.band.flatMap { read in
            detected.first { d in d.band.map { DocumentDetector.sameBand($0, read) } ?? false }
                ?? detected.first { $0.corners.contains(read.quad.center) }
        }
        let readStart = Date()
        for band in bands where readings.count < 3 && !(main?.corners.contains(band.quad.center) ?? false) {
            guard !readings.contains(where: { r in r.band.map { DocumentDetector.sameBand($0, band) } ?? false }),
                  let other = scanner.read(first, band: band), let otherBand = other.band, Self.isMRZ(other),
                  !readings.contains(where: { r in r.band.map { DocumentDetector.sameBand($0, otherBand) } ?? false }) else { continue }
            readings.append(other)
        }
        let extraReadMs = ms(since: readStart)
        if readings.count > (outcome.band == nil ? 0 : 1) {
            let again = Date()
            detected = detect(readings)
            detectMs += ms(since: again)
        }
        var parts: [(detection: DetectedDocument?, outcome: MRZScanner.Outcome?)] = detected.map { d in
            (d, d.band.flatMap { band in readings.first { r in r.band.map { DocumentDetector.sameBand($0, band) } ?? false } })
        }
        // Another document: an outline shaped like one, well supported, no MRZ in it yet, large
        // enough to hold MRZ print the size of the one read (an ID-1 card is 33.7 pitches wide):
        // the MRZ search again inside it alone (the whole-frame search keeps only its cleanest
        // finds, and a second document's band may not be among them). Only beside an MRZ read:
        // where the whole frame gave no band at all, the search inside an outline found none
        // either on any of 5,393 photos (the real specimens, bench-scan, 5,000 stress images, 40
        // pairs), and cost a failing photo 30–60 ms more.
        for k in parts.indices where parts[k].outcome == nil {
            guard let read = outcome.band, let d = parts[k].detection, d.outlineFound, d.confidence >= 0.7,
                  d.widthHeightRatio > 1.3, d.widthHeightRatio < 1.75 else { continue }
            // The outline around the MRZ already read is that MRZ's document (below), not another.
            if d.corners.contains(read.quad.center) { continue }
            let width = hypot(d.corners.topRight.x - d.corners.topLeft.x, d.corners.topRight.y - d.corners.topLeft.y)
            if width < 17 * read.pitch { continue }
            guard let found = mrz(in: first, within: d.corners, scanner: scanner), let edges = outlineSlot.value?.edges,
                  let refined = detector.documents(edges: edges, outlines: [DocumentDetector.Outline(points: d.corners.corners, support: d.confidence, weakestSide: d.weakestSide)],
                                                   bands: [found.band!]).first, refined.band != nil else { continue }
            parts[k] = (refined, found)
        }
        // Every MRZ read must belong to a document: the one around it, or one of its own.
        for other in readings.dropFirst() where !parts.contains(where: { $0.outcome?.band == other.band }) {
            parts.append((nil, other))
        }
        if let read = outcome.band, !parts.contains(where: { $0.outcome?.band == read }) {
            if let k = parts.firstIndex(where: { $0.outcome == nil && $0.detection?.corners.contains(read.quad.center) == true }) {
                parts[k].outcome = outcome
            } else {
                parts.insert((nil, outcome), at: 0)
            }
        }
        // The barcode search of an image with a band, unless the reading rules a barcode out.
        if readBarcodes, !bands.isEmpty, !Self.barcodesCannotBeThere(outcome, documents: parts.count) {
            let start = Date()
            barcodeSlot.value = (searchBarcodes(), ms(since: start))
        }
        let barcodes = barcodeSlot.value?.barcodes ?? []
        let barcodeMs = barcodeSlot.value?.ms ?? 0
        // An entry without an MRZ is a document only when it holds a barcode, or when its outline
        // has a document's shape, edges along all four sides and print inside: a box around a
        // portrait, a text block, a stamp or the desk's clutter has a side or two on nothing, or
        // another shape; a plain box on the desk has nothing inside.
        let edges = outlineSlot.value?.edges
        parts.removeAll { part in
            guard part.outcome?.band == nil, let d = part.detection else { return false }
            if barcodes.contains(where: { d.corners.contains($0.quad.center) }) { return false }
            return !Self.isDocumentOutline(d, printShare: edges.map { detector.printShare($0, within: d.corners) } ?? 0)
        }
        // A PDF417 symbol is a rectangle of a document's shape too (1.4–1.6 wide for 1): an outline
        // without an MRZ that a barcode fills (half its area or more) is the symbol, not a document.
        parts.removeAll { part in
            guard part.outcome == nil, let d = part.detection else { return false }
            return barcodes.contains { b in d.corners.contains(b.quad.center) && b.quad.area >= 0.5 * d.area }
        }
        // Documents the frame cuts (a second card pushed into a corner of the scanner's glass), beside
        // a document whose MRZ was read inside its own outline, and beside the documents kept: with
        // the same print inside as any other entry without an MRZ.
        if let edges, parts.contains(where: { $0.outcome?.band != nil && $0.detection?.outlineFound == true }) {
            let start = Date()
            parts += detector.cutDocuments(edges: edges, beside: parts.compactMap(\.detection))
                .filter { Self.isDocumentOutline($0, printShare: detector.printShare(edges, within: $0.corners)) }.map { ($0, nil) }
            detectMs += ms(since: start)
        }
        if parts.isEmpty { parts = [(nil, outcome)] }
        // Barcodes go to the document they lie in; those in none go to the primary.
        func holder(_ b: Barcode) -> Int? {
            parts.firstIndex { $0.detection?.corners.contains(b.quad.center) ?? false }
        }
        let holders = barcodes.map(holder)
        // The primary: the largest document with an MRZ or a barcode, else the largest.
        let hasData = parts.indices.map { k in parts[k].outcome?.band != nil || holders.contains(k) }
        let area = parts.map { $0.detection?.area ?? 0 }
        let primary = parts.indices.max { a, b in (hasData[a] ? 1 : 0, area[a]) < (hasData[b] ? 1 : 0, area[b]) }!
        var scans = parts.indices.map { k in
            documentScan(outcome: parts[k].outcome, detection: parts[k].detection,
                         barcodes: zip(barcodes, holders).filter { $0.1 == k || ($0.1 == nil && k == primary) }.map(\.0))
        }
        var scan = scans[primary]
        scans.remove(at: primary)
        scans.sort { ($0.detection?.area ?? 0) > ($1.detection?.area ?? 0) }
        scan.documents = [scan] + scans
        var quality = ImageQuality(image: first, band: scan.band, thresholds: thresholds)
        quality.addCaptureHints(document: scan.detection, band: scan.band, width: first.width, height: first.height, thresholds: thresholds)
        scan.quality = quality
        let readMs = outcome.readMilliseconds + extraReadMs
        scan.timingsMs = ["locate": outcome.locateMilliseconds, "read": readMs, "barcodes": barcodeMs, "detect": detectMs, "total": ms(since: t0)]
        return scan
    }

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
    static func isDocumentOutline(_ d: DetectedDocument, printShare: @autoclosure () -> Double) -> Bool {
        d.outlineFound && d.widthHeightRatio >= 1.3 && d.widthHeightRatio <= 1.75 && d.weakestSide >= minimumWeakestSide
            && printShare() >= minimumPrintShare
    }

    /// The share of its worst side that an outline without an MRZ or barcode must have on edges.
    static let minimumWeakestSide = 0.5
    /// The share of its interior that an outline without an MRZ or barcode must have on edges: a
    /// document's face, front or back, carries print, a portrait or a pattern (0.07–0.25 on the
    /// cards beside a passport in the real specimens and the generated pairs), where a plain box
    /// of the desk's clutter has none (0–0.03 with a line of text running across it).
    static let minimumPrintShare = 0.04

    /// Whether the image holds no barcode worth searching for: its only document is a passport's
    /// data page (TD3) whose MRZ is verified. ICAO 9303-4 lays out the data page with no machine
    /// readable barcode (visas and TD1/TD2 cards may carry a 2D symbol: a visible digital seal, an
    /// AAMVA or national PDF417 or QR code on a card's back), and a verified reading leaves no doubt
    /// about the layout. The search costs a passport photo 2–70 ms (a page's guilloches and text
    /// lines are bar-like fields the locator must try) for nothing.
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

    /// One document's scan: the status and reason of its MRZ reading, its barcodes, and the
    /// merged result, redacted as the policy says for its class.
    func documentScan(outcome: MRZScanner.Outcome?, detection: DetectedDocument?, barcodes: [Barcode]) -> DocumentScan {
        let (status, reason, reasonKind) = Self.verdict(outcome)
        let aamva = barcodes.first { $0.format == .pdf417 }
        let verifiedMRZ = outcome?.reading?.verified == true ? outcome?.parsed : nil
        var document: DocumentResult?
        if verifiedMRZ != nil || aamva != nil {
            document = DocumentMerger(referenceDate: referenceDate, redaction: redaction).merge(mrz: verifiedMRZ, barcode: aamva?.bytes)
        }
        var detection = detection
        // The reading names the layout (a 2×44 band is a passport or an MRV-A visa).
        if let format = outcome?.reading?.format, detection != nil { detection?.format = DocumentFormat(mrz: format) }
        var scan = DocumentScan(status: status, reason: reason, band: outcome?.band, reading: outcome?.reading, parsed: outcome?.parsed,
                                quality: nil, barcodes: barcodes, document: document, timingsMs: [:])
        scan.reasonKind = reasonKind
        scan.detection = detection
        let documentClass = document?.documentClass ?? verifiedMRZ.flatMap { DocumentMerger.documentClass(of: $0) }
        let settings = redaction.settings(for: documentClass)
        scan.redaction = settings
        if settings.redactsResult { scan.redactResult(document: document, settings: settings) }
        return scan
    }

    /// The status of one MRZ reading, why in a sentence, and why in a word (``DocumentScan/reasonKind``).
    /// A rule broken for sure (``breaksSurely(_:unsure:)``) is the document; a reading in doubt
    /// where it matters, valid or not, is the photo.
    static func verdict(_ outcome: MRZScanner.Outcome?) -> (ScanStatus, String?, String?) {
        guard let outcome, outcome.band != nil else { return (.mrzNotFound, "no machine readable zone in the image", "mrzNotFound") }
        guard let reading = outcome.reading, let parsed = outcome.parsed else {
            return (.mrzUncertain, "the reading is not an MRZ", "notAnMRZ")
        }
        if reading.verified { return (.ok, nil, nil) }
        // Printed digits in a country code leave every check digit passing: say which rules fail.
        let broken = (parsed.checkDigits.present.contains(.invalid) ? "fails its check digits: " : "breaks a rule its check digits do not cover: ")
            + parsed.errors.map(\.message).joined(separator: "; ")
        if !parsed.isValid, let first = parsed.errors.first, Self.breaksSurely(parsed.errors, unsure: reading.unsureFields) {
            return (.mrzInvalid, "the MRZ as printed " + broken, first.code.rawValue)
        }
        let fields = reading.unsureFields.isEmpty ? "some characters" : reading.unsureFields.joined(separator: ", ")
        if parsed.isValid {
            return (.mrzUncertain, "another reading of \(fields) is plausible and would pass every check digit too, or no check digit covers it", "unsureFields")
        }
        return (.mrzUncertain, "as read, the MRZ " + broken + "; another reading of \(fields) is plausible", "unsureFields")
    }

    /// Whether the rules a reading breaks are broken for sure: no field an error involves is in
    /// doubt (``MRZReading/unsureFields``: for a failing check digit, the fields another plausible
    /// reading would change to pass it), nor the document code (the layout itself: a visa read as
    /// a passport fails a composite check digit a visa has not). A name no check digit covers may
    /// stay in doubt: a misprinted date is misprinted whatever the name's last letters are.
    static func breaksSurely(_ errors: [MRZIssue], unsure: [String]) -> Bool {
        let doubted = Set(unsure)
        if doubted.contains("documentCode") { return false }
        for error in errors {
            guard let field = error.field else { if !doubted.isEmpty { return false }; continue }
            if !doubted.isDisjoint(with: involved(in: error.code, field: field)) { return false }
        }
        return true
    }

    /// The fields (``MRZReading/unsureFields``' names) a broken rule depends on: a composite
    /// check digit every field it covers (ICAO 9303-3 §4.9), an expiry before birth both dates,
    /// the personal number (the parser's `optionalData`) its optional data field.
    static func involved(in code: MRZIssue.Code, field: String) -> Set<String> {
        switch (code, field) {
        case (_, "composite"): compositeCovered
        case (.expiryBeforeBirth, _): ["dateOfBirth", "dateOfExpiry"]
        case (_, "optionalData"): ["optionalData", "optionalData1"]
        default: [field]
        }
    }

    /// The fields the composite check digit covers (ICAO 9303-3 §4.9, in the JSON contract's names).
    static let compositeCovered: Set<String> = ["documentNumber", "dateOfBirth", "dateOfExpiry", "optionalData1", "optionalData2", "composite"]

    private func ms(since t: Date) -> Double { Date().timeIntervalSince(t) * 1000 }
}

/// One result written by one task of a `concurrentPerform` and read after it returns.
/// `@unchecked Sendable`: each slot has a single writer, and the join orders the write before the read.
private final class Slot<Value>: @unchecked Sendable {
    var value: Value?
}

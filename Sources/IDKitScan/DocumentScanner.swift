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
    /// Read each document's visual zone too (`idkit scan --viz`): off by default, since it costs
    /// several times the rest of the scan.
    public var readVIZ: Bool

    public init(limits: ImageLimits = .default, thresholds: QualityThresholds = QualityThresholds(), readBarcodes: Bool = true,
                referenceDate: CalendarDate = .today, redaction: RedactionPolicy = .fixed(.none), readVIZ: Bool = false) {
        self.limits = limits
        self.thresholds = thresholds
        self.readBarcodes = readBarcodes
        self.referenceDate = referenceDate
        self.redaction = redaction
        self.readVIZ = readVIZ
    }

    /// The image scanned; with `color` (the same image in RGB, as decoded), the document outlines
    /// are looked for in its colors too (``DocumentDetector/edges(of:color:)``).
    public func scan(_ image: GrayImage, color: ColorImage? = nil) -> DocumentScan {
        scan(frames: [image], color: color)
    }

    /// Several frames of one document: the MRZ read from their combined character scores.
    public func scan(frames: [GrayImage], color: ColorImage? = nil) -> DocumentScan {
        let t0 = Date()
        // Two MRZ lines of 8 px characters, cropped to the zone itself, stand in 24 rows: a crop of
        // a passport's zone, 412 × 38 px with 9 px characters, is not too small to hold one.
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
        // attempts on the located fields (mirrored, bicubic, a fixed threshold: each a decode of a
        // page's guilloches, which the locator takes for bar fields, for the one unit of the zxing
        // suites they read), searched whole by every decoder only when small or when a located
        // symbol was read (the rest of a sheet of symbols): a card's face without a barcode costs
        // the located fields, not whole-image searches that cost many times more (``wholeImageBarcodeSearchPixels``).
        let scanner = MRZScanner()
        let located = frames.count == 1 ? scanner.locate(first) : nil
        let bands = located?.bands ?? []
        let locateMs = ms(since: t0)
        let mrzSlot = Slot<MRZScanner.Outcome>(), barcodeSlot = Slot<(barcodes: [Barcode], ms: Double)>()
        let outlineSlot = Slot<(edges: DocumentDetector.Edges, outlines: [DocumentDetector.Outline])>(), outlineMs = Slot<Double>()
        let readBarcodes = self.readBarcodes
        let detector = DocumentDetector()
        @Sendable func searchBarcodes() -> [Barcode] {
            // zxing-cpp alone: it reads every format zbar does, and zbar's pass over a card's face
            // without a barcode (up to 0.5 MP it is searched whole) cost as much again (0.6-17 ms
            // on the real specimens cut above their MRZ). `idkit barcode` keeps zbar.
            let options = bands.isEmpty ? BarcodeReader.Options(useZBar: false, lastResortAttempts: false, wholeImageSearchUpTo: Self.wholeImageBarcodeSearchPixels)
                                        : BarcodeReader.Options(useZBar: false, searchWholeImage: false, lastResortAttempts: false)
            return (try? BarcodeReader(options: options).read(first, excluding: bands.prefix(3).map(\.quad))) ?? []
        }
        // The document outlines (OpenCV) beside the MRZ reading and the barcode search.
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
                outlineSlot.value = detector.edges(of: first, color: color).map { ($0, detector.outlines(in: $0)) }
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
                  let other = scanner.read(first, band: band, after: outcome), let otherBand = other.band, Self.isMRZ(other),
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
        // where the whole frame gives no band at all, the search inside an outline finds none
        // either (on the real specimens, bench-scan's photos, the stress images and the pairs), and
        // only makes a failing photo slower.
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
            let cut = detector.cutDocuments(edges: edges, beside: parts.compactMap(\.detection))
                .filter { d in
                    Self.isDocumentOutline(d, weakestSide: Self.leastWeakestSide(ofCut: d, width: first.width, height: first.height),
                                           printShare: detector.printShare(edges, within: d.corners))
                }
            // An outline without an MRZ or barcode inside one of them (its portrait, a text block)
            // is part of that document, not one of its own.
            parts.removeAll { part in
                guard let d = part.detection, part.outcome?.band == nil, !barcodes.contains(where: { d.corners.contains($0.quad.center) }) else { return false }
                return cut.contains { DocumentDetector.isInside(d, $0) }
            }
            parts += cut.map { ($0, nil) }
            detectMs += ms(since: start)
        }
        let refineStart = Date()
        // Each outline's sides on the image's own gray steps, at full resolution
        // (``DocumentDetector/refined(_:in:beside:)``), never across into another document's.
        let outlines = parts.map { $0.detection?.corners }
        for k in parts.indices {
            let others = outlines.indices.compactMap { $0 == k ? nil : outlines[$0] }
            parts[k].detection = parts[k].detection.map { DocumentDetector.refined($0, in: first, beside: others) }
        }
        detectMs += ms(since: refineStart)
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
                         barcodes: zip(barcodes, holders).filter { $0.1 == k || ($0.1 == nil && k == primary) }.map(\.0),
                         image: frames.count == 1 ? first : nil)
        }
        var scan = scans[primary]
        scans.remove(at: primary)
        scans.sort { ($0.detection?.area ?? 0) > ($1.detection?.area ?? 0) }
        scan.documents = [scan] + scans
        var quality = ImageQuality(image: first, band: scan.band, thresholds: thresholds)
        quality.addCaptureHints(document: scan.detection, band: scan.band, width: first.width, height: first.height, thresholds: thresholds)
        if let reading = scan.reading { quality.addReadingHints(confidence: reading.confidence, verified: reading.verified, band: scan.band, width: first.width, height: first.height) }
        scan.quality = quality
        let readMs = outcome.readMilliseconds + extraReadMs
        scan.timingsMs = ["locate": outcome.locateMilliseconds, "read": readMs, "barcodes": barcodeMs, "detect": detectMs, "total": ms(since: t0)]
        if readVIZ { scan.timingsMs["viz"] = scan.documents.reduce(0) { $0 + ($1.timingsMs["viz"] ?? 0) } }
        return scan
    }

    func ms(since t: Date) -> Double { Date().timeIntervalSince(t) * 1000 }
}

/// One result written by one task of a `concurrentPerform` and read after it returns.
/// `@unchecked Sendable`: each slot has a single writer, and the join orders the write before the read.
private final class Slot<Value>: @unchecked Sendable {
    var value: Value?
}

import IDKitMRZ
import IDKitMRZReading
import IDKitBarcode
import IDKitDocument
import IDKitDocumentDetection
import IDKitImage
import IDKitVIZ

// One document's scan: its MRZ reading's status and reason, its barcodes, and the merged result.
extension DocumentScanner {
    /// One document's scan: the status and reason of its MRZ reading, its barcodes, and the
    /// merged result, redacted as the policy says for its class.
    /// With ``readVIZ`` and the image it was read from, the document's visual zone is read too, and
    /// its fields go into the merge as the VIZ of the side the image shows.
    func documentScan(outcome: MRZScanner.Outcome?, detection: DetectedDocument?, barcodes: [Barcode], image: GrayImage? = nil) -> DocumentScan {
        let (status, reason, reasonKind) = Self.verdict(outcome)
        let verifiedMRZ = outcome?.reading?.verified == true ? outcome?.parsed : nil
        var detection = detection
        // The reading names the layout (a 2×44 band is a passport or an MRV-A visa).
        if let format = outcome?.reading?.format, detection != nil { detection?.format = DocumentFormat(mrz: format) }
        var viz: (page: VIZPage, milliseconds: Double)?
        if readVIZ, let image, let detection, let band = outcome?.band, let parsed = outcome?.parsed {
            viz = visualZone(of: image, detection, band: band, mrz: parsed, barcodes: barcodes.map(\.quad))
        }
        var scan = DocumentScan(status: status, reason: reason, band: outcome?.band, reading: outcome?.reading, parsed: outcome?.parsed,
                                quality: nil, barcodes: barcodes, document: nil, timingsMs: [:])
        scan.reasonKind = reasonKind
        scan.detection = detection
        scan.viz = viz?.page
        if let viz { scan.timingsMs["viz"] = viz.milliseconds }
        let isBack = DocumentScan.vizSide(detection?.format) == .vizBack
        mergeAndRedact(&scan, verifiedMRZ: verifiedMRZ, vizFront: isBack ? nil : viz?.page, vizBack: isBack ? viz?.page : nil)
        return scan
    }

    /// `scan`'s merged document, from its verified MRZ, its AAMVA barcode and the visual zones
    /// given (none without a verified MRZ or a barcode to rest on), and the redaction its
    /// document class asks for, applied to everything `scan` reports.
    func mergeAndRedact(_ scan: inout DocumentScan, verifiedMRZ: MRZResult?, vizFront: VIZPage?, vizBack: VIZPage?) {
        let aamva = scan.barcodes.first { $0.format == .pdf417 }
        // The nationality the visual zone prints (most often in words) is not the code the document
        // result holds: it stays in `viz.fields`, out of the merge.
        func reading(_ page: VIZPage?) -> VIZReading? {
            page.map { VIZReading($0.fields.filter { $0.key != .nationality }.mapValues { $0.value }) }
        }
        if verifiedMRZ != nil || aamva != nil {
            scan.document = DocumentMerger(referenceDate: referenceDate, redaction: redaction)
                .merge(mrz: verifiedMRZ, barcode: aamva?.bytes, vizFront: reading(vizFront), vizBack: reading(vizBack))
            // A verified MRZ never gives way to a VIZ value that contradicts it (`matchesMRZ`
            // false: a sex printed otherwise): the document keeps the MRZ's, says so in a warning
            // (`vizContradictsMRZ`), and its readings and `viz.fields` hold the other.
            if verifiedMRZ != nil, var document = scan.document {
                for (side, page) in [(DocumentSource.vizFront, vizFront), (.vizBack, vizBack)] {
                    for (name, field) in page?.fields ?? [:] where field.matchesMRZ == false {
                        // Redacted, the readings are gone and nothing is put back.
                        guard let mrzValue = document.fields[name]?.readings[.mrz] else { continue }
                        document.fields[name]?.value = mrzValue
                        document.fields[name]?.source = .mrz
                        document.warnings.append(DocumentWarning(code: .vizContradictsMRZ, message:
                            "\(side.rawValue).\(name.rawValue): the visual zone prints \(field.value) where the verified MRZ holds \(mrzValue.isEmpty ? "<" : mrzValue); the MRZ's is kept"))
                    }
                }
                scan.document = document
            }
        }
        let documentClass = scan.document?.documentClass ?? verifiedMRZ.flatMap { DocumentMerger.documentClass(of: $0) }
        let settings = redaction.settings(for: documentClass)
        scan.redaction = settings
        if settings.redactsResult { scan.redactResult(document: scan.document, settings: settings) }
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
}

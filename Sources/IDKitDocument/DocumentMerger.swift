public import IDKitMRZ
import IDKitAAMVA
public import IDKitChip

/// Builds one ``DocumentResult`` from any of a parsed MRZ, a barcode payload and the VIZ fields
/// the caller read from either side, by the reference SDKs' fixed priority (see
/// ``DocumentSource/priority(for:)``), then applies the redaction policy.
public struct DocumentMerger: Sendable {
    /// Ages, expiry and two-digit VIZ years are judged against this date.
    public var referenceDate: CalendarDate
    public var redaction: RedactionPolicy
    /// The CSCAs a chip's Document Signer must chain to for its passive authentication to pass
    /// (``merge(_:)`` with chip files); without them a chip's values come last.
    public var cscas: CSCAStore?

    public init(referenceDate: CalendarDate = .today, redaction: RedactionPolicy = .fixed(.none), cscas: CSCAStore? = nil) {
        self.referenceDate = referenceDate
        self.redaction = redaction
        self.cscas = cscas
    }

    /// Merges what is given; `barcode` is the raw payload (AAMVA is parsed here; other payloads
    /// are kept raw with a warning).
    public func merge(mrz: MRZResult? = nil, barcode: [UInt8]? = nil, vizFront: VIZReading? = nil,
                      vizBack: VIZReading? = nil, chip: ChipDocument? = nil) -> DocumentResult {
        var warnings: [DocumentWarning] = []
        var aamva: AAMVAPayload?
        if let barcode {
            do {
                aamva = try AAMVAParser().parse(barcode)
            } catch {
                warnings.append(DocumentWarning(code: .barcodeNotAAMVA, message: "barcode: not an AAMVA payload (\(error.message)); kept raw only"))
            }
        }
        return merge(mrz: mrz, aamva: aamva, rawBarcode: barcode, vizFront: vizFront, vizBack: vizBack, chip: chip, warnings: warnings)
    }

    /// Merges a barcode payload the caller parsed already; `rawBarcode` (optional) is kept as
    /// the result's raw bytes.
    public func merge(mrz: MRZResult? = nil, aamva: AAMVAPayload, rawBarcode: [UInt8]? = nil, vizFront: VIZReading? = nil,
                      vizBack: VIZReading? = nil, chip: ChipDocument? = nil) -> DocumentResult {
        merge(mrz: mrz, aamva: Optional(aamva), rawBarcode: rawBarcode, vizFront: vizFront, vizBack: vizBack, chip: chip, warnings: [])
    }

    private func merge(mrz: MRZResult?, aamva: AAMVAPayload?, rawBarcode barcode: [UInt8]?, vizFront: VIZReading?,
                       vizBack: VIZReading?, chip: ChipDocument?, warnings: [DocumentWarning]) -> DocumentResult {
        var warnings = warnings
        if let p = aamva, !p.warnings.isEmpty {
            let codes = Set(p.warnings.map(\.code.rawValue)).sorted().joined(separator: ", ")
            warnings.append(DocumentWarning(code: .barcodeDamaged, message: "barcode: read despite damage (\(codes))"))
        }
        if let mrz, !mrz.isValid {
            let fields = mrz.errors.compactMap(\.field)
            warnings.append(DocumentWarning(code: .mrzInvalid, message: "MRZ: check digits fail (\(Set(fields).sorted().joined(separator: ", "))); its values are used but unverified"))
        }

        if let chip {
            let pa = chip.passiveAuthentication
            if !chip.isAuthenticated {
                warnings.append(DocumentWarning(code: .chipNotAuthenticated, message: "chip: passive authentication \(pa.result.rawValue) ("
                                                + pa.reasons.joined(separator: "; ") + "); its values come after every other source"))
            }
            for problem in chip.problems {
                warnings.append(DocumentWarning(code: .chipDataGroupUnreadable, message: "chip: \(problem)"))
            }
        }
        let chipMRZ = chip?.dataGroup1?.mrz
        let country = aamva?.country ?? mrz?.fields.issuingState ?? chipMRZ?.fields.issuingState ?? vizBack?[.issuingState] ?? vizFront?[.issuingState]
        let monthFirst = country == "USA" || country == "US"
        var readings = SourceReadings()
        if let mrz { readings.addMRZ(mrz, reference: referenceDate) }
        if let chip { readings.addChip(chip, reference: referenceDate) }
        if let aamva { readings.addAAMVA(aamva) }
        for (source, viz) in [(DocumentSource.vizBack, vizBack), (.vizFront, vizFront)] {
            guard let viz else { continue }
            readings.addVIZ(viz, as: source, monthFirst: monthFirst, reference: referenceDate, warnings: &warnings)
        }

        var fields: [DocumentFieldName: DocumentField] = [:]
        fields.reserveCapacity(DocumentFieldName.allCases.count)
        for name in DocumentFieldName.allCases {
            let readingsOfField = readings.values[name.index]
            let order = DocumentSource.priority(for: name, chipAuthenticated: chip?.isAuthenticated ?? false)
            let chosen = order.first { readingsOfField[$0].map { !$0.isEmpty } ?? false } ?? order.first { readingsOfField[$0] != nil }
            fields[name] = DocumentField(value: chosen.flatMap { readingsOfField[$0] }, source: chosen, readings: readingsOfField)
        }

        let documentClass = Self.documentClass(mrz: mrz ?? chipMRZ, aamva: aamva)
        let settings = redaction.settings(for: documentClass)
        // A face the redaction withholds is not encoded only to be dropped.
        let faceImages = !(settings.redactsResult && settings.redactFace)
        var result = DocumentResult(
            fields: fields, documentClass: documentClass, dataMatch: readings.dataMatch(),
            derived: derived(fields, aamva: aamva), chipAccess: (mrz ?? chipMRZ).map(Self.chipAccess),
            chip: chip.map { Self.summary($0, images: faceImages) },
            raw: DocumentRawData(mrz: mrz?.lines, barcode: barcode), redacted: [], warnings: warnings)
        if settings.redactsResult {
            result = Redactor(settings: settings, mrz: mrz, aamva: aamva, chip: chip, readings: readings).redact(result)
        }
        return result
    }

    /// Parses the MRZ text of `input` first, and verifies its chip files against ``cscas``; a text
    /// that is not an MRZ at all, or chip files without EF.SOD or with a file that is no LDS file,
    /// are errors.
    public func merge(_ input: DocumentInput) throws(DocumentError) -> DocumentResult {
        var mrz: MRZResult?
        if let lines = input.mrz {
            do {
                mrz = try MRZParser(referenceDate: referenceDate).parse(lines: lines)
            } catch {
                throw DocumentError(.invalidMRZ, "mrz: \(error)")
            }
        }
        var chip: ChipDocument?
        if let files = input.chip {
            var set = ChipFiles()
            do {
                for (i, file) in files.enumerated() { try set.add(file, name: "chip[\(i)]") }
                chip = try ChipDocument(set, cscas: cscas, referenceDate: referenceDate)
            } catch {
                throw DocumentError(.invalidChip, error.message)
            }
        }
        return merge(mrz: mrz, barcode: input.barcode, vizFront: input.vizFront, vizBack: input.vizBack, chip: chip)
    }

    /// The chip's part of the result; the faces' images base64 when `images`.
    static func summary(_ chip: ChipDocument, images: Bool) -> ChipSummary {
        let pa = chip.passiveAuthentication
        return ChipSummary(passiveAuthentication: pa.result.rawValue, reasons: chip.isAuthenticated ? [] : pa.reasons,
                           dataGroups: chip.dataGroupNumbers.map { "DG\($0)" },
                           faces: chip.faces.map { ChipFace(imageType: $0.imageType, width: $0.width, height: $0.height, image: images ? Base64.encode($0.image) : nil) })
    }

    func derived(_ fields: [DocumentFieldName: DocumentField], aamva: AAMVAPayload?) -> DerivedValues {
        var d = DerivedValues(referenceDate: referenceDate)
        let ref = referenceDate
        if let birth = fields[.dateOfBirth]?.value.flatMap(CalendarDate.init(iso8601:)) {
            let age = ref.year - birth.year - ((ref.month, ref.day) < (birth.month, birth.day) ? 1 : 0)
            d.age = age
            d.isUnder18 = age < 18
            d.isUnder21 = age < 21
        }
        let expiry = fields[.dateOfExpiry]?.value
        if let expiry, SourceReadings.isPermanent(expiry) {
            d.isPermanentExpiry = true
            d.isExpired = false
        } else if expiry == nil, let raw = aamva?.primarySubfile?.value("DBA"), raw.count == 8, raw.allSatisfy({ $0 == "9" }) {
            // AAMVA cards with no expiry write 99999999 in DBA (Annex D, date fields).
            d.isPermanentExpiry = true
            d.isExpired = false
        } else if let date = expiry.flatMap(CalendarDate.init(iso8601:)) {
            d.isPermanentExpiry = false
            d.isExpired = date < ref
        }
        return d
    }

    /// The class an MRZ alone implies (for choosing redaction before anything is merged).
    public static func documentClass(of mrz: MRZResult) -> DocumentClass? { documentClass(mrz: mrz, aamva: nil) }

    static func documentClass(mrz: MRZResult?, aamva: AAMVAPayload?) -> DocumentClass? {
        if let aamva {
            let type: DocumentClass.DocumentType? = switch aamva.fields.documentType {
            case "DL": .driverLicense
            case "ID": .identityCard
            default: nil
            }
            return DocumentClass(country: aamva.country ?? aamva.jurisdiction?.country, region: aamva.jurisdiction?.code, type: type)
        }
        guard let mrz else { return nil }
        let f = mrz.fields
        let code = Array(f.documentCode.utf8)
        let type: DocumentClass.DocumentType? = switch code.first {
        case UInt8(ascii: "P"): .passport
        case UInt8(ascii: "V"): .visa
        case UInt8(ascii: "A") where code.count > 1 && code[1] == UInt8(ascii: "C"): .crewMemberCertificate
        case UInt8(ascii: "I"), UInt8(ascii: "A"), UInt8(ascii: "C"): .identityCard
        default: .otherTravelDocument
        }
        // ICAO 9303-3 §5: Germany is `D`, its ISO 3166-1 code is DEU; other codes are ISO or ICAO's own.
        return DocumentClass(country: f.issuingState == "D" ? "DEU" : f.issuingState, region: nil, type: type)
    }

    static func chipAccess(_ mrz: MRZResult) -> ChipAccess {
        guard let information = try? MRZInformation(mrz: mrz) else {
            return ChipAccess(bacReady: false, mrzInformation: nil, kSeed: nil, kEnc: nil, kMac: nil)
        }
        let keys = BACKeys(information)
        return ChipAccess(bacReady: mrz.isBACReady, mrzInformation: information.text, kSeed: Hex.encode(keys.kSeed),
                          kEnc: Hex.encode(keys.kEnc), kMac: Hex.encode(keys.kMac))
    }
}

/// The merge input as JSON: `{"mrz": "line\nline" | [lines], "barcode": base64,
/// "viz": {"front": {field: value}, "back": {…}}, "chip": [base64 EF files], "referenceDate": "YYYY-MM-DD"}`.
public struct DocumentInput: Sendable, Equatable {
    public var mrz: [String]?
    public var barcode: [UInt8]?
    public var vizFront: VIZReading?
    public var vizBack: VIZReading?
    /// The files read from the chip (EF.SOD and data groups, in any order: each is told apart by
    /// its first tag).
    public var chip: [[UInt8]]?
    public var referenceDate: CalendarDate?

    public init(mrz: [String]? = nil, barcode: [UInt8]? = nil, vizFront: VIZReading? = nil, vizBack: VIZReading? = nil,
                chip: [[UInt8]]? = nil, referenceDate: CalendarDate? = nil) {
        self.mrz = mrz
        self.barcode = barcode
        self.vizFront = vizFront
        self.vizBack = vizBack
        self.chip = chip
        self.referenceDate = referenceDate
    }
}

extension DocumentMerger {
    /// The sex an MRZ holds as a page prints it: `<` (unspecified, which the parser gives as "")
    /// is the `X` of ICAO 9303-3 §4.3; `M` and `F` as they are. The merge's `dataMatch.sex` and the
    /// scan's `viz.fields.sex.matchesMRZ` compare through it.
    public static func printedSex(ofMRZ sex: String) -> String { sex.isEmpty || sex == "<" ? "X" : sex }
}

import Foundation
public import IDKitMRZ

/// One field of the merged result: the chosen value, where it came from, and every source's own
/// reading of it (so that a caller can see all of them).
///
/// `value == nil` means no source has the field; `""` means the document has it and it is empty.
public struct DocumentField: Sendable, Equatable, Hashable, Codable {
    @NullWhenAbsent public var value: String?
    @NullWhenAbsent public var source: DocumentSource?
    /// Each source's reading, normalized as ``value`` is (ISO dates, names with single spaces).
    public var readings: DocumentReadings

    public init(value: String?, source: DocumentSource?, readings: DocumentReadings) {
        self.value = value
        self.source = source
        self.readings = readings
    }

}

/// Every source's reading of one field; JSON: an object with a key for each source that has it.
public struct DocumentReadings: Sendable, Equatable, Hashable, Codable, ExpressibleByDictionaryLiteral {
    public var mrz: String?
    public var barcode: String?
    public var vizBack: String?
    public var vizFront: String?
    public var chip: String?

    public typealias Key = DocumentSource
    public typealias Value = String

    public init() {}

    public init(dictionaryLiteral elements: (DocumentSource, String)...) {
        for (source, value) in elements { self[source] = value }
    }

    public subscript(_ source: DocumentSource) -> String? {
        get {
            switch source {
            case .mrz: return mrz
            case .barcode: return barcode
            case .vizBack: return vizBack
            case .vizFront: return vizFront
            case .chip: return chip
            }
        }
        set {
            switch source {
            case .mrz: mrz = newValue
            case .barcode: barcode = newValue
            case .vizBack: vizBack = newValue
            case .vizFront: vizFront = newValue
            case .chip: chip = newValue
            }
        }
    }

    public var isEmpty: Bool { mrz == nil && barcode == nil && vizBack == nil && vizFront == nil && chip == nil }

    /// The readings present, in ``DocumentSource`` order.
    public var all: [(source: DocumentSource, value: String)] {
        DocumentSource.allCases.compactMap { s in self[s].map { (s, $0) } }
    }

    public func map(_ transform: (String) -> String) -> DocumentReadings {
        var out = DocumentReadings()
        out.mrz = mrz.map(transform)
        out.barcode = barcode.map(transform)
        out.vizBack = vizBack.map(transform)
        out.vizFront = vizFront.map(transform)
        out.chip = chip.map(transform)
        return out
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        for key in c.allKeys {
            guard let source = DocumentSource(rawValue: key.stringValue) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "unknown source \(key.stringValue)")
            }
            self[source] = try c.decode(String.self, forKey: key)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        for (source, value) in all { try c.encode(value, forKey: JSONKey(stringValue: source.rawValue)) }
    }
}

/// Country, region and kind of document, from the MRZ document code and issuer or the AAMVA IIN
/// and subfile type.
public struct DocumentClass: Sendable, Equatable, Hashable, Codable {
    public enum DocumentType: String, Sendable, Codable, Hashable, CaseIterable {
        case passport, identityCard, visa, crewMemberCertificate, driverLicense, otherTravelDocument
    }
    /// ISO 3166-1 alpha-3 where one exists (`D` → `DEU`), else the ICAO code (`UTO`, `XXA`, `EUE`).
    @NullWhenAbsent public var country: String?
    /// US state or Canadian province code, from the IIN.
    @NullWhenAbsent public var region: String?
    @NullWhenAbsent public var type: DocumentType?

    public init(country: String?, region: String?, type: DocumentType?) {
        self.country = country
        self.region = region
        self.type = type
    }
}

/// `match`: every source that has the value agrees; `mismatch`: two disagree; `notPerformed`:
/// fewer than two sources have it.
public enum DataMatchState: String, Sendable, Codable, Hashable, CaseIterable {
    case match, mismatch, notPerformed
}

/// Cross-source comparison of the values an issuer prints in more than one place.
public struct DataMatch: Sendable, Equatable, Hashable, Codable {
    public var documentNumber: DataMatchState
    public var dateOfBirth: DataMatchState
    public var dateOfExpiry: DataMatchState
    /// `mismatch` if any of the three is; else `match` if any is; else `notPerformed`.
    public var wholeDocument: DataMatchState
    /// Names compared through ICAO transliteration, for information (not part of ``wholeDocument``,
    /// since an MRZ may truncate a name that the VIZ prints whole).
    public var lastName: DataMatchState
    public var firstName: DataMatchState
    /// The sex, `M`, `F` or `X`, for information as the names (not part of ``wholeDocument``): a
    /// printed sex is read under its caption only, and an MRZ's `<` (unspecified) compares as `X`.
    /// A scan whose visual zone contradicts a verified MRZ's sex also warns `vizContradictsMRZ`.
    public var sex: DataMatchState

    public init(documentNumber: DataMatchState = .notPerformed, dateOfBirth: DataMatchState = .notPerformed,
                dateOfExpiry: DataMatchState = .notPerformed, lastName: DataMatchState = .notPerformed,
                firstName: DataMatchState = .notPerformed, sex: DataMatchState = .notPerformed) {
        self.documentNumber = documentNumber
        self.dateOfBirth = dateOfBirth
        self.dateOfExpiry = dateOfExpiry
        self.lastName = lastName
        self.firstName = firstName
        self.sex = sex
        let three = [documentNumber, dateOfBirth, dateOfExpiry]
        wholeDocument = three.contains(.mismatch) ? .mismatch : three.contains(.match) ? .match : .notPerformed
    }

    enum CodingKeys: String, CodingKey { case documentNumber, dateOfBirth, dateOfExpiry, wholeDocument, lastName, firstName, sex }

    /// A document result written before `sex` was compared reads with `sex` `notPerformed`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        documentNumber = try c.decode(DataMatchState.self, forKey: .documentNumber)
        dateOfBirth = try c.decode(DataMatchState.self, forKey: .dateOfBirth)
        dateOfExpiry = try c.decode(DataMatchState.self, forKey: .dateOfExpiry)
        wholeDocument = try c.decode(DataMatchState.self, forKey: .wholeDocument)
        lastName = try c.decode(DataMatchState.self, forKey: .lastName)
        firstName = try c.decode(DataMatchState.self, forKey: .firstName)
        sex = try c.decodeIfPresent(DataMatchState.self, forKey: .sex) ?? .notPerformed
    }
}

/// Values that follow from the dates, relative to ``referenceDate``. `nil` when the date they
/// need is absent, partial or redacted.
public struct DerivedValues: Sendable, Equatable, Hashable, Codable {
    public var referenceDate: CalendarDate
    /// Whole years since the date of birth.
    @NullWhenAbsent public var age: Int?
    @NullWhenAbsent public var isUnder18: Bool?
    @NullWhenAbsent public var isUnder21: Bool?
    /// True when the date of expiry is before the reference date.
    @NullWhenAbsent public var isExpired: Bool?
    /// True when the document says it never expires (no expiry field value such as `PERMANENT`,
    /// or AAMVA's `99999999`-style dates).
    @NullWhenAbsent public var isPermanentExpiry: Bool?

    public init(referenceDate: CalendarDate) {
        self.referenceDate = referenceDate
    }
}

/// What a chip read needs, from the MRZ (ICAO 9303-11 BAC).
public struct ChipAccess: Sendable, Equatable, Hashable, Codable {
    /// Document number, date of birth and date of expiry present with valid check digits.
    public var bacReady: Bool
    /// `MRZ_information` and the BAC keys in upper-case hex; `nil` when they cannot be made or when
    /// redaction removed a value they contain or are derived from.
    @NullWhenAbsent public var mrzInformation: String?
    @NullWhenAbsent public var kSeed: String?
    @NullWhenAbsent public var kEnc: String?
    @NullWhenAbsent public var kMac: String?
}

/// The raw data the result was made from. Redaction may withhold either.
public struct DocumentRawData: Sendable, Equatable, Hashable, Codable {
    /// The MRZ lines as read (redacted characters shown as `*`).
    public var mrz: [String]?
    /// The barcode payload bytes (base64 in JSON; redacted bytes as `*`).
    public var barcode: [UInt8]?

    public init(mrz: [String]?, barcode: [UInt8]?) {
        self.mrz = mrz
        self.barcode = barcode
    }

    enum CodingKeys: String, CodingKey { case mrz, barcode }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        mrz = try c.decodeIfPresent([String].self, forKey: .mrz)
        barcode = try c.decodeIfPresent(String.self, forKey: .barcode).map { Base64.decode($0) ?? [] }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(mrz, forKey: .mrz)
        try c.encode(barcode.map(Base64.encode), forKey: .barcode)
    }
}

/// What a chip read added to the result: the outcome of passive authentication (ICAO
/// 9303-11 §5.1), which decides whether the chip's values come first or last, the data groups the
/// phone sent, and the faces of EF.DG2. The chip's values themselves are in ``DocumentResult/fields``
/// (source `chip`); the full verification report is `idkit chip verify --json`'s.
public struct ChipSummary: Sendable, Equatable, Hashable, Codable {
    /// `passed`, `failed` or `incomplete`.
    public var passiveAuthentication: String
    /// Why it did not pass, each check's reason in order (empty when passed).
    public var reasons: [String]
    /// The data groups given (`"DG1"`, `"DG2"`, …).
    public var dataGroups: [String]
    /// The faces of EF.DG2, in order.
    public var faces: [ChipFace]

    public init(passiveAuthentication: String, reasons: [String], dataGroups: [String], faces: [ChipFace]) {
        self.passiveAuthentication = passiveAuthentication
        self.reasons = reasons
        self.dataGroups = dataGroups
        self.faces = faces
    }
}

/// One face of EF.DG2 (ISO/IEC 19794-5): its encoding and size, and the image as stored, base64
/// (`null` when redaction withholds it).
public struct ChipFace: Sendable, Equatable, Hashable, Codable {
    /// `JPEG` or `JPEG2000`.
    public var imageType: String
    public var width: Int
    public var height: Int
    @NullWhenAbsent public var image: String?

    public init(imageType: String, width: Int, height: Int, image: String?) {
        self.imageType = imageType
        self.width = width
        self.height = height
        self.image = image
    }
}

/// Something the caller should know about the inputs (an MRZ that fails its check digits, a
/// barcode that is not AAMVA, a VIZ date that could not be read).
public struct DocumentWarning: Sendable, Equatable, Hashable, Codable {
    public enum Code: String, Sendable, Codable, Hashable, CaseIterable {
        case mrzInvalid, barcodeNotAAMVA, barcodeDamaged, unreadableDate
        /// Passive authentication of the chip did not pass: its values come after every other source.
        case chipNotAuthenticated
        /// A data group the phone sent could not be read.
        case chipDataGroupUnreadable
        /// The VIZ prints a value the verified MRZ contradicts (the sex under its caption): the
        /// document keeps the MRZ's, and the field's readings hold both.
        case vizContradictsMRZ
    }
    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }
}

/// The merged reading of one document: from the MRZ, the barcode and the VIZ of both sides.
public struct DocumentResult: Sendable, Equatable, Hashable, Codable {
    /// Every ``DocumentFieldName``, always (JSON: `null` values for fields no source has).
    public var fields: [DocumentFieldName: DocumentField]
    public var documentClass: DocumentClass?
    public var dataMatch: DataMatch
    public var derived: DerivedValues
    public var chipAccess: ChipAccess?
    /// The chip's contribution, when chip files were given.
    public var chip: ChipSummary?
    public var raw: DocumentRawData
    /// Redacted fields, then `mrz` / `barcode` when the raw data was withheld.
    public var redacted: [String]
    public var warnings: [DocumentWarning]

    public subscript(_ name: DocumentFieldName) -> DocumentField {
        fields[name] ?? DocumentField(value: nil, source: nil, readings: DocumentReadings())
    }

    enum CodingKeys: String, CodingKey {
        case fields, documentClass, dataMatch, derived, chipAccess, chip, raw, redacted, warnings
    }

    public init(fields: [DocumentFieldName: DocumentField], documentClass: DocumentClass?, dataMatch: DataMatch,
                derived: DerivedValues, chipAccess: ChipAccess?, chip: ChipSummary? = nil, raw: DocumentRawData, redacted: [String],
                warnings: [DocumentWarning]) {
        self.fields = fields
        self.documentClass = documentClass
        self.dataMatch = dataMatch
        self.derived = derived
        self.chipAccess = chipAccess
        self.chip = chip
        self.raw = raw
        self.redacted = redacted
        self.warnings = warnings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let f = try c.nestedContainer(keyedBy: JSONKey.self, forKey: .fields)
        var fields: [DocumentFieldName: DocumentField] = [:]
        for name in DocumentFieldName.allCases {
            fields[name] = try f.decodeIfPresent(DocumentField.self, forKey: JSONKey(stringValue: name.rawValue))
        }
        self.fields = fields
        documentClass = try c.decodeIfPresent(DocumentClass.self, forKey: .documentClass)
        dataMatch = try c.decode(DataMatch.self, forKey: .dataMatch)
        derived = try c.decode(DerivedValues.self, forKey: .derived)
        chipAccess = try c.decodeIfPresent(ChipAccess.self, forKey: .chipAccess)
        chip = try c.decodeIfPresent(ChipSummary.self, forKey: .chip)
        raw = try c.decode(DocumentRawData.self, forKey: .raw)
        redacted = try c.decode([String].self, forKey: .redacted)
        warnings = try c.decode([DocumentWarning].self, forKey: .warnings)
    }

    /// Fields in the contract's order, each present; other keys as in ``CodingKeys``.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        var f = c.nestedContainer(keyedBy: JSONKey.self, forKey: .fields)
        for name in DocumentFieldName.allCases {
            try f.encode(self[name], forKey: JSONKey(stringValue: name.rawValue))
        }
        try c.encode(documentClass, forKey: .documentClass)
        try c.encode(dataMatch, forKey: .dataMatch)
        try c.encode(derived, forKey: .derived)
        try c.encode(chipAccess, forKey: .chipAccess)
        try c.encode(chip, forKey: .chip)
        try c.encode(raw, forKey: .raw)
        try c.encode(redacted, forKey: .redacted)
        try c.encode(warnings, forKey: .warnings)
    }
}


extension DocumentResult {
    /// The `idkit merge --json` contract as one line of JSON (keys sorted, slashes unescaped): what
    /// the command line and `POST /v1/merge` print.
    public func jsonString() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

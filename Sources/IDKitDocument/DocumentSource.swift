import IDKitCore
/// Where a value of the merged document came from.
public enum DocumentSource: String, Sendable, Codable, CaseIterable, Hashable, Comparable {
    case mrz
    case barcode
    /// Visual inspection zone of the back side, as the caller read it.
    case vizBack
    /// Visual inspection zone of the front side.
    case vizFront
    /// The chip's data groups (DG1, DG11, DG12; ICAO 9303-10), as the phone that read it sent them.
    case chip

    /// The priority of the reference SDKs (BlinkID "data priority logic"): the document number from
    /// the MRZ when present; every other field from the barcode, else the back-side VIZ, else the
    /// front-side VIZ, else the MRZ. The chip comes first for every field it holds when passive
    /// authentication passed (the issuer signed it, and nothing printed is as strong), and last
    /// otherwise: data that may have been altered never wins over what was read off the document.
    public static func priority(for field: DocumentFieldName, chipAuthenticated: Bool = false) -> [DocumentSource] {
        let printed: [DocumentSource] = field == .documentNumber ? [.mrz, .barcode, .vizBack, .vizFront] : [.barcode, .vizBack, .vizFront, .mrz]
        return chipAuthenticated ? [.chip] + printed : printed + [.chip]
    }

    public static func < (a: DocumentSource, b: DocumentSource) -> Bool { a.index < b.index }

    var index: Int {
        switch self {
        case .mrz: 0
        case .barcode: 1
        case .vizBack: 2
        case .vizFront: 3
        case .chip: 4
        }
    }
}

/// The fields of a merged document result, by their JSON names.
public enum DocumentFieldName: String, Sendable, Codable, CaseIterable, Hashable, Comparable {
    case firstName, lastName, fullName
    case documentNumber, personalIdNumber, additionalDocumentNumber
    /// ISO 8601 dates (`1974-08-12`; `1974-08` or `1974` when the MRZ marks a part unknown).
    case dateOfBirth, dateOfExpiry, dateOfIssue
    /// `M`, `F`, `X`, or `""` when the document leaves it unspecified.
    case sex
    /// ICAO 9303-3 codes as printed (`UTO`, `D` for Germany).
    case nationality
    /// ICAO 9303-3 code of the issuing State (the MRZ's, or the barcode's country `USA`/`CAN`/`MEX`).
    case issuingState
    /// A region within the issuing State: a US state or Canadian province code (`VA`, `ON`).
    case issuingJurisdiction
    case address
    /// As printed in the visual zone or held by the chip (DG11); no MRZ carries it.
    case placeOfBirth
    /// The authority that issued the document, as printed or held by the chip (DG12).
    case issuingAuthority

    public static func < (a: DocumentFieldName, b: DocumentFieldName) -> Bool { a.index < b.index }

    /// The position in ``allCases`` (tables of fields are arrays indexed by it).
    var index: Int {
        switch self {
        case .firstName: 0
        case .lastName: 1
        case .fullName: 2
        case .documentNumber: 3
        case .personalIdNumber: 4
        case .additionalDocumentNumber: 5
        case .dateOfBirth: 6
        case .dateOfExpiry: 7
        case .dateOfIssue: 8
        case .sex: 9
        case .nationality: 10
        case .issuingState: 11
        case .issuingJurisdiction: 12
        case .address: 13
        case .placeOfBirth: 14
        case .issuingAuthority: 15
        }
    }
}

/// Fields that the caller read from one side of the document outside the MRZ (OCR of the VIZ),
/// keyed by ``DocumentFieldName``. Values are kept as given; dates may be in any common form
/// (`1974-08-12`, `12.08.1974`, `12/08/1974`, `08/12/1974` on US documents, `12 AUG 1974`).
public struct VIZReading: Sendable, Equatable, Hashable, Codable {
    public var fields: [DocumentFieldName: String]

    public init(_ fields: [DocumentFieldName: String] = [:]) {
        self.fields = fields
    }

    /// From a plain name → value map (the JSON form). An unknown name is an error, not ignored:
    /// a typo would otherwise drop a field without a word.
    public init(names: [String: String], side: String = "viz") throws(DocumentError) {
        var fields: [DocumentFieldName: String] = [:]
        for (name, value) in names {
            guard let key = DocumentFieldName(rawValue: name) else {
                throw DocumentError(.unknownField, "\(side).\(name): not a field name; expected one of "
                                    + DocumentFieldName.allCases.map(\.rawValue).joined(separator: ", "))
            }
            fields[key] = value
        }
        self.fields = fields
    }

    public subscript(_ name: DocumentFieldName) -> String? {
        get { fields[name] }
        set { fields[name] = newValue }
    }

    public init(from decoder: any Decoder) throws {
        let names = try [String: String](from: decoder)
        self = try VIZReading(names: names, side: decoder.codingPath.map(\.stringValue).joined(separator: "."))
    }

    public func encode(to encoder: any Encoder) throws {
        var byName: [String: String] = [:]
        for (k, v) in fields { byName[k.rawValue] = v }
        try byName.encode(to: encoder)
    }
}

/// Why a merge input could not be used.
public struct DocumentError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A VIZ field name that is not a ``DocumentFieldName``.
        case unknownField
        /// The merge input (JSON) is malformed, too large, or has a value of the wrong type.
        case invalidInput
        /// The MRZ text cannot be read as an MRZ at all (the message carries the MRZ core's reason).
        case invalidMRZ
        /// The barcode value is not base64.
        case invalidBarcode
        /// The chip files are not base64, not LDS files, or hold no EF.SOD.
        case invalidChip
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension DocumentError: ClassifiedError {
    public var kindName: String { kind.rawValue }
    public var errorClass: ErrorClass { .invalidInput }
}

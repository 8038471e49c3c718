/// The data fields of an MRZ, as the JSON contract names them.
///
/// **`nil` means the layout has no such field; `""` means the field is there and empty.** Values have
/// their trailing fillers removed (`P<`→`P`, `D<<`→`D`); names split on the first `<<` with inner fillers
/// as single spaces; optional data keeps leading and inner fillers; dates are the raw six characters
/// (`<` marks an unknown part of a date of birth).
public struct MRZFields: Sendable, Equatable, Hashable, Codable {
    public var documentCode: String
    public var issuingState: String
    /// The full number, including the part a TD1/TD2 long number continues in the optional data.
    public var documentNumber: String
    /// Surname(s).
    public var primaryIdentifier: String
    /// Given name(s).
    public var secondaryIdentifier: String
    /// `nil` on the French 1988 ID, which has no nationality field.
    public var nationality: String?
    public var dateOfBirth: String
    /// `M`, `F`, `X`, or `""` for the filler (unspecified).
    public var sex: String
    /// `nil` on the French 1988 ID, which has no expiry field.
    public var dateOfExpiry: String?
    /// TD1 upper line 16–30, TD2 29–35, TD3 personal number 29–42, visas 29–44/29–36,
    /// French ID upper line 31–36.
    public var optionalData1: String?
    /// TD1 middle line 19–29; `nil` elsewhere.
    public var optionalData2: String?

    public init(documentCode: String, issuingState: String, documentNumber: String,
                primaryIdentifier: String, secondaryIdentifier: String, nationality: String?,
                dateOfBirth: String, sex: String, dateOfExpiry: String?,
                optionalData1: String?, optionalData2: String?) {
        self.documentCode = documentCode
        self.issuingState = issuingState
        self.documentNumber = documentNumber
        self.primaryIdentifier = primaryIdentifier
        self.secondaryIdentifier = secondaryIdentifier
        self.nationality = nationality
        self.dateOfBirth = dateOfBirth
        self.sex = sex
        self.dateOfExpiry = dateOfExpiry
        self.optionalData1 = optionalData1
        self.optionalData2 = optionalData2
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case documentCode, issuingState, documentNumber, primaryIdentifier, secondaryIdentifier,
             nationality, dateOfBirth, sex, dateOfExpiry, optionalData1, optionalData2
    }

    /// Encodes absent fields as `null`, never by omission, so that a backend sees every key.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        for (key, value) in keyedValues { try c.encode(value, forKey: key) }
    }

    /// The fields in contract order.
    var keyedValues: [(CodingKeys, String?)] {
        [(.documentCode, documentCode), (.issuingState, issuingState), (.documentNumber, documentNumber),
         (.primaryIdentifier, primaryIdentifier), (.secondaryIdentifier, secondaryIdentifier),
         (.nationality, nationality), (.dateOfBirth, dateOfBirth), (.sex, sex),
         (.dateOfExpiry, dateOfExpiry), (.optionalData1, optionalData1), (.optionalData2, optionalData2)]
    }
}

/// The verdict on one check digit.
public enum CheckDigitStatus: String, Sendable, Codable, Hashable {
    case valid
    case invalid
    /// The layout has no such check digit. Encoded as JSON `null`.
    case absent
}

/// The verdict on every check digit of the layout (ICAO 9303-3 §4.9; which exist: Parts 4–7).
public struct MRZCheckDigits: Sendable, Equatable, Hashable, Codable {
    public var documentNumber: CheckDigitStatus
    public var dateOfBirth: CheckDigitStatus
    public var dateOfExpiry: CheckDigitStatus
    /// TD3 only: the personal-number check digit.
    public var optionalData: CheckDigitStatus
    /// TD1, TD2, TD3 and the French ID; visas have none.
    public var composite: CheckDigitStatus

    public init(documentNumber: CheckDigitStatus = .absent, dateOfBirth: CheckDigitStatus = .absent,
                dateOfExpiry: CheckDigitStatus = .absent, optionalData: CheckDigitStatus = .absent,
                composite: CheckDigitStatus = .absent) {
        self.documentNumber = documentNumber
        self.dateOfBirth = dateOfBirth
        self.dateOfExpiry = dateOfExpiry
        self.optionalData = optionalData
        self.composite = composite
    }

    enum CodingKeys: String, CodingKey { case documentNumber, dateOfBirth, dateOfExpiry, optionalData, composite }

    /// The statuses of the check digits the layout has (every one but the `absent`).
    public var present: [CheckDigitStatus] {
        [documentNumber, dateOfBirth, dateOfExpiry, optionalData, composite].filter { $0 != .absent }
    }

    var keyedValues: [(String, CheckDigitStatus)] {
        [("documentNumber", documentNumber), ("dateOfBirth", dateOfBirth), ("dateOfExpiry", dateOfExpiry),
         ("optionalData", optionalData), ("composite", composite)]
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func get(_ k: CodingKeys) throws -> CheckDigitStatus { try c.decodeIfPresent(CheckDigitStatus.self, forKey: k) ?? .absent }
        self.init(documentNumber: try get(.documentNumber), dateOfBirth: try get(.dateOfBirth),
                  dateOfExpiry: try get(.dateOfExpiry), optionalData: try get(.optionalData),
                  composite: try get(.composite))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        for (name, status) in keyedValues {
            let key = CodingKeys(rawValue: name)!
            if status == .absent { try c.encodeNil(forKey: key) } else { try c.encode(status, forKey: key) }
        }
    }

    /// All statuses, in contract order.
    public var all: [CheckDigitStatus] { keyedValues.map(\.1) }
}

/// The fields of an MRZ by where they stand, for callers that must point at or black out a
/// field in the lines (redaction, annotation) rather than read its value.
public enum MRZFieldName: String, Sendable, Codable, CaseIterable, Hashable {
    case documentCode, issuingState, documentNumber
    /// The whole name field: primary and secondary identifiers share it (ICAO 9303-3 §4.6).
    case name
    case nationality, dateOfBirth, sex, dateOfExpiry, optionalData1, optionalData2
    /// The composite check digit.
    case composite
}

/// A run of characters on one MRZ line: `line` and `column` are 0-based, as array indices.
public struct MRZCharacterRange: Sendable, Equatable, Hashable, Codable {
    public var line: Int
    public var column: Int
    public var count: Int
    public init(line: Int, column: Int, count: Int) {
        self.line = line
        self.column = column
        self.count = count
    }
}

extension MRZFormat {
    /// Where `field` and its check digit stand in this layout (Parts 4–7 data-structure tables);
    /// empty when the layout has no such field. A TD1/TD2 document number includes the optional
    /// data that may continue it (9303-5 §4.2.4), since that is where a long number's tail stands.
    public func characterRanges(of field: MRZFieldName) -> [MRZCharacterRange] {
        let layout = MRZLayout.of(self)
        func r(_ s: Span?) -> [MRZCharacterRange] { s.map { [MRZCharacterRange(line: $0.line, column: $0.start, count: $0.count)] } ?? [] }
        func r(_ p: Position?) -> [MRZCharacterRange] { p.map { [MRZCharacterRange(line: $0.line, column: $0.column, count: 1)] } ?? [] }
        switch field {
        case .documentCode: return r(layout.documentCode)
        case .issuingState: return r(layout.issuingState)
        case .documentNumber:
            return r(layout.documentNumber) + r(layout.documentNumberCheck) + r(layout.longNumberContinuation)
        case .name: return r(layout.name) + r(layout.primaryName) + r(layout.secondaryName)
        case .nationality: return r(layout.nationality)
        case .dateOfBirth: return r(layout.dateOfBirth) + r(layout.dateOfBirthCheck)
        case .sex: return r(layout.sex)
        case .dateOfExpiry: return r(layout.dateOfExpiry) + r(layout.dateOfExpiryCheck)
        case .optionalData1: return r(layout.optionalData1) + r(layout.optionalDataCheck)
        case .optionalData2: return r(layout.optionalData2)
        case .composite: return r(layout.composite)
        }
    }

    /// The length of the name field (39, 31 or 30), or `nil` for the French 1988 ID's split names.
    public var nameFieldLength: Int? { MRZLayout.of(self).name?.count }
}

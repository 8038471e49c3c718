/// A problem found in a well-formed MRZ: a failed check digit, a semantic warning, or a known issuer
/// deviation. Positions are 1-based, as in ICAO Doc 9303.
public struct MRZIssue: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public enum Code: String, Sendable, Codable, Hashable, CaseIterable {
        // Errors: the strict verdict fails.
        /// A check digit does not match its field (ICAO 9303-3 §4.9).
        case invalidCheckDigit
        /// A TD1/TD2 long document number is announced by `<` in the check-digit position but the
        /// optional data holds no continuation ending in a check digit (ICAO 9303-5 §4.2.4).
        case missingLongDocumentNumber
        /// Errors that check digits cannot catch (``ResultBuilder/checkSemantics(sexByte:)``):
        /// a sex other than `M F X <`; a letter in a date; month 13, day 32 or 30 February (or unknown
        /// parts that are not whole trailing fields); expiry before birth.
        case invalidSex
        case invalidDateCharacter
        case impossibleDate
        case expiryBeforeBirth
        /// A digit in a code: an error in the issuing state or nationality, a warning in the document code.
        case digitInCode
        // Warnings: what a genuine document may hold.
        case unexpectedDocumentCode
        case unknownCountryCode
        case digitInName
        case emptyPrimaryIdentifier
        // Deviations: known issuer practice that strict ICAO rejects.
        /// Belgian and Portuguese cards compute the long-number check digit over the number with the
        /// filler of position 15 included.
        case longNumberCheckDigitIncludesFiller
        /// The date of expiry and its check digit are all fillers: Russian internal passports carry
        /// no expiry in the MRZ.
        case expiryDateOmitted
    }

    public var code: Code
    /// The field concerned, with the names of the JSON contract (`documentNumber`, `composite`, …).
    public var field: String?
    public var line: Int
    public var column: Int
    public var expected: String?
    public var found: String?
    public var message: String

    public init(code: Code, field: String?, line: Int, column: Int, expected: String?, found: String?, message: String) {
        self.code = code
        self.field = field
        self.line = line
        self.column = column
        self.expected = expected
        self.found = found
        self.message = message
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}

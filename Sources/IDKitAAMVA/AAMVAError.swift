public import IDKitCore
/// Why a payload could not be read as AAMVA data at all. Damage that still lets the fields be
/// extracted is not an error but an `AAMVAWarning`.
public struct AAMVAError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Zero bytes.
        case empty
        /// Longer than `AAMVAParser.maximumPayloadSize`.
        case tooLarge
        /// Neither the AAMVA header (`@`, `ANSI `/`AAMVA`, IIN, version) nor magnetic-stripe tracks.
        case notAAMVA
        /// The header was found but is cut short or has non-digits where digits belong.
        case invalidHeader
        /// A header was read but no subfile with any data element was found.
        case noElements
    }

    public let kind: Kind
    /// Byte offset into the payload where the problem was found.
    public let offset: Int
    public let message: String

    public init(_ kind: Kind, offset: Int, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    public var description: String { "byte \(offset): \(message)" }
}

/// Damage or oddities found while reading a payload; the fields are still extracted.
public struct AAMVAWarning: Sendable, Equatable, Codable, Hashable {
    public enum Code: String, Sendable, Codable, CaseIterable {
        /// Bytes before the `@` compliance indicator (a UTF-8 BOM, whitespace, scanner prefixes).
        case leadingJunk
        /// The three header separators are not LF, RS, CR (junk such as `@a`, piped payloads).
        case nonStandardSeparators
        /// The record separator (RS, 0x1E) is missing from the header.
        case missingRecordSeparator
        /// A file separator (FS, 0x1C) stands where the record separator belongs (South Carolina).
        case fileSeparatorInHeader
        /// CR bytes were turned into LF (git line-ending normalization, some scanner drivers).
        case carriageReturnsLost
        /// Elements end in CR LF: a keyboard-emulating scanner rewrote the line ends.
        case crlfLineEnds
        /// No separators between elements (keyboard wedge); elements were split on known identifiers.
        case separatorsMissing
        /// The file type is neither `ANSI ` nor `AAMVA`.
        case nonStandardFileType
        /// Version 01 payload that carries a jurisdiction version, or a later one that lacks it.
        case jurisdictionVersionMismatch
        /// A version number the standard does not define (above 11).
        case unknownVersion
        /// A subfile designator's offset does not point at its subfile (found elsewhere).
        case subfileOffsetWrong
        /// A subfile designator's length does not match the subfile.
        case subfileLengthWrong
        /// A subfile designator is unreadable (non-digits in its offset or length).
        case invalidDesignator
        /// The header's number of entries does not match the designators found.
        case entryCountMismatch
        /// A designated subfile was not found in the payload.
        case subfileMissing
        /// Bytes 0x80–0x9F (C1 controls, also as UTF-8 `C2 80`–`C2 9F`) were dropped.
        case strayControlBytes
        /// Data that is not an element (`XXX` identifier then value) was skipped.
        case unexpectedData
        /// An element of the declared version is repeated; the first is used.
        case duplicateElement
        /// A mandatory element for the declared version and subfile type is missing.
        case mandatoryElementMissing
        /// A value could not be interpreted (a date that is not a date, a height without digits, ...).
        case invalidValue
        /// A date was in the other of the two AAMVA date orders (`MMDDCCYY` vs `CCYYMMDD`).
        case unexpectedDateOrder
        /// The IIN is not assigned to any jurisdiction.
        case unknownIIN
        /// The payload is magnetic-stripe track data (as British Columbia prints in its PDF417).
        case magneticStripe
    }

    public let code: Code
    public let message: String
    /// Byte offset into the payload, when the warning is about one place.
    public let offset: Int?

    public init(_ code: Code, _ message: String, offset: Int?) {
        self.code = code
        self.message = message
        self.offset = offset
    }
}

extension AAMVAError: ClassifiedError {
    public var kindName: String { kind.rawValue }
    public var errorClass: ErrorClass { kind == .tooLarge ? .tooLarge : .invalidInput }
}

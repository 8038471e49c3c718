import IDKitCore
/// Why a text could not be read as an MRZ at all.
///
/// Check-digit failures and other problems of a well-formed MRZ are not errors: they are reported in
/// ``MRZResult/errors`` and ``MRZResult/warnings``. `MRZError` is for text that has no MRZ shape:
/// empty input, wrong line counts or lengths, characters outside `A–Z 0–9 <`.
/// Every error names the line and column (1-based), what was expected and what was found.
public struct MRZError: Error, Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable, Hashable, CaseIterable {
        case emptyInput
        case lineCount
        case lineLength
        case illegalCharacter
        case lowercaseCharacter
        case inputTooLong
        /// ``MRZGenerator``: a field value that does not fit its layout or the MRZ alphabet.
        case invalidField
        /// Stream readers: a record that is not MRZ text at all (a JSON line without `mrz` or
        /// `lines`, a line over the length limit).
        case invalidRecord
    }

    public var kind: Kind
    /// 1-based MRZ line, or `nil` when the error concerns the whole input.
    public var line: Int?
    /// 1-based column (byte position within the line), or `nil`.
    public var column: Int?
    public var expected: String
    public var found: String

    public init(kind: Kind, line: Int?, column: Int?, expected: String, found: String) {
        self.kind = kind
        self.line = line
        self.column = column
        self.expected = expected
        self.found = found
    }

    /// A sentence a person can act on, e.g. `line 2, column 15: expected A–Z, 0–9 or '<', found lower-case 'a'`.
    public var message: String {
        var place = ""
        if let line { place = "line \(line)" }
        if let column { place += place.isEmpty ? "column \(column)" : ", column \(column)" }
        return (place.isEmpty ? "" : place + ": ") + "expected \(expected), found \(found)"
    }

    public var description: String { message }
}

extension MRZError {
    /// Describes one byte for an error message: printable ASCII in quotes, anything else in hex.
    static func describe(byte: UInt8) -> String {
        switch byte {
        case 0x61...0x7A: return "lower-case '\(Character(Unicode.Scalar(byte)))'"
        case 0x20: return "a space"
        case 0x09: return "a tab"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            return "byte 0x\(hex.count == 1 ? "0" + hex : hex)" + (byte >= 0x80 ? " (not ASCII)" : "")
        }
    }
}

extension MRZError: ClassifiedError {
    public var kindName: String { kind.rawValue }
    public var errorClass: ErrorClass { .invalidInput }
}

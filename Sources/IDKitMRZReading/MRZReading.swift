import Foundation
import IDKitMRZ

/// What the image says the MRZ is: the lines, a confidence per character, and whether the
/// reading is verified.
///
/// Verified means: the reading passes every check digit and every rule of its layout, and no other
/// reading that the recognizer finds plausible — one character or any combination of them, within
/// a field and across the fields the composite check digit covers — would pass them too; and every
/// character that no check digit covers was read without a plausible grammatical alternative.
public struct MRZReading: Sendable, Equatable, Codable {
    public var format: MRZFormat
    public var lines: [String]
    /// Per line, per character: the probability of the character chosen (0…1).
    public var confidence: [[Double]]
    public var verified: Bool
    /// Characters that the check digits changed from the recognizer's first choice.
    public var checkDigitCorrections: Int
    /// The fields (JSON contract names: `documentCode`, `issuingState`, `name`, `documentNumber`,
    /// `nationality`, `dateOfBirth`, `sex`, `dateOfExpiry`, `optionalData1`, `optionalData2`,
    /// `composite`) that hold a character the reading is not sure of: another reading of it is
    /// plausible and would pass every check digit, or no check digit covers it. Empty when verified.
    /// For a reading that breaks a rule, empty means the reading is sure of every character: the
    /// document as printed breaks it (``isSure``).
    public var unsureFields: [String]
    /// The one predicate for "sure" (the scan's `mrzInvalid` against `mrzUncertain`, `verified`):
    /// no field holds a character another plausible reading would change.
    public var isSure: Bool { unsureFields.isEmpty }
    /// Which recognizer read the characters.
    public var recognizer: MRZRecognizer
}

import IDKitCore
/// Why chip-access keys could not be made, or why a card's answer was refused.
public struct ChipError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A request object (`POST /v1/bac`, `idkit_bac_keys`) that is not JSON, or whose members
        /// have the wrong type or do not go together.
        case invalidRequest
        /// A document number, date or CAN that cannot go into `MRZ_information` or a PACE password.
        case invalidInput
        /// A hexadecimal argument that is not hex, or has the wrong length.
        case invalidHex
        /// The card's EXTERNAL AUTHENTICATE answer has the wrong length.
        case invalidResponseLength
        /// The card's MAC over its answer does not verify: wrong keys or a damaged answer.
        case macMismatch
        /// The decrypted answer does not echo the terminal's challenge RND.IFD (or the card's RND.IC).
        case challengeMismatch
        /// libcrypto refused an operation (the message carries OpenSSL's reason).
        case cryptoFailure
        /// A chip file that is no LDS file, or no EF.SOD among them.
        case invalidFile
        /// A second file of one kind (two EF.SODs, two files of one data group).
        case duplicateFile
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension ChipError: ClassifiedError {
    public var kindName: String { kind.rawValue }
    public var errorClass: ErrorClass { .invalidInput }
}

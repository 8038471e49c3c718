/// The PACE password and its key K_π (ICAO 9303-11 §4.4.3.1 / §9.7.3; worked example Appendix G).
public enum PACEPassword: Sendable, Equatable, Hashable {
    /// The MRZ password: K = SHA-1(`MRZ_information`), all 20 bytes.
    case mrz(MRZInformation)
    /// The card access number printed on the document: K = its characters (ISO 8859-1), not hashed.
    case can(String)

    /// A CAN is digits; 9303-11 uses six, some issuers more. Checked so that a typo is an error.
    public static func can(validating text: String) throws(ChipError) -> PACEPassword {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 16 else {
            throw ChipError(.invalidInput, "CAN: expected 1 to 16 digits, found \(bytes.count) characters")
        }
        if let bad = bytes.firstIndex(where: { !($0 >= 0x30 && $0 <= 0x39) }) {
            throw ChipError(.invalidInput, "CAN, character \(bad + 1): not a digit")
        }
        return .can(text)
    }

    /// The encoded password `f(π)` of 9303-11 Table "PACE passwords".
    public var secret: [UInt8] {
        switch self {
        case .mrz(let information): return LibCrypto.digest(.sha1, Array(information.text.utf8))
        case .can(let can): return Array(can.utf8)
        }
    }

    /// K_π = KDF(f(π), 3) for the cipher of the chip's PACE protocol.
    public func key(for cipher: ChipCipher) -> [UInt8] {
        ChipKeyDerivation.derive(secret, counter: ChipKeyDerivation.passwordCounter, for: cipher)
    }
}

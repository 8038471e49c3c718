/// The cipher a derived key is for (ICAO 9303-11 §9.7.1, Table "key derivation").
public enum ChipCipher: String, Sendable, Codable, CaseIterable {
    /// Two-key triple DES (BAC, PACE with 3DES): SHA-1, 16 bytes, DES parity adjusted.
    case tdes = "3DES"
    /// AES-128: SHA-1, first 16 bytes.
    case aes128 = "AES-128"
    /// AES-192: SHA-256, first 24 bytes.
    case aes192 = "AES-192"
    /// AES-256: SHA-256, all 32 bytes.
    case aes256 = "AES-256"

    public var keyLength: Int {
        switch self {
        case .tdes, .aes128: return 16
        case .aes192: return 24
        case .aes256: return 32
        }
    }
}

/// ICAO 9303-11 §9.7.1: `KDF(K, c) = H(K ‖ c)` with the counter `c` as a 32-bit big-endian
/// integer — 1 for the encryption key, 2 for the MAC key, 3 for PACE's password key K_π — and
/// the hash and length chosen by the cipher.
public enum ChipKeyDerivation {
    public static let encryptionCounter: UInt32 = 1
    public static let macCounter: UInt32 = 2
    public static let passwordCounter: UInt32 = 3

    public static func derive(_ secret: [UInt8], counter: UInt32, for cipher: ChipCipher) -> [UInt8] {
        let data = secret + [UInt8(counter >> 24), UInt8(truncatingIfNeeded: counter >> 16),
                             UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter)]
        switch cipher {
        case .tdes:
            return withDESParity(Array(LibCrypto.digest(.sha1, data).prefix(16)))
        case .aes128:
            return Array(LibCrypto.digest(.sha1, data).prefix(16))
        case .aes192:
            return Array(LibCrypto.digest(.sha256, data).prefix(24))
        case .aes256:
            return LibCrypto.digest(.sha256, data)
        }
    }

    /// Sets the low bit of each byte so that the byte has an odd number of one bits, as DES keys
    /// require (FIPS 46-3 §"key"; 9303-11 §9.7.1.1 adjusts the parity of 3DES keys). A bit rule, not
    /// a cipher: OpenSSL's own `DES_set_odd_parity` is deprecated in OpenSSL 3.
    static func withDESParity(_ key: [UInt8]) -> [UInt8] {
        key.map { byte in
            let high = byte & 0xFE
            return high.nonzeroBitCount % 2 == 0 ? high | 1 : high
        }
    }
}

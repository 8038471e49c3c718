/// EF.DG15 (ICAO 9303-10 §4.7.15): the chip's active-authentication public key.
public struct DataGroup15: Sendable {
    /// The SubjectPublicKeyInfo (DER).
    public let publicKey: [UInt8]
    /// `"RSA"` or `"EC"`, the key's size in bits, and a named curve's name (`nil` for RSA or
    /// explicit curve parameters).
    public let algorithm: String
    public let bits: Int
    public let curve: String?

    public init(_ bytes: [UInt8]) throws(LDSError) {
        let file = try BERTLV.file(bytes, tag: 0x6F, name: "EF.DG15")
        let info = try BERTLV.read(bytes, at: file.value.lowerBound, within: file.value)
        guard info.tag == 0x30, info.end == file.value.upperBound else {
            throw LDSError(.unexpectedTag, offset: info.offset, tag: info.tag, "EF.DG15 holds one SubjectPublicKeyInfo SEQUENCE (30)")
        }
        publicKey = Array(bytes[info.range])
        guard let described = LibCrypto.describe(publicKey: publicKey) else {
            throw LDSError(.invalidContent, offset: info.offset, tag: 0x30, "OpenSSL cannot read the public key of EF.DG15: \(LibCrypto.errorReason())")
        }
        (algorithm, bits, curve) = (described.algorithm, described.bits, described.curve)
    }
}

/// Active authentication (ICAO 9303-11 §6.1): the chip proves it holds the private key of DG15
/// (itself covered by the SOD) by signing the terminal's challenge, so that a copied chip is told
/// from the genuine one. RSA with ISO/IEC 9796-2 digital signature scheme 1 (message recovery;
/// the trailer says the hash: `BC` SHA-1, `33CC`–`38CC` others), or ECDSA in the plain format of
/// BSI TR-03111 with the hash DG14's ActiveAuthenticationInfo names (SHA-256 when it names none).
public enum ActiveAuthentication {
    /// ISO/IEC 10118-3 hash identifiers of the 9796-2 trailer `xxCC`, with OpenSSL's names.
    static let trailerHashes: [UInt8: (name: String, fetch: String, length: Int)] = [
        0x33: ("SHA-1", "SHA1", 20), 0x34: ("SHA-256", "SHA2-256", 32), 0x35: ("SHA-512", "SHA2-512", 64),
        0x36: ("SHA-384", "SHA2-384", 48), 0x38: ("SHA-224", "SHA2-224", 28),
    ]

    /// `valid`, or `invalid` with the reason. `challenge`: the 8 bytes the terminal sent
    /// (INTERNAL AUTHENTICATE); `signature`: the chip's answer without its status word;
    /// `ecdsaDigest`: the OpenSSL digest name for an EC key ("SHA2-256" by default).
    public static func verify(dg15: DataGroup15, challenge: [UInt8], signature: [UInt8], ecdsaDigest: String = "SHA2-256") -> PassiveAuthentication.Check {
        switch dg15.algorithm {
        case "RSA":
            guard signature.count == (dg15.bits + 7) / 8 else {
                return .invalid("the signature has \(signature.count) bytes; an RSA-\(dg15.bits) signature has \((dg15.bits + 7) / 8)")
            }
            guard let m = LibCrypto.rsaRecover(publicKey: dg15.publicKey, signature), m.count >= 24 else {
                return .invalid("the signature is no RSA signature under the DG15 key (wrong length or out of range)")
            }
            // 9796-2 scheme 1: header 6A (partial recovery) ‖ M1 ‖ H ‖ trailer.
            guard m.first == 0x6A else { return .invalid("the recovered message does not start with 6A (ISO/IEC 9796-2 scheme 1, partial recovery)") }
            let hash: (name: String, fetch: String, length: Int), trailerLength: Int
            if m.last == 0xBC {
                (hash, trailerLength) = (("SHA-1", "SHA1", 20), 1)
            } else if m.last == 0xCC, let h = trailerHashes[m[m.count - 2]] {
                (hash, trailerLength) = (h, 2)
            } else {
                return .invalid("the recovered message ends in neither BC nor a known xxCC trailer")
            }
            guard m.count >= 1 + hash.length + trailerLength else { return .invalid("the recovered message is too short for \(hash.name)") }
            let digestStart = m.count - trailerLength - hash.length
            let m1 = Array(m[1..<digestStart])
            let digest = Array(m[digestStart..<(m.count - trailerLength)])
            guard let expected = LibCrypto.digest(named: hash.fetch, (m1 + challenge)[...]) else { return .invalid("libcrypto has no \(hash.name)") }
            return RetailMAC.equal(expected, digest) ? .valid : .invalid("the \(hash.name) hash in the signature is not that of M1 and the challenge")
        case "EC":
            return LibCrypto.verifyPlainECDSA(publicKey: dg15.publicKey, digest: ecdsaDigest, message: challenge, signature: signature)
                ? .valid : .invalid("the ECDSA signature over the challenge does not verify with the DG15 key")
        default:
            return .notPerformed("the DG15 key is neither RSA nor EC")
        }
    }
}

public import IDKitCore

/// The document basic access keys of ICAO 9303-11 §9.7.2 / Appendix D.2.
///
/// `K_seed` is the first 16 bytes of SHA-1(`MRZ_information`); `K_enc` = KDF(K_seed, 1) and
/// `K_mac` = KDF(K_seed, 2), two-key 3DES keys with DES parity.
public struct BACKeys: Sendable, Equatable, Hashable {
    public let mrzInformation: MRZInformation
    public let kSeed: [UInt8]
    public let kEnc: [UInt8]
    public let kMac: [UInt8]

    public init(_ mrzInformation: MRZInformation) {
        self.mrzInformation = mrzInformation
        kSeed = Array(LibCrypto.digest(.sha1, Array(mrzInformation.text.utf8)).prefix(16))
        kEnc = ChipKeyDerivation.derive(kSeed, counter: ChipKeyDerivation.encryptionCounter, for: .tdes)
        kMac = ChipKeyDerivation.derive(kSeed, counter: ChipKeyDerivation.macCounter, for: .tdes)
    }
}

extension Hex {
    /// Decodes hex (either case; spaces allowed between bytes) as ``Hex/decode(_:)`` does; `name`
    /// and `count` make the error say which argument is wrong and what length was expected.
    public static func decode(_ text: String, name: String, count: Int? = nil) throws(ChipError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try decode(text)
        } catch {
            switch error {
            case .oddDigitCount(let n): throw ChipError(.invalidHex, "\(name): odd number of hex digits (\(n))")
            case .notADigit(let at, let c): throw ChipError(.invalidHex, "\(name), hex digit \(at): '\(c)' is not 0–9 or A–F")
            }
        }
        if let count, bytes.count != count {
            throw ChipError(.invalidHex, "\(name): expected \(count) bytes (\(count * 2) hex digits), found \(bytes.count)")
        }
        return bytes
    }
}

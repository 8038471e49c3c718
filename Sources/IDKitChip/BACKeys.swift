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

/// Upper-case hexadecimal, as the JSON contracts and ICAO's worked examples write bytes.
public enum Hex {
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex (either case; spaces allowed between bytes). `name` and `count` make the error
    /// say which argument is wrong and what length was expected.
    public static func decode(_ text: String, name: String, count: Int? = nil) throws(ChipError) -> [UInt8] {
        let chars = Array(text.utf8).filter { $0 != UInt8(ascii: " ") }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x41...0x46: return c - 0x37
            case 0x61...0x66: return c - 0x57
            default: return nil
            }
        }
        guard chars.count % 2 == 0 else {
            throw ChipError(.invalidHex, "\(name): odd number of hex digits (\(chars.count))")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else {
                let at = nibble(chars[i]) == nil ? i : i + 1
                throw ChipError(.invalidHex, "\(name), hex digit \(at + 1): '\(Character(UnicodeScalar(chars[at])))' is not 0–9 or A–F")
            }
            bytes.append(hi << 4 | lo)
            i += 2
        }
        if let count, bytes.count != count {
            throw ChipError(.invalidHex, "\(name): expected \(count) bytes (\(count * 2) hex digits), found \(bytes.count)")
        }
        return bytes
    }
}

/// Hexadecimal, once for every module: upper case out, as the JSON contracts and ICAO's worked
/// examples write bytes; either case in.
public enum Hex {
    /// Upper-case hex digits, two per byte.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex digits of either case; spaces between them are skipped.
    public static func decode(_ text: String) throws(HexError) -> [UInt8] {
        let chars = Array(text.utf8).filter { $0 != UInt8(ascii: " ") }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x41...0x46: return c - 0x37
            case 0x61...0x66: return c - 0x57
            default: return nil
            }
        }
        guard chars.count % 2 == 0 else { throw .oddDigitCount(chars.count) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else {
                let at = nibble(chars[i]) == nil ? i : i + 1
                throw .notADigit(position: at + 1, character: Character(UnicodeScalar(chars[at])))
            }
            bytes.append(hi << 4 | lo)
            i += 2
        }
        return bytes
    }
}

/// Text that is not hex: what is wrong and where (positions count hex digits from 1, spaces not counted).
public enum HexError: Error, Sendable, Equatable {
    case oddDigitCount(Int)
    case notADigit(position: Int, character: Character)
}

/// Issuing-State and nationality codes: ISO 3166-1 alpha-3 plus the codes ICAO Doc 9303-3 §5 adds
/// (`D` for Germany, `GBD`…`GBS`, `UNO`, `UNA`, `UNK`, `EUE`, `XXA`…`XXX`, the `X…` organizations).
/// The list is generated into `CountryCodes+Table.swift` by `scripts/gen_country_codes.py`.
public enum CountryCodes {
    /// Whether `code` (fillers already removed, e.g. `D` or `UTO`) is a known code.
    public static func isKnown(_ code: String) -> Bool {
        var packed: UInt32 = 0
        var count = 0
        for byte in code.utf8 {
            guard count < 3, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") else { return false }
            packed = packed &* 27 &+ UInt32(byte - UInt8(ascii: "A") + 1)
            count += 1
        }
        return count > 0 && isKnown(packed: packed)
    }

    /// Codes packed base 27 (A=1…Z=26), so a three-letter code is below 27³.
    static func isKnown(packed: UInt32) -> Bool {
        packed < 19_683 && bitmap.bits[Int(packed >> 6)] & (1 << UInt64(packed & 63)) != 0
    }

    /// One bit per packed code, in raw storage (read on every parse, never reference-counted).
    /// `@unchecked Sendable`: written once when first used, then only read.
    final class Bitmap: @unchecked Sendable {
        let bits: UnsafeMutablePointer<UInt64>
        init() {
            let words = 19_683 / 64 + 1
            bits = .allocate(capacity: words)
            bits.initialize(repeating: 0, count: words)
            for code in CountryCodes.known {
                var packed: UInt32 = 0
                for byte in code.utf8 { packed = packed * 27 + UInt32(byte - UInt8(ascii: "A") + 1) }
                bits[Int(packed >> 6)] |= 1 << UInt64(packed & 63)
            }
        }
    }

    static let bitmap = Bitmap()
}

/// ICAO 9303-3 §4.9: check digits with the repeating weights 7, 3, 1.
///
/// Digits count as themselves, `A`…`Z` as 10…35 and the filler `<` as 0. The weighted sum modulo 10 is
/// the check digit. Because the filler weighs 0 and `A`, `K`, `U` weigh multiples of 10, swapping any
/// of `<`, `0`, `A`, `K`, `U` leaves every check digit unchanged.
public enum MRZCheckDigit {
    /// True for `A–Z`, `0–9` and `<`.
    @inlinable @inline(__always)
    public static func isMRZCharacter(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10 || byte &- 0x41 < 26 || byte == 0x3C
    }

    /// The value of an MRZ character (ICAO 9303-3 §4.9); callers have checked the alphabet.
    @inlinable @inline(__always)
    public static func value(_ byte: UInt8) -> Int {
        if byte < 0x3A { return Int(byte &- 0x30) }
        if byte == 0x3C { return 0 }
        return Int(byte &- 0x37)
    }

    /// The check digit (0–9) of `bytes`, or `nil` if a byte is outside the MRZ alphabet.
    public static func compute<C: Collection>(_ bytes: C) -> UInt8? where C.Element == UInt8 {
        var sum = 0
        var weightIndex = 0
        for byte in bytes {
            guard isMRZCharacter(byte) else { return nil }
            sum += value(byte) * weights[weightIndex]
            weightIndex = weightIndex == 2 ? 0 : weightIndex + 1
        }
        return UInt8(sum % 10)
    }

    /// The check digit of an MRZ string, e.g. `compute("520727") == 3`.
    public static func compute(_ string: String) -> Int? {
        compute(Array(string.utf8)).map(Int.init)
    }

    static let weights = [7, 3, 1]

    /// Weighted sum of a span, continuing the 7-3-1 cycle from `phase` (0, 1 or 2).
    /// Bytes outside the alphabet have been rejected before this is called.
    @inline(__always)
    static func weightedSum(_ base: UnsafePointer<UInt8>, _ count: Int, phase: inout Int) -> Int {
        var sum = 0
        var i = 0
        var p = phase
        while i < count {
            let w = p == 0 ? 7 : (p == 1 ? 3 : 1)
            sum &+= value(base[i]) &* w
            p = p == 2 ? 0 : p &+ 1
            i &+= 1
        }
        phase = p
        return sum
    }
}

/// ICAO 9303-3 §4.9: check digits with the repeating weights 7, 3, 1.
///
/// Digits count as themselves, `A`…`Z` as 10…35 and the filler `<` as 0. The weighted sum modulo 10 is
/// the check digit. Because the filler weighs 0 and `A`, `K`, `U` weigh multiples of 10, swapping any
/// of `<`, `0`, `A`, `K`, `U` leaves every check digit unchanged.
public enum MRZCheckDigit {
    /// Value of each byte, or 255 for bytes outside the MRZ alphabet.
    @usableFromInline
    static let values: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for b in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(b)] = b - UInt8(ascii: "0") }
        for b in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(b)] = b - UInt8(ascii: "A") + 10 }
        table[Int(UInt8(ascii: "<"))] = 0
        return table
    }()

    /// True for `A–Z`, `0–9` and `<`.
    @inlinable
    public static func isMRZCharacter(_ byte: UInt8) -> Bool { values[Int(byte)] != 255 }

    /// The check digit (0–9) of `bytes`, or `nil` if a byte is outside the MRZ alphabet.
    public static func compute<C: Collection>(_ bytes: C) -> UInt8? where C.Element == UInt8 {
        var sum = 0
        var weightIndex = 0
        for byte in bytes {
            let value = values[Int(byte)]
            if value == 255 { return nil }
            sum += Int(value) * weights[weightIndex]
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
        var p = phase
        values.withUnsafeBufferPointer { table in
            for i in 0..<count {
                let v = Int(table[Int(base[i])])
                sum &+= v &* (p == 0 ? 7 : (p == 1 ? 3 : 1))
                p = p == 2 ? 0 : p + 1
            }
        }
        phase = p
        return sum
    }
}

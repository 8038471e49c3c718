/// ICAO 9303-3 §4.9: check digits with the repeating weights 7, 3, 1.
///
/// Digits count as themselves, `A`…`Z` as 10…35 and the filler `<` as 0. The weighted sum modulo 10 is
/// the check digit. Because the filler weighs 0 and `A`, `K`, `U` weigh multiples of 10, swapping any
/// of `<`, `0`, `A`, `K`, `U` leaves every check digit unchanged.
public enum MRZCheckDigit {
    /// True for `A–Z`, `0–9` and `<`.
    @inlinable @inline(__always)
    public static func isMRZCharacter(_ byte: UInt8) -> Bool {
        // One bit per byte value: 0x30–0x39 and 0x3C in the low word, 0x41–0x5A in the high one.
        let low: UInt64 = 0x13FF_0000_0000_0000
        let high: UInt64 = 0x07FF_FFFE
        let word = byte < 64 ? low : (byte < 128 ? high : 0)
        return (word >> UInt64(byte & 63)) & 1 != 0
    }

    /// The index of the first byte outside the MRZ alphabet, or `nil`. Eight bytes at a time
    /// (SWAR): for ASCII bytes, `(x | 0x80) − c` keeps its top bit exactly when `x ≥ c`.
    @inline(__always)
    static func firstNonMRZCharacter(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i &+ 8 <= n {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if w & SWAR.high != 0 || !SWAR.allMRZ(w) { break }
            i &+= 8
        }
        while i < n {
            if !isMRZCharacter(p[i]) { return i }
            i &+= 1
        }
        return nil
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

    /// Byte-parallel tests on eight ASCII bytes in a `UInt64`.
    enum SWAR {
        static let high: UInt64 = 0x8080_8080_8080_8080
        static let ones: UInt64 = 0x0101_0101_0101_0101

        /// Top bit of each byte set where the byte is ≥ `c` (bytes and `c` below 0x80).
        @inline(__always) static func atLeast(_ w: UInt64, _ c: UInt8) -> UInt64 {
            ((w | high) &- UInt64(c) &* ones) & high
        }

        /// Top bit of each byte set where the byte equals `c`.
        @inline(__always) static func equal(_ w: UInt64, _ c: UInt8) -> UInt64 {
            let v = w ^ (UInt64(c) &* ones)
            return ~(((v & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | v) & high
        }

        @inline(__always) static func digits(_ w: UInt64) -> UInt64 { atLeast(w, 0x30) & ~atLeast(w, 0x3A) }

        @inline(__always) static func allMRZ(_ w: UInt64) -> Bool {
            let letters = atLeast(w, 0x41) & ~atLeast(w, 0x5B)
            return (digits(w) | letters | equal(w, 0x3C)) == high
        }

        /// Whether any of `n` bytes at `p` is a digit.
        @inline(__always) static func containsDigit(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
            let raw = UnsafeRawPointer(p)
            var i = 0
            while i &+ 8 <= n {
                if digits(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) != 0 { break }
                i &+= 8
            }
            while i < n {
                if p[i] &- 0x30 < 10 { return i }
                i &+= 1
            }
            return nil
        }
    }

    /// Weighted sum of a span, continuing the 7-3-1 cycle from `phase` (0, 1 or 2).
    /// Bytes outside the alphabet have been rejected before this is called.
    @inline(__always)
    static func weightedSum(_ base: UnsafePointer<UInt8>, _ count: Int, phase: inout Int) -> Int {
        var sum = 0
        var i = 0
        var p = phase
        // Bring the cycle to weight 7, then take three characters at a time.
        while p != 0 && i < count {
            sum &+= value(base[i]) &* (p == 1 ? 3 : 1)
            p = p == 2 ? 0 : 2
            i &+= 1
        }
        while i &+ 3 <= count {
            sum &+= value(base[i]) &* 7 &+ value(base[i &+ 1]) &* 3 &+ value(base[i &+ 2])
            i &+= 3
        }
        while i < count {
            sum &+= value(base[i]) &* (p == 0 ? 7 : 3)
            p &+= 1
            i &+= 1
        }
        phase = p % 3
        return sum
    }
}

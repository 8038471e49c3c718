/// The fast path for the common case: an MRZ whose every check digit holds and which raises no
/// warning. It checks the characters and computes every check digit eight bytes at a time in a
/// `UInt64` (SWAR), tests the character classes (digits in dates and check digits, none in codes and
/// names) with per-layout masks, and builds the field index from fixed offsets.
///
/// Anything unusual — a character outside the alphabet, a failed check digit, a long document number,
/// an unknown date part, any warning — returns `nil`, and ``ResultBuilder`` then reads the MRZ the
/// careful way and explains every problem. Both paths give the same result for the same input
/// (tested over every vector, random MRZs and random single-character damage).
enum MRZFastPath {
    /// The canonical text (lines joined by `\n`) padded with zeros to 96 bytes.
    typealias Block = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    static let words = 12

    static let high = MRZCheckDigit.SWAR.high
    static let ones = MRZCheckDigit.SWAR.ones

    @inline(__always) static func atLeast(_ w: UInt64, _ c: UInt8) -> UInt64 { MRZCheckDigit.SWAR.atLeast(w, c) }
    @inline(__always) static func equal(_ w: UInt64, _ c: UInt8) -> UInt64 { MRZCheckDigit.SWAR.equal(w, c) }

    /// The length of `p[0..<n]` without its trailing fillers, eight bytes at a time. The block is
    /// padded, so reading up to 7 bytes before `p` stays inside it only when `n ≥ 8`; shorter fields
    /// are scanned byte by byte.
    @inline(__always) static func lengthWithoutTrailingFillers(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var n = n
        while n >= 8 {
            let w = UnsafeRawPointer(p + (n &- 8)).loadUnaligned(as: UInt64.self)
            let notFiller = ~equal(w, 0x3C) & high
            if notFiller == 0 { n &-= 8; continue }
            // The last non-filler byte is the highest set top bit (little-endian: the latest byte).
            let lastByte = (63 &- notFiller.leadingZeroBitCount) >> 3
            return n &- 8 &+ lastByte &+ 1
        }
        while n > 0 && p[n &- 1] == 0x3C { n &-= 1 }
        return n
    }

    /// The sum of the eight bytes.
    @inline(__always) static func byteSum(_ x: UInt64) -> Int {
        let pairs = (x & 0x00FF_00FF_00FF_00FF) &+ ((x >> 8) & 0x00FF_00FF_00FF_00FF)
        return Int((pairs &* 0x0001_0001_0001_0001) >> 48)
    }

    /// The layout of text that is exactly the MRZ lines joined by single newlines, or `nil`.
    @inline(__always)
    static func canonicalFormat(_ buffer: UnsafeBufferPointer<UInt8>) -> MRZFormat? {
        guard let p = buffer.baseAddress else { return nil }
        switch buffer.count {
        case 89:
            guard p[44] == 0x0A else { return nil }
            return p[0] == UInt8(ascii: "V") ? .mrvA : .td3
        case 73:
            guard p[36] == 0x0A else { return nil }
            if p[0] == UInt8(ascii: "V") { return .mrvB }
            if MRZFormat.isFrenchID(firstLine: p) { return .franceID1988 }
            return .td2
        case 92:
            guard p[30] == 0x0A && p[61] == 0x0A else { return nil }
            return .td1
        default:
            return nil
        }
    }

    /// Copies the located lines into `block` in canonical form (lines joined by `\n`, zero padding).
    @inline(__always)
    static func fill(_ block: UnsafeMutableRawBufferPointer, from lines: MRZLines, width: Int) {
        block.initializeMemory(as: UInt8.self, repeating: 0)
        let out = block.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var k = 0
        for line in 0..<lines.count {
            if line > 0 { out[k] = 0x0A; k += 1 }
            (out + k).update(from: lines.base + lines.start(line), count: width)
            k += width
        }
    }

    /// What the fast path learns of a clean MRZ: plain values only, so that handing it out of the
    /// closure that holds the block costs no reference counting. The caller adds the text.
    struct Reading {
        var index: FieldIndex
        var checks: MRZCheckDigits
        var birth: CalendarDate
        var expiry: CalendarDate?
    }

    /// Reads a clean MRZ from the canonical `block`, or returns `nil` for the careful path.
    static func read(_ block: UnsafeRawBufferPointer, format: MRZFormat, text: String,
                     reference: CalendarDate) -> MRZResult? {
        guard let r = read(block, format: format, reference: reference) else { return nil }
        return MRZResult(clean: format, text: text, index: r.index, checkDigits: r.checks,
                         dateOfBirth: r.birth, dateOfExpiry: r.expiry)
    }

    static func read(_ block: UnsafeRawBufferPointer, format: MRZFormat, reference: CalendarDate) -> Reading? {
        read(block.baseAddress!.assumingMemoryBound(to: UInt8.self),
             count: format.lineCount * (format.lineLength + 1) - 1, format: format, reference: reference)
    }

    /// Reads `count` bytes of canonical text in place: whole words straight from the text, the last
    /// partial word from a zero-padded copy, so nothing is read past the end.
    static func read(_ bytes: UnsafePointer<UInt8>, count: Int, format: MRZFormat, reference: CalendarDate) -> Reading? {
        let table = Table.of(format)
        var sums = (0, 0, 0, 0, 0)
        let flat = table.pointee.flat, stride = table.pointee.stride
        let activeBits = table.pointee.activeGroupBits, checkAt = table.pointee.checkPositions
        let fullWords = count >> 3
        var tail: UInt64 = 0
        var k = fullWords << 3
        while k < count { tail |= UInt64(bytes[k]) << UInt64((k & 7) << 3); k &+= 1 }
        let raw = UnsafeRawPointer(bytes)
        for i in 0..<table.pointee.wordCount {
            let x = i < fullWords ? raw.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self) : tail
            if x & high != 0 { return nil }
            let row = flat + (i &* stride)
            var active = activeBits[i]
            if active & 0x80 != 0 {
                // Letters and fillers only.
                if (atLeast(x, 0x41) & ~atLeast(x, 0x5B)) | equal(x, 0x3C) | row[0] != high { return nil }
                continue
            }
            let digit = atLeast(x, 0x30) & ~atLeast(x, 0x3A)
            let letter = atLeast(x, 0x41) & ~atLeast(x, 0x5B)
            // Every byte in the alphabet (or free), digits where they must be and nowhere they must not.
            if ((digit | letter | equal(x, 0x3C) | row[0]) ^ high) | (~digit & row[1]) | (digit & row[2]) != 0 { return nil }
            if active == 0 { continue }
            // Each character's ICAO 9303-3 §4.9 value (0–9, A=10 … Z=35, < = 0), one per byte: x − 0x30
            // without borrows (the top bit is set first), 7 less for letters, 0 for fillers.
            let digitBytes = (digit >> 7) &* 0xFF
            let letterBytes = (letter >> 7) &* 0xFF
            let base = ((x | high) &- 0x30 &* ones) & 0x7F7F_7F7F_7F7F_7F7F
            let m = (base &- (letterBytes & 0x0707_0707_0707_0707)) & (digitBytes | letterBytes)
            while active != 0 {
                let g = active.trailingZeroBitCount
                active &= active &- 1
                let w = row + (3 &+ 3 &* g)
                let a = m & w[0], b = m & w[1], c = m & w[2]
                // 7a = 4a + 2a + a and 3b = 2b + b: every partial sum stays below 256 (values ≤ 35).
                let s = byteSum((a << 2) &+ (a << 1) &+ a &+ (b << 1) &+ b &+ c)
                switch g {
                case 0: sums.0 &+= s
                case 1: sums.1 &+= s
                case 2: sums.2 &+= s
                case 3: sums.3 &+= s
                default: sums.4 &+= s
                }
            }
        }
        // `sums` is indexed by group; `slots` says which group is which check digit.
        @inline(__always) func holds(_ g: Int) -> Bool {
            if g < 0 { return true }
            let sum: Int
            switch g {
            case 0: sum = sums.0
            case 1: sum = sums.1
            case 2: sum = sums.2
            case 3: sum = sums.3
            default: sum = sums.4
            }
            return Int(bytes[checkAt[g]]) &- 0x30 == sum % 10
        }
        let slots = table.pointee.slots
        guard holds(slots.0), holds(slots.1), holds(slots.2), holds(slots.4) else { return nil }
        var checks = MRZCheckDigits(documentNumber: .valid, dateOfBirth: .valid)
        if slots.2 >= 0 { checks.dateOfExpiry = .valid }
        if slots.4 >= 0 { checks.composite = .valid }
        let places = UnsafeRawPointer(table).advanced(by: MemoryLayout<Table>.offset(of: \Table.places)!)
            .assumingMemoryBound(to: Table.Places.self)
        if slots.3 >= 0 {
            // TD3 personal number: a digit check digit, or `<`/`0` over an all-filler field.
            let check = bytes[checkAt[slots.3]]
            if check == UInt8(ascii: "<") {
                let start = places.pointee.optional1
                for i in start..<(start &+ places.pointee.optional1Count) where bytes[i] != UInt8(ascii: "<") { return nil }
            } else if !(check &- 0x30 < 10) || !holds(slots.3) {
                return nil
            }
            checks.optionalData = .valid
        }

        // Sex, document code, country codes, names: the warnings' conditions.
        let P = places.pointee
        switch bytes[P.sex] {
        case UInt8(ascii: "M"), UInt8(ascii: "F"), UInt8(ascii: "X"), UInt8(ascii: "<"): break
        default: return nil
        }
        let code0 = bytes[P.code], code1 = bytes[P.code &+ 1]
        switch format {
        case .td3: if code0 != UInt8(ascii: "P") { return nil }
        case .mrvA, .mrvB: if code0 != UInt8(ascii: "V") { return nil }
        case .td1, .td2:
            if code0 != UInt8(ascii: "A") && code0 != UInt8(ascii: "C") && code0 != UInt8(ascii: "I") { return nil }
            if code1 == UInt8(ascii: "V") { return nil }
        case .franceID1988: break
        }
        if !knownCode(bytes + P.state) { return nil }
        if P.nationality >= 0 && !knownCode(bytes + P.nationality) { return nil }
        if P.name >= 0 && bytes[P.name] == UInt8(ascii: "<") { return nil }

        // Dates: real calendar dates (all digits, checked by the masks), expiry not before birth.
        guard let birth = date(bytes + P.dob, birth: true, reference: reference) else { return nil }
        var expiry: CalendarDate?
        if P.doe >= 0 {
            guard let e = date(bytes + P.doe, birth: false, reference: reference), !(e < birth) else { return nil }
            expiry = e
        }

        // The field index, from fixed offsets.
        @inline(__always) func trimmed(_ start: Int, _ count: Int) -> FieldRef {
            FieldRef(mode: .raw, start: start, count: lengthWithoutTrailingFillers(bytes + start, count))
        }
        @inline(__always) func identifier(_ start: Int, _ count: Int) -> FieldRef {
            let p = UnsafePointer(bytes + start)
            let e = lengthWithoutTrailingFillers(p, count)
            var s = 0
            while s < e && p[s] == UInt8(ascii: "<") { s &+= 1 }
            return FieldRef(mode: .identifier, start: start &+ s, count: e &- s)
        }
        var index = FieldIndex()
        index.documentCode = trimmed(P.code, 2)
        index.issuingState = trimmed(P.state, 3)
        index.documentNumber = trimmed(P.number, P.numberCount)
        if P.nationality >= 0 { index.nationality = trimmed(P.nationality, 3) }
        index.dateOfBirth = FieldRef(mode: .raw, start: P.dob, count: 6)
        if P.doe >= 0 { index.dateOfExpiry = FieldRef(mode: .raw, start: P.doe, count: 6) }
        index.sex = FieldRef(mode: .sex, start: P.sex, count: 1)
        if P.optional1 >= 0 { index.optionalData1 = trimmed(P.optional1, P.optional1Count) }
        if P.optional2 >= 0 { index.optionalData2 = trimmed(P.optional2, P.optional2Count) }
        if P.name >= 0 {
            let p = bytes + P.name
            var split = -1
            var i = 0
            while i &+ 1 < P.nameCount {
                if p[i] == UInt8(ascii: "<") && p[i &+ 1] == UInt8(ascii: "<") { split = i; break }
                i &+= 1
            }
            if split < 0 {
                index.primaryIdentifier = identifier(P.name, P.nameCount)
                index.secondaryIdentifier = FieldRef(mode: .identifier, start: P.name, count: 0)
            } else {
                index.primaryIdentifier = identifier(P.name, split)
                index.secondaryIdentifier = identifier(P.name &+ split &+ 2, P.nameCount &- split &- 2)
            }
        } else {
            index.primaryIdentifier = identifier(P.primary, P.primaryCount)
            index.secondaryIdentifier = identifier(P.secondary, P.secondaryCount)
        }
        return Reading(index: index, checks: checks, birth: birth, expiry: expiry)
    }

    @inline(__always) static func offset(_ line: Int, _ column: Int, width: Int) -> Int { line * (width + 1) + column }

    /// A known country code of letters padded with fillers (`D<<`, `UTO`).
    @inline(__always) static func knownCode(_ p: UnsafePointer<UInt8>) -> Bool {
        var packed: UInt32 = 0
        var gap = false
        for i in 0..<3 {
            let b = p[i]
            if b == UInt8(ascii: "<") { gap = true; continue }
            if gap || !(b &- 0x41 < 26) { return false }
            packed = packed &* 27 &+ UInt32(b &- 0x40)
        }
        return packed != 0 && CountryCodes.isKnown(packed: packed)
    }

    /// A full `YYMMDD` date on the calendar by ``MRZCenturyRule``; `nil` if it is not a real date.
    @inline(__always) static func date(_ p: UnsafePointer<UInt8>, birth: Bool, reference: CalendarDate) -> CalendarDate? {
        let yy = Int(p[0] &- 0x30) * 10 + Int(p[1] &- 0x30)
        let month = Int(p[2] &- 0x30) * 10 + Int(p[3] &- 0x30)
        let day = Int(p[4] &- 0x30) * 10 + Int(p[5] &- 0x30)
        guard month >= 1 && month <= 12 else { return nil }
        let year = birth ? MRZCenturyRule.birthYear(yy: yy, month: month, day: day, reference: reference)
            : MRZCenturyRule.expiryYear(yy: yy, reference: reference)
        guard day >= 1 && day <= CalendarDate.daysInMonth(year: year, month: month) else { return nil }
        return CalendarDate(year: year, month: month, day: day)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lines of an MRZ located in a byte buffer, without copying them.
///
/// Input may use `\n` or `\r\n`, may indent lines or leave spaces at their ends, and may have blank
/// lines before or after; all of that is whitespace around the MRZ, not part of it. A single line of
/// 72, 88 or 90 characters is taken as the lines written one after the other.
struct MRZLines {
    static let filler = UInt8(ascii: "<")
    /// Longer input is refused before it is scanned: no MRZ comes near it.
    static let maxInputBytes = 4096

    let base: UnsafePointer<UInt8>
    private(set) var starts: (Int, Int, Int) = (0, 0, 0)
    private(set) var lengths: (Int, Int, Int) = (0, 0, 0)
    private(set) var count = 0
    /// True when the input is exactly the lines joined by single `\n`, so it can be kept as the text.
    private(set) var isCanonical = true

    @inline(__always) func start(_ line: Int) -> Int { line == 0 ? starts.0 : (line == 1 ? starts.1 : starts.2) }
    @inline(__always) func length(_ line: Int) -> Int { line == 0 ? lengths.0 : (line == 1 ? lengths.1 : lengths.2) }
    @inline(__always) func pointer(_ span: Span) -> UnsafePointer<UInt8> { base + start(span.line) + span.start }
    @inline(__always) func byte(_ p: Position) -> UInt8 { base[start(p.line) + p.column] }

    private mutating func append(_ start: Int, _ length: Int) {
        switch count {
        case 0: starts.0 = start; lengths.0 = length
        case 1: starts.1 = start; lengths.1 = length
        default: starts.2 = start; lengths.2 = length
        }
        count += 1
    }

    @inline(__always) private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }

    /// Finds the lines and checks every character; throws for anything that is not an MRZ shape.
    /// `validating: false` leaves the character check to the caller (the fast path checks every
    /// character itself, and reads the lines again with validation when it finds a problem).
    init(_ buffer: UnsafeBufferPointer<UInt8>, validating: Bool = true) throws(MRZError) {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            throw MRZError(kind: .emptyInput, line: nil, column: nil, expected: "2 or 3 MRZ lines", found: "no text")
        }
        self.base = base
        let n = buffer.count
        if n > MRZLines.maxInputBytes {
            throw MRZError(kind: .inputTooLong, line: nil, column: nil,
                           expected: "at most \(MRZLines.maxInputBytes) bytes", found: "\(n) bytes")
        }
        var i = 0
        while i < n {
            // The end of this physical line.
            let j: Int
            if let nl = memchr(base + i, 0x0A, n &- i) {
                j = UnsafeRawPointer(nl).assumingMemoryBound(to: UInt8.self) - base
            } else {
                j = n
            }
            var s = i, e = j
            while s < e && MRZLines.isSpace(base[s]) { s &+= 1 }
            while e > s && MRZLines.isSpace(base[e &- 1]) { e &-= 1 }
            if e > s {
                if count == 3 {
                    if !validating { try validateAll() }
                    throw MRZError(kind: .lineCount, line: 4, column: nil, expected: "2 or 3 lines",
                                   found: "more than 3 lines")
                }
                // ICAO 9303-3 §4.1: A–Z, 0–9 and the filler only.
                if validating, let bad = MRZCheckDigit.firstNonMRZCharacter(base + s, e &- s) {
                    throw MRZLines.characterError(base[s + bad], line: count + 1, column: bad + 1)
                }
                append(s, e &- s)
            }
            i = j &+ 1
        }
        if count == 0 {
            throw MRZError(kind: .emptyInput, line: nil, column: nil, expected: "2 or 3 MRZ lines", found: "only whitespace")
        }
        // Canonical: line 1 at offset 0, each next line right after a single `\n`, nothing after the last.
        isCanonical = count >= 2 && starts.0 == 0 && starts.1 == lengths.0 + 1
            && (count == 2 ? starts.1 + lengths.1 == n : (starts.2 == starts.1 + lengths.1 + 1 && starts.2 + lengths.2 == n))
        if count == 1 {
            let len = lengths.0, s = starts.0
            let lineLength: Int
            switch len {
            case 90: lineLength = 30
            case 88: lineLength = 44
            case 72: lineLength = 36
            default:
                if !validating { try validateAll() }
                throw MRZError(kind: .lineCount, line: nil, column: nil,
                               expected: "2 or 3 lines (or one line of 72, 88 or 90 characters)",
                               found: "1 line of \(len) characters")
            }
            count = 0
            var k = 0
            while k < len { append(s + k, lineLength); k += lineLength }
            isCanonical = false
        }
    }

    /// Checks the characters of the lines found so far (for a reading that skipped the check).
    func validateAll() throws(MRZError) {
        for line in 0..<count {
            if let bad = MRZCheckDigit.firstNonMRZCharacter(base + start(line), length(line)) {
                throw MRZLines.characterError(base[start(line) + bad], line: line + 1, column: bad + 1)
            }
        }
    }

    @inline(never)
    static func characterError(_ b: UInt8, line: Int, column: Int) -> MRZError {
        MRZError(kind: (b >= 0x61 && b <= 0x7A) ? .lowercaseCharacter : .illegalCharacter, line: line, column: column,
                 expected: "A–Z, 0–9 or '<'", found: MRZError.describe(byte: b))
    }

    /// Decides the layout from line count, line length and the document code (ICAO 9303-3 §4.2 and
    /// the data-structure notes of Parts 4–7).
    func format() throws(MRZError) -> MRZFormat {
        let first = length(0)
        if count == 3 {
            for line in 0..<3 where length(line) != 30 {
                throw MRZError(kind: .lineLength, line: line + 1, column: nil,
                               expected: "30 characters (3-line TD1)", found: "\(length(line)) characters")
            }
            return .td1
        }
        guard first == 36 || first == 44 else {
            if first == 30 {
                throw MRZError(kind: .lineCount, line: nil, column: nil,
                               expected: "3 lines for a 30-character TD1 MRZ", found: "2 lines")
            }
            throw MRZError(kind: .lineLength, line: 1, column: nil,
                           expected: "36 or 44 characters (TD2, TD3 or visa)", found: "\(first) characters")
        }
        if length(1) != first {
            throw MRZError(kind: .lineLength, line: 2, column: nil,
                           expected: "\(first) characters, as line 1", found: "\(length(1)) characters")
        }
        let code = base[starts.0]
        if first == 44 { return code == UInt8(ascii: "V") ? .mrvA : .td3 }
        if code == UInt8(ascii: "V") { return .mrvB }
        if MRZFormat.isFrenchID(firstLine: base + starts.0) { return .franceID1988 }
        return .td2
    }

    /// The lines joined by `\n`.
    func joined() -> String {
        let lineLength = length(0)
        return String(unsafeUninitializedCapacity: lineLength * count + count - 1) { out in
            let o = out.baseAddress!
            var k = 0
            for line in 0..<count {
                if line > 0 { o[k] = 0x0A; k += 1 }
                (o + k).update(from: base + start(line), count: lineLength)
                k += lineLength
            }
            return k
        }
    }
}

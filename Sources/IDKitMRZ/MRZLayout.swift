/// A run of characters on one MRZ line. Line and start are 0-based; messages add 1.
struct Span: Sendable, Equatable {
    // Bytes, not Ints: a layout is copied on every parse and should stay small.
    private let line8: UInt8
    private let start8: UInt8
    private let count8: UInt8
    init(_ line: Int, _ start: Int, _ count: Int) {
        line8 = UInt8(line)
        start8 = UInt8(start)
        count8 = UInt8(count)
    }
    @inline(__always) var line: Int { Int(line8) }
    @inline(__always) var start: Int { Int(start8) }
    @inline(__always) var count: Int { Int(count8) }
    @inline(__always) var end: Int { start + count }
}

/// Up to four spans stored inline, so that a layout is plain data (no reference counting on the hot path).
struct SpanList: Sendable, Sequence {
    private let spans: (Span, Span, Span, Span)
    let count: Int

    init(_ list: [Span]) {
        let empty = Span(0, 0, 0)
        precondition(list.count <= 4)
        spans = (list.count > 0 ? list[0] : empty, list.count > 1 ? list[1] : empty,
                 list.count > 2 ? list[2] : empty, list.count > 3 ? list[3] : empty)
        count = list.count
    }

    subscript(i: Int) -> Span {
        switch i {
        case 0: return spans.0
        case 1: return spans.1
        case 2: return spans.2
        default: return spans.3
        }
    }

    func makeIterator() -> AnyIterator<Span> {
        var i = 0
        return AnyIterator { () -> Span? in
            guard i < self.count else { return nil }
            defer { i += 1 }
            return self[i]
        }
    }
}

/// A position on the MRZ (0-based line and column).
struct Position: Sendable, Equatable {
    private let line8: UInt8
    private let column8: UInt8
    init(_ line: Int, _ column: Int) {
        line8 = UInt8(line)
        column8 = UInt8(column)
    }
    @inline(__always) var line: Int { Int(line8) }
    @inline(__always) var column: Int { Int(column8) }
}

/// Where every field and check digit of a layout stands.
///
/// The tables follow ICAO Doc 9303 (8th ed.): TD3 Part 4 §4.2.2, TD1 Part 5 §4.2.2, TD2 Part 6 §4.2.2,
/// MRV-A/B Part 7 §4.2.2 and §5.2.2. The French 1988 ID follows the card's published layout.
struct MRZLayout: Sendable {
    let format: MRZFormat
    let documentCode: Span
    let issuingState: Span
    /// ICAO layouts: the whole name field (primary `<<` secondary).
    let name: Span?
    /// French ID: surname and given names stand in separate fields.
    let primaryName: Span?
    let secondaryName: Span?
    let documentNumber: Span
    let documentNumberCheck: Position
    /// TD1/TD2: the optional-data field that continues a long document number (ICAO 9303-5 §4.2.4).
    let longNumberContinuation: Span?
    let nationality: Span?
    let dateOfBirth: Span
    let dateOfBirthCheck: Position
    let sex: Position
    let dateOfExpiry: Span?
    let dateOfExpiryCheck: Position?
    let optionalData1: Span?
    let optionalDataCheck: Position?
    let optionalData2: Span?
    let composite: Position?
    let compositeSpans: SpanList

    static func of(_ format: MRZFormat) -> MRZLayout {
        switch format {
        case .td1: return td1
        case .td2: return td2
        case .td3: return td3
        case .mrvA: return mrvA
        case .mrvB: return mrvB
        case .franceID1988: return franceID1988
        }
    }

    /// TD3 (ICAO 9303-4): line 2 positions 1–9 number, 10 CD, 11–13 nationality, 14–19 birth, 20 CD,
    /// 21 sex, 22–27 expiry, 28 CD, 29–42 personal number, 43 CD, 44 composite over 1–10, 14–20, 22–43.
    static let td3 = MRZLayout(
        format: .td3, documentCode: Span(0, 0, 2), issuingState: Span(0, 2, 3), name: Span(0, 5, 39),
        primaryName: nil, secondaryName: nil,
        documentNumber: Span(1, 0, 9), documentNumberCheck: Position(1, 9), longNumberContinuation: nil,
        nationality: Span(1, 10, 3), dateOfBirth: Span(1, 13, 6), dateOfBirthCheck: Position(1, 19),
        sex: Position(1, 20), dateOfExpiry: Span(1, 21, 6), dateOfExpiryCheck: Position(1, 27),
        optionalData1: Span(1, 28, 14), optionalDataCheck: Position(1, 42), optionalData2: nil,
        composite: Position(1, 43), compositeSpans: SpanList([Span(1, 0, 10), Span(1, 13, 7), Span(1, 21, 22)]))

    /// MRV-A (ICAO 9303-7 §4): as TD3 but optional data 29–44 with no check digit and no composite.
    static let mrvA = MRZLayout(
        format: .mrvA, documentCode: Span(0, 0, 2), issuingState: Span(0, 2, 3), name: Span(0, 5, 39),
        primaryName: nil, secondaryName: nil,
        documentNumber: Span(1, 0, 9), documentNumberCheck: Position(1, 9), longNumberContinuation: nil,
        nationality: Span(1, 10, 3), dateOfBirth: Span(1, 13, 6), dateOfBirthCheck: Position(1, 19),
        sex: Position(1, 20), dateOfExpiry: Span(1, 21, 6), dateOfExpiryCheck: Position(1, 27),
        optionalData1: Span(1, 28, 16), optionalDataCheck: nil, optionalData2: nil,
        composite: nil, compositeSpans: SpanList([]))

    /// TD2 (ICAO 9303-6): optional data 29–35, composite 36 over 1–10, 14–20, 22–35.
    static let td2 = MRZLayout(
        format: .td2, documentCode: Span(0, 0, 2), issuingState: Span(0, 2, 3), name: Span(0, 5, 31),
        primaryName: nil, secondaryName: nil,
        documentNumber: Span(1, 0, 9), documentNumberCheck: Position(1, 9), longNumberContinuation: Span(1, 28, 7),
        nationality: Span(1, 10, 3), dateOfBirth: Span(1, 13, 6), dateOfBirthCheck: Position(1, 19),
        sex: Position(1, 20), dateOfExpiry: Span(1, 21, 6), dateOfExpiryCheck: Position(1, 27),
        optionalData1: Span(1, 28, 7), optionalDataCheck: nil, optionalData2: nil,
        composite: Position(1, 35), compositeSpans: SpanList([Span(1, 0, 10), Span(1, 13, 7), Span(1, 21, 14)]))

    /// MRV-B (ICAO 9303-7 §5): optional data 29–36, no composite.
    static let mrvB = MRZLayout(
        format: .mrvB, documentCode: Span(0, 0, 2), issuingState: Span(0, 2, 3), name: Span(0, 5, 31),
        primaryName: nil, secondaryName: nil,
        documentNumber: Span(1, 0, 9), documentNumberCheck: Position(1, 9), longNumberContinuation: nil,
        nationality: Span(1, 10, 3), dateOfBirth: Span(1, 13, 6), dateOfBirthCheck: Position(1, 19),
        sex: Position(1, 20), dateOfExpiry: Span(1, 21, 6), dateOfExpiryCheck: Position(1, 27),
        optionalData1: Span(1, 28, 8), optionalDataCheck: nil, optionalData2: nil,
        composite: nil, compositeSpans: SpanList([]))

    /// TD1 (ICAO 9303-5): upper 6–14 number, 15 CD, 16–30 optional data; middle 1–6 birth, 7 CD, 8 sex,
    /// 9–14 expiry, 15 CD, 16–18 nationality, 19–29 optional data, 30 composite over upper 6–30 and
    /// middle 1–7, 9–15, 19–29; lower line the name.
    static let td1 = MRZLayout(
        format: .td1, documentCode: Span(0, 0, 2), issuingState: Span(0, 2, 3), name: Span(2, 0, 30),
        primaryName: nil, secondaryName: nil,
        documentNumber: Span(0, 5, 9), documentNumberCheck: Position(0, 14), longNumberContinuation: Span(0, 15, 15),
        nationality: Span(1, 15, 3), dateOfBirth: Span(1, 0, 6), dateOfBirthCheck: Position(1, 6),
        sex: Position(1, 7), dateOfExpiry: Span(1, 8, 6), dateOfExpiryCheck: Position(1, 14),
        optionalData1: Span(0, 15, 15), optionalDataCheck: nil, optionalData2: Span(1, 18, 11),
        composite: Position(1, 29),
        compositeSpans: SpanList([Span(0, 5, 25), Span(1, 0, 7), Span(1, 8, 7), Span(1, 18, 11)]))

    /// French national ID 1988–2021: upper `ID` `FRA`, surname 6–30, office code 31–36; lower 1–12
    /// card number, 13 CD, 14–27 given names, 28–33 birth, 34 CD, 35 sex, 36 composite over the upper
    /// line and lower 1–35.
    static let franceID1988 = MRZLayout(
        format: .franceID1988, documentCode: Span(0, 0, 2), issuingState: Span(0, 2, 3), name: nil,
        primaryName: Span(0, 5, 25), secondaryName: Span(1, 13, 14),
        documentNumber: Span(1, 0, 12), documentNumberCheck: Position(1, 12), longNumberContinuation: nil,
        nationality: nil, dateOfBirth: Span(1, 27, 6), dateOfBirthCheck: Position(1, 33),
        sex: Position(1, 34), dateOfExpiry: nil, dateOfExpiryCheck: nil,
        optionalData1: Span(0, 30, 6), optionalDataCheck: nil, optionalData2: nil,
        composite: Position(1, 35), compositeSpans: SpanList([Span(0, 0, 36), Span(1, 0, 35)]))
}

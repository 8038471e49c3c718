/// Checks that check digits cannot make: ICAO 9303 character classes of codes and names, the sex
/// field, and the calendar.
///
/// What no genuine document can hold is an error (`valid: false`): an impossible or malformed date in
/// a check-digit-protected date field, a digit in the issuing-state or nationality code (ICAO 9303-3
/// §5: three letters or fillers), a sex other than `M`, `F`, `X`, `<` (9303-4/5/6 data-structure
/// tables). A backend acting on `valid` must not have to read warnings to catch an impossible
/// document. What a genuine document may hold stays a warning: an unknown but well-formed country
/// code (new codes appear), digits in names (national transliterations), unexpected document codes.
extension ResultBuilder {
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
    @inline(__always) static func isLetter(_ b: UInt8) -> Bool { b &- 0x41 < 26 }

    mutating func checkSemantics(sexByte: UInt8) {
        checkDocumentCode()
        checkCountryCode(layout.issuingState, field: "issuingState")
        if let nationality = layout.nationality { checkCountryCode(nationality, field: "nationality") }
        checkNames()
        switch sexByte {
        case UInt8(ascii: "M"), UInt8(ascii: "F"), UInt8(ascii: "X"), Self.filler: break
        default:
            error(.invalidSex, "sex", layout.sex, expected: "'M', 'F', 'X' or '<'", found: Self.quoted(sexByte),
                 "sex is \(Self.quoted(sexByte)); the MRZ allows M, F, X or < (unspecified)")
        }
    }

    /// ICAO 9303-4/5/6/7 data-structure notes: TD3 starts `P`, TD1/TD2 `A`, `C` or `I` (second
    /// character not `V`), visas `V`.
    mutating func checkDocumentCode() {
        let span = layout.documentCode
        let p = lines.pointer(span)
        for i in 0..<span.count where Self.isDigit(p[i]) {
            warn(.digitInCode, "documentCode", Position(span.line, span.start + i), expected: "a letter or '<'",
                 found: Self.quoted(p[i]), "the document code holds the digit \(Self.quoted(p[i]))")
            return
        }
        let first = p[0], second = p[1]
        let allowed: String
        let ok: Bool
        switch layout.format {
        case .td3: allowed = "P"; ok = first == UInt8(ascii: "P")
        case .mrvA, .mrvB: allowed = "V"; ok = first == UInt8(ascii: "V")
        case .td1, .td2:
            allowed = "A, C or I"
            ok = (first == UInt8(ascii: "A") || first == UInt8(ascii: "C") || first == UInt8(ascii: "I"))
                && second != UInt8(ascii: "V")
        case .franceID1988: allowed = "ID"; ok = true
        }
        if !ok {
            warn(.unexpectedDocumentCode, "documentCode", Position(span.line, span.start), expected: allowed,
                 found: "'" + Self.raw(p, 2) + "'",
                 "document code '\(Self.raw(p, 2))' is not one ICAO allows for \(layout.format.rawValue) (\(allowed); second character not V)")
        }
    }

    /// ISO 3166-1 alpha-3 or an ICAO 9303-3 §5 code, letters padded with fillers (`D<<`).
    mutating func checkCountryCode(_ span: Span, field: String) {
        let p = lines.pointer(span)
        var packed: UInt32 = 0
        var letters = 0
        var gap = false
        for i in 0..<span.count {
            let b = p[i]
            if Self.isDigit(b) {
                error(.digitInCode, field, Position(span.line, span.start + i), expected: "a letter",
                     found: Self.quoted(b), "\(field) '\(Self.raw(p, span.count))' holds the digit \(Self.quoted(b)), which no check digit covers")
                return
            }
            if b == Self.filler { gap = true; continue }
            if gap { letters = 99; break }
            packed = packed &* 27 &+ UInt32(b - UInt8(ascii: "A") + 1)
            letters += 1
        }
        if letters == 0 || letters > 3 || !CountryCodes.isKnown(packed: packed) {
            let code = Self.raw(p, span.count)
            warn(.unknownCountryCode, field, Position(span.line, span.start), expected: "an ISO 3166-1 alpha-3 or ICAO code",
                 found: "'" + code + "'", "\(field) '\(code)' is not an ISO 3166-1 alpha-3 code or an ICAO 9303-3 code")
        }
    }

    mutating func checkNames() {
        if let span = layout.name {
            checkNameDigits(span)
            if lines.pointer(span)[0] == Self.filler {
                warn(.emptyPrimaryIdentifier, "primaryIdentifier", Position(span.line, span.start), expected: "a surname",
                     found: "'<'", "the name field starts with a filler: the primary identifier is empty")
            }
        }
        if let primary = layout.primaryName { checkNameDigits(primary) }
        if let secondary = layout.secondaryName { checkNameDigits(secondary) }
    }

    private mutating func checkNameDigits(_ span: Span) {
        let p = lines.pointer(span)
        if let i = MRZCheckDigit.SWAR.containsDigit(p, span.count) {
            warn(.digitInName, "name", Position(span.line, span.start + i), expected: "a letter or '<'",
                 found: Self.quoted(p[i]), "the name holds the digit \(Self.quoted(p[i])) (an OCR error, or a national transliteration)")
        }
    }

    // MARK: Dates

    /// Date of birth: `YYMMDD`, or with unknown parts as fillers `YYMM<<`, `YY<<<<`, `<<<<<<`
    /// (ICAO 9303-3, unknown dates of birth).
    mutating func resolveBirthDate() -> CalendarDate? {
        let span = layout.dateOfBirth
        let p = lines.pointer(span)
        var digits = 0
        while digits < 6 && Self.isDigit(p[digits]) { digits += 1 }
        var fillers = digits
        while fillers < 6 && p[fillers] == Self.filler { fillers += 1 }
        if fillers < 6 || (digits != 6 && digits != 4 && digits != 2 && digits != 0) {
            let bad = fillers < 6 ? fillers : digits
            let b = p[bad]
            if Self.isDigit(b) || b == Self.filler {
                error(.impossibleDate, "dateOfBirth", Position(span.line, span.start + bad), expected: "YYMMDD, YYMM<<, YY<<<< or <<<<<<",
                     found: "'" + Self.raw(p, 6) + "'", "date of birth '\(Self.raw(p, 6))': unknown parts must be whole trailing fields")
            } else {
                error(.invalidDateCharacter, "dateOfBirth", Position(span.line, span.start + bad), expected: "a digit or '<'",
                     found: Self.quoted(b), "date of birth holds \(Self.quoted(b)) in column \(span.start + bad + 1)")
            }
            return nil
        }
        let reference = self.reference
        return resolve(p, span: span, digits: digits, field: "dateOfBirth") { yy, month, day in
            MRZCenturyRule.birthYear(yy: yy, month: month, day: day, reference: reference)
        }
    }

    /// Date of expiry: always a full `YYMMDD`.
    mutating func resolveExpiryDate(_ span: Span) -> CalendarDate? {
        let p = lines.pointer(span)
        for i in 0..<6 where !Self.isDigit(p[i]) {
            error(.invalidDateCharacter, "dateOfExpiry", Position(span.line, span.start + i), expected: "a digit",
                 found: Self.quoted(p[i]), "date of expiry holds \(Self.quoted(p[i])) in column \(span.start + i + 1)")
            return nil
        }
        let reference = self.reference
        return resolve(p, span: span, digits: 6, field: "dateOfExpiry") { yy, _, _ in
            MRZCenturyRule.expiryYear(yy: yy, reference: reference)
        }
    }

    private mutating func resolve(_ p: UnsafePointer<UInt8>, span: Span, digits: Int, field: String,
                                  year: (Int, Int?, Int?) -> Int) -> CalendarDate? {
        func two(_ i: Int) -> Int { Int(p[i] - 0x30) * 10 + Int(p[i + 1] - 0x30) }
        guard digits >= 2 else { return nil }
        let yy = two(0)
        let month = digits >= 4 ? two(2) : nil
        if let month, month < 1 || month > 12 {
            error(.impossibleDate, field, Position(span.line, span.start + 2), expected: "a month 01–12",
                 found: "'" + Self.raw(p + 2, 2) + "'", "\(field) '\(Self.raw(p, 6))' has month \(Self.raw(p + 2, 2))")
            return nil
        }
        guard digits == 6, let month else { return nil }
        let day = two(4)
        let y = year(yy, month, day)
        guard day >= 1 && day <= CalendarDate.daysInMonth(year: y, month: month) else {
            error(.impossibleDate, field, Position(span.line, span.start + 4), expected: "a day of the month",
                 found: "'" + Self.raw(p + 4, 2) + "'", "\(field) '\(Self.raw(p, 6))' has no day \(Self.raw(p + 4, 2)) in \(y)-\(Self.raw(p + 2, 2))")
            return nil
        }
        return CalendarDate(year: y, month: month, day: day)
    }
}

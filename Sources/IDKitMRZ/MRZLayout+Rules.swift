/// What may stand at one position of an MRZ (ICAO 9303-3 §4.2 and the data-structure tables of
/// Parts 4–7). The parser, the corrector and the image reader's decoder and verifier all take their
/// tables from ``MRZFormat/characterClasses`` rather than restating the layout.
public enum MRZCharacterClass: String, Sendable, Codable, Hashable {
    /// `A`–`Z` or `<`: document code, issuing state, nationality, names.
    case letterOrFiller
    /// `0`–`9`: dates of expiry, check digits, the French card number's digits.
    case digit
    /// `0`–`9` or `<`: the date of birth (unknown parts, ICAO 9303-3), the TD1/TD2 document-number
    /// check digit (`<` announces a long number, 9303-5 §4.2.4), the TD3 personal-number check
    /// digit (`<` when the field is empty, 9303-4 §4.2.2).
    case digitOrFiller
    /// `M`, `F`, `X` or `<`.
    case sex
    /// `A`–`Z`, `0`–`9` or `<`: document numbers and optional data.
    case alphanumeric

    /// Whether `byte` (ASCII) belongs to the class.
    public func contains(_ byte: UInt8) -> Bool {
        let isDigit = byte &- 0x30 < 10, isLetter = byte &- 0x41 < 26, isFiller = byte == UInt8(ascii: "<")
        switch self {
        case .letterOrFiller: return isLetter || isFiller
        case .digit: return isDigit
        case .digitOrFiller: return isDigit || isFiller
        case .sex: return byte == UInt8(ascii: "M") || byte == UInt8(ascii: "F") || byte == UInt8(ascii: "X") || isFiller
        case .alphanumeric: return isDigit || isLetter || isFiller
        }
    }
}

/// One check digit of a layout: the characters it covers, in the order their 7-3-1 weights run
/// (ICAO 9303-3 §4.9), and where it stands.
public struct MRZCheckDigitRule: Sendable, Equatable {
    /// The JSON contract's name: `documentNumber`, `dateOfBirth`, `dateOfExpiry`, `optionalData`
    /// or `composite`.
    public var field: String
    public var covered: [MRZCharacterRange]
    public var checkDigit: MRZCharacterRange

    /// Every covered position as (line, column), in weight order.
    public var coveredPositions: [(line: Int, column: Int)] {
        covered.flatMap { r in (r.column..<(r.column + r.count)).map { (line: r.line, column: $0) } }
    }
}

extension MRZFormat {
    /// The character class of every position, `[line][column]`, from the layout's fields.
    public var characterClasses: [[MRZCharacterClass]] { MRZLayout.of(self).characterClasses }

    /// The check digits of the layout, each field's own first (document number, birth, expiry,
    /// personal number), the composite last (TD1 Part 5 §4.2.2: upper 6–30, middle 1–7, 9–15,
    /// 19–29; TD2 and TD3 Parts 6 and 4: lower 1–10, 14–20, 22–35 or 22–43). A TD1/TD2 long
    /// document number moves its check digit into the optional data; the rule given here is the
    /// short number's, and a reader must follow the `<` in the check-digit position itself.
    public var checkDigitRules: [MRZCheckDigitRule] { MRZLayout.of(self).checkDigitRules }
}

extension MRZLayout {
    var characterClasses: [[MRZCharacterClass]] {
        let width = format.lineLength
        var classes = [[MRZCharacterClass]](repeating: [MRZCharacterClass](repeating: .alphanumeric, count: width),
                                            count: format.lineCount)
        func set(_ span: Span?, _ c: MRZCharacterClass) {
            guard let span else { return }
            for i in span.start..<span.end { classes[span.line][i] = c }
        }
        func set(_ p: Position?, _ c: MRZCharacterClass) {
            guard let p else { return }
            classes[p.line][p.column] = c
        }
        set(documentCode, .letterOrFiller)
        set(issuingState, .letterOrFiller)
        set(nationality, .letterOrFiller)
        set(name, .letterOrFiller)
        set(primaryName, .letterOrFiller)
        set(secondaryName, .letterOrFiller)
        set(sex, .sex)
        set(dateOfBirth, .digitOrFiller)
        set(dateOfExpiry, .digit)
        set(dateOfBirthCheck, .digit)
        set(dateOfExpiryCheck, .digit)
        set(composite, .digit)
        set(documentNumberCheck, longNumberContinuation == nil ? .digit : .digitOrFiller)
        set(optionalDataCheck, .digitOrFiller)
        if format == .franceID1988 {
            // Card number: year and month of issue, a 3-character office code, a 5-digit sequence.
            set(Span(1, 0, 4), .digit)
            set(Span(1, 7, 5), .digit)
        }
        return classes
    }

    var checkDigitRules: [MRZCheckDigitRule] {
        func r(_ s: Span) -> MRZCharacterRange { MRZCharacterRange(line: s.line, column: s.start, count: s.count) }
        func r(_ p: Position) -> MRZCharacterRange { MRZCharacterRange(line: p.line, column: p.column, count: 1) }
        var rules = [MRZCheckDigitRule(field: "documentNumber", covered: [r(documentNumber)], checkDigit: r(documentNumberCheck)),
                     MRZCheckDigitRule(field: "dateOfBirth", covered: [r(dateOfBirth)], checkDigit: r(dateOfBirthCheck))]
        if let span = dateOfExpiry, let check = dateOfExpiryCheck {
            rules.append(MRZCheckDigitRule(field: "dateOfExpiry", covered: [r(span)], checkDigit: r(check)))
        }
        if let span = optionalData1, let check = optionalDataCheck {
            rules.append(MRZCheckDigitRule(field: "optionalData", covered: [r(span)], checkDigit: r(check)))
        }
        if let composite {
            rules.append(MRZCheckDigitRule(field: "composite", covered: compositeSpans.map { r($0) }, checkDigit: r(composite)))
        }
        return rules
    }
}

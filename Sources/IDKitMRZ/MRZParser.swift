/// Parses and validates MRZ text as ICAO Doc 9303 (8th edition) specifies.
///
/// ```swift
/// let result = try MRZParser().parse("""
///     P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<
///     L898902C36UTO7408122F1204159ZE184226B<<<<<10
///     """)
/// result.fields.documentNumber   // "L898902C3"
/// result.isValid                 // true
/// ```
public struct MRZParser: Sendable {
    /// The date that dates of birth may not follow and that expiry centuries are chosen around
    /// (``MRZCenturyRule``).
    public var referenceDate: CalendarDate

    public init(referenceDate: CalendarDate = .today) {
        self.referenceDate = referenceDate
    }

    /// Parses MRZ lines separated by newlines (or one line of all characters).
    public func parse(_ text: String) throws(MRZError) -> MRZResult {
        var text = text
        let original = text
        let result: Result<MRZResult, MRZError> = text.withUTF8 { buffer in
            Result { () throws(MRZError) -> MRZResult in try self.parse(buffer, original: original) }
        }
        return try result.get()
    }

    /// Parses MRZ lines given one per element.
    public func parse(lines: [String]) throws(MRZError) -> MRZResult {
        try parse(lines.joined(separator: "\n"))
    }

    /// Parses MRZ text given as UTF-8 bytes.
    public func parse(utf8 buffer: UnsafeBufferPointer<UInt8>) throws(MRZError) -> MRZResult {
        try parse(buffer, original: nil)
    }

    func parse(_ buffer: UnsafeBufferPointer<UInt8>, original: String?) throws(MRZError) -> MRZResult {
        let lines = try MRZLines(buffer)
        let format = try lines.format()
        let text = (lines.isCanonical ? original : nil) ?? lines.joined()
        var builder = ResultBuilder(lines: lines, layout: MRZLayout.of(format), reference: referenceDate)
        return builder.build(text: text)
    }
}

/// Reads the fields of one layout out of located lines and judges them.
struct ResultBuilder {
    let lines: MRZLines
    let layout: MRZLayout
    let reference: CalendarDate
    var errors: [MRZIssue] = []
    var warnings: [MRZIssue] = []
    var deviations: [MRZIssue] = []

    init(lines: MRZLines, layout: MRZLayout, reference: CalendarDate) {
        self.lines = lines
        self.layout = layout
        self.reference = reference
    }

    static let filler = UInt8(ascii: "<")

    mutating func build(text: String) -> MRZResult {
        var checks = MRZCheckDigits()
        let (documentNumber, optionalData1) = readDocumentNumber(&checks)

        let dob = lines.pointer(layout.dateOfBirth)
        checks.dateOfBirth = checkDigit("dateOfBirth", [layout.dateOfBirth], at: layout.dateOfBirthCheck)
        var dateOfExpiry: String?
        if let span = layout.dateOfExpiry, let check = layout.dateOfExpiryCheck {
            dateOfExpiry = Self.raw(lines.pointer(span), span.count)
            checks.dateOfExpiry = checkDigit("dateOfExpiry", [span], at: check)
            if checks.dateOfExpiry == .invalid && isExpiryOmitted {
                deviations.append(MRZIssue(
                    code: .expiryDateOmitted, field: "dateOfExpiry", line: check.line + 1, column: check.column + 1,
                    expected: nil, found: "'<<<<<<<'",
                    message: "the date of expiry and its check digit are fillers, as on Russian internal passports"))
            }
        }
        if let span = layout.optionalData1, let check = layout.optionalDataCheck {
            checks.optionalData = personalNumberCheckDigit(span, at: check)
        }
        if let composite = layout.composite {
            checks.composite = checkDigit("composite", layout.compositeSpans, at: composite)
        }

        let (primary, secondary) = readName()
        let sexByte = lines.byte(layout.sex)
        let fields = MRZFields(
            documentCode: Self.trimmed(lines.pointer(layout.documentCode), layout.documentCode.count),
            issuingState: Self.trimmed(lines.pointer(layout.issuingState), layout.issuingState.count),
            documentNumber: documentNumber,
            primaryIdentifier: primary,
            secondaryIdentifier: secondary,
            nationality: layout.nationality.map { Self.trimmed(lines.pointer($0), $0.count) },
            dateOfBirth: Self.raw(dob, 6),
            sex: sexByte == Self.filler ? "" : Self.raw(lines.pointer(Span(layout.sex.line, layout.sex.column, 1)), 1),
            dateOfExpiry: dateOfExpiry,
            optionalData1: optionalData1,
            optionalData2: layout.optionalData2.map { Self.trimmed(lines.pointer($0), $0.count) })

        checkSemantics(sexByte: sexByte)
        let birth = resolveBirthDate()
        var expiry: CalendarDate?
        if let span = layout.dateOfExpiry, !isExpiryOmitted { expiry = resolveExpiryDate(span) }
        if let birth, let expiry, expiry < birth, let span = layout.dateOfExpiry {
            warn(.expiryBeforeBirth, "dateOfExpiry", Position(span.line, span.start), expected: nil, found: nil,
                 "the date of expiry \(expiry) is before the date of birth \(birth)")
        }
        return MRZResult(format: layout.format, text: text, fields: fields, checkDigits: checks,
                         dateOfBirth: birth, dateOfExpiry: expiry,
                         errors: errors, warnings: warnings, deviations: deviations)
    }

    /// The date of expiry and its check digit are all fillers.
    var isExpiryOmitted: Bool {
        guard let span = layout.dateOfExpiry else { return false }
        let p = lines.pointer(span)
        for i in 0...span.count where p[i] != Self.filler { return false }
        return true
    }

    // MARK: Document number

    /// Reads the document number and, for layouts with one, the first optional-data field, which a
    /// TD1/TD2 long number shares (ICAO 9303-5 §4.2.4, 9303-6 likewise): a `<` in the check-digit
    /// position, the rest of the number and its check digit in the optional data, then one filler.
    mutating func readDocumentNumber(_ checks: inout MRZCheckDigits) -> (String, String?) {
        let numberSpan = layout.documentNumber
        let number = lines.pointer(numberSpan)
        let checkPosition = layout.documentNumberCheck
        let optional = layout.optionalData1.map { Self.trimmed(lines.pointer($0), $0.count) }

        guard let continuation = layout.longNumberContinuation, lines.byte(checkPosition) == Self.filler else {
            checks.documentNumber = checkDigit("documentNumber", [numberSpan], at: checkPosition)
            return (Self.trimmed(number, numberSpan.count), optional)
        }
        let rest = lines.pointer(continuation)
        var extent = 0
        while extent < continuation.count && rest[extent] != Self.filler { extent += 1 }
        guard extent > 0 else {
            checks.documentNumber = .invalid
            error(.missingLongDocumentNumber, "documentNumber", checkPosition, expected: "a check digit", found: "'<'",
                  "the document-number check digit is a filler, which announces a long number, but the optional data holds no continuation")
            return (Self.trimmed(number, numberSpan.count), optional)
        }
        // The last character before the first filler is the check digit of the whole number.
        let checkColumn = continuation.start + extent - 1
        let found = rest[extent - 1]
        var phase = 0
        let sum = MRZCheckDigit.weightedSum(number, numberSpan.count, phase: &phase)
            + MRZCheckDigit.weightedSum(rest, extent - 1, phase: &phase)
        let expected = UInt8(sum % 10) + UInt8(ascii: "0")
        let position = Position(continuation.line, checkColumn)
        if found == expected {
            checks.documentNumber = .valid
        } else {
            checks.documentNumber = .invalid
            error(.invalidCheckDigit, "documentNumber", position, expected: Self.quoted(expected), found: Self.quoted(found),
                  "document-number check digit is \(Self.quoted(found)), expected \(Self.quoted(expected)) for the long number")
            // Issuer deviation: the digit computed with the filler of the check-digit position included.
            var phase2 = 0
            var withFiller = MRZCheckDigit.weightedSum(number, numberSpan.count, phase: &phase2)
            phase2 = (phase2 + 1) % 3  // the filler weighs 0 but takes a weight position
            withFiller += MRZCheckDigit.weightedSum(rest, extent - 1, phase: &phase2)
            if UInt8(withFiller % 10) + UInt8(ascii: "0") == found {
                deviations.append(MRZIssue(
                    code: .longNumberCheckDigitIncludesFiller, field: "documentNumber",
                    line: position.line + 1, column: position.column + 1, expected: Self.quoted(expected), found: Self.quoted(found),
                    message: "the long-number check digit was computed over the number with the filler in position \(checkPosition.column + 1) included, as some Belgian and Portuguese cards do"))
            }
        }
        let fullNumber = String(unsafeUninitializedCapacity: numberSpan.count + extent - 1) { out in
            for i in 0..<numberSpan.count { out[i] = number[i] }
            for i in 0..<(extent - 1) { out[numberSpan.count + i] = rest[i] }
            return numberSpan.count + extent - 1
        }
        // What follows the check digit and its one filler is the genuine optional data.
        let afterStart = min(extent + 1, continuation.count)
        let remaining = Self.trimmed(rest + afterStart, continuation.count - afterStart)
        return (fullNumber, remaining)
    }

    // MARK: Check digits

    /// ICAO 9303-3 §4.9 over one or more spans, the 7-3-1 cycle running on across them.
    mutating func checkDigit(_ field: String, _ spans: [Span], at position: Position) -> CheckDigitStatus {
        var phase = 0
        var sum = 0
        for span in spans { sum += MRZCheckDigit.weightedSum(lines.pointer(span), span.count, phase: &phase) }
        let expected = UInt8(sum % 10) + UInt8(ascii: "0")
        let found = lines.byte(position)
        if found == expected { return .valid }
        let what = field == "composite" ? "composite check digit" : "check digit of \(field)"
        error(.invalidCheckDigit, field, position, expected: Self.quoted(expected), found: Self.quoted(found),
              "\(what) is \(Self.quoted(found)), expected \(Self.quoted(expected))")
        return .invalid
    }

    /// TD3 personal number: the check digit may be `<` (or `0`) only when the field is all fillers
    /// (ICAO 9303-4 §4.2.2, note on the optional-data check digit).
    mutating func personalNumberCheckDigit(_ span: Span, at position: Position) -> CheckDigitStatus {
        let p = lines.pointer(span)
        var empty = true
        for i in 0..<span.count where p[i] != Self.filler { empty = false; break }
        let found = lines.byte(position)
        if empty && (found == Self.filler || found == UInt8(ascii: "0")) { return .valid }
        if found == Self.filler {
            error(.invalidCheckDigit, "optionalData", position, expected: "a digit", found: "'<'",
                  "the personal-number check digit may be '<' only when the personal number is empty")
            return .invalid
        }
        return checkDigit("optionalData", [span], at: position)
    }

    // MARK: Names

    /// ICAO 9303-3 §4.6: primary identifier, `<<`, secondary identifier; single `<` between components.
    func readName() -> (String, String) {
        if let primary = layout.primaryName, let secondary = layout.secondaryName {
            return (Self.identifier(lines.pointer(primary), primary.count),
                    Self.identifier(lines.pointer(secondary), secondary.count))
        }
        guard let span = layout.name else { return ("", "") }
        let p = lines.pointer(span)
        var split = -1
        var i = 0
        while i + 1 < span.count {
            if p[i] == Self.filler && p[i + 1] == Self.filler { split = i; break }
            i += 1
        }
        if split < 0 { return (Self.identifier(p, span.count), "") }
        return (Self.identifier(p, split), Self.identifier(p + split + 2, span.count - split - 2))
    }

    // MARK: Strings

    static func raw(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// The field with trailing fillers removed.
    static func trimmed(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
        var m = n
        while m > 0 && p[m - 1] == filler { m -= 1 }
        return raw(p, m)
    }

    /// Fillers at both ends removed, each inner run of fillers as one space.
    static func identifier(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
        var s = 0, e = n
        while s < e && p[s] == filler { s += 1 }
        while e > s && p[e - 1] == filler { e -= 1 }
        if s == e { return "" }
        return String(unsafeUninitializedCapacity: e - s) { out in
            var k = 0
            var previousWasFiller = false
            for i in s..<e {
                let b = p[i]
                if b == filler {
                    if !previousWasFiller { out[k] = 0x20; k += 1 }
                    previousWasFiller = true
                } else {
                    out[k] = b
                    k += 1
                    previousWasFiller = false
                }
            }
            return k
        }
    }

    static func quoted(_ b: UInt8) -> String { "'" + String(UnicodeScalar(b)) + "'" }

    // MARK: Issues

    mutating func error(_ code: MRZIssue.Code, _ field: String, _ at: Position, expected: String?, found: String?, _ message: String) {
        errors.append(MRZIssue(code: code, field: field, line: at.line + 1, column: at.column + 1,
                               expected: expected, found: found, message: message))
    }

    mutating func warn(_ code: MRZIssue.Code, _ field: String, _ at: Position, expected: String?, found: String?, _ message: String) {
        warnings.append(MRZIssue(code: code, field: field, line: at.line + 1, column: at.column + 1,
                                 expected: expected, found: found, message: message))
    }
}
